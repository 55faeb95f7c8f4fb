"""The Pangu solver (issue 11) against its reference figures and an independent brute force.

Expected numbers cite ``docs/pangu_solver.md`` (reference figures: root value, S1 checkpoints)
and the rules spec ``shared/rules/pangu.md`` (T7, T10). The brute force below is written from
the spec alone: (row, col) boards, every card, both dice, every cell and orientation, every
roll; a free stuck reroll is followed explicitly by its closed form V = S / (36 - blocked)
(the reroll leads back to the same position), a paid one as a chance node.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

import pytest

from gamelib.core import CHANCE
from gamelib.pangu import Action, Rules, new_game
from gamelib.pangu import solver

S1_DECK = ["A6", "A3", "A5", "A1", "A2", "A10", "A8", "A9", "A4", "A7"]  # spec T10
S1_ROLLS = [(3, 5), (2, 2), (6, 1), (5, 3), (2, 3)]
S1_MOVES = [
    ("A6", "BLUE", (0, 1)),
    ("A3", "BLUE", (1, 0)),
    ("A5", "WHITE", (2, 1)),
    ("A1", "BLUE", (0, 0)),
    ("A2", "WHITE", (0, 2)),
    ("A10", "BLUE", (2, 0)),
    ("A9", "BLUE", (1, 3)),
    ("A4", "BLUE", (0, 3)),
    ("A8", "BLUE", (2, 2)),
    ("A7", "BLUE", (2, 3)),
]


def s1_after(moves: int):
    state = new_game(deck=S1_DECK, rolls=S1_ROLLS)
    for card, die, cell in S1_MOVES[:moves]:
        state = state.apply(Action(card, die, cell))
    return state


def at_next_turn_start(state):
    """The same position as a chance node before the next turn's draw (the deck order hidden)."""
    return state.with_explicit_chance()


# --------------------------------------------------------------------------- the reference figures


def test_final_card_values_are_spec_t7():
    # spec T7, (1,6)-type card: 0, 11/35, 20/35, 27/35, 32/35, 1 for Karma 1..6
    state = s1_after(9)  # only A7 (1,6) is left, with its roll (2,3) showing
    assert state.revealed == ("A7",)
    filled, colours, unseen, hand, _, _, _ = solver.position_of(state)
    exact = solver.solver_of(state)
    values = [exact.roll_node(filled, colours, unseen, hand, karma, 0) for karma in range(1, 7)]
    assert values == [0, Fraction(11, 35), Fraction(20, 35), Fraction(27, 35), Fraction(32, 35), 1]


# --------------------------------------------------------------------------- brute force, from the spec


def brute_force(state) -> Fraction:
    """Exact optimal P(WON) by full expectimax over (row, col) boards, all actions and outcomes."""
    rules, cards, geometry = state.rules, state.cards, state.geometry
    centre = dict(state.centre_cells)
    ring = set(geometry.ring)
    ceiling = rules.starting_karma
    worth = 2 if rules.centre_match_counts_as_circle else 1
    orientations = (0, 180) if rules.allow_rotation else (0,)
    rolls = [(b, w) for b in range(1, 7) for w in range(1, 7)]

    def colour(card_id, orientation, edge):
        return cards[card_id].half[(edge + (2 if orientation == 180 else 0)) % 4]

    def legal_cells(board):
        return [
            cell
            for cell in sorted(ring)
            if cell not in board and any(other in board or other in centre for _, other in geometry.neighbours(cell))
        ]

    def recovery(board, card_id, orientation, cell):
        rec = 0
        for edge, other in geometry.neighbours(cell):
            mine = colour(card_id, orientation, edge)
            if other in centre:
                rec += worth if mine == centre[other] else 0
            elif other in board:
                theirs = colour(*board[other], (edge + 2) % 4)
                rec += 1 if mine == theirs else 0
        return rec

    def blocked_all(hand, roll):
        return all(roll == (cards[c].blue, cards[c].white) for c in hand)

    @lru_cache(maxsize=None)
    def turn_start(board, unseen, karma):
        size = min(3, len(unseen) - 1) if len(unseen) > 1 else 1
        from itertools import combinations

        hands = list(combinations(unseen, size))
        allowance = ceiling - karma
        return sum(roll_node(board, tuple(c for c in unseen if c not in h), h, karma, allowance) for h in hands) / len(
            hands
        )

    @lru_cache(maxsize=None)
    def roll_node(board, unseen, hand, karma, allowance):
        total, blocked = Fraction(0), 0
        for roll in rolls:
            if blocked_all(hand, roll):
                blocked += 1
            else:
                total += decide(board, unseen, hand, roll, karma, allowance)
        if not blocked:
            return total / 36
        if rules.stuck_rule == "reroll":
            return total / (36 - blocked)
        paid = karma - 1
        after = Fraction(0) if paid <= 0 else roll_node(board, unseen, hand, paid, allowance)
        return (total + blocked * after) / 36

    @lru_cache(maxsize=None)
    def decide(board, unseen, hand, roll, karma, allowance):
        best = Fraction(0)
        board_map = dict(board)
        for card_id in hand:
            card = cards[card_id]
            for die, value, number in (("BLUE", roll[0], card.blue), ("WHITE", roll[1], card.white)):
                if value == number:
                    continue
                cost = abs(value - number)
                for cell in legal_cells(board_map):
                    for orientation in orientations:
                        best = max(
                            best,
                            place(board_map, unseen, hand, roll, karma, allowance, card_id, cost, cell, orientation),
                        )
        return best

    def place(board_map, unseen, hand, roll, karma, allowance, card_id, cost, cell, orientation):
        paid = karma - cost
        if paid <= 0 and rules.defeat_check == "after_payment":
            return Fraction(0)
        rec = recovery(board_map, card_id, orientation, cell)
        if rules.cap_rule == "start_value":
            gain = min(rec, ceiling - paid)
        elif rules.cap_rule == "before_placement":
            gain = min(rec, cost)
        else:
            gain = min(rec, ceiling - paid, allowance)
        karma = paid + gain
        if karma <= 0:
            return Fraction(0)
        board = dict(board_map)
        board[cell] = (card_id, orientation)
        if len(board) == len(ring):
            return Fraction(1)
        frozen = tuple(sorted(board.items()))
        rest = tuple(c for c in hand if c != card_id)
        if not rest:
            return turn_start(frozen, unseen, karma)
        if rules.roll_timing == "per_placement":
            return roll_node(frozen, unseen, rest, karma, allowance - gain)
        if blocked_all(rest, roll):
            if rules.stuck_rule == "reroll_penalty_1":
                return Fraction(0) if karma - 1 <= 0 else roll_node(frozen, unseen, rest, karma - 1, allowance - gain)
            return roll_node(frozen, unseen, rest, karma, allowance - gain)
        return decide(frozen, unseen, rest, roll, karma, allowance - gain)

    board = tuple(sorted((cell, (card.id, o)) for cell, (card, o) in state.placed_cards().items()))
    unseen = tuple(state.unseen_cards())
    allowance = ceiling - state.turn_start_karma - state.gained_this_turn
    if state.current_player == CHANCE:
        if not state.revealed:
            assert len(state.chance_outcomes()) == len(unseen)
            return turn_start(board, unseen, state.karma)
        return roll_node(board, unseen, tuple(state.revealed), state.karma, allowance)
    return decide(board, unseen, tuple(state.revealed), state.roll, state.karma, allowance)


def random_turn_three_position(rng: random.Random, rules: Rules):
    """A seeded random game played randomly into turn 3 (a decision, roll or draw node)."""
    while True:
        state = new_game(seed=rng.randrange(10**6), rules=rules)
        while state.status == "ONGOING" and state.turn < 3:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.status != "ONGOING":
            continue
        moves = rng.randrange(3)
        while moves and state.status == "ONGOING" and state.revealed:
            state = state.apply(rng.choice(state.legal_actions()))
            moves -= 1
        if state.status == "ONGOING":
            return state.with_explicit_chance()


def random_variant(rng: random.Random) -> Rules:
    return Rules(
        roll_timing=rng.choice(["per_turn", "per_turn", "per_placement"]),
        cap_rule=rng.choice(["start_value", "before_placement", "before_turn"]),
        defeat_check=rng.choice(["after_payment", "after_recovery"]),
        allow_rotation=rng.random() < 0.3,
        centre_config=rng.choice(["YIN_LEFT", "YANG_LEFT"]),
        stuck_rule=rng.choice(["reroll", "reroll_penalty_1"]),
        centre_match_counts_as_circle=rng.random() < 0.3,
        starting_karma=rng.choice([6, 8, 10]),
        grid=rng.choice(["3x4", "4x3"]),
    )


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_the_brute_force_under_the_default_rules(seed):
    state = random_turn_three_position(random.Random(seed), Rules())
    assert solver.win_probability(state) == brute_force(state)


@pytest.mark.parametrize("seed", range(8))
def test_agrees_with_the_brute_force_under_random_variants(seed):
    rng = random.Random(100 + seed)
    rules = random_variant(rng)
    state = random_turn_three_position(rng, rules)
    assert solver.win_probability(state) == brute_force(state), str(rules)


def test_action_values_agree_with_the_brute_force_and_the_best_is_the_value():
    rng = random.Random(7)
    for _ in range(3):
        state = random_turn_three_position(rng, Rules())
        while state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        values = solver.action_values(state)
        assert set(values) == set(state.legal_actions())
        for action, value in values.items():
            after = state.apply(action)
            assert value == (brute_force(after) if not after.is_terminal else Fraction(after.status == "WON"))
        assert max(values.values()) == solver.win_probability(state)


# --------------------------------------------------------------------------- the shipped tables


def rng_seed() -> int:
    return random.SystemRandom().randrange(2**32)  # a different sample on every run


def test_on_demand_values_are_monotone_in_karma():
    rng = random.Random(3)
    state = random_turn_three_position(rng, Rules(cap_rule="before_placement"))
    filled, colours, unseen, hand, roll, karma, allowance = solver.position_of(state)
    s = solver.solver_of(state)
    if not state.revealed:
        values = [s.turn_start(filled, colours, unseen, k) for k in range(1, 11)]
    else:
        values = [s.roll_node(filled, colours, unseen, hand, k, allowance) for k in range(1, 11)]
    assert values == sorted(values)


def test_positions_before_turn_three_under_a_variant_are_out_of_reach():
    state = new_game(seed=1, rules=Rules(cap_rule="before_placement"))
    with pytest.raises(solver.OutOfReach, match="python -m gamelib.pangu.solver optimal"):
        solver.win_probability(state)


# --------------------------------------------------------------------------- bots
