"""MiniLM through ONNX Runtime: sentence-transformers' vectors and answers, without torch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from billing_toolkit.assistant.retrieval import SHIPPED_KNOWLEDGE
from billing_toolkit.assistant.retrieval.cache_files import cache_directory
from billing_toolkit.assistant.retrieval.embedders import MiniLMEmbedder, minilm, minilm_onnx
from billing_toolkit.assistant.retrieval.embedders.base import Vectors, l2_normalise
from billing_toolkit.assistant.retrieval.embedders.minilm import (
    DIMENSION,
    encode_with_sentence_transformers,
    load_encoder,
)
from billing_toolkit.assistant.retrieval.ingest import read_folder
from billing_toolkit.assistant.understanding.embedding_classifier import EmbeddingClassifier
from billing_toolkit.assistant.understanding.ensemble import EnsembleClassifier
from billing_toolkit.assistant.understanding.models import ENSEMBLE_WEIGHTS, intent_model
from billing_toolkit.assistant.understanding.utterances import load_utterances
from tests.project.test_static_checks import library_mismatches, stub_module, stubs

WEIGHTS = minilm_onnx.weights_directory()
TOO_LONG = "factura vencida con recargo por mora " * 60
"""Beyond the model's 256 tokens: both pipelines must cut it at the same place."""


class SentenceTransformersMiniLM(MiniLMEmbedder):
    """The reference: the same model, identity and cache entries, run by sentence-transformers
    (each text once per module: the tests share what it embedded)."""

    def __init__(self, known: dict[str, np.ndarray]) -> None:
        super().__init__()
        self.known = known

    def embed(self, texts: Sequence[str]) -> Vectors:
        new = [text for text in dict.fromkeys(texts) if text not in self.known]
        if new:
            vectors = l2_normalise(encode_with_sentence_transformers(new, 32))
            self.known.update(zip(new, vectors, strict=True))
        return np.stack([self.known[text] for text in texts])


@pytest.fixture(scope="module")
def reference() -> SentenceTransformersMiniLM:
    return SentenceTransformersMiniLM({})


@pytest.fixture(scope="module")
def exported() -> Path:
    """The graph in the machine's cache directory (exported there once per machine)."""
    assert load_encoder() is not encode_with_sentence_transformers, "no ONNX graph here"
    return next(cache_directory().glob(f"minilm-{minilm_onnx.export_key(WEIGHTS)}.onnx"))


def _held_out() -> list[str]:
    """A third of the held-out utterances, every language and label among them: torch embeds
    each once for the reference, which is most of this module's time."""
    return [row.text for row in load_utterances().test][::3]


def _texts() -> list[str]:
    utterances = _held_out()
    chunks = [chunk.text for chunk in read_folder(SHIPPED_KNOWLEDGE)][::5]  # long: a few do
    return [*utterances, *chunks, TOO_LONG, "ñandú, pingüino, İstanbul", "¿", "x"]


def test_the_onnx_vectors_are_sentence_transformers_vectors(
    exported: Path, reference: SentenceTransformersMiniLM
) -> None:
    texts = _texts()
    assert len(texts) > 250
    onnx = MiniLMEmbedder().embed(texts)
    expected = reference.embed(texts)
    assert onnx.shape == expected.shape == (len(texts), DIMENSION)
    assert onnx.dtype == np.float32
    assert np.min(np.sum(onnx * expected, axis=1)) > 1 - 1e-5
    assert np.max(np.abs(onnx - expected)) < 1e-4


@pytest.mark.parametrize("stub", stubs(with_the_model=True), ids=stub_module)
def test_the_stub_of_a_library_that_loads_torch_matches_it(
    stub: Path, reference: SentenceTransformersMiniLM
) -> None:
    """`tests/project/test_static_checks.py` holds the other stubs; these are checked here,
    after the reference has loaded the libraries (importing them costs seconds)."""
    assert library_mismatches(stub) == []


def test_the_ensemble_answers_held_out_rows_exactly_as_before(
    exported: Path, reference: SentenceTransformersMiniLM
) -> None:
    rows = load_utterances()
    messages = _held_out()
    before = EnsembleClassifier(
        [intent_model("ngram"), EmbeddingClassifier(rows.train, reference)], ENSEMBLE_WEIGHTS
    )
    now = EnsembleClassifier(
        [intent_model("ngram"), EmbeddingClassifier(rows.train, MiniLMEmbedder())],
        ENSEMBLE_WEIGHTS,
    )
    expected = [prediction.label for prediction in before.classify_all(messages)]
    assert [prediction.label for prediction in now.classify_all(messages)] == expected


@pytest.mark.parametrize("content", [b"", b"not a graph", b"\x08\x07" * 50])
def test_a_damaged_graph_is_exported_again(
    exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    target = tmp_path / exported.name
    target.write_bytes(content)
    exports: list[Path] = []

    def export(weights: Path, into: Path) -> None:
        exports.append(into)
        shutil.copy(exported, into)

    monkeypatch.setattr(minilm_onnx, "export_onnx", export)
    session = minilm_onnx.open_session(WEIGHTS, DIMENSION, tmp_path)
    assert len(exports) == 1 and exports[0].parent != tmp_path  # written aside, then renamed
    minilm_onnx.open_session(WEIGHTS, DIMENSION, tmp_path)
    assert len(exports) == 1, "a sound graph is loaded, not exported again"
    vectors = minilm_onnx.OnnxMiniLM(WEIGHTS, session).encode(["hola"], 32)
    assert vectors.shape == (1, DIMENSION)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [target.name, f"{target.stem}.lock"]
    )


def test_a_graph_of_another_model_is_not_used(exported: Path, tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    node = helper.make_node("Identity", ["input_ids"], ["hidden"])
    graph = helper.make_graph(
        [node],
        "other",
        [helper.make_tensor_value_info("input_ids", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, [1, 8])],
    )
    other = tmp_path / "other.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), other)
    assert minilm_onnx.load_session(other, DIMENSION) is None
    assert minilm_onnx.load_session(exported, DIMENSION) is not None


def test_the_key_follows_the_weights_and_the_exporter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("config.json", "model.safetensors"):
        shutil.copy(WEIGHTS / name, tmp_path / name)
    key = minilm_onnx.export_key(tmp_path)
    assert key == minilm_onnx.export_key(WEIGHTS)
    with open(tmp_path / "model.safetensors", "r+b") as weights:
        weights.seek(-1, os.SEEK_END)
        last = weights.read(1)
        weights.seek(-1, os.SEEK_END)
        weights.write(bytes([last[0] ^ 1]))
    assert minilm_onnx.export_key(tmp_path) != key
    monkeypatch.setattr(minilm_onnx, "_version", lambda name: "0.0")
    assert minilm_onnx.export_key(WEIGHTS) != key


def test_where_no_graph_can_be_exported_sentence_transformers_embeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def cannot_export(*_: object) -> None:
        raise RuntimeError("no exporter here")

    monkeypatch.setattr(minilm_onnx, "open_session", cannot_export)
    assert minilm.load_encoder.__wrapped__() is encode_with_sentence_transformers


def test_ask_with_the_default_model_imports_no_torch(exported: Path) -> None:
    """A new process, as an operator's shell starts one, with the machine's cache warm."""
    intent_model("ensemble")  # the fitted models are in the cache directory too
    code = (
        "import sys\n"
        "from billing_toolkit.assistant.cli import main\n"
        "status = main(['ask', '¿Cuánto debo?', '--phone', '+584121234567', '--json'])\n"
        "print(status, sorted(m for m in ('torch', 'sentence_transformers', 'transformers')"
        " if m in sys.modules))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "ASSISTANT_INTENT_MODEL"}
    run = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "0 []"
