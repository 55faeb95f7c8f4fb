"""Every Pangu lesson answer, recomputed with the engine, must match its stored digest.

A stale or mistyped answer sheet fails here, and so does a wrong hint target: each check also
makes sure a nearby wrong answer is refused.
"""

from fractions import Fraction

import pytest

from gamelib import core
from gamelib.exercises import check_answer, load
from gamelib.pangu import Action, Rules, new_game, odds, turn_sizes
from gamelib.pangu.bots import greedy_policy
from gamelib.pangu.guide import line_of
from pangu_support import S1_DECK, S1_MOVES, S1_ROLLS


def guided_states():
    """The states of lesson 2's guided game (seed 29, the lookahead bot's line)."""
    states = [new_game(seed=29)]
    for action in line_of(states[0]):
        states.append(states[-1].apply(action))
    return states


def lesson_01():
    start = new_game(seed=0, deck=["A3", "A1", "A2", "A4", "A5", "A6", "A7", "A8", "A9", "A10"], rolls=[(5, 5)])
    q1 = start.cheapest_die("A3")[1]  # A3 is B2 W5 (spec 3) against blue 5, white 5
    q2 = len(start.apply(Action("A3", "BLUE", (1, 0))).legal_cells())
    # q3: Karma 9, pay 1, recover 3 under the default cap (spec 7 step 5); greedy's game 2871 has one
    q3 = next(
        p.karma
        for p in core.play(new_game(seed=2871), greedy_policy, seed=2871).placements()
        if p.cost == 1 and p.rec == 3 and p.karma - p.gain + p.cost == 9
    )
    q4 = len(turn_sizes(7))
    return {"q1": q1, "q2": q2, "q3": q3, "q4": q4}


def lesson_02():
    states = guided_states()
    turn2 = states[3]
    assert turn2.turn == 2 and turn2.karma == 10
    # q1: greedy's move there (A3 on (0,2): pay 1, two matches) made with Karma 8: 8 - 1 + 2 under the cap of 10
    greedy = greedy_policy(turn2)
    assert greedy == Action("A3", "BLUE", (0, 2))
    q1 = core.replace_fields(turn2, karma=8, turn_start_karma=8).preview(greedy)["karma"]
    assert q1 == 9
    q2 = odds.final_card_win_probability((1, 6), 3)
    turn3 = states[6]
    assert turn3.turn == 3 and set(turn3.revealed) == {"A5", "A1", "A6"}
    q3 = len(turn3.legal_actions())
    return {"q1": q1, "q2": q2, "q3": q3}


def lesson_03():
    return {
        "q1": odds.die_cost(2).variance(),
        "q2": odds.card_cost((1, 6)).variance(),
        "q3": (odds.final_card_win_probability((2, 5), 3) + odds.final_card_win_probability((3, 4), 3)) / 2,
        "q4": 10 * odds.card_cost((3, 4)).mean(),
    }


S1 = dict(seed=0, deck=S1_DECK, rolls=S1_ROLLS)  # spec 11, T10


def lesson_04():
    state = new_game(rules=Rules(cap_rule="before_placement"), **S1)
    for move in S1_MOVES:
        state = state.apply(Action(*move))
    layout = {p.cell: p.card for p in state.placements()}  # the T3 layout
    return {
        "q1": odds.layout_score(layout, Rules(centre_config="YANG_LEFT")),
        "q2": odds.layout_score(layout, Rules(centre_match_counts_as_circle=True)),
        "q3": state.karma,
    }


ANSWERS = {"pangu_01": lesson_01, "pangu_02": lesson_02, "pangu_03": lesson_03, "pangu_04": lesson_04}


@pytest.mark.parametrize("lesson", sorted(ANSWERS))
def test_stored_digests_match_the_engine(lesson):
    answers = ANSWERS[lesson]()
    assert set(answers) == set(load(lesson)), "every question has a recomputed answer"
    for question, answer in answers.items():
        assert check_answer(lesson, question, answer), f"{lesson} {question}: engine says {answer}"
        assert not check_answer(lesson, question, answer + 1), f"{lesson} {question}: a wrong answer passed"


def test_known_values_from_the_spec():
    # spec 11, T5: |d-2| over the five faces d != 2 is 1, 1, 2, 3, 4: mean 11/5, mean square 31/5,
    # variance 31/5 - 121/25 = 34/25. T6: a (1,6) card's cost law (13 - 2k)/35: mean 17/7, mean square
    # 53/7, variance 82/49. T7: with Karma 3 a (2,5) card wins 27/35, a (3,4) card 32/35; half each 59/70.
    # T6: mean cost of a (3,4) card 53/35
    assert lesson_03() == {
        "q1": Fraction(34, 25),
        "q2": Fraction(82, 49),
        "q3": Fraction(59, 70),
        "q4": 10 * Fraction(53, 35),
    }
    # spec 11, T7: a (1,6) card with Karma 3 wins with 20/35
    assert lesson_02()["q2"] == Fraction(20, 35)
    # spec 11, T3 (YANG_LEFT scores 10), spec 9 (centre match = 2: maximum 22), T10 (before_placement: karma 6)
    assert lesson_04() == {"q1": 10, "q2": 22, "q3": 6}


def test_unanswered_and_unreadable_answers_get_feedback():
    assert "not answered" in check_answer("pangu_03", "q1", ...)
    assert "exact fraction" in check_answer("pangu_03", "q1", 2.2)
