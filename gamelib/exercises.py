"""Self-checking exercises: right or wrong plus a hint, never the answer.

Each lesson keeps its answers in ``gamelib/answers/<lesson>.json`` as salted SHA-256
digests, so a student reading the file learns nothing. A test recomputes every answer
with the engines and checks the stored digest, so a stale answer cannot slip through.

An entry: ``{"digest": "...", "kind": "exact" | "integer" | "text", "hint": "...",
"mistakes": [{"digest": "...", "hint": "..."}, ...]}``. ``mistakes`` (optional) holds the
digests of common wrong answers (off by one, the tie rule forgotten, the other player's
number), each with a hint aimed at that mistake.

These checks are for learning, not grading: a digest of a small number is found by trying
the numbers. Graded work uses nbgrader.
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


class Unreadable(ValueError):
    """An answer that cannot be compared; the message says how to write it."""


def normalise(answer: Any, kind: str) -> str:
    """The canonical text of an answer, the part that is hashed; :class:`Unreadable` if it has none."""
    if kind == "exact":
        return str(_exact(answer))
    if kind == "integer":
        return str(_whole(answer))
    if kind == "text":
        return " ".join(str(answer).lower().split())
    raise ValueError(f"unknown answer kind {kind!r}")


def _exact(answer: Any) -> Fraction:
    if isinstance(answer, float):
        # A whole-number float (statistics.median gives 62.0) is exact; any other decimal
        # is already rounded, so the exact fraction is asked for instead.
        if not answer.is_integer():
            raise Unreadable("give an exact fraction such as Fraction(3, 8), not a decimal")
        return Fraction(int(answer))
    if isinstance(answer, bool):
        raise Unreadable("give a number, not True or False")
    try:
        return Fraction(answer)
    except ZeroDivisionError:
        raise Unreadable("a fraction cannot have 0 below the line") from None
    except (TypeError, ValueError):
        raise Unreadable(f"{answer!r} is not a number; write a fraction such as Fraction(3, 8) or '3/8'") from None


def _whole(answer: Any) -> int:
    if isinstance(answer, bool) or not isinstance(answer, (int, float, Fraction, str)):
        raise Unreadable("give a whole number such as 12")
    try:
        value = Fraction(answer)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise Unreadable(f"{answer!r} is not a whole number") from None
    if value.denominator != 1:
        raise Unreadable("give a whole number such as 12")
    return int(value)


def digest(answer: Any, kind: str = "exact") -> str:
    """The digest to store for a correct answer (used when writing a lesson)."""
    return hashlib.sha256((_SALT + normalise(answer, kind)).encode()).hexdigest()


def lessons() -> list[str]:
    """The names of the lessons that have answer sheets."""
    folder = resources.files("gamelib") / "answers"
    return sorted(item.name[: -len(".json")] for item in folder.iterdir() if item.name.endswith(".json"))


def load(lesson: str) -> dict:
    """The answer sheet of ``lesson``, e.g. ``"nagaraja_01"``."""
    if lesson not in lessons():
        raise KeyError(lesson)
    path = resources.files("gamelib") / "answers" / f"{lesson}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def check_answer(lesson: str, question: str, answer: Any) -> Feedback:
    """Say whether ``answer`` is right; when wrong, give a hint (aimed at the mistake when it is a common one)."""
    try:
        sheet = load(lesson)
    except KeyError:
        return Feedback(f"There is no lesson {lesson!r} with exercises (try {', '.join(lessons())}).", False)
    if question not in sheet:
        return Feedback(f"There is no question {question!r} in this lesson (try {', '.join(sheet)}).", False)
    entry = sheet[question]
    if answer is None or answer is Ellipsis:
        return Feedback(f"{question}: not answered yet. Replace the ... with your answer.", False)
    try:
        given = hashlib.sha256((_SALT + normalise(answer, entry["kind"])).encode()).hexdigest()
    except Unreadable as problem:
        return Feedback(f"{question}: I cannot read that answer: {problem}.", False)
    if given == entry["digest"]:
        return Feedback(f"✅ {question}: right!", True)
    for mistake in entry.get("mistakes", []):
        if given == mistake["digest"]:
            return Feedback(f"❌ {question}: not yet. {mistake['hint']}", False)
    return Feedback(f"❌ {question}: not yet. Hint: {entry['hint']}", False)
