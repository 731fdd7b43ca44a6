"""The consoles' shared language choice: the browser's first language we speak, Spanish when
it lists none, and a console's words in the language chosen."""

from __future__ import annotations

import pytest

from billing_toolkit.webconsole.i18n import DEFAULT, LANGUAGES, SHARED, pick, wording


@pytest.mark.parametrize(("header", "language"), [
    ("en-US,en;q=0.9,es;q=0.8", "en"),
    ("fr-FR, ES;q=0.5", "es"),
    ("de, fr", DEFAULT),
    ("", DEFAULT),
])  # fmt: skip
def test_the_first_language_the_browser_lists_that_we_speak_wins(
    header: str, language: str
) -> None:
    assert pick(header) == language


def test_a_console_reads_its_table_in_the_chosen_language_or_the_default() -> None:
    texts = wording({"title": ("Consola", "Console")})
    assert LANGUAGES == ("es", "en")
    assert texts("en") == {"title": "Console"} | {key: en for key, (_, en) in SHARED.items()}
    assert (
        texts("es")
        == texts("xx")
        == {"title": "Consola"} | {k: es for k, (es, _) in SHARED.items()}
    )
