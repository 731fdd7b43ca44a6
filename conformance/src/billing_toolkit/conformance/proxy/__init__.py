"""The validating proxy: `billing-contract proxy --upstream URL` judges live traffic against
the contract (schemas, the kit's response rules, the business rules by id), logs each
violation masked, records traffic masked (`--record`) and writes the kit's report on exit;
`proxy-replay FILE` judges a recording the same way.

Modules: `app` (the ASGI reverse proxy), `schema_judge` and `judging` (one exchange's
verdicts), `verdict`, `session` (the tally and report), `recording` (JSON lines, masked),
`replay`, `server` (assembly, uvicorn), `cli`.
"""

from billing_toolkit.conformance.proxy.replay import replay
from billing_toolkit.conformance.proxy.verdict import Verdict

__all__ = ["Verdict", "replay"]
