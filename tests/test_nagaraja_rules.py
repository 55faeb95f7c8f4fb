"""The Nagaraja round (spec 5): every effect (3.4) and amulet (3.6) in a scripted position,
their preconditions, the end conditions in order (5.8), the edge cases (5.9), chance, saves."""

import json
from fractions import Fraction

import pytest

from gamelib import CHANCE, CorruptSave, IllegalMove
from gamelib.nagaraja import sticks
from gamelib.nagaraja.edition import load_edition
from gamelib.nagaraja import Rules, State, new_game
from gamelib.nagaraja.actions import (
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
from gamelib.nagaraja.chance import Task
from gamelib.nagaraja.temple import RELIC_SPOTS, TRAP, PlacedTile
from nagaraja_support import DEFAULT_RELICS, ED, eight_room_temple, make_state, unchanged_after

# =========================================================================== the rules-text example


def test_rules_text_example_elodie_beats_marion():  # spec 2.7 / 9.4: 5 vs 11, DISCARD2 leaves 4
    state = make_state(
        guide=0,
        to_act=0,
        hands=(("STK-12",), ("CRD-01",)),
        committed=(("STK-03",), ("STK-02", "STK-05")),
        held_sticks=(
            [("W01", 0, 1), ("W02", 2, 0), ("W03", 3, 0)],
            [("B01", 3, 0), ("B02", 4, 0), ("B03", 3, 0), ("W04", 1, 0), ("G01", 0, 1)],
        ),
    )
    assert (state.total(0), state.total(1)) == (5, 11)
    discard = UseNaga(0, "WHITE", "STK-12", Sticks(1, ("B01", "B02")))  # the 3 and the 4
    assert discard in state.legal_actions()
    state = state.apply(discard)
    assert state.total(1) == 4 and state.to_act == 1
    state = state.apply(Pass(1))  # Marion keeps her Naga; Elodie has none left: the step ends
    assert state.phase == "EXPLORATION" and state.to_act == 0  # Elodie wins 5 to 4
    assert state.room_winner == 0 and "STK-12" in state.discard_pile and len(state.supply) == 36


# =========================================================================== stick effects


def test_plus2_and_automatic_end_of_confrontation():  # spec 3.4 PLUS2, 5.4
    state = make_state(hands=(("STK-01",), ()), held_sticks=([("B01", 3, 0), ("W01", 0, 1)], [("B02", 4, 0)]))
    state = state.apply(UseNaga(0, "WHITE", "STK-01", NoParams()))
    # P1 has nothing to use, P0 has no Naga left: Confrontation ends at once, 5 beats 4
    assert state.phase == "EXPLORATION" and state.to_act == 0
    assert state.players[0].modifier == 0 and state.discard_pile[-1] == "STK-01"


def test_rethrow2_is_an_exact_chance_node():  # spec 3.4 RETHROW2, 9.2 (2 brown)
    state = make_state(
        hands=(("STK-03",), ("CRD-01",)),
        held_sticks=([("B01", 2, 0), ("W01", 0, 1)], [("B02", 4, 0), ("B03", 4, 0), ("G01", 0, 1)]),
        explicit_chance=True,
    )
    options = [a.params for a in state.legal_actions() if isinstance(a, UseNaga)]
    assert Sticks(1, ("B02", "B03")) in options and Sticks(0, ("B01",)) in options
    assert Sticks(1, ("B03",)) not in options  # same colour and face as B02: canonical lowest id only
    state = state.apply(UseNaga(0, "WHITE", "STK-03", Sticks(1, ("B02", "B03"))))
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    by_points = {}
    for faces, p in outcomes:
        by_points[sum(f[0] for f in faces)] = by_points.get(sum(f[0] for f in faces), 0) + p
    assert by_points == {
        4: Fraction(1, 16),
        5: Fraction(1, 4),
        6: Fraction(3, 8),
        7: Fraction(1, 4),
        8: Fraction(1, 16),
    }
    state = state.apply(((2, 0), (3, 0)))
    assert state.total(1) == 5 and state.current_player == 1


def test_discard2_takes_min_2_n_and_needs_a_stick():  # spec 3.4 DISCARD2
    three = make_state(
        hands=(("STK-06",), ()), held_sticks=([("W01", 0, 1)], [("B02", 4, 0), ("W02", 2, 0), ("G01", 1, 0)])
    )
    params = [a.params for a in three.legal_actions() if isinstance(a, UseNaga)]
    assert sorted(p.stick_ids for p in params) == [("B02", "G01"), ("B02", "W02"), ("W02", "G01")]
    one = make_state(hands=(("STK-06",), ()), held_sticks=([("W01", 0, 1)], [("B02", 4, 0)]))
    assert [a.params for a in one.legal_actions() if isinstance(a, UseNaga)] == [Sticks(1, ("B02",))]
    none = make_state(hands=(("STK-06",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], []))
    assert not any(isinstance(a, UseNaga) for a in none.legal_actions())
    unchanged_after(none, UseNaga(0, "WHITE", "STK-06", Sticks(1, ())), "opponent has no stick")


# =========================================================================== relic effects


def test_peek_is_private():  # spec 3.4 PEEK, spec 7
    state = make_state(hands=(("REL-01",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]))
    state = state.apply(UseNaga(0, "WHITE", "REL-01", Spot("RIGHT_0")))
    mine = state.observation(0)["players"][0]["temple"]["relics"]["RIGHT_0"]
    theirs = state.observation(1)["players"][0]["temple"]["relics"]["RIGHT_0"]
    assert mine == {"face_up": False, "known": True, "vp": 6, "cursed": True}
    assert theirs["vp"] is None and theirs["cursed"] is None
    assert "P0 peeks at RIGHT_0." in state.events(1)
    assert not any("cursed" in e for e in state.events(1))


def test_swap_recomputes_faces_and_knowledge_follows_the_token():  # spec 3.4 SWAP, 4.3, 7
    state = make_state(
        hands=(("REL-03",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({}, {(2, 0): ("R06", 2)}),
    )  # P1's LEFT_2 (S4a, 4 VP) is face up
    assert state.score(1) == 4
    state = state.apply(UseNaga(0, "WHITE", "REL-03", SpotPair(1, "LEFT_2", "RIGHT_0")))
    assert state.score(1) == 6  # the cursed C6a now sits on the connected spot
    for viewer in (0, 1):  # both saw S4a face up; they still know it, now at RIGHT_0
        assert state.observation(viewer)["players"][1]["temple"]["relics"]["RIGHT_0"]["vp"] == 4


def test_peek2_swap_then_swap_choice():  # spec 3.4 PEEK2_SWAP, 5.4
    state = make_state(
        hands=(("REL-06",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]), amulets=(("A12",), ())
    )
    state = state.apply(UseNaga(0, "WHITE", "REL-06", SpotPair(0, "LEFT_0", "RIGHT_0")))
    actions = state.legal_actions()
    assert {type(a) for a in actions} == {SwapChoice, UseAmulet}  # only the choice and AM_PEEK
    unchanged_after(state, Pass(0), "swap")
    state = state.apply(SwapChoice(0, True))
    assert state.players[0].temple.relic_at("LEFT_0") == "C6a" and state.to_act == 1
    assert "P0 swaps the peeked relics." in state.events(1)


def test_relic_effects_need_face_down_relics():  # spec 3.4 preconditions, 5.9
    crosses = load_edition(
        "A",
        tiles={
            "tiles": [
                {"id": f"R{i:02d}", "shape": "cross", "segments": ["NESW"], "special": None} for i in range(1, 17)
            ]
            + [{"id": "R17", "shape": "straight", "segments": ["NS"], "special": None}]
        },
    )
    full = {(r, c): (f"R{r * 3 + c + 1:02d}", 0) for r in range(3) for c in range(3)}
    one_down = dict(full)
    one_down[(0, 0)] = ("R17", 0)  # {N,S}: LEFT_0 stays face down
    state = make_state(
        hands=(("REL-01", "REL-06"), ()),
        held_sticks=([("W01", 0, 1)], []),
        tiles=(one_down, {}),
        relics=({**DEFAULT_RELICS, "LEFT_0": "C6a", "RIGHT_0": "S3a"}, None),
        current_room="R16",
        edition=crosses,
    )
    uses = [a for a in state.legal_actions() if isinstance(a, UseNaga)]
    assert [a.params for a in uses] == [Spot("LEFT_0")]  # PEEK yes, PEEK2_SWAP needs two face-down relics
    unchanged_after(state, UseNaga(0, "WHITE", "REL-06", SpotPair(0, "LEFT_0", "TOP_0")), "fewer than 2")


# =========================================================================== room effects


def test_rotate_breaks_the_opponents_path():  # spec 3.4 ROTATE, 9.5.6, 5.9 (a relic flips face down)
    state = make_state(
        hands=(("ROM-01",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({}, {(2, 2): ("R02", 0), (1, 2): ("R06", 1)}),
    )
    assert state.score(1) == 6  # RIGHT_1 holds C6b
    state = state.apply(UseNaga(0, "WHITE", "ROM-01", Rotate(1, (2, 2), 1)))
    assert state.score(1) == 0 and "P1's relic at RIGHT_1 turns face down." in state.events(0)


def test_an_effect_that_reveals_the_opponents_third_cursed_relic_makes_them_lose():  # spec 5.9, 5.8 rule 1
    layout = {(2, 2): ("R12", 0), (1, 2): ("R13", 0), (0, 2): ("R06", 0)}  # RIGHT_2 and RIGHT_1 up, RIGHT_0 down
    state = make_state(
        hands=(("ROM-01",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]), tiles=({}, layout)
    )
    assert state.score(1) == 12
    state = state.apply(UseNaga(0, "WHITE", "ROM-01", Rotate(1, (0, 2), 1)))  # {E,S}: RIGHT_0 joins
    assert state.is_terminal and state.result.reason == "CURSED_LOSS" and state.winner == 0
    assert state.result.scores == (0, 18)


def test_move_and_swap_rooms():  # spec 3.4 MOVE_SWAP
    state = make_state(
        hands=(("ROM-03",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({(2, 1): ("R01", 0, "A03"), (1, 1): ("R03", 1)}, {(2, 2): ("R02", 0), (1, 2): ("R06", 1)}),
    )
    options = [a.params for a in state.legal_actions() if isinstance(a, UseNaga)]
    assert Move(1, (2, 2), (2, 0)) in options and Swap(0, (1, 1), (2, 1)) in options
    assert Move(0, (1, 1), (0, 1)) not in options  # once (1,1) is lifted, (0,1) touches nothing
    moved = state.apply(UseNaga(0, "WHITE", "ROM-03", Move(1, (2, 2), (2, 0))))
    assert moved.score(1) == 0  # RIGHT_1 lost its path
    swapped = state.apply(UseNaga(0, "WHITE", "ROM-03", Swap(0, (1, 1), (2, 1))))
    assert swapped.players[0].temple.cell((1, 1)) == PlacedTile("R01", 0, "A03")  # the amulet travels


def test_trap_on_a_room_sends_it_under_the_pile_and_loses_its_amulet():  # spec 3.4 TRAP
    state = make_state(
        hands=(("ROM-06",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({(2, 0): TRAP}, {(2, 1): ("R04", 0, "A07")}),
    )
    options = [a.params for a in state.legal_actions() if isinstance(a, UseNaga)]
    assert len(options) == 9 and Cell((2, 1)) in options
    state = state.apply(UseNaga(0, "WHITE", "ROM-06", Cell((2, 1))))
    assert state.players[0].temple.trap_cell is None  # lifted from wherever it was
    assert state.players[1].temple.cell((2, 1)) == TRAP
    assert state.room_bottom == ("R04",) and "A07" in state.out_of_game
    empty_cell = make_state(hands=(("ROM-06",), ()), held_sticks=([("W01", 0, 1)], []), tiles=({}, {(2, 1): TRAP}))
    assert Cell((2, 1)) not in [a.params for a in empty_cell.legal_actions() if isinstance(a, UseNaga)]
    trapped = empty_cell.apply(UseNaga(0, "WHITE", "ROM-06", Cell((0, 0))))  # no adjacency needed
    assert trapped.players[1].temple.trap_cell == (0, 0)


def test_rooms_under_the_pile_come_back_in_order():  # spec 3.4 TRAP: bottom of the room pile
    state = make_state(
        phase="NEW_DEAL",
        current_room=None,
        room_pile=(),
        room_bottom=("R04", "R05"),
        explicit_chance=True,
        queue=(Task("ROOM"),),
    )
    assert state.chance_outcomes() == [("R04", Fraction(1))]


def test_trap_never_counts_as_the_ninth_room():  # spec 5.8 rule 3
    layout = {(r, c): (f"R0{r * 3 + c + 1}", 1) for r in range(3) for c in range(3) if (r, c) != (0, 0)}
    state = make_state(hands=(("ROM-06",), ()), held_sticks=([("W01", 0, 1)], []), tiles=({}, layout))
    state = state.apply(UseNaga(0, "WHITE", "ROM-06", Cell((0, 0))))
    assert state.players[1].temple.is_full and not state.is_terminal


# =========================================================================== card effects


def test_draw2_reshuffles_and_draws_what_it_can():  # spec 3.4 DRAW2, 5.7, 5.9
    others = [c for c in ED.cards if c not in ("CRD-01", "STK-01", "STK-02")]
    # park every other card in P1's hand so the piles are tiny
    state = make_state(
        hands=(("CRD-01",), tuple(others)), held_sticks=([("W01", 0, 1)], []), draw_pile=["STK-01"], discard=("STK-02",)
    )
    after = state.apply(UseNaga(0, "WHITE", "CRD-01", NoParams()))
    assert sorted(after.players[0].hand) == ["STK-01", "STK-02"]
    assert any("shuffled" in e for e in after.events(1))
    empty = make_state(
        hands=(("CRD-01",), tuple(others + ["STK-02"])), held_sticks=([("W01", 0, 1)], []), draw_pile=["STK-01"]
    )
    after = empty.apply(UseNaga(0, "WHITE", "CRD-01", NoParams()))
    assert after.players[0].hand == ("STK-01",) and any("cannot draw" in e for e in after.events(0))


def test_opp_discard_and_steal():  # spec 3.4 OPP_DISCARD, STEAL, spec 7
    base = dict(held_sticks=([("W01", 0, 1)], []), explicit_chance=True)
    state = make_state(hands=(("CRD-03",), ("REL-01", "ROM-01")), **base)
    state = state.apply(UseNaga(0, "WHITE", "CRD-03", NoParams()))
    assert state.chance_outcomes() == [("REL-01", Fraction(1, 2)), ("ROM-01", Fraction(1, 2))]
    state = state.apply("ROM-01")
    assert state.players[1].hand == ("REL-01",) and "ROM-01" in state.discard_pile
    steal = make_state(hands=(("CRD-06",), ("REL-01",)), **base).apply(UseNaga(0, "WHITE", "CRD-06", NoParams()))
    steal = steal.apply("REL-01")
    assert steal.players[0].hand == ("REL-01",)
    assert [c["id"] for c in steal.observation(1)["players"][0]["known_hand"]] == ["REL-01"]
    nobody = make_state(hands=(("CRD-03", "CRD-06"), ()), held_sticks=([("W01", 0, 1)], []))
    assert not any(isinstance(a, UseNaga) for a in nobody.legal_actions())
    unchanged_after(nobody, UseNaga(0, "WHITE", "CRD-06", NoParams()), "no card in hand")


# =========================================================================== amulets


def test_amulet_plus2_keeps_the_turn():  # spec 3.6 A09
    state = make_state(
        hands=(("STK-01",), ("CRD-01",)),
        amulets=(("A09",), ()),
        held_sticks=([("B01", 2, 0), ("W01", 0, 1)], [("B02", 3, 0), ("G01", 0, 1)]),
    )
    state = state.apply(UseAmulet(0, "A09", NoParams()))
    assert state.total(0) == 4 and state.to_act == 0 and "A09" in state.out_of_game
    assert "P0 shows and uses amulet A09 (AM_PLUS2)." in state.events(1)


def test_amulet_rethrow1():  # spec 3.6 A10
    state = make_state(
        held_sticks=([("B01", 2, 0), ("B02", 2, 0)], [("B03", 3, 0)]), amulets=(("A10",), ()), explicit_chance=True
    )
    uses = [a for a in state.legal_actions() if isinstance(a, UseAmulet)]
    assert [a.params for a in uses] == [Sticks(0, ("B01",))]  # the two 2s are interchangeable
    state = state.apply(uses[0])
    assert state.chance_outcomes() == [
        (((2, 0),), Fraction(1, 4)),
        (((3, 0),), Fraction(1, 2)),
        (((4, 0),), Fraction(1, 4)),
    ]
    assert "Totals: P0 6, P1 3. P0 wins the room." in state.apply(((4, 0),)).events(1)


def test_amulet_naga_is_a_virtual_naga_lost_at_resolve():  # spec 3.6 A11, 5.5
    state = make_state(
        hands=(("STK-01", "CRD-01"), ("CRD-02",)),
        held_sticks=([("B01", 2, 0)], [("B02", 3, 0)]),
        amulets=(("A11",), ()),
    )
    state = state.apply(UseAmulet(0, "A11", NoParams()))
    assert state.players[0].virtual_nagas == 1
    assert UseNaga(0, "VIRTUAL", "STK-01", NoParams()) in state.legal_actions()
    state = state.apply(Pass(0))  # P1 has nothing to use and passes automatically: the unused Naga is lost
    assert "P1 passes (nothing to use)." in state.events(0)
    assert state.phase == "EXPLORATION" and state.players[0].virtual_nagas == 0


def test_amulet_peek_any_decision_point_and_vp_amulets_cannot_be_used():  # spec 3.6 A12
    state = make_state(phase="EXPLORATION", to_act=0, amulets=(("A12", "A05"), ()), current_room="R02")
    peeks = [a for a in state.legal_actions() if isinstance(a, UseAmulet)]
    assert [a.params.spot for a in peeks] == list(RELIC_SPOTS)
    state2 = state.apply(UseAmulet(0, "A12", Spot("TOP_2")))
    assert state2.phase == "EXPLORATION" and state2.to_act == 0
    assert state2.observation(0)["players"][0]["temple"]["relics"]["TOP_2"]["vp"] == 5
    unchanged_after(state, UseAmulet(0, "A05", NoParams()), "VP amulet")
    plus = make_state(phase="EXPLORATION", to_act=0, amulets=(("A09",), ()), current_room="R02")
    unchanged_after(plus, UseAmulet(0, "A09", NoParams()), "Confrontation")


def test_collected_amulet_stays_collected_when_the_path_breaks():  # spec 5.9
    state = make_state(phase="EXPLORATION", to_act=0, current_room="R16", room_amulet="A05")
    state = state.apply(PlaceTile(0, (2, 0), 0))  # the chamber opens onto ENTRANCE_0
    assert "A05" in state.players[0].amulets and state.score(0) == 2
    temple = state.players[0].temple.rotate((2, 0), 1)
    assert temple.collect_amulets()[1] == [] and "A05" in state.players[0].amulets


# =========================================================================== end conditions in order


def _cursed_layout(third_spot_relic):
    relics = {
        "LEFT_0": "S3a",
        "LEFT_1": "C6c",
        "LEFT_2": "C6a",
        "TOP_0": "S4b",
        "TOP_1": "S5a",
        "TOP_2": "S5b",
        "RIGHT_0": "S4a",
        "RIGHT_1": "S3b",
        "RIGHT_2": "C6b",
    }
    if third_spot_relic != "C6c":
        relics["LEFT_1"], relics["TOP_1"] = third_spot_relic, "C6c"
    tiles = {(2, 0): ("R08", 3), (2, 2): ("R05", 1)}  # {N,S,W} reveals LEFT_2; {E,S} reveals RIGHT_2
    return make_state(
        phase="EXPLORATION",
        to_act=0,
        current_room="R06",
        tiles=(tiles, {}),
        relics=(relics, None),
        amulets=(("A05", "A06", "A07", "A08"), ()),
    )


def test_cursed_loss_beats_25():  # spec 5.8: rule 1 is checked before rule 2
    state = _cursed_layout("C6c")
    assert state.score(0) == 20
    final = state.apply(PlaceTile(0, (1, 0), 2))  # {S,W}: joins LEFT_1 to the entrance
    assert final.result.reason == "CURSED_LOSS" and final.winner == 1
    assert final.result.scores == (26, 0) and final.phase == "GAME_OVER"
    assert final.legal_actions() == []
    with pytest.raises(IllegalMove, match="over"):
        final.apply(Pass(1))


def test_reaching_25_wins():  # spec 5.8 rule 2
    final = _cursed_layout("S5a").apply(PlaceTile(0, (1, 0), 2))
    assert final.result == (0, "REACHED_25", (25, 0))


def test_ninth_tile_tie_goes_to_the_placer():  # spec 5.8 rule 3
    state = make_state(phase="EXPLORATION", to_act=1, tiles=({}, eight_room_temple()), current_room="R11")
    assert state.score(0) == state.score(1) == 0
    final = state.apply(PlaceTile(1, (0, 0), 0))
    assert final.result == (1, "NINTH_TILE", (0, 0))


def test_ninth_tile_higher_score_wins():  # spec 5.8 rule 3
    state = make_state(
        phase="EXPLORATION", to_act=1, tiles=({}, eight_room_temple()), current_room="R11", amulets=(("A01",), ())
    )
    assert state.apply(PlaceTile(1, (0, 0), 0)).result == (0, "NINTH_TILE", (1, 0))


def test_rooms_exhausted_tie_goes_to_the_last_room_winner():  # spec 5.8 rule 4
    state = make_state(phase="EXPLORATION", to_act=1, current_room="R02", room_pile=())
    final = state.apply(PlaceTile(1, (2, 1), 1))  # {E,W}: connects nothing, 0 to 0
    assert final.result == (1, "ROOMS_EXHAUSTED", (0, 0))


def test_full_temple_discards_the_room():  # spec 4.4, 5.9
    layout = {(r, c): (f"R0{r * 3 + c + 1}", 1) for r in range(3) for c in range(3) if (r, c) != (0, 0)}
    layout[(0, 0)] = TRAP
    state = make_state(phase="EXPLORATION", to_act=0, tiles=(layout, {}), current_room="R12", room_amulet="A02")
    assert state.legal_actions() == [DiscardTile(0)]
    unchanged_after(state, PlaceTile(0, (0, 0), 0), "full")
    after = state.apply(DiscardTile(0))
    assert "R12" in after.out_of_game and "A02" in after.out_of_game and after.phase == "NEW_DEAL"


# =========================================================================== the round's edge cases


def test_empty_hands_commit_nothing_and_the_guide_wins_0_to_0():  # spec 5.9
    state = make_state(phase="CALL_OF_FATE", to_act=1, guide=1, committed=(None, None), current_room="R02")
    assert state.legal_actions() == [Commit(1, ())]
    state = state.apply(Commit(1, ())).apply(Commit(0, ()))
    assert state.phase == "EXPLORATION" and state.to_act == 1  # no sticks: the guide wins the room


@pytest.mark.parametrize(
    "tie_rule, guide, totals, winner",
    [
        ("guide", 0, (4, 4), 0),
        ("guide", 1, (4, 4), 1),
        ("opponent", 0, (4, 4), 1),
        ("opponent", 1, (4, 4), 0),
        ("opponent", 0, (5, 4), 0),
        ("opponent", 1, (3, 4), 1),  # the variant changes ties only
    ],
)
def test_tie_rule_gives_equal_totals_to_the_guide_or_the_opponent(tie_rule, guide, totals, winner):
    # docs/rules/nagaraja.md#winning-the-room (published: the guide); #parameters (the reversed variant)
    state = make_state(
        guide=guide,
        to_act=guide,
        rules=Rules(tie_rule=tie_rule),
        held_sticks=([("B01", totals[0], 0)], [("B02", totals[1], 0)]),
    )
    after = state.apply(Pass(guide))  # nobody has a Naga: the room is resolved at once
    assert after.phase == "EXPLORATION" and after.room_winner == winner and after.to_act == winner
    if totals[0] == totals[1]:
        assert f"the {tie_rule} wins ties" in after.log[-1][1]


def test_tie_rule_is_saved_and_old_saves_play_the_published_rule():
    state = new_game(seed=3, rules=Rules(tie_rule="opponent"))
    assert json.loads(state.to_json())["rules"]["tie_rule"] == "opponent"
    assert State.from_json(state.to_json()).rules.tie_rule == "opponent"
    old = json.loads(new_game(seed=3).to_json())
    del old["rules"]["tie_rule"]  # a save written before the parameter existed
    assert State.from_json(json.dumps(old)).rules == Rules()


def test_commit_validation_and_hidden_commitment():  # spec 5.3, 7
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=0,
        guide=0,
        committed=(None, None),
        hands=(("STK-01", "REL-01", "REL-05"), ("CRD-01",)),
        explicit_chance=True,
    )
    unchanged_after(state, Commit(0, ("REL-01", "STK-01")), "one symbol")
    unchanged_after(state, Commit(0, ("CRD-01",)), "not in P0's hand")
    unchanged_after(state, Commit(0, ()), "at least one card")
    unchanged_after(state, Commit(1, ("CRD-01",)), "P0's turn")
    assert [a.cards for a in state.legal_actions()] == [("REL-01",), ("REL-01", "REL-05"), ("REL-05",), ("STK-01",)]
    state = state.apply(Commit(0, ("REL-01", "REL-05")))
    seen_by_opponent = state.observation(1)["players"][0]
    assert seen_by_opponent["committed"] is None and seen_by_opponent["committed_count"] == 2
    state = state.apply(Commit(1, ("CRD-01",)))
    assert [c["id"] for c in state.observation(1)["players"][0]["committed"]] == ["REL-01", "REL-05"]


def test_short_supply_the_guide_takes_first():  # spec 5.3, 5.9
    guide_cards = ("STK-01", "STK-02", "STK-04", "STK-05", "STK-07", "STK-10", "STK-12")  # 10 brown sticks
    state = make_state(
        phase="CALL_OF_FATE",
        to_act=1,
        guide=0,
        committed=(guide_cards, None),
        hands=((), ("REL-01", "REL-05")),
        explicit_chance=True,
    )
    state = state.apply(Commit(1, ("REL-01", "REL-05")))  # wants BBW + BB: only 2 brown are left
    colours = [s.colour for s in state.players[1].sticks]
    assert colours.count("BROWN") == 2 and colours.count("WHITE") == 1
    assert sum(s.colour == "BROWN" for s in state.players[0].sticks) == 10
    assert any("missing ones are not thrown" in e for e in state.events(0))


def test_naga_without_a_card_cannot_be_used():  # spec 5.9
    state = make_state(hands=((), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("B01", 2, 0)]))
    assert not any(isinstance(a, UseNaga) for a in state.legal_actions())


def test_new_deal_keep_two_give_one():  # spec 5.7
    state = make_state(phase="NEW_DEAL", to_act=1, guide=1, current_room=None, deal=("CRD-01", "REL-02", "STK-09"))
    assert len(state.legal_actions()) == 3
    unchanged_after(state, Keep(1, ("CRD-01",)), "keep exactly 2")
    state = state.apply(Keep(1, ("CRD-01", "STK-09")))
    assert state.players[0].hand == ("REL-02",) and "REL-02" in state.players[0].public_hand
    assert state.phase == "CALL_OF_FATE" and state.to_act == 1 and state.current_room is not None
    assert [c["id"] for c in state.observation(1)["players"][0]["known_hand"]] == ["REL-02"]


def test_first_guide_throw_off_repeats_on_ties():  # spec 2.2 step 4, 5.2
    state = new_game(seed=1, explicit_chance=True)
    while state.queue[0].kind == "RELIC":
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.chance_outcomes()[0][0] == ((2, 0), (2, 0))
    state = state.apply(((3, 0), (3, 0))).apply(((2, 0), (4, 0)))  # 6 to 6: again
    assert state.queue[0].kind == "FIRST_GUIDE"
    state = state.apply(((2, 0), (2, 0))).apply(((4, 0), (4, 0)))
    assert state.guide == 1
    while state.current_player == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.phase == "CALL_OF_FATE" and state.to_act == 1 and len(state.players[0].hand) == 5


def test_chance_outcomes_are_exact_distributions():
    state = new_game(seed=3, explicit_chance=True)
    seen_kinds = set()
    import random

    rng = random.Random(0)
    while not state.is_terminal and len(seen_kinds) < 6:
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            seen_kinds.add(state.queue[0].kind)
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert {"RELIC", "FIRST_GUIDE", "DRAW", "ROOM"} <= seen_kinds


def test_stick_throw_matches_the_calculator():  # spec 9.2: 3 white, P(P=5 and N=1) = 3/32
    from gamelib.nagaraja.chance import throw_weights

    weights = throw_weights(tuple(ED.faces["WHITE"]), 3)
    total = sum(w for _, w in weights)
    joint = {}
    for faces, w in weights:
        key = (sum(f[0] for f in faces), sum(f[1] for f in faces))
        joint[key] = joint.get(key, 0) + Fraction(w, total)
    assert joint == sticks.joint(0, 3, 0)
    assert joint[(5, 1)] == Fraction(3, 32)


# =========================================================================== determinism and saves


def test_same_seed_same_game():
    from gamelib import play, random_policy

    first = play(new_game(seed=11), random_policy, seed=2)
    second = play(new_game(seed=11), random_policy, seed=2)
    assert first.to_json() == second.to_json() and first.is_terminal


def test_json_round_trip_mid_game_and_explicit():
    import random

    rng, state = random.Random(3), new_game(seed=6, explicit_chance=True)
    for _ in range(120):  # chance outcomes and actions alike are recorded and replayed
        outcomes = state.chance_outcomes()
        state = state.apply(rng.choice(outcomes)[0] if outcomes else rng.choice(state.legal_actions()))
    loaded = State.from_json(state.to_json())
    assert loaded == state and loaded.to_json() == state.to_json() and loaded.moves == state.moves
    step = state.chance_outcomes()[0][0] if state.chance_outcomes() else state.legal_actions()[0]
    assert loaded.apply(step) == state.apply(step)


def test_a_hand_built_position_is_not_a_save():
    """make_state edits fields no play reaches: its save does not follow from its seed and moves."""
    state = make_state(hands=(("REL-06",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]))
    with pytest.raises(CorruptSave, match="does not follow from its seed and moves"):
        State.from_json(state.to_json())
    model_b = new_game(seed=4, edition=load_edition("B"))
    assert State.from_json(model_b.to_json()).edition.faces == load_edition("B").faces


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: "{not json", "not valid JSON"),
        (lambda d: json.dumps([1, 2]), "JSON object"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "players"}), "missing players"),
        (lambda d: json.dumps({**d, "phase": "DANCING"}), "its phase is 'DANCING'"),
        (lambda d: json.dumps({**d, "draw_pile": d["draw_pile"][1:]}), "its draw_pile"),
        (lambda d: json.dumps({**d, "game": "chakra"}), "chakra.*nagaraja save"),
        (lambda d: json.dumps({**d, "supply": d["supply"] + ["B01"]}), "its supply"),
        (
            lambda d: json.dumps(
                {
                    **d,
                    "players": [
                        {
                            **d["players"][0],
                            "temple": {
                                "cells": [["R99", 0, None]] + [None] * 8,
                                "relics": d["players"][0]["temple"]["relics"],
                            },
                        },
                        d["players"][1],
                    ],
                }
            ),
            "its players",
        ),
        (lambda d: json.dumps({**d, "edition": {"sticks": "Z"}}), "bad edition"),
        (lambda d: json.dumps({**d, "players": "two"}), "its players"),
    ],
)
def test_corrupt_saves_give_clear_errors(damage, message):
    data = json.loads(new_game(seed=5).to_json())
    with pytest.raises(CorruptSave, match=message):
        State.from_json(damage(data))


def test_illegal_actions_leave_the_state_unchanged():
    state = new_game(seed=8)
    unchanged_after(state, "ROLL", "not a Nagaraja action")
    unchanged_after(state, PlaceTile(state.to_act, (2, 0), 0), "belongs to EXPLORATION")
    unchanged_after(state, Pass(state.to_act), "belongs to CONFRONTATION")
    unchanged_after(state, Keep(state.to_act, ()), "belongs to NEW_DEAL")


def test_text_view_and_log():
    state = new_game(seed=9)
    text = str(state)
    assert "PLACEHOLDER" in text and "CALL_OF_FATE" in text and "P0" in text
    assert state.log[0][1].startswith("New game of Nagaraja")
    assert any("is the guide" in e for e in state.events(0))


def test_a_relic_seen_face_up_stays_known_after_it_turns_face_down():  # spec 7 (choice: players remember)
    state = make_state(
        phase="EXPLORATION", to_act=1, current_room="R06", tiles=({}, {(2, 2): ("R02", 0)}), hands=(("ROM-01",), ())
    )
    state = state.apply(PlaceTile(1, (1, 2), 1))  # RIGHT_1 (C6b) turns face up for both to see
    assert all((1, "C6b") in state.players[p].knowledge for p in (0, 1))
    temple = state.players[1].temple.rotate((2, 2), 1)
    from gamelib.nagaraja.actions import update_temple

    broken = update_temple(state, 1, temple)
    for viewer in (0, 1):
        relic = broken.observation(viewer)["players"][1]["temple"]["relics"]["RIGHT_1"]
        assert relic == {"face_up": False, "known": True, "vp": 6, "cursed": True}


# =========================================================================== a pair in either order (issue 8)


def test_swap_accepts_the_pair_in_either_order():  # spec 3.4 SWAP: two relic spots, no order
    state = make_state(
        hands=(("REL-03",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({}, {(2, 0): ("R06", 2)}),
    )
    listed = state.apply(UseNaga(0, "WHITE", "REL-03", SpotPair(0, "TOP_2", "RIGHT_0")))
    reversed_pair = state.apply(UseNaga(0, "WHITE", "REL-03", SpotPair(0, "RIGHT_0", "TOP_2")))
    assert reversed_pair.to_json() == listed.to_json()
    assert reversed_pair.players[0].temple.relic_at("TOP_2") == "C6a"  # DEFAULT_RELICS: RIGHT_0 held C6a
    unchanged_after(state, UseNaga(0, "WHITE", "REL-03", SpotPair(0, "TOP_2", "TOP_2")), "two different relic spots")


def test_peek2_swap_accepts_the_pair_in_either_order():  # spec 3.4 PEEK2_SWAP
    state = make_state(hands=(("REL-06",), ("CRD-01",)), held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]))
    one = state.apply(UseNaga(0, "WHITE", "REL-06", SpotPair(0, "LEFT_0", "RIGHT_0")))
    other = state.apply(UseNaga(0, "WHITE", "REL-06", SpotPair(0, "RIGHT_0", "LEFT_0")))
    assert other.to_json() == one.to_json() and other.pending_swap == (0, "LEFT_0", "RIGHT_0")


def test_move_swap_accepts_the_rooms_in_either_order():  # spec 3.4 MOVE_SWAP: swap two rooms
    state = make_state(
        hands=(("ROM-03",), ("CRD-01",)),
        held_sticks=([("W01", 0, 1)], [("G01", 0, 1)]),
        tiles=({(2, 1): ("R01", 0, "A03"), (2, 0): ("R03", 1)}, {}),
    )
    listed = state.apply(UseNaga(0, "WHITE", "ROM-03", Swap(0, (2, 0), (2, 1))))
    reversed_pair = state.apply(UseNaga(0, "WHITE", "ROM-03", Swap(0, (2, 1), (2, 0))))
    assert reversed_pair.to_json() == listed.to_json()
    assert reversed_pair.players[0].temple.cell((2, 0)).tile_id == "R01"  # the rooms traded cells


# =========================================================================== the listed fast path (issue 8)


def test_a_listed_naga_gives_the_same_position_as_a_checked_one():
    """``State.apply`` skips the second check of a UseNaga's parameters when the action is one of the
    objects ``legal_actions()`` just listed; an equal copy takes the fully checked path. Same results."""
    from dataclasses import replace as copy_of

    from nagaraja_support import play_game
    from gamelib.nagaraja.bots import random_policy

    compared = 0
    for seed in range(12):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in states:
            for action in [a for a in state.legal_actions() if isinstance(a, UseNaga)][:6]:
                checked = state.apply(copy_of(action))  # a new object: not the listed one
                state.legal_actions()
                assert state.apply(action).to_json() == checked.to_json()
                compared += 1
    assert compared > 100
