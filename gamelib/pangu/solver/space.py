"""The state space: which turn-start keys ``(F, C, D)`` some legal play reaches, level by level
(see docs/pangu_solver.md, "The state space").

The optimal builder and the bots' evaluators all list the same keys from here, in the dense slot
order of ``arrays.dense_index``.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np

from gamelib.pangu.solver.arrays import DenseIndex, ModelArrays, dense_index, rank_table, slots_of
from gamelib.pangu.solver.kernels import placement_successors
from gamelib.pangu.solver.model import popcount

if TYPE_CHECKING:
    from gamelib.pangu.solver.model import Model


def next_turn_keys(keys, level, fc_all, fc_counts_all, ranks, arrays: ModelArrays):
    """The turn-start keys one turn (three placements) after the turn-start ``keys`` at fill ``level``, in slot order.

    ``fc_all``/``fc_counts_all``: ``dense_index`` over every fill count; its numbers at a turn-start fill
    are those of the turn-start index (both number each fill's (F, C) pairs from 0 in the same order)."""
    n, cards = arrays.n, arrays.cards
    for fill in range(level + 1, level + 4):
        n_d = comb(cards, cards - fill)
        reached = placement_successors(keys, DenseIndex(fc_all, ranks, n_d, n), fc_counts_all[fill] * n_d, arrays)
        keys = reached[reached > 0] - 1
    return keys


def turn_start_keys(model: Model, arrays: ModelArrays, levels) -> dict:
    """Every turn-start key some legal play reaches, by level (``levels`` a turn of three placements apart,
    from the start), each in slot order: what the builder and the bots' evaluators all list."""
    n, cards = model.size, len(model.card_ids)
    fc_all, fc_counts_all = dense_index(model, list(range(n + 1)))
    ranks = rank_table(n)
    keys = {levels[0]: np.array([((1 << cards) - 1) << 20], dtype=np.int64)}
    for level, following in zip(levels[:-1], levels[1:]):
        if following != level + 3:
            raise ValueError(f"turn-start levels must be three placements apart, not {level} and {following}")
        keys[following] = next_turn_keys(keys[level], level, fc_all, fc_counts_all, ranks, arrays)
    return keys


def every_key(fc_index, ranks, level, cards, n):
    """Every key (F, C, D) of ``fc_index``'s dense space at fill ``level``, in slot order, as ``kernels.turn_successors``
    lists its marks. For the final card this is what the turn-3 keys reach (400 of 400 slots under the
    defaults; a slot no turn reaches only gets a row nobody reads), without playing a turn from each of the
    million turn-3 keys."""
    codes = np.flatnonzero(fc_index >= 0)  # fc_index is indexed F << n | C
    codes = codes[[popcount(int(code) >> n) == level for code in codes]]
    unplaced = np.array([mask for mask in range(1 << cards) if popcount(mask) == cards - level], dtype=np.int64)
    keys = ((codes >> n) | (codes & ((1 << n) - 1)) << 10)[:, None] | (unplaced << 20)[None, :]
    keys = keys.ravel().astype(np.int64)
    return keys[np.argsort(slots_of(keys, fc_index, ranks, comb(cards, cards - level), n), kind="stable")]
