# The one corner of sentence-transformers the toolkit calls (the MiniLM embedder), typed for
# pyright. The library ships no types of its own, so pyright would otherwise bind the whole of
# `transformers` to infer them: a third of the suite's type check, for two methods.
# tests/project/test_static_checks.py holds these signatures to the installed library's.

from typing import Any

import numpy as np

class SentenceTransformer:
    def __init__(
        self, model_name_or_path: str | None = None, *, device: str | None = None
    ) -> None: ...
    def encode(
        self,
        inputs: list[str],
        *,
        batch_size: int = 32,
        show_progress_bar: bool | None = None,
        convert_to_numpy: bool = True,
        normalize_embeddings: bool = False,
    ) -> np.ndarray[Any, Any]: ...
