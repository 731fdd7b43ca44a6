"""The simulator inside your own pytest suite.

Installing the package registers the plugin (`simulator.testing.plugin`), which gives
every test two fixtures: `billing_sim` (in-process, no socket, virtual time) and
`billing_sim_server` (uvicorn on loopback, for socket faults). Both yield a `BillingSim`;
see `simulator/testing/README.md`. Outside pytest, `open_billing_sim` opens one.
"""

from simulator.testing.faults import SOCKET_KINDS, LoopbackRequired
from simulator.testing.handle import BillingSim
from simulator.testing.options import OptionError, SimOptions
from simulator.testing.session import SharedDatasetModified, open_billing_sim

__all__ = [
    "SOCKET_KINDS",
    "BillingSim",
    "LoopbackRequired",
    "OptionError",
    "SharedDatasetModified",
    "SimOptions",
    "open_billing_sim",
]
