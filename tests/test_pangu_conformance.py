"""Pangu conformance: an independent second reading of the spec (``shared/rules/pangu.md``).

The helpers below re-derive, from the spec text alone, what the engine should do: the deck table
(spec 3), the geometry and legal cells (spec 2), the legal actions and their order (spec 6, 8),
the resolution of a placement in its strict order (spec 7 and every parameter of spec 9), and what
must follow it (a new turn of spec 5, fresh rolls, the stuck rule of spec 6, the log of spec 8).
They read the engine only through its public state (board, roll, Karma, revealed cards, log) and
never through its helpers, so a mistake in the engine cannot be copied into the expectation.
"""

import json
import random
from dataclasses import replace
from fractions import Fraction

import pytest

from gamelib import CHANCE, IllegalMove
from gamelib.pangu import (
    SINGLE_VARIANTS,
    Action,
    Rules,
    State,
    greedy_policy,
    load_deck,
    new_game,
    random_policy,
)
from gamelib.pangu.rules import CHOICES, SWITCHES
from pangu_support import S1_DECK, S1_MOVES, S1_ROLLS, play_script

# ----------------------------------------------------------------------------- the spec, transcribed

# spec 3, the teaching deck table: id -> (name, blue, white, TOP, RIGHT, BOTTOM, LEFT)
SPEC_DECK = {
    "A1": ("Earth", 1, 6, "YIN", "YANG", "YIN", "YANG"),
    "A2": ("Heaven", 6, 1, "YANG", "YIN", "YANG", "YIN"),
    "A3": ("Moon", 2, 5, "YIN", "YIN", "YANG", "YANG"),
    "A4": ("Sun", 5, 2, "YANG", "YANG", "YIN", "YIN"),
    "A5": ("Rivers", 3, 4, "YIN", "YANG", "YANG", "YIN"),
    "A6": ("Mountains", 4, 3, "YANG", "YIN", "YIN", "YANG"),
    "A7": ("Thunder", 1, 6, "YIN", "YANG", "YANG", "YIN"),
    "A8": ("Wind", 6, 1, "YANG", "YIN", "YIN", "YANG"),
    "A9": ("Forests", 2, 5, "YIN", "YANG", "YIN", "YANG"),
    "A10": ("Stars", 5, 2, "YANG", "YIN", "YANG", "YIN"),
}
EDGE_STEP = {"TOP": (-1, 0), "RIGHT": (0, 1), "BOTTOM": (1, 0), "LEFT": (0, -1)}  # spec 1, 2
OPPOSITE = {"TOP": "BOTTOM", "BOTTOM": "TOP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
SHAPES = {"3x4": (3, 4, ((1, 1), (1, 2))), "4x3": (4, 3, ((1, 1), (2, 1)))}  # spec 2 and spec 9 grid


def number(card_id, die):  # spec 1: number(card, die)
    return SPEC_DECK[card_id][1 if die == "BLUE" else 2]


def printed(card_id, edge):
    return SPEC_DECK[card_id][3 + list(EDGE_STEP).index(edge)]


def shown(card_id, edge, orientation):  # spec 9 allow_rotation: at 180 edge e shows the printed opposite(e)
    return printed(card_id, edge if orientation == 0 else OPPOSITE[edge])


def die_value(roll, die):
    return roll[0] if die == "BLUE" else roll[1]


def centre_layout(rules, config):  # spec 2: the first (left or upper) centre cell takes Yin under YIN_LEFT
    first, second = SHAPES[rules.grid][2]
    return {first: "YIN", second: "YANG"} if config == "YIN_LEFT" else {first: "YANG", second: "YIN"}


def ring_cells(rules):  # spec 2: every cell of the frame but the two centre cells, row-major
    rows, cols, centre = SHAPES[rules.grid]
    return [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in centre]


def board_of(state):
    """{cell: ("centre", colour) or (card id, orientation)} read from the public state."""
    board = {cell: ("centre", colour) for cell, colour in state.centre_cells.items()}
    board.update({cell: (card.id, orientation) for cell, (card, orientation) in state.placed_cards().items()})
    return board


def spec_legal_cells(rules, board):  # spec 2: empty ring cell sharing a full edge with an occupied cell
    return [
        cell
        for cell in ring_cells(rules)
        if cell not in board and any(abs(cell[0] - o[0]) + abs(cell[1] - o[1]) == 1 for o in board)
    ]


def spec_rec(rules, board, card_id, cell, orientation):  # spec 7 step 4, spec 9 centre match and rotation
    rec = 0
    for edge, (dr, dc) in EDGE_STEP.items():
        other = board.get((cell[0] + dr, cell[1] + dc))
        if other is None:
            continue
        mine = shown(card_id, edge, orientation)
        if other[0] == "centre":
            if mine == other[1]:
                rec += 2 if rules.centre_match_counts_as_circle else 1
        elif mine == shown(other[0], OPPOSITE[edge], other[1]):
            rec += 1
    return rec


def spec_legal_actions(state):
    """Spec 6's conditions, listed in spec 8's order (revealed, BLUE before WHITE, row-major, 0 before 180)."""
    rules = state.rules
    cells = spec_legal_cells(rules, board_of(state))
    orientations = (0, 180) if rules.allow_rotation else (0,)
    return [
        Action(card, die, cell, o)
        for card in state.revealed
        for die in ("BLUE", "WHITE")
        if die_value(state.roll, die) != number(card, die)
        for cell in cells
        for o in orientations
    ]


def turn_bookkeeping(state):
    """(turn_start_karma, gained_this_turn) re-read from the log (spec 5: recorded before the roll)."""
    karma, start, gained = state.rules.starting_karma, state.rules.starting_karma, 0
    for event in state.log:
        if event.kind == "turn_start":
            start, gained = karma, 0
        elif event.kind in ("placement", "stuck_penalty"):
            karma = event.karma
            gained += getattr(event, "gain", 0)
    return start, gained


def spec_placement(state, action):
    """Spec 7 in its strict order, with every parameter of spec 9: the expected placement record."""
    rules, S = state.rules, state.rules.starting_karma
    card, die, cell, orientation = action
    cost = abs(die_value(state.roll, die) - number(card, die))  # step 1
    kp = state.karma - cost  # step 2
    if kp <= 0 and rules.defeat_check == "after_payment":
        return {"cost": cost, "rec": 0, "gain": 0, "wasted": 0, "karma": kp, "placed": False, "status": "LOST"}
    board = board_of(state)
    rec = spec_rec(rules, board, card, cell, orientation)  # steps 3-4
    if rules.cap_rule == "start_value":  # step 5 and spec 9 cap_rule
        gain = min(rec, S - kp)
    elif rules.cap_rule == "before_placement":
        gain = min(rec, cost)
    else:
        turn_start, gained = turn_bookkeeping(state)
        gain = min(rec, S - kp, S - turn_start - gained)
    karma = kp + gain
    board[cell] = (card, orientation)
    if karma <= 0:  # spec 9 after_recovery: the loss check comes before the win check
        status = "LOST"
    elif all(c in board for c in ring_cells(rules)):  # step 6
        status = "WON"
    else:
        status = "ONGOING"
    return {
        "cost": cost,
        "rec": rec,
        "gain": gain,
        "wasted": rec - gain,
        "karma": karma,
        "placed": True,
        "status": status,
    }


def blocks_all(roll, revealed):  # spec 6: a card is blocked when both dice equal its numbers
    return all(roll == (number(card, "BLUE"), number(card, "WHITE")) for card in revealed)


def next_events(before, after):
    return list(after.log[len(before.log) :])


def expected_turn_size(deck_left):  # spec 5: min(3, R - 1), the last card alone
    return min(3, deck_left - 1) if deck_left > 1 else 1


def first_roll_reason(rules):  # spec 5 rolls for the turn under per_turn; spec 9: else before each placement
    return "turn" if rules.roll_timing == "per_turn" else "placement"


def check_automatic_steps(after, events, karma, revealed, roll, roll_reason):
    """Spec 5, 6, 9: the roll (if one is due), each stuck reroll with its penalty, the end of a lost game."""
    rules = after.rules
    if roll_reason is not None:
        event = events.pop(0)
        assert (event.kind, event.reason) == ("roll", roll_reason), event
        roll = (event.blue, event.white)
    while blocks_all(roll, revealed):
        if rules.stuck_rule == "reroll_penalty_1":
            karma -= 1
            event = events.pop(0)
            assert (event.kind, event.karma) == ("stuck_penalty", karma), event
            if karma <= 0:  # spec 9: lost at once, whatever the defeat_check
                assert [(e.kind, e.status, e.karma) for e in events] == [("game_end", "LOST", karma)]
                assert (after.status, after.karma) == ("LOST", karma)
                return
        event = events.pop(0)
        assert (event.kind, event.reason) == ("roll", "stuck"), event
        roll = (event.blue, event.white)
    assert events == [], events
    assert (after.status, after.karma, after.roll, after.revealed) == ("ONGOING", karma, roll, revealed)
    assert after.current_player == 0 and after.legal_actions()  # spec 6: never ONGOING without a move


def check_transition(before, action, after):
    """Everything ``apply`` did, against the spec: the placement record, the end, the next turn, the rolls."""
    expected = spec_placement(before, action)
    events = next_events(before, after)
    placement = events.pop(0)
    assert placement.kind == "placement"
    assert (placement.card, placement.die, placement.cell, placement.orientation) == tuple(action)
    for field in ("cost", "rec", "gain", "wasted", "karma", "placed"):
        assert getattr(placement, field) == expected[field], (field, placement, expected)
    board = board_of(after)
    if expected["placed"]:
        assert board[action.cell] == (action.card, action.orientation)
    else:
        assert action.cell not in board  # spec 7 step 2: the card is not placed
    if expected["status"] != "ONGOING":
        assert [(e.kind, e.status, e.karma) for e in events] == [("game_end", expected["status"], expected["karma"])]
        assert (after.status, after.karma) == (expected["status"], expected["karma"])
        assert after.legal_actions() == []
        return
    revealed = tuple(card for card in before.revealed if card != action.card)
    karma = expected["karma"]
    if revealed:  # the same turn goes on
        assert after.turn == before.turn
        reason = "placement" if before.rules.roll_timing == "per_placement" else None
        check_automatic_steps(after, events, karma, revealed, before.roll, reason)
        return
    start = events.pop(0)  # spec 5: the next turn starts at once
    size = expected_turn_size(before.deck_count)
    assert start.kind == "turn_start" and start.turn == before.turn + 1 == after.turn
    assert len(start.revealed) == size and set(start.revealed) <= set(before.unseen_cards())
    if before.debug_deck_order() is not None:  # the top k cards of the deck, top first
        assert tuple(start.revealed) == before.debug_deck_order()[:size]
    assert start.deck_left == before.deck_count - size == after.deck_count
    check_automatic_steps(after, events, karma, tuple(start.revealed), None, first_roll_reason(before.rules))


def spec_greedy(state):
    """Spec 12 greedy: the cheapest legal die, the largest rec - cost, the first in spec 8's order."""
    board, best, best_score = board_of(state), None, None
    for action in spec_legal_actions(state):
        costs = [
            abs(die_value(state.roll, d) - number(action.card, d))
            for d in ("BLUE", "WHITE")
            if die_value(state.roll, d) != number(action.card, d)
        ]
        cost = abs(die_value(state.roll, action.die) - number(action.card, action.die))
        if cost != min(costs):
            continue
        score = spec_rec(state.rules, board, action.card, action.cell, action.orientation) - cost
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


def random_rules(rng):
    values = {name: rng.choice(allowed) for name, allowed in CHOICES.items()}
    values.update({name: rng.random() < 0.5 for name in SWITCHES})
    values["starting_karma"] = rng.choice([1, 2, 4, 7, 10, 13])
    return Rules(**values)


RULE_SETS = list(SINGLE_VARIANTS.values()) + [random_rules(random.Random(i)) for i in range(20)]


# ----------------------------------------------------------------------------- spec 3, the deck


def test_spec3_deck_file_is_the_spec_table():  # spec 3: the data file holds exactly the table
    state = new_game(seed=0)
    assert state.cards.ids == tuple(SPEC_DECK)
    for card in state.cards:
        name, blue, white, *half = SPEC_DECK[card.id]
        assert (card.name, card.blue, card.white, list(card.half)) == (name, blue, white, half)
        assert (card.number("BLUE"), card.number("WHITE")) == (blue, white)


# ----------------------------------------------------------------------------- spec 2 and 4, setup


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(centre_config="YANG_LEFT"),
        Rules(grid="4x3"),
        Rules(grid="4x3", centre_config="YANG_LEFT"),
        Rules(starting_karma=4),
    ],
    ids=str,
)
def test_spec4_setup(rules):  # spec 4: centre by the configuration, Karma = starting_karma, 3 cards revealed
    state = new_game(seed=8, rules=rules)
    assert board_of(state) == {
        cell: ("centre", colour) for cell, colour in centre_layout(rules, rules.centre_config).items()
    }
    assert (state.karma, state.status, state.turn, len(state.revealed), state.deck_count) == (
        rules.starting_karma,
        "ONGOING",
        1,
        3,
        7,
    )
    assert state.legal_cells() == spec_legal_cells(rules, board_of(state))
    kinds = [event.kind for event in state.log]
    assert kinds[:3] == ["setup", "turn_start", "roll"] and state.log[2].reason == first_roll_reason(rules)
    assert state.log[0].rules == rules.to_dict()  # spec 8: parameters recorded in the log


def test_spec9_random_centre_is_drawn_once_at_setup():  # spec 9 centre_config = RANDOM
    seen = set()
    for seed in range(30):
        state = new_game(seed=seed, rules=Rules(centre_config="RANDOM"))
        setups = [e for e in state.log if e.kind == "setup"]
        assert len(setups) == 1 and setups[0].centre in ("YIN_LEFT", "YANG_LEFT")
        assert board_of(state) == {c: ("centre", k) for c, k in centre_layout(state.rules, setups[0].centre).items()}
        while not state.is_terminal:  # it never changes during the game
            state = state.apply(greedy_policy(state))
        assert state.centre == setups[0].centre
        seen.add(state.centre)
    assert seen == {"YIN_LEFT", "YANG_LEFT"}


def test_spec8_scripted_deck_with_random_centre_and_explicit_chance():  # spec 8 scripted mode, spec 9 RANDOM
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS, rules=Rules(centre_config="RANDOM"), explicit_chance=True)
    assert state.current_player == CHANCE and state.pending == "centre"
    state = state.apply("YIN_LEFT")  # the centre is the only chance left: deck and rolls are scripted
    assert (state.current_player, state.revealed, state.roll) == (0, ("A6", "A3", "A5"), (3, 5))
    for move in S1_MOVES:
        state = state.apply(Action(*move))
    assert (state.status, state.karma) == ("WON", 9)  # spec 11, T10


# ----------------------------------------------------------------------------- spec 2, 6, 7, 8: the oracle


def test_spec2_legal_cells_on_random_partial_boards():  # spec 2 adjacency, both grids
    rng = random.Random(4)
    for grid in ("3x4", "4x3"):
        rules = Rules(grid=grid, starting_karma=1000)
        for _ in range(60):
            state = new_game(seed=rng.randrange(10**6), rules=rules)
            for _ in range(rng.randrange(10)):
                assert state.legal_cells() == spec_legal_cells(rules, board_of(state))
                state = state.apply(random_policy(state, rng))


def play_and_check(rules, seed, policy, probe_illegal=False):
    rng = random.Random(seed)
    state = new_game(seed=seed, rules=rules)
    check_game_start(state)
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal == spec_legal_actions(state)  # spec 6 conditions, spec 8 order
        if probe_illegal:
            probe_illegal_actions(state, set(legal), rng)
        action = policy(state, rng)
        if policy is greedy_policy:
            assert action == spec_greedy(state)  # spec 12
        after = state.apply(action)
        check_transition(state, action, after)
        state = after
    return state


def check_game_start(state):
    """Spec 4-6: Setup, the first turn of 3 cards, its roll and any stuck rerolls."""
    events = list(state.log)
    assert events.pop(0).kind == "setup"
    start = events.pop(0)
    assert (start.kind, start.turn, len(start.revealed), start.deck_left) == ("turn_start", 1, 3, 7)
    if state.is_terminal:  # only a stuck penalty can end a game before the first placement
        assert state.rules.stuck_rule == "reroll_penalty_1" and state.status == "LOST"
        return
    check_automatic_steps(
        state, events, state.rules.starting_karma, tuple(start.revealed), None, first_roll_reason(state.rules)
    )


def probe_illegal_actions(state, legal, rng):
    """Spec 6: any action outside the legal list raises IllegalMove and leaves the state unchanged."""
    rows, cols, _ = SHAPES[state.rules.grid]
    for _ in range(6):
        action = Action(
            rng.choice(list(SPEC_DECK)),
            rng.choice(("BLUE", "WHITE")),
            (rng.randrange(-1, rows + 1), rng.randrange(-1, cols + 1)),
            rng.choice((0, 180, 90)),
        )
        if action in legal:
            continue
        before = state.to_json()
        with pytest.raises(IllegalMove) as caught:
            state.apply(action)
        assert caught.value.reason and state.to_json() == before


@pytest.mark.parametrize("index", range(len(RULE_SETS)), ids=lambda i: str(RULE_SETS[i]))
def test_spec5_to_9_every_step_against_an_independent_reading(index):
    rules = RULE_SETS[index]
    for seed in range(40):
        play_and_check(rules, seed, random_policy, probe_illegal=seed < 5)
        play_and_check(rules, 1000 + seed, greedy_policy)


# ----------------------------------------------------------------------------- spec 5, 7, 9: scripted positions


def test_spec7_after_recovery_final_card_loss_comes_before_the_win():  # spec 9 defeat_check = after_recovery
    # S1 (spec 11, T10) with starting_karma 5: Karma 3 before the final card A7 (1,6). The last roll
    # (6,1) makes both dice cost 5: Karma 3 - 5 = -2, A7 is placed with rec 2 (gain 2 under the start
    # value 5), Karma 0. The ring is full but Karma is 0: LOST, because the loss check comes first.
    rules = Rules(defeat_check="after_recovery", starting_karma=5)
    before = play_script(S1_MOVES[:9], rolls=S1_ROLLS[:-1] + [(6, 1)], rules=rules)
    assert (before.karma, before.revealed, before.roll) == (3, ("A7",), (6, 1))
    final = before.apply(Action(*S1_MOVES[9]))
    last = final.placements()[-1]
    assert (last.cost, last.rec, last.gain, last.karma, last.placed) == (5, 2, 2, 0, True)
    assert (final.status, final.karma, len(final.placed_cards())) == ("LOST", 0, 10)
    assert final.log[-1].status == "LOST"
    # Under the default after_payment the same script ends earlier: A9 costs 4 at Karma 4 (turn 3).
    default = play_script(S1_MOVES[:7], rolls=S1_ROLLS[:-1] + [(6, 1)], rules=Rules(starting_karma=5))
    last = default.placements()[-1]
    assert (last.card, last.cost, last.karma, last.placed, default.status) == ("A9", 4, 0, False, "LOST")


# The teaching deck's half circles with every card numbered (1,6): the roll (1,6) blocks any turn.
SAME_NUMBERS = [
    {"id": card_id, "name": name, "blue": 1, "white": 6, "half": dict(zip(EDGE_STEP, half))}
    for card_id, (name, _, _, *half) in SPEC_DECK.items()
]


def test_spec5_turn_start_karma_is_taken_before_the_stuck_penalty():  # spec 5 and spec 9 cap_rule = before_turn
    # Every card (1,6); rolls (2,2) cost 1 on the blue die. Turn 1 places A6, A3, A5 with rec 1 each
    # and recovers nothing (before_turn): Karma 7. Turn 2 starts at Karma 7 (turn_start_karma), then
    # (1,6) blocks all three cards: 1 Karma paid (6) and a reroll (2,2). The turn may recover
    # 10 - 7 = 3 in all: A1 (rec 2) -> 6 - 1 + 2 = 7; A2 (rec 2) -> 7 - 1 + 1 = 7; A10 (rec 2) -> 6.
    # (Taking turn_start_karma after the penalty would allow 4 and end the turn at Karma 7.)
    rules = Rules(cap_rule="before_turn", stuck_rule="reroll_penalty_1")
    moves = [
        ("A6", "BLUE", (0, 1)),
        ("A3", "BLUE", (1, 0)),
        ("A5", "BLUE", (2, 1)),
        ("A1", "BLUE", (0, 0)),
        ("A2", "BLUE", (0, 2)),
        ("A10", "BLUE", (2, 0)),
    ]
    state = play_script(moves, rolls=[(2, 2), (1, 6), (2, 2), (2, 2)], rules=rules, cards=load_deck(SAME_NUMBERS))
    placed = state.placements()
    assert [(e.cost, e.rec, e.gain, e.karma) for e in placed] == [
        (1, 1, 0, 9),
        (1, 1, 0, 8),
        (1, 1, 0, 7),
        (1, 2, 2, 7),
        (1, 2, 1, 7),
        (1, 2, 0, 6),
    ]
    assert [e.karma for e in state.log if e.kind == "stuck_penalty"] == [6]
    assert state.karma == 6 and state.turn == 3


def test_spec9_per_placement_stuck_rule_on_every_roll():  # spec 9 roll_timing = per_placement, spec 6
    # A6 on (3,5); a fresh roll (2,2) for A3 (2,5): blue equals, white costs 3; a fresh roll (3,4)
    # for A5 (3,4) blocks it: stuck reroll (4,4), blue cost 1. Each recovers 1 at the centre (Yin).
    rules = Rules(roll_timing="per_placement")
    state = play_script(
        [("A6", "BLUE", (0, 1)), ("A3", "WHITE", (1, 0)), ("A5", "BLUE", (2, 1))],
        rolls=[(3, 5), (2, 2), (3, 4), (4, 4), (6, 6)],
        rules=rules,
    )
    rolls = [(e.blue, e.white, e.reason) for e in state.log if e.kind == "roll"]
    assert rolls == [
        (3, 5, "placement"),
        (2, 2, "placement"),
        (3, 4, "placement"),
        (4, 4, "stuck"),
        (6, 6, "placement"),
    ]
    assert [(e.cost, e.karma) for e in state.placements()] == [(1, 10), (3, 8), (1, 8)]
    assert (state.turn, state.roll) == (2, (6, 6))


def test_spec9_rotation_of_both_neighbours():  # spec 9 allow_rotation: colours of opposite(e), on both cards
    rules = Rules(allow_rotation=True, starting_karma=1000)
    # A6 turned: TOP shows BOTTOM (Yin), BOTTOM shows TOP (Yang), LEFT shows RIGHT (Yin).
    # At (0,1) its BOTTOM (Yang) meets the Yin centre: no match.
    state = play_script([("A6", "BLUE", (0, 1), 180)], rolls=[(3, 5)] * 4, rules=rules)
    assert state.placements()[-1].rec == 0
    # A3 turned at (0,0): its RIGHT shows its printed LEFT (Yang); A6's LEFT shows Yin: no match.
    # Upright, A3's RIGHT is Yin and matches.
    assert state.recovery("A3", (0, 0), 180) == 0 and state.recovery("A3", (0, 0), 0) == 1
    turned = state.apply(Action("A3", "BLUE", (0, 0), 180))
    assert turned.placements()[-1].rec == 0 and turned.card_at((0, 0))[1] == 180


def test_spec9_4x3_centre_edges_score():  # spec 9 grid = "4x3": the listed ring-centre edges
    rules = Rules(grid="4x3")
    state = new_game(deck=S1_DECK, rolls=[(6, 6)], rules=rules)
    # A6 (TOP Yang, RIGHT Yin, BOTTOM Yin, LEFT Yang); upper centre (1,1) Yin, lower (2,1) Yang.
    expected = {
        (0, 1): 1,  # BOTTOM Yin against Yin
        (1, 0): 1,
        (2, 0): 0,  # RIGHT Yin against Yin (1) at (1,0); against Yang (0) at (2,0)
        (1, 2): 0,
        (2, 2): 1,  # LEFT Yang against Yin (0) at (1,2); against Yang (1) at (2,2)
        (3, 1): 1,
    }  # TOP Yang against Yang
    assert {cell: state.recovery("A6", cell) for cell in state.legal_cells()} == expected


def test_spec8_log_fields_of_scripted_game_s1():  # spec 8 log events, every field, on spec 11 T10
    state = play_script(S1_MOVES)
    assert [tuple(e.revealed) for e in state.log if e.kind == "turn_start"] == [
        ("A6", "A3", "A5"),
        ("A1", "A2", "A10"),
        ("A8", "A9", "A4"),
        ("A7",),
    ]
    assert [e.deck_left for e in state.log if e.kind == "turn_start"] == [7, 4, 1, 0]
    assert [(e.blue, e.white, e.reason) for e in state.log if e.kind == "roll"] == [
        (3, 5, "turn"),
        (2, 2, "turn"),
        (6, 1, "turn"),
        (5, 3, "stuck"),
        (2, 3, "turn"),
    ]
    assert [(e.card, e.die, e.cell, e.orientation) for e in state.placements()] == [
        (card, die, cell, 0) for card, die, cell in S1_MOVES
    ]
    assert (state.log[-1].kind, state.log[-1].status, state.log[-1].karma) == ("game_end", "WON", 9)
    assert state.log[0].kind == "setup" and state.log[0].rules == Rules().to_dict()


# ----------------------------------------------------------------------------- spec 8: observation, copy, chance


def test_spec8_observation_does_not_depend_on_the_deck_order():  # spec 8: never the deck order
    rng = random.Random(6)
    for seed in range(30):
        state = new_game(seed=seed)
        for _ in range(rng.randrange(7)):
            if not state.is_terminal:
                state = state.apply(random_policy(state, rng))
        hidden = list(state.deck)
        rng.shuffle(hidden)
        other = replace(state, deck=tuple(hidden))  # same position, another hidden order
        assert json.dumps(state.observation(0)) == json.dumps(other.observation(0))
        view = state.observation(0)
        assert (view["karma"], view["status"], view["turn"], view["deck_count"]) == (
            state.karma,
            state.status,
            state.turn,
            len(hidden),
        )
        assert sorted(view["unseen"]) == sorted(hidden)
        assert view["dice"] == {"BLUE": state.roll[0], "WHITE": state.roll[1]}
        assert [card["id"] for card in view["revealed"]] == list(state.revealed)


def test_spec8_copy_is_independent():  # spec 8 search support
    state = new_game(seed=2)
    copy = state.copy()
    after = copy.apply(copy.legal_actions()[0])
    assert copy == state and after != state and state.placements() == []


def test_spec8_chance_outcomes_are_exact_at_every_node():  # spec 8, and the seeded driver samples the same tree
    rng = random.Random(9)
    for index, rules in enumerate(RULE_SETS[:15]):
        seeded = new_game(seed=index, rules=rules)
        explicit = new_game(seed=index, rules=rules, explicit_chance=True)
        if rules.centre_config == "RANDOM":
            explicit = explicit.apply(seeded.centre)
        drawn = list(seeded.log)
        while True:  # drive the explicit game with the seeded game's outcomes
            if explicit.pending:
                outcomes = explicit.chance_outcomes()
                assert sum(p for _, p in outcomes) == 1 and len({o for o, _ in outcomes}) == len(outcomes)
                if explicit.pending == "roll":
                    assert sorted(o for o, _ in outcomes) == [(b, w) for b in range(1, 7) for w in range(1, 7)]
                    assert {p for _, p in outcomes} == {Fraction(1, 36)}
                else:
                    assert sorted(o for o, _ in outcomes) == sorted(explicit.unseen_cards())
                    assert {p for _, p in outcomes} == {Fraction(1, len(explicit.unseen_cards()))}
                explicit = explicit.apply(next_outcome(explicit, seeded))
                continue
            assert list(explicit.log) == drawn[: len(explicit.log)]
            if seeded.is_terminal:
                break
            action = random_policy(seeded, rng)
            seeded, explicit = seeded.apply(action), explicit.apply(action)
            drawn = list(seeded.log)
        assert explicit.log == seeded.log and explicit.status == seeded.status


def next_outcome(explicit, seeded):
    """The outcome the seeded game drew at the explicit game's next chance node (read from its log)."""
    done = len(explicit.log)
    future = seeded.log[done:]
    if explicit.pending == "roll":
        roll = next(e for e in future if e.kind == "roll")
        return (roll.blue, roll.white)
    turn_start = next(e for e in future if e.kind == "turn_start")
    return turn_start.revealed[len(explicit.revealed)]


def test_spec8_seeded_draws_are_uniform():  # spec 4 shuffle and spec 5 rolls: the sampler matches 1/10 and 1/36
    firsts, rolls = {}, {}
    games = 3600
    for seed in range(games):
        state = new_game(seed=seed)
        firsts[state.revealed[0]] = firsts.get(state.revealed[0], 0) + 1
        first_roll = next(e for e in state.log if e.kind == "roll")
        rolls[(first_roll.blue, first_roll.white)] = rolls.get((first_roll.blue, first_roll.white), 0) + 1
    assert len(firsts) == 10 and len(rolls) == 36
    # expected 360 per card (sd 18) and 100 per roll (sd 9.9): bounds at about 5 sd
    assert all(270 <= n <= 450 for n in firsts.values()) and all(50 <= n <= 150 for n in rolls.values())


# ----------------------------------------------------------------------------- spec 6, 8, 9: inputs


def test_spec6_orientation_must_be_exactly_0_or_180():  # spec 6: orientation in {0, 180}
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS, rules=Rules(allow_rotation=True))
    for bad in (False, True, 0.0, 180.0, "0", 90):
        with pytest.raises(IllegalMove, match="orientation"):
            state.apply(Action("A6", "BLUE", (0, 1), bad))


@pytest.mark.parametrize(
    "changes, words",
    [  # spec 8: validated with a readable message
        ({"roll_timing": "per_card"}, ["roll_timing", "'per_turn'", "'per_placement'", "'per_card'"]),
        ({"cap_rule": None}, ["cap_rule", "'start_value'", "'before_placement'", "'before_turn'"]),
        ({"defeat_check": "AFTER_PAYMENT"}, ["defeat_check", "'after_payment'", "'after_recovery'"]),
        ({"centre_config": "random"}, ["centre_config", "'YIN_LEFT'", "'YANG_LEFT'", "'RANDOM'"]),
        ({"stuck_rule": "reroll_penalty_2"}, ["stuck_rule", "'reroll'", "'reroll_penalty_1'"]),
        ({"grid": "3X4"}, ["grid", "'3x4'", "'4x3'"]),
        ({"allow_rotation": "false"}, ["allow_rotation", "True or False"]),
        ({"centre_match_counts_as_circle": 0}, ["centre_match_counts_as_circle", "True or False"]),
        ({"starting_karma": 0}, ["starting_karma", "from 1 to 1000"]),
        ({"starting_karma": -3}, ["starting_karma", "from 1 to 1000"]),
        ({"starting_karma": 1001}, ["starting_karma", "from 1 to 1000"]),  # issue 9: bounded above too
        ({"starting_karma": 10.0}, ["starting_karma", "whole number"]),
        ({"starting_karma": True}, ["starting_karma", "whole number"]),
    ],
)
def test_spec9_rules_validation_messages(changes, words):
    with pytest.raises(ValueError) as caught:
        Rules(**changes)
    assert all(word in str(caught.value) for word in words), str(caught.value)


def test_spec9_every_value_of_every_parameter_is_accepted():  # spec 9: every combination supported
    for name, allowed in CHOICES.items():
        for value in allowed:
            assert getattr(Rules(**{name: value}), name) == value
    assert Rules(starting_karma=1).starting_karma == 1 and Rules(starting_karma=99).starting_karma == 99


@pytest.mark.parametrize("index", range(len(RULE_SETS)), ids=lambda i: str(RULE_SETS[i]))
def test_spec8_json_round_trip_of_every_variant_at_every_step(index):  # spec 8, design: saves
    rules = RULE_SETS[index]
    rng = random.Random(index)
    for explicit in (False, True):
        state = new_game(seed=index, rules=rules, explicit_chance=explicit)
        while True:
            restored = State.from_json(state.to_json())
            assert restored == state and restored.to_json() == state.to_json()
            if state.is_terminal:
                break
            if state.pending:
                state = state.apply(rng.choice(state.chance_outcomes())[0])
            else:
                state = state.apply(random_policy(state, rng))
