"""Not a package: this folder is the `billing-toolkit-webconsole` distribution, whose code is `billing_toolkit.webconsole`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.webconsole`.
"""

raise ImportError(
    "'webconsole' is the folder of the billing-toolkit-webconsole distribution: import billing_toolkit.webconsole"
)
