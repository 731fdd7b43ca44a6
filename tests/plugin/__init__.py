"""The pytest plugin's tests: user suites run in-process by `pytester`.

PyYAML is imported here, in the outer process, on purpose: `pytester` drops every module a
user suite imported first once that run ends, and a second run would then import a fresh
`yaml` package over the C extension the first one loaded (which cannot be unloaded), so the
fresh resolver no longer recognises the extension's nodes ("could not determine a
constructor for the tag None"). Imported once before any run, it is never dropped.
"""

import yaml  # noqa: F401
