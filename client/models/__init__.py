"""Models generated from `contract/openapi.yaml`: never edit by hand.

Regenerate with `python -m client.codegen`; `tests/client/test_codegen.py` fails when the
checked-in files differ from a fresh generation. `billing.py` holds the pydantic models (money
as `Decimal`), `operations.py` the operation table the client is driven by.
"""
