"""The labelled utterance set: templates expanded deterministically, split by template.

Splitting by *row* would put "quiero hablar con un asesor" in training and "quiero hablar con
una persona" in test and measure memory, not understanding; every template is therefore
wholly in the train or the test split, as the file says. Expansion takes at most
`max_per_template` of a template's combinations, evenly spaced over the cartesian product in
a fixed order, so the same file always yields the same rows.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from billing_toolkit.assistant.understanding.labels import IntentLabel
from billing_toolkit.contract.document import parse_shipped_yaml

UTTERANCES = Path(__file__).resolve().parent.parent / "knowledge" / "intent_utterances.yaml"
_ALTERNATION = re.compile(r"\{([^{}]*)\}")
_SPACES = re.compile(r"\s+")


class UtteranceSetError(ValueError):
    """The utterance file is malformed; the message names the label and template."""


@dataclass(frozen=True, slots=True)
class Utterance:
    text: str
    label: IntentLabel
    template: str
    split: str
    """"train" or "test"."""


@dataclass(frozen=True, slots=True)
class UtteranceSet:
    rows: tuple[Utterance, ...]

    def split(self, name: str) -> tuple[Utterance, ...]:
        return tuple(row for row in self.rows if row.split == name)

    @property
    def train(self) -> tuple[Utterance, ...]:
        return self.split("train")

    @property
    def test(self) -> tuple[Utterance, ...]:
        return self.split("test")


def expand(template: str, limit: int) -> list[str]:
    """The utterances of one template: `{a|b}` alternatives, at most `limit`, evenly spaced."""
    parts = _ALTERNATION.split(template)
    literals, choices = parts[0::2], [group.split("|") for group in parts[1::2]]
    combinations = list(itertools.product(*choices))
    step = max(1, len(combinations) / limit)
    picked = [combinations[int(i * step)] for i in range(min(limit, len(combinations)))]
    texts = []
    for combination in picked:
        pieces = [literals[0]]
        for choice, literal in zip(combination, literals[1:], strict=True):
            pieces += [choice, literal]
        text = _SPACES.sub(" ", "".join(pieces)).strip()
        text = re.sub(r"\s+([,?!.])", r"\1", text)
        if text and text not in texts:
            texts.append(text)
    return texts


def parse_utterances(document: object) -> UtteranceSet:
    """Rows of a parsed utterance document; raises UtteranceSetError naming the problem."""
    if not isinstance(document, dict) or not isinstance(document.get("intents"), dict):
        raise UtteranceSetError("expected a mapping with an `intents` mapping")
    limit = document.get("max_per_template", 6)
    if not isinstance(limit, int) or limit < 1:
        raise UtteranceSetError(f"max_per_template must be a positive integer, got {limit!r}")
    rows: list[Utterance] = []
    for name, splits in document["intents"].items():
        try:
            label = IntentLabel(name)
        except ValueError:
            raise UtteranceSetError(f"unknown intent label {name!r}") from None
        if not isinstance(splits, dict) or set(splits) - {"train", "test"}:
            raise UtteranceSetError(f"{name}: expected `train` and `test` template lists")
        for split, templates in splits.items():
            for template in templates or ():
                if not isinstance(template, str) or not template.strip():
                    raise UtteranceSetError(f"{name}/{split}: a template must be text")
                rows += [
                    Utterance(text, label, template, split) for text in expand(template, limit)
                ]
    return UtteranceSet(tuple(rows))


@cache
def load_utterances(path: Path = UTTERANCES) -> UtteranceSet:
    """The shipped utterance set (read once per process)."""
    try:
        document = parse_shipped_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UtteranceSetError(f"cannot read utterances from {path}: {exc}") from exc
    return parse_utterances(document)
