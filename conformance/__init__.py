"""Not a package: this folder is the `billing-toolkit-conformance` distribution, whose code is `billing_toolkit.conformance`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.conformance`.
"""

raise ImportError(
    "'conformance' is the folder of the billing-toolkit-conformance distribution: import billing_toolkit.conformance"
)
