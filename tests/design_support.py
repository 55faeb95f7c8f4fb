"""Policies and exact answers for the design tests, on the toy race (``toy_game``).

The policies live in a module (not in a test function) so worker processes can import them.
The exact values come from enumerating the race: with one die per throw there is no wipe-out,
so every throw moves the game forward and a plain recursion over (mover's points, other's points)
is the whole answer.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import toy_game


def one_die(state, rng):
    """Always throw one die (never risks the double-1 wipe-out)."""
    return "ONE_DIE"


def two_dice(state, rng):
    """Always throw two dice (twice as fast, with a 1-in-36 wipe-out)."""
    return "TWO_DICE"


def exact_one_die_race(target: int) -> tuple[Fraction, Fraction]:
    """(P(the first player wins), expected number of throws) when both always throw one die."""

    @lru_cache(maxsize=None)
    def mover_wins(mover: int, other: int) -> Fraction:
        return sum(
            (
                Fraction(1, 6) * (1 if mover + face >= target else 1 - mover_wins(other, mover + face))
                for face in range(1, 7)
            ),
            Fraction(0),
        )

    @lru_cache(maxsize=None)
    def throws_left(mover: int, other: int) -> Fraction:
        return 1 + sum(
            (
                Fraction(1, 6) * (0 if mover + face >= target else throws_left(other, mover + face))
                for face in range(1, 7)
            ),
            Fraction(0),
        )

    return mover_wins(0, 0), throws_left(0, 0)


class CappedRace(toy_game.State):
    """The race with a pretend safeguard: a game that needed 4 or more throws counts as cut short."""

    @property
    def ended_by_rules(self) -> bool:
        return self.draws < 4


def few_throws(state) -> bool:
    """The same pretend safeguard as a function of the final state, for ``tournament(completed=...)``."""
    return state.draws < 4


def capped_new_game(seed=None, rules=None, *, explicit_chance=False):
    return CappedRace(seed=seed, explicit_chance=explicit_chance, rules=rules or toy_game.Rules())
