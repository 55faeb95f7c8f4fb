"""The Chakra board, headless: a pick through the ``pick`` trait does exactly what a click does.

Every expected result is computed by applying the same action to the engine directly (the
board must agree with the rules), or is a rule of the spec, cited by section.
"""

from __future__ import annotations

import random

import pytest

from gamelib.core import random_policy
from gamelib.chakra.board import ChakraBoard
from gamelib.chakra.actions import Channel, Meditate, Receive, Step
from gamelib.chakra import DOWN, Rules, new_game, position

MAYA = ["K R Y", "G G L", "O P D"]


def board_for(players, maya=MAYA, **kwargs):
    return ChakraBoard(position(players, maya=maya), **kwargs)


def track(board, seat, level):
    return board.state["players"][seat]["levels"][level]


# ------------------------------------------------------------------ Receive (§6)


def test_receive_by_picks_matches_the_engine():
    board = board_for([{}])
    start = board.match.state
    board.pick = {"kind": "maya", "column": 0, "colour": "K"}
    board.pick = {"kind": "maya", "column": 0, "colour": "R"}
    assert board.state["selection"] == {"mode": "receive", "column": 0, "colours": ["K", "R"]}
    assert "BHAGYA" in board.state["hints"]["destinations"]
    board.pick = {"kind": "level", "level": "BHAGYA"}
    expected = start.apply(Receive(0, {"K", "R"}, "BHAGYA"))
    assert board.match.state == expected
    assert board.match.length == 1
    assert sorted(track(board, 0, "BHAGYA")) == ["K", "R"]
    assert board.state["selection"] == {"mode": None}  # a finished action clears the selection


def test_receive_on_a_chakra_puts_a_token_in_the_notch():  # §6.3.2
    board = board_for([{}])
    board.pick = {"kind": "maya", "column": 1, "colour": "G"}
    board.pick = {"kind": "level", "level": "GREEN"}
    seat0 = board.state["players"][0]
    assert seat0["notches"] == ["GREEN"] and seat0["reserve"] == 4
    assert track(board, 0, "GREEN") == ["G"]


def test_black_is_compulsory_and_the_board_shows_the_engines_reason():  # §6.2.2, §14.5
    board = board_for([{}])
    board.pick = {"kind": "maya", "column": 0, "colour": "R"}
    assert board.state["hints"]["destinations"] == []
    board.pick = {"kind": "level", "level": "BHAGYA"}
    assert board.message_kind == "error"
    assert board.message == "this column shows a black energy: you must take one"
    assert board.match.length == 0
    # the selection survives the error, so adding the black finishes the action
    board.pick = {"kind": "maya", "column": 0, "colour": "K"}
    board.pick = {"kind": "level", "level": "BHAGYA"}
    assert board.match.length == 1 and board.message_kind == "info"


def test_picking_an_energy_twice_unpicks_it():
    board = board_for([{}])
    board.pick = {"kind": "maya", "column": 1, "colour": "G"}
    board.pick = {"kind": "maya", "column": 1, "colour": "L"}
    board.pick = {"kind": "maya", "column": 1, "colour": "G"}
    assert board.state["selection"]["colours"] == ["L"]
    board.pick = {"kind": "maya", "column": 2, "colour": "O"}  # another column starts afresh
    assert board.state["selection"] == {"mode": "receive", "column": 2, "colours": ["O"]}


def test_full_bhagya_reason():  # §6.2.4
    board = board_for([{"BHAGYA": "R O"}])
    board.pick = {"kind": "maya", "column": 1, "colour": "G"}
    board.pick = {"kind": "maya", "column": 1, "colour": "L"}
    board.pick = {"kind": "level", "level": "BHAGYA"}
    assert (board.message_kind, board.message) == ("error", "the Bhagya has only 1 free bubble")


# ------------------------------------------------------------------ Channel (§7)


def test_channel_step_by_step_order_c3():  # spec 15.4 C3, first order
    board = board_for([{"GREEN": "Y K", "YELLOW": "Y Y", "notches": ["YELLOW"]}])
    start = board.match.state
    board.pick = {"kind": "space", "space": "D2_D1"}
    assert board.state["selection"]["space"] == "D2_D1"
    # GREEN Y can go down 1 (onto YELLOW) or down 2 (onto ORANGE): the board asks where
    board.pick = {"kind": "energy", "level": "GREEN", "colour": "Y"}
    assert sorted(board.state["hints"]["targets"]) == ["ORANGE", "YELLOW"]
    board.pick = {"kind": "level", "level": "YELLOW"}
    assert board.match.length == 0
    assert board.state["selection"]["prefix"] == ["GREEN Y down 1"]
    assert track(board, 0, "YELLOW") == ["Y", "Y", "Y"]  # the preview shows the step taken
    # now the only second step is GREEN K down 2, which skips the harmonized YELLOW
    assert [s["text"] for s in board.state["hints"]["steps"]] == ["GREEN K down 2 → RED"]
    board.pick = {"kind": "energy", "level": "GREEN", "colour": "K"}
    expected = start.apply(Channel("D2_D1", (Step("GREEN", "Y", DOWN, 1), Step("GREEN", "K", DOWN, 2))))
    assert board.match.state == expected
    assert track(board, 0, "RED") == ["K"]
    assert board.state["players"][0]["reserve"] == 4  # the notch token came back (§8)


def test_channel_next_steps_are_the_engines():  # §14.4
    board = board_for([{"GREEN": "Y K", "YELLOW": "Y Y"}])
    board.pick = {"kind": "space", "space": "D2_D1"}
    from gamelib.chakra.actions import next_steps

    assert [s["text"].split(" → ")[0] for s in board.state["hints"]["steps"]] == [
        str(step) for step in next_steps(board.match.state, "D2_D1")
    ]


def test_step_buttons_apply_a_single_step_space():  # spec 15.4 C2
    board = board_for([{"GREEN": "R"}])
    board.pick = {"kind": "space", "space": "U1_or_D1"}
    texts = [s["text"] for s in board.state["hints"]["steps"]]
    assert texts == ["GREEN R down 1 → YELLOW", "GREEN R up 1 → LIGHT_BLUE"]
    board.pick = {"kind": "step", "index": 1}
    assert track(board, 0, "LIGHT_BLUE") == ["R"] and board.state["players"][0]["spaces"] == ["U1_or_D1"]


@pytest.mark.parametrize(
    "players, space, energy, reason",
    [
        # §7.5 / M3-M4: a black must land exactly in the Earth
        ([{"GREEN": "K", "RED": "K"}], "D3", ("RED", "K"), "the black energy would overshoot the Earth"),
        # §7.5 / M6: colour never enters the Earth
        ([{"GREEN": "K", "ORANGE": "R"}], "D3", ("ORANGE", "R"), "only black energy can enter the Earth"),
        # §7.5.1 / M13: a harmonized chakra is locked
        (
            [{"YELLOW": "Y Y Y", "GREEN": "R"}],
            "U1_or_D1",
            ("YELLOW", "Y"),
            "energies of a harmonized chakra cannot move",
        ),
        # §7.5 / M9: nothing moves into the Bhagya
        ([{"PURPLE": "R", "GREEN": "G"}], "U2", ("PURPLE", "R"), "nothing can move into the Bhagya"),
    ],
)
def test_an_energy_that_cannot_move_shows_the_rule(players, space, energy, reason):
    board = board_for(players)
    board.pick = {"kind": "space", "space": space}
    board.pick = {"kind": "energy", "level": energy[0], "colour": energy[1]}
    assert (board.message_kind, board.message) == ("error", reason)
    assert board.match.length == 0 and board.state["selection"]["space"] == space


def test_a_space_that_cannot_be_completed_is_refused():  # §7.3.2, spec 15.4 C2
    board = board_for([{"GREEN": "R"}])
    board.pick = {"kind": "space", "space": "D1x3"}
    assert board.message_kind == "error" and "the space “down 1, three times”" in board.message
    assert board.state["selection"] == {"mode": None}


def test_an_occupied_space_gives_the_engines_reason():  # §7.3.1
    board = board_for([{"GREEN": "R", "spaces": ["U2"]}])
    board.pick = {"kind": "space", "space": "U2"}
    assert (board.message_kind, board.message) == ("error", "space U2 is occupied")


def test_swap_c4():  # spec 15.4 C4
    start = position([{"BHAGYA": "R K", "YELLOW": "Y Y Y", "EARTH": 1}], maya=MAYA, bag={"Y": 2, "K": 1})
    board = ChakraBoard(start)
    board.pick = {"kind": "space", "space": "SWAP"}
    assert board.state["hints"]["swap"] == ["K"]  # yellow is capped (§6.2.3)
    board.pick = {"kind": "swap", "colour": "K"}
    assert board.match.state == start.apply(Channel("SWAP", (), "K"))
    assert board.state["players"][0]["earth"] == 0 and track(board, 0, "BHAGYA") == ["K", "K", "R"]


# ------------------------------------------------------------------ Meditate (§10)


def test_meditate_by_pick():  # spec 15.6 T1
    board = board_for(
        [{"GREEN": "R", "RED": "K", "reserve": 0, "spaces": ["D3", "U2", "SWAP"], "notches": ["GREEN", "RED"]}]
    )
    board.pick = {"kind": "meditate", "colour": "PURPLE"}
    seat0 = board.match.state.players[0]
    assert seat0.reserve == 3 and not seat0.spaces and seat0.notches == {1, 4}


def test_meditate_on_a_held_colour_shows_the_reason():  # §10.1
    board = board_for([{"meditation": ["RED"]}])
    assert "RED" not in board.state["hints"]["meditate"]
    board.pick = {"kind": "meditate", "colour": "RED"}
    assert (board.message_kind, board.message) == ("error", "you already hold the red Meditation token")
    assert board.match.length == 0


# ------------------------------------------------------------------ hidden information (§14.6)


def shown_values(board):
    return {token["colour"]: token["value"] for token in board.state["plenitude"]}


def test_viewer_sees_only_their_meditation_values():
    state = new_game(seed=3)
    board = ChakraBoard(state, viewer=0)
    known = {state.players[0].meditation[0]}
    for level, value in enumerate(state.plenitude, start=1):
        shown = shown_values(board)[
            ["RED", "ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE", "PURPLE"][level - 1]
        ]
        assert shown == (value if level in known else None)
    assert board.state["unused"] is None


def test_switching_the_viewer_follows_the_observation():
    state = new_game(seed=3)
    board = ChakraBoard(state, viewer=0)
    board.pick = {"kind": "viewer", "seat": "1"}
    assert board.state["viewer"] == 1
    assert [v for v in shown_values(board).values() if v is not None] == [
        state.plenitude[c - 1] for c in state.players[1].meditation
    ]
    board.pick = {"kind": "viewer", "seat": "all"}
    assert list(shown_values(board).values()) == list(state.plenitude)
    assert board.state["unused"] == state.unused_plenitude
    assert board.match.length == 0  # changing the view is not a move


def test_meditating_reveals_one_more_value_to_that_player_only():  # §10.2
    state = new_game(seed=3)
    board = ChakraBoard(state, viewer=0)
    colour = next(c for c in range(1, 8) if c not in state.players[0].meditation)
    board.apply(Meditate(colour))
    assert sum(v is not None for v in shown_values(board).values()) == 2
    board.pick = {"kind": "viewer", "seat": 1}
    assert sum(v is not None for v in shown_values(board).values()) == len(set(state.players[1].meditation))


def test_auto_viewer_follows_the_player_to_move_or_the_human():
    board = ChakraBoard(new_game(seed=4))
    board.pick = {"kind": "maya", "column": 0, "colour": board.state["maya"][0][0]}
    assert board.state["viewer"] == 0
    with_bots = ChakraBoard(new_game(seed=4), bots={0: random_policy})
    assert with_bots.state["viewer"] == 1


def test_fallback_text_hides_what_the_viewer_does_not_know():
    state = new_game(seed=3)
    board = ChakraBoard(state, viewer=0)
    text = board._repr_html_()
    assert "BHAGYA" in text and text.count("?") == 6  # one value known (§4.4), six hidden


# ------------------------------------------------------------------ history, turns, bots


def play_some(board, count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        board.apply(random_policy(board.match.state, rng))


def test_history_steps_back_and_forward():
    board = ChakraBoard(new_game(seed=5))
    states = [board.match.state]
    play_some(board, 3)
    states = board.match.states
    board.pick = {"kind": "history", "to": "back"}
    assert board.history["index"] == 2 and board.match.state == states[2]
    board.pick = {"kind": "history", "to": "start"}
    assert board.state["players"][0]["levels"] == ChakraBoard(states[0], viewer="all").state["players"][0]["levels"]
    board.pick = {"kind": "history", "to": "end"}
    assert board.history == {"index": 3, "length": 3, "can_back": True, "can_forward": False}


def test_a_pick_after_stepping_back_replaces_the_future():
    board = ChakraBoard(new_game(seed=5))
    play_some(board, 3)
    board.pick = {"kind": "history", "to": "start"}
    board.pick = {"kind": "meditate", "colour": next(name for name in board.state["hints"]["meditate"])}
    assert board.history["length"] == 1


def test_picking_on_another_players_board_is_refused():
    board = board_for([{"GREEN": "R"}, {"GREEN": "R"}])
    board.pick = {"kind": "space", "seat": 1, "space": "U2"}
    assert board.message_kind == "error" and "Seat 0's turn" in board.message
    assert board.match.length == 0


def test_bots_answer_after_the_human_move():
    board = ChakraBoard(new_game(seed=6), bots={1: random_policy})
    board.pick = {"kind": "meditate", "colour": board.state["hints"]["meditate"][0]}
    assert board.history["length"] == 2 and board.match.state.to_move == 0
    assert "Seat 1 (bot)" in board.state["last_action"]


def test_bot_button_plays_the_current_seat():
    board = ChakraBoard(new_game(seed=6), bots={0: random_policy, 1: random_policy})
    board.pick = {"kind": "bot"}
    assert board.history["length"] == 1  # one bot move per press when every seat is a bot


def test_bot_button_for_a_human_seat_then_the_bots_answer():
    board = ChakraBoard(new_game(seed=6), bots={1: random_policy})
    board.pick = {"kind": "bot"}
    assert board.history["length"] == 2 and board.match.state.to_move == 0


def test_the_game_over_refuses_moves_and_shows_scores():  # §11.4 safeguard ends the game
    board = ChakraBoard(new_game(seed=7, rules=Rules(max_rounds=1)))
    play_some(board, 2)
    assert board.state["phase"] == "over" and board.state["scores"] == board.match.state.scores()
    board.pick = {"kind": "meditate", "colour": "RED"}
    assert board.message_kind == "error" and "over" in board.message


def test_repr_is_deterministic():
    assert repr(ChakraBoard(new_game(seed=1))) == "ChakraBoard(move 0 of 0)"


def test_one_update_sends_one_state_however_many_moves_it_makes():
    """A click that the bot answers (and whose refill is drawn) reaches the page as one new state."""
    board = ChakraBoard(new_game(seed=6), bots={1: random_policy})
    sent = []
    board.observe(lambda change: sent.append(change["new"]), names="state")
    receive = next(a for a in board.match.state.legal_actions() if isinstance(a, Receive))
    board.pick = {"kind": "maya", "column": receive.column, "colour": "KROYGLDP"[min(receive.colours)]}
    sent.clear()
    board._apply(receive)
    assert board.match.length == 2 and len(sent) == 1  # the human's move and the bot's answer, one redraw
    assert sent[0]["to_move"] == 0


def test_the_page_gets_no_list_of_action_strings():
    """The page highlights from ``state["hints"]``; the engine's action list is never sent."""
    board = ChakraBoard(new_game(seed=6))
    assert board.legal == [] and board.state["hints"]["maya"]


def test_constructor_shape_and_label():
    board = ChakraBoard(seed=4, label="Lesson board")
    assert board.match.state.seed == 4 and board.state["label"] == "Lesson board"
    assert ChakraBoard(seed=4, rules=Rules(inspiration_tokens=3)).match.state.players[0].reserve == 3


def test_every_field_sent_is_read_by_the_page():
    """No synced data the page never reads: each key of the state and of a player appears in board.js."""
    import re
    from pathlib import Path

    import gamelib.chakra.board as board_module

    script = (Path(board_module.__file__).parent / "board.js").read_text(encoding="utf-8")
    board = ChakraBoard(new_game(seed=7, rules=Rules(max_rounds=1)))
    play_some(board, 2)
    for key in [*board.state, *board.state["players"][0]]:
        assert re.search(rf"\.{key}\b|\"{key}\"", script), key
