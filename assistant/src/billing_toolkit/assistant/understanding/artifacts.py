"""Fitted intent models kept on disk: each is fitted once per version of what it is fitted on.

Fitting the n-gram model takes seconds, and every CLI run, replica and test process used to
pay it again for the same rows. A fit is a pure function of its training data, its settings
and the libraries that run it, so those, hashed (`artifact_key`), name the file; a new
utterance set, a changed setting or analyzer, or another scikit-learn / SciPy / NumPy version
is another key, hence another file. Fits run on one BLAS thread (`threadpool_limits(1)`): with
several, the summation order — and so the last bits of the coefficients — depends on the
machine's core count, and the file would not be a function of its key (one thread is also the
cheapest: the matrices are small, and the test workers already share the cores).

Format: the fitted *arrays* in a NumPy `.npz`, read with `allow_pickle=False`, and the
estimator rebuilt from them (`estimator_arrays.py`). Chosen over joblib/pickle because a cache
directory may be shared or tampered with, and loading a pickle runs whatever code it names;
arrays cannot. The file also carries its key, so one copied over another is not trusted.

Bias, as in `vector_cache.py`: the cache only ever saves time. A missing, unreadable,
truncated, stale or inconsistent file is refitted and rewritten atomically (a temporary file
in the same directory, then `os.replace`: a reader sees the old file or the new one, never
half of one); a directory that cannot be written is simply not used. Concurrent processes
(pytest-xdist workers, replicas starting together) take a per-key lock, so one of them fits
and the others wait for its file instead of fitting too.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from billing_toolkit.assistant.retrieval.cache_files import build_lock, cache_directory

ARTIFACT_FORMAT = 2
"""Bumped when the file layout or the way an estimator is rebuilt changes."""

Arrays = Mapping[str, npt.NDArray[np.generic]]
Fitted = TypeVar("Fitted")

FITS: Counter[str] = Counter()
"""Fits this process ran, per artifact kind: how a test tells "loaded" from "fitted again"."""

_DAMAGED = (OSError, ValueError, KeyError, IndexError, TypeError, EOFError, zipfile.BadZipFile)
_log = logging.getLogger(__name__)


def library_versions() -> dict[str, str]:
    """The libraries whose code decides a fit's result (the solver is SciPy's L-BFGS)."""
    # Read from the installed metadata: importing scikit-learn costs seconds, and a process
    # that loads a fitted model must not pay for it just to name the version.
    return {
        "numpy": np.__version__,
        "scipy": metadata.version("scipy"),
        "sklearn": metadata.version("scikit-learn"),
    }


def artifact_key(kind: str, settings: Mapping[str, object], data: Iterable[bytes]) -> str:
    """The hash of everything a fit depends on; `data` is the training data, in row order
    (the order changes the solver's sums). Each chunk is length-prefixed, so chunks never run
    into one another."""
    header = {
        "format": ARTIFACT_FORMAT,
        "kind": kind,
        "settings": settings,
        "versions": library_versions(),
    }
    digest = hashlib.sha256(json.dumps(header, sort_keys=True, default=repr).encode("utf-8"))
    for chunk in data:
        digest.update(len(chunk).to_bytes(8, "little"))
        digest.update(chunk)
    return digest.hexdigest()


def load_or_fit(
    kind: str,
    key: str,
    fit: Callable[[], Fitted],
    dump: Callable[[Fitted], Arrays],
    rebuild: Callable[[Arrays], Fitted],
    directory: Path | None = None,
) -> Fitted:
    """The estimator stored under `key`, rebuilt; else `fit()`, stored (see the docstring).

    `dump` turns a fitted estimator into arrays and `rebuild` turns them back, raising
    ValueError/KeyError (or any of `_DAMAGED`) on arrays that are not a consistent estimator.
    """
    folder = cache_directory() if directory is None else directory
    path = folder / f"{kind}-{key}.npz"
    loaded = _load(path, key, rebuild)
    if loaded is not None:
        return loaded
    with build_lock(path):
        loaded = _load(path, key, rebuild)  # another process may have fitted it meanwhile
        if loaded is not None:
            return loaded
        from threadpoolctl import threadpool_limits

        with threadpool_limits(1):
            fitted = fit()
        FITS[kind] += 1
        _store(path, key, dump(fitted))
    return fitted


def _load(path: Path, key: str, rebuild: Callable[[Arrays], Fitted]) -> Fitted | None:
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
        if str(arrays.pop("artifact_key")) != key:
            return None
        return rebuild(arrays)
    except _DAMAGED as exc:
        if path.exists():
            _log.info("intent model artifact %s not used (%s): refitting", path.name, exc)
        return None


def _store(path: Path, key: str, arrays: Arrays) -> None:
    temporary: Path | None = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
            temporary = Path(handle.name)
            np.savez(handle, allow_pickle=False, artifact_key=np.array(key), **arrays)
        os.replace(temporary, path)
    except OSError as exc:
        _log.debug("intent model artifact not written (%s)", type(exc).__name__)
        if temporary is not None:
            temporary.unlink(missing_ok=True)
