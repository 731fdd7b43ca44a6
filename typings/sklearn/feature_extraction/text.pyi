from typing import Any

import numpy as np

class TfidfVectorizer:
    vocabulary_: dict[str, int]
    idf_: np.ndarray[Any, Any]
    def __init__(
        self,
        *,
        analyzer: str = "word",
        ngram_range: tuple[int, int] = (1, 1),
        sublinear_tf: bool = False,
        token_pattern: str | None = r"(?u)\b\w\w+\b",
    ) -> None: ...
