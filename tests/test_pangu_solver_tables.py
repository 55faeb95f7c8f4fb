"""The shipped default tables of the Pangu solver (gamelib/pangu/data/solver_default.npz).

Expected numbers cite ``docs/pangu_solver.md``, reference figures (root value,
S1 checkpoints of spec T10, key counts). Table entries are spot-checked by recomputation with
the pure-Python expectimax (a different random sample on every run; the seed is in the message).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import pytest

from gamelib.pangu import SINGLE_VARIANTS, new_game
from gamelib.pangu import solver
from gamelib.pangu.solver import VARIANTS_PATH
from gamelib.pangu.solver.model import build_model
from gamelib.pangu.solver.tables import (
    META_PATH,
    SHIPPED_LEVELS,
    TABLE_PATH,
    ShippedTables,
    SolverTableError,
    sha256_of,
)
from test_pangu_solver import at_next_turn_start, brute_force, s1_after


def test_whole_game_value_under_the_default_rules():
    # docs/pangu_solver.md, reference figures: 3197477701321 / 4000752000000
    assert solver.win_probability(new_game(explicit_chance=True)) == Fraction(3197477701321, 4000752000000)


def value_before_the_draw(state) -> Fraction:
    """The turn-start value: the next hand not yet drawn (the scripted game has drawn and rolled it)."""
    filled, colours, unseen, hand, _, karma, _ = solver.position_of(state)
    return solver.solver_of(state).turn_start(filled, colours, unseen | hand, karma)


def test_s1_checkpoints_after_turns_one_and_two():
    # docs/pangu_solver.md, reference figures: after turn 1, 1020980411/1111320000; after turn 2, 85187/88200
    after_one = s1_after(3)
    assert after_one.turn == 2 and after_one.karma == 10
    assert value_before_the_draw(after_one) == Fraction(1020980411, 1111320000)
    after_two = s1_after(6)
    assert after_two.turn == 3 and after_two.karma == 9
    assert value_before_the_draw(after_two) == Fraction(85187, 88200)


def test_the_s1_turn_three_position_agrees_with_the_brute_force():
    state = at_next_turn_start(s1_after(6))  # turn 3 drawn and rolled: A9, A4, A8 with (5, 3)
    assert solver.win_probability(state) == brute_force(state)


def test_the_tables_hold_the_notes_key_counts():
    # docs/pangu_solver.md, reference figures: 30,612 turn-start keys at turn 2 and 1,042,644 at turn 3
    tables = solver.default_tables()
    assert [len(tables.keys[level]) for level in SHIPPED_LEVELS] == [1, 30612, 1042644]


def sample_keys(level: int, count: int):
    seed = random.SystemRandom().randrange(2**32)
    keys = solver.default_tables().keys[level]
    picks = np.random.default_rng(seed).choice(len(keys), size=count, replace=False)
    return seed, [(int(keys[at]) & 1023, int(keys[at]) >> 10 & 1023, int(keys[at]) >> 20 & 1023) for at in picks]


def test_shipped_turn_three_entries_match_a_recomputation():
    """Random turn-3 rows against the pure-Python expectimax, which needs no table there."""
    tables = solver.default_tables()
    fresh = solver.Solver(solver.model_for(new_game(explicit_chance=True)), None)
    seed, keys = sample_keys(6, 4)
    for filled, colours, unplaced in keys:
        for karma in range(1, 11):
            assert fresh.turn_start(filled, colours, unplaced, karma) == tables.value(
                6, filled, colours, unplaced, karma
            ), seed


def test_a_shipped_turn_two_entry_matches_a_recomputation_from_turn_three():
    """A random turn-2 row, recomputed in pure Python over its hands and rolls from the turn-3 table."""
    tables = solver.default_tables()
    model = solver.model_for(new_game(explicit_chance=True))
    from_turn_three = solver.Solver(model, solver.default_tables, table_levels=(6,))
    seed, keys = sample_keys(3, 1)
    filled, colours, unplaced = keys[0]
    karma = random.Random(seed).choice((2, 3, 4))  # low Karma keeps the pure-Python recomputation short
    assert from_turn_three.turn_start(filled, colours, unplaced, karma) == tables.value(
        3, filled, colours, unplaced, karma
    ), seed


def test_every_shipped_row_is_monotone_in_karma():
    tables = solver.default_tables()
    for level in SHIPPED_LEVELS:
        rows = tables.rows[level]
        assert (np.diff(rows, axis=1) >= 0).all()
        assert (rows[:, 0] >= 0).all() and (rows[:, -1] <= tables.scales[level]).all()


def test_a_damaged_table_is_refused_naming_the_file(tmp_path):
    damaged = tmp_path / TABLE_PATH.name
    data = bytearray(TABLE_PATH.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    meta = tmp_path / META_PATH.name
    meta.write_text(META_PATH.read_text())
    with pytest.raises(SolverTableError, match=str(damaged)):
        ShippedTables(damaged, meta)
    assert sha256_of(TABLE_PATH) in META_PATH.read_text()


def test_evaluate_policy_from_a_late_position_is_below_optimal():
    from gamelib.pangu.bots import greedy_policy, random_policy

    state = at_next_turn_start(s1_after(6))
    greedy = solver.evaluate_policy(greedy_policy, state=state)
    assert 0 < greedy <= solver.win_probability(state)
    uniform = solver.evaluate_policy(random_policy, state=state)
    assert 0 < uniform < greedy


# --------------------------------------------------------------------------- the variant table (data/solver_variants.json)

VARIANTS = json.loads(VARIANTS_PATH.read_text())
SAMPLED = sorted(name for name, entry in VARIANTS["variants"].items() if entry.get("turn3_samples"))


def test_every_single_variant_has_a_value_or_a_reason():
    values = solver.variant_values()
    assert set(values) == set(SINGLE_VARIANTS) - {"defaults"}
    for name, value in values.items():
        if isinstance(value, Fraction):
            assert 0 < value < 1, name
        else:
            assert len(value) > 40, name  # a sentence, not a placeholder
    for name in ("per_placement", "before_turn"):  # the builder keeps whole turns and one Karma axis
        assert isinstance(values[name], str)


def test_the_mirrored_centre_has_the_default_value_and_random_is_their_mean():
    # docs/pangu_solver.md, reference figures: YANG_LEFT gives the identical fraction (the twin map swaps the dice
    # and inverts every colour); RANDOM draws either configuration with probability 1/2
    values = solver.variant_values()
    default = solver.win_probability(new_game(explicit_chance=True))
    assert values["YANG_LEFT"] == default
    assert values["RANDOM_centre"] == (default + values["YANG_LEFT"]) / 2


def test_approximate_variants_carry_an_error_bound():
    for name, entry in VARIANTS["variants"].items():
        if "value" not in entry:
            assert entry["approximate"] and 0 < entry["error_bound"] < 1e-9, name
            assert 0 < entry["decimal"] < 1, name


@pytest.mark.parametrize("name", SAMPLED)
def test_recorded_turn_three_rows_of_a_variant_agree_with_the_pure_python_solver(name):
    """The numba builder's turn-3 rows, stored at --record time, recomputed by the pure-Python expectimax."""
    rules = SINGLE_VARIANTS[name]
    for sample in VARIANTS["variants"][name]["turn3_samples"]:
        fresh = solver.Solver(build_model(rules, sample["centre"]), None)
        for karma in range(1, rules.starting_karma + 1):
            value = fresh.turn_start(sample["filled"], sample["colours"], sample["unplaced"], karma)
            assert value == Fraction(sample["numerators"][karma - 1], sample["scale"]), (name, sample, karma)
