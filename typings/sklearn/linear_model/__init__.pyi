from typing import Any, Self

import numpy as np

class LogisticRegression:
    classes_: np.ndarray[Any, Any]
    coef_: np.ndarray[Any, Any]
    intercept_: np.ndarray[Any, Any]
    def __init__(
        self, *, C: float = 1.0, random_state: int | None = None, max_iter: int = 100
    ) -> None: ...
    def fit(self, X: Any, y: Any) -> Self: ...
    def predict_proba(self, X: Any) -> np.ndarray[Any, Any]: ...
