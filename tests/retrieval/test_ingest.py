"""Re-ingesting a changed folder embeds and writes only the changed chunks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from billing_toolkit.assistant.retrieval.backends import SqliteStore
from billing_toolkit.assistant.retrieval.cache_files import ENV_CACHE
from billing_toolkit.assistant.retrieval.embedders import HashingEmbedder
from billing_toolkit.assistant.retrieval.errors import KnowledgeBaseError
from billing_toolkit.assistant.retrieval.ingest import IngestProgress, ingest_folder, language_of


class CountingEmbedder(HashingEmbedder):
    """The default embedder, recording every text it is asked to embed."""

    def __init__(self, dimension: int = 512) -> None:
        super().__init__(dimension)
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]):  # type: ignore[no-untyped-def]
        self.embedded.extend(texts)
        return super().embed(texts)


class CostlyCountingEmbedder(CountingEmbedder):
    """A stand-in for a model (MiniLM): costly, so its knowledge-base vectors are cached."""

    @property
    def identity(self) -> str:
        return "costly-" + super().identity

    @property
    def costly(self) -> bool:
        return True


DOCS = {
    "es/pagos.md": "# Pagos\n\n## Zelle\n\nSolo USD.\n\n## Efectivo\n\nEn oficinas.\n",
    "en/fees.md": "# Fees\n\n## Late fee\n\n5% of the amount due.\n",
}


def test_first_ingest_adds_everything(write_docs: Callable[[dict[str, str]], Path]) -> None:
    store, embedder = SqliteStore(None), CountingEmbedder()
    report = ingest_folder(store, write_docs(DOCS), embedder)
    assert (report.documents, report.chunks, report.added, report.removed) == (2, 3, 3, 0)
    assert len(embedder.embedded) == 3


def test_unchanged_folder_embeds_nothing(write_docs: Callable[[dict[str, str]], Path]) -> None:
    store, embedder = SqliteStore(None), CountingEmbedder()
    folder = write_docs(DOCS)
    ingest_folder(store, folder, embedder)
    embedder.embedded.clear()
    report = ingest_folder(store, folder, embedder)
    assert (report.added, report.removed, report.unchanged) == (0, 0, 3)
    assert embedder.embedded == []


def test_an_edit_re_embeds_only_the_edited_chunk(
    write_docs: Callable[[dict[str, str]], Path],
) -> None:
    store, embedder = SqliteStore(None), CountingEmbedder()
    ingest_folder(store, write_docs(DOCS), embedder)
    before = store.chunk_ids()
    embedder.embedded.clear()
    edited = dict(
        DOCS, **{"es/pagos.md": DOCS["es/pagos.md"].replace("En oficinas.", "En tiendas.")}
    )
    report = ingest_folder(store, write_docs(edited), embedder)
    assert (report.added, report.removed, report.unchanged) == (1, 1, 2)
    assert len(embedder.embedded) == 1 and "En tiendas." in embedder.embedded[0]
    assert len(before & store.chunk_ids()) == 2


def test_a_deleted_document_leaves_the_store(write_docs: Callable[[dict[str, str]], Path]) -> None:
    store = SqliteStore(None)
    folder = write_docs(DOCS)
    ingest_folder(store, folder, HashingEmbedder())
    (folder / "en/fees.md").unlink()
    report = ingest_folder(store, folder, HashingEmbedder())
    assert report.removed == 1
    assert all(chunk_id.startswith("es/") for chunk_id in store.chunk_ids())


def test_changing_the_embedder_rebuilds_the_store(
    write_docs: Callable[[dict[str, str]], Path],
) -> None:
    store = SqliteStore(None)
    folder = write_docs(DOCS)
    ingest_folder(store, folder, HashingEmbedder())
    report = ingest_folder(store, folder, HashingEmbedder(dimension=256))
    assert report.rebuilt and report.added == 3
    assert store.embedder_identity() == HashingEmbedder(dimension=256).identity


def test_progress_is_reported_for_each_stage(write_docs: Callable[[dict[str, str]], Path]) -> None:
    events: list[IngestProgress] = []
    ingest_folder(SqliteStore(None), write_docs(DOCS), HashingEmbedder(), progress=events.append)
    assert events[-1] == IngestProgress("embedding", 3, 3)
    assert IngestProgress("chunking", 2, 2) in events


def test_missing_or_empty_folders_are_errors(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError, match="not found"):
        ingest_folder(SqliteStore(None), tmp_path / "nope", HashingEmbedder())
    with pytest.raises(KnowledgeBaseError, match="no Markdown"):
        ingest_folder(SqliteStore(None), tmp_path, HashingEmbedder())


def test_language_comes_from_the_first_folder() -> None:
    assert language_of("es/pagos.md") == "es"
    assert language_of("en/fees.md") == "en"
    assert language_of("notes.md") == "und"
    assert language_of("fr/frais.md") == "und"


def test_a_costly_embedder_embeds_the_shipped_texts_once_across_stores(
    write_docs: Callable[[dict[str, str]], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A replica (or a test process) starting on an empty in-memory store: the vectors of the
    # same chunks come from the cache directory, not from the model again.
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))
    folder = write_docs(DOCS)
    first, again = CostlyCountingEmbedder(), CostlyCountingEmbedder()
    ingest_folder(SqliteStore(None), folder, first)
    store = SqliteStore(None)
    report = ingest_folder(store, folder, again)
    assert len(first.embedded) == 3 and again.embedded == []
    assert report.added == 3 and store.count() == 3
    # An edited chunk is a text never embedded: the model sees it, and only it.
    edited = dict(DOCS, **{"en/fees.md": DOCS["en/fees.md"].replace("5%", "6%")})
    fresh = CostlyCountingEmbedder()
    ingest_folder(SqliteStore(None), write_docs(edited), fresh)
    assert len(fresh.embedded) == 1 and "6%" in fresh.embedded[0]


def test_a_cheap_embedder_writes_nothing_to_the_cache(
    write_docs: Callable[[dict[str, str]], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_CACHE, str(tmp_path / "cache"))
    ingest_folder(SqliteStore(None), write_docs(DOCS), CountingEmbedder())
    assert not (tmp_path / "cache").exists()
