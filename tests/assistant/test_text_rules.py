"""The keyword rules: language, requests for a person, forbidden promises (es/en)."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.guards.forbidden_phrases import PromiseKind, find_forbidden_phrases
from billing_toolkit.assistant.text.folding import strip_accents
from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.understanding.person_request import asks_for_person


class TestLanguage:
    @pytest.mark.parametrize(
        "text", ["¿Cuál es mi saldo?", "quiero hablar con un asesor", "Buenos días, ¿cuánto debo?"]
    )
    def test_spanish(self, text: str) -> None:
        assert detect_language(text) is Language.SPANISH

    @pytest.mark.parametrize(
        "text", ["What is my balance?", "why is my bill higher this month", "a human please"]
    )
    def test_english(self, text: str) -> None:
        assert detect_language(text) is Language.ENGLISH

    @pytest.mark.parametrize("text", ["INV-2026-004281", "ok", "1000004821", ""])
    def test_no_signal_keeps_the_conversation_language(self, text: str) -> None:
        assert detect_language(text, fallback=Language.ENGLISH) is Language.ENGLISH
        assert detect_language(text) is Language.SPANISH


class TestPersonRequest:
    @pytest.mark.parametrize(
        "text",
        [
            "Quiero hablar con un asesor",
            "agente",
            "AGENTE!!",
            "Asesor por favor",
            "pásame con una persona real",
            "necesito un asesor urgente",
            "comunícame con atención al cliente",
            "a human please",
            "Human",
            "I want to speak to a real person",
            "connect me to an agent",
            "can I talk to someone?",
            "get me a representative",
        ],
    )
    def test_requests_for_a_person(self, text: str) -> None:
        assert asks_for_person(text)

    @pytest.mark.parametrize(
        "text",
        [
            "¿Puedo pagar en un agente autorizado?",
            "¿cuántas personas pueden conectarse?",
            "¿Cuál es mi saldo?",
            "quiero pagar mi factura",
            "what does the agent fee cover?",
            "my balance please",
        ],
    )
    def test_billing_questions_that_mention_people_are_not_requests(self, text: str) -> None:
        assert asks_for_person(text) is None


class TestForbiddenPhrases:
    @pytest.mark.parametrize(
        ("text", "kind"),
        [
            ("Te garantizo que mañana tendrás internet.", PromiseKind.GUARANTEE),
            ("We guarantee it.", PromiseKind.GUARANTEE),
            ("Tu reembolso fue aprobado.", PromiseKind.REFUND),
            ("Te devolveremos el dinero.", PromiseKind.REFUND),
            ("Your refund has been approved.", PromiseKind.REFUND),
            ("Eliminamos el recargo por mora.", PromiseKind.WAIVER),
            ("El cargo fue exonerado.", PromiseKind.WAIVER),
            ("We will waive the late fee.", PromiseKind.WAIVER),
            ("The charge has been removed.", PromiseKind.WAIVER),
            ("Tu servicio ya está reconectado.", PromiseKind.SERVICE_RESTORED),
            ("Ya tienes internet otra vez.", PromiseKind.SERVICE_RESTORED),
            ("Your service has been restored.", PromiseKind.SERVICE_RESTORED),
            ("Si no paga, iniciaremos acciones legales.", PromiseKind.LEGAL_THREAT),
            ("We will take legal action.", PromiseKind.LEGAL_THREAT),
        ],
    )
    def test_promises_the_bot_cannot_keep_are_found(self, text: str, kind: PromiseKind) -> None:
        assert kind in {p.kind for p in find_forbidden_phrases(text)}

    @pytest.mark.parametrize(
        "text",
        [
            "El servicio se reconecta dentro de 24 horas después del pago.",
            "The late fee is 5% of the amount still due.",
            "Tu saldo es USD 45,00 y vence el 10 de diciembre de 2026.",
            "Service is reconnected within 24 hours of payment.",
        ],
    )
    def test_policy_facts_are_not_promises(self, text: str) -> None:
        assert find_forbidden_phrases(text) == []


class TestStrippingAccents:
    @pytest.mark.parametrize(
        ("text", "plain"),
        [
            ("Veintiséis AÑOS, pingüino", "Veintiseis ANOS, pinguino"),
            ("İstanbul", "Istanbul"),  # its lower() would be two characters long
            ("1.º 2° ½ ﬁ", "1.º 2° ½ ﬁ"),  # no marks to strip: kept as written
            ("e\u0301 \u0301", "e\u0301 \u0301"),  # already decomposed: one for one, kept
            ("plain ASCII", "plain ASCII"),
        ],
    )
    def test_one_character_for_one(self, text: str, plain: str) -> None:
        stripped = strip_accents(text)
        assert stripped == plain
        assert len(stripped) == len(text)
