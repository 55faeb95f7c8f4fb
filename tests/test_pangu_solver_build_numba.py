"""The numba key listing of the optimal builder (gamelib.pangu.solver.space; make test-long, like the other numba files)."""

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
        turn_three = solver.default_tables().keys[6]  # the shipped 1,042,644 keys
    else:  # the builder's listing, checked against turn_successors by the next test
        fc_all, fc_counts_all = solver_arrays.dense_index(model, list(range(n + 1)))
        turn_three = np.array([((1 << cards) - 1) << 20], dtype=np.int64)
        for level in (0, 3):
            turn_three = space.next_turn_keys(turn_three, level, fc_all, fc_counts_all, ranks, arrays)
    reached = kernels.turn_successors(turn_three, fc_index, ranks, n, fc_counts[9] * n, arrays.facing,
                                       arrays.touches, n, cards, len(model.orientations))
    assert np.array_equal(space.every_key(fc_index, ranks, 9, cards, n), reached[reached > 0] - 1)


def _listing_arrays(rules):
    model = solver_model.build_model(rules)
    fc_index, fc_counts = solver_arrays.dense_index(model, [0, 3, 6, 9])
    fc_all, fc_counts_all = solver_arrays.dense_index(model, list(range(model.size + 1)))
    return model, solver_arrays.model_arrays(model), fc_index, fc_counts, fc_all, fc_counts_all


def _old_turn_keys(keys, following, model, arrays, fc_index, fc_counts, ranks):
    n, cards = model.size, len(model.card_ids)
    width = comb(cards, cards - following)
    reached = kernels.turn_successors(keys, fc_index, ranks, width, fc_counts[following] * width, arrays.facing,
                                       arrays.touches, n, cards, len(model.orientations))
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
    assert np.array_equal(space.next_turn_keys(sample, 3, fc_all, fc_counts_all, ranks, arrays),
                          _old_turn_keys(sample, 6, model, arrays, fc_index, fc_counts, ranks))
    if rules == Rules():
        turn_three = space.next_turn_keys(turn_two, 3, fc_all, fc_counts_all, ranks, arrays)
        assert np.array_equal(np.sort(turn_three), solver.default_tables().keys[6])
