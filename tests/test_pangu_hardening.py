"""Pangu against bad input (issue 9): each test is one numbered defect's reproducer, which failed before
the fix. Saves never open a file, rule parameters are bounded, edits of the hidden future are refused,
malformed saves and actions give readable errors, board picks never raise and previews hide the future."""

import builtins
import dataclasses
import io
import json
import random
import time
import tracemalloc
from pathlib import Path

import pytest

from gamelib import CorruptSave, IllegalMove
from gamelib.pangu import Action, Rules, State, greedy_policy, load_deck, new_game, teaching_deck
from gamelib.pangu.board import PanguBoard, action_key
from gamelib.pangu.cards import TEACHING_DECK_PATH, DeckError
from pangu_support import S1


def save_data(state=None) -> dict:
    return json.loads((state or new_game(seed=1)).to_json())


def refused(data, match: str | None = None):
    with pytest.raises(CorruptSave, match=match) as error:
        State.from_json(json.dumps(data) if isinstance(data, dict) else data)
    return str(error.value)


# ----------------------------------------------------------------------------- 1. a save never names a file


@pytest.mark.parametrize("name", ["/dev/zero", str(TEACHING_DECK_PATH), "deck.json", ""])
def test_a_save_naming_a_file_is_refused_without_opening_it(name, monkeypatch):
    data = save_data()
    data["cards"] = name
    opened = []
    monkeypatch.setattr(builtins, "open", lambda *args, **kw: opened.append(args) or io.StringIO("{}"))
    monkeypatch.setattr(io, "open", lambda *args, **kw: opened.append(args) or io.StringIO("{}"))
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **kw: opened.append(self) or "{}")
    assert "a save never names a file" in refused(data)
    assert opened == []  # the path was never touched (the old loader read /dev/zero until memory ran out)


def test_a_save_may_name_the_built_in_deck_and_a_notebook_may_still_load_a_deck_file(tmp_path):
    data = save_data()
    data["cards"] = teaching_deck().name
    assert State.from_json(json.dumps(data)) == new_game(seed=1)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "mine", "cards": [card.to_dict() for card in teaching_deck()]}))
    assert load_deck(path).ids == teaching_deck().ids  # the explicit loader still reads files


# ----------------------------------------------------------------------------- 2. rule bounds


@pytest.mark.parametrize("karma", [1001, 10**9, 10**100])
def test_starting_karma_has_an_upper_bound(karma):
    with pytest.raises(ValueError, match="starting_karma must be a whole number from 1 to 1000"):
        Rules(starting_karma=karma)
    data = save_data()
    data["rules"]["starting_karma"] = karma
    refused(data, "saved rules are invalid: starting_karma")
    assert Rules(starting_karma=1000).starting_karma == 1000  # the bound itself is allowed


# ----------------------------------------------------------------------------- 5. the hidden future


def midgame(seed=1, moves=3, **setup):
    state = new_game(seed=seed, **setup)
    for _ in range(moves):
        state = state.apply(greedy_policy(state))
    return state


FUTURE_EDITS = {
    "deck order reversed": lambda d: d.update(deck=d["deck"][::-1]),
    "deck order rotated": lambda d: d.update(deck=d["deck"][1:] + d["deck"][:1]),
    "another seed": lambda d: d.update(seed=d["seed"] + 1),
    "seed as other text": lambda d: d.update(seed=f"{d['seed']} "),  # 1 and "1" hash alike: the same game
    "one draw more": lambda d: d.update(draws=d["draws"] + 1),
    "one draw less": lambda d: d.update(draws=d["draws"] - 1),
    "a rolls script added": lambda d: d.update(rolls_script=[[1, 1], [2, 2]]),
    "deck order unfixed": lambda d: d.update(deck_order_fixed=False),
    "an unplayed card changed": lambda d: _edit_card(d, d["deck"][0], blue=7 - d["cards"]["cards"][0]["blue"]),
}


def _edit_card(data, card_id, **changes):
    for card in data["cards"]["cards"]:
        if card["id"] == card_id:
            card.update(changes)
            if card["blue"] == card["white"] or not 1 <= card["blue"] <= 6:
                card["blue"] = 1 if card["white"] != 1 else 2


@pytest.mark.parametrize("edit", FUTURE_EDITS.values(), ids=FUTURE_EDITS.keys())
def test_edits_of_the_hidden_future_are_refused(edit):
    data = save_data(midgame())
    edit(data)
    refused(data)


def test_edits_of_a_scripted_future_are_refused():
    state = midgame(moves=1, **S1)  # spec 11 T10's script: the rolls after the first are still to come
    data = save_data(state)
    assert data["rolls_script"] and data["deck_order_fixed"]
    data["draws"] = 3  # a scripted game draws nothing from its seed
    refused(data, "draws")
    data = save_data(state)
    data["rolls_script"] = None  # the rest of the rolls would come from the seed: not what the log shows
    refused(data)


def test_every_kind_of_game_still_loads_as_itself():
    explicit = new_game(seed=5, rules=Rules(centre_config="RANDOM"), explicit_chance=True)
    while explicit.pending:
        explicit = explicit.apply(explicit.chance_outcomes()[0][0])  # part way through the first reveal
        assert State.from_json(explicit.to_json()) == explicit
    for state in (
        midgame(),
        midgame(moves=1, **S1),
        midgame(moves=2, deck=S1["deck"]),
        midgame(moves=2, rolls=S1["rolls"] + [(1, 2)] * 4),
        explicit,
    ):
        assert State.from_json(state.to_json()) == state


# ----------------------------------------------------------------------------- 6. malformed input of any shape


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100000 + "]" * 100000,
        '{"a":' * 100000 + "1" + "}" * 100000,
        "9" * 5000,
        "[" * 900 + "]" * 900,
    ],
)
def test_deep_or_huge_json_is_refused_as_a_corrupt_save(text):
    refused(text)


@pytest.mark.parametrize(
    "field, value",
    [
        ("karma", [[[[[[[[1]]]]]]]]),
        ("log", [[[[[[[[[[[[]]]]]]]]]]]]),
        ("karma", 10**4000),
        ("seed", 10**4000),
        ("seed", "x" * 100_000),
        ("deck", ["A1"] * 1_000_000),
        ("karma", float("inf")),
        ("roll", [float("nan"), 1]),
        ("grid", "x" * 1_000_000),
        ("cheat", True),
    ],
)
def test_odd_values_are_refused_fast_with_short_reasons(field, value):
    data = save_data()
    data[field] = value
    text = json.dumps(data)
    tracemalloc.start()
    started = time.process_time()
    reason = refused(text)
    seconds = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(reason) <= 300
    assert peak < 4 * len(text) + 5_000_000, f"{peak} bytes to refuse a save of {len(text)}"
    assert seconds < 5, f"{seconds:.1f} s of CPU"  # a generous ceiling: a hang was the failure


def test_a_python_dict_with_a_huge_number_or_a_cycle_is_refused():
    data = save_data()
    data["karma"] = 10**5000  # beyond 4300 digits repr itself raises ValueError
    with pytest.raises(CorruptSave, match="karma"):
        State.from_json(data)
    data = save_data()
    loop: list = []
    loop.append(loop)
    data["log"] = loop
    with pytest.raises(CorruptSave, match="levels deep"):
        State.from_json(data)


def test_a_card_or_grid_orientation_of_false_or_zero_point_zero_is_refused():
    state = midgame()
    data = save_data(state)
    index = next(i for i, entry in enumerate(data["grid"]) if isinstance(entry, list))
    data["grid"][index][1] = 0.0
    refused(data, "should be empty or")


# ----------------------------------------------------------------------------- 7. malformed actions and outcomes


def chance_node(kind: str) -> State:
    state = new_game(seed=9, rules=Rules(centre_config="RANDOM"), explicit_chance=True)
    while state.pending != kind:
        state = state.apply(state.chance_outcomes()[0][0])
    return state


GARBAGE = [
    (3.0, True),
    (3, True),
    (True, 3),
    (3.0, 4.0),
    [3, 4],
    (3, 4, 5),
    (0, 7),
    ("3", "4"),
    None,
    3,
    "",
    "A1 ",
    ["A1"],
    ("A1",),
    {"card": "A1"},
    ("A1", "BLUE", (0, 1), 0.0),
    ("A1", ["BLUE"], (0, 1)),
    ("A1", "BLUE", [0, 1.0]),
    ("A1", "BLUE", (True, 1)),
    ("A1", "BLUE", (0, 1), False),
    10**100,
    Action([], "BLUE", (0, 1)),
    Action("A1", "BLUE", (0, 1), 90),
    float("nan"),
    b"YIN_LEFT",
]


@pytest.mark.parametrize("kind", ["centre", "draw", "roll"])
def test_malformed_chance_outcomes_raise_illegal_move(kind):
    state = chance_node(kind)
    before = state.to_json()
    for outcome in GARBAGE:
        with pytest.raises(IllegalMove, match="waits for chance"):
            state.apply(outcome)
    assert state.to_json() == before


def test_malformed_actions_raise_illegal_move_and_what_is_accepted_round_trips():
    state = new_game(seed=9)
    before = state.to_json()
    for action in GARBAGE + [tuple(state.legal_actions()[0])[:3] + (0.0,)]:
        with pytest.raises(IllegalMove) as error:
            state.apply(action)
        assert error.value.reason
    assert state.to_json() == before
    legal = state.legal_actions()[0]
    for spelled in (tuple(legal), (legal.card, legal.die, list(legal.cell), 0), legal[:3]):
        after = state.apply(spelled)  # a plain tuple, a list cell or no orientation are the same move
        assert after == state.apply(legal) and State.from_json(after.to_json()) == after


# ----------------------------------------------------------------------------- 8. board picks


@pytest.mark.parametrize(
    "pick",
    [
        {"kind": []},
        {"kind": {}},
        {"kind": None},
        {"kind": "history", "to": []},
        {"kind": "history", "to": {"a": 1}},
        {"kind": "card", "card": []},
        {"kind": "cell", "cell": {"r": 0}},
        {"kind": "place", "cell": [[0], 1]},
    ],
)
def test_odd_picks_end_in_a_reason_on_the_board(pick):
    board = PanguBoard(new_game(seed=9))
    before = board.match.state
    board.pick = pick  # raised TypeError out of the observer before the fix (the first four)
    assert board.message_kind == "error" and board.message
    assert board.match.state is before


def test_a_board_with_hints_on_an_explicit_chance_game_waits_for_chance():
    board = PanguBoard(new_game(seed=9, explicit_chance=True), hints=True)  # raised AttributeError
    assert "waits for chance" in board.message
    board.pick = {"kind": "card", "card": "A1"}
    assert board.message_kind == "error" and "board.apply" in board.message
    # Hints stay on for every kind of pending position: the draw with nothing revealed (above), a draw
    # with cards revealed and the roll. They are off for the first reveal only: pricing the position
    # after one card (eight more draws, then the roll, each a turn-1 solve) costs about 20 s of CPU.
    board.hints = False
    board.apply(board.match.state.chance_outcomes()[0][0])
    board.apply(board.match.state.chance_outcomes()[0][0])
    board.hints = True
    assert board.match.state.pending == "draw" and board.match.state.revealed
    assert "waits for chance" in board.message
    while board.match.state.pending:
        board.apply(board.match.state.chance_outcomes()[0][0])
    assert board.legal and "hint_list" in board.state


# ----------------------------------------------------------------------------- 9. previews hide the future


def test_previews_do_not_read_lost_from_future_stuck_rolls():
    # found by search: seed 10 under reroll_penalty_1, after A3 with the blue die to (0,1), the seeded
    # future rerolls stuck dice after A1 to (0,0) until Karma runs out; the player cannot know that
    state = new_game(seed=10, rules=Rules(stuck_rule="reroll_penalty_1")).apply(Action("A3", "BLUE", (0, 1)))
    move = Action("A1", "BLUE", (0, 0))
    assert state.apply(move).status == "LOST"  # the seeded state does know its future
    assert (state.preview(move)["status"], state.preview(move)["karma"]) == ("ONGOING", 2)  # said LOST (issue 24)
    previews = {entry["key"]: entry for entry in PanguBoard(state).legal}
    assert (previews[action_key(move)]["status"], previews[action_key(move)]["karma"]) == ("ONGOING", 2)


def test_previews_are_the_same_whatever_the_hidden_future():
    rng = random.Random(3)
    for rules in (Rules(stuck_rule="reroll_penalty_1"), Rules(roll_timing="per_placement"), Rules()):
        for seed in range(6):
            state = new_game(seed=seed, rules=rules)
            while not state.is_terminal:
                hidden = tuple(rng.sample(state.deck, len(state.deck)))  # another deck order, another seed
                other = dataclasses.replace(state, seed=seed + 1000, deck=hidden)
                assert PanguBoard(state).legal == PanguBoard(other).legal
                assert [state.preview(a) for a in state.legal_actions()] == [
                    other.preview(a) for a in state.legal_actions()
                ]
                state = state.apply(rng.choice(state.legal_actions()))


def test_a_changed_copy_of_the_teaching_deck_needs_its_own_name():
    records = [card.to_dict() for card in teaching_deck()]
    records[4]["name"] = "Renamed"
    with pytest.raises(DeckError, match="give an edited deck a name of its own"):
        load_deck({"name": teaching_deck().name, "cards": records})
    assert load_deck({"name": "my edit", "cards": records})["A5"].name == "Renamed"
    impostor = dataclasses.replace(load_deck({"name": "my edit", "cards": records}), name=teaching_deck().name)
    with pytest.raises(DeckError, match="name of its own"):
        new_game(seed=1, cards=impostor)  # else its save would not load
