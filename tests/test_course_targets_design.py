"""The design targets of the course's design sessions (issue 23), each with a passing and a failing design.

Session 2's target is measured with ``gamelib.studio.solve``, whose Pig values are checked against
Neller and Presser's published ones in tests/test_studio_solve_pig100.py; the edges quoted here are
that solver's (Pig to 20: 61.56% for the first player; to 30 with a head start of 6: 50.07%).
"""

from __future__ import annotations

import pytest

from gamelib.course.designing import check_fair_start, first_player_edge
from gamelib.course.guesses import compare_guess
from gamelib.studio import Param
from gamelib.studio.examples import bluff
from gamelib.studio.examples.pig import Pig, Position


class PigHeadStart(Pig):
    head_start = Param(0, 0, 50, "points the second player starts with")

    def start(self):
        return Position(scores=(0, self.head_start), turn_total=0, player=0)


def test_fair_start_passes_a_compensated_pig():
    feedback = check_fair_start(PigHeadStart, PigHeadStart.Rules(goal=30, head_start=6))
    assert feedback, feedback
    assert "50.07%" in feedback and "+0.07 points" in feedback


def test_fair_start_fails_plain_pig_and_says_how_far_and_which_way():
    feedback = check_fair_start(Pig, Pig.Rules(goal=20))
    assert not feedback
    assert "61.56%" in feedback and "+11.56 points" in feedback and "10.56 points beyond" in feedback
    assert "favours the first player" in feedback and "head start" in feedback


def test_fair_start_fails_an_overshoot_and_says_so():
    feedback = check_fair_start(PigHeadStart, PigHeadStart.Rules(goal=20, head_start=12))
    assert not feedback
    assert "favours the second player" in feedback and "overshot" in feedback


def test_fair_start_refuses_a_game_too_large_with_the_count():
    feedback = check_fair_start(Pig, Pig.Rules(goal=20), max_positions=1000)
    assert not feedback and "Not checked" in feedback and "1,000" in feedback and "Lower the goal" in feedback


def test_fair_start_refuses_hidden_information_with_the_solvers_reason():
    feedback = check_fair_start(bluff)
    assert not feedback and "hides information" in feedback


def test_first_player_edge_agrees_with_the_check():
    assert first_player_edge(Pig, Pig.Rules(goal=20)) == pytest.approx(11.5559, abs=1e-3)


def test_compare_guess_asks_for_a_guess_first_and_then_measures_it():
    assert "No guess" in compare_guess(..., 61.56)
    assert "close" in compare_guess(60, 61.56, "%", close=2)
    assert "11.6% too low" in compare_guess(50, 61.56, "%", close=2)
    assert "not a number" in compare_guess("lots", 61.56)
