"""Every Chakra lesson's exercise answer, recomputed with the engine and checked against its stored digest.

The functions below solve each question from scratch (they are the answer key), so a change of the
engine or of a lesson that changes an answer makes this test fail instead of a student's check.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest

from gamelib import exercises
from gamelib.chakra import (
    BLACK,
    DOWN,
    LEVEL_NAMES,
    Receive,
    completions,
    final_scores,
    level_id,
    new_game,
    position,
)
from gamelib.chakra.actions import walk
from gamelib.chakra.planning import fewest_actions


# ------------------------------------------------------------------ chakra_01 (rules)


def chakra_01_q1():  # Receive actions from column 1 of the seed-9 game (§6.2, §14.2)
    game = new_game(players=2, seed=9)
    return len([a for a in game.legal_actions() if isinstance(a, Receive) and a.column == 1])


def chakra_01_q2():  # §7.5: the harmonized green chakra is skipped
    state = position([{"DARK_BLUE": "K", "GREEN": "G G G", "YELLOW": "R"}])
    landing, reason = walk(state.players[0].levels, level_id("DARK_BLUE"), BLACK, DOWN, 3)
    assert reason is None
    return LEVEL_NAMES[landing]


def chakra_01_q3():  # §7.5: up 1 / down 1 from the Bhagya and the red chakra
    return len(completions(position([{"BHAGYA": "K", "RED": "K R"}]), "U1_or_D1"))


def chakra_01_q4():  # §5, spec 15.6 T4: only Meditate is left, never an empty list
    state = position([{"BHAGYA": "K R O", "reserve": 0, "meditation": ["RED", "GREEN"]}])
    return len(state.legal_actions())


# ------------------------------------------------------------------ chakra_02 (scoring, hidden values)

WORKED_PLENITUDE = {
    "RED": 1,
    "ORANGE": 2,
    "YELLOW": 3,
    "GREEN": 1,
    "LIGHT_BLUE": 2,
    "DARK_BLUE": 4,
    "PURPLE": 3,
}  # spec 15.1 / 15.2
TOKENS = (1, 1, 2, 2, 3, 3, 4, 4)  # §2


def unseen_token(known_values) -> dict:
    """Brute force: {value: probability} of one unseen colour over every arrangement of the 8 tokens
    (7 colours + the unused one) consistent with the colours seen (placed first, §4.2)."""
    seen = len(known_values)
    consistent = [a for a in set(permutations(TOKENS)) if a[:seen] == tuple(known_values)]
    counts = Counter(a[seen] for a in consistent)
    return {value: Fraction(n, len(consistent)) for value, n in counts.items()}


def chakra_02_q1():  # §12: runs 2 and 1, bonus to player 1
    players = [
        {"harmonized": {"RED", "ORANGE", "PURPLE"}, "earth": 1},
        {"harmonized": {"RED", "GREEN", "LIGHT_BLUE", "DARK_BLUE"}, "earth": 0},
    ]
    return final_scores(WORKED_PLENITUDE, players)[0]


def chakra_02_q2():  # §14.6: expected value of an unseen token after seeing 3 and 4
    return sum(value * p for value, p in unseen_token((3, 4)).items())


def chakra_02_q3():  # P(unseen = 4) after seeing 4 and 2
    return unseen_token((4, 2)).get(4, Fraction(0))


def chakra_02_q4():  # value of seeing B before choosing between A = 3 and B, with C = 4 also known
    b = unseen_token((3, 4))
    blind = max(Fraction(3), sum(v * p for v, p in b.items()))
    informed = sum(max(3, v) * p for v, p in b.items())
    return informed - blind


# ------------------------------------------------------------------ chakra_03 (planning)

PUZZLE_MAYA = ["R O Y", "G L D", "P K K"]


def fewest(spec, chakra) -> int:
    """The engine planner's shortest solo plan (§7, §10: Channel, SWAP, Meditate)."""
    plan = fewest_actions(position([spec, {}], maya=PUZZLE_MAYA), chakra)
    assert plan is not None
    return len(plan)


def chakra_03_q1():
    return fewest({"BHAGYA": "G K", "LIGHT_BLUE": "G", "GREEN": "G K"}, "GREEN")


def chakra_03_q2():
    return fewest({"BHAGYA": "Y", "GREEN": "Y K", "YELLOW": "Y", "reserve": 1}, "YELLOW")


def chakra_03_q3():
    return fewest({"PURPLE": "D", "DARK_BLUE": "K", "LIGHT_BLUE": "D D"}, "DARK_BLUE")


ANSWERS = {
    "chakra_01": {"q1": chakra_01_q1, "q2": chakra_01_q2, "q3": chakra_01_q3, "q4": chakra_01_q4},
    "chakra_02": {"q1": chakra_02_q1, "q2": chakra_02_q2, "q3": chakra_02_q3, "q4": chakra_02_q4},
    "chakra_03": {"q1": chakra_03_q1, "q2": chakra_03_q2, "q3": chakra_03_q3},
}


@pytest.mark.parametrize("lesson, question", [(lesson, q) for lesson, qs in ANSWERS.items() for q in qs])
def test_stored_digest_matches_the_recomputed_answer(lesson, question):
    entry = exercises.load(lesson)[question]
    answer = ANSWERS[lesson][question]()
    assert exercises.digest(answer, entry["kind"]) == entry["digest"]
    assert exercises.check_answer(lesson, question, answer).correct


@pytest.mark.parametrize("lesson", sorted(ANSWERS))
def test_every_stored_question_has_an_answer_key(lesson):
    assert set(exercises.load(lesson)) == set(ANSWERS[lesson])
