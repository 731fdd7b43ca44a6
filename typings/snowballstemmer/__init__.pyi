# The corner of snowballstemmer the retrieval analyzer calls, typed for pyright: inferring
# `stemmer`'s return type binds all 37 generated stemmer classes (about 3 s of the suite's
# type check). tests/project/test_static_checks.py holds these signatures to the library's.

from snowballstemmer.basestemmer import BaseStemmer

def algorithms() -> list[str]: ...
def stemmer(lang: str) -> BaseStemmer: ...
