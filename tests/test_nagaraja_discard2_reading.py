"""DISCARD2's two readings (issue 23): the Spanish rules' example makes Marion "descartar 2 palos marrones"
(discard 2 brown sticks, /work/shared/rules/nagaraja.md section 2.7). The default ``discard2_sticks="any"``
is the project's reading (any two of the opponent's current sticks); ``"brown"`` limits the card to brown
sticks. Both are played by the engine where the effect's options are made and checked."""

import json

import pytest
from nagaraja_support import make_state, unchanged_after

from gamelib.nagaraja import Rules, State, new_game
from gamelib.nagaraja.actions import Sticks, UseNaga

BROWN = Rules(discard2_sticks="brown")
# P0 holds DISCARD2 (STK-06) and a Naga; P1 threw a brown 4, a white 3 and a green 1
MIXED = ([("W01", 0, 1)], [("B02", 4, 0), ("W02", 3, 0), ("G01", 1, 0)])


def discard_options(state):
    return sorted(a.params.stick_ids for a in state.legal_actions() if isinstance(a, UseNaga))


def test_the_default_is_any_two_sticks_and_other_values_are_refused():
    assert Rules().discard2_sticks == "any"
    with pytest.raises(ValueError, match="discard2_sticks"):
        Rules(discard2_sticks="green")


def test_any_reading_takes_any_two_sticks():
    state = make_state(hands=(("STK-06",), ()), held_sticks=MIXED)
    assert discard_options(state) == [("B02", "G01"), ("B02", "W02"), ("W02", "G01")]


def test_brown_reading_takes_only_brown_sticks():
    one_brown = make_state(hands=(("STK-06",), ()), held_sticks=MIXED, rules=BROWN)
    assert discard_options(one_brown) == [("B02",)]  # min(2, n) of the n brown sticks: the one there is
    unchanged_after(one_brown, UseNaga(0, "WHITE", "STK-06", Sticks(1, ("B02", "W02"))), "brown stick ids")
    after = one_brown.apply(UseNaga(0, "WHITE", "STK-06", Sticks(1, ("B02",))))
    assert any(text.endswith("loses B02.") for _, text in after.log)  # the white 3 and the green 1 stay
    assert after.room_winner == 1  # 4 points against P0's 0
    two_browns = make_state(
        hands=(("STK-06",), ()),
        rules=BROWN,
        held_sticks=([("W01", 0, 1)], [("B02", 4, 0), ("B03", 2, 0), ("W02", 3, 0)]),
    )
    assert discard_options(two_browns) == [("B02", "B03")]


def test_brown_reading_needs_a_brown_stick():
    no_brown = make_state(
        hands=(("STK-06",), ("CRD-01",)), rules=BROWN, held_sticks=([("W01", 0, 1)], [("W02", 3, 0), ("G01", 1, 0)])
    )
    assert discard_options(no_brown) == []
    unchanged_after(no_brown, UseNaga(0, "WHITE", "STK-06", Sticks(1, ("W02", "G01"))), "no brown stick")
    any_reading = make_state(
        hands=(("STK-06",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("W02", 3, 0), ("G01", 1, 0)])
    )
    assert discard_options(any_reading) == [("W02", "G01")]


def test_the_reading_is_saved_and_old_saves_play_any_two():
    state = new_game(seed=3, rules=BROWN)
    assert json.loads(state.to_json())["rules"]["discard2_sticks"] == "brown"
    assert State.from_json(state.to_json()).rules.discard2_sticks == "brown"
    old = json.loads(new_game(seed=3).to_json())
    del old["rules"]["discard2_sticks"]  # a save written before the parameter existed
    assert State.from_json(json.dumps(old)).rules.discard2_sticks == "any"
