"""Not a package: this folder is the `billing-toolkit-client` distribution, whose code is `billing_toolkit.client`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.client`.
"""

raise ImportError(
    "'client' is the folder of the billing-toolkit-client distribution: import billing_toolkit.client"
)
