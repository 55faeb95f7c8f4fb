"""The exact whole-game values of the Pangu bots shipped in ``data/solver_bots.json`` (issue 11).

They are ordered random < greedy <= lookahead <= optimal and lie in the 95% interval of a seeded
simulated tournament (a sanity check, not the oracle: test_pangu_bot_values_numba.py checks the
evaluator that computed them against the engine, in ``make test-long``).
"""

from __future__ import annotations

from fractions import Fraction

from gamelib import core
from gamelib.pangu import Rules, solver
from gamelib.pangu import rules as pangu_rules
from gamelib.pangu.bots import POLICIES, greedy_policy
from gamelib.pangu.rules import SINGLE_VARIANTS
from gamelib.simulate import proportion


# --------------------------------------------------------------------------- the shipped values


def test_shipped_values_are_exact_fractions_in_the_skill_order():
    values = solver.bot_values()
    missing = solver.bot_values_missing()
    assert set(values) | set(missing) == {"random", "greedy", "lookahead", "optimal"}
    assert not set(values) & set(missing)
    assert values["optimal"] == Fraction(3197477701321, 4000752000000)  # docs/pangu_solver.md, reference figures
    ladder = [values[name] for name in ("random", "greedy", "lookahead", "optimal") if name in values]
    assert all(0 < v <= 1 for v in ladder)
    assert ladder == sorted(ladder)
    if "random" in values:
        assert values["random"] < values["greedy"]
    for name, reason in missing.items():
        assert len(reason) > 40, name  # a reason a reader can act on


def test_the_lookahead_lies_strictly_between_greedy_and_perfect_play():
    # lookahead.solve_lookahead (its kernels checked against the engine in test_pangu_bot_values_numba.py);
    # the bounds are greedy's recorded exact value and the optimum (docs/pangu_solver.md, reference figures)
    values = solver.bot_values()
    assert values["greedy"] == Fraction(1234354255487281, 2032510040064000)
    assert values["greedy"] < values["lookahead"] < values["optimal"]
    # recorded by python -m gamelib.pangu.solver bot --policy lookahead --record (333 s CPU, 2 threads)
    assert values["lookahead"] == Fraction(191490706075699, 264649744800000)
    # inside the interval of Pangu 04's 120 simulated lookahead games (67.5%, 95% CI 58.7%-75.2%, seed 4)
    assert 0.587 <= float(values["lookahead"]) <= 0.752


def test_the_random_bot_lies_below_greedy_and_inside_the_simulated_intervals():
    # recorded by python -m gamelib.pangu.solver bot --policy random --record (gamelib.pangu.solver.random_bot: the
    # value modulo six primes, then the CRT; its kernels checked against the engine in
    # test_pangu_bot_values_random_numba.py, in make test-long)
    values = solver.bot_values()
    random_value = values["random"]
    assert random_value == Fraction(931903714551196834933379021, 37172885064256585728000000000)
    assert random_value < values["greedy"]
    rest = random_value.denominator  # a product of action and chance counts: primes 2, 3, 5 and 7 only
    for prime in (2, 3, 5, 7):
        while rest % prime == 0:
            rest //= prime
    assert rest == 1
    # inside the interval of Pangu 04's 1000 simulated random games (3.1%, 95% CI 2.2%-4.4%, seed 4)
    assert 0.022 <= float(random_value) <= 0.044
    # and of 10,000 seeded random games (about 3 s), an interval about 0.6 points wide
    games = 10_000
    records = core.tournament(pangu_rules, [POLICIES["random"]], games, rules=Rules(), seed=99, progress=False)
    estimate = proportion(sum(bool(r.winners) for r in records), games)
    assert estimate.low <= float(random_value) <= estimate.high, estimate


def test_shipped_values_lie_in_a_seeded_tournament_interval():
    values = solver.bot_values()
    for name in ("random", "greedy", "lookahead"):
        if name not in values:
            continue
        games = 400 if name != "lookahead" else 100  # lookahead plans each move: about 30 ms a decision
        records = core.tournament(pangu_rules, [POLICIES[name]], games, rules=Rules(), seed=2026, progress=False)
        estimate = proportion(sum(bool(r.winners) for r in records), games)
        assert estimate.low <= float(values[name]) <= estimate.high, (name, estimate)


def test_evaluate_policy_returns_the_recorded_value_for_the_whole_game():
    assert solver.evaluate_policy(greedy_policy) == solver.bot_values()["greedy"]
    assert solver.evaluate_policy(greedy_policy, rules=Rules()) == solver.bot_values(Rules())["greedy"]


def test_variants_are_named_and_unknown_rules_say_why():
    for name, rules in SINGLE_VARIANTS.items():
        assert solver.bot_values(rules) == solver.bot_values(name)
    odd = Rules(starting_karma=7)
    assert solver.bot_values(odd) == {}
    assert set(solver.bot_values_missing(odd)) == {"random", "greedy", "lookahead", "optimal"}


def test_swapping_the_centre_changes_no_bots_value():
    # the teaching deck maps onto itself when the two dice and all colours are swapped (docs/rules/pangu.md#deck),
    # so under YANG_LEFT every bot wins exactly as often as under the defaults: a check of two separate runs
    default, swapped = solver.bot_values(), solver.bot_values("YANG_LEFT")
    assert {"greedy", "lookahead", "optimal"} <= set(swapped)
    for bot, value in swapped.items():
        assert value == default[bot], bot


def test_every_recorded_variant_value_is_in_skill_order():
    # under each single variant too: greedy < lookahead <= perfect play, wherever the values are recorded
    for name in SINGLE_VARIANTS:
        values = solver.bot_values(name)
        ladder = [values[bot] for bot in ("random", "greedy", "lookahead", "optimal") if bot in values]
        assert ladder == sorted(ladder), name
        if {"greedy", "lookahead"} <= set(values):
            assert values["greedy"] < values["lookahead"], name
