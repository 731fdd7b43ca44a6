"""The fault vocabulary: kinds, rules, the registry that decides per request, scenario files
and their named states, the fault clock and the event log.

The admin API, the CLI's `validate` and the pytest plugin speak it without serving HTTP, so
none of these modules imports the ASGI layer (Starlette, `endpoint`, `runtime`, `app`,
`middleware`); the layer that applies a decision to a request is
`billing_toolkit.simulator.fault_injection`, which depends on this package and not the
reverse. A regular package (not a namespace one) so that a built wheel contains it.
"""
