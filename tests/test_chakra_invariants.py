"""The invariant checker of chakra.md#programmers (``gamelib.chakra.invariants``) fails on broken states.

The random-play tests trust it after every action, so each invariant gets a state that breaks it, and the
checker must name the break; its per-board verdicts are kept in a cache keyed by value, so every corruption is
checked after the healthy board's verdict is already cached (a cache must never hide a change).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from chakra_support import played, sample_positions
from gamelib.chakra import BHAGYA, BLACK, GREEN, RED, Rules, position
from gamelib.chakra.invariants import _board_verdict, invariant_violations


def with_board(state, seat, **fields):
    """``state`` with one field set on ``seat``'s board (what a broken engine step could leave)."""
    boards = list(state.players)
    boards[seat] = dataclasses.replace(boards[seat], **fields)
    return dataclasses.replace(state, players=tuple(boards))


def with_level(state, seat, level, contents):
    levels = list(state.players[seat].levels)
    levels[level] = tuple(contents)
    return with_board(state, seat, levels=tuple(levels))


@pytest.fixture
def healthy():
    state = played(seed=4, actions=25, players=3)
    assert invariant_violations(state) == []  # and its boards' verdicts are now cached
    return state


def test_a_lost_token_is_named(healthy):
    board = healthy.players[1]
    broken = with_board(healthy, 1, reserve=board.reserve - 1)
    expected = f"player 1 has {board.reserve - 1} + {len(board.spaces)} + {len(board.notches)} tokens, not 5"  # §3.1
    assert invariant_violations(broken) == [expected]


def test_an_energy_made_from_nothing_is_named(healthy):
    board = healthy.players[0]
    level = next(level for level in range(1, BHAGYA + 1) if len(board.levels[level]) < 3)
    broken = with_level(healthy, 0, level, sorted(board.levels[level] + (BLACK,)))
    total = 3 * 3 + 1  # 3 energies per colour per player (chakra.md#programmers), one more
    assert invariant_violations(broken) == [f"there are {total} BLACK energies in the game, not 9"]


def test_an_energy_lost_from_the_bag_and_a_negative_bag_are_named(healthy):
    bag = list(healthy.bag)
    colour = next(c for c, n in enumerate(bag) if n)
    bag[colour] -= bag[colour] + 1  # -1 of that colour
    problems = invariant_violations(dataclasses.replace(healthy, bag=tuple(bag)))
    assert problems[-1] == "the bag has a negative count"
    assert any(problem.startswith("there are ") and " not 9" in problem for problem in problems)


def test_an_overfull_level_energies_below_the_track_and_a_negative_earth_are_named():
    state = position([{"GREEN": "Y Y K", "EARTH": 1}])
    assert invariant_violations(state) == []
    overfull = with_level(state, 0, GREEN, (BLACK, 3, 3, 3))
    assert "player 0's GREEN holds 4 energies" in invariant_violations(overfull)  # capacity 3 (§3.3)
    below = with_level(state, 0, 0, (BLACK,))
    assert "player 0's level 0 holds energies outside the Earth count" in invariant_violations(below)
    negative = with_board(state, 0, earth=-1)
    assert "player 0's Earth count is negative" in invariant_violations(negative)


def test_the_colour_cap_is_checked_under_the_rules_in_force():
    four_red = [{"RED": "R R", "BHAGYA": "R R"}]
    assert invariant_violations(position(four_red, rules=Rules(colour_cap=None))) == []
    capped = position(four_red, rules=Rules(colour_cap=None))
    capped = dataclasses.replace(capped, rules=Rules(colour_cap=3))  # at most 3 of a colour (chakra.md#parameters)
    assert invariant_violations(capped) == ["player 0 holds 4 RED energies"]


def test_a_harmonized_chakra_keeping_its_notch_token_is_named():
    state = position([{"GREEN": "G G G"}])
    assert invariant_violations(state) == []
    broken = with_board(state, 0, notches=frozenset({GREEN}), reserve=4)  # the tokens still add up to 5
    assert invariant_violations(broken) == ["player 0's harmonized GREEN still has a notch token"]


def test_a_harmonized_chakra_that_changes_is_named():
    before = position([{"RED": "R R R", "ORANGE": "Y"}])
    after = with_level(before, 0, RED, (RED, RED, 3))
    after = with_level(after, 0, 2, (RED,))  # the same energies, one red moved out of the harmonized RED
    assert invariant_violations(after) == []  # alone, a legal-looking board
    assert invariant_violations(after, before) == ["player 0's harmonized RED changed"]


def test_cached_verdicts_are_the_uncached_ones():
    """On varied positions of seeded games, the cached per-board verdict equals a fresh computation."""
    for state in sample_positions(players=4, count=6, seed=11):
        for board in state.players:
            rules = (state.rules.inspiration_tokens, state.rules.colour_cap)
            assert _board_verdict(board, *rules) == _board_verdict.__wrapped__(board, *rules)


def test_a_board_with_lists_is_checked_without_the_cache():
    state = position([{"GREEN": "Y K"}])
    boards = list(state.players)
    boards[0] = dataclasses.replace(boards[0], levels=[list(contents) for contents in boards[0].levels])
    assert invariant_violations(dataclasses.replace(state, players=tuple(boards))) == []


def test_every_single_energy_moved_by_a_broken_engine_is_caught():
    """A broken engine that puts an energy on a board from nowhere (neither the Maya nor the bag gave it) breaks
    the conservation of energies (chakra.md#programmers): caught wherever it lands, whatever its colour."""
    rng = random.Random(5)
    state = played(seed=9, actions=30, players=2)
    for _ in range(20):
        seat = rng.randrange(2)
        level = rng.choice([lv for lv in range(1, BHAGYA + 1) if len(state.players[seat].levels[lv]) < 3])
        colour = rng.randrange(8)
        broken = with_level(state, seat, level, sorted(state.players[seat].levels[level] + (colour,)))
        assert invariant_violations(broken), (seat, level, colour)
