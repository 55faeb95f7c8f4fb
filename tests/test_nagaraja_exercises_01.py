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
    "q1": sticks.nagas(0, 1, 2).probability(1),  # exactly one Naga among 2 green and 1 white (spec 3.2 faces)
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
    # spec 3.2: a green stick shows a Naga on 2 of 4 faces, a white one on 1 of 4; exactly one Naga:
    # 2 * (1/2 * 1/2) * 3/4 (on one green) + (1/2 * 1/2) * 1/4 (on the white) = 3/8 + 1/16
    assert ANSWERS["q1"] == Fraction(7, 16)


@pytest.mark.parametrize("question", sorted(ANSWERS))
def test_a_wrong_answer_gets_a_hint_that_does_not_give_the_answer_away(question):
    right = ANSWERS[question]
    wrong = right + 1
    feedback = check_answer(LESSON, question, wrong)
    assert not feedback
    assert "Hint:" in feedback
    assert str(right) not in feedback.split("Hint:")[1]


# q6, a design target checked by computation: the notebook's hand against Marion's 2 brown, she is guide.
Q6_HAND = ["STK-03", "STK-11", "STK-07", "STK-12", "REL-05"]


def test_the_design_target_is_reachable_and_checked_by_computation():
    from itertools import combinations

    from gamelib.nagaraja import default_edition
    from gamelib.nagaraja.explorer import check_contest

    cards = default_edition().cards
    verdicts = {}
    for size in range(1, len(Q6_HAND) + 1):
        for laid in combinations(Q6_HAND, size):
            pool = sticks.as_pool([cards[c].sticks for c in laid])
            chance = sticks.win_probability(pool, (2, 0, 0), mine_is_guide=False)
            feedback = check_contest(Q6_HAND, list(laid), (2, 0, 0), mine_is_guide=False)
            one_symbol = len({cards[c].symbol for c in laid}) == 1
            assert bool(feedback) == (one_symbol and Fraction(9, 20) <= chance <= Fraction(11, 20)), laid
            verdicts[laid] = bool(feedback)
    # the target can be met: STK-11 + STK-12 throw 1 brown, 2 white, 1 green and win exactly half the time
    assert [laid for laid, right in verdicts.items() if right] == [("STK-11", "STK-12")]
    assert sticks.win_probability((1, 2, 1), (2, 0, 0), mine_is_guide=False) == Fraction(1, 2)
    assert not check_contest(Q6_HAND, [], (2, 0, 0), mine_is_guide=False)  # the notebook's blank answer
