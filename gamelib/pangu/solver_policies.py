"""The exact whole-game chance of winning of the bots of ``gamelib.pangu.bots`` (numba, the ``solver`` extra).

    python -m gamelib.pangu.solver_policies --policy greedy                   # prints the value
    python -m gamelib.pangu.solver_policies --policy greedy --record          # also into data/solver_bots.json
    python -m gamelib.pangu.solver_policies --policy greedy --variant NAME --record   # a SINGLE_VARIANTS entry
    python -m gamelib.pangu.solver_policies --policy lookahead --record       # bots.lookahead_policy

Not a simulation: a turn-level dynamic programme over the solver's turn-start keys ``(F, C, D)``
(``solver_model``, research note ``shared/notes/pangu_solver.md`` 3.1) like the optimal one of
``solver_build``, with the policy's own play in place of the maximum. Each level (turn 3, then 2,
then 1) is a table of value rows over Karma, as whole numerators in int64 over a fixed scale:

* the final card (turn 4) has the optimal solver's rows: its cell is forced and every bot turns it
  to its best ``rec`` (scale 35, the unblocked rolls);
* a turn sums over every *ordered* hand of 3 (the revealed order breaks the bot's ties,
  pangu.md#programmers) and every roll (x35) of the bot's play from the Karma it starts with. A
  stuck roll (the rest of the hand blocked after the unblocked cards are placed) sums over the 35
  rerolls (pangu.md#placing, free rerolls);
* so ``scale = ordered hands * 36 * 35 * scale of the next level``, 2.54e17 at the root: int64 holds
  it exactly (float64 would not).

The greedy bot (cheapest legal die, best ``rec - cost`` now, first in the action order) ignores
Karma, so one play of a hand under a roll serves all ten Karma values. Why it is fast (last
session's version did not finish turn 3 in 4.3 CPU-minutes): the play depends on the roll only
through the hand's three cheapest costs, so the 36 rolls are grouped by that cost triple
(about 20 distinct plays instead of 36); and after a stuck roll the blocked cards share both
numbers, hence one cost under every reroll, so greedy's choice among them (by ``rec``) is the same
for all 35 rerolls: one play and five cost classes instead of 35 plays. The old version replayed
all 35 rerolls of each of the ~3 stuck rolls of every hand (141 plays per hand instead of ~20)
and allocated an array in every play.

Only the keys the bot reaches are evaluated: a forward pass from the start lists them level by
level (greedy reaches 359 of the 30,612 turn-2 keys and 4,454 of the 1,042,644 turn-3 keys under the
defaults), then the backward pass computes their rows; a key missing from a table is detected
(its Karma-0 entry is -1), never read as 0.

The lookahead bot (``bots.TurnPlanner``: the first move, in the action order, of a plan maximising
the expected Karma at the end of the turn, a lost game counting 0, stuck rerolls averaged
exactly) depends on Karma, so its forward pass lists (key, Karma) pairs and every decision runs
the planner's search (``_la_value``, in units of 1/35 Karma so that the reroll average is whole).
The whole-game run (``solve_lookahead``) uses memoised copies of those kernels (``_lam_value``) and
plays each turn once: turns 1 and 2 forward with every play's outcome stored, turn 3 summed against
the complete final-card table, then turns 2 and 1 only sum their stored plays. The plain kernels
stay as the oracle of the tests (same choices as ``bots.lookahead_policy``, same rows).

The random bot reaches every key, and its exact denominators (products of its action counts) outgrow
int64: ``solver_random`` evaluates it modulo primes (``--policy random`` runs it).

Supported rules: ``roll_timing=per_turn`` with ``stuck_rule=reroll`` and any other parameter except
``cap_rule=before_turn`` (the step table of ``solver_build`` carries no turn allowance);
``centre_config=RANDOM`` is the mean of both fixed centres.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

try:
    import numba
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("evaluating the bots exactly needs numba: pip install -e '.[solver]'") from error

from gamelib.core import CHANCE
from gamelib.pangu.rules import SINGLE_VARIANTS, Rules
from gamelib import datafiles
from gamelib.pangu.solver_tables import checkpoint_folder, records_lock
from gamelib.pangu.solver_build import (MAX_REC, _comb, _rules_tag, _final_rows, _legal, _place, _rec, _slot, _slots_of,
                                        dense_index, model_arrays, rank_table, turn_start_keys)
from gamelib.pangu.solver_model import Model, build_model

BOTS_PATH = Path(__file__).with_name("data") / "solver_bots.json"
LEVELS = (0, 3, 6, 9)  # cards placed at each turn start; 9 = the final card alone


# --------------------------------------------------------------------------- the greedy bot


@njit(cache=True)
def _greedy_choice(filled, colours, order, count, placed, roll, rowmajor, facing, centre_rec, touches, cost, orients,
                   n):
    """Greedy's next placement among ``order[:count]`` not yet in ``placed``: (i, x, o, rec), i = -1 if all are blocked.

    The loops run in the order of pangu.md#programmers (revealed order, row-major cells, orientation 0
    first) and keep the first best, as ``bots.greedy_policy`` does."""
    best_score = -100
    best_i, best_x, best_o, best_rec = -1, -1, -1, 0
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1:
            continue
        c = cost[card, roll]
        if c == 0:
            continue
        for q in range(n):
            x = rowmajor[q]
            if not _legal(filled, x, touches, n):
                continue
            for o in range(orients):
                r = _rec(filled, colours, card, o, x, facing, centre_rec, n)
                if r - c > best_score:
                    best_score = r - c
                    best_i, best_x, best_o, best_rec = i, x, o, r
    return best_i, best_x, best_o, best_rec


@njit(cache=True)
def _greedy_play(filled, colours, order, count, roll, rowmajor, facing, centre_rec, touches, cost, orients, n, steps,
                 start):
    """Play greedy for the cards ``order[:count]`` with ``roll`` until all are placed or the rest are blocked.

    Returns (F, C, placed mask, steps used); ``steps[start + t]`` gets (cost, rec) of the t-th
    placement. Greedy ignores Karma, so one play serves every Karma."""
    placed = 0
    used = 0
    while True:
        i, x, o, r = _greedy_choice(filled, colours, order, count, placed, roll, rowmajor, facing, centre_rec, touches,
                                    cost, orients, n)
        if i < 0:
            return filled, colours, placed, used
        card = order[i]
        steps[start + used, 0] = cost[card, roll]
        steps[start + used, 1] = r
        used += 1
        placed |= 1 << card
        filled, colours = _place(filled, colours, card, o, x, facing, n)
        if used == count:
            return filled, colours, placed, used


@njit(cache=True)
def _karma_after(k, steps, used, step):
    for t in range(used):
        if k <= 0:
            return 0
        k = step[k, steps[t, 0], min(steps[t, 1], MAX_REC)]
    return k


@njit(cache=True)
def _greedy_roll(filled, colours, after, order, count, roll, next_table, fc_index, ranks, n_d_next, rowmajor, facing,
                 centre_rec, touches, cost, step, reroll_counts, karma, n, orients, contribution, steps, rest):
    """35 x greedy's value row after ``roll`` with the cards ``order[:count]`` to place, into ``contribution``.

    A stuck roll sums the 35 rerolls instead: the blocked cards share both numbers, so they cost the
    same under every reroll and greedy places them the same way (by ``rec``) under all of them;
    ``reroll_counts[card, c]`` is the number of rerolls at which they cost ``c``."""
    f, c, placed, used = _greedy_play(filled, colours, order, count, roll, rowmajor, facing, centre_rec, touches, cost,
                                      orients, n, steps, 0)
    if used == count:
        row = next_table[_slot(f, c, after, fc_index, ranks, n_d_next, n)]
        contribution[0] = row[0]  # -1 flags a key the table lacks (Arrays.table): a forward pass missed it
        for k in range(1, karma + 1):
            contribution[k] = 35 * row[_karma_after(k, steps, used, step)]
        return
    m = 0
    for i in range(count):
        if not (placed >> order[i]) & 1:
            rest[m] = order[i]
            m += 1
    # any unblocked roll of the rest gives the same play; the first card's cheapest cost stands for the class
    probe = -1
    for r2 in range(36):
        if cost[rest[0], r2] > 0:
            probe = r2
            break
    f2, c2, placed2, used2 = _greedy_play(f, c, rest, m, probe, rowmajor, facing, centre_rec, touches, cost, orients,
                                          n, steps, used)
    row = next_table[_slot(f2, c2, after, fc_index, ranks, n_d_next, n)]
    total = used + used2
    for k in range(karma + 1):
        contribution[k] = 0
    contribution[0] = row[0]
    for cc in range(1, 6):
        times = reroll_counts[rest[0], cc]
        if times == 0:
            continue
        for t in range(used, total):
            steps[t, 0] = cc
        for k in range(1, karma + 1):
            contribution[k] += times * row[_karma_after(k, steps, total, step)]


@njit(cache=True)
def _greedy_hand(filled, colours, after, order, next_table, fc_index, ranks, n_d_next, rowmajor, facing, centre_rec,
                 touches, cost, step, reroll_counts, karma, n, orients, row_out, contribution, steps, rest, by_code):
    """Add the 36 rolls of one ordered hand of 3 to ``row_out``; rolls with the same cost triple share one play."""
    for code in range(216):
        by_code[code] = 0
    for r in range(36):
        by_code[(cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]] += 1
    for code in range(216):
        times = by_code[code]
        if times == 0:
            continue
        r = 0
        while (cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r] != code:
            r += 1
        _greedy_roll(filled, colours, after, order, 3, r, next_table, fc_index, ranks, n_d_next, rowmajor, facing,
                     centre_rec, touches, cost, step, reroll_counts, karma, n, orients, contribution, steps, rest)
        if contribution[0] < 0:
            row_out[0] = -1
        for k in range(1, karma + 1):
            row_out[k] += times * contribution[k]


@njit(cache=True, parallel=True)
def _greedy_level(keys, out, next_table, fc_index, ranks, n_d_next, rowmajor, facing, centre_rec, touches, cost,
                  step, reroll_counts, karma, n, cards, orients):
    """Greedy's value rows at one turn-start level: every ordered hand of 3 and every roll (scaled, int64)."""
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
        contribution = np.zeros(karma + 1, dtype=np.int64)
        order = np.zeros(3, dtype=np.int64)
        rest = np.zeros(3, dtype=np.int64)
        steps = np.zeros((3, 2), dtype=np.int64)
        by_code = np.zeros(216, dtype=np.int64)
        for i0 in range(d):
            for i1 in range(d):
                for i2 in range(d):
                    if i1 == i0 or i2 == i0 or i2 == i1:
                        continue
                    order[0], order[1], order[2] = members[i0], members[i1], members[i2]
                    after = unplaced & ~((1 << order[0]) | (1 << order[1]) | (1 << order[2]))
                    _greedy_hand(filled, colours, after, order, next_table, fc_index, ranks, n_d_next, rowmajor, facing,
                                 centre_rec, touches, cost, step, reroll_counts, karma, n, orients, row_out,
                                 contribution, steps, rest, by_code)
        out[q] = row_out


@njit(cache=True, parallel=True)
def _greedy_reached(keys, reached, fc_index, ranks, n_d_next, rowmajor, facing, centre_rec, touches, cost, orients, n,
                    cards):
    """Mark the next level's keys that greedy reaches from ``keys`` (some ordered hand and roll): a forward pass,
    so the backward one visits only those. Threads may mark the same slot: with the same value."""
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
        order = np.zeros(3, dtype=np.int64)
        rest = np.zeros(3, dtype=np.int64)
        steps = np.zeros((3, 2), dtype=np.int64)
        seen = np.zeros(216, dtype=np.int64)
        for i0 in range(d):
            for i1 in range(d):
                for i2 in range(d):
                    if i1 == i0 or i2 == i0 or i2 == i1:
                        continue
                    order[0], order[1], order[2] = members[i0], members[i1], members[i2]
                    after = unplaced & ~((1 << order[0]) | (1 << order[1]) | (1 << order[2]))
                    for code in range(216):
                        seen[code] = 0
                    for r in range(36):
                        code = (cost[order[0], r] * 6 + cost[order[1], r]) * 6 + cost[order[2], r]
                        if seen[code]:
                            continue
                        seen[code] = 1
                        f, c, placed, used = _greedy_play(filled, colours, order, 3, r, rowmajor, facing, centre_rec,
                                                          touches, cost, orients, n, steps, 0)
                        if used < 3:
                            m = 0
                            for i in range(3):
                                if not (placed >> order[i]) & 1:
                                    rest[m] = order[i]
                                    m += 1
                            probe = 0
                            while cost[rest[0], probe] == 0:
                                probe += 1
                            f, c, placed, used = _greedy_play(f, c, rest, m, probe, rowmajor, facing, centre_rec,
                                                              touches, cost, orients, n, steps, used)
                        reached[_slot(f, c, after, fc_index, ranks, n_d_next, n)] = (f | (c << 10) | (after << 20)) + 1


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
# segfaulted when read back by a second process here (numba 0.68), so these compile afresh in each process.
@njit()
def _la_value(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step, rowmajor,
              reroll_counts, class_roll, orients, n):
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
                total += times * _la_value(filled, colours, order, count, placed, class_roll[first, c], k, facing,
                                           centre_rec, touches, cost, step, rowmajor, reroll_counts, class_roll,
                                           orients, n) // 35
        return total
    return _la_choice(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step,
                      rowmajor, reroll_counts, class_roll, orients, n)[0]


@njit()
def _la_choice(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step, rowmajor,
               reroll_counts, class_roll, orients, n):
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
            if not _legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = _place(filled, colours, card, o, x, facing, n)
                    v = _la_value(f2, c2, order, count, placed | (1 << card), roll, k2, facing, centre_rec, touches,
                                  cost, step, rowmajor, reroll_counts, class_roll, orients, n)
                if v > best:
                    best = v
                    best_i, best_x, best_o, best_k = i, x, o, k2
    return best, best_i, best_x, best_o, best_k


@njit()
def _la_phase(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step, rowmajor,
              reroll_counts, class_roll, orients, n):
    """Play the lookahead with ``roll`` until every card is placed, the rest is blocked, or the game is lost.
    Returns (F, C, placed, Karma); Karma 0 = lost."""
    while True:
        _, i, x, o, k2 = _la_choice(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost,
                                 step, rowmajor, reroll_counts, class_roll, orients, n)
        if i < 0:
            return filled, colours, placed, k
        if k2 == 0:
            return filled, colours, placed, 0
        filled, colours = _place(filled, colours, order[i], o, x, facing, n)
        placed |= 1 << order[i]
        k = k2


@njit()
def _la_roll(filled, colours, after, order, count, roll, k, next_table, fc_index, ranks, n_d_next, facing, centre_rec,
             touches, cost, step, rowmajor, reroll_counts, class_roll, orients, n):
    """35 x the lookahead's value from Karma ``k`` after ``roll`` (a stuck roll: the sum over the 35 rerolls)."""
    full = 0
    for i in range(count):
        full |= 1 << order[i]
    f, c, placed, k1 = _la_phase(filled, colours, order, count, 0, roll, k, facing, centre_rec, touches, cost, step,
                                 rowmajor, reroll_counts, class_roll, orients, n)
    if k1 == 0:
        return 0
    if placed == full:
        return 35 * next_table[_slot(f, c, after, fc_index, ranks, n_d_next, n)][k1]
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
        f2, c2, placed2, k2 = _la_phase(f, c, order, count, placed, class_roll[first, cc], k1, facing, centre_rec,
                                        touches, cost, step, rowmajor, reroll_counts, class_roll, orients, n)
        if k2 > 0:
            total += times * next_table[_slot(f2, c2, after, fc_index, ranks, n_d_next, n)][k2]
    return total


@njit(parallel=True)
def _la_level(keys, karmas, out, next_table, fc_index, ranks, n_d_next, rowmajor, facing, centre_rec, touches, cost,
              step, reroll_counts, class_roll, karma, n, cards, orients):
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
                            row_out[k] += times * _la_roll(filled, colours, after, order, 3, r, k, next_table,
                                                           fc_index, ranks, n_d_next, facing, centre_rec, touches,
                                                           cost, step, rowmajor, reroll_counts, class_roll, orients, n)
        out[q] = row_out


@njit(cache=True)
def _la_mark(reached, f, c, after, k, fc_index, ranks, n_d_next, n):
    s = _slot(f, c, after, fc_index, ranks, n_d_next, n)
    reached[s, 0] = (f | (c << 10) | (after << 20)) + 1
    reached[s, 1] |= 1 << k


@njit(parallel=True)
def _la_reached(keys, karmas, reached, fc_index, ranks, n_d_next, rowmajor, facing, centre_rec, touches, cost, step,
                reroll_counts, class_roll, karma, n, cards, orients):
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
                                f, c, placed, k1 = _la_phase(filled, colours, order, 3, 0, r, k, facing, centre_rec,
                                                             touches, cost, step, rowmajor, reroll_counts, class_roll,
                                                             orients, n)
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
                                    f2, c2, placed2, k2 = _la_phase(f, c, order, 3, placed, class_roll[first, cc], k1,
                                                                    facing, centre_rec, touches, cost, step, rowmajor,
                                                                    reroll_counts, class_roll, orients, n)
                                    if k2 > 0:
                                        _la_mark(mine, f2, c2, after, k2, fc_index, ranks, n_d_next, n)


# --------------------------------------------------------------------------- the lookahead bot, memoised (the whole-game run)
#
# The whole-game run evaluates the planner at every (key, Karma, ordered hand, roll class): millions
# of searches of ~1,000 nodes each (last session's run of the plain kernels above did not finish the
# turn-2 forward pass in 7.8 CPU-min). Three savings, each keeping every choice of ``_la_choice``:
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
def _lam_value(filled, colours, rem, roll, k, facing, centre_rec, touches, cost, step, reroll_counts, class_roll,
               orients, n, memo_keys, memo_vals, memo_stamp, memo_state):
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
                total += times * _lam_value(filled, colours, rem, class_roll[first, c], k, facing, centre_rec, touches,
                                            cost, step, reroll_counts, class_roll, orients, n, memo_keys, memo_vals,
                                            memo_stamp, memo_state) // 35
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
            if not _legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = _place(filled, colours, card, o, x, facing, n)
                    v = _lam_value(f2, c2, rem & ~(1 << card), roll, k2, facing, centre_rec, touches, cost, step,
                                   reroll_counts, class_roll, orients, n, memo_keys, memo_vals, memo_stamp, memo_state)
                if v > best:
                    best = v
    if left > 1:
        _memo_put(memo_keys, memo_vals, memo_stamp, memo_state, key, best)
    return best


@njit()
def _lam_choice(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step, rowmajor,
                reroll_counts, class_roll, orients, n, memo_keys, memo_vals, memo_stamp, memo_state):
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
            if not _legal(filled, x, touches, n):
                continue
            for o in range(orients):
                k2 = step[k, c, min(_rec(filled, colours, card, o, x, facing, centre_rec, n), MAX_REC)]
                v = 0
                if k2 > 0:
                    f2, c2 = _place(filled, colours, card, o, x, facing, n)
                    v = _lam_value(f2, c2, rem & ~(1 << card), roll, k2, facing, centre_rec, touches, cost, step,
                                   reroll_counts, class_roll, orients, n, memo_keys, memo_vals, memo_stamp, memo_state)
                if v > best:
                    best = v
                    best_i, best_x, best_o, best_k = i, x, o, k2
    return best, best_i, best_x, best_o, best_k


@njit()
def _lam_phase(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost, step, rowmajor,
               reroll_counts, class_roll, orients, n, memo_keys, memo_vals, memo_stamp, memo_state):
    """``_la_phase`` with ``_lam_choice``: (F, C, placed, Karma), Karma 0 = lost."""
    while True:
        _, i, x, o, k2 = _lam_choice(filled, colours, order, count, placed, roll, k, facing, centre_rec, touches, cost,
                                     step, rowmajor, reroll_counts, class_roll, orients, n, memo_keys, memo_vals,
                                     memo_stamp, memo_state)
        if i < 0:
            return filled, colours, placed, k
        if k2 == 0:
            return filled, colours, placed, 0
        filled, colours = _place(filled, colours, order[i], o, x, facing, n)
        placed |= 1 << order[i]
        k = k2


@njit(nogil=True)
def _la_outcomes(keys, karmas, emit, out_code, out_weight, next_table, rows, fc_index, ranks, n_d_next, rowmajor,
                 facing, centre_rec, touches, cost, step, reroll_counts, class_roll, karma, n, cards, orients,
                 memo_keys, memo_vals, memo_stamp, memo_state):
    """Play the lookahead at every (key, Karma in its mask, ordered hand, roll class) of ``keys``.

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
                            f, c, placed, k1 = _lam_phase(filled, colours, order, 3, 0, r, k, facing, centre_rec,
                                                          touches, cost, step, rowmajor, reroll_counts, class_roll,
                                                          orients, n, memo_keys, memo_vals, memo_stamp, memo_state)
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
                                    f2, c2, _, k2 = _lam_phase(f, c, order, 3, placed, class_roll[first, cc], k1, facing,
                                                               centre_rec, touches, cost, step, rowmajor, reroll_counts,
                                                               class_roll, orients, n, memo_keys, memo_vals, memo_stamp,
                                                               memo_state)
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
                                    s = _slot(f2, c2, after, fc_index, ranks, n_d_next, n)
                                    if next_table[s, 0] < 0:
                                        rows[q, 0] = -1
                                    rows[q, k] += weight * next_table[s, k2]
    return count


# --------------------------------------------------------------------------- the driver


class Arrays:
    """The numba arrays of one model, plus the keys of each turn-start level."""

    def __init__(self, model: Model, keys: dict | None = None):
        self.model = model
        self.n, self.cards = model.size, len(model.card_ids)
        self.orients = len(model.orientations)
        self.karma = model.rules.starting_karma
        self.arrays = model_arrays(model)
        self.step = self.arrays["step"].astype(np.int64)
        index = {cell: x for x, cell in enumerate(model.ring)}
        self.rowmajor = np.array([index[cell] for cell in sorted(model.ring)], dtype=np.int64)
        self.fc_index, self.fc_counts = dense_index(model, list(LEVELS))
        self.ranks = rank_table(self.n)
        cost = self.arrays["cost"]
        self.reroll_counts = np.zeros((self.cards, 6), dtype=np.int64)  # rolls at which a card costs c
        for card in range(self.cards):
            for r in range(36):
                self.reroll_counts[card, cost[card, r]] += 1
        self.keys = keys if keys is not None else turn_start_keys(model, self.arrays, LEVELS)

    def greedy_reached_keys(self) -> dict:
        """The turn-start keys greedy itself reaches from the start (a subset of ``solver_build.turn_start_keys``)."""
        a = self.arrays
        keys = {0: np.array([((1 << self.cards) - 1) << 20], dtype=np.int64)}
        for level, following in zip(LEVELS[:-1], LEVELS[1:]):
            n_d_next = self.n_d(following)
            reached = np.zeros(self.fc_counts[following] * n_d_next, dtype=np.int64)
            _greedy_reached(keys[level], reached, self.fc_index, self.ranks, n_d_next, self.rowmajor, a["facing"],
                            a["centre_rec"], a["touches"], a["cost"], self.orients, self.n, self.cards)
            keys[following] = np.sort(reached[reached > 0] - 1)
        return keys

    def n_d(self, level: int) -> int:
        return _comb(self.cards, self.cards - level)

    def final_rows(self, keys) -> np.ndarray:
        rows = _final_rows(keys, self.arrays["facing"], self.arrays["centre_rec"], self.arrays["cost"],
                           self.arrays["step"], self.karma, False, self.n, self.cards, self.orients)
        return np.rint(rows).astype(np.int64)

    def table(self, level: int, keys, rows) -> np.ndarray:
        """The dense table of a level, indexed by ``_slot``."""
        n_d = self.n_d(level)
        table = np.zeros((self.fc_counts[level] * n_d, self.karma + 1), dtype=np.int64)
        table[:, 0] = -1  # Karma 0 is worth 0 in every row: -1 there marks a slot with no key
        slots = _slots_of(keys, self.fc_index, self.ranks, n_d, self.n)
        table[slots] = rows
        table[slots, 0] = 0
        return table

    def greedy_level(self, level: int, keys, next_table) -> np.ndarray:
        a = self.arrays
        out = np.zeros((len(keys), self.karma + 1), dtype=np.int64)
        _greedy_level(keys, out, next_table, self.fc_index, self.ranks, self.n_d(level + 3), self.rowmajor, a["facing"],
                      a["centre_rec"], a["touches"], a["cost"], self.step, self.reroll_counts, self.karma, self.n,
                      self.cards, self.orients)
        return out


def check_supported(rules: Rules, policy: str) -> None:
    if rules.roll_timing != "per_turn" or rules.cap_rule == "before_turn" or rules.stuck_rule != "reroll":
        raise ValueError(f"the exact {policy} evaluator does not cover {rules}: it needs roll_timing=per_turn, "
                         "stuck_rule=reroll and a cap rule other than before_turn")


def ordered_hands(left: int) -> int:
    return left * (left - 1) * (left - 2)


def solve_greedy(rules: Rules, centre: str | None = None, verbose: bool = True, every_key: bool = False) -> Fraction:
    """The exact whole-game value of ``bots.greedy_policy`` under ``rules`` (one fixed centre).

    Only the keys greedy reaches are evaluated (a forward pass first); ``every_key=True`` evaluates
    every key some legal play reaches instead, as the optimal solver does (slower, same value)."""
    check_supported(rules, "greedy")
    if (centre or rules.centre_config) == "RANDOM":
        return sum((solve_greedy(rules, c, verbose, every_key) for c in ("YIN_LEFT", "YANG_LEFT")), Fraction(0)) / 2
    data = Arrays(build_model(rules, centre), keys=None if every_key else {})
    if not every_key:
        t0 = time.process_time()
        data.keys = data.greedy_reached_keys()
        if verbose:
            print("greedy reaches " + ", ".join(f"{len(k):,}" for k in data.keys.values())
                  + f" turn-start keys at turns 1-4 ({time.process_time() - t0:.1f} s CPU)", flush=True)
    rows = {9: data.final_rows(data.keys[9])}
    scale = 35
    for level in (6, 3, 0):
        t0, c0 = time.perf_counter(), time.process_time()
        saved = checkpoint_folder() / f"greedy_{_rules_tag(rules, data.model.centre)}_level{level}.npz"
        if saved.exists():
            with np.load(saved) as stored:
                if np.array_equal(stored["keys"], data.keys[level]):
                    rows[level] = stored["rows"]
        if level not in rows:
            table = data.table(level + 3, data.keys[level + 3], rows[level + 3])
            rows[level] = data.greedy_level(level, data.keys[level], table)
            np.savez(saved, keys=data.keys[level], rows=rows[level])
        scale *= ordered_hands(data.cards - level) * 36 * 35
        if verbose:
            print(f"greedy level {level}: {len(data.keys[level]):,} keys in {time.perf_counter() - t0:.1f} s wall, "
                  f"{time.process_time() - c0:.1f} s CPU", flush=True)
        if (rows[level][:, 0] < 0).any():
            raise RuntimeError(f"level {level}: greedy reached a key the forward pass did not list")
        if rows[level].max() > scale or scale >= 2 ** 63:
            raise OverflowError(f"level {level}: a numerator exceeds its scale {scale}")
    return Fraction(int(rows[0][0][data.karma]), scale)


LOOKAHEAD_THREADS = 2  # worker threads of the whole-game run (the machine is shared)
GROUP_KEYS = 16  # keys per work item: consecutive keys of equal (F, C), which share search nodes


class _Memo:
    """One thread's memo table for ``_lam_value`` (keys, values, generation stamps, [generation, entries])."""

    def __init__(self, bits: int = MEMO_BITS):
        size = 1 << bits
        self.tables = (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64),
                       np.array([1, 0], np.int64))


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
                print(f"  {label}: {done[0]:,}/{len(items):,} work items, {time.perf_counter() - t0:.0f} s wall, "
                      f"{time.process_time() - c0:.0f} s CPU", flush=True)
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
        slots = _slots_of(self.nxt, data.fc_index, data.ranks, data.n_d(level + 3), data.n)
        if (next_table[slots, 0] < 0).any():
            raise RuntimeError(f"level {level}: a stored play reaches a key the next level's table lacks")
        rows = np.zeros((count, data.karma + 1), dtype=np.int64)
        np.add.at(rows, (self.q, self.k), self.weight * next_table[slots, self.k2])
        return rows


def _kernel_args(data: "Arrays", level: int, class_roll) -> tuple:
    a = data.arrays
    return (data.fc_index, data.ranks, data.n_d(level + 3), data.rowmajor, a["facing"], a["centre_rec"], a["touches"],
            a["cost"], data.step, data.reroll_counts, class_roll, data.karma, data.n, data.cards, data.orients)


def la_outcomes(data: "Arrays", level: int, keys, karmas, class_roll, threads: int = LOOKAHEAD_THREADS,
                verbose: bool = False) -> Outcomes:
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


def la_rows(data: "Arrays", level: int, keys, karmas, next_table, class_roll, threads: int = LOOKAHEAD_THREADS,
            verbose: bool = False) -> np.ndarray:
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


def solve_lookahead(rules: Rules, centre: str | None = None, verbose: bool = True,
                    threads: int = LOOKAHEAD_THREADS) -> Fraction:
    """The exact whole-game value of ``bots.lookahead_policy`` under ``rules`` (one fixed centre).

    Its moves depend on Karma, so each level lists the (key, Karma) pairs it reaches. Turns 1 and 2
    are played once, forward, with every play's outcome stored (``la_outcomes``); turn 3 is summed
    against the complete final-card table as it is played (``la_rows``); then turns 2 and 1 only sum
    their stored plays (``Outcomes.rows``)."""
    check_supported(rules, "lookahead")
    if (centre or rules.centre_config) == "RANDOM":
        return sum((solve_lookahead(rules, c, verbose, threads) for c in ("YIN_LEFT", "YANG_LEFT")), Fraction(0)) / 2
    data = Arrays(build_model(rules, centre), keys={})
    class_roll = _class_rolls(data.arrays["cost"])
    keys = {0: np.array([((1 << data.cards) - 1) << 20], dtype=np.int64)}
    karmas = {0: np.array([1 << data.karma], dtype=np.int64)}
    plays = {}
    for level, following in ((0, 3), (3, 6)):
        t0, c0 = time.perf_counter(), time.process_time()
        plays[level] = la_outcomes(data, level, keys[level], karmas[level], class_roll, threads, verbose)
        keys[following], karmas[following] = plays[level].reached()
        if verbose:
            pairs = sum(bin(int(m)).count("1") for m in karmas[following])
            print(f"lookahead reaches {len(keys[following]):,} keys ({pairs:,} with their Karma) at level {following} "
                  f"({len(plays[level].q):,} stored plays) in {time.perf_counter() - t0:.1f} s wall, "
                  f"{time.process_time() - c0:.1f} s CPU", flush=True)
    final_keys = all_keys(data, 9)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = {6: la_rows(data, 6, keys[6], karmas[6], data.table(9, final_keys, data.final_rows(final_keys)), class_roll,
                       threads, verbose)}
    if verbose:
        print(f"lookahead level 6: {len(keys[6]):,} keys in {time.perf_counter() - t0:.1f} s wall, "
              f"{time.process_time() - c0:.1f} s CPU", flush=True)
    scale = 35 * ordered_hands(data.cards - 6) * 36 * 35
    for level in (3, 0):
        rows[level] = plays[level].rows(data, level, len(keys[level]), data.table(level + 3, keys[level + 3],
                                                                                   rows[level + 3]))
        scale *= ordered_hands(data.cards - level) * 36 * 35
        if scale >= 2 ** 63 or rows[level].max() > scale:
            raise OverflowError(f"level {level}: a numerator exceeds its scale {scale}")
    return Fraction(int(rows[0][0][data.karma]), scale)


def solve_random(rules: Rules, centre: str | None = None, verbose: bool = True) -> Fraction:
    """The exact whole-game value of ``bots.random_policy`` (``solver_random``: modular, then the CRT)."""
    from gamelib.pangu.solver_random import solve_random as solve

    return solve(rules, centre, verbose)


SOLVERS = {"greedy": solve_greedy, "lookahead": solve_lookahead, "random": solve_random}


# --------------------------------------------------------------------------- single positions (the tests' entry points)


def all_keys(data: Arrays, level: int) -> np.ndarray:
    """Every turn-start key with ``level`` cards placed (any reachable F, any frontier colours, any unplaced set)."""
    n, cards = data.n, data.cards
    fcs = [(f, c) for f in range(1 << n) for c in range(1 << n)
           if bin(f).count("1") == level and data.fc_index[f << n | c] >= 0]
    decks = [d for d in range(1 << cards) if bin(d).count("1") == cards - level]
    return np.array(sorted(f | c << 10 | d << 20 for f, c in fcs for d in decks), dtype=np.int64)


_LATE: dict = {}


def late_arrays(state) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``state``'s rules and centre, with the final card's table over every turn-4 key."""
    from gamelib.pangu.solver import model_for

    model = model_for(state)
    tag = (model.rules, model.centre, model.card_ids)
    if tag not in _LATE:
        data = Arrays(model, keys={})
        keys = all_keys(data, 9)
        data.keys = {9: keys}
        _LATE[tag] = data, data.table(9, keys, data.final_rows(keys))
    return _LATE[tag]


def _roll_index(roll) -> int:
    return (roll[0] - 1) * 6 + roll[1] - 1


def _decision_arrays(state):
    """The model, its arrays and the compact position of a decision (for the bots' choice kernels)."""
    from gamelib.pangu.solver import model_for, position_of

    model = model_for(state)
    data = Arrays(model, keys={})
    filled, colours, _, _, roll, karma, _ = position_of(state)
    order = np.array([model.card_ids.index(card_id) for card_id in state.revealed], dtype=np.int64)
    return model, data, filled, colours, roll, karma, order


def _action_of(state, model, roll, i: int, x: int, o: int):
    """The engine's action for a kernel's choice (revealed card i, ring cell x, orientation o)."""
    from gamelib.pangu.actions import cheapest_die
    from gamelib.pangu.bots import Action

    card = state.cards.by_id[state.revealed[i]]
    die, _ = cheapest_die(card, roll)
    return Action(card.id, die, model.ring[x], model.orientations[o])


def greedy_action(state):
    """``bots.greedy_policy``'s move, chosen by the numba kernel ``_greedy_choice`` (for the tests)."""
    model, data, filled, colours, roll, _, order = _decision_arrays(state)
    a = data.arrays
    i, x, o, _ = _greedy_choice(filled, colours, order, len(order), 0, _roll_index(roll), data.rowmajor, a["facing"],
                                a["centre_rec"], a["touches"], a["cost"], data.orients, data.n)
    return _action_of(state, model, roll, i, x, o)


def lookahead_action(state):
    """``bots.lookahead_policy``'s move, chosen by the numba kernel ``_la_choice`` (for the tests)."""
    model, data, filled, colours, roll, karma, order = _decision_arrays(state)
    a = data.arrays
    _, i, x, o, _ = _la_choice(filled, colours, order, len(order), 0, _roll_index(roll), karma, a["facing"],
                               a["centre_rec"], a["touches"], a["cost"], data.step, data.rowmajor, data.reroll_counts,
                               _class_rolls(a["cost"]), data.orients, data.n)
    return _action_of(state, model, roll, i, x, o)


def _turn_three_value(state, policy, at_turn_start, after_roll) -> Fraction:
    """A bot's exact value at a turn-3 position, against the final card's table: a turn start by
    ``at_turn_start(data, table, key, karma)``, a rolled decision by ``after_roll(data, table, filled, colours,
    unseen, order, roll, karma)`` (the numba kernels), other chance nodes by the engine's outcomes, and the
    final card (its cell is forced) by the bot's own move."""
    from gamelib.pangu.solver import position_of

    if state.is_terminal:
        return Fraction(state.status == "WON")
    data, table = late_arrays(state)
    filled, colours, unseen, _, roll, karma, _ = position_of(state)
    placed = bin(filled).count("1")
    if placed == 6 and not state.revealed and state.roll is None:
        return at_turn_start(data, table, filled | colours << 10 | unseen << 20, karma)
    if state.revealed and state.roll is not None and placed < 9:
        order = np.array([data.model.card_ids.index(card_id) for card_id in state.revealed], dtype=np.int64)
        return after_roll(data, table, filled, colours, unseen, order, roll, karma)
    if state.current_player == CHANCE:
        return sum((p * _turn_three_value(state.apply(outcome), policy, at_turn_start, after_roll)
                    for outcome, p in state.chance_outcomes()), Fraction(0))
    if placed == 9:
        return _turn_three_value(state.apply(policy(state)), policy, at_turn_start, after_roll)
    raise ValueError(f"the exact value of {policy.__name__} here needs a position from turn 3 on")


def greedy_turn_three_value(state) -> Fraction:
    """Greedy's exact value at a turn-3 position (decision nodes by ``_greedy_roll``, a turn start by
    ``_greedy_level``, other chance nodes by the engine's outcomes), against the final card's table."""
    from gamelib.pangu.bots import greedy_policy

    def at_turn_start(data, table, key, karma):
        row = data.greedy_level(6, np.array([key], dtype=np.int64), table)[0]
        return Fraction(int(row[karma]), ordered_hands(4) * 36 * 35 * 35)

    def after_roll(data, table, filled, colours, unseen, order, roll, karma):
        a = data.arrays
        contribution = np.zeros(data.karma + 1, dtype=np.int64)
        _greedy_roll(filled, colours, unseen, order, len(order), _roll_index(roll), table, data.fc_index, data.ranks,
                     data.n_d(9), data.rowmajor, a["facing"], a["centre_rec"], a["touches"], a["cost"], data.step,
                     data.reroll_counts, data.karma, data.n, data.orients, contribution, np.zeros((3, 2), np.int64),
                     np.zeros(3, np.int64))
        return Fraction(int(contribution[karma]), 35 * 35)

    return _turn_three_value(state, greedy_policy, at_turn_start, after_roll)


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
            out = la_rows(data, 6, keys, every_karma, table, _class_rolls(a["cost"]), threads=1)
        else:
            out = np.zeros((1, data.karma + 1), dtype=np.int64)
            _la_level(keys, every_karma, out, table, data.fc_index, data.ranks, data.n_d(9), data.rowmajor,
                      a["facing"], a["centre_rec"], a["touches"], a["cost"], data.step, data.reroll_counts,
                      _class_rolls(a["cost"]), data.karma, data.n, data.cards, data.orients)
        return Fraction(int(out[0][karma]), ordered_hands(4) * 36 * 35 * 35)

    def after_roll(data, table, filled, colours, unseen, order, roll, karma):
        a = data.arrays
        value = _la_roll(filled, colours, unseen, order, len(order), _roll_index(roll), karma, table, data.fc_index,
                         data.ranks, data.n_d(9), a["facing"], a["centre_rec"], a["touches"], a["cost"], data.step,
                         data.rowmajor, data.reroll_counts, _class_rolls(a["cost"]), data.orients, data.n)
        return Fraction(int(value), 35 * 35)

    return _turn_three_value(state, lookahead_policy, at_turn_start, after_roll)


# --------------------------------------------------------------------------- data/solver_bots.json


def record(rules_name: str, policy: str, value: Fraction, wall: float, cpu: float, command: str,
           path: Path = BOTS_PATH, threads: int | None = None) -> None:
    """Store a bot's exact value under one rules name (see ``solver.bot_values``), and the checksums."""
    with records_lock():
        data = json.loads(path.read_text()) if path.exists() else {}
        data.setdefault("command", "python -m gamelib.pangu.solver_policies --policy NAME [--variant NAME] --record")
        entry = {"value": str(value), "decimal": round(float(value), 10), "wall_seconds": round(wall, 1),
                 "cpu_seconds": round(cpu, 1), "threads": threads or numba.get_num_threads(), "command": command}
        data.setdefault("rules", {}).setdefault(rules_name, {}).setdefault("values", {})[policy] = entry
        data["rules"][rules_name].get("missing", {}).pop(policy, None)
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        datafiles.write_manifest()


def record_missing(rules_name: str, policy: str, reason: str, path: Path = BOTS_PATH) -> None:
    """Store why a bot has no exact value under one rules name, and the checksums."""
    with records_lock():
        data = json.loads(path.read_text())
        entry = data.setdefault("rules", {}).setdefault(rules_name, {})
        if policy not in entry.get("values", {}):
            entry.setdefault("missing", {})[policy] = reason
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        datafiles.write_manifest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", default="greedy", choices=sorted(SOLVERS))
    parser.add_argument("--variant", default="defaults", choices=sorted(SINGLE_VARIANTS))
    parser.add_argument("--record", action="store_true", help="record the value and time in data/solver_bots.json")
    args = parser.parse_args(argv)
    rules = SINGLE_VARIANTS[args.variant]
    started, cpu = time.perf_counter(), time.process_time()
    try:
        value = SOLVERS[args.policy](rules)
    except ValueError as error:  # rules this evaluator does not cover
        print(error)
        if args.record:
            record_missing(args.variant, args.policy, str(error))
        return 1
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    threads = LOOKAHEAD_THREADS if args.policy == "lookahead" else numba.get_num_threads()
    print(f"{args.policy} under {args.variant}: P(WON) = {value} ≈ {float(value):.10f}; {wall:.1f} s wall, "
          f"{cpu:.1f} s CPU, {threads} threads")
    if args.record:
        command = f"python -m gamelib.pangu.solver_policies --policy {args.policy} --variant {args.variant} --record"
        record(args.variant, args.policy, value, wall, cpu, command, threads=threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
