"""The numba table builder's key listing (gamelib.pangu.solver_build; make test-long, like the other numba files)."""

from __future__ import annotations

import numpy as np
import pytest

from gamelib.pangu import Rules, solver

solver_build = pytest.importorskip("gamelib.pangu.solver_build", reason="the table builder needs numba (the solver extra)")


@pytest.mark.parametrize("rules", [Rules(), Rules(allow_rotation=True)], ids=str)
def test_the_final_level_lists_exactly_the_keys_that_turn_three_reaches(rules):
    """``every_key`` lists the final card's keys from the dense space; playing every legal turn from every
    turn-3 key (``_successors``, which the builder used before) must reach exactly those, in the same order."""
    model = solver_build.build_model(rules)
    n, cards = model.size, len(model.card_ids)
    arrays = solver_build.model_arrays(model)
    fc_index, fc_counts = solver_build.dense_index(model, [0, 3, 6, 9])
    ranks = solver_build.rank_table(n)
    if rules == Rules():
        turn_three = solver.default_tables().keys[6]  # the shipped 1,042,644 keys
    else:
        turn_three = np.array([((1 << cards) - 1) << 20], dtype=np.int64)
        for level, following in ((0, 3), (3, 6)):
            width = solver_build._comb(cards, cards - following)
            reached = solver_build._successors(turn_three, fc_index, ranks, width, fc_counts[following] * width,
                                               arrays["facing"], arrays["touches"], n, cards, len(model.orientations))
            turn_three = reached[reached > 0] - 1
    reached = solver_build._successors(turn_three, fc_index, ranks, n, fc_counts[9] * n, arrays["facing"],
                                       arrays["touches"], n, cards, len(model.orientations))
    assert np.array_equal(solver_build.every_key(fc_index, ranks, 9, cards, n), reached[reached > 0] - 1)
