"""Lesson 2's narration, moved from a 60-line notebook cell into gamelib.pangu.guide (issue 23)."""

import pytest

from gamelib import Match
from gamelib.pangu import new_game
from gamelib.pangu.board import Evaluator, short_name
from gamelib.pangu.bots import greedy_policy, lookahead_values
from gamelib.pangu.guide import GUIDED_SEED, guided_game_narration, line_of


def line_and_states(seed):
    start = new_game(seed=seed)
    line = line_of(start)
    return line, Match.replay(start, line).states


def test_the_narration_of_the_guided_game_reads_the_engine():
    line, states = line_and_states(GUIDED_SEED)
    narration = guided_game_narration(states, line, Evaluator())
    assert sorted(narration) == list(range(11))
    assert [step for step, entry in narration.items() if "predict" in entry] == [0, 3, 6, 7]
    turn2 = states[3]
    karma = dict(lookahead_values(turn2))
    greedy = greedy_policy(turn2)
    text = narration[3]["text"]
    assert f"Greedy plays {short_name(greedy, turn2)}" in text
    assert f"{karma[line[3]]} against greedy's {karma[greedy]}" in text  # the lookahead's exact expected Karma
    assert f"Game {states[10].status.lower()} with Karma {states[10].karma}" in narration[10]["text"]


def test_the_narration_refuses_another_deal():
    line, states = line_and_states(GUIDED_SEED + 1)
    with pytest.raises(ValueError, match="written for the lookahead's line on deal 29"):
        guided_game_narration(states, line, Evaluator())


def test_goal_disagreements_finds_lesson_2s_position_where_the_goals_part_visibly():
    from fractions import Fraction

    from gamelib.pangu import Rules, solver
    from gamelib.pangu.guide import goal_disagreements

    found = list(goal_disagreements([274], Rules(roll_timing="per_placement"), max_karma=6))
    assert [moves for _, _, moves, _, _, _ in found] == [6, 7]
    loss, _, _, state, karma_move, win_move = found[0]
    values, karma = solver.action_values(state), dict(lookahead_values(state))
    assert karma[karma_move] == max(karma.values()) > karma[win_move]  # the Karma move keeps more Karma ...
    assert values[win_move] == max(values.values())  # ... the other is the solver's best ...
    assert loss == values[win_move] - values[karma_move] == Fraction(3284 - 2993, 3675)  # ... by 7.9 points
