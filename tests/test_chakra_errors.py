"""Every error reason of spec §14.5 provoked at least once: IllegalMove, state unchanged; and saving (§14)."""

import json

import pytest

from chakra_support import played
from gamelib import CorruptSave, IllegalMove
from gamelib.chakra import (
    BHAGYA,
    DOWN,
    EARTH,
    GREEN,
    LIGHT_BLUE,
    ORANGE,
    PURPLE,
    RED,
    UP,
    YELLOW,
    Channel,
    Meditate,
    Receive,
    Rules,
    State,
    Step,
    new_game,
    position,
)

K, R, O, Y, G, L, D, P = range(8)  # noqa: E741 - the colour letters of chakra.md (O is orange)


def refused(state, action, reason):
    """Apply ``action``; it must raise IllegalMove naming ``reason`` and leave ``state`` as it was."""
    before_json, before = state.to_json(), state
    with pytest.raises(IllegalMove) as error:
        state.apply(action)
    assert reason in error.value.reason
    assert state == before and state.to_json() == before_json
    assert action not in state.legal_actions()
    return error.value


# --------------------------------------------------------------------------- the reasons named in §14.5


def test_black_is_compulsory():
    refused(
        position([{}], maya=["K R Y", "", ""]),
        Receive(0, {R}, BHAGYA),
        "this column shows a black energy: you must take one",
    )


def test_colour_cap():
    refused(
        position([{"YELLOW": "Y Y", "BHAGYA": "Y"}], maya=["Y G", "", ""]),
        Receive(0, {Y}, BHAGYA),
        "you already hold 3 yellow energies",
    )


def test_bhagya_free_bubbles():
    refused(
        position([{"BHAGYA": "R O"}], maya=["Y G", "", ""]),
        Receive(0, {Y, G}, BHAGYA),
        "the Bhagya has only 1 free bubble",
    )


def test_notch_occupied():
    refused(
        position([{"RED": "R", "NOTCHES": ["RED"]}], maya=["R", "", ""]),
        Receive(0, {R}, RED),
        "the red chakra's notch already holds a token",
    )


def test_no_token_in_reserve_for_receive_and_channel():
    state = position([{"GREEN": "R", "RESERVE": 0}], maya=["R", "", ""])
    refused(state, Receive(0, {R}, GREEN), "no Inspiration token in reserve")
    refused(state, Channel("U1_or_D1", [Step(GREEN, R, DOWN, 1)]), "no Inspiration token in reserve")


def test_space_occupied():
    refused(
        position([{"GREEN": "R", "SPACES": ["D3"]}]), Channel("D3", [Step(GREEN, R, DOWN, 3)]), "space D3 is occupied"
    )


def test_chakra_full_for_receive_and_for_a_step():
    refused(position([{"YELLOW": "R K G"}], maya=["O", "", ""]), Receive(0, {O}, YELLOW), "the yellow chakra is full")
    refused(
        position([{"GREEN": "R", "YELLOW": "R K G"}]),
        Channel("U1_or_D1", [Step(GREEN, R, DOWN, 1)]),
        "the yellow chakra is full",
    )


def test_only_black_enters_the_earth():
    refused(
        position([{"RED": "R"}]), Channel("U1_or_D1", [Step(RED, R, DOWN, 1)]), "only black energy can enter the Earth"
    )


def test_black_overshoot():
    refused(
        position([{"ORANGE": "K"}]),
        Channel("D3", [Step(ORANGE, K, DOWN, 3)]),
        "the black energy would overshoot the Earth",
    )


def test_nothing_moves_into_the_bhagya():
    refused(
        position([{"PURPLE": "R"}]), Channel("U1_or_D1", [Step(PURPLE, R, UP, 1)]), "nothing can move into the Bhagya"
    )


def test_harmonized_energies_are_locked():
    refused(
        position([{"YELLOW": "Y Y Y"}]),
        Channel("U1_or_D1", [Step(YELLOW, Y, UP, 1)]),
        "energies of a harmonized chakra cannot move",
    )


def test_an_energy_moves_once_per_action():
    refused(
        position([{"GREEN": "R"}]),
        Channel("U1x2", [Step(GREEN, R, UP, 1), Step(LIGHT_BLUE, R, UP, 1)]),
        "this energy has already moved in this action",
    )


# --------------------------------------------------------------------------- further reasons


@pytest.mark.parametrize(
    "action, reason",
    [
        (Receive(3, {R}, BHAGYA), "there is no Maya column 3"),
        (Receive(1, {G}, BHAGYA), "Maya column 1 has no green energy"),
        (Receive(2, {R}, BHAGYA), "Maya column 2 is empty"),
        (Receive(0, {K}, EARTH), "only on the Bhagya or on a chakra"),
        (Receive(0, {K}, YELLOW), "the yellow chakra is harmonized"),
        (Receive(0, {K, R}, ORANGE), "the orange chakra has only 1 free space"),
        (Channel("D2_D1", [Step(GREEN, R, DOWN, 3)]), "space D2_D1 moves one energy down 2 and another down 1"),
        (Channel("U1_or_D1", [Step(PURPLE, R, DOWN, 1)]), "the purple chakra holds no red energy"),
        (Channel("U1_or_D1", [Step(EARTH, K, UP, 1)]), "energies in the Earth cannot move"),
        (Channel("U1_or_D1", [Step(GREEN, R, DOWN, 1)], "K"), "only SWAP takes an energy from the bag"),
        (Channel("SWAP", (), "R"), "you have no alleviated black in the Earth"),
        (Meditate(RED), "you already hold the red Meditation token"),
        (Meditate(None), "only for a player who holds all 7 colours"),
        ("pass", "not a Chakra action"),
    ],
)
def test_more_reasons(action, reason):
    state = position(
        [{"GREEN": "R", "YELLOW": "Y Y Y", "ORANGE": "O O", "MEDITATION": ["RED"]}], maya=["K R", "R Y", ""]
    )
    refused(state, action, reason)


def test_swap_reasons():
    board = {"BHAGYA": "R K", "YELLOW": "Y Y", "GREEN": "Y", "EARTH": 1}
    state = position([board], bag={"Y": 0, "K": 1, "R": 1})
    refused(state, Channel("SWAP", (), "Y"), "the bag holds no yellow energy")
    capped = position([{**board, "GREEN": "Y"}], bag={"Y": 1})
    refused(capped, Channel("SWAP", (), "Y"), "you already hold 3 yellow energies")
    refused(
        position([{**board, "BHAGYA": "R K G"}], bag={"K": 1}),
        Channel("SWAP", (), "K"),
        "the Bhagya has no free bubble",
    )
    refused(state, Channel("SWAP", [Step(GREEN, Y, DOWN, 1)], "K"), "SWAP moves no energy")
    refused(state, Channel("SWAP"), "SWAP needs the colour")


def test_repeat_meditation_variant_needs_a_colour():
    state = position([{"MEDITATION": ["RED"]}], rules=Rules(allow_repeat_meditation=True))
    refused(state, Meditate(None), "you must name a chakra colour")
    assert state.apply(Meditate(RED)).players[0].meditation == (RED, RED)  # a multiset under the variant


def test_game_over_and_bad_names():
    finished = position([{}, {}], finished=True)
    refused(finished, Meditate(PURPLE), "the game is over")
    assert finished.legal_actions() == []
    with pytest.raises(IllegalMove, match="not a colour"):
        Receive(0, {"X"}, BHAGYA)
    with pytest.raises(IllegalMove, match="not a level"):
        Receive(0, {"K"}, "SKY")


# --------------------------------------------------------------------------- rules validation (§13)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"colour_cap": 0}, "colour_cap"),
        ({"bonus_min_run": 8}, "bonus_min_run"),
        ({"inspiration_tokens": 0}, "inspiration_tokens"),
        ({"end_trigger_harmonized": 8}, "end_trigger_harmonized"),
        ({"harmonization_bonus": -1}, "harmonization_bonus"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"swap_discard_to_bag": "yes"}, "swap_discard_to_bag"),
    ],
)
def test_rules_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_rules_parameters_change_the_game():
    state = new_game(players=2, seed=1, rules=Rules(inspiration_tokens=3))
    assert state.players[0].reserve == 3
    small = position([{"RED": "R R R"}], rules=Rules(end_trigger_harmonized=1), turns=(0, 0))
    after = small.apply(Meditate(RED))
    assert after.end_triggered and not after.is_terminal
    assert after.apply(Meditate(RED)).is_terminal


# --------------------------------------------------------------------------- saving


def test_json_round_trip():
    finished = new_game(players=2, seed=1, rules=Rules(max_rounds=3))
    while not finished.is_terminal:
        finished = finished.apply(finished.legal_actions()[0])
    # a hand-made position (here a finished one at move 0) has no log and is refused: see test_chakra_fuzz
    for state in (new_game(players=2, seed=1), played(), played(players=4, actions=60), finished):
        again = State.from_json(state.to_json())
        assert again == state and again.to_json() == state.to_json()
        assert again.legal_actions() == state.legal_actions()
    pending = new_game(players=2, seed=2, explicit_chance=True)
    pending = pending.apply([a for a in pending.legal_actions() if isinstance(a, Receive)][0])
    assert State.from_json(pending.to_json()) == pending and pending.refill_pending


def test_json_continues_the_same_game():
    state = played(seed=9, actions=10)
    copy = State.from_json(state.to_json())
    receive = [a for a in state.legal_actions() if isinstance(a, Receive)][0]
    assert state.apply(receive) == copy.apply(receive)  # the refill draws come from the saved seed


def corrupt(mutate):
    data = json.loads(played().to_json())
    mutate(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "should be a JSON object"),
        (json.dumps({"game": "pangu"}), "but a chakra save"),
        (corrupt(lambda d: d.pop("bag")), "missing bag"),
        (corrupt(lambda d: d["bag"].update(BLACK=-1)), "'bag BLACK' should be a whole number"),
        (corrupt(lambda d: d["bag"].update(RED=d["bag"]["RED"] + 1)), "RED energies in the game"),
        (corrupt(lambda d: d["players"][0]["levels"].update(GREEN=["RED"] * 4)), "at most 3 fit there"),
        (corrupt(lambda d: d["players"][0]["levels"].update(GREEN=["PINK"])), "'PINK' is not a colour"),
        (corrupt(lambda d: d["players"][1].update(reserve=9)), "tokens, not 5"),
        (corrupt(lambda d: d["players"][1].update(spaces=["D9"])), "'spaces' should list distinct channel spaces"),
        (corrupt(lambda d: d["rules"].update(colour_cap=0)), "colour_cap must be"),
        (corrupt(lambda d: d["rules"].update(speed=3)), "unknown rule parameter"),
        (corrupt(lambda d: d["plenitude"].update(RED=7)), "plenitude values are 1 to 4"),
        (corrupt(lambda d: d["plenitude"].update(RED=4, ORANGE=4, YELLOW=4)), "more than twice"),
        (corrupt(lambda d: d.update(to_move=5)), "'to_move' should be a whole number from 0 to 2"),
        (corrupt(lambda d: d.update(players=d["players"][:1])), "2 to 4 player boards"),
        (corrupt(lambda d: d.update(version=99)), "version 99"),
    ],
)
def test_corrupt_saves_give_clear_errors(text, message):
    with pytest.raises(CorruptSave) as error:
        State.from_json(text)
    assert message in str(error.value)
