"""The numba kernels every evaluator shares: one placement on the ring, a key's dense slot, the
successors of a turn and the final card's rows (see docs/pangu_solver.md).

Kernels take plain arrays and integers (what numba compiles), never a game object: this module
imports nothing of the game. The ring cells are numbered in cycle order; a packed turn-start key is
``F | C << 10 | D << 20``.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("the solver's numba kernels need numba: pip install -e '.[solver]'") from error


# --------------------------------------------------------------------------- ring helpers (numba)


@njit(cache=True, inline="always")
def _nb(x, side, n):
    return (x - 1) % n if side == 0 else (x + 1) % n


@njit(cache=True, inline="always")
def _edge(x, side, n):
    return (x - 1) % n if side == 0 else x


@njit(cache=True)
def placement_rec(filled, colours, card, o, x, facing, centre_rec, n):
    """The ``rec`` of ``card`` in orientation ``o`` on ring cell ``x``: the centre's plus one per filled
    neighbour whose facing colour matches (pangu.md#karma)."""
    rec = centre_rec[card, o, x]
    for side in range(2):
        if (filled >> _nb(x, side, n)) & 1:
            if facing[card, o, x, side] == ((colours >> _edge(x, side, n)) & 1):
                rec += 1
    return rec


@njit(cache=True)
def place_card(filled, colours, card, o, x, facing, n):
    """``(F, C)`` after ``card`` is placed on ``x``: the cell filled, its edges' frontier colours updated."""
    filled |= 1 << x
    for side in range(2):
        e = _edge(x, side, n)
        if (filled >> _nb(x, side, n)) & 1:
            colours &= ~(1 << e)
        elif facing[card, o, x, side] == 1:
            colours |= 1 << e
        else:
            colours &= ~(1 << e)
    return filled, colours


@njit(cache=True)
def is_legal(filled, x, touches, n):
    """Ring cell ``x`` is empty and next to the centre or to a filled ring cell (pangu.md#placing)."""
    if (filled >> x) & 1:
        return False
    return touches[x] == 1 or ((filled >> _nb(x, 0, n)) & 1) == 1 or ((filled >> _nb(x, 1, n)) & 1) == 1


@njit(cache=True)
def dense_slot(filled, colours, unplaced, fc_index, ranks, n_d, n):
    """The row of key ``(F, C, D)`` in its level's dense table (see ``arrays.dense_index``)."""
    fc = fc_index[(filled << n) | colours]
    return fc * n_d + ranks[unplaced]


@njit(cache=True)
def unpack_key(key):
    """``(F, C, D)`` of a packed turn-start key ``F | C << 10 | D << 20``."""
    return key & 1023, (key >> 10) & 1023, (key >> 20) & 1023


@njit(cache=True)
def members_of(mask, cards, members):
    """The cards of ``mask`` into ``members``, in increasing order; returns how many."""
    m = 0
    for c in range(cards):
        if (mask >> c) & 1:
            members[m] = c
            m += 1
    return m


@njit(cache=True, parallel=True)
def turn_successors(keys, fc_index, ranks, n_d_next, n_slots, facing, touches, n, cards, orients):
    """Mark the next level's keys reachable from ``keys`` by one turn of 3 cards (any legal plan).

    The layout after a turn does not depend on the order of its placements, so this visits each
    hand once (unordered) and each assignment of its cards to cells once; an assignment has a
    legal order iff every new cell off the centre has a ring neighbour filled before the turn or
    new and next to the centre (placed first). Threads may mark the same slot: with the same value.
    """
    reached = np.zeros(n_slots, dtype=np.int64)  # the packed key + 1, or 0
    for q in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        members = np.zeros(cards, dtype=np.int64)
        d = members_of(unplaced, cards, members)
        for i0 in range(d):
            for i1 in range(i0 + 1, d):
                for i2 in range(i1 + 1, d):
                    a, b, c = members[i0], members[i1], members[i2]
                    after = unplaced & ~((1 << a) | (1 << b) | (1 << c))
                    for x0 in range(n):
                        if (filled >> x0) & 1:
                            continue
                        for x1 in range(n):
                            if x1 == x0 or (filled >> x1) & 1:
                                continue
                            for x2 in range(n):
                                if x2 == x0 or x2 == x1 or (filled >> x2) & 1:
                                    continue
                                new = (1 << x0) | (1 << x1) | (1 << x2)
                                if not (
                                    is_supported(x0, filled, new, touches, n)
                                    and is_supported(x1, filled, new, touches, n)
                                    and is_supported(x2, filled, new, touches, n)
                                ):
                                    continue
                                for o0 in range(orients):
                                    f0, c0 = place_card(filled, colours, a, o0, x0, facing, n)
                                    for o1 in range(orients):
                                        f1, c1 = place_card(f0, c0, b, o1, x1, facing, n)
                                        for o2 in range(orients):
                                            f2, c2 = place_card(f1, c1, c, o2, x2, facing, n)
                                            s = dense_slot(f2, c2, after, fc_index, ranks, n_d_next, n)
                                            reached[s] = (f2 | (c2 << 10) | (after << 20)) + 1
    return reached


@njit(cache=True, parallel=True)
def placement_successors(keys, fc_all, ranks, n_d_next, n_slots, facing, touches, n, cards, orients):
    """Mark the keys one placement after ``keys``: any unplaced card on any legal cell, in any orientation.

    Three such steps list the next turn start's keys: the same set as ``turn_successors`` (a turn's layout
    does not depend on the order of its placements, and a legal turn is three legal placements in a
    row), with the marks deduplicated after each step, so each step visits far fewer placements than
    the whole turns would."""
    reached = np.zeros(n_slots, dtype=np.int64)  # the packed key + 1, or 0
    for q in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        for x in range(n):
            if not is_legal(filled, x, touches, n):
                continue
            for card in range(cards):
                if not (unplaced >> card) & 1:
                    continue
                after = unplaced & ~(1 << card)
                for o in range(orients):
                    f, c = place_card(filled, colours, card, o, x, facing, n)
                    reached[dense_slot(f, c, after, fc_all, ranks, n_d_next, n)] = (f | (c << 10) | (after << 20)) + 1
    return reached


@njit(cache=True)
def is_supported(x, filled, new, touches, n):
    """A new cell of a turn can be played in some order: next to the centre, or a ring neighbour
    filled before the turn, or a new ring neighbour next to the centre (played before it)."""
    if touches[x] == 1:
        return True
    for side in range(2):
        y = _nb(x, side, n)
        if (filled >> y) & 1 or ((new >> y) & 1 and touches[y] == 1):
            return True
    return False


@njit(cache=True)
def final_card_rows(keys, facing, centre_rec, cost, step, karma, penalty, n, cards, orients):
    """The last card alone (turn 4): scaled by 35, the number of unblocked rolls."""
    out = np.zeros((keys.shape[0], karma + 1))
    for q in range(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        card = 0
        for c in range(cards):
            if (unplaced >> c) & 1:
                card = c
        x = 0
        for y in range(n):
            if not (filled >> y) & 1:
                x = y
        rec = 0
        for o in range(orients):
            r = placement_rec(filled, colours, card, o, x, facing, centre_rec, n)
            if r > rec:
                rec = r
        for k in range(1, karma + 1):
            wins = 0.0
            for r in range(36):
                c = cost[card, r]
                if c > 0 and step[k, c, rec] > 0:
                    wins += 1.0
            out[q, k] = wins
        if penalty:
            paid = np.zeros(karma + 1)
            for k in range(1, karma + 1):
                paid[k] = out[q, k] * 35.0 / 36.0 + paid[k - 1] / 36.0
            out[q] = paid
    return out
