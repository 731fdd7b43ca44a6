# The one corner of transformers the toolkit calls (exporting MiniLM to ONNX once), typed for
# pyright: the package is too large to bind for one call (about 40 s of the suite's type check).
# tests/project/test_static_checks.py holds this signature to the installed library's.

from typing import Any

class AutoModel:
    @classmethod
    def from_pretrained(cls, *model_args: Any, **kwargs: Any) -> Any: ...
