"""The simulator inside your own pytest suite.

Installing the package registers the plugin (`billing_toolkit.pytest_plugin.plugin`), which gives
every test two fixtures: `billing_sim` (in-process, no socket, virtual time) and
`billing_sim_server` (uvicorn on loopback, for socket faults). Both yield a `BillingSim`;
see `pytest_plugin/README.md`. Outside pytest, `open_billing_sim` opens one.
"""

from billing_toolkit.pytest_plugin.faults import SOCKET_KINDS, LoopbackRequired
from billing_toolkit.pytest_plugin.handle import BillingSim
from billing_toolkit.pytest_plugin.options import OptionError, SimOptions
from billing_toolkit.pytest_plugin.session import SharedDatasetModified, open_billing_sim

__all__ = [
    "SOCKET_KINDS",
    "BillingSim",
    "LoopbackRequired",
    "OptionError",
    "SharedDatasetModified",
    "SimOptions",
    "open_billing_sim",
]
