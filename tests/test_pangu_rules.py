"""Pangu rules: the spec's geometry, schedule and scripted-game vectors (spec 11 T1-T3, T10, T11),
rule validation, decks, chance nodes and every kind of illegal action."""

import random
from fractions import Fraction

import pytest

from gamelib import CHANCE, TERMINAL, IllegalMove
from gamelib.pangu import (
    SINGLE_VARIANTS,
    Action,
    DeckError,
    Rules,
    ScriptExhausted,
    load_deck,
    new_game,
    teaching_deck,
    turn_sizes,
)
from gamelib.pangu.cards import TEACHING_DECK_PATH
from gamelib.pangu.odds import layout_score
from gamelib.pangu.rules import GEOMETRIES

from pangu_support import S1_DECK, S1_MOVES, S1_ROLLS, S2_DECK, S2_MOVES, S2_ROLLS, play_script

T3_LAYOUT = {
    (0, 0): "A1",
    (0, 1): "A6",
    (0, 2): "A2",
    (0, 3): "A4",
    (1, 0): "A3",
    (1, 3): "A9",
    (2, 0): "A10",
    (2, 1): "A5",
    (2, 2): "A8",
    (2, 3): "A7",
}


def placements(state):
    return state.placements()


# ----------------------------------------------------------------------------- T1 geometry


@pytest.mark.parametrize("grid", ["3x4", "4x3"])
def test_t1_geometry_counts(grid):  # spec 11, T1 (and spec 9 for 4x3)
    geometry = GEOMETRIES[grid]
    ring, centre = set(geometry.ring), set(geometry.centre_cells)
    assert len(ring) == 10
    edges = {frozenset((cell, other)) for cell in geometry.cells for _, other in geometry.neighbours(cell)}
    ring_ring = [e for e in edges if e <= ring]
    ring_centre = [e for e in edges if len(e & ring) == 1 and len(e & centre) == 1]
    outer = sum(4 - len(geometry.neighbours(cell)) for cell in ring)
    assert (len(ring_ring), len(ring_centre), outer) == (10, 6, 14)
    assert max(len(geometry.neighbours(cell)) for cell in ring) == 3  # so max rec of one placement is 3
    assert all(sum(other in centre for _, other in geometry.neighbours(cell)) <= 1 for cell in ring)


def test_t1_initial_legal_cells():  # spec 2 and 11, T1
    assert new_game(seed=1).legal_cells() == [(0, 1), (0, 2), (1, 0), (1, 3), (2, 1), (2, 2)]


def test_t1_ring_centre_edges_4x3():  # spec 9, grid = "4x3"
    geometry = GEOMETRIES["4x3"]
    centre = set(geometry.centre_cells)
    touching = sorted(
        (cell, "TRBL"[edge]) for cell in geometry.ring for edge, other in geometry.neighbours(cell) if other in centre
    )
    assert touching == [((0, 1), "B"), ((1, 0), "R"), ((1, 2), "L"), ((2, 0), "R"), ((2, 2), "L"), ((3, 1), "T")]


def test_corner_becomes_legal_after_a_ring_neighbour():  # spec 2
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS)
    assert (0, 0) not in state.legal_cells()
    assert (0, 0) in state.apply(Action("A6", "BLUE", (0, 1))).legal_cells()


# ----------------------------------------------------------------------------- T2 schedule


def test_t2_turn_schedule():  # spec 11, T2
    assert turn_sizes(10) == [3, 3, 3, 1]
    assert turn_sizes(9) == [3, 3, 2, 1]


def test_t2_reveals_in_a_game():  # spec 5: 3, 3, 3, 1 and the last card alone
    final = play_script(S1_MOVES, S1_DECK, S1_ROLLS)
    assert [len(e.revealed) for e in final.log if e.kind == "turn_start"] == [3, 3, 3, 1]


# ----------------------------------------------------------------------------- T3 layout


def test_t3_perfect_layout_scores():  # spec 11, T3
    assert layout_score(T3_LAYOUT) == 16
    assert layout_score(T3_LAYOUT, Rules(centre_config="YANG_LEFT")) == 10


def _random_legal_order(rng):
    geometry = GEOMETRIES["3x4"]
    filled, order = set(geometry.centre_cells), []
    while len(order) < 10:
        options = [
            cell
            for cell in geometry.ring
            if cell not in filled and any(other in filled for _, other in geometry.neighbours(cell))
        ]
        cell = rng.choice(options)
        filled.add(cell)
        order.append(cell)
    return order


@pytest.mark.parametrize("centre, expected", [("YIN_LEFT", 16), ("YANG_LEFT", 10)])
def test_t3_any_legal_order_gives_the_same_total(centre, expected):  # spec 11, T3 and I3
    rng = random.Random(3)
    rules = Rules(starting_karma=1000, centre_config=centre)  # no defeat: only the order matters
    for _ in range(100):
        cells = _random_legal_order(rng)
        deck = [T3_LAYOUT[cell] for cell in cells]
        state = new_game(deck=deck, rolls=[(3, 3)] * 10, rules=rules)
        for cell, card in zip(cells, deck):
            die, _ = state.cheapest_die(card)
            state = state.apply(Action(card, die, cell))
        assert state.status == "WON"
        assert sum(e.rec for e in state.placements()) == expected


# ----------------------------------------------------------------------------- T10 scripted win


def test_t10_scripted_game_s1_row_by_row():  # spec 11, T10
    expected = [  # turn, roll, card, die, cost, cell, rec, gain, wasted, karma
        (1, (3, 5), "A6", "BLUE", 1, (0, 1), 1, 1, 0, 10),
        (1, (3, 5), "A3", "BLUE", 1, (1, 0), 1, 1, 0, 10),
        (1, (3, 5), "A5", "WHITE", 1, (2, 1), 1, 1, 0, 10),
        (2, (2, 2), "A1", "BLUE", 1, (0, 0), 2, 1, 1, 10),
        (2, (2, 2), "A2", "WHITE", 1, (0, 2), 2, 1, 1, 10),
        (2, (2, 2), "A10", "BLUE", 3, (2, 0), 2, 2, 0, 9),
        (3, (6, 1), "A9", "BLUE", 4, (1, 3), 1, 1, 0, 6),
        (3, (6, 1), "A4", "BLUE", 1, (0, 3), 2, 2, 0, 7),
        (3, (5, 3), "A8", "BLUE", 1, (2, 2), 2, 2, 0, 8),
        (4, (2, 3), "A7", "BLUE", 1, (2, 3), 2, 2, 0, 9),
    ]
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS)
    for turn, roll, card, die, cost, cell, rec, gain, wasted, karma in expected:
        assert (state.turn, state.roll) == (turn, roll)
        state = state.apply(Action(card, die, cell))
        event = state.placements()[-1]
        assert (event.cost, event.rec, event.gain, event.wasted, event.karma) == (cost, rec, gain, wasted, karma)
    assert (state.status, state.karma) == ("WON", 9)
    events = state.placements()
    assert sum(e.cost for e in events) == 15 and sum(e.rec for e in events) == 16
    assert sum(e.gain for e in events) == 14 and sum(e.wasted for e in events) == 2
    assert [e.reason for e in state.log if e.kind == "roll"].count("stuck") == 1
    assert {cell: card.id for cell, (card, _) in state.placed_cards().items()} == T3_LAYOUT


@pytest.mark.parametrize(
    "changes, status, karma, total_rec",
    [  # spec 11, T10 variants table
        ({"cap_rule": "before_placement"}, "WON", 6, 16),
        ({"cap_rule": "before_turn"}, "WON", 5, 16),
        ({"defeat_check": "after_recovery"}, "WON", 9, 16),
        ({"centre_match_counts_as_circle": True}, "WON", 10, 22),
        ({"centre_config": "YANG_LEFT"}, "WON", 5, 10),
        ({"stuck_rule": "reroll_penalty_1"}, "WON", 8, 16),
    ],
)
def test_t10_variants(changes, status, karma, total_rec):
    state = play_script(S1_MOVES, S1_DECK, S1_ROLLS, Rules(**changes))
    assert (state.status, state.karma) == (status, karma)
    assert sum(e.rec for e in state.placements()) == total_rec


def test_t10_after_recovery_log_identical_to_default():  # spec 11, T10: "identical to the default run"
    default = play_script(S1_MOVES, S1_DECK, S1_ROLLS)
    variant = play_script(S1_MOVES, S1_DECK, S1_ROLLS, Rules(defeat_check="after_recovery"))
    assert default.log[1:] == variant.log[1:]  # everything but the recorded rules


# ----------------------------------------------------------------------------- T11 scripted loss


def test_t11_loss_on_exactly_zero():  # spec 11, T11
    state = play_script(S2_MOVES, S2_DECK, S2_ROLLS)
    assert [(e.cost, e.rec, e.karma) for e in state.placements()[:2]] == [(5, 1, 6), (5, 1, 2)]
    assert [e.reason for e in state.log if e.kind == "roll"] == ["turn", "stuck"]
    assert (state.status, state.karma) == ("LOST", 0)
    assert len(state.placed_cards()) == 2 and "A2" not in {c.id for c, _ in state.placed_cards().values()}
    assert state.placements()[-1].placed is False
    assert state.log[-1].kind == "game_end" and state.current_player == TERMINAL


def test_t11_after_recovery_continues():  # spec 11, T11 variant
    state = play_script(S2_MOVES, S2_DECK, S2_ROLLS, Rules(defeat_check="after_recovery"))
    last = state.placements()[-1]
    assert (last.card, last.placed, last.rec, last.karma) == ("A2", True, 1, 1)
    assert state.status == "ONGOING"


def test_t11_stuck_penalty():  # spec 11, T11 variant
    state = play_script(S2_MOVES, S2_DECK, S2_ROLLS, Rules(stuck_rule="reroll_penalty_1"))
    assert [e.karma for e in state.log if e.kind == "stuck_penalty"] == [1]
    assert (state.status, state.karma) == ("LOST", -1)


def test_stuck_penalty_can_lose_at_once():  # spec 9, stuck_rule: LOST whatever the defeat_check
    same_numbers = [dict(card.to_dict(), blue=1, white=6) for card in teaching_deck()]
    deck = load_deck(same_numbers)  # every card (1,6): the roll (1,6) blocks them all
    rules = Rules(stuck_rule="reroll_penalty_1", defeat_check="after_recovery", starting_karma=2)
    state = new_game(deck=S1_DECK, rolls=[(1, 6), (1, 6), (2, 2)], rules=rules, cards=deck)
    assert [e.kind for e in state.log[-4:]] == ["stuck_penalty", "roll", "stuck_penalty", "game_end"]
    assert (state.status, state.karma) == ("LOST", 0)
    free = new_game(deck=S1_DECK, rolls=[(1, 6), (1, 6), (2, 2)], cards=deck)
    assert free.roll == (2, 2) and free.karma == 10  # the plain reroll costs nothing


def test_running_out_of_scripted_rolls_raises_and_keeps_the_state():  # spec 8
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS[:1])
    state = state.apply(Action("A6", "BLUE", (0, 1))).apply(Action("A3", "BLUE", (1, 0)))
    before = state.to_json()
    with pytest.raises(ScriptExhausted, match="scripted rolls are used up"):
        state.apply(Action("A5", "WHITE", (2, 1)))  # the next turn needs a roll
    assert state.to_json() == before


# ----------------------------------------------------------------------------- rules and variants


def test_rule_defaults_and_validation():  # spec 9
    assert Rules() == Rules("per_turn", "start_value", "after_payment", False, "YIN_LEFT", "reroll", False, 10, "3x4")
    for bad in [
        dict(roll_timing="sometimes"),
        dict(cap_rule="none"),
        dict(defeat_check="never"),
        dict(allow_rotation="yes"),
        dict(centre_config="LEFT"),
        dict(stuck_rule="skip"),
        dict(centre_match_counts_as_circle=1),
        dict(starting_karma=0),
        dict(starting_karma=2.5),
        dict(grid="5x5"),
    ]:
        with pytest.raises(ValueError, match=next(iter(bad))):
            Rules(**bad)
    with pytest.raises(ValueError, match="unknown rule parameter"):
        Rules.from_dict({"roll_timing": "per_turn", "karma": 3})
    assert Rules.from_dict(Rules(grid="4x3").to_dict()) == Rules(grid="4x3")


def test_rules_are_recorded_in_state_and_log():  # spec 8
    rules = Rules(cap_rule="before_turn", grid="4x3")
    state = new_game(seed=2, rules=rules)
    assert state.rules == rules and state.log[0].kind == "setup" and state.log[0].rules == rules.to_dict()


def test_random_centre_is_drawn_from_the_seed():  # spec 9, centre_config = RANDOM
    configs = {new_game(seed=s, rules=Rules(centre_config="RANDOM")).centre for s in range(20)}
    assert configs == {"YIN_LEFT", "YANG_LEFT"}
    assert (
        new_game(seed=5, rules=Rules(centre_config="RANDOM")).centre
        == new_game(seed=5, rules=Rules(centre_config="RANDOM")).centre
    )


def test_yang_left_swaps_the_centre_cards():  # spec 2
    assert new_game(seed=1, rules=Rules(centre_config="YANG_LEFT")).centre_cells == {(1, 1): "YANG", (1, 2): "YIN"}
    assert new_game(seed=1, rules=Rules(grid="4x3")).centre_cells == {(1, 1): "YIN", (2, 1): "YANG"}


def test_per_placement_rolls_before_every_placement():  # spec 9, roll_timing
    state = new_game(deck=S1_DECK, rolls=[(3, 5), (1, 1), (4, 4), (2, 2)], rules=Rules(roll_timing="per_placement"))
    state = state.apply(Action("A6", "BLUE", (0, 1)))
    assert state.roll == (1, 1) and state.log[-1].reason == "placement"
    state = state.apply(Action("A3", "BLUE", (1, 0)))
    assert state.roll == (4, 4)
    state = state.apply(Action("A5", "BLUE", (2, 1)))
    assert state.log[-1].reason == "placement" and state.turn == 2  # spec 5 "(under per_turn)", spec 9


def test_rotation_flips_the_half_circles():  # spec 9, allow_rotation
    rules = Rules(allow_rotation=True)
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS, rules=rules)
    # A6 (TOP Yang, BOTTOM Yin) at (0,1): upright its BOTTOM Yin matches Yin; turned, its BOTTOM is Yang
    assert state.recovery("A6", (0, 1), 0) == 1 and state.recovery("A6", (0, 1), 180) == 0
    assert Action("A6", "BLUE", (0, 1), 180) in state.legal_actions()
    turned = state.apply(Action("A6", "BLUE", (0, 1), 180))
    assert turned.card_at((0, 1))[1] == 180 and turned.placements()[-1].rec == 0


def test_centre_match_worth_two():  # spec 9, centre_match_counts_as_circle
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS, rules=Rules(centre_match_counts_as_circle=True))
    assert state.recovery("A6", (0, 1)) == 2


def test_before_turn_recovers_nothing_in_turn_one():  # spec 9, cap_rule = before_turn
    state = play_script(S1_MOVES[:3], S1_DECK, S1_ROLLS, Rules(cap_rule="before_turn"))
    assert [e.gain for e in state.placements()] == [0, 0, 0] and state.karma == 7


# ----------------------------------------------------------------------------- actions, order, chance


def test_legal_actions_order():  # spec 8
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS, rules=Rules(allow_rotation=True))
    actions = state.legal_actions()
    cells = state.legal_cells()
    # roll (3,5): A3's white 5 and A5's blue 3 are equal dice, so those pairs are missing
    pairs = [("A6", "BLUE"), ("A6", "WHITE"), ("A3", "BLUE"), ("A5", "WHITE")]
    expected = [Action(card, die, cell, o) for card, die in pairs for cell in cells for o in (0, 180)]
    assert actions == expected
    state = new_game(deck=S1_DECK, rolls=[(4, 5)])
    assert all(not (a.card == "A6" and a.die == "BLUE") for a in state.legal_actions())  # blue 4 = A6's blue
    assert all(not (a.card == "A3" and a.die == "WHITE") for a in state.legal_actions())  # white 5 = A3's white


def test_action_str_and_namedtuple():
    action = Action("A6", "BLUE", (0, 1))
    assert str(action) == "A6 with the blue die to (0,1)" and action.orientation == 0


def test_same_seed_same_game():  # spec 8
    a, b = new_game(seed=42), new_game(seed=42)
    assert a == b and a.debug_deck_order() is not None
    assert new_game(seed=43).debug_deck_order() != a.debug_deck_order()


def test_explicit_chance_nodes_are_exact():  # spec 8: dice and deck draws
    state = new_game(seed=1, explicit_chance=True)
    assert state.current_player == CHANCE and state.pending == "draw"
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and sum(p for _, p in outcomes) == 1
    for _ in range(3):
        state = state.apply(state.chance_outcomes()[0][0])
    assert state.pending == "roll" and len(state.chance_outcomes()) == 36
    assert sum(p for _, p in state.chance_outcomes()) == 1 and state.chance_outcomes()[0][1] == Fraction(1, 36)
    state = state.apply((3, 5))
    assert state.current_player == 0 and state.revealed == ("A1", "A2", "A3")
    with pytest.raises(IllegalMove, match="waits for chance"):
        new_game(seed=1, explicit_chance=True).apply((3, 5))
    random_centre = new_game(seed=1, rules=Rules(centre_config="RANDOM"), explicit_chance=True)
    assert [p for _, p in random_centre.chance_outcomes()] == [Fraction(1, 2)] * 2


def test_observation_hides_the_deck_order():  # spec 8
    state = new_game(seed=9)
    view = state.observation(0)
    text = repr(view)
    order = state.debug_deck_order()
    assert view["deck_count"] == 7 and view["unseen"] == sorted(order, key=teaching_deck().ids.index)
    assert repr(list(order)) not in text and "deck_order" not in text
    assert view["karma"] == 10 and view["dice"] == state.dice and len(view["cells"]) == 12


def test_str_is_a_readable_board():
    text = str(play_script(S1_MOVES[:4], S1_DECK, S1_ROLLS))
    assert "Karma 10/10" in text and "A1" in text and "Yin" in text and "legal" in text


# ----------------------------------------------------------------------------- illegal actions


def scripted_start():
    return new_game(seed=0, deck=S1_DECK, rolls=S1_ROLLS)


@pytest.mark.parametrize(
    "action, reason",
    [
        (Action("A1", "BLUE", (0, 1)), "A1 has not been revealed"),  # wrong card: still in the deck
        (Action("Z9", "BLUE", (0, 1)), "no card 'Z9'"),  # wrong card: unknown
        (Action("A5", "BLUE", (0, 1)), "blue die 3 equals A5's blue 3: the die must differ"),  # equal die
        (Action("A6", "RED", (0, 1)), "BLUE or WHITE"),
        (Action("A6", "BLUE", (0, 0)), "does not touch"),  # non-adjacent cell (a corner)
        (Action("A6", "BLUE", (1, 1)), "holds the Yin centre card"),
        (Action("A6", "BLUE", (3, 0)), "outside the 3×4 layout"),
        (Action("A6", "BLUE", "top"), "a cell is a (row, column) pair"),
        (Action("A6", "BLUE", (0, 1), 180), "may not be turned 180°"),  # wrong orientation
        (Action("A6", "BLUE", (0, 1), 90), "orientation must be 0 or 180"),
        ("A6 to (0,1)", "an action is Action"),
    ],
)
def test_illegal_actions_raise_with_a_reason_and_change_nothing(action, reason):  # spec 6, 7
    state = scripted_start()
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        state.apply(action)
    assert reason in caught.value.reason
    assert state.to_json() == before and state == scripted_start()


def test_occupied_cell_and_placed_card():  # spec 6
    state = scripted_start().apply(Action("A6", "BLUE", (0, 1)))
    before = state.to_json()
    with pytest.raises(IllegalMove, match=r"\(0,1\) already holds A6"):
        state.apply(Action("A3", "BLUE", (0, 1)))
    with pytest.raises(IllegalMove, match="A6 is already on the board"):
        state.apply(Action("A6", "BLUE", (0, 2)))
    assert state.to_json() == before


def test_no_action_after_the_end():  # spec 7
    for final in (play_script(S1_MOVES, S1_DECK, S1_ROLLS), play_script(S2_MOVES, S2_DECK, S2_ROLLS)):
        before = final.to_json()
        assert final.legal_actions() == [] and final.is_terminal
        with pytest.raises(IllegalMove, match="the game is over"):
            final.apply(Action("A7", "BLUE", (2, 3)))
        assert final.to_json() == before


def test_bad_scripts_are_refused():  # spec 8
    with pytest.raises(ValueError, match="every card exactly once"):
        new_game(deck=S1_DECK[:-1] + ["A6"])
    with pytest.raises(ValueError, match="pair of numbers 1 to 6"):
        new_game(deck=S1_DECK, rolls=[(0, 7)])


# ----------------------------------------------------------------------------- decks


def test_teaching_deck_properties():  # spec 3
    deck = load_deck()
    assert deck.ids == tuple(f"A{i}" for i in range(1, 11))
    assert all(sorted((c.blue, c.white)) in ([1, 6], [2, 5], [3, 4]) for c in deck)
    for edge in range(4):  # each edge position carries 5 YIN and 5 YANG
        assert sum(card.half[edge] == "YIN" for card in deck) == 5
    flip = {"YIN": "YANG", "YANG": "YIN"}
    images = {(c.white, c.blue, tuple(flip[h] for h in c.half)) for c in deck}
    assert images == {(c.blue, c.white, c.half) for c in deck}  # swap dice + invert colours maps the deck onto itself


def records():
    return [card.to_dict() for card in teaching_deck()]


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda r: r.pop(), "exactly 10 cards"),
        (lambda r: r[1].update(id="A1"), "appears twice"),
        (lambda r: r[2].update(blue=7), "from 1 to 6"),
        (lambda r: r[2].update(white="3"), "from 1 to 6"),
        (lambda r: r[3]["half"].pop("LEFT"), "no half-circle colour on LEFT"),
        (lambda r: r[3]["half"].update(TOP="GREY"), "must be YIN or YANG"),
        (lambda r: r[4].pop("name"), "missing name"),
        (lambda r: r[4].update(colour="red"), "unknown field"),
    ],
)
def test_user_deck_validation(edit, message):  # spec 3
    data = records()
    edit(data)
    with pytest.raises(DeckError, match=message):
        load_deck(data)


def test_user_deck_file(tmp_path):  # spec 3: a user deck without the twin structure is accepted
    data = records()
    data[0]["half"] = {"TOP": "YIN", "RIGHT": "YIN", "BOTTOM": "YIN", "LEFT": "YIN"}
    path = tmp_path / "my_deck.json"
    import json

    path.write_text(json.dumps({"name": "my copy", "cards": data}))
    deck = load_deck(path)
    state = new_game(seed=3, cards=deck)
    assert state.cards.name == "my copy" and state.cards["A1"].half == ("YIN",) * 4
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(DeckError, match="not valid JSON"):
        load_deck(tmp_path / "broken.json")
    with pytest.raises(DeckError, match="cannot read"):
        load_deck(tmp_path / "missing.json")
    assert TEACHING_DECK_PATH.exists()


def test_every_single_variant_plays():  # spec 9: every parameter is a value of Rules
    for name, rules in SINGLE_VARIANTS.items():
        state = new_game(seed=11, rules=rules)
        assert state.legal_actions(), name
