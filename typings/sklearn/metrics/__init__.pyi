from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np

_Array: TypeAlias = np.ndarray[Any, Any]

def precision_recall_fscore_support(
    y_true: Sequence[str],
    y_pred: Sequence[str],
    *,
    labels: Sequence[str] | None = None,
    zero_division: str | float = "warn",
) -> tuple[_Array, _Array, _Array, _Array]: ...
