"""The answers of notebooks/nagaraja/01_fate_sticks.ipynb, recomputed with ``sticks`` and checked against the sheet."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamelib import check_answer
from gamelib.exercises import digest, load
from gamelib.nagaraja import sticks

LESSON = "nagaraja_01"


def smallest_white_pool_that_is_favourite() -> int:
    """q4: the fewest white sticks a non-guide needs to beat a guide's 2 brown more often than not."""
    count = 0
    while sticks.win_probability((0, count, 0), (2, 0, 0), mine_is_guide=False) <= Fraction(1, 2):
        count += 1
    return count


ANSWERS = {
    "q1": sticks.nagas(0, 0, 2).probability(0),  # each green shows no Naga half the time (spec 3.2)
    "q2": sticks.points(2, 0, 0).at_least(6),  # spec 9.2's 2-brown table: 3/8 + 1/4 + 1/16
    "q3": sticks.win_probability((1, 0, 0), (0, 2, 0), mine_is_guide=True),  # spec 8.3: ties to the guide
    "q4": smallest_white_pool_that_is_favourite(),
    "q5": sticks.joint(3, 1, 1, faces="B")[(11, 1)],  # spec 9.4: 19/256 under Model B
}


def test_the_sheet_has_exactly_these_questions():
    assert set(load(LESSON)) == set(ANSWERS)


@pytest.mark.parametrize("question", sorted(ANSWERS))
def test_the_stored_digest_is_the_recomputed_answer(question):
    entry = load(LESSON)[question]
    assert entry["digest"] == digest(ANSWERS[question], entry["kind"])
    assert check_answer(LESSON, question, ANSWERS[question])


def test_the_independent_values_from_the_spec():
    assert ANSWERS["q2"] == Fraction(11, 16)  # spec 9.2: 2 brown, P = 6, 7, 8 is 3/8 + 1/4 + 1/16
    assert ANSWERS["q5"] == Fraction(19, 256)  # spec 9.4 (Model B)
    assert ANSWERS["q1"] == Fraction(1, 4)  # spec 9.2: P(at least one Naga) with 2 green is 3/4


@pytest.mark.parametrize("question", sorted(ANSWERS))
def test_a_wrong_answer_gets_a_hint_that_does_not_give_the_answer_away(question):
    right = ANSWERS[question]
    wrong = right + 1
    feedback = check_answer(LESSON, question, wrong)
    assert not feedback
    assert "Hint:" in feedback
    assert str(right) not in feedback.split("Hint:")[1]
