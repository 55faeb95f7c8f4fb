"""Build the solver's turn-start tables with numba (the optional ``solver`` extra).

    python -m gamelib.pangu.solver_build                 # default rules; prints the root value
    python -m gamelib.pangu.solver_build --variant NAME  # a SINGLE_VARIANTS entry
    python -m gamelib.pangu.solver_build --write         # rewrite the shipped default tables
    python -m gamelib.pangu.solver_build --variant NAME --record   # also into data/solver_variants.json
    python -m gamelib.pangu.solver_build --greedy [--write]        # the greedy bot of pangu.md#measured, exactly

Each solved level is saved under ``CHECKPOINT`` (/tmp) and read back by a rerun of the same
rules, so a build interrupted at turn 2 resumes there.

The algorithm is the research note's (``shared/notes/pangu_solver.md``): turn-start keys
``(F, C, D)`` with a value row over Karma 0..K, one whole turn as one decision (a plan sigma of
hand cards to cells grouped by a profile code whose best final Karma comes from the
precomputed table ``kappa``), and stuck rolls decomposed into "place the unblocked cards, then
the rerolled rest" with a cache ``R``. Values are scaled numerators: a row at a turn start is
the winning probability times ``scale[level]``; the numbers are whole and below 2**53 under the
per-turn rules, so float64 holds them exactly (checked before writing). The exception is
``stuck_rule=reroll_penalty_1``: a paid reroll divides by 36 once more at every Karma, so its
values are float64 approximations (``Tables.exact`` says so).

Supported: ``roll_timing=per_turn`` with every other parameter except ``cap_rule=before_turn``
(whose gain limit depends on the turn's allowance, a second Karma-like dimension).
``centre_config=RANDOM`` is the average of the two fixed configurations.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np

try:
    import numba
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("building the solver tables needs numba: pip install -e '.[solver]'") from error

from gamelib.pangu.rules import SINGLE_VARIANTS, Rules
from gamelib.pangu.solver_model import NEXT, PREV, Model, build_model, popcount, subset_rank

MAX_REC = 7  # index bound of the step table's rec axis (a placement never scores more than 4)
CHECKPOINT = Path("/tmp/pangu_solver_checkpoint")
CHUNKS = 2  # the machine's two cores: keys are split in two, each half with its own R cache


# --------------------------------------------------------------------------- arrays from the model


def model_arrays(model: Model) -> dict:
    n = model.size
    cards = len(model.card_ids)
    orients = len(model.orientations)
    karma = model.rules.starting_karma
    facing = np.array(model.facing, dtype=np.int8).reshape(cards, orients, n, 2)
    centre_rec = np.array(model.centre_rec, dtype=np.int8).reshape(cards, orients, n)
    touches = np.array(model.touches_centre, dtype=np.int8)
    rolls = [(b, w) for b in range(1, 7) for w in range(1, 7)]
    cost = np.array([[model.cheapest_cost(c, r) for r in rolls] for c in range(cards)], dtype=np.int8)
    step = np.zeros((karma + 1, 6, MAX_REC + 1), dtype=np.int8)
    for k in range(1, karma + 1):
        for c in range(1, 6):
            for r in range(MAX_REC + 1):
                step[k, c, r] = model.step(k, c, r)
    same = np.array([[model.numbers[a] == model.numbers[b] for b in range(cards)] for a in range(cards)], np.int8)
    return dict(facing=facing, centre_rec=centre_rec, touches=touches, cost=cost, step=step, same=same)


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
    return np.array([subset_rank(mask) for mask in range(1 << n)], dtype=np.int32)


# --------------------------------------------------------------------------- kappa (note 3.2)


@njit(cache=True)
def _kappa_table(step, karma, rb):
    """kappa[code, cost triple, k]: the best final Karma over the legal orders of a plan's profile.

    code = ((b0*rb + b1)*rb + b2)*216 + (rel01*9 + rel02*3 + rel12)*8 + f0*4 + f1*2 + f2, where b is
    the rec from cards placed before the turn, rel is 0 (not adjacent), 1 (adjacent, no match) or
    2 (adjacent, matching: credited to the later card), f marks a cell that needs an adjacent
    card of this turn placed first. -1 = no legal order.
    """
    codes = rb * rb * rb * 216
    kappa = np.full((codes, 125, karma + 1), -1, dtype=np.int8)
    orders = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    rel = np.zeros((3, 3), dtype=np.int64)
    b = np.zeros(3, dtype=np.int64)
    f = np.zeros(3, dtype=np.int64)
    pos = np.zeros(3, dtype=np.int64)
    for code in range(codes):
        rest = code
        f[2] = rest & 1
        f[1] = (rest >> 1) & 1
        f[0] = (rest >> 2) & 1
        rest //= 8
        r = rest % 27
        rest //= 27
        rel[0, 1] = rel[1, 0] = r // 9
        rel[0, 2] = rel[2, 0] = (r // 3) % 3
        rel[1, 2] = rel[2, 1] = r % 3
        b[2] = rest % rb
        b[1] = (rest // rb) % rb
        b[0] = rest // (rb * rb)
        for o in range(6):
            for i in range(3):
                pos[orders[o, i]] = i
            ok = True
            for i in range(3):
                if f[i] == 1:
                    supported = False
                    for j in range(3):
                        if j != i and rel[i, j] > 0 and pos[j] < pos[i]:
                            supported = True
                    if not supported:
                        ok = False
            if not ok:
                continue
            recs = np.zeros(3, dtype=np.int64)
            for i in range(3):
                recs[i] = b[i]
                for j in range(3):
                    if j != i and rel[i, j] == 2 and pos[j] < pos[i]:
                        recs[i] += 1
            for cc in range(125):
                c = (cc // 25 + 1, (cc // 5) % 5 + 1, cc % 5 + 1)
                for k in range(1, karma + 1):
                    kk = k
                    for t in range(3):
                        i = orders[o, t]
                        if kk > 0:
                            kk = step[kk, c[i], min(recs[i], MAX_REC)]
                    if kk > kappa[code, cc, k]:
                        kappa[code, cc, k] = kk
    return kappa


# --------------------------------------------------------------------------- ring helpers (numba)


@njit(cache=True, inline="always")
def _nb(x, side, n):
    return (x - 1) % n if side == 0 else (x + 1) % n


@njit(cache=True, inline="always")
def _edge(x, side, n):
    return (x - 1) % n if side == 0 else x


@njit(cache=True)
def _rec(filled, colours, card, o, x, facing, centre_rec, n):
    rec = centre_rec[card, o, x]
    for side in range(2):
        if (filled >> _nb(x, side, n)) & 1:
            if facing[card, o, x, side] == ((colours >> _edge(x, side, n)) & 1):
                rec += 1
    return rec


@njit(cache=True)
def _place(filled, colours, card, o, x, facing, n):
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
def _legal(filled, x, touches, n):
    if (filled >> x) & 1:
        return False
    return touches[x] == 1 or ((filled >> _nb(x, 0, n)) & 1) == 1 or ((filled >> _nb(x, 1, n)) & 1) == 1


@njit(cache=True)
def _slot(filled, colours, unplaced, fc_index, ranks, n_d, n):
    fc = fc_index[(filled << n) | colours]
    return fc * n_d + ranks[unplaced]


# --------------------------------------------------------------------------- R cache (note 3.3)


@njit(cache=True)
def _cache_find(keys, key):
    mask = keys.shape[0] - 1
    h = (key * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    i = (h >> 20) & mask
    while True:
        if keys[i] == key:
            return i, True
        if keys[i] == -1:
            return i, False
        i = (i + 1) & mask


@njit(cache=True)
def _stuck_row(filled, colours, unplaced, blocked, cache_keys, cache_vals, used, next_table, fc_index, ranks,
               n_d_next, facing, centre_rec, touches, cost, step, karma, penalty, n, cards, orients):
    """R(L, B): value row after the rerolled dice for the blocked cards B (scaled 35 x next scale)."""
    key = filled | (colours << 10) | (unplaced << 20) | (blocked << 30)
    i, found = _cache_find(cache_keys, key)
    if found:
        return cache_vals[i]
    after = unplaced & ~blocked
    members = np.zeros(2, dtype=np.int64)
    m = 0
    for c in range(cards):
        if (blocked >> c) & 1:
            members[m] = c
            m += 1
    first = members[0]
    counts = np.zeros(6, dtype=np.int64)
    block_roll = -1
    for r in range(36):
        c = cost[first, r]
        if c == 0:
            block_roll = r
        else:
            counts[c] += 1
    best = np.zeros((6, karma + 1))
    for a in range(m):
        card1 = members[a]
        for x1 in range(n):
            if not _legal(filled, x1, touches, n):
                continue
            for o1 in range(orients):
                r1 = _rec(filled, colours, card1, o1, x1, facing, centre_rec, n)
                f1, c1 = _place(filled, colours, card1, o1, x1, facing, n)
                if m == 1:
                    row = next_table[_slot(f1, c1, after, fc_index, ranks, n_d_next, n)]
                    for cc in range(1, 6):
                        if counts[cc] == 0:
                            continue
                        for k in range(1, karma + 1):
                            v = row[step[k, cc, r1]]
                            if v > best[cc, k]:
                                best[cc, k] = v
                    continue
                card2 = members[1 - a]
                for x2 in range(n):
                    if not _legal(f1, x2, touches, n):
                        continue
                    for o2 in range(orients):
                        r2 = _rec(f1, c1, card2, o2, x2, facing, centre_rec, n)
                        f2, c2 = _place(f1, c1, card2, o2, x2, facing, n)
                        row = next_table[_slot(f2, c2, after, fc_index, ranks, n_d_next, n)]
                        for cc in range(1, 6):
                            if counts[cc] == 0:
                                continue
                            for k in range(1, karma + 1):
                                kk = step[k, cc, r1]
                                if kk > 0:
                                    kk = step[kk, cc, r2]
                                v = row[kk]
                                if v > best[cc, k]:
                                    best[cc, k] = v
    out = np.zeros(karma + 1)
    for k in range(1, karma + 1):
        total = 0.0
        for cc in range(1, 6):
            total += counts[cc] * best[cc, k]
        out[k] = total
    if penalty:  # pay 1, then a fresh roll of 36: the blocking roll comes back with 1/36
        paid = np.zeros(karma + 1)
        for k in range(2, karma + 1):
            paid[k] = out[k - 1] * 35.0 / 36.0 + paid[k - 1] / 36.0
        out = paid
    cache_keys[i] = key
    cache_vals[i] = out
    used[0] += 1
    if used[0] * 5 > cache_keys.shape[0] * 4:  # linear probing would crawl, then never end
        raise RuntimeError("the R cache is too full: rerun with more cache_bits")
    return cache_vals[i]


# --------------------------------------------------------------------------- one turn (note 3.2)


@njit(cache=True)
def _turn_row(filled, colours, unplaced, next_table, fc_index, ranks, n_d_next, kappa, valid, rb,
              facing, centre_rec, touches, cost, step, same, karma, penalty, n, cards, orients,
              cache_keys, cache_vals, used, code_slot, m_rows, m_codes):
    """The value row of one turn-start key: sum over hands of 3 and the 36 rolls (scaled)."""
    out = np.zeros(karma + 1)
    members = np.zeros(cards, dtype=np.int64)
    d = 0
    for c in range(cards):
        if (unplaced >> c) & 1:
            members[d] = c
            d += 1
    empties = np.zeros(n, dtype=np.int64)
    e_count = 0
    for x in range(n):
        if not (filled >> x) & 1:
            empties[e_count] = x
            e_count += 1
    flag = np.zeros(n, dtype=np.int64)  # a cell needing an adjacent card of this turn first
    for x in range(n):
        if not (filled >> x) & 1 and not _legal(filled, x, touches, n):
            flag[x] = 1
    brec = np.zeros((3, n, 2), dtype=np.int64)
    hand = np.zeros(3, dtype=np.int64)
    val = np.zeros(karma + 1)
    for i0 in range(d):
        for i1 in range(i0 + 1, d):
            for i2 in range(i1 + 1, d):
                hand[0] = members[i0]
                hand[1] = members[i1]
                hand[2] = members[i2]
                hmask = (1 << hand[0]) | (1 << hand[1]) | (1 << hand[2])
                after = unplaced & ~hmask
                for i in range(3):
                    for x in range(n):
                        if not (filled >> x) & 1:
                            for o in range(orients):
                                brec[i, x, o] = _rec(filled, colours, hand[i], o, x, facing, centre_rec, n)
                # ---- plans sigma grouped by profile code
                present = 0
                for a0 in range(e_count):
                    x0 = empties[a0]
                    for a1 in range(e_count):
                        x1 = empties[a1]
                        if x1 == x0:
                            continue
                        for a2 in range(e_count):
                            x2 = empties[a2]
                            if x2 == x0 or x2 == x1:
                                continue
                            for o0 in range(orients):
                                for o1 in range(orients):
                                    for o2 in range(orients):
                                        rel01 = _relation(hand[0], o0, x0, hand[1], o1, x1, facing, n)
                                        rel02 = _relation(hand[0], o0, x0, hand[2], o2, x2, facing, n)
                                        rel12 = _relation(hand[1], o1, x1, hand[2], o2, x2, facing, n)
                                        code = (((brec[0, x0, o0] * rb + brec[1, x1, o1]) * rb + brec[2, x2, o2]) * 216
                                                + (rel01 * 9 + rel02 * 3 + rel12) * 8
                                                + flag[x0] * 4 + flag[x1] * 2 + flag[x2])
                                        if not valid[code]:
                                            continue
                                        f, c = _place(filled, colours, hand[0], o0, x0, facing, n)
                                        f, c = _place(f, c, hand[1], o1, x1, facing, n)
                                        f, c = _place(f, c, hand[2], o2, x2, facing, n)
                                        row = next_table[_slot(f, c, after, fc_index, ranks, n_d_next, n)]
                                        s = code_slot[code]
                                        if s < 0:
                                            s = present
                                            code_slot[code] = s
                                            m_codes[s] = code
                                            present += 1
                                            for k in range(karma + 1):
                                                m_rows[s, k] = row[k]
                                        else:
                                            for k in range(karma + 1):
                                                if row[k] > m_rows[s, k]:
                                                    m_rows[s, k] = row[k]
                # ---- rolls: group the unblocked ones by cost triple
                triple_count = np.zeros(125, dtype=np.int64)
                for r in range(36):
                    c0 = cost[hand[0], r]
                    c1 = cost[hand[1], r]
                    c2 = cost[hand[2], r]
                    if c0 == 0 or c1 == 0 or c2 == 0:
                        continue
                    triple_count[(c0 - 1) * 25 + (c1 - 1) * 5 + (c2 - 1)] += 1
                for cc in range(125):
                    if triple_count[cc] == 0:
                        continue
                    for k in range(karma + 1):
                        val[k] = 0.0
                    for s in range(present):
                        code = m_codes[s]
                        for k in range(1, karma + 1):
                            v = m_rows[s, kappa[code, cc, k]]
                            if v > val[k]:
                                val[k] = v
                    for k in range(1, karma + 1):
                        out[k] += 35.0 * triple_count[cc] * val[k]
                for s in range(present):
                    code_slot[m_codes[s]] = -1
                # ---- stuck rolls: each card's own numbers block it (and its equals)
                for i in range(3):
                    duplicate = False
                    for j in range(i):
                        if same[hand[i], hand[j]]:
                            duplicate = True
                    if duplicate:
                        continue
                    blocked = 0
                    for j in range(3):
                        if same[hand[i], hand[j]]:
                            blocked |= 1 << hand[j]
                    r = -1
                    for rr in range(36):
                        if cost[hand[i], rr] == 0:
                            r = rr
                    for k in range(karma + 1):
                        val[k] = 0.0
                    _phase_one(filled, colours, unplaced, hmask & ~blocked, blocked, r, val,
                               next_table, fc_index, ranks, n_d_next, facing, centre_rec, touches, cost, step,
                               karma, penalty, n, cards, orients, cache_keys, cache_vals, used)
                    for k in range(1, karma + 1):
                        out[k] += val[k]
    return out


@njit(cache=True)
def _relation(ca, oa, xa, cb, ob, xb, facing, n):
    if xb == (xa + 1) % n:
        return 2 if facing[ca, oa, xa, 1] == facing[cb, ob, xb, 0] else 1
    if xa == (xb + 1) % n:
        return 2 if facing[ca, oa, xa, 0] == facing[cb, ob, xb, 1] else 1
    return 0


@njit(cache=True)
def _phase_one(filled, colours, unplaced, to_place, blocked, roll, val, next_table, fc_index, ranks,
               n_d_next, facing, centre_rec, touches, cost, step, karma, penalty, n, cards, orients,
               cache_keys, cache_vals, used):
    """Place the 1 or 2 unblocked cards with the stuck roll in every legal way; fold R rows into ``val``."""
    members = np.zeros(2, dtype=np.int64)
    m = 0
    for c in range(cards):
        if (to_place >> c) & 1:
            members[m] = c
            m += 1
    for a in range(m):
        card1 = members[a]
        cost1 = cost[card1, roll]
        for x1 in range(n):
            if not _legal(filled, x1, touches, n):
                continue
            for o1 in range(orients):
                r1 = _rec(filled, colours, card1, o1, x1, facing, centre_rec, n)
                f1, c1 = _place(filled, colours, card1, o1, x1, facing, n)
                if m == 1:
                    row = _stuck_row(f1, c1, unplaced & ~(1 << card1), blocked, cache_keys, cache_vals, used,
                                     next_table, fc_index, ranks, n_d_next, facing, centre_rec, touches, cost, step,
                                     karma, penalty, n, cards, orients)
                    for k in range(1, karma + 1):
                        v = row[step[k, cost1, r1]]
                        if v > val[k]:
                            val[k] = v
                    continue
                card2 = members[1 - a]
                cost2 = cost[card2, roll]
                for x2 in range(n):
                    if not _legal(f1, x2, touches, n):
                        continue
                    for o2 in range(orients):
                        r2 = _rec(f1, c1, card2, o2, x2, facing, centre_rec, n)
                        f2, c2 = _place(f1, c1, card2, o2, x2, facing, n)
                        row = _stuck_row(f2, c2, unplaced & ~(1 << card1) & ~(1 << card2), blocked, cache_keys,
                                         cache_vals, used, next_table, fc_index, ranks, n_d_next, facing, centre_rec,
                                         touches, cost, step, karma, penalty, n, cards, orients)
                        for k in range(1, karma + 1):
                            kk = step[k, cost1, r1]
                            if kk > 0:
                                kk = step[kk, cost2, r2]
                            v = row[kk]
                            if v > val[k]:
                                val[k] = v


@njit(cache=True, parallel=True)
def _level(keys, out, next_table, fc_index, ranks, n_d_next, kappa, valid, rb, facing, centre_rec, touches, cost,
           step, same, karma, penalty, n, cards, orients, cache_keys, cache_vals, used, codes):
    """Every key of one turn-start level; the keys are split in CHUNKS, each with its own R cache."""
    chunks = cache_keys.shape[0]
    total = keys.shape[0]
    for chunk in prange(chunks):
        code_slot = np.full(codes, -1, dtype=np.int32)
        m_rows = np.zeros((4096, karma + 1))
        m_codes = np.zeros(4096, dtype=np.int64)
        start = chunk * total // chunks
        stop = (chunk + 1) * total // chunks
        for q in range(start, stop):
            key = keys[q]
            filled = key & 1023
            colours = (key >> 10) & 1023
            unplaced = (key >> 20) & 1023
            out[q] = _turn_row(filled, colours, unplaced, next_table, fc_index, ranks, n_d_next, kappa, valid, rb,
                               facing, centre_rec, touches, cost, step, same, karma, penalty, n, cards, orients,
                               cache_keys[chunk], cache_vals[chunk], used[chunk], code_slot, m_rows, m_codes)


@njit(cache=True, parallel=True)
def _successors(keys, fc_index, ranks, n_d_next, n_slots, facing, touches, n, cards, orients):
    """Mark the next level's keys reachable from ``keys`` by one turn of 3 cards (any legal plan).

    The layout after a turn does not depend on the order of its placements, so this visits each
    hand once (unordered) and each assignment of its cards to cells once; an assignment has a
    legal order iff every new cell off the centre has a ring neighbour filled before the turn or
    new and next to the centre (placed first). Threads may mark the same slot: with the same value.
    """
    reached = np.zeros(n_slots, dtype=np.int64)  # the packed key + 1, or 0
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
                                if not (_supported(x0, filled, new, touches, n) and _supported(x1, filled, new, touches, n)
                                        and _supported(x2, filled, new, touches, n)):
                                    continue
                                for o0 in range(orients):
                                    f0, c0 = _place(filled, colours, a, o0, x0, facing, n)
                                    for o1 in range(orients):
                                        f1, c1 = _place(f0, c0, b, o1, x1, facing, n)
                                        for o2 in range(orients):
                                            f2, c2 = _place(f1, c1, c, o2, x2, facing, n)
                                            s = _slot(f2, c2, after, fc_index, ranks, n_d_next, n)
                                            reached[s] = (f2 | (c2 << 10) | (after << 20)) + 1
    return reached


@njit(cache=True)
def _supported(x, filled, new, touches, n):
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
def _final_rows(keys, facing, centre_rec, cost, step, karma, penalty, n, cards, orients):
    """The last card alone (turn 4): scaled by 35, the number of unblocked rolls."""
    out = np.zeros((keys.shape[0], karma + 1))
    for q in range(keys.shape[0]):
        key = keys[q]
        filled = key & 1023
        colours = (key >> 10) & 1023
        unplaced = (key >> 20) & 1023
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
            r = _rec(filled, colours, card, o, x, facing, centre_rec, n)
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


# --------------------------------------------------------------------------- driver


class Tables:
    """The solved turn-start levels of one rule set with a fixed centre."""

    def __init__(self, model, fc_index, ranks, levels, keys, values, scales, seconds, stuck_entries):
        self.model, self.fc_index, self.ranks = model, fc_index, ranks
        self.levels, self.keys, self.values, self.scales = levels, keys, values, scales
        self.seconds, self.stuck_entries = seconds, stuck_entries

    def root(self) -> Fraction:
        """The whole game's value; exact when the numerator is whole (see ``exact``)."""
        karma = self.model.rules.starting_karma
        top = self.levels[0]
        _, rows = self.values[top]
        return Fraction(float(rows[0][karma])) / self.scales[top]

    @property
    def exact(self) -> bool:
        """Every stored numerator is a whole number below 2**53 (false under ``reroll_penalty_1``,
        whose paid reroll divides by 36 again at each Karma: float64 then only approximates)."""
        return all(bool((np.rint(rows) == rows).all()) and rows.max() < 2 ** 53 for _, rows in self.values.values())


def solve(rules: Rules, centre: str | None = None, verbose: bool = True, cache_bits: int = 24,
          checkpoint: Path | None = None) -> Tables:
    """Solve the whole game bottom-up: final card, then turn 3, turn 2, turn 1 (note 3.1-3.3).

    ``checkpoint``: a folder where each solved level is saved and, on a rerun with the same
    rules, read back instead of recomputed (a long build survives an interruption).
    """
    if rules.roll_timing != "per_turn" or rules.cap_rule == "before_turn":
        raise ValueError(f"the table builder does not cover {rules} (see the module docstring)")
    started = time.perf_counter()
    if checkpoint is not None:
        checkpoint.mkdir(parents=True, exist_ok=True)
    model = build_model(rules, centre)
    n, cards = model.size, len(model.card_ids)
    if n != 10 or cards != 10:
        raise ValueError("the table builder packs keys in 10-bit masks: it needs 10 ring cells and 10 cards")
    arrays = model_arrays(model)
    for triple in combinations(range(cards), 3):
        if all(model.numbers[t] == model.numbers[triple[0]] for t in triple):
            raise ValueError("three cards share both numbers: a whole hand could be blocked (not modelled)")
    karma = rules.starting_karma
    penalty = rules.stuck_rule == "reroll_penalty_1"
    orients = len(model.orientations)
    max_base = max(max(max(r) for r in card) for card in model.centre_rec) + 2
    rb = max_base + 1
    kappa = _kappa_table(arrays["step"], karma, rb)
    valid = (kappa[:, 0, karma] >= 0).astype(np.int8)
    codes = kappa.shape[0]
    levels = [0, 3, 6, 9]
    fc_index, fc_counts = dense_index(model, levels)
    ranks = rank_table(n)
    all_cards = (1 << cards) - 1
    keys = {0: np.array([all_cards << 20], dtype=np.int64)}
    for level, following in zip(levels[:-1], levels[1:]):
        n_d_next = _comb(cards, cards - following)
        reached = _successors(keys[level], fc_index, ranks, n_d_next, fc_counts[following] * n_d_next,
                              arrays["facing"], arrays["touches"], n, cards, orients)
        keys[following] = reached[reached > 0] - 1
        if verbose:
            print(f"level {following}: {len(keys[following]):,} turn-start keys", flush=True)
    values, scales, stuck_entries, level_times = {}, {}, {}, {}
    last = levels[-1]
    finals = _final_rows(keys[last], arrays["facing"], arrays["centre_rec"], arrays["cost"], arrays["step"], karma,
                         penalty, n, cards, orients)
    values[last] = (keys[last], finals)
    scales[last] = 35
    for level, following in reversed(list(zip(levels[:-1], levels[1:]))):
        n_d_next = _comb(cards, cards - following)
        next_keys, next_rows = values[following]
        table = np.zeros((fc_counts[following] * n_d_next, karma + 1))
        slots = _slots_of(next_keys, fc_index, ranks, n_d_next, n)
        table[slots] = next_rows
        used = np.zeros((CHUNKS, 1), dtype=np.int64)
        out = None
        t0, c0 = time.perf_counter(), time.process_time()
        saved = None if checkpoint is None else checkpoint / f"{_rules_tag(rules, model.centre)}_level{level}.npz"
        if saved is not None and saved.exists():
            with np.load(saved) as data:
                if np.array_equal(data["keys"], keys[level]):
                    out = data["rows"]
                    used[0, 0] = int(data["stuck"])
        if out is None:
            out = np.zeros((len(keys[level]), karma + 1))
            cache_keys = np.full((CHUNKS, 1 << cache_bits), -1, dtype=np.int64)
            cache_vals = np.zeros((CHUNKS, 1 << cache_bits, karma + 1))
            _level(keys[level], out, table, fc_index, ranks, n_d_next, kappa, valid, rb, arrays["facing"],
                   arrays["centre_rec"], arrays["touches"], arrays["cost"], arrays["step"], arrays["same"], karma,
                   penalty, n, cards, orients, cache_keys, cache_vals, used, codes)
            del cache_keys, cache_vals
            if saved is not None:
                np.savez(saved, keys=keys[level], rows=out, stuck=used.sum())
        level_times[level] = (time.perf_counter() - t0, time.process_time() - c0)
        hands = _comb(cards - level, 3)
        scales[level] = hands * 36 * 35 * scales[following]
        values[level] = (keys[level], out)
        stuck_entries[level] = int(used.sum())
        if used.max() > 0.8 * (1 << cache_bits):
            raise RuntimeError("the R cache is too full: rerun with more cache_bits")
        del table
        if verbose:
            print(f"level {level}: {len(keys[level]):,} keys in {level_times[level][0]:.1f} s wall, "
                  f"{level_times[level][1]:.1f} s CPU, {stuck_entries[level]:,} stuck entries", flush=True)
    tables = Tables(model, fc_index, ranks, levels, keys, values, scales, time.perf_counter() - started,
                    stuck_entries)
    tables.level_times = level_times
    return tables


def _rules_tag(rules: Rules, centre: str) -> str:
    import hashlib
    return hashlib.sha256(f"{rules.to_dict()}{centre}".encode()).hexdigest()[:16]


def _slots_of(keys, fc_index, ranks, n_d, n):
    filled = keys & 1023
    colours = (keys >> 10) & 1023
    unplaced = (keys >> 20) & 1023
    return fc_index[(filled << n) | colours].astype(np.int64) * n_d + ranks[unplaced]


def _comb(a, b):
    from math import comb
    return comb(a, b)


def root_value(rules: Rules, verbose: bool = True) -> tuple[Fraction, float]:
    """The whole game's value under ``rules`` and the seconds it took (RANDOM = mean of both centres)."""
    started = time.perf_counter()
    if rules.centre_config == "RANDOM":
        values = [solve(replace(rules, centre_config=c), verbose=verbose, checkpoint=CHECKPOINT).root()
                  for c in ("YIN_LEFT", "YANG_LEFT")]
        value = (values[0] + values[1]) / 2
    else:
        value = solve(rules, verbose=verbose, checkpoint=CHECKPOINT).root()
    return value, time.perf_counter() - started


VARIANTS_PATH = Path(__file__).with_name("data") / "solver_variants.json"
OUT_OF_REACH = {
    "per_placement": "a fresh roll before every placement makes the memo placement-level (14.26 M mid-turn keys "
                     "x Karma, about 4.8 GB) and needs 128-bit numerators (a factor 1260 per placement); this "
                     "builder keeps whole turns and float64-exact numerators",
    "before_turn": "the gain limit depends on the turn's remaining allowance, a second Karma-like dimension the "
                   "profile-code table kappa and the R cache do not carry",
}


def record_variant(name: str, value: Fraction | None, wall: float, cpu: float, note: str = "",
                   path: Path = VARIANTS_PATH) -> None:
    """Store a variant's whole-game value and the time it took (``--record``)."""
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("command", "python -m gamelib.pangu.solver_build --variant NAME --record")
    data.setdefault("out_of_reach", OUT_OF_REACH)
    entry = {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1), "threads": numba.get_num_threads()}
    if value is not None:
        entry.update(value=str(value), decimal=round(float(value), 10))
    if note:
        entry["note"] = note
    data.setdefault("variants", {})[name] = entry
    path.write_text(json.dumps(data, indent=1) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="defaults", choices=sorted(SINGLE_VARIANTS))
    parser.add_argument("--write", action="store_true", help="rewrite the shipped default tables")
    parser.add_argument("--greedy", action="store_true", help="the greedy bot's exact value instead")
    parser.add_argument("--record", action="store_true", help="record the value and time in data/solver_variants.json")
    args = parser.parse_args(argv)
    if args.variant in OUT_OF_REACH and not args.greedy:
        print(f"{args.variant} is out of reach of this builder: {OUT_OF_REACH[args.variant]}")
        return 1
    rules = SINGLE_VARIANTS[args.variant]
    cpu = time.process_time()
    if args.greedy:  # the bots' evaluators live in solver_policies, which imports this module
        print("the bots' exact values: python -m gamelib.pangu.solver_policies --policy greedy [--variant NAME] --record")
        return 1
    elif args.write:
        from gamelib.pangu.solver_tables import write_tables
        tables = solve(rules, checkpoint=CHECKPOINT)
        write_tables(tables)
        value, seconds = tables.root(), tables.seconds
    else:
        value, seconds = root_value(rules)
    cpu = time.process_time() - cpu
    print(f"{args.variant}: P(WON) = {value} ≈ {float(value):.10f}; {seconds:.1f} s wall, "
          f"{cpu:.1f} s CPU, {numba.get_num_threads()} threads")
    if args.record and not args.greedy:
        record_variant(args.variant, value, seconds, cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
