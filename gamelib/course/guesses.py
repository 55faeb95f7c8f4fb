"""Predict-then-compute: a student writes a guess in one cell, the next cell computes and compares.

The comparison never replaces the thinking: it only says how far the guess was, in the unit of the
question, so a class can see whose intuition was closest (and where everyone's was off the same way).
"""

from __future__ import annotations

from typing import Any


def compare_guess(guess: Any, actual: float, unit: str = "", *, close: float | None = None) -> str:
    """A line saying how far ``guess`` is from ``actual`` (``close``: the distance called "close")."""
    if guess is Ellipsis or guess is None:
        return (
            "No guess written above: write your guess in the cell before this one first, then run this "
            "cell again (the point is to commit before you see the number)."
        )
    try:
        value = float(guess)
    except (TypeError, ValueError):
        return f"Your guess {guess!r} is not a number: write a number (e.g. 55) in the cell above."
    gap = value - float(actual)
    tolerance = close if close is not None else max(abs(float(actual)) * 0.1, 1e-9)
    direction = "too high" if gap > 0 else "too low"
    verdict = "close" if abs(gap) <= tolerance else f"{abs(gap):.3g}{unit} {direction}"
    return f"You guessed {value:g}{unit}; computed {float(actual):.4g}{unit}: {verdict}."
