"""Models generated from `contract/openapi.yaml`: never edit by hand.

Regenerate with `python tools/generate_client.py` (a repository tool, not shipped with the
SDK); `tests/client/test_codegen.py` fails when the checked-in files differ from a fresh generation. `billing.py` holds the pydantic models
(money as `Decimal`), `operations.py` binds each kernel operation to its models, and
`methods.py` holds the typed methods of both client twins.
"""
