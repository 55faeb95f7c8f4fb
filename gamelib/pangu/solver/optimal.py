"""The optimal values of whole games with numba (the optional ``solver`` extra): the turn-start tables.

One whole turn is one decision: a plan of the hand's cards to cells, grouped by a profile code whose
best final Karma comes from the precomputed table ``kappa``; a stuck roll is split into "place the
unblocked cards, then the rerolled rest", whose values are kept in blocks shared by every hand with
the same unblocked cards. Values are scaled numerators in float64, whole and below 2**53 under the
per-turn rules (``Tables.exact``); under ``stuck_rule=reroll_penalty_1`` they only approximate
(``rounding_bound`` bounds the error). Each solved level is kept in the per-user cache
(``tables.checkpoint_folder``) so an interrupted build resumes. See docs/pangu_solver.md,
"The exact value". Command line: ``python -m gamelib.pangu.solver optimal``.

Supported: ``roll_timing=per_turn`` with every other parameter except ``cap_rule=before_turn``
(whose gain limit depends on the turn's allowance, a second Karma-like dimension).
``centre_config=RANDOM`` is the average of the two fixed configurations.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from typing import NamedTuple

import numpy as np

try:
    import numba
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("building the solver tables needs numba: pip install -e '.[solver]'") from error

from gamelib.pangu.rules import Rules
from gamelib.pangu.solver.arrays import (
    MAX_REC,
    DenseIndex,
    ModelArrays,
    dense_index,
    model_arrays,
    rank_table,
    slots_of,
)
from gamelib.pangu.solver.kernels import (
    dense_slot,
    final_card_rows,
    is_legal,
    members_of,
    pack_key,
    place_card,
    placement_rec,
    placements,
    unpack_key,
)
from gamelib.pangu.solver.model import build_model, popcount
from gamelib.pangu.solver.records import record_variant as write_variant
from gamelib.pangu.solver.space import every_key, next_turn_keys, turn_start_keys
from gamelib.pangu.solver.tables import checkpoint_folder, rules_tag

# --------------------------------------------------------------------------- kappa


class Profiles(NamedTuple):
    """The profile codes of one model (``kappa_of``), as ``_plans_value`` reads them."""

    kappa: np.ndarray  # int8 [slab, cost triple, k]: the best final Karma (``kappa_classes``)
    klass: np.ndarray  # int32 [code]: the code's slab, -1 if no order of its plan is legal
    rb: int  # the bound of a base rec in the code (the centre's best plus two neighbours)


@njit(cache=True)
def _order_recs(pos, rel, b, f):
    """The recs of a plan's three cards placed in the order ``pos`` (card i goes ``pos[i]``-th), each its base
    rec ``b`` plus one per matching card placed before it; [-1, -1, -1] if a flagged card (``f``) comes
    before every adjacent card of the turn (no legal order)."""
    recs = np.zeros(3, dtype=np.int64)
    for i in range(3):
        recs[i] = b[i]
        supported = f[i] == 0
        for j in range(3):
            if j != i and rel[i, j] > 0 and pos[j] < pos[i]:
                supported = True
                if rel[i, j] == 2:
                    recs[i] += 1
        if not supported:
            recs[:] = -1
            return recs
    return recs


@njit(cache=True)
def _kappa_table(arrays, rb):
    """kappa[code, cost triple, k]: the best final Karma over the legal orders of a plan's profile.

    code = ((b0*rb + b1)*rb + b2)*216 + (rel01*9 + rel02*3 + rel12)*8 + f0*4 + f1*2 + f2, where b is
    the rec from cards placed before the turn, rel is 0 (not adjacent), 1 (adjacent, no match) or
    2 (adjacent, matching: credited to the later card), f marks a cell that needs an adjacent
    card of this turn placed first. -1 = no legal order.
    """
    karma, step = arrays.karma, arrays.step
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
            recs = _order_recs(pos, rel, b, f)
            if recs[0] < 0:
                continue
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


def kappa_classes(kappa: np.ndarray, karma: int) -> tuple[np.ndarray, np.ndarray]:
    """``(table, klass)``: the distinct slabs ``kappa[code]`` and each code's slab (-1: no legal order).

    Plans whose codes share a slab give the same final Karma for every cost triple, so their
    successor rows fold into one elementwise maximum before the roll loop: the roll loop then
    gathers over about a fifth of the codes (2,236 slabs of the 10,176 legal codes under the
    default rules) from a 3 MB table instead of 19 MB, with the same maxima.
    """
    flat = kappa.reshape(kappa.shape[0], -1)
    klass = np.full(kappa.shape[0], -1, dtype=np.int32)
    first = {}  # a slab's bytes -> its number, in order of first appearance (faster than np.unique's row sort)
    for code in np.flatnonzero(kappa[:, 0, karma] >= 0):
        klass[code] = first.setdefault(flat[code].tobytes(), len(first))
    slabs = np.frombuffer(b"".join(first), dtype=kappa.dtype)
    return slabs.reshape(-1, *kappa.shape[1:]).copy(), klass


# --------------------------------------------------------------------------- stuck rolls
#
# A roll that blocks the cards B of a hand makes the player place the rest U = hand \ B with it,
# then reroll for B. The rerolled value R(L', B) depends on the layout L' = (F', C', D') after U
# only, so it is computed once per L' for every B at once (a "block" of rows): after two
# placements (U a pair) the block holds R(L', {b}) for each card b of D'; after one placement
# (U a single card) it holds R(L', {b1, b2}) for each pair of D' sharing numbers, in the row of
# b1. A first pass marks the blocks a level needs at their dense slot (``_mark_blocks``), they are
# computed once for all threads (``_fill_blocks``), and the keys find them by that slot
# (``_block_at``): no hashing, and no block computed twice by two threads.

SINGLES, PAIRS = 2, 1  # placements before the reroll: the block's kind


class Blocks(NamedTuple):
    """The computed reroll blocks of one kind, as the keys of a level look them up (``_block_at``). Its last four
    fields are the dense index of L' (every fill count's (F, C); D' of the kind's size), those of a
    ``DenseIndex``, which ``_block_at`` rebuilds from them for ``kernels.dense_slot`` (one argument type: one
    compilation). (Flat, not a DenseIndex inside: numba's parallel loops refuse a nested tuple as an argument.)"""

    at: np.ndarray  # int32 [dense slot of L']: the block's number, -1 if the level needs none there
    rows: np.ndarray  # float64 [block, row, k]
    fc_index: np.ndarray
    ranks: np.ndarray
    n_d: int
    n: int


@njit(cache=True)
def _fold_reroll(best, nrow, counts, r1, r2, arrays):
    """best[cost, k] = max(best, the successor row at the Karma after placing the blocked card(s) at that cost)
    with recs r1 (and r2 for a second card; -1: none)."""
    step = arrays.step
    for cc in range(1, 6):
        if counts[cc] == 0:
            continue
        for k in range(1, arrays.karma + 1):
            kk = step[k, cc, r1]
            if r2 >= 0 and kk > 0:
                kk = step[kk, cc, r2]
            v = nrow[kk]
            if v > best[cc, k]:
                best[cc, k] = v


@njit(cache=True)
def _reroll_row(filled, colours, unplaced, blocked, row, next_table, index, arrays, penalty, best, moves):
    """R(L, B) into ``row``: the blocked cards B (1 or 2, sharing numbers) after a reroll that cannot block them.

    The 35 other rolls only matter through B's cost, so they are grouped in 5 cost classes
    (``reroll_counts[card, cost]``). Scaled by 35 x the next level's scale. ``best`` and ``moves``
    are scratch (``moves[i]`` the placements of the i-th card, ``kernels.placements``).
    """
    karma, counts = arrays.karma, arrays.reroll_counts
    after = unplaced & ~blocked
    first = np.int64(-1)  # not a literal -1: see kernels, "One signature per kernel"
    second = np.int64(-1)
    for c in range(arrays.cards):
        if (blocked >> c) & 1:
            if first < 0:
                first = c
            else:
                second = c
    best[:, :] = 0.0
    for a in range(2 if second >= 0 else 1):
        card1 = first if a == 0 else second
        card2 = second if a == 0 else first
        for i1 in range(placements(filled, colours, card1, arrays, moves[0])):
            r1, f1, c1 = moves[0, i1, 0], moves[0, i1, 1], moves[0, i1, 2]
            if card2 < 0:
                _fold_reroll(
                    best, next_table[dense_slot(f1, c1, after, index)], counts[first], r1, np.int64(-1), arrays
                )
                continue
            for i2 in range(placements(f1, c1, card2, arrays, moves[1])):
                nrow = next_table[dense_slot(moves[1, i2, 1], moves[1, i2, 2], after, index)]
                _fold_reroll(best, nrow, counts[first], r1, moves[1, i2, 0], arrays)
    row[0] = 0.0
    for k in range(1, karma + 1):
        total = 0.0
        for cc in range(1, 6):
            total += counts[first, cc] * best[cc, k]
        row[k] = total
    if penalty:  # pay 1, then a fresh roll of 36: the blocking roll comes back with 1/36
        previous_out = row[1]
        row[1] = 0.0
        for k in range(2, karma + 1):
            here = row[k]
            row[k] = previous_out * 35.0 / 36.0 + row[k - 1] / 36.0
            previous_out = here


@njit(cache=True)
def _partner_after(members, j, m, same):
    """The card after position j of ``members[:m]`` sharing numbers with ``members[j]``, or -1."""
    for i in range(j + 1, m):
        if same[members[j], members[i]]:
            return members[i]
    return -1


@njit(cache=True)
def _fill_block(filled, colours, dprime, kind, block, next_table, index, arrays, penalty, best, members, moves):
    """Every row of the block of L' = (F', C', D') of this kind (see the section comment)."""
    m = members_of(dprime, arrays.cards, members)
    for j in range(m):
        b1 = members[j]
        blocked = 1 << b1
        if kind == PAIRS:
            partner = _partner_after(members, j, m, arrays.same)
            if partner < 0:
                continue
            blocked |= 1 << partner
        _reroll_row(filled, colours, dprime, blocked, block[j], next_table, index, arrays, penalty, best, moves)


@njit(cache=True, inline="always")
def _pair_orders(filled, x1, x2, arrays):
    """Whether two cards can go on the empty cells x1 then x2, and whether x2 then x1."""
    first_ok = is_legal(filled, x1, arrays) and is_legal(filled | (1 << x1), x2, arrays)
    second_ok = is_legal(filled, x2, arrays) and is_legal(filled | (1 << x2), x1, arrays)
    return first_ok, second_ok


@njit(cache=True, parallel=True)
def _mark_blocks(keys, single_mark, pair_mark, singles, pairs, arrays):
    """Mark every block the level's keys look up (the same loops as ``_stuck_hands``): ``mark[dense slot of L'] =
    packed L' + 1``, ``singles``/``pairs`` the dense indices of L'. Threads may mark the same slot: with the same
    value."""
    n, cards, orients = arrays.n, arrays.cards, arrays.orients
    total = keys.shape[0]
    for chunk in prange((total + 255) // 256):  # scratch per chunk of keys, not per key
        members = np.zeros(cards, dtype=np.int64)
        members2 = np.zeros(cards, dtype=np.int64)
        for q in range(chunk * 256, min(total, chunk * 256 + 256)):
            filled, colours, unplaced = unpack_key(keys[q])
            d = members_of(unplaced, cards, members)
            for a in range(d):
                u1 = members[a]
                for a2 in range(a + 1, d):
                    u2 = members[a2]
                    dprime = unplaced & ~((1 << u1) | (1 << u2))
                    for x1 in range(n):
                        if (filled >> x1) & 1:
                            continue
                        for x2 in range(n):
                            if x2 == x1 or (filled >> x2) & 1:
                                continue
                            first_ok, second_ok = _pair_orders(filled, x1, x2, arrays)
                            if not (first_ok or second_ok):
                                continue
                            for o1 in range(orients):
                                fa, ca = place_card(filled, colours, u1, o1, x1, arrays)
                                for o2 in range(orients):
                                    f2, c2 = place_card(fa, ca, u2, o2, x2, arrays)
                                    single_mark[dense_slot(f2, c2, dprime, singles)] = pack_key(f2, c2, dprime) + 1
            for a in range(d):
                u = members[a]
                dprime = unplaced & ~(1 << u)
                m = members_of(dprime, cards, members2)
                pairs_here = 0
                for j in range(m):
                    if _partner_after(members2, j, m, arrays.same) >= 0:
                        pairs_here += 1
                if pairs_here == 0:
                    continue
                for x in range(n):
                    if not is_legal(filled, x, arrays):
                        continue
                    for o in range(orients):
                        f1, c1 = place_card(filled, colours, u, o, x, arrays)
                        pair_mark[dense_slot(f1, c1, dprime, pairs)] = pack_key(f1, c1, dprime) + 1


@njit(cache=True, parallel=True)
def _fill_blocks(block_keys, kind, blocks, next_table, index, arrays, penalty):
    """``blocks[i]``: the block of the layout ``block_keys[i]``, in chunks of 256 shared out over the threads."""
    count = block_keys.shape[0]
    chunks = (count + 255) // 256
    for chunk in prange(chunks):
        best = np.zeros((6, arrays.karma + 1))
        members = np.zeros(arrays.cards, dtype=np.int64)
        moves = np.zeros((2, arrays.n * arrays.orients, 3), dtype=np.int64)
        for i in range(chunk * 256, min(count, (chunk + 1) * 256)):
            filled, colours, dprime = unpack_key(block_keys[i])
            _fill_block(
                filled, colours, dprime, kind, blocks[i], next_table, index, arrays, penalty, best, members, moves
            )


@njit(cache=True, inline="always")
def _block_at(blocks, filled, colours, dprime):
    """The precomputed block of L' = (F', C', D') (``_mark_blocks`` marked every one a level looks up)."""
    at = blocks.at[dense_slot(filled, colours, dprime, DenseIndex(blocks.fc_index, blocks.ranks, blocks.n_d, blocks.n))]
    if at < 0:
        raise AssertionError("a reroll block was looked up that the marking pass did not mark")
    return blocks.rows[at]


# --------------------------------------------------------------------------- one turn


class Scratch(NamedTuple):
    """One thread's working arrays in ``_level`` (allocated per thread: no allocation per key, and no cache
    line shared between the threads)."""

    code_slot: np.ndarray  # int32 [slab]: the slab's row in m_rows for this hand, -1 if absent
    m_rows: np.ndarray  # float64 [row, k]: the elementwise maximum of the successor rows of a slab's plans
    m_codes: np.ndarray  # int64 [row]: the slab of each row of m_rows
    members: np.ndarray  # int64 [cards]: the cards of D
    members2: np.ndarray  # int64 [cards]: the cards of D' (stuck rolls)
    valu: np.ndarray  # float64 [row of a block, k]: the best value of each blocked target (stuck rolls)
    brec: np.ndarray  # int64 [hand card, x, o]: the rec from the cards placed before the turn
    triple_count: np.ndarray  # int64 [cost triple]: the unblocked rolls of a hand by cost triple
    active_cc: np.ndarray  # int64 [i]: the cost triples present
    best_of: np.ndarray  # float64 [i, k]: their best values by Karma
    cells: np.ndarray  # int64 [2, n]: the empty cells; 1 for a cell needing a card of this turn first
    picks: np.ndarray  # int64 [3, cards]: the blocked targets' rows and the costs of U's cards (stuck rolls)


@njit(cache=True)
def _plans_value(filled, colours, unplaced, out, next_table, index, profiles, arrays, work):
    """Add to ``out`` every hand of 3 with every roll that blocks none of its cards.
    (Long: one jitted loop nest, plans folded by profile code then rolls, kept whole for numba.)"""
    n, orients, karma, cost = arrays.n, arrays.orients, arrays.karma, arrays.cost
    kappa, klass, rb = profiles.kappa, profiles.klass, profiles.rb
    fc_index, n_d_next = index.fc_index, index.n_d
    code_slot, m_rows, m_codes, brec = work.code_slot, work.m_rows, work.m_codes, work.brec
    triple_count, active_cc, best_of = work.triple_count, work.active_cc, work.best_of
    members = work.members
    d = members_of(unplaced, arrays.cards, members)
    empties = work.cells[0]
    e_count = 0
    flag = work.cells[1]  # a cell needing an adjacent card of this turn first
    for x in range(n):
        flag[x] = 0
    for x in range(n):
        if not (filled >> x) & 1:
            empties[e_count] = x
            e_count += 1
            if not is_legal(filled, x, arrays):
                flag[x] = 1
    for i0 in range(d):
        for i1 in range(i0 + 1, d):
            for i2 in range(i1 + 1, d):
                h0, h1, h2 = members[i0], members[i1], members[i2]
                after = unplaced & ~((1 << h0) | (1 << h1) | (1 << h2))
                for x in range(n):
                    if not (filled >> x) & 1:
                        for o in range(orients):
                            brec[0, x, o] = placement_rec(filled, colours, h0, o, x, arrays)
                            brec[1, x, o] = placement_rec(filled, colours, h1, o, x, arrays)
                            brec[2, x, o] = placement_rec(filled, colours, h2, o, x, arrays)
                # ---- plans sigma grouped by profile code: M[code] = elementwise max of the successor rows
                present = 0
                after_rank = index.ranks[after]
                for a0 in range(e_count):  # each placement and relation is computed at the loop level it depends on
                    x0 = empties[a0]
                    for o0 in range(orients):
                        f0, c0 = place_card(filled, colours, h0, o0, x0, arrays)
                        for a1 in range(e_count):
                            x1 = empties[a1]
                            if x1 == x0:
                                continue
                            for o1 in range(orients):
                                rel01 = _relation(h0, o0, x0, h1, o1, x1, arrays)
                                f1, c1 = place_card(f0, c0, h1, o1, x1, arrays)
                                partial = (brec[0, x0, o0] * rb + brec[1, x1, o1]) * rb
                                partial_low = rel01 * 72 + flag[x0] * 4 + flag[x1] * 2
                                for a2 in range(e_count):
                                    x2 = empties[a2]
                                    if x2 == x0 or x2 == x1:
                                        continue
                                    for o2 in range(orients):
                                        rel02 = _relation(h0, o0, x0, h2, o2, x2, arrays)
                                        rel12 = _relation(h1, o1, x1, h2, o2, x2, arrays)
                                        code = (
                                            (partial + brec[2, x2, o2]) * 216
                                            + partial_low
                                            + (rel02 * 3 + rel12) * 8
                                            + flag[x2]
                                        )
                                        cl = klass[code]
                                        if cl < 0:
                                            continue
                                        f, c = place_card(f1, c1, h2, o2, x2, arrays)
                                        row = next_table[fc_index[(f << n) | c] * n_d_next + after_rank]
                                        s = code_slot[cl]
                                        if s < 0:
                                            s = present
                                            code_slot[cl] = s
                                            m_codes[s] = cl
                                            present += 1
                                            for k in range(karma + 1):
                                                m_rows[s, k] = row[k]
                                        else:
                                            for k in range(karma + 1):
                                                if row[k] > m_rows[s, k]:
                                                    m_rows[s, k] = row[k]
                # ---- rolls: group the unblocked ones by cost triple
                for cc in range(125):
                    triple_count[cc] = 0
                for r in range(36):
                    c0 = cost[h0, r]
                    c1 = cost[h1, r]
                    c2 = cost[h2, r]
                    if c0 == 0 or c1 == 0 or c2 == 0:
                        continue
                    triple_count[(c0 - 1) * 25 + (c1 - 1) * 5 + (c2 - 1)] += 1
                active = 0
                for cc in range(125):
                    if triple_count[cc] > 0:
                        active_cc[active] = cc
                        for k in range(karma + 1):
                            best_of[active, k] = 0.0
                        active += 1
                for s in range(present):  # class by class, so that each class's kappa slab is read in order
                    cl = m_codes[s]
                    for i in range(active):
                        cc = active_cc[i]
                        for k in range(1, karma + 1):
                            v = m_rows[s, kappa[cl, cc, k]]
                            if v > best_of[i, k]:
                                best_of[i, k] = v
                for i in range(active):
                    for k in range(1, karma + 1):
                        out[k] += 35.0 * triple_count[active_cc[i]] * best_of[i, k]
                for s in range(present):
                    code_slot[m_codes[s]] = -1


@njit(cache=True)
def _stuck_targets(dprime, u1, u2, kind, arrays, work):
    """The rows of U's block a stuck roll reads, into ``work.picks``: [0] the row j (the card's place in D'), [1] and
    [2] the costs of u1 and u2 under the roll that blocks it; ``work.valu`` zeroed. SINGLES: each b of D' sharing no
    numbers with U (blocked alone); PAIRS: each b1 of D' with a partner after it. Returns how many."""
    members2 = work.members2
    m = members_of(dprime, arrays.cards, members2)
    count = 0
    for j in range(m):
        for k in range(arrays.karma + 1):
            work.valu[j, k] = 0.0
        b = members2[j]
        if kind == SINGLES:
            if arrays.same[b, u1] or arrays.same[b, u2]:
                continue  # b is blocked with its partner: the pairs' case
        elif _partner_after(members2, j, m, arrays.same) < 0:
            continue
        work.picks[0, count] = j
        work.picks[1, count] = arrays.cost[u1, arrays.block_roll[b]]
        work.picks[2, count] = arrays.cost[u2, arrays.block_roll[b]] if kind == SINGLES else 0
        count += 1
    return count


@njit(cache=True)
def _stuck_hands(filled, colours, unplaced, out, kind, blocks, arrays, work):
    """Add every hand with a roll that blocks part of it: the rest U placed with that roll, then R(L', B) read
    from ``blocks``; the hands sharing U share the blocks of its plans.

    SINGLES: the hands {u1, u2, b} with the roll that blocks b alone, u1 and u2 placed in either order; PAIRS:
    the hands {u, b1, b2}, b1 and b2 sharing numbers, with the roll that blocks both, u placed alone (one
    cell and orientation loop, no second card). (Long: one jitted loop nest over U, its plans and the blocked
    cards, kept whole for numba.)"""
    n, orients, karma, step = arrays.n, arrays.orients, arrays.karma, arrays.step
    two = kind == SINGLES
    members, valu, rows_at, costs1, costs2 = work.members, work.valu, work.picks[0], work.picks[1], work.picks[2]
    d = members_of(unplaced, arrays.cards, members)
    for a in range(d):
        u1 = members[a]
        lo, hi = (a + 1, d) if two else (d, d + 1)  # PAIRS: one pass, with no second card u2
        for a2 in range(lo, hi):
            u2 = members[a2] if two else -1
            dprime = unplaced & ~((1 << u1) | ((1 << u2) if two else 0))
            count = _stuck_targets(dprime, u1, u2, kind, arrays, work)
            if count == 0:
                continue
            for x1 in range(n):
                if (filled >> x1) & 1:
                    continue
                for x2 in range(n if two else 1):
                    if two:
                        if x2 == x1 or (filled >> x2) & 1:
                            continue
                        first_ok, second_ok = _pair_orders(filled, x1, x2, arrays)
                    else:
                        first_ok, second_ok = is_legal(filled, x1, arrays), False
                    if not (first_ok or second_ok):
                        continue
                    for o1 in range(orients):
                        for o2 in range(orients if two else 1):
                            ra1 = placement_rec(filled, colours, u1, o1, x1, arrays)
                            f2, c2 = place_card(filled, colours, u1, o1, x1, arrays)
                            ra2 = rb1 = rb2 = 0
                            if two:
                                ra2 = placement_rec(f2, c2, u2, o2, x2, arrays)
                                rb2 = placement_rec(filled, colours, u2, o2, x2, arrays)
                                fb, cb = place_card(filled, colours, u2, o2, x2, arrays)
                                rb1 = placement_rec(fb, cb, u1, o1, x1, arrays)
                                f2, c2 = place_card(f2, c2, u2, o2, x2, arrays)
                            block = _block_at(blocks, f2, c2, dprime)
                            for i in range(count):
                                j = rows_at[i]
                                cost1 = costs1[i]
                                cost2 = costs2[i]
                                row = block[j]
                                for k in range(1, karma + 1):
                                    v = 0.0
                                    if first_ok:
                                        kk = step[k, cost1, ra1]
                                        if two and kk > 0:
                                            kk = step[kk, cost2, ra2]
                                        v = row[kk]
                                    if second_ok:
                                        kk = step[k, cost2, rb2]
                                        if kk > 0:
                                            kk = step[kk, cost1, rb1]
                                        if row[kk] > v:
                                            v = row[kk]
                                    if v > valu[j, k]:
                                        valu[j, k] = v
            for i in range(count):
                for k in range(1, karma + 1):
                    out[k] += valu[rows_at[i], k]


@njit(cache=True, inline="always")
def _relation(ca, oa, xa, cb, ob, xb, arrays):
    """Two placements of a turn: 0 not adjacent, 1 adjacent without a colour match, 2 with one."""
    n, facing = arrays.n, arrays.facing
    if xb == (xa + 1) % n:
        return 2 if facing[ca, oa, xa, 1] == facing[cb, ob, xb, 0] else 1
    if xa == (xb + 1) % n:
        return 2 if facing[ca, oa, xa, 0] == facing[cb, ob, xb, 1] else 1
    return 0


@njit(cache=True, parallel=True)
def _level(keys, out, next_table, index, profiles, arrays, singles, pairs, threads, width):
    """Every key of one turn-start level: thread ``t`` takes the runs of 64 keys ``t, t + threads, ...`` (interleaved,
    so the threads' shares cost alike and walk the same part of the next level's table together; runs, not single
    keys, so that the threads do not write value rows sharing a cache line). Each thread allocates its own scratch
    here: scratch rows of the threads side by side in one array shared cache lines, which turn 3's million short keys
    rewrite all the time (the threads then ran at about 1.3x one thread there)."""
    karma, n, cards = arrays.karma, arrays.n, arrays.cards
    total = keys.shape[0]
    runs = (total + 63) // 64
    for t in prange(threads):
        work = Scratch(
            np.full(profiles.kappa.shape[0], -1, dtype=np.int32),
            np.zeros((4096, karma + 1)),
            np.zeros(4096, dtype=np.int64),
            np.zeros(cards, dtype=np.int64),
            np.zeros(cards, dtype=np.int64),
            np.zeros((width, karma + 1)),
            np.zeros((3, n, 2), dtype=np.int64),
            np.zeros(125, dtype=np.int64),
            np.zeros(36, dtype=np.int64),
            np.zeros((36, karma + 1)),
            np.zeros((2, n), dtype=np.int64),
            np.zeros((3, cards), dtype=np.int64),
        )
        for run in range(t, runs, threads):
            for q in range(run * 64, min(total, run * 64 + 64)):
                filled, colours, unplaced = unpack_key(keys[q])
                row = out[q]
                _plans_value(filled, colours, unplaced, row, next_table, index, profiles, arrays, work)
                _stuck_hands(filled, colours, unplaced, row, np.int64(SINGLES), singles, arrays, work)
                _stuck_hands(filled, colours, unplaced, row, np.int64(PAIRS), pairs, arrays, work)


# --------------------------------------------------------------------------- driver


def solve_level(keys, table, index: DenseIndex, arrays: ModelArrays, profiles: Profiles, penalty, fc_all, threads=None):
    """The value rows of ``keys`` (one turn-start level) from the next level's dense ``table`` (``index``: its dense
    index).

    First every reroll block the level looks up is marked (``_mark_blocks``) and computed once
    (``_fill_blocks``, shared by both threads); then the keys. ``fc_all`` is ``dense_index`` over
    every fill count (blocks sit one or two placements after a turn start). Returns the rows and
    the counters ``[[blocks after one placement, blocks after two]]``.
    """
    threads = threads or numba.get_num_threads()
    karma, n, cards = arrays.karma, arrays.n, arrays.cards
    left = popcount(int(keys[0]) >> 20 & 1023)
    level = popcount(int(keys[0]) & 1023)
    fc_counts = _fc_counts(fc_all, n)
    kinds = {  # the dense index of L' and the width of a block of each kind
        SINGLES: (DenseIndex(fc_all, index.ranks, comb(cards, left - 2), n), fc_counts[level + 2], left - 2),
        PAIRS: (DenseIndex(fc_all, index.ranks, comb(cards, left - 1), n), fc_counts[level + 1], left - 1),
    }
    marks = {kind: np.zeros(fc_count * where.n_d, dtype=np.int64) for kind, (where, fc_count, _) in kinds.items()}
    _mark_blocks(keys, marks[SINGLES], marks[PAIRS], kinds[SINGLES][0], kinds[PAIRS][0], arrays)
    found = {}
    for kind, (where, _, width) in kinds.items():
        mark = marks.pop(kind)
        at = np.flatnonzero(mark)
        number = np.full(len(mark), -1, dtype=np.int32)
        number[at] = np.arange(len(at), dtype=np.int32)
        blocks = np.zeros((len(at), max(width, 1), karma + 1))
        _fill_blocks(mark[at] - 1, kind, blocks, table, index, arrays, penalty)
        found[kind] = Blocks(number, blocks, *where)
    out = np.zeros((len(keys), karma + 1))
    _level(keys, out, table, index, profiles, arrays, found[SINGLES], found[PAIRS], threads, max(left - 1, 1))
    return out, np.array([[len(found[PAIRS].rows), len(found[SINGLES].rows)]], dtype=np.int64)


def dense_table(rows: np.ndarray, slots: np.ndarray, size: int) -> np.ndarray:
    """The next level's rows at their dense slots (float64, exact below 2**53)."""
    table = np.zeros((size, rows.shape[1]))
    table[slots] = rows
    return table


def _fc_counts(fc_all, n):
    """How many dense (F, C) numbers each fill count has in ``fc_all``."""
    counts = [0] * (n + 1)
    for key in np.flatnonzero(fc_all >= 0):
        level = popcount(int(key) >> n)
        counts[level] = max(counts[level], int(fc_all[key]) + 1)
    return counts


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
        return all(bool((np.rint(rows) == rows).all()) and rows.max() < 2**53 for _, rows in self.values.values())


def kappa_of(model, arrays: ModelArrays) -> Profiles:
    """``(kappa, klass, rb)`` of a model: the best final Karma of every profile code (deduplicated into
    classes) and the bound ``rb`` of a base ``rec`` (the centre's best plus two neighbours) in the code."""
    rb = max(max(max(r) for r in card) for card in model.centre_rec) + 3
    kappa, klass = kappa_classes(_kappa_table(arrays, rb), arrays.karma)
    return Profiles(kappa, klass, rb)


def _checkpointed(saved: Path | None, keys, compute) -> tuple:
    """A level's rows and counters, read back from ``saved`` if it holds these keys (the counters are
    the solving run's), else ``compute()``d and saved there."""
    if saved is not None and saved.exists():
        with np.load(saved) as data:
            if np.array_equal(data["keys"], keys):
                return data["rows"], data["stats"]
    out, stats = compute()
    if saved is not None:
        np.savez(saved, keys=keys, rows=out, stats=stats)
    return out, stats


def _report(level: int, count: int, seconds: tuple, stats) -> None:
    """Print one solved level: its keys, wall and processor seconds, and the reroll blocks it computed."""
    after_one, after_two = stats.sum(axis=0)
    print(
        f"level {level}: {count:,} keys in {seconds[0]:.1f} s wall, {seconds[1]:.1f} s CPU; reroll blocks: "
        f"{after_one:,} after one placement, {after_two:,} after two",
        flush=True,
    )


def _check_covered(rules: Rules, model) -> None:
    """Refuse what this builder does not model: a roll per placement, a per-turn gain allowance, other
    than 10 ring cells and 10 cards (keys are 10-bit masks), or three cards that one roll blocks together."""
    if rules.roll_timing != "per_turn" or rules.cap_rule == "before_turn":
        raise ValueError(f"the table builder does not cover {rules} (see the module docstring)")
    if model.size != 10 or len(model.card_ids) != 10:
        raise ValueError("the table builder packs keys in 10-bit masks: it needs 10 ring cells and 10 cards")
    for triple in combinations(range(len(model.card_ids)), 3):
        if all(model.numbers[t] == model.numbers[triple[0]] for t in triple):
            raise ValueError("three cards share both numbers: a whole hand could be blocked (not modelled)")


def solve(rules: Rules, centre: str | None = None, verbose: bool = True, checkpoint: Path | None = None) -> Tables:
    """Solve the whole game bottom-up: final card, then turn 3, turn 2, turn 1 (docs/pangu_solver.md, "The exact value").

    ``checkpoint``: a folder where each solved level is saved and, on a rerun with the same
    rules, read back instead of recomputed (a long build survives an interruption).
    """
    started = time.perf_counter()
    if checkpoint is not None:
        checkpoint.mkdir(parents=True, exist_ok=True)
    model = build_model(rules, centre)
    _check_covered(rules, model)
    n, cards = model.size, len(model.card_ids)
    arrays = model_arrays(model)
    penalty = rules.stuck_rule == "reroll_penalty_1"
    profiles = kappa_of(model, arrays)
    levels = [0, 3, 6, 9]
    fc_index, fc_counts = dense_index(model, levels)
    fc_all, _ = dense_index(model, list(range(n + 1)))  # the reroll blocks sit between turn starts
    ranks = rank_table(n)
    keys = turn_start_keys(model, arrays, levels[:-1])
    keys[levels[-1]] = every_key(fc_index, ranks, levels[-1], cards, n)
    if verbose:
        for level in levels[1:]:
            print(f"level {level}: {len(keys[level]):,} turn-start keys", flush=True)
    values, scales, stuck_entries, level_times, stats = {}, {}, {}, {}, {}
    last = levels[-1]
    finals = final_card_rows(keys[last], arrays, penalty)
    values[last] = (keys[last], finals)
    scales[last] = 35
    for level, following in reversed(list(zip(levels[:-1], levels[1:]))):
        index = DenseIndex(fc_index, ranks, comb(cards, cards - following), n)
        next_keys, next_rows = values[following]
        table = dense_table(next_rows, slots_of(next_keys, *index), fc_counts[following] * index.n_d)
        t0, c0 = time.perf_counter(), time.process_time()
        saved = (
            None
            if checkpoint is None
            else checkpoint / f"{rules_tag(replace(rules, centre_config=model.centre), model.centre)}_level{level}.npz"
        )
        out, stats[level] = _checkpointed(
            saved,
            keys[level],
            lambda table=table, index=index: solve_level(keys[level], table, index, arrays, profiles, penalty, fc_all),
        )
        level_times[level] = (time.perf_counter() - t0, time.process_time() - c0)
        hands = comb(cards - level, 3)
        scales[level] = hands * 36 * 35 * scales[following]
        values[level] = (keys[level], out)
        stuck_entries[level] = int(stats[level].sum())
        del table
        if verbose:
            _report(level, len(keys[level]), level_times[level], stats[level])
    tables = Tables(model, fc_index, ranks, levels, keys, values, scales, time.perf_counter() - started, stuck_entries)
    tables.level_times = level_times
    tables.cache_stats = stats
    return tables


def warm_up() -> None:
    """Compile (or load from numba's cache) every builder kernel on a one-key problem of the default rules."""
    model = build_model(Rules())
    arrays = model_arrays(model)
    n = model.size
    profiles = kappa_of(model, arrays)
    fc_index, fc_counts = dense_index(model, [0, 3, 6, 9])
    fc_all, fc_counts_all = dense_index(model, list(range(n + 1)))
    ranks = rank_table(n)
    keys = np.array([((1 << n) - 1) << 20], dtype=np.int64)
    for level in (0, 3, 6):
        previous, keys = keys[:1], next_turn_keys(keys[:1], level, fc_all, fc_counts_all, ranks, arrays)
    rows = final_card_rows(keys, arrays, False)
    index = DenseIndex(fc_index, ranks, n, n)
    table = dense_table(rows, slots_of(keys, *index), fc_counts[9] * n)
    solve_level(previous, table, index, arrays, profiles, False, fc_all)


def root_value(rules: Rules, verbose: bool = True) -> tuple[Fraction, float, list]:
    """The whole game's value under ``rules``, the seconds it took and the solved ``Tables`` (one per centre).

    ``centre_config=RANDOM`` draws one of the two fixed configurations with probability 1/2 each,
    so its value is the mean of theirs (each solved, or read back from its checkpoint).
    """
    started = time.perf_counter()
    centres = ("YIN_LEFT", "YANG_LEFT") if rules.centre_config == "RANDOM" else (None,)
    solved = [solve(rules, centre, verbose=verbose, checkpoint=checkpoint_folder()) for centre in centres]
    value = sum((tables.root() for tables in solved), Fraction(0)) / len(solved)
    return value, time.perf_counter() - started, solved


def turn_three_samples(tables, count: int = 2, seed: int = 3) -> list[dict]:
    """A few turn-3 rows of a solve, for the tests to recompute in pure Python (exact tables only)."""
    keys, rows = tables.values[6]
    picks = np.random.default_rng(seed).choice(len(keys), size=count, replace=False)
    return [
        {
            "centre": tables.model.centre,
            "filled": int(keys[at]) & 1023,
            "colours": int(keys[at]) >> 10 & 1023,
            "unplaced": int(keys[at]) >> 20 & 1023,
            "scale": int(tables.scales[6]),
            "numerators": [int(v) for v in rows[at][1:]],
        }
        for at in sorted(picks)
    ]


def rounding_bound(cards: int = 10, karma: int = 10) -> float:
    """An upper bound on the relative float64 error of a root value whose numerators are not whole.

    A turn-start row is a sum of non-negative terms, at most hands x (36 rolls + 3 stuck groups),
    each a product of at most three roundings of a value of the next level; a reroll row adds 5
    terms and the paid-reroll recursion 2 K roundings. A sum of N non-negative terms has a relative
    error below (N - 1) u with u = 2**-53, and the errors of the levels add up.
    """
    unit = 2.0**-53
    total = 2 * karma  # the final card's paid-reroll recursion
    for left in range(cards, 3, -3):
        total += comb(left, 3) * (36 + 3) * 3 + 5 + 2 * karma
    return 1.01 * total * unit


OUT_OF_REACH = {
    "per_placement": "a fresh roll before every placement makes the memo placement-level (14.26 M mid-turn keys "
    "x Karma, about 4.8 GB) and needs 128-bit numerators (a factor 1260 per placement); this "
    "builder keeps whole turns and float64-exact numerators",
    "before_turn": "the gain limit depends on the turn's remaining allowance, a second Karma-like dimension the "
    "profile-code table kappa and the reroll blocks do not carry",
}
APPROXIMATE = (
    "a paid reroll divides by 36 once more at each Karma, so the numerators need about 190 bits "
    "(36**9 per turn on top of the per-turn denominators); the builder keeps float64, whose sums "
    "of non-negative terms are correct to the error bound given"
)


def record_variant(
    name: str, value: Fraction, wall: float, cpu: float, exact: bool = True, samples: list | None = None
) -> None:
    """Store a variant's whole-game value and the time it took (``--record``), with this builder's reasons
    for the variants out of its reach."""
    entry = {
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "threads": numba.get_num_threads(),
        "load_average": round(os.getloadavg()[0], 1),
    }
    if exact:
        entry.update(value=str(value), decimal=round(float(value), 10))
    else:
        bound = rounding_bound() * float(value)
        entry.update(decimal=float(value), approximate=APPROXIMATE, error_bound=float(f"{bound:.1e}"))
    if samples:
        entry["turn3_samples"] = samples
    if name == "RANDOM_centre":
        entry["note"] = "the mean of the two fixed centre configurations (YIN_LEFT, the default, and YANG_LEFT)"
    write_variant(name, entry, OUT_OF_REACH)
