"""The solver's model as numpy arrays: what the numba kernels read (see docs/pangu_solver.md).

:class:`ModelArrays` holds the card faces, the costs of every roll and the Karma step table of one
rule set with a fixed centre, built once from a :class:`~gamelib.pangu.solver.model.Model`: every
kernel takes it whole, as one argument. The dense index of the turn-start keys ``(F, C, D)``
(``dense_index``, ``rank_table``, ``slots_of``) numbers the rows of a level's table; a
:class:`DenseIndex` carries one fill count's part of it into the kernels. numpy only: the kernels
themselves live in ``kernels``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from gamelib.pangu.solver.model import popcount, subset_rank

if TYPE_CHECKING:
    from gamelib.pangu.solver.model import Model

MAX_REC = 7  # index bound of the step table's rec axis (a placement never scores more than 4)


class ModelArrays(NamedTuple):
    """One model's arrays and sizes: the one structure every numba kernel takes (numba types a NamedTuple of
    arrays and integers as a tuple, so a kernel reads ``arrays.facing`` at no cost), built from a
    :class:`~gamelib.pangu.solver.model.Model` by :func:`model_arrays`."""

    facing: np.ndarray  # int8 [card, orientation, x, PREV/NEXT]: 1 if that half circle is YANG
    centre_rec: np.ndarray  # int8 [card, orientation, x]: the rec the centre gives on cell x
    touches: np.ndarray  # int8 [x]: 1 if ring cell x touches the centre
    cost: np.ndarray  # int8 [card, roll]: the cheaper die's cost, 0 if the roll blocks the card
    step: np.ndarray  # int64 [karma, cost, rec]: Karma after paying cost and gaining rec (0 = lost)
    same: np.ndarray  # int8 [card, card]: 1 if two cards carry the same two numbers
    block_roll: np.ndarray  # int64 [card]: the one roll that blocks each card
    reroll_counts: np.ndarray  # int64 [card, cost]: of the 35 other rolls, how many give each cost (cost 0: none)
    class_roll: np.ndarray  # int64 [card, cost]: the first roll at which the card costs that (-1: none)
    blue_cost: np.ndarray  # int64 [card, roll]: the blue die's cost, 0 if it does not fit the card
    white_cost: np.ndarray  # int64 [card, roll]: the white die's cost, 0 if it does not fit the card
    legal_dice: np.ndarray  # int64 [card, roll]: how many of the two dice fit the card (0: blocked)
    rowmajor: np.ndarray  # int64 [q]: the ring cells in row-major board order (the bots' action order)
    ncells: np.ndarray  # int64 [F]: how many ring cells are legal for the next placement
    n: int  # ring cells
    cards: int  # cards in the deck
    orients: int  # orientations a card may take (2 with rotation)
    karma: int  # the starting Karma (the rows' last column)


class DenseIndex(NamedTuple):
    """Where a turn-start key ``(F, C, D)`` of one fill count sits in a dense table (``kernels.dense_slot``):
    ``fc_index[F << n | C] * n_d + ranks[D]`` (see :func:`dense_index`)."""

    fc_index: np.ndarray  # int32 [F << n | C]: the dense number of (F, C), -1 if unreachable
    ranks: np.ndarray  # int32 [D]: the rank of D among the sets of its size (``rank_table``)
    n_d: int  # how many unplaced sets D the fill count has
    n: int  # ring cells


def model_arrays(model: Model) -> ModelArrays:
    """The arrays of ``model`` (a few milliseconds; the drivers build them once per solve)."""
    n = model.size
    cards = len(model.card_ids)
    orients = len(model.orientations)
    karma = model.rules.starting_karma
    facing = np.array(model.facing, dtype=np.int8).reshape(cards, orients, n, 2)
    centre_rec = np.array(model.centre_rec, dtype=np.int8).reshape(cards, orients, n)
    touches = np.array(model.touches_centre, dtype=np.int8)
    rolls = [(b, w) for b in range(1, 7) for w in range(1, 7)]
    cost = np.array([[model.cheapest_cost(c, r) for r in rolls] for c in range(cards)], dtype=np.int8)
    step = np.zeros((karma + 1, 6, MAX_REC + 1), dtype=np.int64)
    for k in range(1, karma + 1):
        for c in range(1, 6):
            for r in range(MAX_REC + 1):
                step[k, c, r] = model.step(k, c, r)
    same = np.array([[model.numbers[a] == model.numbers[b] for b in range(cards)] for a in range(cards)], np.int8)
    block_roll = np.array([list(row).index(0) for row in cost], dtype=np.int64)  # the one roll blocking each card
    reroll_counts = np.array([[list(row).count(c) for c in range(6)] for row in cost], dtype=np.int64)
    reroll_counts[:, 0] = 0  # the 35 other rolls by the card's cost
    class_roll = np.array([[list(row).index(c) if c in row else -1 for c in range(6)] for row in cost], np.int64)
    numbers = model.numbers
    blue_cost = np.array(
        [[abs(b - numbers[c][0]) if b != numbers[c][0] else 0 for b, _ in rolls] for c in range(cards)]
    )
    white_cost = np.array(
        [[abs(w - numbers[c][1]) if w != numbers[c][1] else 0 for _, w in rolls] for c in range(cards)]
    )
    index = {cell: x for x, cell in enumerate(model.ring)}
    return ModelArrays(
        facing=facing,
        centre_rec=centre_rec,
        touches=touches,
        cost=cost,
        step=step,
        same=same,
        block_roll=block_roll,
        reroll_counts=reroll_counts,
        class_roll=class_roll,
        blue_cost=blue_cost.astype(np.int64),
        white_cost=white_cost.astype(np.int64),
        legal_dice=(blue_cost > 0).astype(np.int64) + (white_cost > 0),
        rowmajor=np.array([index[cell] for cell in sorted(model.ring)], dtype=np.int64),
        ncells=np.array([sum(model.legal(f, x) for x in range(n)) for f in range(1 << n)], dtype=np.int64),
        n=n,
        cards=cards,
        orients=orients,
        karma=karma,
    )


def dense_index(model: Model, levels: list[int]) -> tuple[np.ndarray, dict]:
    """``fc_index[F << 10 | C]``: a dense number per reachable filled set F and frontier colours C."""
    n = model.size
    fc_index = np.full(1 << (2 * n), -1, dtype=np.int32)
    counts = {}
    for level in levels:
        count = 0
        for filled in range(1 << n):
            if popcount(filled) != level or not model.reachable_filled(filled):
                continue
            frontier = model.frontier(filled)
            sub = frontier
            while True:  # every subset of the frontier
                fc_index[filled << n | sub] = count
                count += 1
                if sub == 0:
                    break
                sub = (sub - 1) & frontier
        counts[level] = count
    return fc_index, counts


def rank_table(n: int) -> np.ndarray:
    """``ranks[D]``: the rank of the unplaced set D among the sets of its size (the slot's last part)."""
    return np.array([subset_rank(mask) for mask in range(1 << n)], dtype=np.int32)


def slots_of(keys, fc_index, ranks, n_d, n):
    """The dense slot of each packed key ``F | C << 10 | D << 20`` (numpy, as ``kernels.slot`` one key)."""
    filled = keys & 1023
    colours = (keys >> 10) & 1023
    unplaced = (keys >> 20) & 1023
    return fc_index[(filled << n) | colours].astype(np.int64) * n_d + ranks[unplaced]
