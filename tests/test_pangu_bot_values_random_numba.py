"""The modular evaluator of the random bot against the engine (issue 11, ``gamelib.pangu.solver.random_bot``).

* The bound L: along seeded random games, the product of the action counts and chance counts met
  divides L, and L has no prime factor but 2, 3, 5 and 7 (so the primes of the CRT are invertible).
* The numba residues agree with the pure-Python ``solver.evaluate_policy(random_policy, state=...)``
  (exact Fractions over the engine's own legal actions and chance outcomes) reduced modulo each
  prime, at turn-3 turn starts and decisions, under the defaults and rule variants.
* The CRT rebuilds a turn-3 position's exact Fraction from its residues, and the check prime agrees.

Numba compiles the kernels (the optional ``solver`` extra): this file runs in ``make test-long``.
The shipped whole-game value is checked in ``make test`` by test_pangu_bot_values.py.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from gamelib.core import CHANCE, random_policy, replace_fields
from gamelib.pangu import Rules, new_game, solver
from gamelib.pangu.solver import random_bot as solver_random
from gamelib.pangu.solver.model import build_model, turn_sizes

VARIANTS = [
    Rules(),
    Rules(allow_rotation=True),
    Rules(grid="4x3"),
    Rules(centre_match_counts_as_circle=True),
    Rules(defeat_check="after_recovery", centre_config="YANG_LEFT"),
    Rules(cap_rule="before_placement"),
]
PRIMES = solver_random.PRIMES[:2]


def turn_three_position(rng: random.Random, rules: Rules, moves: int):
    """A seeded explicit-chance game played randomly to turn 3's start (before its draw), then its draw,
    roll and ``moves`` random placements (0: the turn start itself), at a random Karma 2-6 (with more
    Karma the last turns are rarely lost)."""
    while True:
        state = new_game(seed=rng.randrange(10**6), rules=rules, explicit_chance=True)
        while state.status == "ONGOING" and not (len(state.placed_cards()) == 6 and state.pending == "draw"):
            state = (
                state.apply(rng.choice(state.chance_outcomes())[0])
                if state.current_player == CHANCE
                else state.apply(rng.choice(state.legal_actions()))
            )
        if state.status != "ONGOING":
            continue
        state = replace_fields(state, karma=rng.randrange(2, 7))
        left = moves
        while left and state.status == "ONGOING":
            if state.current_player == CHANCE:
                state = state.apply(rng.choice(state.chance_outcomes())[0])
                continue
            state = state.apply(rng.choice(state.legal_actions()))
            left -= 1
        while state.status == "ONGOING" and state.current_player == CHANCE and moves:
            state = state.apply(rng.choice(state.chance_outcomes())[0])
        if state.status == "ONGOING":
            return state


def residue(value: Fraction, p: int) -> int:
    return value.numerator * pow(value.denominator, -1, p) % p


def test_the_bound_is_a_product_of_small_primes_and_the_primes_exceed_it():
    model = build_model(Rules())
    bound = solver_random.denominator_bound(model)
    assert solver_random.prime_factors(bound) == {2, 3, 5, 7}
    primes = solver_random.primes_for(bound)
    product = 1
    for p in primes[:-1]:
        product *= p
    assert product > bound  # the needed primes, then one check prime
    assert product // primes[-2] <= bound  # and no more than needed
    assert turn_sizes(10) == [3, 3, 3, 1]  # pangu.md#turns
    assert turn_sizes(9) == [3, 3, 2, 1]


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True), Rules(grid="4x3")], ids=str)
def test_every_random_game_path_has_a_denominator_dividing_the_bound(rules):
    # the engine's own counts along seeded random games: the legal actions at each decision, 36 per roll, and
    # 35 for a stuck reroll (it comes back with probability 1/36, so the rerolls that unblock weigh 1/35 each:
    # the path follows one of those); a hand is a set of cards (the bot ignores the revealed order), C(10, 3)
    # and so on
    bound = solver_random.denominator_bound(build_model(rules))
    rng = random.Random(5)
    hands, left = 1, 10
    for size in turn_sizes(10):
        hands, left = hands * comb(left, size), left - size
    stuck_paths = 0
    for _ in range(80):
        state = new_game(seed=rng.randrange(10**6), rules=rules, explicit_chance=True)
        weight = hands
        while state.status == "ONGOING":
            if state.current_player != CHANCE:
                weight *= len(state.legal_actions())
                state = state.apply(rng.choice(state.legal_actions()))
            elif state.pending == "roll" and state.roll_reason == "stuck":
                weight *= 35
                stuck_paths += 1
                unblocking = [
                    o
                    for o, _ in state.chance_outcomes()
                    if not (state.apply(o).pending == "roll" and state.apply(o).roll_reason == "stuck")
                ]
                assert len(unblocking) == 35
                state = state.apply(rng.choice(unblocking))
            else:
                weight *= 36 if state.pending == "roll" else 1
                state = state.apply(rng.choice(state.chance_outcomes())[0])
        assert bound % weight == 0, (state.status, weight)
    assert stuck_paths > 0


@pytest.mark.parametrize("seed", range(len(VARIANTS)))
def test_the_residues_agree_with_evaluate_policy_at_turn_three(seed):
    rules = VARIANTS[seed]
    rng = random.Random(300 + seed)
    open_positions = 0
    for moves in (0, 0, 1, 1, 2, 2, 3):
        state = turn_three_position(rng, rules, moves)
        expected = solver.evaluate_policy(random_policy, state=state)
        open_positions += 0 < expected < 1
        for p in PRIMES:
            assert solver_random.position_residue(state, p) == residue(expected, p), (str(rules), moves)
    assert open_positions >= 4


def turn_two_decision(rng: random.Random, rules: Rules, in_hand: int, karma: int):
    """A seeded explicit-chance game played randomly to a turn-2 decision with ``in_hand`` cards left, at
    ``karma`` (the pure-Python oracle takes 20-30 s from there)."""
    placed = 6 - in_hand
    while True:
        state = new_game(seed=rng.randrange(10**6), rules=rules, explicit_chance=True)
        while state.status == "ONGOING" and not (
            len(state.placed_cards()) == placed and state.current_player != CHANCE
        ):
            state = (
                state.apply(rng.choice(state.chance_outcomes())[0])
                if state.current_player == CHANCE
                else state.apply(rng.choice(state.legal_actions()))
            )
        if state.status == "ONGOING":
            return replace_fields(state, karma=karma)


@pytest.mark.parametrize("in_hand, karma, seed", [(1, 7, 2), (1, 6, 8), (2, 4, 4)])
def test_the_residues_agree_with_evaluate_policy_at_turn_two(in_hand, karma, seed):
    # turn 2's one- and two-cards-left passes (seven unplaced cards, 35 hands at its start) against the
    # engine, with turn 3 computed from its start at every key the hand reaches
    state = turn_two_decision(random.Random(seed), Rules(), in_hand, karma)
    expected = solver.evaluate_policy(random_policy, state=state)
    assert 0 < expected < 1
    for p in PRIMES:
        assert solver_random.position_residue(state, p) == residue(expected, p)


def test_the_crt_rebuilds_a_turn_three_value_and_the_check_prime_agrees():
    rng = random.Random(77)
    state = turn_three_position(rng, Rules(), 0)
    expected = solver.evaluate_policy(random_policy, state=state)
    assert 0 < expected < 1
    bound = solver_random.denominator_bound(solver.model_for(state), placed=6)
    assert (expected * bound).denominator == 1  # V x L is whole
    primes = solver_random.primes_for(bound)
    residues = [solver_random.position_residue(state, p) for p in primes]
    assert solver_random.rebuild(residues, primes, bound) == expected
    assert solver_random.rebuild(residues[:-1], primes[:-1], bound) == expected
    wrong = residues[:-1] + [(residues[-1] + 1) % primes[-1]]
    with pytest.raises(ArithmeticError):
        solver_random.rebuild(wrong, primes, bound)
