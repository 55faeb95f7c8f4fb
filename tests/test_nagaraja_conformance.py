"""An independent conformance pass over the Nagaraja spec (sections 2.5-2.6, 3.4-3.6, 4, 5, 6, 7).

Each test builds a scripted position and checks one MUST of the spec that the other
test files do not pin down on their own. Test names start with the spec section.
"""

import json
from fractions import Fraction
from itertools import combinations

from gamelib import CHANCE
from gamelib.nagaraja import Rules, new_game
from gamelib.nagaraja.actions import (
    ACTION_TYPES,
    Cell,
    Commit,
    DiscardTile,
    Keep,
    Move,
    NoParams,
    Pass,
    PlaceTile,
    Rotate,
    Spot,
    SpotPair,
    Sticks,
    Swap,
    SwapChoice,
    UseAmulet,
    UseNaga,
)
from gamelib.nagaraja.bots import random_policy
from gamelib.nagaraja.chance import Task
from gamelib.nagaraja.position import check_invariants
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, TRAP, PlacedTile, neighbours
from nagaraja_support import ED, eight_room_temple, make_state, play_game, unchanged_after

# Cards by effect (spec 3.3: slots 01 02 09 11 = effect 1, 03 04 05 08 = effect 2, 06 07 10 12 = effect 3)
PLUS2, RETHROW2, DISCARD2 = "STK-01", "STK-03", "STK-06"
PEEK, SWAP, PEEK2_SWAP = "REL-01", "REL-03", "REL-06"
ROTATE, MOVE_SWAP, TRAP_CARD = "ROM-01", "ROM-03", "ROM-06"
DRAW2, OPP_DISCARD = "CRD-01", "CRD-03"


def passes(state, viewer=0):
    return [e for e in state.events(viewer) if " passes" in e]


# =========================================================================== 5.4 Confrontation turn order


def test_5_4_confrontation_starts_with_the_guide_and_alternates():
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=0,
        guide=1,
        committed=(None, ("STK-05",)),
        hands=(("STK-11", PLUS2), (DRAW2,)),
        explicit_chance=True,
    )
    state = state.apply(Commit(0, ("STK-11",)))  # the opponent commits second
    assert state.phase == "CONFRONTATION" and state.pass_streak == 0
    state = state.apply(((2, 0), (3, 0))).apply(((0, 1), (3, 0)))  # P1 (guide) BB: 2, 3; P0 WW: Naga, 3
    # the guide P1 has nothing to use and is passed for; the pass is logged as a pass (spec 5.4)
    assert passes(state) == ["P1 passes (nothing to use)."]
    assert state.to_act == 0 and state.pass_streak == 1
    state = state.apply(Pass(0))  # two passes one after the other: RESOLVE
    assert state.phase == "EXPLORATION" and state.to_act == 1  # 5 to 3 for the guide P1


def test_5_4_a_use_resets_pass_streak_and_gives_the_opponent_a_turn():
    state = make_state(hands=((PLUS2,), (DRAW2,)), held_sticks=([("W01", 0, 1), ("W02", 0, 1)], [("G01", 0, 1)]))
    state = state.apply(Pass(0))
    assert state.pass_streak == 1 and state.to_act == 1
    state = state.apply(UseNaga(1, "GREEN", DRAW2, NoParams()))
    assert state.pass_streak == 0 and state.to_act == 0  # P0 passed before, but the streak is broken
    assert state.phase == "CONFRONTATION"
    state = state.apply(Pass(0))  # P1 has no Naga left: passed automatically, streak reaches 2
    assert state.phase == "EXPLORATION" and passes(state)[-1] == "P1 passes (nothing to use)."


def test_5_4_use_amulet_resets_pass_streak_and_keeps_the_turn():
    state = make_state(hands=((PLUS2,), ()), amulets=((), ("A09",)), held_sticks=([("W01", 0, 1)], [("B01", 2, 0)]))
    state = state.apply(Pass(0))
    assert (state.to_act, state.pass_streak) == (1, 1)
    state = state.apply(UseAmulet(1, "A09", NoParams()))
    # the amulet reset the streak, then P1 (nothing left to use) is passed for: without the reset
    # that pass would have been the second in a row and ended the phase
    assert passes(state)[-1] == "P1 passes (nothing to use)." and state.events(0)[-2].startswith("P1 shows and uses")
    assert state.to_act == 0 and state.pass_streak == 1 and state.phase == "CONFRONTATION"


def test_5_4_a_lone_naga_holder_uses_them_on_consecutive_turns():
    state = make_state(
        hands=((PLUS2, "STK-02"), (DRAW2,)), held_sticks=([("W01", 0, 1), ("G01", 0, 1)], [("B01", 3, 0)])
    )
    state = state.apply(UseNaga(0, "WHITE", PLUS2, NoParams()))
    assert state.to_act == 0 and passes(state) == ["P1 passes (nothing to use)."]
    state = state.apply(UseNaga(0, "GREEN", "STK-02", NoParams()))
    # neither player has a non-pass action: the phase ends at once, with no further pass logged
    assert state.phase == "EXPLORATION" and len(passes(state)) == 1
    assert "Totals: P0 4, P1 3. P0 wins the room." in state.events(1)


def test_5_4_nobody_has_a_naga_so_the_step_is_skipped_without_passes():
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=1,
        guide=0,
        committed=(("STK-05",), None),
        hands=((PLUS2,), ("STK-07",)),
        explicit_chance=True,
    )
    state = state.apply(Commit(1, ("STK-07",)))
    state = state.apply(((3, 0), (3, 0))).apply(((4, 0),)).apply(((3, 0),))  # P0 BB 6; P1 B 4 + W 3
    assert state.phase == "EXPLORATION" and passes(state) == []
    assert state.to_act == 1  # 7 beats 6


def test_5_4_the_phase_ends_at_once_when_the_last_naga_is_used():
    state = make_state(hands=((PLUS2,), (DRAW2,)), held_sticks=([("W01", 0, 1)], [("B01", 3, 0)]))
    state = state.apply(UseNaga(0, "WHITE", PLUS2, NoParams()))
    assert state.phase == "EXPLORATION" and passes(state) == []


def test_5_4_a_naga_whose_cards_have_no_legal_target_is_passed_for():  # spec 5.9
    # the guide P0 keeps only ROTATE and no temple has a room tile; P1 keeps DRAW2
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=1,
        guide=0,
        committed=(("STK-11",), None),
        hands=((ROTATE,), ("CRD-11", DRAW2)),
        explicit_chance=True,
    )
    state = state.apply(Commit(1, ("CRD-11",)))
    state = state.apply(((0, 1), (3, 0))).apply(((0, 1), (2, 0)))  # both throw a Naga
    assert passes(state) == ["P0 passes (nothing to use)."]
    assert state.to_act == 1 and state.pass_streak == 1
    assert state.apply(Pass(1)).phase == "EXPLORATION"  # the second pass in a row: RESOLVE


# =========================================================================== 3.4 stick effects


def test_3_4_rethrow2_on_own_stick_can_give_a_new_usable_naga():
    state = make_state(
        hands=((RETHROW2, PLUS2), (DRAW2,)),
        held_sticks=([("W01", 0, 1), ("W02", 2, 0)], [("B02", 4, 0)]),
        explicit_chance=True,
    )
    state = state.apply(UseNaga(0, "WHITE", RETHROW2, Sticks(0, ("W02",))))
    assert state.current_player == CHANCE
    assert [o for o, _ in state.chance_outcomes()] == [((0, 1),), ((1, 0),), ((2, 0),), ((3, 0),)]
    state = state.apply(((0, 1),))  # the re-thrown stick shows a Naga
    assert passes(state) == ["P1 passes (nothing to use)."]
    assert state.to_act == 0 and UseNaga(0, "WHITE", PLUS2, NoParams()) in state.legal_actions()


def test_3_4_rethrow2_on_the_opponent_can_hand_them_a_naga():
    state = make_state(
        hands=((RETHROW2,), (PLUS2,)), held_sticks=([("W01", 0, 1)], [("W02", 3, 0)]), explicit_chance=True
    )
    state = state.apply(UseNaga(0, "WHITE", RETHROW2, Sticks(1, ("W02",)))).apply(((0, 1),))
    assert state.to_act == 1 and state.legal_actions() == [UseNaga(1, "WHITE", PLUS2, NoParams()), Pass(1)]
    assert state.total(1) == 0


def test_3_4_rethrow2_cannot_pick_the_naga_stick_it_was_paid_with():
    state = make_state(hands=((RETHROW2,), (DRAW2,)), held_sticks=([("W01", 0, 1)], []))
    assert [a for a in state.legal_actions() if isinstance(a, UseNaga)] == []


def test_3_4_discard2_of_a_naga_stick_removes_the_opponents_naga():
    state = make_state(hands=((DISCARD2,), (DRAW2,)), held_sticks=([("W01", 0, 1)], [("B01", 3, 0), ("G01", 0, 1)]))
    state = state.apply(UseNaga(0, "WHITE", DISCARD2, Sticks(1, ("B01", "G01"))))
    # n = 2 so both go; P1 lost its Naga and nobody can act: RESOLVE at once, 0 to 0, guide P0 wins
    assert state.phase == "EXPLORATION" and state.to_act == 0 and len(state.supply) == 36


# =========================================================================== 3.4 PEEK2_SWAP and spec 7


def test_3_4_peek2_swap_offers_only_swap_choice_and_am_peek_in_table_order():
    state = make_state(
        hands=((PEEK2_SWAP, PLUS2), (DRAW2,)),
        amulets=(("A09", "A12"), ()),
        held_sticks=([("W01", 0, 1), ("G01", 0, 1)], [("G02", 0, 1)]),
    )
    state = state.apply(UseNaga(0, "WHITE", PEEK2_SWAP, SpotPair(0, "LEFT_0", "RIGHT_0")))
    actions = state.legal_actions()
    peeks = [UseAmulet(0, "A12", Spot(s)) for s in RELIC_SPOTS]
    assert actions == peeks + [SwapChoice(0, False), SwapChoice(0, True)]  # no GREEN Naga, no A09, no Pass
    unchanged_after(state, UseNaga(0, "GREEN", PLUS2, NoParams()), "swap")
    unchanged_after(state, UseAmulet(0, "A09", NoParams()), "cannot be used now")
    state = state.apply(UseAmulet(0, "A12", Spot("TOP_0")))
    assert state.to_act == 0 and state.pending_swap is not None  # AM_PEEK keeps the decision with P0
    state = state.apply(SwapChoice(0, True))
    assert state.to_act == 1 and state.pass_streak == 0  # then the turn passes as usual


def test_7_which_spots_were_peeked_and_the_swap_choice_are_public_but_not_the_relics():
    state = make_state(hands=((PEEK2_SWAP,), (DRAW2,)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]))
    state = state.apply(UseNaga(0, "WHITE", PEEK2_SWAP, SpotPair(0, "LEFT_0", "RIGHT_0")))
    theirs = state.observation(1)
    assert theirs["pending_swap"] == {"temple": 0, "a": "LEFT_0", "b": "RIGHT_0"}
    assert "P0 peeks at LEFT_0 and RIGHT_0." in theirs["events"]
    assert theirs["players"][0]["temple"]["relics"]["LEFT_0"]["vp"] is None
    assert not any("cursed" in e or "sacred" in e for e in state.events(1))
    state = state.apply(SwapChoice(0, True))
    assert "P0 swaps the peeked relics." in state.events(1)
    # peek knowledge follows the tokens: S3a now at RIGHT_0, C6a now at LEFT_0 (spec 7)
    mine = state.observation(0)["players"][0]["temple"]["relics"]
    assert (mine["LEFT_0"]["vp"], mine["LEFT_0"]["cursed"]) == (6, True)
    assert (mine["RIGHT_0"]["vp"], mine["RIGHT_0"]["cursed"]) == (3, False)


def test_7_a_relic_seen_face_up_is_followed_through_a_public_swap_by_the_opponent():
    # P0's LEFT_2 (S4a) is face up, so P1 has seen it; P0's own SWAP moves it to a face-down spot
    state = make_state(
        hands=((SWAP,), (DRAW2,)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]), tiles=({(2, 0): ("R06", 2)}, {})
    )
    state = state.apply(UseNaga(0, "WHITE", SWAP, SpotPair(0, "LEFT_2", "TOP_0")))
    theirs = state.observation(1)["players"][0]["temple"]["relics"]
    assert theirs["TOP_0"] == {"face_up": False, "known": True, "vp": 4, "cursed": False}
    assert theirs["LEFT_2"]["face_up"] and theirs["LEFT_2"]["vp"] == 4  # S4b now up on LEFT_2


# =========================================================================== 3.4 room effects


def test_3_4_trap_lifts_the_trap_from_the_activators_own_temple():
    state = make_state(hands=((TRAP_CARD,), ()), held_sticks=([("W01", 0, 1)], []), tiles=({(2, 1): TRAP}, {}))
    state = state.apply(UseNaga(0, "WHITE", TRAP_CARD, Cell((1, 1))))
    assert state.players[0].temple.trap_cell is None and state.players[1].temple.trap_cell == (1, 1)


def test_3_4_trap_moves_the_trap_within_the_opponents_temple_and_sends_the_room_last():
    state = make_state(
        hands=((TRAP_CARD,), ()),
        held_sticks=([("W01", 0, 1)], []),
        tiles=({}, {(2, 0): TRAP, (2, 2): ("R02", 0), (1, 2): ("R06", 1)}),
        explicit_chance=True,
    )
    assert state.score(1) == 6  # RIGHT_1 (C6b) face up
    state = state.apply(UseNaga(0, "WHITE", TRAP_CARD, Cell((2, 2))))
    temple = state.players[1].temple
    assert temple.trap_cell == (2, 2) and temple.cell((2, 0)) is None
    assert state.score(1) == 0 and "P1's relic at RIGHT_1 turns face down." in state.events(0)  # spec 4.3
    assert state.room_bottom == ("R02",) and "R02" not in state.room_pile
    check_invariants(state)


def test_3_4_trap_on_a_tile_whose_amulet_was_collected_leaves_the_amulet_with_its_owner():  # spec 5.9
    state = make_state(phase="EXPLORATION", to_act=1, current_room="R16", room_amulet="A05", hands=((TRAP_CARD,), ()))
    state = state.apply(PlaceTile(1, (2, 0), 0))  # the chamber opens onto ENTRANCE_0: A05 collected
    assert state.players[1].amulets == ("A05",)
    trapping = make_state(
        hands=((TRAP_CARD,), ()),
        held_sticks=([("W01", 0, 1)], []),
        amulets=((), ("A05",)),
        tiles=({}, {(2, 0): ("R16", 0)}),
    )
    after = trapping.apply(UseNaga(0, "WHITE", TRAP_CARD, Cell((2, 0))))
    assert after.players[1].amulets == ("A05",) and after.score(1) == 2 and "A05" not in after.out_of_game


def test_3_4_a_trapped_room_comes_back_only_after_the_pile():
    state = make_state(
        phase="NEW_DEAL",
        current_room=None,
        room_pile=("R03",),
        room_bottom=("R04",),
        explicit_chance=True,
        queue=(Task("ROOM"),),
    )
    assert state.chance_outcomes() == [("R03", Fraction(1))]


def test_3_4_move_destinations_match_a_brute_force_reading_of_the_rule():
    layouts = [
        {(2, 1): ("R01", 0), (1, 1): ("R03", 1)},
        {(2, 0): ("R02", 0), (1, 0): ("R03", 0), (0, 0): ("R04", 0)},
        {(2, 2): TRAP, (1, 2): ("R05", 0), (1, 1): ("R06", 0), (0, 1): ("R07", 0)},
    ]
    for layout in layouts:
        state = make_state(hands=((MOVE_SWAP,), ()), held_sticks=([("W01", 0, 1)], []), tiles=({}, layout))
        offered = {
            (a.params.origin, a.params.destination)
            for a in state.legal_actions()
            if isinstance(a, UseNaga) and isinstance(a.params, Move)
        }
        expected = set()
        for origin in layout:
            rest = set(layout) - {origin}
            for cell in CELLS:
                if cell not in rest and cell != origin and (cell[0] == 2 or any(n in rest for n in neighbours(cell))):
                    expected.add((origin, cell))
        assert offered == expected, layout
        swaps = {
            (a.params.a, a.params.b)
            for a in state.legal_actions()
            if isinstance(a, UseNaga) and isinstance(a.params, Swap)
        }
        assert swaps == set(combinations(sorted(layout), 2))


def test_3_4_a_moved_tile_carries_its_rotation_and_amulet_and_the_owner_collects_it():  # spec 4.3
    # R14 (two corners) at (1,1), rotation 1: segment 0 {E,S} carries A06, nothing below it
    state = make_state(
        hands=((MOVE_SWAP,), ()),
        held_sticks=([("W01", 0, 1)], []),
        tiles=({}, {(2, 0): ("R02", 1), (1, 1): ("R14", 1, "A06")}),
    )
    assert state.players[1].amulets == ()
    moved = state.apply(UseNaga(0, "WHITE", MOVE_SWAP, Move(1, (1, 1), (2, 1))))
    # at (2,1) segment 0 opens S onto ENTRANCE_1: the temple's owner P1 collects the amulet
    assert moved.players[1].temple.cell((2, 1)) == PlacedTile("R14", 1, None)
    assert moved.players[1].amulets == ("A06",) and moved.score(1) == 2
    assert moved.players[0].amulets == ()


def test_3_4_rotate_can_reveal_and_hide_then_reveal_again():  # spec 4.3, 5.9: scores stop and resume
    state = make_state(
        hands=((ROTATE, "ROM-02"), (DRAW2,)),
        held_sticks=([("W01", 0, 1), ("W02", 0, 1)], [("G01", 0, 1)]),
        tiles=({(2, 0): ("R06", 2)}, {}),
    )
    assert state.score(0) == 4
    state = state.apply(UseNaga(0, "WHITE", ROTATE, Rotate(0, (2, 0), 1)))  # {N,W}: LEFT_2 down
    assert state.score(0) == 0
    state = state.apply(Pass(1)).apply(UseNaga(0, "WHITE", "ROM-02", Rotate(0, (2, 0), 3)))  # back to {S,W}
    assert state.score(0) == 4 and "P0's relic at LEFT_2 is face up: sacred 4." in state.events(1)


# =========================================================================== 5.8 end conditions


def test_5_8_both_players_cursed_the_acting_player_loses():
    # P0 already shows its 3 cursed relics (scripted: play would have ended); P1 turns up its third
    p0 = {(2, 2): ("R12", 0), (1, 2): ("R13", 0), (0, 2): ("R05", 1)}
    p1 = {(2, 2): ("R08", 1), (1, 2): ("R09", 1)}  # {N,E,S}: RIGHT_2 and RIGHT_1 face up
    state = make_state(phase="EXPLORATION", to_act=1, current_room="R06", tiles=(p0, p1))
    assert (state.score(0), state.score(1)) == (18, 12)
    final = state.apply(PlaceTile(1, (0, 2), 1))  # {E,S}: P1's RIGHT_0 joins too
    assert final.result.reason == "CURSED_LOSS" and final.winner == 0  # the acting player P1 loses


def test_5_8_both_players_at_25_the_acting_player_wins():
    # P0 already has 25 (scripted); P1 reaches 25 with its placement
    p0 = {(2, 0): ("R12", 0), (1, 0): ("R13", 0), (0, 0): ("R10", 3)}  # LEFT_0..2 and TOP_0 face up
    p0_relics = {
        "LEFT_0": "C6a",
        "LEFT_1": "C6b",
        "LEFT_2": "S5a",
        "TOP_0": "S5b",
        "TOP_1": "S3a",
        "TOP_2": "S3b",
        "RIGHT_0": "S4a",
        "RIGHT_1": "S4b",
        "RIGHT_2": "C6c",
    }
    p1 = {(2, 0): ("R08", 3), (1, 0): ("R11", 3)}  # {N,S,W}: LEFT_2 and LEFT_1 face up
    p1_relics = {
        "LEFT_0": "S5b",
        "LEFT_1": "S5a",
        "LEFT_2": "C6a",
        "TOP_0": "S3a",
        "TOP_1": "S3b",
        "TOP_2": "S4a",
        "RIGHT_0": "S4b",
        "RIGHT_1": "C6b",
        "RIGHT_2": "C6c",
    }
    state = make_state(
        phase="EXPLORATION",
        to_act=1,
        current_room="R09",
        tiles=(p0, p1),
        relics=(p0_relics, p1_relics),
        amulets=(("A01", "A02", "A03"), ("A04", "A05", "A06", "A07", "A08")),
    )
    assert (state.score(0), state.score(1)) == (25, 20)
    final = state.apply(PlaceTile(1, (0, 0), 2))  # {E,S,W}: LEFT_0 (5) joins
    assert final.result == (1, "REACHED_25", (25, 25))


def test_5_8_rule_2_is_checked_before_rule_3():
    layout = {
        (2, 0): ("R08", 3),
        (2, 1): ("R02", 1),
        (2, 2): ("R03", 1),
        (1, 0): ("R11", 3),
        (1, 1): ("R04", 0),
        (1, 2): ("R05", 0),
        (0, 1): ("R06", 0),
        (0, 2): ("R07", 0),
    }  # LEFT_2, LEFT_1 face up
    relics = {
        "LEFT_0": "S5b",
        "LEFT_1": "S5a",
        "LEFT_2": "C6a",
        "TOP_0": "S3a",
        "TOP_1": "S3b",
        "TOP_2": "S4a",
        "RIGHT_0": "S4b",
        "RIGHT_1": "C6b",
        "RIGHT_2": "C6c",
    }
    state = make_state(
        phase="EXPLORATION",
        to_act=0,
        current_room="R09",
        tiles=(layout, {}),
        relics=(relics, None),
        amulets=(("A02", "A03", "A04", "A05", "A06", "A07"), ()),
    )
    assert state.score(0) == 20
    final = state.apply(PlaceTile(0, (0, 0), 2))  # the ninth room, and LEFT_0 joins: 25
    assert final.result == (0, "REACHED_25", (25, 0))


def test_5_8_rule_3_is_checked_before_rule_4():
    ids = {
        (2, 0): "R07",
        (2, 1): "R08",
        (2, 2): "R10",
        (1, 0): "R01",
        (1, 1): "R02",
        (1, 2): "R03",
        (0, 1): "R04",
        (0, 2): "R05",
    }
    state = make_state(
        phase="EXPLORATION",
        to_act=1,
        current_room="R11",
        room_pile=(),
        tiles=({}, {cell: (tile, 0) for cell, tile in ids.items()}),
        amulets=(("A01",), ()),
    )
    final = state.apply(PlaceTile(1, (0, 0), 0))  # the last room is also P1's ninth
    assert final.result == (0, "NINTH_TILE", (1, 0))  # higher score wins, not the placer


def test_5_8_rooms_exhausted_higher_score_wins_even_against_the_last_room_winner():
    state = make_state(phase="EXPLORATION", to_act=1, current_room="R02", room_pile=(), amulets=(("A01",), ()))
    final = state.apply(PlaceTile(1, (2, 1), 1))
    assert final.result == (0, "ROOMS_EXHAUSTED", (1, 0))


def test_5_8_rooms_exhausted_after_a_discarded_room_tie_goes_to_its_winner():
    layout = {**eight_room_temple(), (0, 0): TRAP}  # full, nothing connected
    state = make_state(phase="EXPLORATION", to_act=1, tiles=({}, layout), current_room="R12", room_pile=())
    final = state.apply(DiscardTile(1))
    assert final.result == (1, "ROOMS_EXHAUSTED", (0, 0))


def test_5_8_a_trapped_room_waiting_under_the_pile_keeps_the_game_going():
    state = make_state(phase="EXPLORATION", to_act=1, current_room="R02", room_pile=(), room_bottom=("R04",))
    after = state.apply(PlaceTile(1, (2, 1), 1))
    assert not after.is_terminal and after.phase == "NEW_DEAL"
    assert after.guide == 0  # the loser of the room becomes guide (spec 5.7)
    after = after.apply(after.legal_actions()[-1])
    assert after.phase == "CALL_OF_FATE" and after.current_room == "R04" and after.room_bottom == ()


# =========================================================================== 5.7 NEW_DEAL


def _after_a_room(draw_pile, discard=()):
    """P0 places the room it won; every card not in the piles sits in P1's hand."""
    in_piles = set(draw_pile) | set(discard)
    rest = tuple(c for c in sorted(ED.cards) if c not in in_piles)
    state = make_state(
        phase="EXPLORATION",
        to_act=0,
        current_room="R02",
        hands=((), rest),
        draw_pile=list(draw_pile),
        discard=tuple(discard),
    )
    return state.apply(PlaceTile(0, (2, 1), 1))


def test_5_7_new_deal_with_two_cards_keeps_both_and_gives_nothing():
    state = _after_a_room(["STK-01", "STK-02"])
    assert state.phase == "NEW_DEAL" and state.guide == 1 and state.to_act == 1
    assert state.legal_actions() == [Keep(1, ("STK-01", "STK-02"))]
    after = state.apply(Keep(1, ("STK-01", "STK-02")))
    assert after.players[0].hand == () and "P1 keeps 2 card(s) and gives nothing to P0." in after.events(0)


def test_5_7_new_deal_with_one_card_keeps_it():
    state = _after_a_room(["STK-01"])
    assert state.legal_actions() == [Keep(1, ("STK-01",))]
    unchanged_after(state, Keep(1, ()), "keep exactly 1")


def test_5_7_new_deal_with_no_card_goes_straight_on():
    state = _after_a_room([])
    assert state.phase == "CALL_OF_FATE" and state.to_act == 1 and "P1 drew no card to share." in state.events(0)


def test_5_7_new_deal_reshuffles_the_discard_pile_when_the_draw_pile_runs_out():
    state = _after_a_room(["STK-01"], discard=("STK-02", "STK-03"))
    assert sorted(state.deal) == ["STK-01", "STK-02", "STK-03"] and state.discard_pile == ()
    assert any("shuffled into a new draw pile" in e for e in state.events(0))
    check_invariants(state)


def test_5_7_the_given_card_is_known_to_both_the_kept_ones_only_to_the_guide():  # spec 7
    state = _after_a_room(["STK-01", "STK-02", "STK-03"])
    after = state.apply(Keep(1, ("STK-01", "STK-03")))
    assert after.players[0].hand == ("STK-02",)
    for viewer in (0, 1):
        assert [c["id"] for c in after.observation(viewer)["players"][0]["known_hand"]] == ["STK-02"]
    assert state.observation(0)["deal"] is None and len(state.observation(1)["deal"]) == 3
    text = json.dumps({k: v for k, v in after.observation(0).items() if k != "events"})
    assert '"STK-01"' not in text and '"STK-03"' not in text


# =========================================================================== 5.2, 5.3, 5.5


def test_5_2_first_guide_is_picked_uniformly_after_the_tie_limit():
    state = new_game(seed=1, explicit_chance=True, rules=Rules(max_first_guide_ties=1))
    while state.queue[0].kind == "RELIC":
        state = state.apply(state.chance_outcomes()[0][0])
    state = state.apply(((3, 0), (3, 0))).apply(((2, 0), (4, 0)))  # 6 to 6: a tie
    assert state.queue[0].kind == "GUIDE_PICK" and state.chance_outcomes() == [(0, Fraction(1, 2)), (1, Fraction(1, 2))]
    assert state.apply(1).guide == 1


def test_5_3_an_empty_handed_guide_commits_nothing_but_the_opponent_must_commit():
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=0,
        guide=0,
        committed=(None, None),
        hands=((), (PLUS2, DRAW2)),
        explicit_chance=True,
    )
    assert state.legal_actions() == [Commit(0, ())]
    state = state.apply(Commit(0, ()))
    assert state.observation(1)["players"][0]["committed_count"] == 0 and state.players[0].committed == ()
    assert Commit(1, ()) not in state.legal_actions()
    unchanged_after(state, Commit(1, ()), "at least one card")
    state = state.apply(Commit(1, (DRAW2,)))
    assert state.players[0].sticks == () and len(state.players[1].sticks) == 3


def test_5_3_short_supply_of_white_the_guide_is_served_first():
    guide = ("STK-01", "STK-02", "STK-03", "STK-06", "STK-07", "STK-08", "STK-11")  # 11 white sticks
    state = make_state(
        phase="CALL_OF_FATE", to_act=1, guide=0, committed=(guide, None), hands=((), ("REL-03",)), explicit_chance=True
    )
    state = state.apply(Commit(1, ("REL-03",)))  # wants WWW: one white is left
    assert sum(s.colour == "WHITE" for s in state.players[0].sticks) == 11
    assert [s.colour for s in state.players[1].sticks] == ["WHITE"]
    check_invariants(state)


def test_5_5_resolve_discards_committed_and_activated_cards_and_returns_all_sticks():
    state = make_state(
        hands=((PLUS2,), ()),
        committed=(("STK-05",), ("STK-11",)),
        held_sticks=([("B01", 2, 0), ("B02", 2, 0), ("W03", 0, 1)], [("W01", 3, 0), ("W02", 2, 0)]),
    )
    state = state.apply(UseNaga(0, "WHITE", PLUS2, NoParams()))
    # 4 + 2 = 6 against 5: P0 wins; every stick is back, every played card in the discard pile
    assert state.phase == "EXPLORATION" and state.to_act == 0
    assert len(state.supply) == 36 and all(p.sticks == () and p.modifier == 0 for p in state.players)
    assert {"STK-05", "STK-11", PLUS2} <= set(state.discard_pile)


# =========================================================================== 3.6 amulets


def test_3_6_am_rethrow1_can_give_a_naga_used_in_the_same_turn():
    state = make_state(
        hands=((PLUS2,), (DRAW2,)),
        amulets=(("A10",), ()),
        held_sticks=([("W01", 2, 0)], [("G01", 0, 1)]),
        explicit_chance=True,
    )
    assert [type(a) for a in state.legal_actions()] == [UseAmulet, Pass]
    state = state.apply(UseAmulet(0, "A10", Sticks(0, ("W01",)))).apply(((0, 1),))
    assert state.to_act == 0 and state.legal_actions()[0] == UseNaga(0, "WHITE", PLUS2, NoParams())


def test_3_6_am_peek_is_offered_at_every_decision_of_its_owner_and_only_then():
    holder = dict(amulets=(("A12",), ()))
    positions = [
        make_state(phase="CALL_OF_FATE", to_act=0, committed=(None, None), hands=((PLUS2,), (DRAW2,)), **holder),
        make_state(phase="CALL_OF_FATE", to_act=0, guide=1, committed=(None, (DRAW2,)), hands=((PLUS2,), ()), **holder),
        make_state(hands=((), ()), held_sticks=([("B01", 2, 0)], []), **holder),
        make_state(phase="EXPLORATION", to_act=0, current_room="R02", **holder),
        make_state(
            phase="NEW_DEAL", to_act=0, guide=0, current_room=None, deal=("STK-01", "STK-02", "STK-03"), **holder
        ),
    ]
    for state in positions:
        peeks = [a for a in state.legal_actions() if isinstance(a, UseAmulet)]
        assert peeks == [UseAmulet(0, "A12", Spot(s)) for s in RELIC_SPOTS], state.phase
    elsewhere = make_state(phase="EXPLORATION", to_act=1, current_room="R02", **holder)
    assert not any(isinstance(a, UseAmulet) for a in elsewhere.legal_actions())


def test_3_6_am_naga_is_spent_through_use_naga_without_a_stick():
    state = make_state(hands=((PLUS2,), ()), amulets=(("A11",), ()), held_sticks=([("B01", 2, 0)], [("B02", 3, 0)]))
    state = state.apply(UseAmulet(0, "A11", NoParams()))
    state = state.apply(UseNaga(0, "VIRTUAL", PLUS2, NoParams()))
    # the brown stick stays and counts: 2 + 2 = 4 beats 3
    assert state.phase == "EXPLORATION" and state.to_act == 0


def test_3_6_vp_amulets_count_at_once_and_toward_25():
    state = make_state(phase="EXPLORATION", to_act=0, current_room="R16", room_amulet="A06")
    assert state.score(0) == 0
    state = state.apply(PlaceTile(0, (2, 0), 0))
    assert state.score(0) == 2
    assert state.observation(0)["players"][0]["score"] == 2
    assert state.observation(1)["players"][0]["score"] is None  # spec 7: the opponent sees VP of relics only
    assert state.observation(1)["players"][0]["visible_score"] == 0
    assert state.observation(1)["players"][0]["amulet_count"] == 1


# =========================================================================== 3.4 card effects


def test_3_4_opp_discard_is_public():  # spec 7: an OPP_DISCARD card is public
    state = make_state(
        hands=((OPP_DISCARD,), ("REL-01", "ROM-01")), held_sticks=([("W01", 0, 1)], []), explicit_chance=True
    )
    state = state.apply(UseNaga(0, "WHITE", OPP_DISCARD, NoParams())).apply("REL-01")
    for viewer in (0, 1):
        assert "P1 discards REL-01 [BBW | PEEK] face up." in state.events(viewer)
        assert "REL-01" in state.observation(viewer)["discard_pile"]


def test_3_4_draw2_is_private_to_the_drawer():
    state = make_state(hands=((DRAW2,), ()), held_sticks=([("W01", 0, 1)], []), draw_pile=["STK-01", "STK-02"])
    state = state.apply(UseNaga(0, "WHITE", DRAW2, NoParams()))
    assert state.players[0].hand == ("STK-01", "STK-02")
    assert state.events(1).count("P0 draws a card.") == 2
    assert not any("STK-01" in e or "STK-02" in e for e in state.events(1))
    assert state.observation(1)["players"][0]["hand_size"] == 2 and state.observation(1)["players"][0]["hand"] is None


# =========================================================================== 6 actions


def _order_key(action):
    return ACTION_TYPES.index(type(action))


def test_6_legal_actions_come_by_type_in_table_order_then_by_parameters():
    checked = set()

    def check(state):
        actions = state.legal_actions()
        assert len(actions) == len(set(actions)), "an action is listed twice"
        assert [_order_key(a) for a in actions] == sorted(_order_key(a) for a in actions)
        assert actions == state.legal_actions()
        for kind, key in (
            (PlaceTile, lambda a: (a.cell, a.rotation)),
            (Keep, lambda a: a.cards),
            (Commit, lambda a: a.cards),
            (SwapChoice, lambda a: a.swap),
            (UseAmulet, lambda a: a.amulet),
        ):
            same = [key(a) for a in actions if isinstance(a, kind)]
            assert same == sorted(same), kind.__name__
        nagas = [a for a in actions if isinstance(a, UseNaga)]
        sources = ["BROWN", "WHITE", "GREEN", "VIRTUAL"]
        assert [(sources.index(a.source), a.card) for a in nagas] == sorted(
            (sources.index(a.source), a.card) for a in nagas
        )
        checked.update(type(a).__name__ for a in actions)

    for seed in range(40):
        play_game((random_policy, random_policy), seed, on_state=check)
    assert {"Commit", "UseNaga", "Pass", "PlaceTile", "Keep"} <= checked


def test_6_place_tile_lists_all_four_rotations_even_for_a_cross():
    state = make_state(phase="EXPLORATION", to_act=0, current_room="R13")
    assert state.legal_actions() == [PlaceTile(0, cell, k) for cell in [(2, 0), (2, 1), (2, 2)] for k in range(4)]


def test_6_use_naga_sources_name_a_colour_and_the_lowest_id_stick_is_spent():
    state = make_state(
        hands=((PLUS2,), (DRAW2,)), held_sticks=([("W03", 0, 1), ("W01", 0, 1), ("G02", 0, 1)], [("G03", 0, 1)])
    )
    nagas = [a for a in state.legal_actions() if isinstance(a, UseNaga)]
    assert nagas == [UseNaga(0, "WHITE", PLUS2, NoParams()), UseNaga(0, "GREEN", PLUS2, NoParams())]
    after = state.apply(nagas[0])
    assert after.phase == "CONFRONTATION" and after.to_act == 1
    assert [s.id for s in after.players[0].sticks] == ["W03", "G02"] and "W01" in after.supply


# =========================================================================== 7 observations


def test_7_observation_table():
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=1,
        guide=0,
        committed=((PLUS2, "STK-02"), None),
        hands=(("REL-01",), (DRAW2,)),
        amulets=(("A05", "A12"), ()),
        tiles=({(2, 0): ("R06", 2), (2, 1): ("R14", 1, "A07")}, {}),
        current_room="R04",
        room_amulet="A03",
    )
    mine, theirs = state.observation(0), state.observation(1)
    me_seen_by_them = theirs["players"][0]
    # own hand: all cards / the opponent: its size
    assert [c["id"] for c in mine["players"][0]["hand"]] == ["REL-01"]
    assert me_seen_by_them["hand"] is None and me_seen_by_them["hand_size"] == 1
    # committed cards before the reveal: the cards / their count
    assert [c["id"] for c in mine["players"][0]["committed"]] == [PLUS2, "STK-02"]
    assert me_seen_by_them["committed"] is None and me_seen_by_them["committed_count"] == 2
    # face-down relics: nothing; face-up relics: everything (LEFT_2 = S4a)
    for obs in (mine, theirs):
        relics = obs["players"][0]["temple"]["relics"]
        assert relics["LEFT_2"] == {"face_up": True, "known": True, "vp": 4, "cursed": False}
        assert all(relics[s]["vp"] is None for s in RELIC_SPOTS if s != "LEFT_2")
    # amulets on uncollected tiles and the amulet pile: nothing (not even for the temple's owner)
    for obs in (mine, theirs):
        text = json.dumps({k: v for k, v in obs.items() if k != "events"})
        for hidden in ["A03", "A07"] + list(state.amulet_pile):
            assert f'"{hidden}"' not in text
    # own collected amulets: kinds and values / their count
    assert [a["id"] for a in mine["players"][0]["amulets"]] == ["A05", "A12"]
    assert me_seen_by_them["amulets"] is None and me_seen_by_them["amulet_count"] == 2
    # draw pile, room pile: sizes; scores: own exactly, the opponent's face-up relic VP
    assert theirs["draw_pile"] == len(state.draw_pile) and theirs["room_pile"] == len(state.room_pile)
    assert mine["players"][0]["score"] == 6 and me_seen_by_them["score"] is None
    assert me_seen_by_them["visible_score"] == 4


def test_7_stick_faces_and_totals_are_public():
    state = make_state(hands=((PLUS2,), (DRAW2,)), held_sticks=([("B01", 3, 0), ("W01", 0, 1)], [("G01", 1, 0)]))
    for viewer in (0, 1):
        sticks = state.observation(viewer)["players"][0]["sticks"]
        assert [(s["id"], s["points"], s["naga"]) for s in sticks] == [("B01", 3, False), ("W01", 0, True)]
