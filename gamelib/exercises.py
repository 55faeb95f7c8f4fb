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

import functools
import hashlib
import html
import numbers
import os
import re
import reprlib
import time
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from gamelib import datafiles

_SALT = "gamelib-exercise:"
MAX_ANSWER_CHARS = 1000
"""The longest typed answer read: every answer of the lessons is a few characters."""
MAX_ANSWER_DIGITS = 600
"""The most digits above or below the line: far more than any answer, far below Python's 4,300."""
_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)")
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


class Feedback(str):
    """The verdict as text, which also knows whether it was right (``bool(feedback)``)."""

    correct: bool

    def __new__(cls, text: str, correct: bool, markdown: str | None = None):
        self = super().__new__(cls, text)
        self.correct = correct
        self.markdown = text if markdown is None else markdown
        return self

    def __bool__(self) -> bool:
        return self.correct

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __repr__(self) -> str:
        return str(self)


def echoed(template: str, correct: bool, **typed: Any) -> Feedback:
    """Feedback quoting what a student typed: shortened, and escaped in the Markdown a notebook shows.

    ``template`` is the author's text with ``{name}`` slots; each typed value fills its slot as a short
    repr (``reprlib``), so a 10 MB string or a huge number cannot flood the page or break the text.
    """
    shown = {name: _brief(value) for name, value in typed.items()}
    return Feedback(
        template.format(**shown),
        correct,
        template.format(**{name: markdown_escape(text) for name, text in shown.items()}),
    )


def markdown_escape(text: str) -> str:
    """``text`` shown literally in Markdown and HTML: tags and entities escaped, Markdown's marks backslashed."""
    one_line = " ".join(text.split())
    return html.escape(_MARKDOWN_SPECIALS.sub(r"\\\1", one_line), quote=False)  # entities after: their # stays


def _brief(value: Any) -> str:
    brief = reprlib.Repr()
    brief.maxstring = brief.maxother = brief.maxlong = 60
    try:
        return brief.repr(value)
    except Exception:  # noqa: BLE001 - a student's own class whose repr fails still gets its feedback
        return f"<a {type(value).__name__}>"


class Unreadable(ValueError):
    """An answer that cannot be compared; the message says how to write it."""


def normalise(answer: Any, kind: str) -> str:
    """The canonical text of an answer, the part that is hashed; :class:`Unreadable` if it has none."""
    if kind == "exact":
        return str(_exact(answer))
    if kind == "integer":
        return str(_whole(answer))
    if kind == "text":
        return _text(answer)
    raise ValueError(f"unknown answer kind {kind!r}")


def _bounded_fraction(answer: Any) -> Fraction:
    """``Fraction(answer)`` for answers of a sane size; :class:`Unreadable` before any long computation."""
    if isinstance(answer, str):
        if len(answer) > MAX_ANSWER_CHARS:
            raise Unreadable(f"that text is {len(answer):,} characters long; an answer here is a short number")
        exponent = _EXPONENT.search(answer)
        if exponent and abs(int(exponent.group(1))) > MAX_ANSWER_DIGITS:  # the text is short, so is the int
            raise Unreadable("that number is far too large or too small to be an answer here")
    if isinstance(answer, Decimal) and answer.is_finite() and abs(answer.adjusted()) > MAX_ANSWER_DIGITS:
        raise Unreadable("that number is far too large or too small to be an answer here")
    value = Fraction(answer)
    value = Fraction(int(value.numerator), int(value.denominator))  # numpy's integers stay numpy's otherwise
    if max(value.numerator.bit_length(), value.denominator.bit_length()) > 3.33 * MAX_ANSWER_DIGITS:
        raise Unreadable(f"that number has more than {MAX_ANSWER_DIGITS} digits; no answer here is so long")
    return value


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
        return _bounded_fraction(answer)
    except ZeroDivisionError:
        raise Unreadable("a fraction cannot have 0 below the line") from None
    except (TypeError, ValueError, OverflowError) as problem:
        if isinstance(problem, Unreadable):
            raise
        raise Unreadable("that is not a number; write a fraction such as Fraction(3, 8) or '3/8'") from None


def _text(answer: Any) -> str:
    try:
        text = answer if isinstance(answer, str) else str(answer)
    except Exception:  # noqa: BLE001 - str() of a huge int, or of a student's own class, can raise
        raise Unreadable("give the answer as a short text in quotes") from None
    if len(text) > MAX_ANSWER_CHARS:
        raise Unreadable(f"that text is {len(text):,} characters long; an answer here is a few words")
    return " ".join(text.lower().split())


def _whole(answer: Any) -> int:
    if isinstance(answer, bool) or not isinstance(answer, (numbers.Rational, float, Decimal, str)):
        raise Unreadable("give a whole number such as 12")
    try:
        value = _bounded_fraction(answer)
    except Unreadable:
        raise
    except (ValueError, ZeroDivisionError, OverflowError):
        raise Unreadable("that is not a whole number; write one such as 12") from None
    if value.denominator != 1:
        raise Unreadable("give a whole number such as 12")
    return int(value)


def digest(answer: Any, kind: str = "exact") -> str:
    """The digest to store for a correct answer (used when writing a lesson)."""
    return hashlib.sha256((_SALT + normalise(answer, kind)).encode()).hexdigest()


def lessons() -> list[str]:
    """The names of the lessons that have answer sheets."""
    folder = resources.files("gamelib") / "answers"
    try:
        listed = os.stat(folder).st_mtime_ns  # adding, removing or renaming a sheet changes it
    except (TypeError, OSError):  # a package that is not a folder on disk (a zip): list it each time
        return _sheet_names(folder)
    if time.time_ns() - listed < datafiles.SETTLED_SECONDS * 1_000_000_000:  # a change now could keep its time
        return _sheet_names(folder)
    return list(_listed_sheet_names(str(folder), listed))


@functools.lru_cache(maxsize=4)
def _listed_sheet_names(folder: str, listed: int) -> tuple[str, ...]:
    """The folder's sheet names, listed once per state of the folder (``listed``: its modified time)."""
    return tuple(_sheet_names(Path(folder)))


def _sheet_names(folder) -> list[str]:
    return sorted(item.name[: -len(".json")] for item in folder.iterdir() if item.name.endswith(".json"))


def load(lesson: str) -> dict:
    """The answer sheet of ``lesson``, e.g. ``"nagaraja_01"``."""
    if lesson not in lessons():
        raise KeyError(lesson)
    return datafiles.read_json(f"answers/{lesson}.json")  # checked against its shipped SHA-256


def check_answer(lesson: str, question: str, answer: Any) -> Feedback:
    """Say whether ``answer`` is right; when wrong, give a hint (aimed at the mistake when it is a common one)."""
    if not isinstance(lesson, str) or lesson not in lessons():
        return echoed(
            "There is no lesson {lesson} with exercises (try " + ", ".join(lessons()) + ").", False, lesson=lesson
        )
    sheet = load(lesson)
    if not isinstance(question, str) or question not in sheet:
        return echoed(
            "There is no question {question} in this lesson (try " + ", ".join(sheet) + ").", False, question=question
        )
    entry = sheet[question]
    if answer is None or answer is Ellipsis:
        return Feedback(f"{question}: not answered yet. Replace the ... with your answer.", False)
    try:
        given = hashlib.sha256((_SALT + normalise(answer, entry["kind"])).encode("utf-8", "surrogatepass")).hexdigest()
    except Unreadable as problem:
        return Feedback(f"{question}: I cannot read that answer: {problem}.", False)
    if given == entry["digest"]:
        return Feedback(f"✅ {question}: right!", True)
    for mistake in entry.get("mistakes", []):
        if given == mistake["digest"]:
            return Feedback(f"❌ {question}: not yet. {mistake['hint']}", False)
    return Feedback(f"❌ {question}: not yet. Hint: {entry['hint']}", False)
