"""Not a package: this folder is the `billing-toolkit-simulator` distribution, whose code is `billing_toolkit.simulator`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.simulator`.
"""

raise ImportError(
    "'simulator' is the folder of the billing-toolkit-simulator distribution: import billing_toolkit.simulator"
)
