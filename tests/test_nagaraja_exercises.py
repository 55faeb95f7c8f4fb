"""The lessons' exercise answers, recomputed with the engine and checked against the stored digests.

Each answer is computed the way a student would (by the engine, or by enumeration), never
copied from the answer sheet, so a changed rule or a stale digest fails here.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations

import pytest

from gamelib import check_answer
from gamelib.exercises import digest, load
from gamelib.nagaraja import analysis, sticks
from gamelib.nagaraja.cards import commitments
from gamelib.nagaraja.edition import default_edition
from gamelib.nagaraja.temple import Temple

RELICS = [(relic.vp, relic.cursed) for relic in default_edition().relics]
CURSED = (6, True)


def _unseen(seen):
    left = list(RELICS)
    for relic in seen:
        left.remove(relic)
    return left


def _sacred(*values):
    return [(v, False) for v in values]


# ----------------------------------------------------------------- lesson 02: temple paths


def answer_02_q1():
    """Spec 4.2/9.5: placements of a plain corner in an empty temple that turn a relic up."""
    empty = Temple()
    return sum(1 for cell in empty.legal_cells() for k in range(4) if empty.place(cell, "R06", k).face_up_spots())


def answer_02_q2():
    """Spec 4.3/9.5 case 8: rotations of R14 at (2,1) that collect its amulet."""
    return sum(1 for k in range(4) if Temple().place((2, 1), "R14", k, amulet="A01").collect_amulets()[1])


def answer_02_q3():
    """Spec 9.5 case 6 variant: rotations of the corner at (1,2) that keep RIGHT_1 up."""
    path = Temple().place((2, 2), "R02", 0).place((1, 2), "R06", 1)
    assert path.face_up("RIGHT_1")  # spec 9.5 case 6
    return sum(1 for k in (1, 2, 3) if path.rotate((1, 2), k).face_up("RIGHT_1"))


def answer_02_q4():
    """Spec 3.7/2.6: 2 cursed + 3 sacred up, a sacred 5 peeked: P(next relic is the 3rd cursed)."""
    left = _unseen([CURSED, CURSED] + _sacred(3, 4, 4) + _sacred(5))
    arrangements = list(permutations(left))
    return Fraction(sum(a[0][1] for a in arrangements), len(arrangements))


def answer_02_q5():
    """Spec 3.7/2.6: 1 cursed + 2 sacred up, two relics turned up at once: P(both cursed)."""
    draws = list(combinations(_unseen([CURSED] + _sacred(3, 4)), 2))
    return Fraction(sum(1 for draw in draws if all(cursed for _, cursed in draw)), len(draws))


# ----------------------------------------------------------------- lesson 03: the duel

DUEL_HAND = ["STK-05", "STK-11", "STK-12", "ROM-01", "ROM-09"]


def answer_03_q1():
    """Spec 2.5/8.3: STK-01 alone, non-guide, against one unknown card, by the brute-force oracle."""
    hand = ["STK-01", "STK-04", "REL-02", "ROM-10", "CRD-11"]
    return analysis.brute_force_win(["STK-01"], 1, False, hand)


def answer_03_q2():
    """Spec 2.5: the fewest cards giving at least an even chance against two unknown cards."""
    table = analysis.naive_commitment_table(DUEL_HAND, 2, False)
    return min(len(cards) for cards, p in table.items() if p >= Fraction(1, 2))


def answer_03_q3():
    """Spec 5.3: non-empty one-symbol subsets of STK-01, STK-02, STK-03, REL-01, CRD-01."""
    cards = default_edition().cards
    return len(commitments([cards[c] for c in ("STK-01", "STK-02", "STK-03", "REL-01", "CRD-01")]))


def answer_03_q4():
    """Spec 8.3: the tie rule is worth P(tie) for GGG against WW (brute force over the faces)."""
    brute = sticks.brute_force_joint((0, 0, 3)), sticks.brute_force_joint((0, 2, 0))
    marginal = [{} for _ in brute]
    for side, table in zip(marginal, brute):
        for (points, _), p in table.items():
            side[points] = side.get(points, 0) + p
    return sum(p * marginal[1].get(points, 0) for points, p in marginal[0].items())


ANSWERS = {
    ("nagaraja_03", "q1"): answer_03_q1,
    ("nagaraja_03", "q2"): answer_03_q2,
    ("nagaraja_03", "q3"): answer_03_q3,
    ("nagaraja_03", "q4"): answer_03_q4,
    ("nagaraja_02", "q1"): answer_02_q1,
    ("nagaraja_02", "q2"): answer_02_q2,
    ("nagaraja_02", "q3"): answer_02_q3,
    ("nagaraja_02", "q4"): answer_02_q4,
    ("nagaraja_02", "q5"): answer_02_q5,
}


def test_answers_match_known_values_from_the_spec():
    # spec 9.5 case 3: only the corner at (2,0) rotation 2 reveals LEFT_2; at (2,2) the mirror
    # placement {E,S} reveals RIGHT_2; nothing at (2,1) touches a relic spot.
    assert answer_02_q1() == 2
    # spec 9.5 case 8: rotation 1 collects; rotation 0 does not
    assert Temple().place((2, 1), "R14", 1, amulet="A01").collect_amulets()[1]
    assert not Temple().place((2, 1), "R14", 0, amulet="A01").collect_amulets()[1]
    # 3 unseen relics (9 - 5 face up - 1 peeked), 1 of them cursed
    assert answer_02_q4() == Fraction(1, 3)
    # 6 unseen relics, 2 cursed: C(2,2)/C(6,2)
    assert answer_02_q5() == Fraction(1, 15)
    # 2^3 - 1 sticks commitments + 1 relics + 1 cards (spec 5.3)
    assert answer_03_q3() == 9
    # the oracle and the fast table agree (spec 8.3)
    hand = ["STK-01", "STK-04", "REL-02", "ROM-10", "CRD-11"]
    fast = {row.cards: row.p_win for row in analysis.commitment_table(hand, 1, False)}
    assert fast[("STK-01",)] == answer_03_q1()
    assert sticks.compare("GGG", "WW")[1] == answer_03_q4()


@pytest.mark.parametrize("lesson, question", sorted(ANSWERS))
def test_stored_digest_matches_the_recomputed_answer(lesson, question):
    entry = load(lesson)[question]
    answer = ANSWERS[(lesson, question)]()
    assert entry["digest"] == digest(answer, entry["kind"])
    assert check_answer(lesson, question, answer)
    assert entry["hint"]


@pytest.mark.parametrize("lesson", sorted({lesson for lesson, _ in ANSWERS}))
def test_every_question_of_a_sheet_is_recomputed(lesson):
    assert set(load(lesson)) == {question for sheet, question in ANSWERS if sheet == lesson}


def test_a_wrong_answer_gets_a_hint_not_the_answer():
    feedback = check_answer("nagaraja_02", "q4", Fraction(1, 2))
    assert not feedback
    assert "1/3" not in str(feedback)
