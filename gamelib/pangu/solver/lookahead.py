"""The exact whole-game chance of winning of ``bots.lookahead_policy`` (numba, the ``solver`` extra).

The lookahead bot (``bots.TurnPlanner``) plays the first move, in the action order, of a plan that
maximises the expected Karma at the end of the turn (a lost game counts 0, stuck rerolls averaged
exactly). It depends on Karma, so the forward pass lists (key, Karma) pairs and every decision runs
the planner's search (``_la_value``, in units of 1/35 Karma so the reroll average is whole).

The whole-game run (``solve_lookahead``) uses memoised copies of the search (``_lam_value``) and plays
each turn once: turns 1 and 2 forward with every play's outcome stored, turn 3 summed against the
final card's table, then turns 2 and 1 only sum their stored plays. The plain kernels are the
tests' oracle for the memoised ones. See docs/pangu_solver.md, "A bot's value".
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

try:
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("evaluating the bots exactly needs numba: pip install -e '.[solver]'") from error

from gamelib.pangu.rules import Rules
from gamelib.pangu.solver.arrays import MAX_REC, slots_of
from gamelib.pangu.solver.kernels import dense_slot, is_legal, place_card, placement_rec
from gamelib.pangu.solver.levels import (
    Arrays,
    action_of,
    all_keys,
    check_supported,
    decision_arrays,
    ordered_hands,
    roll_index,
    turn_three_value,
)
from gamelib.pangu.solver.model import build_model


# --------------------------------------------------------------------------- the lookahead bot (bots.TurnPlanner)


@njit(cache=True)
def _class_rolls(cost):
    """``class_roll[card, c]``: a roll at which ``card`` costs ``c`` (-1 if none): it stands for every
    reroll of that cost class, since blocked cards share both numbers."""
    out = np.full((cost.shape[0], 6), -1, dtype=np.int64)
    for card in range(cost.shape[0]):
        for r in range(36):
            if out[card, cost[card, r]] < 0:
                out[card, cost[card, r]] = r
    return out


# The planner's kernels are recursive: numba's on-disk cache of a recursive function (and of its callers)
# is not safe to read back in another process, so these compile afresh in each process.
@njit()
def _la_value(
    filled,
    colours,
    order,
    count,
    placed,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
):
    """35 x the expected Karma at the end of the turn with the best plan (``TurnPlanner.value``; lost = 0).

    After a stuck roll the blocked rest is played under each reroll class: 35 x the expectation is the
    sum over the 35 rerolls of the Karma reached, a whole number."""
    first = -1
    unblocked = False
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1:
            continue
        if first < 0:
            first = card
        if cost[card, roll] > 0:
            unblocked = True
    if first < 0:
        return 35 * k
    if not unblocked:
        total = 0
        for c in range(1, 6):
            times = reroll_counts[first, c]
            if times > 0:
                total += (
                    times
                    * _la_value(
                        filled,
                        colours,
                        order,
                        count,
                        placed,
                        class_roll[first, c],
                        k,
                        facing,
                        centre_rec,
                        touches,
                        cost,
                        step,
                        rowmajor,
                        reroll_counts,
                        class_roll,
                        orients,
                        n,
                    )
                    // 35
                )
        return total
    return _la_choice(
        filled,
        colours,
        order,
        count,
        placed,
        roll,
        k,
        facing,
        centre_rec,
        touches,
        cost,
        step,
        rowmajor,
        reroll_counts,
        class_roll,
        orients,
        n,
    )[0]


@njit()
def _la_choice(
    filled,
    colours,
    order,
    count,
    placed,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
):
    """The lookahead's move: the first (card, cell, orientation) in the action order of best value, as
    ``TurnPlanner.best_action`` (strictly greater replaces). Returns (value, i, x, o, Karma after); i = -1 and
    value -1 if every card is blocked. ``_la_value`` of a position is this move's value."""
    best = -1
    best_i, best_x, best_o, best_k = -1, -1, -1, 0
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1:
            continue
        c = cost[card, roll]
        if c == 0:
            continue
        for q in range(n):
            x = rowmajor[q]
            if not is_legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(placement_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = place_card(filled, colours, card, o, x, facing, n)
                    v = _la_value(
                        f2,
                        c2,
                        order,
                        count,
                        placed | (1 << card),
                        roll,
                        k2,
                        facing,
                        centre_rec,
                        touches,
                        cost,
                        step,
                        rowmajor,
                        reroll_counts,
                        class_roll,
                        orients,
                        n,
                    )
                if v > best:
                    best = v
                    best_i, best_x, best_o, best_k = i, x, o, k2
    return best, best_i, best_x, best_o, best_k


@njit()
def _la_phase(
    filled,
    colours,
    order,
    count,
    placed,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
):
    """Play the lookahead with ``roll`` until every card is placed, the rest is blocked, or the game is lost.
    Returns (F, C, placed, Karma); Karma 0 = lost."""
    while True:
        _, i, x, o, k2 = _la_choice(
            filled,
            colours,
            order,
            count,
            placed,
            roll,
            k,
            facing,
            centre_rec,
            touches,
            cost,
            step,
            rowmajor,
            reroll_counts,
            class_roll,
            orients,
            n,
        )
        if i < 0:
            return filled, colours, placed, k
        if k2 == 0:
            return filled, colours, placed, 0
        filled, colours = place_card(filled, colours, order[i], o, x, facing, n)
        placed |= 1 << order[i]
        k = k2


@njit()
def _la_roll(
    filled,
    colours,
    after,
    order,
    count,
    roll,
    k,
    next_table,
    fc_index,
    ranks,
    n_d_next,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
):
    """35 x the lookahead's value from Karma ``k`` after ``roll`` (a stuck roll: the sum over the 35 rerolls)."""
    full = 0
    for i in range(count):
        full |= 1 << order[i]
    f, c, placed, k1 = _la_phase(
        filled,
        colours,
        order,
        count,
        0,
        roll,
        k,
        facing,
        centre_rec,
        touches,
        cost,
        step,
        rowmajor,
        reroll_counts,
        class_roll,
        orients,
        n,
    )
    if k1 == 0:
        return 0
    if placed == full:
        return 35 * next_table[dense_slot(f, c, after, fc_index, ranks, n_d_next, n)][k1]
    first = 0
    for i in range(count):
        if not (placed >> order[i]) & 1:
            first = order[i]
            break
    total = 0
    for cc in range(1, 6):
        times = reroll_counts[first, cc]
        if times == 0:
            continue
        f2, c2, placed2, k2 = _la_phase(
            f,
            c,
            order,
            count,
            placed,
            class_roll[first, cc],
            k1,
            facing,
            centre_rec,
            touches,
            cost,
            step,
            rowmajor,
            reroll_counts,
            class_roll,
            orients,
            n,
        )
        if k2 > 0:
            total += times * next_table[dense_slot(f2, c2, after, fc_index, ranks, n_d_next, n)][k2]
    return total


@njit(parallel=True)
def _la_level(
    keys,
    karmas,
    out,
    next_table,
    fc_index,
    ranks,
    n_d_next,
    rowmajor,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    reroll_counts,
    class_roll,
    karma,
    n,
    cards,
    orients,
):
    """The lookahead's value rows at one turn-start level: every ordered hand, roll class and Karma (scaled).
    ``karmas[q]`` masks the Karma values to compute (the others, never reached, stay 0)."""
    for q in prange(keys.shape[0]):
        key = keys[q]
        filled = key & 1023
        colours = (key >> 10) & 1023
        unplaced = (key >> 20) & 1023
        members = np.zeros(cards, dtype=np.int64)
        d = 0
        for c in range(cards):
            if (unplaced >> c) & 1:
                members[d] = c
                d += 1
        row_out = np.zeros(karma + 1, dtype=np.int64)
        order = np.zeros(3, dtype=np.int64)
        by_code = np.zeros(216, dtype=np.int64)
        for i0 in range(d):
            for i1 in range(d):
                for i2 in range(d):
                    if i1 == i0 or i2 == i0 or i2 == i1:
                        continue
                    order[0], order[1], order[2] = members[i0], members[i1], members[i2]
                    after = unplaced & ~((1 << order[0]) | (1 << order[1]) | (1 << order[2]))
                    for code in range(216):
                        by_code[code] = 0
                    for r in range(36):
                        by_code[(cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]] += 1
                    for r in range(36):
                        code = (cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]
                        times = by_code[code]
                        if times == 0:
                            continue
                        by_code[code] = 0  # the first roll of its class stands for it
                        for k in range(1, karma + 1):
                            if not (karmas[q] >> k) & 1:
                                continue
                            row_out[k] += times * _la_roll(
                                filled,
                                colours,
                                after,
                                order,
                                3,
                                r,
                                k,
                                next_table,
                                fc_index,
                                ranks,
                                n_d_next,
                                facing,
                                centre_rec,
                                touches,
                                cost,
                                step,
                                rowmajor,
                                reroll_counts,
                                class_roll,
                                orients,
                                n,
                            )
        out[q] = row_out


@njit(cache=True)
def _la_mark(reached, f, c, after, k, fc_index, ranks, n_d_next, n):
    """Mark next key (f, c, after) as reached at Karma ``k``."""
    s = dense_slot(f, c, after, fc_index, ranks, n_d_next, n)
    reached[s, 0] = (f | (c << 10) | (after << 20)) + 1
    reached[s, 1] |= 1 << k


@njit(parallel=True)
def _la_reached(
    keys,
    karmas,
    reached,
    fc_index,
    ranks,
    n_d_next,
    rowmajor,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    reroll_counts,
    class_roll,
    karma,
    n,
    cards,
    orients,
):
    """Mark the (next key, Karma) pairs the lookahead reaches from ``keys`` at the Karma values ``karmas``.
    Two halves of the keys write to their own ``reached[half]`` (a Karma mask is OR-ed: no shared writes)."""
    halves = reached.shape[0]
    total = keys.shape[0]
    for half in prange(halves):
        mine = reached[half]
        order = np.zeros(3, dtype=np.int64)
        seen = np.zeros(216, dtype=np.int64)
        for q in range(half * total // halves, (half + 1) * total // halves):
            key = keys[q]
            filled = key & 1023
            colours = (key >> 10) & 1023
            unplaced = (key >> 20) & 1023
            members = np.zeros(cards, dtype=np.int64)
            d = 0
            for c in range(cards):
                if (unplaced >> c) & 1:
                    members[d] = c
                    d += 1
            for i0 in range(d):
                for i1 in range(d):
                    for i2 in range(d):
                        if i1 == i0 or i2 == i0 or i2 == i1:
                            continue
                        order[0], order[1], order[2] = members[i0], members[i1], members[i2]
                        full = (1 << order[0]) | (1 << order[1]) | (1 << order[2])
                        after = unplaced & ~full
                        for code in range(216):
                            seen[code] = 0
                        for r in range(36):
                            code = (cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]
                            if seen[code]:
                                continue
                            seen[code] = 1
                            for k in range(1, karma + 1):
                                if not (karmas[q] >> k) & 1:
                                    continue
                                f, c, placed, k1 = _la_phase(
                                    filled,
                                    colours,
                                    order,
                                    3,
                                    0,
                                    r,
                                    k,
                                    facing,
                                    centre_rec,
                                    touches,
                                    cost,
                                    step,
                                    rowmajor,
                                    reroll_counts,
                                    class_roll,
                                    orients,
                                    n,
                                )
                                if k1 == 0:
                                    continue
                                if placed == full:
                                    _la_mark(mine, f, c, after, k1, fc_index, ranks, n_d_next, n)
                                    continue
                                first = 0
                                for i in range(3):
                                    if not (placed >> order[i]) & 1:
                                        first = order[i]
                                        break
                                for cc in range(1, 6):
                                    if reroll_counts[first, cc] == 0:
                                        continue
                                    f2, c2, placed2, k2 = _la_phase(
                                        f,
                                        c,
                                        order,
                                        3,
                                        placed,
                                        class_roll[first, cc],
                                        k1,
                                        facing,
                                        centre_rec,
                                        touches,
                                        cost,
                                        step,
                                        rowmajor,
                                        reroll_counts,
                                        class_roll,
                                        orients,
                                        n,
                                    )
                                    if k2 > 0:
                                        _la_mark(mine, f2, c2, after, k2, fc_index, ranks, n_d_next, n)


# --------------------------------------------------------------------------- the lookahead bot, memoised (the whole-game run)
#
# The whole-game run evaluates the planner at every (key, Karma, ordered hand, roll class): millions
# of searches of ~1,000 nodes each. Three savings, each keeping every choice of ``_la_choice``:
# * the value of a search node depends only on (F, C, the hand's cards left, their costs under the
#   roll, Karma): not on the deck left, the hand's order (order only breaks ties between equal values)
#   or the roll beyond those costs, so ``_lam_value`` memoises it per thread in an open-addressing
#   table (``MEMO_BITS``; a full probe run only stops storing, and the table is cleared when half full);
# * each play of a turn is done once: in the forward pass its outcome (next key, Karma, weight) is
#   stored (``_la_outcomes`` with ``emit``), and the backward pass only sums those rows against the next
#   level's table (``outcome_rows``); the last turn's plays are summed against the full final-card table
#   straight away, without a forward pass;
# * the keys are worked in groups of equal (F, C), which share their search nodes.

MEMO_BITS = 21  # entries of each thread's memo: 2**21 x 24 bytes
MEMO_PROBES = 16
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (a multiplicative hash; int64 wraps)


@njit(cache=True, inline="always")
def _memo_home(key, mask):
    """The first slot probed for ``key`` (a multiplicative hash)."""
    h = key * _GOLDEN
    return (h ^ (h >> 31)) & mask


@njit(cache=True)
def _memo_get(memo_keys, memo_vals, memo_stamp, gen, key):
    """The stored value of ``key``, -1 if absent (every value is >= 0)."""
    mask = memo_keys.shape[0] - 1
    s = _memo_home(key, mask)
    for _ in range(MEMO_PROBES):
        if memo_stamp[s] != gen:
            return -1
        if memo_keys[s] == key:
            return memo_vals[s]
        s = (s + 1) & mask
    return -1


@njit(cache=True)
def _memo_put(memo_keys, memo_vals, memo_stamp, memo_state, key, value):
    """Store ``key``; ``memo_state`` = (generation, entries). At half load the table starts a new generation."""
    mask = memo_keys.shape[0] - 1
    if memo_state[1] * 2 > memo_keys.shape[0]:
        memo_state[0] += 1
        memo_state[1] = 0
    gen = memo_state[0]
    s = _memo_home(key, mask)
    for _ in range(MEMO_PROBES):
        if memo_stamp[s] != gen:
            memo_stamp[s] = gen
            memo_keys[s] = key
            memo_vals[s] = value
            memo_state[1] += 1
            return
        s = (s + 1) & mask


@njit()
def _lam_value(
    filled,
    colours,
    rem,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    reroll_counts,
    class_roll,
    orients,
    n,
    memo_keys,
    memo_vals,
    memo_stamp,
    memo_state,
):
    """``_la_value`` of the position with the hand's cards ``rem`` left (a set: the value is the best
    child's, whatever the order), memoised by (F, C, rem, their costs under ``roll``, Karma)."""
    if rem == 0:
        return 35 * k
    first = -1
    unblocked = False
    code = 0
    left = 0
    for card in range(cost.shape[0]):
        if (rem >> card) & 1:
            if first < 0:
                first = card
            c = cost[card, roll]
            code = code * 6 + c
            left += 1
            if c > 0:
                unblocked = True
    if not unblocked:  # blocked cards share both numbers: any of them gives the reroll classes
        total = 0
        for c in range(1, 6):
            times = reroll_counts[first, c]
            if times > 0:
                total += (
                    times
                    * _lam_value(
                        filled,
                        colours,
                        rem,
                        class_roll[first, c],
                        k,
                        facing,
                        centre_rec,
                        touches,
                        cost,
                        step,
                        reroll_counts,
                        class_roll,
                        orients,
                        n,
                        memo_keys,
                        memo_vals,
                        memo_stamp,
                        memo_state,
                    )
                    // 35
                )
        return total
    key = filled | (colours << 10) | (rem << 20) | (code << 30) | (k << 38)
    if left > 1:
        stored = _memo_get(memo_keys, memo_vals, memo_stamp, memo_state[0], key)
        if stored >= 0:
            return stored
    best = -1
    for card in range(cost.shape[0]):
        if not (rem >> card) & 1:
            continue
        c = cost[card, roll]
        if c == 0:
            continue
        for x in range(n):
            if not is_legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(placement_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = place_card(filled, colours, card, o, x, facing, n)
                    v = _lam_value(
                        f2,
                        c2,
                        rem & ~(1 << card),
                        roll,
                        k2,
                        facing,
                        centre_rec,
                        touches,
                        cost,
                        step,
                        reroll_counts,
                        class_roll,
                        orients,
                        n,
                        memo_keys,
                        memo_vals,
                        memo_stamp,
                        memo_state,
                    )
                if v > best:
                    best = v
    if left > 1:
        _memo_put(memo_keys, memo_vals, memo_stamp, memo_state, key, best)
    return best


@njit()
def _lam_choice(
    filled,
    colours,
    order,
    count,
    placed,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
    memo_keys,
    memo_vals,
    memo_stamp,
    memo_state,
):
    """``_la_choice`` with the children's values from ``_lam_value``: the same loops, so the same move."""
    rem = 0
    for i in range(count):
        rem |= 1 << order[i]
    rem &= ~placed
    best = -1
    best_i, best_x, best_o, best_k = -1, -1, -1, 0
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1:
            continue
        c = cost[card, roll]
        if c == 0:
            continue
        for q in range(n):
            x = rowmajor[q]
            if not is_legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(placement_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = place_card(filled, colours, card, o, x, facing, n)
                    v = _lam_value(
                        f2,
                        c2,
                        rem & ~(1 << card),
                        roll,
                        k2,
                        facing,
                        centre_rec,
                        touches,
                        cost,
                        step,
                        reroll_counts,
                        class_roll,
                        orients,
                        n,
                        memo_keys,
                        memo_vals,
                        memo_stamp,
                        memo_state,
                    )
                if v > best:
                    best = v
                    best_i, best_x, best_o, best_k = i, x, o, k2
    return best, best_i, best_x, best_o, best_k


@njit()
def _lam_phase(
    filled,
    colours,
    order,
    count,
    placed,
    roll,
    k,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    rowmajor,
    reroll_counts,
    class_roll,
    orients,
    n,
    memo_keys,
    memo_vals,
    memo_stamp,
    memo_state,
):
    """``_la_phase`` with ``_lam_choice``: (F, C, placed, Karma), Karma 0 = lost."""
    while True:
        _, i, x, o, k2 = _lam_choice(
            filled,
            colours,
            order,
            count,
            placed,
            roll,
            k,
            facing,
            centre_rec,
            touches,
            cost,
            step,
            rowmajor,
            reroll_counts,
            class_roll,
            orients,
            n,
            memo_keys,
            memo_vals,
            memo_stamp,
            memo_state,
        )
        if i < 0:
            return filled, colours, placed, k
        if k2 == 0:
            return filled, colours, placed, 0
        filled, colours = place_card(filled, colours, order[i], o, x, facing, n)
        placed |= 1 << order[i]
        k = k2


@njit(nogil=True)
def _la_outcomes(
    keys,
    karmas,
    emit,
    out_code,
    out_weight,
    next_table,
    rows,
    fc_index,
    ranks,
    n_d_next,
    rowmajor,
    facing,
    centre_rec,
    touches,
    cost,
    step,
    reroll_counts,
    class_roll,
    karma,
    n,
    cards,
    orients,
    memo_keys,
    memo_vals,
    memo_stamp,
    memo_state,
):
    """Play the lookahead at every (key, Karma in its mask, ordered hand, roll class) of ``keys``.
    (Long: one jitted loop nest over hands, rolls and reroll classes, which numba compiles as one.)

    Each outcome is (q, k, next key, next Karma, weight), the weight counting the rolls (x35 if not
    stuck; a stuck roll counts each reroll class's rerolls): with ``emit`` it goes to ``out_code``
    (``((q * 16 + k) << 34 | next key) << 4 | next Karma``) and ``out_weight``, and the count is returned
    (-1 if the arrays are full); else ``rows[q, k]`` adds weight x ``next_table``'s entry (``rows[q, 0]``
    = -1 flags a next key the table lacks)."""
    count = 0
    order = np.zeros(3, dtype=np.int64)
    by_code = np.zeros(216, dtype=np.int64)
    members = np.zeros(cards, dtype=np.int64)
    for q in range(keys.shape[0]):
        key = keys[q]
        filled = key & 1023
        colours = (key >> 10) & 1023
        unplaced = (key >> 20) & 1023
        d = 0
        for c in range(cards):
            if (unplaced >> c) & 1:
                members[d] = c
                d += 1
        for i0 in range(d):
            for i1 in range(d):
                for i2 in range(d):
                    if i1 == i0 or i2 == i0 or i2 == i1:
                        continue
                    order[0], order[1], order[2] = members[i0], members[i1], members[i2]
                    full = (1 << order[0]) | (1 << order[1]) | (1 << order[2])
                    after = unplaced & ~full
                    for code in range(216):
                        by_code[code] = 0
                    for r in range(36):
                        by_code[(cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]] += 1
                    for r in range(36):
                        code = (cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]
                        times = by_code[code]
                        if times == 0:
                            continue
                        by_code[code] = 0  # the first roll of its class stands for it
                        for k in range(1, karma + 1):
                            if not (karmas[q] >> k) & 1:
                                continue
                            f, c, placed, k1 = _lam_phase(
                                filled,
                                colours,
                                order,
                                3,
                                0,
                                r,
                                k,
                                facing,
                                centre_rec,
                                touches,
                                cost,
                                step,
                                rowmajor,
                                reroll_counts,
                                class_roll,
                                orients,
                                n,
                                memo_keys,
                                memo_vals,
                                memo_stamp,
                                memo_state,
                            )
                            if k1 == 0:
                                continue
                            first = -1
                            if placed != full:
                                for i in range(3):
                                    if not (placed >> order[i]) & 1:
                                        first = order[i]
                                        break
                            for cc in range(6):
                                if first < 0:  # not stuck: one outcome, all 35 rerolls' worth
                                    if cc > 0:
                                        break
                                    f2, c2, k2, weight = f, c, k1, 35 * times
                                else:
                                    if cc == 0 or reroll_counts[first, cc] == 0:
                                        continue
                                    f2, c2, _, k2 = _lam_phase(
                                        f,
                                        c,
                                        order,
                                        3,
                                        placed,
                                        class_roll[first, cc],
                                        k1,
                                        facing,
                                        centre_rec,
                                        touches,
                                        cost,
                                        step,
                                        rowmajor,
                                        reroll_counts,
                                        class_roll,
                                        orients,
                                        n,
                                        memo_keys,
                                        memo_vals,
                                        memo_stamp,
                                        memo_state,
                                    )
                                    weight = times * reroll_counts[first, cc]
                                    if k2 == 0:
                                        continue
                                if emit:
                                    if count == out_code.shape[0]:
                                        return -1
                                    nxt = f2 | (c2 << 10) | (after << 20)
                                    out_code[count] = (((q * 16 + k) << 34) | nxt) << 4 | k2
                                    out_weight[count] = weight
                                    count += 1
                                else:
                                    s = dense_slot(f2, c2, after, fc_index, ranks, n_d_next, n)
                                    if next_table[s, 0] < 0:
                                        rows[q, 0] = -1
                                    rows[q, k] += weight * next_table[s, k2]
    return count


LOOKAHEAD_THREADS = 2  # worker threads of the whole-game run (the machine is shared)
GROUP_KEYS = 16  # keys per work item: consecutive keys of equal (F, C), which share search nodes


class _Memo:
    """One thread's memo table for ``_lam_value`` (keys, values, generation stamps, [generation, entries])."""

    def __init__(self, bits: int = MEMO_BITS):
        size = 1 << bits
        self.tables = (
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.array([1, 0], np.int64),
        )


def _work_items(keys: np.ndarray, size: int = GROUP_KEYS) -> list[np.ndarray]:
    """Index arrays of at most ``size`` keys, each of one (F, C), in (F, C) order."""
    fc = keys & ((1 << 20) - 1)
    order = np.lexsort((keys, fc))
    items, start = [], 0
    while start < len(order):
        end = start
        while end < len(order) and end - start < size and fc[order[end]] == fc[order[start]]:
            end += 1
        items.append(order[start:end])
        start = end
    return items


def _run_items(items, work, threads: int, verbose: bool, label: str) -> list:
    """``work(item, memo)`` for every item on ``threads`` threads (the kernels release the GIL), in order."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    local = threading.local()
    done = [0]
    lock = threading.Lock()
    t0, c0 = time.perf_counter(), time.process_time()

    def run(item):
        if not hasattr(local, "memo"):
            local.memo = _Memo()
        result = work(item, local.memo.tables)
        with lock:
            done[0] += 1
            if verbose and (done[0] % max(1, len(items) // 20) == 0):
                print(
                    f"  {label}: {done[0]:,}/{len(items):,} work items, {time.perf_counter() - t0:.0f} s wall, "
                    f"{time.process_time() - c0:.0f} s CPU",
                    flush=True,
                )
        return result

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(run, items))


class Outcomes:
    """The stored plays of one level: for each (key q, Karma k), the (next key, next Karma) it reaches with its weight."""

    def __init__(self, q, k, nxt, k2, weight):
        self.q, self.k, self.nxt, self.k2, self.weight = q, k, nxt, k2, weight

    def reached(self) -> tuple[np.ndarray, np.ndarray]:
        """The next level's keys (sorted) and the mask of their Karma values reached."""
        keys, inverse = np.unique(self.nxt, return_inverse=True)
        masks = np.zeros(len(keys), dtype=np.int64)
        np.bitwise_or.at(masks, inverse, np.left_shift(1, self.k2))
        return keys, masks

    def rows(self, data: "Arrays", level: int, count: int, next_table: np.ndarray) -> np.ndarray:
        """The value rows of the level's ``count`` keys: each play's weight times the next level's entry."""
        slots = slots_of(self.nxt, data.fc_index, data.ranks, data.n_d(level + 3), data.n)
        if (next_table[slots, 0] < 0).any():
            raise RuntimeError(f"level {level}: a stored play reaches a key the next level's table lacks")
        rows = np.zeros((count, data.karma + 1), dtype=np.int64)
        np.add.at(rows, (self.q, self.k), self.weight * next_table[slots, self.k2])
        return rows


def _kernel_args(data: "Arrays", level: int, class_roll) -> tuple:
    """The arrays and sizes the memoised kernels take after their own arguments: unpacked here, in one place."""
    a = data.arrays
    return (
        data.fc_index,
        data.ranks,
        data.n_d(level + 3),
        data.rowmajor,
        a.facing,
        a.centre_rec,
        a.touches,
        a.cost,
        data.step,
        data.reroll_counts,
        class_roll,
        data.karma,
        data.n,
        data.cards,
        data.orients,
    )


def la_outcomes(
    data: "Arrays", level: int, keys, karmas, class_roll, threads: int = LOOKAHEAD_THREADS, verbose: bool = False
) -> Outcomes:
    """The forward pass of one level: every play of the lookahead from ``keys`` (at the Karma values of
    ``karmas``), stored with its outcome so that the backward pass does not play again."""
    if data.karma >= 16:
        raise ValueError("the stored plays pack Karma in 4 bits")
    args = _kernel_args(data, level, class_roll)
    dummy = np.zeros((1, data.karma + 1), dtype=np.int64)
    per_pair = ordered_hands(data.cards - level) * 36 * 2

    def work(item, memo):
        pairs = sum(bin(int(m)).count("1") for m in karmas[item])
        capacity = max(1024, pairs * per_pair)
        while True:
            codes = np.zeros(capacity, dtype=np.int64)
            weights = np.zeros(capacity, dtype=np.int64)
            count = _la_outcomes(keys[item], karmas[item], True, codes, weights, dummy, dummy, *args, *memo)
            if count >= 0:
                break
            capacity *= 2
        order = np.argsort(codes[:count], kind="stable")
        codes, weights = codes[:count][order], weights[:count][order]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if count else np.zeros(0, np.int64)
        codes, weights = codes[starts], np.add.reduceat(weights, starts) if count else weights[:0]
        pair = codes >> 38
        return item[pair >> 4], pair & 15, (codes >> 4) & ((1 << 34) - 1), codes & 15, weights

    parts = _run_items(_work_items(keys), work, threads, verbose, f"level {level} forward")
    return Outcomes(*(np.concatenate([p[i] for p in parts]) for i in range(5)))


def la_rows(
    data: "Arrays",
    level: int,
    keys,
    karmas,
    next_table,
    class_roll,
    threads: int = LOOKAHEAD_THREADS,
    verbose: bool = False,
) -> np.ndarray:
    """The lookahead's value rows at ``keys`` (the Karma values of ``karmas``), its plays summed against
    ``next_table`` as they are made (the last turn's, whose table is complete: no forward pass)."""
    args = _kernel_args(data, level, class_roll)
    rows = np.zeros((len(keys), data.karma + 1), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)

    def work(item, memo):
        out = np.zeros((len(item), data.karma + 1), dtype=np.int64)
        _la_outcomes(keys[item], karmas[item], False, empty, empty, next_table, out, *args, *memo)
        rows[item] = out

    _run_items(_work_items(keys), work, threads, verbose, f"level {level} values")
    if (rows[:, 0] < 0).any():
        raise RuntimeError(f"level {level}: a play reaches a key the next level's table lacks")
    return rows


def solve_lookahead(
    rules: Rules, centre: str | None = None, verbose: bool = True, threads: int = LOOKAHEAD_THREADS
) -> Fraction:
    """The exact whole-game value of ``bots.lookahead_policy`` under ``rules`` (one fixed centre).

    Its moves depend on Karma, so each level lists the (key, Karma) pairs it reaches. Turns 1 and 2
    are played once, forward, with every play's outcome stored (``la_outcomes``); turn 3 is summed
    against the complete final-card table as it is played (``la_rows``); then turns 2 and 1 only sum
    their stored plays (``Outcomes.rows``)."""
    check_supported(rules, "lookahead")
    if (centre or rules.centre_config) == "RANDOM":
        return sum((solve_lookahead(rules, c, verbose, threads) for c in ("YIN_LEFT", "YANG_LEFT")), Fraction(0)) / 2
    data = Arrays(build_model(rules, centre), keys={})
    class_roll = _class_rolls(data.arrays.cost)
    keys = {0: np.array([((1 << data.cards) - 1) << 20], dtype=np.int64)}
    karmas = {0: np.array([1 << data.karma], dtype=np.int64)}
    plays = {}
    for level, following in ((0, 3), (3, 6)):
        t0, c0 = time.perf_counter(), time.process_time()
        plays[level] = la_outcomes(data, level, keys[level], karmas[level], class_roll, threads, verbose)
        keys[following], karmas[following] = plays[level].reached()
        if verbose:
            pairs = sum(bin(int(m)).count("1") for m in karmas[following])
            print(
                f"lookahead reaches {len(keys[following]):,} keys ({pairs:,} with their Karma) at level {following} "
                f"({len(plays[level].q):,} stored plays) in {time.perf_counter() - t0:.1f} s wall, "
                f"{time.process_time() - c0:.1f} s CPU",
                flush=True,
            )
    final_keys = all_keys(data, 9)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = {
        6: la_rows(
            data,
            6,
            keys[6],
            karmas[6],
            data.table(9, final_keys, data.final_rows(final_keys)),
            class_roll,
            threads,
            verbose,
        )
    }
    if verbose:
        print(
            f"lookahead level 6: {len(keys[6]):,} keys in {time.perf_counter() - t0:.1f} s wall, "
            f"{time.process_time() - c0:.1f} s CPU",
            flush=True,
        )
    scale = 35 * ordered_hands(data.cards - 6) * 36 * 35
    for level in (3, 0):
        rows[level] = plays[level].rows(
            data, level, len(keys[level]), data.table(level + 3, keys[level + 3], rows[level + 3])
        )
        scale *= ordered_hands(data.cards - level) * 36 * 35
        if scale >= 2**63 or rows[level].max() > scale:
            raise OverflowError(f"level {level}: a numerator exceeds its scale {scale}")
    return Fraction(int(rows[0][0][data.karma]), scale)


def lookahead_action(state):
    """``bots.lookahead_policy``'s move, chosen by the numba kernel ``_la_choice`` (for the tests)."""
    model, data, filled, colours, roll, karma, order = decision_arrays(state)
    a = data.arrays
    _, i, x, o, _ = _la_choice(
        filled,
        colours,
        order,
        len(order),
        0,
        roll_index(roll),
        karma,
        a.facing,
        a.centre_rec,
        a.touches,
        a.cost,
        data.step,
        data.rowmajor,
        data.reroll_counts,
        _class_rolls(a.cost),
        data.orients,
        data.n,
    )
    return action_of(state, model, roll, i, x, o)


def lookahead_turn_three_value(state, memoised: bool = True) -> Fraction:
    """The lookahead's exact value at a turn-3 position (decisions by ``_la_roll``, a turn start by
    ``la_rows``, the whole-game run's memoised kernel, or with ``memoised=False`` by the plain ``_la_level``;
    other chance nodes by the engine's outcomes), against the final card's table."""
    from gamelib.pangu.bots import lookahead_policy

    def at_turn_start(data, table, key, karma):
        a = data.arrays
        keys = np.array([key], dtype=np.int64)
        every_karma = np.full(1, (1 << (data.karma + 1)) - 2, dtype=np.int64)
        if memoised:
            out = la_rows(data, 6, keys, every_karma, table, _class_rolls(a.cost), threads=1)
        else:
            out = np.zeros((1, data.karma + 1), dtype=np.int64)
            _la_level(
                keys,
                every_karma,
                out,
                table,
                data.fc_index,
                data.ranks,
                data.n_d(9),
                data.rowmajor,
                a.facing,
                a.centre_rec,
                a.touches,
                a.cost,
                data.step,
                data.reroll_counts,
                _class_rolls(a.cost),
                data.karma,
                data.n,
                data.cards,
                data.orients,
            )
        return Fraction(int(out[0][karma]), ordered_hands(4) * 36 * 35 * 35)

    def after_roll(data, table, filled, colours, unseen, order, roll, karma):
        a = data.arrays
        value = _la_roll(
            filled,
            colours,
            unseen,
            order,
            len(order),
            roll_index(roll),
            karma,
            table,
            data.fc_index,
            data.ranks,
            data.n_d(9),
            a.facing,
            a.centre_rec,
            a.touches,
            a.cost,
            data.step,
            data.rowmajor,
            data.reroll_counts,
            _class_rolls(a.cost),
            data.orients,
            data.n,
        )
        return Fraction(int(value), 35 * 35)

    return turn_three_value(state, lookahead_policy, at_turn_start, after_roll)
