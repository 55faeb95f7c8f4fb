"""Issue 25: the duel board speaks in the words printed on the cards, and every click that does
nothing says why.

The scan plays seeded random hot-seat games and, at every position, collects every text the page
receives (status, events, move labels, choice labels, the odds overlay) and the message of every
click a student can make there (each hand card and each card in play, with no Naga chosen and
with a Naga colour (each colour under GAMELIB_LONG_TESTS=1); commitments mixing two symbols; a cell outside the temple), and asserts
that none holds an engine code (``ROM``, ``PEEK2_SWAP``, ``CALL_OF_FATE``, ``TOP_1``, ``GREEN``,
``UseNaga``, ``NoParams()``: :data:`gamelib.nagaraja.words.CODES`).
"""

from __future__ import annotations

import os
import random

from gamelib import nagaraja
from gamelib.nagaraja.board import NagarajaBoard
from gamelib.nagaraja.cards import SYMBOL_NAMES
from gamelib.nagaraja.words import CODES, EFFECT_TITLES, plain

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
GAMES = 12 if LONG else 3  # about 5 s of CPU for 3 games, 20 s for 12 (CI: make test-long)
COLOURS = ("BROWN", "WHITE", "GREEN", None)


def texts(value):
    """Every string inside the page's JSON (ids and codes the page uses as handles are keys, not text)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in (
                "label",
                "params_label",
                "status",
                "events",
                "text",
                "title",
                "note",
                "columns",
                "rows",
                "players",
                "played",
                "hand",
                "drawn",
                "known_hand",
                "amulets",
                "result",
                "room_winner",
                "name",
                "score_text",
                "cells",
            ):
                yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def clicks(board):
    """The picks the page can send at this position (see board.js), each on a fresh copy of the position."""
    state = board.state
    me = state["players"][state["viewer"]]
    hand = [card["id"] for card in me["hand"] or []]
    played = [card["id"] for card in me["played"]]
    usable = sorted({m["source"] for m in board.legal if m.get("source") in COLOURS[:3]})
    colours = COLOURS if LONG else (None, (usable or ["GREEN"])[0])
    for card in hand + played:
        for colour in colours:
            yield {"kind": "naga", "source": colour, "card": card}
    by_symbol = {}
    for card in me["hand"] or []:
        by_symbol.setdefault(card["symbol"], card["id"])
    if len(by_symbol) >= 2:
        yield {"kind": "commit", "cards": sorted(by_symbol.values())[:2]}
    yield {"kind": "place", "cell": [5, 5], "rotation": 0}
    yield {"kind": "keep", "cards": hand[:1]}


def test_no_text_the_board_sends_or_says_holds_an_engine_code():
    seen_messages = set()
    for seed in range(GAMES):
        board = NagarajaBoard(nagaraja.new_game(seed=seed), seed=seed, bots={})
        board.show_analysis = seed == 0  # one game with the odds overlay on
        rng = random.Random(seed)
        for _ in range(400):
            if board.game_state.is_terminal:
                break
            for text in texts({"state": board.state, "legal": board.legal, "analysis": board.analysis}):
                assert not CODES.search(text), text
            index = board.match.index
            for pick in clicks(board):
                board.pick = dict(pick)
                seen_messages.add(board.message)
                assert not CODES.search(board.message), (pick, board.message)
                if board.match.index != index:  # a single-way Naga was played: back to the position
                    board.match.jump(index)
                    board.refresh()
            board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
    assert any("these have" in m for m in seen_messages)  # the mixed commitment was tried and explained
    assert any("is already in play" in m for m in seen_messages)


def test_plain_uses_the_printed_words():
    # the engine's reason for a mixed commitment (gamelib/nagaraja/actions.py)
    assert (
        plain("committed cards must share one symbol, these have ROM, STK")
        == "committed cards must share one symbol, these have rooms, sticks"
    )
    assert plain("P0 reveals REL-06 [WWG | PEEK2_SWAP].") == "P0 reveals REL-06 [WWG | peek at 2, swap]."
    assert plain("PEEK2_SWAP cannot be activated now") == "“peek at 2, swap” cannot be activated now"
    assert (
        plain("P0 uses a GREEN Naga on REL-02 (TOP_1 and LEFT_0 in P0's temple)")
        == "P0 uses a green Naga on REL-02 (top spot 1 and left spot 0 in P0's temple)"
    )
    assert (
        plain("UseNaga is not possible now: the game is in CALL_OF_FATE, and UseNaga belongs to CONFRONTATION")
        == "using a Naga is not possible now: the game is in the Call of Fate, and using a Naga belongs to the Confrontation"
    )
    for code in list(EFFECT_TITLES) + list(SYMBOL_NAMES):
        assert not CODES.search(plain(f"a {code} b")), code


def confrontation_board(seed_range, wanted):
    """A hot-seat board at a Confrontation where the player to act meets ``wanted(board)``."""
    for seed in seed_range:
        board = NagarajaBoard(nagaraja.new_game(seed=seed), seed=seed, bots={})
        rng = random.Random(seed)
        for _ in range(400):
            state = board.game_state
            if state.is_terminal:
                break
            if state.phase == "CONFRONTATION" and wanted(board):
                return board
            board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
    raise AssertionError("no such position in these games")


def naga_ways(board):
    ways = {}
    for move in board.legal:
        if move["type"] == "UseNaga":
            ways.setdefault((move["source"], move["card"]), []).append(move)
    return ways


def test_a_naga_with_a_single_way_is_used_at_once():
    board = confrontation_board(range(60), lambda b: any(len(w) == 1 for w in naga_ways(b).values()))
    (source, card), [move] = next((key, w) for key, w in naga_ways(board).items() if len(w) == 1)
    index = board.match.index
    board.pick = {"kind": "naga", "source": source, "card": card}
    assert board.message_kind != "error", board.message
    assert board.match.index > index
    assert plain(str(board.match.actions[index])) == move["label"]


def test_a_naga_with_several_ways_points_at_the_choice():
    board = confrontation_board(range(60), lambda b: any(len(w) > 1 for w in naga_ways(b).values()))
    (source, card), ways = next((key, w) for key, w in naga_ways(board).items() if len(w) > 1)
    index = board.match.index
    board.pick = {"kind": "naga", "source": source, "card": card}
    assert board.match.index == index and board.message_kind == "error"
    assert board.message == f"{card} can be used in {len(ways)} ways here: choose one of the buttons under 'Use a Naga'"


def test_a_card_in_play_clicked_with_a_naga_says_why():
    board = confrontation_board(
        range(60), lambda b: bool(naga_ways(b)) and bool(b.state["players"][b.state["viewer"]]["played"])
    )
    me = board.state["players"][board.state["viewer"]]
    source = next(iter(naga_ways(board)))[0]
    card = me["played"][0]["id"]
    index = board.match.index
    board.pick = {"kind": "naga", "source": source, "card": card}
    assert board.match.index == index and board.message_kind == "error"
    assert board.message.startswith(f"{card} is already in play (")
    assert board.message.endswith("a Naga activates a card still in your hand")


def test_a_hand_card_clicked_without_any_naga_says_why():
    board = confrontation_board(
        range(60), lambda b: not naga_ways(b) and bool(b.state["players"][b.state["viewer"]]["hand"])
    )
    card = board.state["players"][board.state["viewer"]]["hand"][0]["id"]
    board.pick = {"kind": "naga", "source": None, "card": card}
    assert board.message_kind == "error" and board.message.startswith("you have no Naga to use")
