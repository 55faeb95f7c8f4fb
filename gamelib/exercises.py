"""Self-checking exercises: right or wrong plus a hint, never the answer.

Each lesson keeps its answers in ``gamelib/exercises/<lesson>.json`` as salted SHA-256
digests, so a student reading the file learns nothing. A test recomputes every answer
with the engines and checks the stored digest, so a stale answer cannot slip through.

An entry: ``{"digest": "...", "kind": "exact" | "integer" | "text", "hint": "..."}``.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from importlib import resources
from typing import Any

_SALT = "gamelib-exercise:"


class Feedback(str):
    """The verdict as text, which also knows whether it was right (``bool(feedback)``)."""

    correct: bool

    def __new__(cls, text: str, correct: bool):
        self = super().__new__(cls, text)
        self.correct = correct
        return self

    def __bool__(self) -> bool:
        return self.correct

    def _repr_markdown_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return str(self)


def normalise(answer: Any, kind: str) -> str:
    """The canonical text of an answer, the part that is hashed."""
    if kind == "exact":
        if isinstance(answer, float):
            raise TypeError("give an exact fraction such as Fraction(3, 8), not a decimal")
        return str(Fraction(answer))
    if kind == "integer":
        if isinstance(answer, bool) or int(answer) != answer:
            raise TypeError("give a whole number")
        return str(int(answer))
    if kind == "text":
        return " ".join(str(answer).lower().split())
    raise ValueError(f"unknown answer kind {kind!r}")


def digest(answer: Any, kind: str = "exact") -> str:
    """The digest to store for a correct answer (used when writing a lesson)."""
    return hashlib.sha256((_SALT + normalise(answer, kind)).encode()).hexdigest()


def load(lesson: str) -> dict:
    """The answer sheet of ``lesson``, e.g. ``"nagaraja_01"``."""
    path = resources.files("gamelib") / "exercises" / f"{lesson}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def check_answer(lesson: str, question: str, answer: Any) -> Feedback:
    """Say whether ``answer`` is right; when wrong, give the question's hint."""
    sheet = load(lesson)
    if question not in sheet:
        return Feedback(f"There is no question {question!r} in this lesson (try {', '.join(sheet)}).", False)
    entry = sheet[question]
    if answer is None or answer is Ellipsis:
        return Feedback(f"{question}: not answered yet. Replace the ... with your answer.", False)
    try:
        given = normalise(answer, entry["kind"])
    except (TypeError, ValueError) as problem:
        return Feedback(f"{question}: I cannot read that answer: {problem}.", False)
    if hashlib.sha256((_SALT + given).encode()).hexdigest() == entry["digest"]:
        return Feedback(f"✅ {question}: right!", True)
    return Feedback(f"❌ {question}: not yet. Hint: {entry['hint']}", False)
