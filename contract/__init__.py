"""Not a package: this folder is the `billing-toolkit-contract` distribution, whose code is `billing_toolkit.contract`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.contract`.
"""

raise ImportError(
    "'contract' is the folder of the billing-toolkit-contract distribution: import billing_toolkit.contract"
)
