"""The duel board's analysis overlay (issue 12): exact values, and only what the viewer may know.

The overlay is switched on through the ``show_analysis`` trait (what the page's checkbox sets)
and read back from the synced ``analysis`` trait, as the page reads it. Expected values come
from the library (``analysis.commitment_table``, itself checked against plain enumeration in
``test_nagaraja_analysis``) and, in the Confrontation, from the engine: each move is applied with
explicit chance and every re-throw outcome is listed with its exact probability.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from gamelib import nagaraja
from gamelib.core import Match, random_policy
from gamelib.nagaraja import analysis
from gamelib.nagaraja.board import NagarajaBoard
from gamelib.nagaraja.words import plain
from tests.nagaraja_support import make_state


def board_at_call_of_fate(seed):
    board = NagarajaBoard(nagaraja.new_game(seed=seed), seed=seed, bots=random_policy)
    rng = random.Random(seed)
    for _ in range(400):
        state = board.game_state
        if state.phase == "CALL_OF_FATE" and board.state["your_turn"]:
            return board
        board.pick = {"kind": "action", "index": rng.randrange(len(board.legal))}
    raise AssertionError("no Call of Fate for the viewer")


def cells(board):
    return {row["label"]: [Fraction(cell["p"]) for cell in row["cells"]] for row in board.analysis["rows"]}


def test_the_overlay_is_off_until_switched_on_and_computes_nothing_meanwhile():
    board = board_at_call_of_fate(3)
    assert board.analysis == {"on": False}
    assert board._analysis_cache == {}
    board.show_analysis = True
    assert board.analysis["on"] and board.analysis["rows"]
    board.show_analysis = False
    assert board.analysis == {"on": False}


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13])
def test_call_of_fate_values_equal_the_library_for_every_commitment(seed):
    board = board_at_call_of_fate(seed)
    board.show_analysis = True
    state, viewer = board.game_state, board.viewer
    obs = state.observation(viewer)
    hand = state.players[viewer].hand
    them = state.players[1 - viewer]
    is_guide = state.guide == viewer
    counts = [len(them.committed)] if them.committed is not None else list(range(1, len(them.hand) + 1))
    shown = cells(board)
    assert len(shown) == len(nagaraja.cards.commitments([state.edition.cards[c] for c in hand]))
    for column, count in enumerate(counts):
        table = analysis.commitment_table(hand, count, is_guide, seen=state.discard_pile)
        for row in table:
            assert shown[" + ".join(row.cards)][column] == row.p_win
    assert board.analysis["columns"] == [f"they {'commit' if is_guide else 'committed'} {k}" for k in counts]
    assert obs["phase"] == "CALL_OF_FATE"


def test_the_follower_sees_one_column_for_the_count_the_guide_committed():
    # seat 0 follows: the guide (seat 1) has committed 2 STK cards; the follower holds two symbols
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=0,
        guide=1,
        hands=(("REL-03", "REL-05", "STK-01"), ("ROM-01",)),
        committed=(None, ("STK-02", "STK-05")),
    )
    board = NagarajaBoard(state, bots={1: random_policy})
    board.show_analysis = True
    assert board.analysis["columns"] == ["they committed 2"]
    shown = cells(board)
    # the guide's cards are hidden from seat 0: the model draws them from every unseen card
    for row in analysis.commitment_table(("REL-03", "REL-05", "STK-01"), 2, False, seen=state.discard_pile):
        assert shown[" + ".join(row.cards)] == [row.p_win]
    # and the library's brute force agrees on the one-card commitment (every set, every face)
    assert shown["STK-01"] == [
        analysis.brute_force_win(("STK-01",), 2, False, ("REL-03", "REL-05", "STK-01"), seen=state.discard_pile)
    ]


def test_call_of_fate_overlay_is_the_same_when_only_hidden_cards_differ():
    guide_cards = [("STK-02", "STK-05"), ("CRD-07", "CRD-09"), ("REL-01", "REL-12")]
    overlays = []
    for committed in guide_cards:
        state = make_state(
            phase="CALL_OF_FATE",
            to_act=0,
            guide=1,
            hands=(("REL-03", "REL-05", "STK-01"), ("ROM-01", "ROM-02")),
            committed=(None, committed),
        )
        board = NagarajaBoard(state, bots={1: random_policy})
        board.show_analysis = True
        overlays.append(board.analysis)
    assert overlays[0] == overlays[1] == overlays[2]


# --------------------------------------------------------------------------- Confrontation

# seat 0 (guide) threw B01=3, W01=Naga, G01=1 (total 4); seat 1 threw B02=4, B03=2, G02=Naga (total 6)
STICKS = ((("B01", 3, 0), ("W01", 0, 1), ("G01", 1, 0)), (("B02", 4, 0), ("B03", 2, 0), ("G02", 0, 1)))
HAND = ("STK-01", "STK-03", "STK-06", "REL-01")  # PLUS2, RETHROW2, DISCARD2 and a relic PEEK


def confrontation(hands=(HAND, ("ROM-05",)), guide=0, sticks=STICKS):
    return make_state(
        phase="CONFRONTATION",
        to_act=0,
        guide=guide,
        hands=hands,
        held_sticks=sticks,
        committed=((), ()),
        explicit_chance=True,
    )


def engine_win_chance(state, viewer=0):
    """P(viewer wins the room) after the chance events now queued, resolved at once (no more Nagas)."""
    if state.room_winner is not None:  # the engine ended the Confrontation by itself (nobody left to act)
        return Fraction(state.room_winner == viewer)
    if not state.queue:
        mine, theirs = state.total(viewer), state.total(1 - viewer)
        return Fraction(mine > theirs or (mine == theirs and state.guide == viewer))
    return sum(p * engine_win_chance(state.apply(outcome), viewer) for outcome, p in state.chance_outcomes())


@pytest.mark.parametrize("guide", [0, 1])
def test_confrontation_values_equal_the_engine_for_every_legal_move(guide):
    state = confrontation(guide=guide)
    board = NagarajaBoard(state, bots={1: random_policy})
    board.show_analysis = True
    rows = board.analysis["rows"]
    legal = state.legal_actions()
    assert [row["label"] for row in rows] == [plain(str(a)) for a in legal]  # in the cards' words
    effects = set()
    for action, row in zip(legal, rows):
        after = state.apply(action)
        expected = engine_win_chance(after)
        assert Fraction(row["cells"][0]["p"]) == expected, str(action)
        effects.add(state.edition.cards[action.card].effect if hasattr(action, "card") else type(action).__name__)
    assert {"PLUS2", "RETHROW2", "DISCARD2", "PEEK", "Pass"} <= effects
    values = {Fraction(row["cells"][0]["p"]) for row in rows}
    assert any(0 < v < 1 for v in values) or guide == 1  # as guide, a re-throw leaves chance here


def test_confrontation_numbers_worked_by_hand():
    # Totals: P0 (guide) 4 against 6; brown faces 2, 3, 3, 4; green Naga, Naga, 1, 1 (Model A, spec 3.2).
    board = NagarajaBoard(confrontation(), bots={1: random_policy})
    board.show_analysis = True
    shown = {row["label"]: Fraction(row["cells"][0]["p"]) for row in board.analysis["rows"]}
    naga = "P0 uses a white Naga on "  # the board's words for the engine's "WHITE"
    expected = {
        "P0 passes": Fraction(0),  # 4 < 6
        naga + "STK-01": Fraction(1),  # PLUS2: 6 = 6, the guide wins the tie
        naga + "STK-06 (B02, B03 of P1)": Fraction(1),  # DISCARD2: 4 against 0
        naga + "STK-06 (B03, G02 of P1)": Fraction(1),  # 4 against 4, tie to the guide
        naga + "STK-03 (B01 of P0)": Fraction(0),  # 1 + brown >= 6 needs a 5
        naga + "STK-03 (B02 of P1)": Fraction(1, 4),  # 2 + brown <= 4: the brown shows 2
        naga + "STK-03 (B02, B03 of P1)": Fraction(1, 16),  # both browns show 2
        naga + "STK-03 (B02, G02 of P1)": Fraction(1, 8),  # brown 2 (1/4) and green Naga (1/2)
        naga + "STK-03 (G02 of P1)": Fraction(0),  # 6 + green >= 6 whatever it shows
    }
    assert {label: shown[label] for label in expected} == expected
    best = [row["label"] for row in board.analysis["rows"] if row["cells"][0]["best"]]
    assert naga + "STK-01" in best and "P0 passes" not in best


def test_confrontation_overlay_is_the_same_when_only_the_opponents_hand_differs():
    overlays = []
    for theirs in [("ROM-05",), ("STK-02",), ("CRD-01",)]:
        board = NagarajaBoard(confrontation(hands=(HAND, theirs)), bots={1: random_policy})
        board.show_analysis = True
        overlays.append(board.analysis)
    assert overlays[0] == overlays[1] == overlays[2]


def test_the_overlay_is_quiet_when_the_bot_is_to_act():
    state = make_state(
        phase="CONFRONTATION", to_act=1, guide=1, hands=(HAND, ("ROM-05",)), held_sticks=STICKS, committed=((), ())
    )
    board = NagarajaBoard(Match(state), bots={1: random_policy})  # on a Match the bot waits for the press
    assert board.game_state.to_act == 1
    board.show_analysis = True
    assert board.analysis["rows"] == [] and "your own" in board.analysis["note"]
