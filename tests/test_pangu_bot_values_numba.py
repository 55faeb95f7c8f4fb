"""The numba evaluator of the Pangu bots against the engine (issue 11, ``gamelib.pangu.solver.greedy`` and ``lookahead``).

* The numba greedy and lookahead kernels choose exactly as ``bots.greedy_policy`` and
  ``bots.lookahead_policy`` (same cell, card, die and orientation: the same tie-breaking) on random
  positions, under the defaults and rule variants.
* The numba evaluation of each bot (a whole turn 3 from its start, and single decision positions)
  agrees exactly with the pure-Python ``solver.evaluate_policy``, which follows every chance outcome
  of the engine itself, under the defaults and under rule variants.

Numba builds the tables (the optional ``solver`` extra); compiling its kernels takes most of this
file's minute on a fresh clone, so it runs in ``make test-long`` (CI runs it). The shipped values
themselves are checked in ``make test`` by test_pangu_bot_values.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamelib import core
from gamelib.pangu import Rules, new_game, solver
from gamelib.pangu.bots import greedy_policy, lookahead_policy
from gamelib.pangu.solver import greedy, levels, lookahead
from test_pangu_solver import random_turn_three_position

VARIANTS = [
    Rules(),
    Rules(allow_rotation=True),
    Rules(cap_rule="before_placement"),
    Rules(defeat_check="after_recovery", centre_config="YANG_LEFT"),
    Rules(grid="4x3", starting_karma=8),
    Rules(centre_match_counts_as_circle=True),
]


def random_decision(rng: random.Random, rules: Rules):
    """A decision position of a seeded game played randomly for a random number of moves."""
    while True:
        state = new_game(seed=rng.randrange(10**6), rules=rules)
        for _ in range(rng.randrange(10)):
            if state.status != "ONGOING":
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.status == "ONGOING":
            return state


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True), Rules(grid="4x3")], ids=str)
def test_the_numba_greedy_chooses_as_the_python_bot(rules):
    rng = random.Random(11)
    for _ in range(150):
        state = random_decision(rng, rules)
        assert greedy.greedy_action(state) == greedy_policy(state, rng), str(state)


def greedy_turn_three_position(rng: random.Random, rules: Rules):
    """A seeded game played by greedy into turn 3, then 0-2 random moves, at a random Karma 2-6 (a decision
    position, possibly with a card blocked by the roll; with more Karma the last turns are rarely lost)."""
    while True:
        state = new_game(seed=rng.randrange(10**6), rules=rules)
        while state.status == "ONGOING" and state.turn < 3:
            state = state.apply(greedy_policy(state))
        for _ in range(rng.randrange(3)):
            if state.status == "ONGOING" and state.turn == 3:
                state = state.apply(rng.choice(state.legal_actions()))
        if state.status == "ONGOING" and state.turn == 3:
            return core.replace_fields(state, karma=rng.randrange(2, 7)).with_explicit_chance()


@pytest.mark.parametrize("seed", range(len(VARIANTS)))
def test_the_numba_evaluation_agrees_with_evaluate_policy_at_turn_three(seed):
    rng = random.Random(200 + seed)
    rules = VARIANTS[seed]
    open_positions = 0  # positions whose value is neither 0 nor 1, where a wrong play would show
    for _ in range(12):
        state = greedy_turn_three_position(rng, rules)
        expected = solver.evaluate_policy(greedy_policy, state=state)
        assert greedy.greedy_turn_three_value(state) == expected, str(rules)
        open_positions += 0 < expected < 1
        if open_positions == 3:
            break
    assert open_positions >= 2
    state = random_turn_three_position(rng, rules)  # the solver tests' positions: random play, any node
    assert greedy.greedy_turn_three_value(state) == solver.evaluate_policy(greedy_policy, state=state)


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True, defeat_check="after_recovery")], ids=str)
def test_the_numba_lookahead_chooses_as_the_python_bot(rules):
    rng = random.Random(12)
    for _ in range(60):
        state = random_decision(rng, rules)
        assert lookahead.lookahead_action(state) == lookahead_policy(state, rng), str(state)


@pytest.mark.parametrize("rules", [Rules(), Rules(cap_rule="before_placement", grid="4x3")], ids=str)
def test_the_numba_lookahead_evaluation_agrees_with_evaluate_policy_at_turn_three(rules):
    rng = random.Random(300)
    for _ in range(2):
        state = greedy_turn_three_position(rng, rules)
        expected = solver.evaluate_policy(lookahead_policy, state=state)
        assert lookahead.lookahead_turn_three_value(state) == expected, str(rules)
    if rules != Rules():
        return
    start = turn_three_start(4)  # a turn start: every ordered hand and roll through la_rows
    assert lookahead.lookahead_turn_three_value(start) == solver.evaluate_policy(lookahead_policy, state=start)


def turn_three_start(seed: int, placed: int = 6, rules: Rules | None = None):
    """The chance node before turn 3's draw (turn 2's with ``placed=3``) of a game with explicit chance, played by
    greedy."""
    rng = random.Random(seed)
    state = new_game(seed=seed, explicit_chance=True, rules=rules or Rules())
    while not (state.current_player == core.CHANCE and len(state.placed_cards()) == placed and not state.revealed):
        if state.current_player == core.CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state = state.apply(greedy_policy(state))
        assert state.status == "ONGOING"
    return state


def test_a_whole_turn_three_from_its_start_agrees_with_evaluate_policy():
    # a turn-start chance node: every ordered hand of 3 and every roll through _greedy_level
    state = turn_three_start(4)
    assert not state.revealed and state.roll is None
    expected = solver.evaluate_policy(greedy_policy, state=state)
    assert greedy.greedy_turn_three_value(state) == expected
    for karma in (3, 6, 9):
        lower = core.replace_fields(state, karma=karma, turn_start_karma=karma)
        assert greedy.greedy_turn_three_value(lower) == solver.evaluate_policy(greedy_policy, state=lower)


@pytest.mark.parametrize("rules", [Rules(), Rules(cap_rule="before_placement", grid="4x3")], ids=str)
def test_the_whole_game_runs_stored_plays_give_the_plain_searchs_values(rules):
    """The whole-game run (solve_lookahead) at a turn-2 start: its forward pass (la_outcomes, memoised search)
    reaches the (key, Karma) pairs of the same pass searching without a memo; its turn-3 rows (la_rows) equal
    the plain search's; and its stored plays summed against them (Outcomes.rows) equal the plain search's
    turn-2 rows, which play every search again without a memo or stored plays."""
    from gamelib.pangu.solver import position_of

    start = turn_three_start(7, placed=3, rules=rules)
    data, final_table = levels.late_arrays(start)
    filled, colours, unseen, *_ = position_of(start)
    keys = np.array([filled | colours << 10 | unseen << 20], dtype=np.int64)
    karmas = np.array([sum(1 << k for k in (4, 7, data.karma))], dtype=np.int64)

    plays = lookahead.la_outcomes(data, 3, keys, karmas, threads=1)
    next_keys, next_karmas = plays.reached()
    plain_keys, plain_karmas = lookahead.la_outcomes(data, 3, keys, karmas, threads=1, memoised=False).reached()
    assert np.array_equal(plain_keys, next_keys)
    assert np.array_equal(plain_karmas, next_karmas)

    rows6 = lookahead.la_rows(data, 6, next_keys, next_karmas, final_table, threads=1)
    sample = np.arange(0, len(next_keys), max(1, len(next_keys) // 12))
    plain6 = lookahead.la_rows(data, 6, next_keys[sample], next_karmas[sample], final_table, threads=1, memoised=False)
    assert np.array_equal(rows6[sample], plain6)

    table6 = data.table(6, next_keys, rows6)
    plain3 = lookahead.la_rows(data, 3, keys, karmas, table6, threads=1, memoised=False)
    assert np.array_equal(plays.rows(data, 3, 1, table6), plain3)
    assert plain3[0, data.karma] > 0
