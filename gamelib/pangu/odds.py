"""Exact Pangu odds for the lessons (pangu.md#examples T4-T9, pangu.md#lessons), as :class:`gamelib.Dist` values.

A card is described here by its two numbers ``(blue, white)``; the dice are fair and
independent. "Cheapest cost" means the cost of the cheaper legal die. The stuck rule (pangu.md#placing)
rerolls both dice while no revealed card can use them, so a card's cost is always read off a
roll that does not block it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from math import sqrt

from gamelib.dist import Dist
from gamelib.pangu.cards import GEOMETRIES, YANG, YIN, Deck, teaching_deck, turn_sizes
from gamelib.pangu.rules import Rules

FACES = range(1, 7)
ROLLS = [(blue, white) for blue in FACES for white in FACES]
Numbers = tuple[int, int]  # (blue, white)


# --------------------------------------------------------------------------- one die, one card (T5-T7)


def die_cost(number: int, banned: bool = True) -> Dist:
    """``|d - number|`` for a fair die ``d``; with ``banned`` the die may not equal the number (T5)."""
    return Dist.uniform(abs(d - number) for d in FACES if not (banned and d == number))


def cheapest_cost(numbers: Numbers, roll: tuple[int, int]) -> int | None:
    """The cost of the cheaper legal die for a card on a roll, or None when the roll blocks the card."""
    costs = [abs(d - n) for d, n in zip(roll, numbers) if d != n]
    return min(costs) if costs else None


def blocked_probability(numbers: Numbers) -> Fraction:
    """P(a roll leaves the card no legal die): both dice equal its numbers, 1/36 (T6)."""
    return Fraction(sum(cheapest_cost(numbers, roll) is None for roll in ROLLS), 36)


def card_cost_counts(numbers: Numbers) -> Counter:
    """How many of the 35 non-blocking rolls give each cheapest cost (T6's table)."""
    return Counter(cost for roll in ROLLS if (cost := cheapest_cost(numbers, roll)) is not None)


def card_cost(numbers: Numbers) -> Dist:
    """The cheapest cost of a card given that the roll does not block it (T6).

    By the stuck rule this is also the card's exact cost law inside a real turn.
    """
    return Dist.from_weights(card_cost_counts(numbers))


def cost_law_formula(k: int) -> Fraction:
    """The closed form for a (1,6) card: P(cost = k) = (13 - 2k) / 35 for k = 1..5 (pangu.md#lessons)."""
    return Fraction(13 - 2 * k, 35) if 1 <= k <= 5 else Fraction(0)


def final_card_win_probability(numbers: Numbers, karma: int) -> Fraction:
    """P(win) when only the final card is left with ``karma``: it wins iff cost < karma (T7)."""
    return card_cost(numbers).probability_where(lambda cost: cost < karma)


# --------------------------------------------------------------------------- turns and games (T8, T9)


@cache
def _turn_cost(cards: tuple[Numbers, ...]) -> Dist:
    weights: Counter = Counter()
    rolls = [roll for roll in ROLLS if any(cheapest_cost(card, roll) is not None for card in cards)]
    for roll in rolls:  # the stuck rule: a roll blocking every card is rerolled
        paid = sum(c for card in cards if (c := cheapest_cost(card, roll)) is not None)
        blocked = tuple(card for card in cards if cheapest_cost(card, roll) is None)
        rest = _turn_cost(blocked) if blocked else Dist.constant(0)
        for cost, probability in rest.items():
            weights[paid + cost] += probability
    return Dist.from_weights(weights)


def turn_cost(cards: Iterable[Numbers]) -> Dist:
    """Total cheapest cost of one turn's cards under one shared roll and stuck rerolls (ignoring defeat).

    Cards the roll blocks are placed after the others, with a reroll (pangu.md#placing).
    """
    return _turn_cost(tuple(sorted(tuple(card) for card in cards)))


def _numbers(deck: Deck | None) -> list[Numbers]:
    return [(card.blue, card.white) for card in (deck or teaching_deck())]


def deal_total_cost(order: Sequence[Numbers]) -> Dist:
    """Total cheapest cost of a whole game for one deal (cards top first), turns of pangu.md#turns."""
    total, start = Dist.constant(0), 0
    for size in turn_sizes(len(order)):
        total = total + turn_cost(order[start : start + size])
        start += size
    return total


def expected_total_cost(deck: Deck | None = None) -> Fraction:
    """E[sum of cheapest costs] over a game: the sum of each card's mean cost, for every deal (T8: 138/7)."""
    return sum((card_cost(numbers).mean() for numbers in _numbers(deck)), Fraction(0))


def _deals_by_groups(numbers: list[Numbers]):
    """Every way to split the deck into the turns of pangu.md#turns (ordered groups), equally likely."""
    sizes = turn_sizes(len(numbers))

    def split(remaining: tuple[int, ...], sizes_left: list[int]):
        if not sizes_left:
            yield ()
            return
        for group in itertools.combinations(remaining, sizes_left[0]):
            rest = tuple(i for i in remaining if i not in group)
            for tail in split(rest, sizes_left[1:]):
                yield (group,) + tail

    for groups in split(tuple(range(len(numbers))), sizes):
        yield [tuple(numbers[i] for i in group) for group in groups]


def total_cost_over_deals(deck: Deck | None = None) -> dict:
    """Mean, standard deviation and range of the game's total cost over a uniformly random deal (T8).

    Exact: every split of the deck into turns is enumerated (16,800 for 3, 3, 3, 1).
    """
    numbers = _numbers(deck)
    count, second_moment, low, high = 0, Fraction(0), None, None
    for groups in _deals_by_groups(numbers):
        moments = [_turn_moments(tuple(sorted(group))) for group in groups]
        mean = sum(m[0] for m in moments)
        variance = sum(m[1] for m in moments)  # turns are independent
        second_moment += variance + mean * mean
        smallest = sum(m[2] for m in moments)
        largest = sum(m[3] for m in moments)
        low = smallest if low is None else min(low, smallest)
        high = largest if high is None else max(high, largest)
        count += 1
    mean = expected_total_cost(deck)
    variance = second_moment / count - mean * mean
    return {"mean": mean, "variance": variance, "sd": sqrt(variance), "min": low, "max": high, "deals": count}


@cache
def _turn_moments(cards: tuple[Numbers, ...]) -> tuple[Fraction, Fraction, int, int]:
    dist = _turn_cost(cards)
    return dist.mean(), dist.variance(), min(dist.outcomes), max(dist.outcomes)


def pair_costs(a: Numbers, b: Numbers, stuck_rerolls: bool = True) -> Dist:
    """Joint law of the cheapest costs ``(cost_a, cost_b)`` of two cards revealed in one turn (T9).

    Without ``stuck_rerolls``: uniform over the rolls that block neither card. With them: the
    exact law under the stuck rule (a blocked card gets a fresh roll of its own).
    """
    weights: Counter = Counter()
    if not stuck_rerolls:
        for roll in ROLLS:
            cost_a, cost_b = cheapest_cost(a, roll), cheapest_cost(b, roll)
            if cost_a is not None and cost_b is not None:
                weights[(cost_a, cost_b)] += 1
        return Dist.from_weights(weights)
    for roll in ROLLS:
        cost_a, cost_b = cheapest_cost(a, roll), cheapest_cost(b, roll)
        if cost_a is None and cost_b is None:
            continue  # rerolled
        law_a = card_cost(a) if cost_a is None else Dist.constant(cost_a)
        law_b = card_cost(b) if cost_b is None else Dist.constant(cost_b)
        for x, p in law_a.items():
            for y, q in law_b.items():
                weights[(x, y)] += p * q
    return Dist.from_weights(weights)


def correlation(joint: Dist) -> float:
    """Pearson correlation of a two-coordinate joint distribution."""
    deviation_product = joint.marginal(0).standard_deviation() * joint.marginal(1).standard_deviation()
    return float(joint.covariance(0, 1)) / deviation_product


# --------------------------------------------------------------------------- layouts (I3, T3, T4)


def centre_colours(rules: Rules, centre: str | None = None) -> dict:
    """``{cell: "YIN"/"YANG"}`` of the two centre cards for the rules' grid and configuration."""
    config = centre or rules.centre_config
    if config not in ("YIN_LEFT", "YANG_LEFT"):
        raise ValueError("give the centre configuration (YIN_LEFT or YANG_LEFT) for RANDOM rules")
    first, second = GEOMETRIES[rules.grid].centre_cells
    return {first: YIN, second: YANG} if config == "YIN_LEFT" else {first: YANG, second: YIN}


def layout_score(
    layout: Mapping, rules: Rules | None = None, deck: Deck | None = None, centre: str | None = None
) -> int:
    """Matching edges of a (partial) layout: ``{cell: card id or (card id, orientation)}``.

    Each ring-ring match scores 1, each ring-centre match 1 (2 with
    ``centre_match_counts_as_circle``); the centre-centre edge never scores (pangu.md#layout, pangu.md#karma).
    """
    rules = rules or Rules()
    deck = deck or teaching_deck()
    geometry = GEOMETRIES[rules.grid]
    centres = centre_colours(rules, centre)

    def colour(cell, edge):
        if cell in centres:
            return centres[cell]
        entry = layout[cell]
        card_id, orientation = (entry, 0) if isinstance(entry, str) else entry
        return deck[card_id].colour(edge, orientation)

    score = 0
    for cell in layout:
        for edge, other in geometry.neighbours(cell):
            if other in centres:
                if colour(cell, edge) == centres[other]:
                    score += 2 if rules.centre_match_counts_as_circle else 1
            elif other in layout and cell < other and colour(cell, edge) == colour(other, (edge + 2) % 4):
                score += 1
    return score


def ring_cycle(rules: Rules | None = None) -> list[tuple[int, int]]:
    """The ring cells in order around the 10-cycle, starting from the top-left corner."""
    geometry = GEOMETRIES[(rules or Rules()).grid]
    ring = set(geometry.ring)
    cycle = [min(ring)]
    while len(cycle) < len(ring):
        options = [other for _, other in geometry.neighbours(cycle[-1]) if other in ring and other not in cycle]
        cycle.append(options[0])
    return cycle


def layout_score_counts(rules: Rules | None = None, deck: Deck | None = None, centre: str | None = None) -> Counter:
    """How many of the 10! assignments of the deck to the ring have each score (T4), without rotation.

    Dynamic programming around the ring cycle over (cards used, last card); a score
    distribution is packed into one integer, one 24-bit slot per score.
    """
    rules = rules or Rules()
    deck = deck or teaching_deck()
    geometry = GEOMETRIES[rules.grid]
    centres = centre_colours(rules, centre)
    cycle = ring_cycle(rules)
    cards = list(deck)
    slot = 24
    worth = 2 if rules.centre_match_counts_as_circle else 1

    def edge_towards(cell, other):
        return next(edge for edge, neighbour in geometry.neighbours(cell) if neighbour == other)

    def centre_points(card, cell):
        return sum(
            worth for edge, other in geometry.neighbours(cell) if other in centres and card.half[edge] == centres[other]
        )

    def link(previous_card, card, cell, previous_cell):
        edge = edge_towards(cell, previous_cell)
        return int(card.half[edge] == previous_card.half[(edge + 2) % 4])

    totals = 0
    n = len(cards)
    for first in range(n):
        states = {(1 << first, first): 1 << (slot * centre_points(cards[first], cycle[0]))}
        for position in range(1, n):
            cell, previous_cell = cycle[position], cycle[position - 1]
            following: dict = {}
            for (used, last), packed in states.items():
                for card_index in range(n):
                    if used >> card_index & 1:
                        continue
                    gained = link(cards[last], cards[card_index], cell, previous_cell)
                    gained += centre_points(cards[card_index], cell)
                    key = (used | 1 << card_index, card_index)
                    following[key] = following.get(key, 0) + (packed << (slot * gained))
            states = following
        for (_, last), packed in states.items():
            totals += packed << (slot * link(cards[last], cards[first], cycle[0], cycle[-1]))
    counts: Counter = Counter()
    score = 0
    while totals:
        count = totals & ((1 << slot) - 1)
        if count:
            counts[score] = count
        totals >>= slot
        score += 1
    return counts


__all__ = [
    "blocked_probability",
    "card_cost",
    "card_cost_counts",
    "centre_colours",
    "cheapest_cost",
    "correlation",
    "cost_law_formula",
    "deal_total_cost",
    "die_cost",
    "expected_total_cost",
    "final_card_win_probability",
    "layout_score",
    "layout_score_counts",
    "pair_costs",
    "ring_cycle",
    "total_cost_over_deals",
    "turn_cost",
]
