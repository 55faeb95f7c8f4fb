"""Session 2 (designing a game): the first player's advantage of a studio game, exactly, and the
session's design target: a game whose first player's edge under optimal play is below a bound.

The measure is :func:`gamelib.studio.solve`: every reachable position's value under optimal play,
so the edge is exact (up to the solver's reported residual), not an estimate with an interval.
"""

from __future__ import annotations

from typing import Any

from gamelib.exercises import Feedback
from gamelib.studio import solve
from gamelib.studio.solve import TooManyPositions

TARGET_POINTS = 1.0
"""The target: seat 0's chance of winning within 1 percentage point of 50% under optimal play."""
CHECK_MAX_POSITIONS = 300_000
"""Positions the check lists before it asks for a smaller game (Pig to 30 has 57,304; to 50, 259,504)."""


def first_player_edge(game: Any, rules: Any = None, *, max_positions: int = CHECK_MAX_POSITIONS) -> float:
    """Seat 0's chance of winning under optimal play minus 1/2, in percentage points (two-player games)."""
    solution = solve(game, rules, max_positions=max_positions, progress=False)
    return 100 * (float(solution.start_value[0]) - 0.5)


def check_fair_start(
    game: Any, rules: Any = None, *, bound: float = TARGET_POINTS, max_positions: int = CHECK_MAX_POSITIONS
) -> Feedback:
    """The design target: ``game`` under ``rules`` gives the first player an edge below ``bound`` points.

    Solves the game exactly and says how far it is from the target and which way to move; a game the
    solver refuses (too large, hidden information, more than two players) gets the solver's reason.
    """
    try:
        solution = solve(game, rules, max_positions=max_positions, progress=False)
    except TooManyPositions as too_many:
        return Feedback(f"Not checked: {too_many} Lower the goal (or the sizes of your game) to check it here.", False)
    except ValueError as refused:
        return Feedback(f"Not checked: the exact solver refuses this game: {refused}.", False)
    if solution.players != 2:
        return Feedback("Not checked: a first player's edge needs two players; this game has one seat.", False)
    first = float(solution.start_value[0])
    edge = 100 * (first - 0.5)
    how = (
        "exactly (no position repeats)"
        if solution.exact
        else f"by value iteration to a residual of {solution.residual:.0e}"
    )
    measured = (
        f"Under optimal play the first player wins {100 * first:.2f}% ({solution.positions:,} positions "
        f"solved {how}): an edge of {edge:+.2f} points"
    )
    if abs(edge) < bound:
        return Feedback(f"Right: {measured}, inside the target of ±{bound:g} point.", True)
    side, fix = (
        ("the first player", "give the second player more (a bigger head start, a shorter first turn)")
        if edge > 0
        else ("the second player", "you overshot: give the second player less")
    )
    return Feedback(
        f"Not yet: {measured}, {abs(edge) - bound:.2f} points beyond the target of ±{bound:g}. The game "
        f"favours {side}; {fix}.",
        False,
    )
