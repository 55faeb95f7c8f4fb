"""The Nagaraja board without a browser: picks go through the engine, and nothing hidden leaks.

A headless test does exactly what a click does: it assigns the ``pick`` trait. The board
must turn it into the engine's action, or show the engine's own reason (spec 6, design
"a bad click shows the reason"); and what it sends to the page must hold only the
viewer's observation (spec 7).
"""

from __future__ import annotations

import json
import random

import pytest

from gamelib.core import IllegalMove, random_policy
from gamelib import nagaraja
from gamelib.nagaraja.board import NagarajaBoard, TempleBoard, sandbox
from gamelib.nagaraja.temple import RELIC_SPOTS, PlacedTile
from gamelib.nagaraja.words import plain


def new_board(seed=1, **kwargs):
    kwargs.setdefault("bots", random_policy)
    return NagarajaBoard(nagaraja.new_game(seed=seed), seed=seed, **kwargs)


def play_until(board, phase, rng, limit=400):
    """Click random legal moves (by index, as the 'all legal moves' list does) until `phase` is ours."""
    for _ in range(limit):
        state = board.game_state
        if state.is_terminal:
            return False
        if state.phase == phase and board.state["your_turn"]:
            return True
        board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
    return False


def page_data(board) -> str:
    """Everything the page receives, as one string."""
    return json.dumps({"state": board.state, "legal": board.legal, "message": board.message})


def engine_reason(state, action) -> str:
    with pytest.raises(IllegalMove) as error:
        state.apply(action)
    return plain(error.value.reason)  # the board shows it in the words printed on the cards


# --------------------------------------------------------------------------- picks apply moves


def test_placing_the_won_tile_by_pick_changes_the_engine_state_and_the_drawing():
    board = new_board(seed=2)
    assert play_until(board, "EXPLORATION", random.Random(2))
    before, index = board.game_state, board.match.index
    row, col = before.observation(board.viewer)["players"][board.viewer]["temple"]["legal_cells"][0]
    tile = before.current_room
    board.pick = {"kind": "place", "cell": [row, col], "rotation": 3}
    assert board.message_kind == "info"
    assert board.match.actions[index] == nagaraja.PlaceTile(board.viewer, (row, col), 3)
    placed = board.match.states[index + 1]
    content = placed.players[board.viewer].temple.cell((row, col))
    assert (content.tile_id, content.rotation) == (tile, 3)
    # the drawing of that state shows the tile as the engine holds it (the bot may have moved since)
    drawn = board.state_json(placed)["players"][board.viewer]["temple"]["cells"][row][col]
    assert drawn["tile"] == tile and drawn["rotation"] == 3
    assert drawn["segments"] == placed.players[board.viewer].temple.open_segments((row, col))


def test_an_illegal_placement_shows_the_engines_reason_and_changes_nothing():
    board = new_board(seed=2)
    assert play_until(board, "EXPLORATION", random.Random(2))
    state, length = board.game_state, board.match.length
    legal = {tuple(a["cell"]) for a in board.legal if a["type"] == "PlaceTile"}
    bad = next((r, c) for r in range(3) for c in range(3) if (r, c) not in legal)
    board.pick = {"kind": "place", "cell": list(bad), "rotation": 0}
    assert board.message_kind == "error"
    assert board.message == engine_reason(state, nagaraja.PlaceTile(board.viewer, bad, 0))
    assert board.game_state is state and board.match.length == length


def test_committing_cards_by_pick_and_a_bad_commit_gets_the_engines_reason():
    board = new_board(seed=5)
    assert play_until(board, "CALL_OF_FATE", random.Random(5))
    state = board.game_state
    hand = board.state["players"][board.viewer]["hand"]
    symbols = {}
    for card in hand:
        symbols.setdefault(card["symbol"], []).append(card["id"])
    if len(symbols) >= 2:  # two symbols at once is against spec 2.5
        first, second = list(symbols.values())[:2]
        bad = [first[0], second[0]]
    else:
        bad = ["NOT-A-CARD"]
    board.pick = {"kind": "commit", "cards": bad}
    assert board.message_kind == "error"
    assert board.message == engine_reason(state, nagaraja.Commit(board.viewer, tuple(sorted(bad))))
    assert board.game_state is state
    good = [hand[0]["id"]]
    board.pick = {"kind": "commit", "cards": good}
    assert board.message_kind == "info"
    assert board.match.actions[board.match.states.index(state)] == nagaraja.Commit(board.viewer, tuple(good))


def test_a_naga_on_a_card_without_legal_parameters_reports_why():
    board = new_board(seed=5)
    assert play_until(board, "CALL_OF_FATE", random.Random(5))
    state = board.game_state
    board.pick = {"kind": "naga", "source": "GREEN", "card": board.state["players"][board.viewer]["hand"][0]["id"]}
    assert board.message_kind == "error"
    assert board.message == engine_reason(
        state,
        nagaraja.UseNaga(
            board.viewer, "GREEN", board.state["players"][board.viewer]["hand"][0]["id"], nagaraja.NoParams()
        ),
    )


def test_a_stale_move_index_is_refused_with_a_reason():
    board = new_board(seed=3)
    board.pick = {"kind": "action", "index": 10_000}
    assert board.message_kind == "error" and "no longer on offer" in board.message


def test_the_bot_answers_a_human_move_and_the_history_steps_back():
    board = new_board(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        if board.game_state.is_terminal:
            break
        board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
        state = board.game_state
        assert state.is_terminal or state.to_act == board.viewer  # the bot has moved in between
    index = board.match.index
    board.pick = {"kind": "history", "to": "back"}
    assert board.match.index == index - 1
    assert board.history["can_forward"]
    board.pick = {"kind": "history", "to": "end"}
    assert board.match.index == index


def test_hot_seat_follows_the_player_to_act():
    board = new_board(seed=6, bots={})
    rng = random.Random(6)
    for _ in range(60):
        state = board.game_state
        if state.is_terminal:
            break
        assert board.state["viewer"] == state.to_act and board.state["your_turn"]
        assert board.legal  # the acting player's own options
        board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}


# --------------------------------------------------------------------------- no hidden information


def hidden_tokens(state, viewer):
    """Ids the viewer may not know: the opponent's unknown hand cards, unknown relics, uncollected amulets."""
    obs = state.observation(viewer)
    opponent = 1 - viewer
    known = {card["id"] for card in obs["players"][opponent]["known_hand"]}
    tokens = {card for card in state.players[opponent].hand if card not in known}
    for seat in (0, 1):
        for spot in RELIC_SPOTS:
            if obs["players"][seat]["temple"]["relics"][spot]["vp"] is None:
                tokens.add(state.players[seat].temple.relic_at(spot))
    tokens |= set(state.amulet_pile)
    if state.room_amulet:
        tokens.add(state.room_amulet)
    for seat in (0, 1):
        for content in state.players[seat].temple.cells:
            if isinstance(content, PlacedTile) and content.amulet:
                tokens.add(content.amulet)
    return tokens


@pytest.mark.parametrize("seed", range(6))
def test_the_page_never_receives_what_the_viewer_may_not_know(seed):
    board = new_board(seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not board.game_state.is_terminal and checked < 200:
        state, viewer = board.game_state, board.viewer
        data = json.loads(page_data(board))
        events = data["state"].pop("events")
        if events:
            assert events == [
                plain(e) for e in state.events(viewer)[-len(events) :]
            ]  # the engine's own filtered log, in the cards' words
        text = json.dumps(data)
        for token in hidden_tokens(state, viewer):
            assert f'"{token}"' not in text, f"{token} leaked to the page"
        obs = state.observation(viewer)
        for seat in (0, 1):
            relics = board.state["players"][seat]["temple"]["spots"]
            for spot in RELIC_SPOTS:
                view = obs["players"][seat]["temple"]["relics"][spot]
                # a face-down value is drawn only when the viewer knows it (peeked, or saw it face up)
                assert relics[spot]["value"] == view["vp"]
                if relics[spot]["value"] is not None and not relics[spot]["face_up"]:
                    assert view["known"]
        assert board.state["players"][1 - viewer]["hand"] is None
        assert board.state["players"][1 - viewer]["amulets"] is None
        if not board.state["your_turn"]:
            assert board.legal == []  # the bot's options would reveal its hand
        board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
        checked += 1
    assert checked > 10


def test_the_text_fallback_shows_the_observation_not_the_full_state():
    board = new_board(seed=7)
    state = board.game_state
    text = board._repr_html_()
    assert "PLACEHOLDER" in text
    for card in state.players[1 - board.viewer].hand:
        assert card not in text
    for card in state.players[board.viewer].hand:
        assert card in text


def test_repr_is_deterministic():
    assert repr(new_board(seed=1)) == repr(new_board(seed=1))


def test_the_board_is_labelled_placeholder():
    board = new_board(seed=1)
    assert board.state["placeholder"] is True


# --------------------------------------------------------------------------- temple sandbox


def test_temple_sandbox_places_by_pick_and_follows_spec_9_5_case_5():
    board = TempleBoard(sandbox(tiles=("R16",)))
    board.pick = {"kind": "place", "cell": [2, 0], "rotation": 2}  # spec 9.5 case 5: LEFT_2 up, amulet stays
    temple = board.state["players"][0]["temple"]
    assert temple["spots"]["LEFT_2"]["face_up"] and temple["spots"]["LEFT_2"]["value"] is not None
    assert temple["cells"][2][0]["amulet"] is True
    board.pick = {"kind": "history", "to": "back"}
    board.pick = {"kind": "place", "cell": [2, 0], "rotation": 0}  # rotation 0: amulet collected
    temple = board.state["players"][0]["temple"]
    assert temple["cells"][2][0]["amulet"] is False and not temple["spots"]["LEFT_2"]["face_up"]
    assert board.game_state.collected


def test_temple_sandbox_reports_the_temples_reason_for_an_illegal_cell():
    board = TempleBoard(sandbox(tiles=("R02",)))
    board.pick = {"kind": "place", "cell": [0, 0], "rotation": 0}  # spec 4.4: not row 2, no neighbour
    assert board.message_kind == "error"
    with pytest.raises(IllegalMove) as error:
        board.game_state.temple.place((0, 0), "R02", 0)
    assert board.message == error.value.reason


def test_the_sandbox_counts_the_tiles_laid_before_the_first_click():
    # Issue 10 point 10: the temple lesson's sandbox said "0 tile(s) placed" with two tiles on it.
    board = TempleBoard(sandbox(tiles=("R02",), cells={(2, 1): ("R13", 0), (1, 1): ("R13", 0)}, seed=5))
    assert board.message.startswith("2 tiles in the temple")
    assert TempleBoard(sandbox(tiles=("R16",), seed=2)).message.startswith("0 tiles in the temple")
