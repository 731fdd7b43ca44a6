from typing import Any, Self

import numpy as np

class Pipeline:
    steps: list[tuple[str, Any]]
    classes_: np.ndarray[Any, Any]
    def fit(self, X: Any, y: Any = None) -> Self: ...
    def predict_proba(self, X: Any) -> np.ndarray[Any, Any]: ...

class FeatureUnion:
    transformer_list: list[tuple[str, Any]]
    def __init__(self, transformer_list: list[tuple[str, Any]]) -> None: ...

def make_pipeline(*steps: Any) -> Pipeline: ...
