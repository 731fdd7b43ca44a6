"""Not a package: this folder is the `billing-toolkit-assistant` distribution, whose code is `billing_toolkit.assistant`.

Imported by its bare name from a checkout, the folder would load a second copy of every module
(with classes that are not the installed ones), so it refuses: import `billing_toolkit.assistant`.
"""

raise ImportError(
    "'assistant' is the folder of the billing-toolkit-assistant distribution: import billing_toolkit.assistant"
)
