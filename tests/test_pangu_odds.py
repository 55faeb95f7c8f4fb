"""Exact Pangu odds (spec 11 T4-T9, spec 13), each checked against the spec's numbers and a
brute-force enumeration that does not use the helper under test."""

import dataclasses
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from gamelib.dist import Dist
from gamelib.pangu import Action, Rules, new_game, odds, teaching_deck
from pangu_support import S1_DECK, S1_MOVES, S1_ROLLS

F = Fraction


# ----------------------------------------------------------------------------- T5


def test_t5_one_die_against_one_number():  # spec 11, T5
    banned = [F(3), F(11, 5), F(9, 5), F(9, 5), F(11, 5), F(3)]
    free = [F(5, 2), F(11, 6), F(3, 2), F(3, 2), F(11, 6), F(5, 2)]
    for n in range(1, 7):
        assert odds.die_cost(n).mean() == banned[n - 1]
        assert odds.die_cost(n, banned=False).mean() == free[n - 1]
        brute = [abs(d - n) for d in range(1, 7) if d != n]  # brute force: the five allowed faces
        assert odds.die_cost(n).mean() == F(sum(brute), len(brute))
        assert odds.die_cost(n).mean() > odds.die_cost(n, banned=False).mean()  # spec 13.1: the ban raises every cost


# ----------------------------------------------------------------------------- T6


def brute_cheapest_counts(blue, white):
    counts = Counter()
    for b in range(1, 7):
        for w in range(1, 7):
            legal = [abs(b - blue)] * (b != blue) + [abs(w - white)] * (w != white)
            counts[min(legal) if legal else "blocked"] += 1
    return counts


@pytest.mark.parametrize(
    "numbers, counts, mean",
    [  # spec 11, T6
        ((1, 6), {1: 11, 2: 9, 3: 7, 4: 5, 5: 3}, F(17, 7)),
        ((6, 1), {1: 11, 2: 9, 3: 7, 4: 5, 5: 3}, F(17, 7)),
        ((2, 5), {1: 20, 2: 7, 3: 5, 4: 3}, F(61, 35)),
        ((5, 2), {1: 20, 2: 7, 3: 5, 4: 3}, F(61, 35)),
        ((3, 4), {1: 20, 2: 12, 3: 3}, F(53, 35)),
        ((4, 3), {1: 20, 2: 12, 3: 3}, F(53, 35)),
    ],
)
def test_t6_cost_of_one_card(numbers, counts, mean):
    assert odds.blocked_probability(numbers) == F(1, 36)
    assert dict(odds.card_cost_counts(numbers)) == counts
    assert odds.card_cost(numbers).mean() == mean
    brute = brute_cheapest_counts(*numbers)
    assert brute.pop("blocked") == 1 and dict(brute) == counts


def test_t6_cost_law_closed_form():  # spec 11 T6 and spec 13.2: P(cost = k) = (13 - 2k)/35
    law = odds.card_cost((1, 6))
    brute = brute_cheapest_counts(1, 6)
    for k in range(1, 6):
        assert law.probability(k) == odds.cost_law_formula(k) == F(13 - 2 * k, 35) == F(brute[k], 35)


# ----------------------------------------------------------------------------- T7


@pytest.mark.parametrize(
    "numbers, row",
    [  # spec 11, T7: karma 1..6
        ((1, 6), [0, F(11, 35), F(20, 35), F(27, 35), F(32, 35), 1]),
        ((2, 5), [0, F(20, 35), F(27, 35), F(32, 35), 1, 1]),
        ((3, 4), [0, F(20, 35), F(32, 35), 1, 1, 1]),
    ],
)
def test_t7_final_card(numbers, row):
    assert [odds.final_card_win_probability(numbers, karma) for karma in range(1, 7)] == row
    assert odds.final_card_win_probability(numbers, 9) == 1


def test_t7_through_the_engine():  # spec 11, T7: the final card wins iff cost < karma
    moves = S1_MOVES  # spec 11 T10's game S1
    state = new_game(seed=0, deck=S1_DECK, rolls=S1_ROLLS[:4])
    for move in moves[:8]:
        state = state.apply(Action(*move))
    state = state.with_explicit_chance().apply(Action(*moves[8]))
    assert state.pending == "draw" and state.chance_outcomes() == [("A7", 1)]  # the deck order is hidden
    state = state.apply("A7")
    assert state.revealed == ("A7",) and state.pending == "roll"  # A7 is a (1,6) card, alone
    row = []
    for karma in range(1, 7):
        position = dataclasses.replace(state, karma=karma)  # the same final position with other Karma
        wins = rolls = 0
        for roll, _ in position.chance_outcomes():
            after = position.apply(roll)
            if after.pending == "roll":  # the roll blocked A7: rerolled, so it does not count
                continue
            rolls += 1
            final = after.apply(Action("A7", after.cheapest_die("A7")[0], (2, 3)))
            wins += final.status == "WON"
        row.append(F(wins, rolls))
    assert rolls == 35
    assert row == [odds.final_card_win_probability((1, 6), k) for k in range(1, 7)]


# ----------------------------------------------------------------------------- T8


def engine_turn_cost(deck_order, turn_cards):
    """Brute force with the engine: the first turn's total cost, every roll enumerated as a chance node."""
    rules = Rules(starting_karma=1000)  # ignore defeat (spec 11 T8)
    start = new_game(deck=deck_order, rules=rules, explicit_chance=True)
    assert start.revealed == tuple(turn_cards)

    def dist(state):
        if state.turn != 1 or state.pending == "draw" or state.is_terminal:
            return Dist.constant(0)
        if state.pending == "roll":
            weights = Counter()
            children = [state.apply(roll) for roll, _ in state.chance_outcomes()]
            kept = [
                c
                for c in children
                if not (
                    c.pending == "roll" and c.roll_reason == "stuck" and len(c.placements()) == len(state.placements())
                )
            ]
            for child in kept:  # stuck rolls are rerolled: condition on the others
                for cost, p in dist(child).items():
                    weights[cost] += p
            return Dist.from_weights(weights)
        card = next(c for c in state.revealed if state.cheapest_die(c))
        die, cost = state.cheapest_die(card)
        after = state.apply(Action(card, die, state.legal_cells()[0]))
        return dist(after) + cost

    return dist(start)


@pytest.mark.parametrize(
    "first_three", [("A1", "A7", "A2"), ("A1", "A2", "A5"), ("A3", "A4", "A9"), ("A5", "A6", "A1")]
)
def test_t8_turn_cost_matches_engine_enumeration(first_three):  # spec 11, T8 (shared roll, stuck rerolls)
    rest = [c for c in teaching_deck().ids if c not in first_three]
    numbers = [(teaching_deck()[c].blue, teaching_deck()[c].white) for c in first_three]
    order = list(first_three) + rest
    explicit = new_game(deck=order, rules=Rules(starting_karma=1000), explicit_chance=True)
    assert explicit.pending == "roll"
    assert odds.turn_cost(numbers) == engine_turn_cost(order, first_three)


def test_t8_expected_total_cost():  # spec 11, T8: 138/7 for every deal
    assert odds.expected_total_cost() == F(138, 7)
    rng = random.Random(8)
    deck = teaching_deck()
    for _ in range(5):
        order = list(deck.ids)
        rng.shuffle(order)
        deal = [(deck[c].blue, deck[c].white) for c in order]
        assert odds.deal_total_cost(deal).mean() == F(138, 7)


def test_t8_spread_over_random_deals():  # spec 11, T8: SD about 3.589, range 10..42
    summary = odds.total_cost_over_deals()
    assert summary["deals"] == 16800 and summary["mean"] == F(138, 7)
    assert round(summary["sd"], 3) == 3.589
    assert (summary["min"], summary["max"]) == (10, 42)


# ----------------------------------------------------------------------------- T9


@pytest.mark.parametrize(
    "a, b, same_roll, with_rerolls",
    [  # spec 11, T9
        ((1, 6), (1, 6), 1, 1),
        ((1, 6), (3, 4), 0.498, 0.480),
        ((1, 6), (6, 1), -0.159, -0.133),
        ((2, 5), (5, 2), -0.270, -0.249),
        ((3, 4), (4, 3), -0.244, -0.232),
    ],
)
def test_t9_shared_roll_correlation(a, b, same_roll, with_rerolls):
    assert round(odds.correlation(odds.pair_costs(a, b, stuck_rerolls=False)), 3) == same_roll
    assert round(odds.correlation(odds.pair_costs(a, b, stuck_rerolls=True)), 3) == with_rerolls


def test_t9_pair_marginals_are_the_card_laws():  # spec 11 T6: the card's law also holds inside a turn
    joint = odds.pair_costs((1, 6), (6, 1))
    assert joint.marginal(0) == odds.card_cost((1, 6)) and joint.marginal(1) == odds.card_cost((6, 1))
    brute = Counter()  # same roll: brute force over the 36 rolls
    for blue, white in itertools.product(range(1, 7), repeat=2):
        ca = odds.cheapest_cost((1, 6), (blue, white))
        cb = odds.cheapest_cost((3, 4), (blue, white))
        if ca is not None and cb is not None:
            brute[(ca, cb)] += 1
    assert odds.pair_costs((1, 6), (3, 4), stuck_rerolls=False) == Dist.from_weights(brute)


# ----------------------------------------------------------------------------- T4


T4_COUNTS = {
    0: 64,
    1: 992,
    2: 7232,
    3: 31968,
    4: 98464,
    5: 229536,
    6: 417920,
    7: 600832,
    8: 688512,
    9: 645600,
    10: 464832,
    11: 272992,
    12: 121696,
    13: 37792,
    14: 9600,
    15: 704,
    16: 64,
}


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(centre_config="YANG_LEFT"), Rules(grid="4x3"), Rules(grid="4x3", centre_config="YANG_LEFT")],
    ids=str,
)
def test_t4_all_layouts(rules):  # spec 11, T4
    counts = odds.layout_score_counts(rules)
    assert dict(counts) == T4_COUNTS
    assert sum(counts.values()) == 3_628_800
    assert F(sum(score * n for score, n in counts.items()), 3_628_800) == F(73, 9)


def test_layout_counting_agrees_with_direct_scoring():  # oracle: score random full layouts both ways
    rng = random.Random(4)
    ring = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]
    assert sorted(odds.ring_cycle()) == sorted(ring)
    counts = Counter()
    ids = list(teaching_deck().ids)
    for _ in range(3000):
        rng.shuffle(ids)
        counts[odds.layout_score(dict(zip(ring, ids)))] += 1
    for score, n in counts.items():  # a sample's frequencies sit near T4's exact shares
        expected = 3000 * T4_COUNTS[score] / 3_628_800
        assert abs(n - expected) <= 5 * expected**0.5 + 3
