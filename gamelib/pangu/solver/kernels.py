"""The numba kernels every evaluator shares: one placement on the ring, a key's dense slot, the
successors of a turn and the final card's rows (see docs/pangu_solver.md).

Kernels take plain arrays, integers and two structures, never a game object: ``arrays``, the model's
``arrays.ModelArrays`` (numba types a NamedTuple as a tuple and reads its fields at no cost), and
``index``, an ``arrays.DenseIndex`` locating a level's keys in its dense table. This module imports
nothing of the game. The ring cells are numbered in cycle order; a packed turn-start key is
``F | C << 10 | D << 20``.

One signature per kernel: numba compiles a kernel once for each distinct tuple of argument types it is
called with, and types an integer constant as its own literal type (``Literal[int](3)``, not ``int64``),
so a kernel called with ``3`` in one place and a variable in another is compiled twice, and so is
everything it calls; a variable that starts as a constant (``card = 0``) can cost the same while numba
types it. The kernels therefore pass integers as ``int64`` (``np.int64(3)``, ``np.int64(-1)``), keys as
int64 arrays, and one structure type per parameter: every kernel compiles once (a cold cache compiles
each of them, most of the long numba tests' time). No kernel copies a whole array into a row
(``out[q] = row``): that compiles numba's broadcast shape check and its message formatting, about 5 s of
CPU in every process that compiles the kernels; they copy element by element. ``parallel=True`` costs
about three times the compile of the same kernel on one thread, so only the heavy passes have it.
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
def placement_rec(filled, colours, card, o, x, arrays):
    """The ``rec`` of ``card`` in orientation ``o`` on ring cell ``x``: the centre's plus one per filled
    neighbour whose facing colour matches (pangu.md#karma)."""
    n = arrays.n
    rec = arrays.centre_rec[card, o, x]
    for side in range(2):
        if (filled >> _nb(x, side, n)) & 1:
            if arrays.facing[card, o, x, side] == ((colours >> _edge(x, side, n)) & 1):
                rec += 1
    return rec


@njit(cache=True)
def place_card(filled, colours, card, o, x, arrays):
    """``(F, C)`` after ``card`` is placed on ``x``: the cell filled, its edges' frontier colours updated."""
    n = arrays.n
    filled |= 1 << x
    for side in range(2):
        e = _edge(x, side, n)
        if (filled >> _nb(x, side, n)) & 1:
            colours &= ~(1 << e)
        elif arrays.facing[card, o, x, side] == 1:
            colours |= 1 << e
        else:
            colours &= ~(1 << e)
    return filled, colours


@njit(cache=True)
def is_legal(filled, x, arrays):
    """Ring cell ``x`` is empty and next to the centre or to a filled ring cell (pangu.md#placing)."""
    n = arrays.n
    if (filled >> x) & 1:
        return False
    return arrays.touches[x] == 1 or ((filled >> _nb(x, 0, n)) & 1) == 1 or ((filled >> _nb(x, 1, n)) & 1) == 1


@njit(cache=True)
def dense_slot(filled, colours, unplaced, index):
    """The row of key ``(F, C, D)`` in its level's dense table (``index``: an ``arrays.DenseIndex``)."""
    fc = index.fc_index[(filled << index.n) | colours]
    return fc * index.n_d + index.ranks[unplaced]


@njit(cache=True)
def unpack_key(key):
    """``(F, C, D)`` of a packed turn-start key ``F | C << 10 | D << 20``."""
    return key & 1023, (key >> 10) & 1023, (key >> 20) & 1023


@njit(cache=True)
def pack_key(filled, colours, unplaced):
    """The packed turn-start key ``F | C << 10 | D << 20``."""
    return filled | (colours << 10) | (unplaced << 20)


@njit(cache=True)
def members_of(mask, cards, members):
    """The cards of ``mask`` into ``members``, in increasing order; returns how many."""
    m = 0
    for c in range(cards):
        if (mask >> c) & 1:
            members[m] = c
            m += 1
    return m


@njit(cache=True)
def placements(filled, colours, card, arrays, out):
    """Every legal placement of ``card`` on the layout ``(F, C)``: rows ``(rec, F', C')`` into ``out``
    (at least ``n x orients`` rows), in cell then orientation order; returns how many."""
    count = 0
    for x in range(arrays.n):
        if not is_legal(filled, x, arrays):
            continue
        for o in range(arrays.orients):
            out[count, 0] = placement_rec(filled, colours, card, o, x, arrays)
            out[count, 1], out[count, 2] = place_card(filled, colours, card, o, x, arrays)
            count += 1
    return count


@njit(cache=True)
def turn_successors(keys, index, n_slots, arrays):
    """Mark the next level's keys reachable from ``keys`` by one turn of 3 cards (any legal plan).

    The layout after a turn does not depend on the order of its placements, so this visits each
    hand once (unordered) and each assignment of its cards to cells once; an assignment has a
    legal order iff every new cell off the centre has a ring neighbour filled before the turn or
    new and next to the centre (placed first).

    The tests' oracle of ``placement_successors`` (the builders list keys with that one), so it runs on one
    thread: a ``parallel=True`` kernel costs about three times the compile (turn_successors: 6.5 s of CPU
    against 2.3 s), which a clean clone's CI pays, and threads save no CPU.
    """
    n, cards, orients = arrays.n, arrays.cards, arrays.orients
    reached = np.zeros(n_slots, dtype=np.int64)  # the packed key + 1, or 0
    members = np.zeros(cards, dtype=np.int64)
    for q in range(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
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
                                    is_supported(x0, filled, new, arrays)
                                    and is_supported(x1, filled, new, arrays)
                                    and is_supported(x2, filled, new, arrays)
                                ):
                                    continue
                                for o0 in range(orients):
                                    f0, c0 = place_card(filled, colours, a, o0, x0, arrays)
                                    for o1 in range(orients):
                                        f1, c1 = place_card(f0, c0, b, o1, x1, arrays)
                                        for o2 in range(orients):
                                            f2, c2 = place_card(f1, c1, c, o2, x2, arrays)
                                            s = dense_slot(f2, c2, after, index)
                                            reached[s] = pack_key(f2, c2, after) + 1
    return reached


@njit(cache=True, parallel=True)
def placement_successors(keys, index, n_slots, arrays):
    """Mark the keys one placement after ``keys``: any unplaced card on any legal cell, in any orientation.

    Three such steps list the next turn start's keys: the same set as ``turn_successors`` (a turn's layout
    does not depend on the order of its placements, and a legal turn is three legal placements in a
    row), with the marks deduplicated after each step, so each step visits far fewer placements than
    the whole turns would."""
    reached = np.zeros(n_slots, dtype=np.int64)  # the packed key + 1, or 0
    for q in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        for x in range(arrays.n):
            if not is_legal(filled, x, arrays):
                continue
            for card in range(arrays.cards):
                if not (unplaced >> card) & 1:
                    continue
                after = unplaced & ~(1 << card)
                for o in range(arrays.orients):
                    f, c = place_card(filled, colours, card, o, x, arrays)
                    reached[dense_slot(f, c, after, index)] = pack_key(f, c, after) + 1
    return reached


@njit(cache=True)
def is_supported(x, filled, new, arrays):
    """A new cell of a turn can be played in some order: next to the centre, or a ring neighbour
    filled before the turn, or a new ring neighbour next to the centre (played before it)."""
    if arrays.touches[x] == 1:
        return True
    for side in range(2):
        y = _nb(x, side, arrays.n)
        if (filled >> y) & 1 or ((new >> y) & 1 and arrays.touches[y] == 1):
            return True
    return False


@njit(cache=True)
def final_card_rows(keys, arrays, penalty):
    """The last card alone (turn 4): scaled by 35, the number of unblocked rolls."""
    karma = arrays.karma
    out = np.zeros((keys.shape[0], karma + 1))
    for q in range(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        card = np.int64(0)  # not a literal 0 (see the module's docstring)
        for c in range(arrays.cards):
            if (unplaced >> c) & 1:
                card = c
        x = np.int64(0)
        for y in range(arrays.n):
            if not (filled >> y) & 1:
                x = y
        rec = 0
        for o in range(arrays.orients):
            r = placement_rec(filled, colours, card, o, x, arrays)
            if r > rec:
                rec = r
        for k in range(1, karma + 1):
            wins = 0.0
            for r in range(36):
                c = arrays.cost[card, r]
                if c > 0 and arrays.step[k, c, rec] > 0:
                    wins += 1.0
            out[q, k] = wins
        if penalty:  # in place, from k = 1 up: paid[k] reads paid[k - 1], already written
            for k in range(1, karma + 1):
                out[q, k] = out[q, k] * 35.0 / 36.0 + out[q, k - 1] / 36.0
    return out


@njit(cache=True)
def hands_of(unplaced, cards, hands):
    """Every ordered hand of 3 cards of ``unplaced`` into ``hands`` (rows ``(first, second, third)``, at least
    ``d (d - 1) (d - 2)`` of them), the first card slowest; returns how many."""
    members = np.zeros(cards, dtype=np.int64)
    d = members_of(unplaced, cards, members)
    count = 0
    for i0 in range(d):
        for i1 in range(d):
            for i2 in range(d):
                if i1 == i0 or i2 == i0 or i2 == i1:
                    continue
                hands[count, 0], hands[count, 1], hands[count, 2] = members[i0], members[i1], members[i2]
                count += 1
    return count


@njit(cache=True)
def roll_classes(order, cost, rolls, times):
    """The 36 rolls of the ordered hand ``order`` grouped by the costs of its three cards (a bot's play depends on
    nothing else): ``rolls[i]`` the first roll of the i-th class, ``times[i]`` how many rolls it stands for, in
    the order of their first rolls. Returns how many classes."""
    count = 0
    for r in range(36):
        found = -1
        for i in range(count):
            s = rolls[i]
            if cost[order[0], s] == cost[order[0], r] and cost[order[1], s] == cost[order[1], r]:
                if cost[order[2], s] == cost[order[2], r]:
                    found = i
                    break
        if found >= 0:
            times[found] += 1
        else:
            rolls[count] = r
            times[count] = 1
            count += 1
    return count
