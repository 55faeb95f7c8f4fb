"""The optimal builder's key listing and rows against the shipped tables (gamelib.pangu.solver.space, .optimal; make
test-long, like the other numba files)."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from gamelib.pangu import Rules, solver

pytest.importorskip("numba", reason="the table builder needs numba (the solver extra)")

from gamelib.pangu.solver import arrays as solver_arrays, kernels, model as solver_model, space  # noqa: E402


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True)], ids=str)
def test_the_final_level_lists_exactly_the_keys_that_turn_three_reaches(rules):
    """``every_key`` lists the final card's keys from the dense space; playing every legal turn from every
    turn-3 key (``kernels.turn_successors``) must reach exactly those, in the same order."""
    model = solver_model.build_model(rules)
    n, cards = model.size, len(model.card_ids)
    arrays = solver_arrays.model_arrays(model)
    fc_index, fc_counts = solver_arrays.dense_index(model, [0, 3, 6, 9])
    ranks = solver_arrays.rank_table(n)
    if rules == Rules():
        turn_three = solver.default_tables().keys[6].astype(np.int64)  # the shipped 1,042,644 keys (int32)
    else:  # the builder's listing, checked against turn_successors by the next test
        fc_all, fc_counts_all = solver_arrays.dense_index(model, list(range(n + 1)))
        turn_three = np.array([((1 << cards) - 1) << 20], dtype=np.int64)
        for level in (0, 3):
            turn_three = space.next_turn_keys(turn_three, level, fc_all, fc_counts_all, ranks, arrays)
    reached = kernels.turn_successors(
        turn_three, solver_arrays.DenseIndex(fc_index, ranks, n, n), fc_counts[9] * n, arrays
    )
    assert np.array_equal(space.every_key(fc_index, ranks, 9, cards, n), reached[reached > 0] - 1)


def _listing_arrays(rules):
    model = solver_model.build_model(rules)
    fc_index, fc_counts = solver_arrays.dense_index(model, [0, 3, 6, 9])
    fc_all, fc_counts_all = solver_arrays.dense_index(model, list(range(model.size + 1)))
    return model, solver_arrays.model_arrays(model), fc_index, fc_counts, fc_all, fc_counts_all


def _old_turn_keys(keys, following, model, arrays, fc_index, fc_counts, ranks):
    n, cards = model.size, len(model.card_ids)
    index = solver_arrays.DenseIndex(fc_index, ranks, comb(cards, cards - following), n)
    reached = kernels.turn_successors(keys, index, fc_counts[following] * index.n_d, arrays)
    return reached[reached > 0] - 1


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True)], ids=str)
def test_three_single_placements_list_the_same_turn_keys_as_whole_turns(rules):
    """``next_turn_keys`` (three one-card steps, deduplicated after each) against ``kernels.turn_successors`` (every hand
    and assignment of a whole turn at once): the same keys in the same slot order from the start and, on a
    seeded sample of 3,000 turn-2 keys, at turn 3. Under the defaults the whole turn-3 listing must also be
    the shipped tables' 1,042,644 keys (``data/solver_default.npz``, stored sorted)."""
    model, arrays, fc_index, fc_counts, fc_all, fc_counts_all = _listing_arrays(rules)
    n, cards = model.size, len(model.card_ids)
    ranks = solver_arrays.rank_table(n)
    start = np.array([((1 << cards) - 1) << 20], dtype=np.int64)
    turn_two = space.next_turn_keys(start, 0, fc_all, fc_counts_all, ranks, arrays)
    assert np.array_equal(turn_two, _old_turn_keys(start, 3, model, arrays, fc_index, fc_counts, ranks))
    sample = np.sort(np.random.default_rng(11).choice(turn_two, size=3000, replace=False))
    assert np.array_equal(
        space.next_turn_keys(sample, 3, fc_all, fc_counts_all, ranks, arrays),
        _old_turn_keys(sample, 6, model, arrays, fc_index, fc_counts, ranks),
    )
    if rules == Rules():
        turn_three = space.next_turn_keys(turn_two, 3, fc_all, fc_counts_all, ranks, arrays)
        assert np.array_equal(np.sort(turn_three), solver.default_tables().keys[6])


def test_the_builders_turn_three_rows_of_a_sample_equal_the_shipped_rows():
    """``optimal.solve_level`` on a seeded sample of 40 shipped turn-3 keys, against the final card's rows:
    its numerators (scale 4 x 36 x 35 x 35) must be the shipped ``data/solver_default.npz`` rows exactly."""
    from gamelib.pangu.solver import optimal

    model = solver_model.build_model(Rules())
    arrays = solver_arrays.model_arrays(model)
    n, cards = model.size, len(model.card_ids)
    fc_index, fc_counts = solver_arrays.dense_index(model, [0, 3, 6, 9])
    fc_all, _ = solver_arrays.dense_index(model, list(range(n + 1)))
    ranks = solver_arrays.rank_table(n)
    finals = space.every_key(fc_index, ranks, 9, cards, n)
    rows = kernels.final_card_rows(finals, arrays, False)
    index = solver_arrays.DenseIndex(fc_index, ranks, n, n)
    table = optimal.dense_table(rows, solver_arrays.slots_of(finals, *index), fc_counts[9] * n)
    shipped = solver.default_tables()
    picks = np.sort(np.random.default_rng(5).choice(len(shipped.keys[6]), size=40, replace=False))
    keys = shipped.keys[6][picks].astype(np.int64)
    out, _ = optimal.solve_level(keys, table, index, arrays, optimal.kappa_of(model, arrays), False, fc_all)
    assert np.array_equal(out[:, 1:].astype(np.int64), shipped.rows[6][picks])
