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


ANSWERS = {
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


@pytest.mark.parametrize("lesson, question", sorted(ANSWERS))
def test_stored_digest_matches_the_recomputed_answer(lesson, question):
    entry = load(lesson)[question]
    answer = ANSWERS[(lesson, question)]()
    assert entry["digest"] == digest(answer, entry["kind"])
    assert check_answer(lesson, question, answer)
    assert entry["hint"]


@pytest.mark.parametrize("lesson", sorted({lesson for lesson, _ in ANSWERS}))
def test_every_question_of_a_sheet_is_recomputed(lesson):
    assert set(load(lesson)) == {q for l, q in ANSWERS if l == lesson}


def test_a_wrong_answer_gets_a_hint_not_the_answer():
    feedback = check_answer("nagaraja_02", "q4", Fraction(1, 2))
    assert not feedback
    assert "1/3" not in str(feedback)
