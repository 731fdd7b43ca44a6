"""The intent report: a classifier measured on the held-out templates.

Per-intent precision and recall on the test split (`sklearn.metrics`), and the two figures
the person-request stage is held to: recall of `person` through the *whole* stage (rules and
model, as the pipeline runs it) and the share of clean questions — every non-person test
utterance — that the stage would wrongly hand over. Accuracy is also given per language
(`text/language.detect_language` on each test utterance), because an English embedding model
must be measured on Spanish before it is trusted with Spanish.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.understanding.classifier import IntentClassifier, classify_all
from billing_toolkit.assistant.understanding.complaint import is_complaint
from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.assistant.understanding.person_request import asks_for_person
from billing_toolkit.assistant.understanding.remembering import RememberingClassifier
from billing_toolkit.assistant.understanding.utterances import Utterance, load_utterances

MAX_FALSE_HANDOVER_RATE = 0.02
"""The person-request bar's other half: clean questions wrongly handed over (recall: 100 %)."""


@dataclass(frozen=True, slots=True)
class IntentReport:
    classifier: str
    test_rows: int
    accuracy: float
    accuracy_by_language: dict[str, float]
    rows_by_language: dict[str, int]
    per_intent: dict[str, dict[str, float]]
    person_recall: float
    false_handover_rate: float
    missed_person: tuple[str, ...]
    false_handovers: tuple[str, ...]

    @property
    def keeps_person_bar(self) -> bool:
        return self.person_recall == 1.0 and self.false_handover_rate <= MAX_FALSE_HANDOVER_RATE

    def to_dict(self) -> dict[str, Any]:
        return {
            "classifier": self.classifier,
            "test_rows": self.test_rows,
            "accuracy": self.accuracy,
            "accuracy_by_language": self.accuracy_by_language,
            "rows_by_language": self.rows_by_language,
            "per_intent": self.per_intent,
            "person_recall": self.person_recall,
            "false_handover_rate": self.false_handover_rate,
            "missed_person": list(self.missed_person),
            "false_handovers": list(self.false_handovers),
        }


def measure(
    classifier: IntentClassifier, rows: tuple[Utterance, ...] | None = None
) -> IntentReport:
    # scikit-learn is imported lazily: loading a model must not pay for its metrics.
    from sklearn.metrics import precision_recall_fscore_support

    test = load_utterances().test if rows is None else rows
    truth = [row.label.value for row in test]
    # One batch for the figures; the person-request stage then reads the remembered answers.
    classifier = RememberingClassifier(classifier, size=max(len(test), 1))
    predicted = [p.label.value for p in classify_all(classifier, [row.text for row in test])]
    labels = [label.value for label in IntentLabel]
    precision, recall, _, support = precision_recall_fscore_support(
        truth,
        predicted,
        labels=labels,
        zero_division=0,
    )
    per_intent = {
        label: {"precision": float(p), "recall": float(r), "support": int(n)}
        # Arrays, one score per label (`average=None`).
        for label, p, r, n in zip(labels, precision, recall, support, strict=True)
    }
    # The whole people-first stage, as the turn runs it: a complaint, then a person request.
    handed = [
        is_complaint(row.text) is not None or asks_for_person(row.text, classifier) is not None
        for row in test
    ]
    person = [row for row, h in zip(test, handed, strict=True) if row.label is IntentLabel.PERSON]
    missed = tuple(
        row.text
        for row, h in zip(test, handed, strict=True)
        if row.label is IntentLabel.PERSON and not h
    )
    false = tuple(
        row.text
        for row, h in zip(test, handed, strict=True)
        if row.label is not IntentLabel.PERSON and h
    )
    clean = len(test) - len(person)
    languages = [detect_language(row.text).value for row in test]
    by_language = {
        language.value: _share(
            [
                t == p
                for t, p, lang in zip(truth, predicted, languages, strict=True)
                if lang == language
            ]
        )
        for language in Language
    }
    return IntentReport(
        classifier=classifier.name,
        test_rows=len(test),
        accuracy=_share([t == p for t, p in zip(truth, predicted, strict=True)]),
        accuracy_by_language=by_language,
        rows_by_language={language.value: languages.count(language.value) for language in Language},
        per_intent=per_intent,
        person_recall=1 - len(missed) / max(len(person), 1),
        false_handover_rate=len(false) / max(clean, 1),
        missed_person=missed,
        false_handovers=false,
    )


def _share(hits: list[bool]) -> float:
    return sum(hits) / max(len(hits), 1)
