"""Chunks follow headings, have stable content-derived ids and carry their metadata."""

from __future__ import annotations

from billing_toolkit.assistant.retrieval.chunking import chunk_markdown
from billing_toolkit.assistant.retrieval.records import Chunk

DOC = """# Pagos

Intro general.

## Zelle

Solo cuentas en USD.

```
# no es un encabezado
```

## Vacío

### Efectivo

En oficinas.
"""


def test_sections_become_chunks_with_heading_paths() -> None:
    chunks = chunk_markdown("es/pagos.md", DOC, language="es")
    assert [c.heading_path for c in chunks] == [
        ("Pagos",),
        ("Pagos", "Zelle"),
        ("Pagos", "Vacío", "Efectivo"),
    ]
    assert "# no es un encabezado" in chunks[1].text
    assert all(c.language == "es" and c.document == "es/pagos.md" for c in chunks)


def test_ids_are_stable_and_change_only_with_content() -> None:
    first = chunk_markdown("es/pagos.md", DOC, language="es")
    again = chunk_markdown("es/pagos.md", DOC, language="es")
    edited = chunk_markdown(
        "es/pagos.md", DOC.replace("En oficinas.", "En tiendas."), language="es"
    )
    assert [c.chunk_id for c in first] == [c.chunk_id for c in again]
    assert [c.chunk_id for c in edited][:2] == [c.chunk_id for c in first][:2]
    assert edited[2].chunk_id != first[2].chunk_id
    assert first[0].chunk_id.startswith("es/pagos.md#")


def test_the_same_text_in_another_document_gets_another_id() -> None:
    here = chunk_markdown("es/a.md", DOC, language="es")
    there = chunk_markdown("es/b.md", DOC, language="es")
    assert not {c.chunk_id for c in here} & {c.chunk_id for c in there}


def test_repeated_passages_do_not_collide() -> None:
    doc = "# T\n\nigual\n\n" + "x " * 30 + "\n\nigual\n"
    chunks = chunk_markdown("d.md", doc, language="es", max_words=5)
    assert len({c.chunk_id for c in chunks}) == len(chunks)


def test_long_sections_are_split_at_sentences_within_the_limit() -> None:
    sentence = "Esta es una oración de prueba con diez palabras exactas aquí."
    doc = "# Largo\n\n" + " ".join([sentence] * 40)
    chunks = chunk_markdown("d.md", doc, language="es", max_words=50)
    assert len(chunks) > 1
    assert all(len(c.text.split()) <= 50 for c in chunks)
    assert all(c.text.endswith(".") for c in chunks)


def test_shipped_kb_chunks_carry_language_from_their_folder(shipped_chunks: list[Chunk]) -> None:
    assert {c.language for c in shipped_chunks} == {"es", "en"}
    assert all(c.document.startswith(f"{c.language}/") for c in shipped_chunks)
    assert len({c.chunk_id for c in shipped_chunks}) == len(shipped_chunks)


def test_a_long_section_is_never_cut_at_an_abbreviation() -> None:
    sentence = "Abrimos de 8:00 a. m. a 5:00 p. m. y el equipo cuesta USD 45,00 o Bs. 1.640,00."
    doc = "# Oficinas\n\n" + " ".join([sentence] * 6)
    chunks = chunk_markdown("d.md", doc, language="es", max_words=40)
    assert len(chunks) > 1
    for chunk in chunks:
        body = chunk.text.split("\n", 1)[-1].strip()
        assert body.startswith("Abrimos") and body.endswith("Bs. 1.640,00."), body
