"""Not a package: this folder is the `billing-toolkit-pytest-plugin` distribution, whose code is `billing_toolkit.pytest_plugin`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.pytest_plugin`.
"""

raise ImportError(
    "'pytest_plugin' is the folder of the billing-toolkit-pytest-plugin distribution: import billing_toolkit.pytest_plugin"
)
