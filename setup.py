"""Lays the repository's top-level folders out under one import namespace, `billing_toolkit`.

The folders stay where a reader of the repository expects them (`client/`, `simulator/`...),
but nothing installs a generic top-level name such as `client` into a user's site-packages:
`client/` installs as `billing_toolkit.client`, and so on. Everything else about the
distribution (dependencies, extras, scripts) is declared in `pyproject.toml`.
"""

from setuptools import find_packages, setup

NAMESPACE = "billing_toolkit"
FOLDERS = ("contract", "client", "simulator", "conformance", "assistant", "pytest_plugin",
           "webconsole")

packages = [
    f"{NAMESPACE}.{name}"
    for name in find_packages(include=[pattern for folder in FOLDERS for pattern in (folder, f"{folder}.*")])
]

setup(
    packages=packages,
    package_dir={f"{NAMESPACE}.{folder}": folder for folder in FOLDERS},
)
