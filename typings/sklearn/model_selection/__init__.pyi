from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

class GroupKFold:
    def __init__(self, n_splits: int = 5) -> None: ...
    def split(
        self, X: Sequence[Any], y: Any = None, groups: Sequence[Any] | None = None
    ) -> Iterator[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]: ...
