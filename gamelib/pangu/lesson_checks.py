"""Checks for the Pangu lessons' richer exercises: a function the student completes, run against the engine.

Each check returns a :class:`~gamelib.exercises.Feedback` (text that is also True or False). A
wrong function gets one case where it differs from the engine, and a hint aimed at the mistake
when the answers match a common one (the forbidden equal die forgotten, the dearer die taken,
"at most" instead of "less than", 36 rolls instead of 35). Every case is checked, so a function
that is right on the examples but wrong elsewhere is still refused.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Callable, NamedTuple

from gamelib.exercises import Feedback
from gamelib.pangu import odds
from gamelib.pangu.actions import cheapest_die
from gamelib.pangu.cards import ROLLS

NUMBER_PAIRS = [(blue, white) for blue, white in product(range(1, 7), repeat=2) if blue != white]
"""Every (blue number, white number) a card could print, the two numbers different as on every Pangu card."""

KARMA_VALUES = range(0, 9)


class _Numbers(NamedTuple):
    blue: int
    white: int


def engine_cheapest_cost(numbers, roll) -> int | None:
    """The engine's cost of the cheaper legal die, or None when the roll blocks the card."""
    choice = cheapest_die(_Numbers(*numbers), tuple(roll))
    return None if choice is None else choice[1]


def _call(function: Callable, *arguments):
    try:
        return function(*arguments), None
    except Exception as error:  # a student's function may fail in any way: report it, do not crash the check
        return None, f"{type(error).__name__}: {error}"


# --------------------------------------------------------------------------- lesson 01: the cost of a card


def _cost_mistake(numbers, roll, answer) -> str:
    blue, white = roll
    if answer is None:
        return "the roll does not block this card: work out the cost of each die that may be used and return the smaller."
    free = min(abs(blue - numbers[0]), abs(white - numbers[1]))
    dearer = max(abs(blue - numbers[0]) if blue != numbers[0] else -1, abs(white - numbers[1]) if white != numbers[1] else -1)
    if answer == free:
        return "a die equal to the card's number is forbidden: it cannot be used, so it never costs 0."
    if answer == dearer:
        return "the player pays with the cheaper legal die, not the dearer one."
    if engine_cheapest_cost(numbers, roll) is None:
        return "when both dice equal the card's numbers the card is blocked: return None."
    return "each die is compared with the number of its own colour: blue with blue, white with white."


def check_cheapest_cost(function: Callable) -> Feedback:
    """``function(numbers, roll)`` with numbers = (blue, white) of a card and roll = (blue die, white die)
    must return the cost of the cheaper legal die, or None when neither die may be used.
    Checked on all 30 number pairs and all 36 rolls (1,080 cases)."""
    for numbers, roll in product(NUMBER_PAIRS, ROLLS):
        expected = engine_cheapest_cost(numbers, roll)
        answer, error = _call(function, numbers, roll)
        if error:
            return Feedback(f"Not yet: for the card {numbers} and the roll {roll} your function raised {error}.", False)
        if answer != expected:
            return Feedback(f"Not yet: for a card with blue {numbers[0]}, white {numbers[1]} and the roll blue {roll[0]}, "
                            f"white {roll[1]}, your function returns {answer!r}; the engine says {expected!r}. "
                            f"Hint: {_cost_mistake(numbers, roll, answer)}", False)
    return Feedback(f"Right: your function agrees with the engine on all {len(NUMBER_PAIRS) * len(ROLLS)} cases.", True)


# --------------------------------------------------------------------------- lesson 03: the final card


def _final_chance_variants(numbers, karma) -> dict[str, Fraction]:
    """The answers the common mistakes give, to aim the hint."""
    unblocked = [cost for roll in ROLLS if (cost := engine_cheapest_cost(numbers, roll)) is not None]
    return {
        "cost ≤ Karma": Fraction(sum(cost <= karma for cost in unblocked), len(unblocked)),
        "out of 36": Fraction(sum(cost < karma for cost in unblocked), len(ROLLS)),
        "the dearer die": Fraction(sum(cost < karma for cost in _dearer_costs(numbers)), len(unblocked)),
    }


def _dearer_costs(numbers) -> list[int]:
    costs = []
    for blue, white in ROLLS:
        legal = [abs(blue - numbers[0])] * (blue != numbers[0]) + [abs(white - numbers[1])] * (white != numbers[1])
        if legal:
            costs.append(max(legal))
    return costs


_FINAL_HINTS = {
    "cost ≤ Karma": "paying down to exactly 0 Karma loses: the cost must be *less* than the Karma you hold.",
    "out of 36": "a roll that blocks the card is rerolled (the stuck rule), so only the 35 other rolls count.",
    "the dearer die": "you pay with the cheaper legal die.",
}


def check_final_card_chance(function: Callable) -> Feedback:
    """``function(numbers, karma)`` must return, as an exact Fraction, the chance that the final card
    with these (blue, white) numbers wins when you hold ``karma``. Checked on all 30 number pairs and
    Karma 0 to 8 (270 cases) against :func:`gamelib.pangu.odds.final_card_win_probability`."""
    for numbers, karma in product(NUMBER_PAIRS, KARMA_VALUES):
        expected = odds.final_card_win_probability(numbers, karma)
        answer, error = _call(function, numbers, karma)
        if error:
            return Feedback(f"Not yet: for the card {numbers} with Karma {karma} your function raised {error}.", False)
        if isinstance(answer, float):
            return Feedback(f"Not yet: your function returns the decimal {answer!r}; return an exact Fraction "
                            "(count the rolls and divide with Fraction(wins, rolls)).", False)
        if answer != expected:
            mistake = next((name for name, value in _final_chance_variants(numbers, karma).items() if value == answer), None)
            hint = _FINAL_HINTS[mistake] if mistake else "list the 36 rolls, keep those that do not block the card, and count."
            return Feedback(f"Not yet: for a card with blue {numbers[0]}, white {numbers[1]} and Karma {karma}, your "
                            f"function returns {answer}; the engine says {expected}. Hint: {hint}", False)
    return Feedback(f"Right: your function agrees with the engine on all {len(NUMBER_PAIRS) * len(KARMA_VALUES)} cases.", True)
