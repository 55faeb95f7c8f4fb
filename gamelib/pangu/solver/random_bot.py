"""The exact whole-game chance of winning of ``bots.random_policy`` (numba, the ``solver`` extra).

The random bot averages over every legal action, so its value has a long denominator: this module
runs the turn-level dynamic programme modulo primes below 2**31 and rebuilds the fraction with the
Chinese remainder theorem (``denominator_bound`` bounds the denominator, ``rebuild`` checks the
result with one prime more than needed). Each turn is three passes (one card left, two cards left,
the turn start), each a table read by the next. docs/pangu_solver.md, "The random bot", explains
the bound, the primes and the passes. Command line: ``python -m gamelib.pangu.solver bot --policy
random``.

Supported rules: those of ``levels.check_supported``; any grid, centre (``RANDOM`` is the mean of
the two fixed ones), rotation, defeat check and centre score.
"""

from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import NamedTuple

import numpy as np

try:
    from numba import njit, prange
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("evaluating the random bot exactly needs numba: pip install -e '.[solver]'") from error

from gamelib.pangu.rules import Rules
from gamelib.pangu.solver.arrays import DenseIndex, dense_index, model_arrays, rank_table, slots_of
from gamelib.pangu.solver.kernels import (
    dense_slot,
    is_legal,
    members_of,
    pack_key,
    place_card,
    placement_rec,
    placements,
    unpack_key,
)
from gamelib.pangu.solver.levels import check_supported
from gamelib.pangu.solver.model import HAND, Model, build_model, popcount, turn_sizes
from gamelib.pangu.solver.space import turn_start_keys

THREADS = 2  # the machine is shared
# primes just below 2**31, none dividing an action or chance count (checked in ``primes_for``)
PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
)


# --------------------------------------------------------------------------- the bound L and the primes


def denominator_bound(model: Model, placed: int = 0) -> int:
    """L: a multiple of the denominator of every path probability of the random bot's game tree from a turn
    start with ``placed`` cards on the board (0: the whole game)."""
    ring, cards, orients = model.size, len(model.card_ids), len(model.orientations)
    bound, done, left = 1, 0, cards
    for size in turn_sizes(cards):
        if done >= placed:
            bound *= comb(left, size) * 36 * 35  # the hand, the roll, at most one stuck reroll
            for in_hand in range(size, 0, -1):
                bound *= lcm(*(c * orients * d for c in range(1, ring - done + 1) for d in range(1, 2 * in_hand + 1)))
                done += 1
        else:
            done += size
        left -= size
    return bound


def prime_factors(number: int) -> set[int]:
    """The prime factors of ``number`` (by trial division: the bounds' factors are small)."""
    factors, p = set(), 2
    while p * p <= number:
        while number % p == 0:
            factors.add(p)
            number //= p
        p += 1
    if number > 1:
        factors.add(number)
    return factors


def primes_for(bound: int, extra: int = 1) -> list[int]:
    """Enough primes of ``PRIMES`` for a product above ``bound``, plus ``extra`` as a check."""
    small = prime_factors(bound)
    assert small <= {2, 3, 5, 7}, small  # L is a product of action and chance counts only
    chosen, product = [], 1
    for p in PRIMES:
        assert all(p % q for q in small)
        if product > bound:
            break
        chosen.append(p)
        product *= p
    if product <= bound:
        raise ValueError("not enough primes in PRIMES for this bound")
    return chosen + list(PRIMES[len(chosen) : len(chosen) + extra])


def crt(residues: list[int], primes: list[int]) -> tuple[int, int]:
    """``(x, M)``: the x in [0, M) with x = r_i mod p_i, M the product of the primes."""
    x, modulus = 0, 1
    for r, p in zip(residues, primes):
        t = ((r - x) * pow(modulus, -1, p)) % p
        x += modulus * t
        modulus *= p
    return x, modulus


def rebuild(residues: list[int], primes: list[int], bound: int) -> Fraction:
    """V from V mod p_i: ``V x L`` is whole in [0, L] and L < M, so the CRT value of ``V x L`` is exact."""
    x, modulus = crt([r * bound % p for r, p in zip(residues, primes)], primes)
    if modulus <= bound:
        raise ValueError("the primes' product does not exceed the bound")
    if x > bound:
        raise ArithmeticError("V x L is not in [0, L]: a residue is wrong")
    return Fraction(x, bound)


# --------------------------------------------------------------------------- small helpers (numba)


class Modulus(NamedTuple):
    """The residues of one prime as the kernels read them (``RandomSolver.modulus``)."""

    p: int  # the prime
    inverse: np.ndarray  # int64 [i]: 1/i mod p for the action counts i < 512 (0 for i = 0)
    stuck_weights: np.ndarray  # int64 [card, cost - 1]: see ``RandomSolver.stuck_weights``


@njit(cache=True, inline="always")
def _bits(mask):
    """The number of set bits of ``mask``."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def _below(mask, card):
    """The position of ``card`` among the cards of ``mask`` (how many of them are below it)."""
    return _bits(mask & ((1 << card) - 1))


@njit(cache=True, inline="always")
def _pair_rank(i, j):
    """The rank of positions i < j among the pairs (combinatorial number system)."""
    return j * (j - 1) // 2 + i


# --------------------------------------------------------------------------- the final card (turn 4)


@njit(cache=True)
def _final_table(table, codes, index, arrays, mod):
    """Rows of the final card for every dense key (F, C, {card}) of ``codes`` (F << n | C): the mean over the
    35 rolls that do not block it of the mean over its legal dice and orientations of winning (1) or not."""
    n, p, inverse = arrays.n, mod.p, mod.inverse
    inv35 = inverse[35]
    for q in range(codes.shape[0]):
        filled, colours = codes[q] >> n, codes[q] & ((1 << n) - 1)
        x = np.int64(0)  # not a literal 0: see kernels, "One signature per kernel"
        for y in range(n):
            if not (filled >> y) & 1:
                x = y
        for card in range(arrays.cards):
            slot = dense_slot(filled, colours, 1 << card, index)
            for k in range(1, arrays.karma + 1):
                total = 0
                for r in range(36):
                    nd = arrays.legal_dice[card, r]
                    if nd == 0:
                        continue
                    wins = 0
                    for o in range(arrays.orients):
                        rec = placement_rec(filled, colours, card, o, x, arrays)
                        for cost in (arrays.blue_cost[card, r], arrays.white_cost[card, r]):
                            if cost > 0 and arrays.step[k, cost, rec] > 0:
                                wins += 1
                    total += wins * inverse[nd * arrays.orients] % p
                table[slot, k] = total % p * inv35 % p


# --------------------------------------------------------------------------- pass 1: one card left in hand


@njit(cache=True, parallel=True)
def _one_left(a1, codes, next_table, index, next_index, size, arrays, mod):
    """``a1[slot, i, cost - 1, k]`` for every dense (F, C, D') of ``codes`` (|D'| = ``size``) and the i-th card e of
    D': the mean over e's legal cells and orientations of the next turn-start row at the Karma settled from k
    with that cost and the cell's rec (mod p). A roll only chooses which cost rows to average (``_one_left_row``)."""
    n, karma, p, step = arrays.n, arrays.karma, mod.p, arrays.step
    for q in prange(codes.shape[0]):
        filled, colours = codes[q] >> n, codes[q] & ((1 << n) - 1)
        inv = mod.inverse[arrays.ncells[filled] * arrays.orients]
        acc = np.zeros((5, karma + 1), dtype=np.int64)
        moves = np.zeros((n * arrays.orients, 3), dtype=np.int64)
        for unplaced in range(1 << arrays.cards):
            if _bits(unplaced) != size:
                continue
            slot = dense_slot(filled, colours, unplaced, index)
            i = 0
            for e in range(arrays.cards):
                if not (unplaced >> e) & 1:
                    continue
                acc[:, :] = 0
                rest = unplaced & ~(1 << e)
                for move in range(placements(filled, colours, e, arrays, moves)):
                    rec = moves[move, 0]
                    row = next_table[dense_slot(moves[move, 1], moves[move, 2], rest, next_index)]
                    for cost in range(1, 6):
                        for k in range(1, karma + 1):
                            acc[cost - 1, k] += row[step[k, cost, rec]]
                for cost in range(5):
                    for k in range(1, karma + 1):
                        a1[slot, i, cost, k] = acc[cost, k] % p * inv % p
                i += 1


@njit(cache=True)
def _one_left_row(out, a1, slot, i, e, r, arrays, mod):
    """The random bot's row with the card e (the i-th of its D') alone in hand under roll r, from ``a1``: the
    mean over its legal dice; if r blocks e, the mean over the 35 other rolls (``mod.stuck_weights``)."""
    p = mod.p
    nd = arrays.legal_dice[e, r]
    if nd > 0:
        inv = mod.inverse[nd]
        bc, wc = arrays.blue_cost[e, r], arrays.white_cost[e, r]
        for k in range(arrays.karma + 1):
            total = 0
            if bc > 0:
                total += a1[slot, i, bc - 1, k]
            if wc > 0:
                total += a1[slot, i, wc - 1, k]
            out[k] = total % p * inv % p
        return
    for k in range(arrays.karma + 1):
        total = 0
        for cost in range(5):
            total += mod.stuck_weights[e, cost] * a1[slot, i, cost, k] % p
        out[k] = total % p


# --------------------------------------------------------------------------- pass 2: two cards left, one roll


@njit(cache=True)
def _two_left_core(out, filled, colours, unplaced, a, b, r, a1, index1, arrays, mod, grouped, t, moves):
    """The mean over the legal actions of the pair {a, b} under roll r (at least one card unblocked).

    The one-card-left rows are not normalised one by one: their raw A1 sums share the divisor (the
    left card's legal dice) on each side, so a pair takes a few modular reductions per Karma instead
    of two per action. ``grouped``, ``t`` and ``moves`` are scratch."""
    karma, p, step, legal_dice = arrays.karma, mod.p, arrays.step, arrays.legal_dice
    grouped[:, :] = 0
    t[:] = 0  # the blocked card's rows, normalised as they come (1 roll in 36)
    for side in range(2):
        c = a if side == 0 else b
        e = b if side == 0 else a
        if legal_dice[c, r] == 0:
            continue
        rest = unplaced & ~(1 << c)
        i = _below(rest, e)
        bc, wc = arrays.blue_cost[c, r], arrays.white_cost[c, r]
        be, we = arrays.blue_cost[e, r] - 1, arrays.white_cost[e, r] - 1
        for move in range(placements(filled, colours, c, arrays, moves)):
            rec = moves[move, 0]
            slot = dense_slot(moves[move, 1], moves[move, 2], rest, index1)
            for cost in (bc, wc):
                if cost == 0:
                    continue
                for k in range(1, karma + 1):
                    s = step[k, cost, rec]
                    total = 0
                    if legal_dice[e, r] > 0:
                        if be >= 0:
                            total += a1[slot, i, be, s]
                        if we >= 0:
                            total += a1[slot, i, we, s]
                        grouped[side, k] += total
                    else:
                        for cc in range(5):
                            total += mod.stuck_weights[e, cc] * a1[slot, i, cc, s] % p
                        t[k] += total % p
    for side in range(2):
        nd = legal_dice[b if side == 0 else a, r]
        if nd == 1:
            for k in range(1, karma + 1):
                t[k] += grouped[side, k] % p
        elif nd > 1:
            inv = mod.inverse[nd]
            for k in range(1, karma + 1):
                t[k] += grouped[side, k] % p * inv % p
    inv = mod.inverse[arrays.ncells[filled] * arrays.orients * (legal_dice[a, r] + legal_dice[b, r])]
    out[0] = 0
    for k in range(1, karma + 1):
        out[k] = t[k] % p * inv % p


@njit(cache=True, parallel=True)
def _two_left(v2, keys, r, a1, index1, arrays, mod):
    """``v2[j, pair rank, k]``: the random bot's row with two cards of D'' in hand under roll r, for every key
    j = (F, C, D'') of ``keys``. A pair the roll blocks entirely (equal numbers) averages the 35 other rolls."""
    karma, p, legal_dice = arrays.karma, mod.p, arrays.legal_dice
    inv35 = mod.inverse[35]
    for j in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[j])
        members = np.zeros(arrays.cards, dtype=np.int64)
        m = members_of(unplaced, arrays.cards, members)
        out = np.zeros(karma + 1, dtype=np.int64)
        grouped = np.zeros((2, karma + 1), dtype=np.int64)
        t = np.zeros(karma + 1, dtype=np.int64)
        stuck = np.zeros(karma + 1, dtype=np.int64)
        moves = np.zeros((arrays.n * arrays.orients, 3), dtype=np.int64)
        for jb in range(m):
            for ia in range(jb):
                a, b = members[ia], members[jb]
                if legal_dice[a, r] + legal_dice[b, r] > 0:
                    _two_left_core(out, filled, colours, unplaced, a, b, r, a1, index1, arrays, mod, grouped, t, moves)
                else:
                    stuck[:] = 0
                    for r2 in range(36):
                        if r2 == r:
                            continue
                        _two_left_core(
                            out, filled, colours, unplaced, a, b, r2, a1, index1, arrays, mod, grouped, t, moves
                        )
                        for k in range(karma + 1):
                            stuck[k] += out[k]
                    for k in range(karma + 1):
                        out[k] = stuck[k] % p * inv35 % p
                rank = _pair_rank(ia, jb)
                for k in range(karma + 1):
                    v2[j, rank, k] = out[k]


@njit(cache=True)
def _mark_after_one(keys, mark, index1, arrays):
    """``mark[slot] = key + 1`` for every (F, C, D'') one placement after a turn-start key of ``keys``. (One thread:
    a pass this light gains little from threads, and ``parallel=True`` would triple its compile, 3.6 s of CPU
    on a clean clone.)"""
    for q in range(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        for c in range(arrays.cards):
            if not (unplaced >> c) & 1:
                continue
            rest = unplaced & ~(1 << c)
            for x in range(arrays.n):
                if not is_legal(filled, x, arrays):
                    continue
                for o in range(arrays.orients):
                    f1, c1 = place_card(filled, colours, c, o, x, arrays)
                    mark[dense_slot(f1, c1, rest, index1)] = pack_key(f1, c1, rest) | 1 << 40


# --------------------------------------------------------------------------- pass 3: the turn start, one roll


@njit(cache=True, parallel=True)
def _turn_start(sums, keys, r, v2, compact, index2, arrays):
    """Add to ``sums[q, g]`` the raw sums (no reduction: below 2**50 after 36 rolls) of the two-cards-left rows
    ``v2`` of roll r over the legal actions of key q's hands, grouped by the hand's divisor: g = its legal dice
    (1-6), plus 7 for a hand that some roll blocks entirely (three cards of equal numbers: that roll is
    skipped and the others weigh 36/35, its free rerolls). ``_turn_rows`` divides each group."""
    karma, step, legal_dice, same = arrays.karma, arrays.step, arrays.legal_dice, arrays.same
    for q in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        members = np.zeros(arrays.cards, dtype=np.int64)
        m = members_of(unplaced, arrays.cards, members)
        moves = np.zeros((arrays.n * arrays.orients, 3), dtype=np.int64)
        for ic in range(m):
            c = members[ic]
            if legal_dice[c, r] == 0:
                continue
            rest = unplaced & ~(1 << c)
            bc, wc = arrays.blue_cost[c, r], arrays.white_cost[c, r]
            for move in range(placements(filled, colours, c, arrays, moves)):
                rec = moves[move, 0]
                j = compact[dense_slot(moves[move, 1], moves[move, 2], rest, index2)]
                for jb in range(m):
                    if jb == ic:
                        continue
                    b = members[jb]
                    for ia in range(jb):
                        if ia == ic:
                            continue
                        a = members[ia]
                        g = legal_dice[a, r] + legal_dice[b, r] + legal_dice[c, r]
                        if same[a, b] and same[a, c]:
                            g += 7
                        # positions in D'' = D - c shift down by one above c
                        row = v2[j, _pair_rank(ia - (ia > ic), jb - (jb > ic))]
                        for cost in (bc, wc):
                            if cost > 0:
                                for k in range(1, karma + 1):
                                    sums[q, g, k] += row[step[k, cost, rec]]


@njit(cache=True)
def _turn_rows(rows, sums, keys, arrays, mod, f36_35, scale):
    """``rows[q]``: key q's turn-start row, each group of ``sums`` divided by its action count, times ``scale``
    (1 / (36 x the number of hands)). (One thread: a few operations a key, where ``parallel=True`` would
    triple its compile, 5 s of CPU on a clean clone.)"""
    p = mod.p
    for q in range(keys.shape[0]):
        cells = arrays.ncells[keys[q] & 1023]
        for g in range(1, sums.shape[1]):
            dice = g if g < 7 else g - 7
            if dice == 0:
                continue
            inv = mod.inverse[cells * arrays.orients * dice]
            if g >= 7:
                inv = inv * f36_35 % p
            for k in range(1, arrays.karma + 1):
                rows[q, k] = (rows[q, k] + sums[q, g, k] % p * inv) % p
        for k in range(1, arrays.karma + 1):
            rows[q, k] = rows[q, k] * scale % p


# --------------------------------------------------------------------------- the driver


class RandomSolver:
    """The random bot's tables modulo one prime, level by level, for one rule set and fixed centre."""

    def __init__(self, model: Model, keys: dict | None = None):
        self.model = model
        self.n, self.cards = model.size, len(model.card_ids)
        if turn_sizes(self.cards) != [3, 3, 3, 1]:
            raise ValueError("the random evaluator plays a ten-card deck (turns of 3, 3, 3, 1)")
        self.orients = len(model.orientations)
        self.karma = model.rules.starting_karma
        self.arrays = model_arrays(model)
        self.fc_index, self.fc_counts = dense_index(model, list(range(self.n + 1)))
        self.ranks = rank_table(self.n)
        levels = [HAND * turn for turn in range(len(turn_sizes(self.cards)))]  # the random bot reaches every key
        self.keys = keys if keys is not None else turn_start_keys(model, self.arrays, levels)
        self.seconds: dict = {}

    @staticmethod
    def _position(mask: int, card: int) -> int:
        """The rank of ``card`` among the cards of ``mask``."""
        return bin(mask & ((1 << card) - 1)).count("1")

    def n_d(self, level: int) -> int:
        """How many unplaced sets D a level has."""
        return comb(self.cards, self.cards - level)

    def codes(self, level: int) -> np.ndarray:
        """Every (F, C) of the dense index with ``level`` cells filled, as F << n | C, in index order."""
        codes = np.flatnonzero(self.fc_index >= 0)
        codes = codes[[popcount(int(code) >> self.n) == level for code in codes]]
        return codes[np.argsort(self.fc_index[codes], kind="stable")].astype(np.int64)

    def index(self, level: int, fc_index: np.ndarray | None = None) -> DenseIndex:
        """The dense index of the keys with ``level`` cells filled (over ``fc_index``, by default the solver's)."""
        return DenseIndex(self.fc_index if fc_index is None else fc_index, self.ranks, self.n_d(level), self.n)

    def slots(self, level: int, keys: np.ndarray) -> np.ndarray:
        """The dense slots of ``keys`` at ``level``."""
        return slots_of(keys, *self.index(level))

    def modulus(self, p: int) -> Modulus:
        """The prime ``p`` with its inverses and stuck weights, as the kernels take it."""
        inverse = self.inverses(p)
        return Modulus(p, inverse, self.stuck_weights(p, inverse))

    def inverses(self, p: int) -> np.ndarray:
        """``inverse[i]``: 1/i mod p for the action counts i < 512 (0 for i = 0)."""
        return np.array([0] + [pow(i, p - 2, p) for i in range(1, 512)], dtype=np.int64)

    def stuck_weights(self, p: int, inverse: np.ndarray) -> np.ndarray:
        """``w[e, cost - 1]``: 1/35 x the sum over the rolls that do not block e of (the number of legal dice
        of cost ``cost``) / (e's legal dice): the one-card-left row of a blocked card is sum_cost w x A1[cost]."""
        w = np.zeros((self.cards, 5), dtype=np.int64)
        for e in range(self.cards):
            for r in range(36):
                nd = self.arrays.legal_dice[e, r]
                if nd == 0:
                    continue
                for cost in (self.arrays.blue_cost[e, r], self.arrays.white_cost[e, r]):
                    if cost > 0:
                        w[e, cost - 1] = (w[e, cost - 1] + inverse[nd]) % p
        return w * inverse[35] % p

    def final_table(self, p: int) -> np.ndarray:
        """The final card's dense table mod p, every key of the last level."""
        level = self.n - 1
        table = np.zeros((self.fc_counts[level] * self.n_d(level), self.karma + 1), dtype=np.int64)
        _final_table(table, self.codes(level), self.index(level), self.arrays, self.modulus(p))
        return table

    def one_left(self, level: int, next_table: np.ndarray, p: int) -> np.ndarray:
        """Pass 1 of the turn starting at ``level``: A1 at ``level + 2`` cells filled (int32 residues)."""
        size = self.cards - level - 2
        a1 = np.zeros((self.fc_counts[level + 2] * self.n_d(level + 2), size, 5, self.karma + 1), dtype=np.int32)
        index, next_index = self.index(level + 2), self.index(level + 3)
        _one_left(a1, self.codes(level + 2), next_table, index, next_index, size, self.arrays, self.modulus(p))
        return a1

    def after_one(self, level: int, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (F, C, D'') keys one placement after ``keys`` and ``compact[dense slot]`` = their index."""
        mark = np.zeros(self.fc_counts[level + 1] * self.n_d(level + 1), dtype=np.int64)
        _mark_after_one(keys, mark, self.index(level + 1), self.arrays)
        at = np.flatnonzero(mark)
        compact = np.full(len(mark), -1, dtype=np.int64)
        compact[at] = np.arange(len(at))
        return mark[at] & ((1 << 40) - 1), compact

    def turn(self, level: int, keys: np.ndarray, next_table: np.ndarray, p: int, verbose: bool = False) -> np.ndarray:
        """The dense turn-start table at ``level`` (rows of ``keys`` filled) from the next level's table."""
        mod = self.modulus(p)
        t0, c0 = time.perf_counter(), time.process_time()
        a1 = self.one_left(level, next_table, p)
        c1 = time.process_time()
        after, compact = self.after_one(level, keys)
        size = self.cards - level
        v2 = np.zeros((len(after), comb(size - 1, 2), self.karma + 1), dtype=np.int32)
        keys = keys[np.argsort(self.slots(level, keys), kind="stable")]  # neighbours share successors: cache
        sums = np.zeros((len(keys), 14, self.karma + 1), dtype=np.int64)
        f36_35 = 36 * int(mod.inverse[35]) % p
        two = three = 0.0
        for r in range(36):
            s0 = time.process_time()
            _two_left(v2, after, r, a1, self.index(level + 2), self.arrays, mod)
            s1 = time.process_time()
            _turn_start(sums, keys, r, v2, compact, self.index(level + 1), self.arrays)
            two, three = two + s1 - s0, three + time.process_time() - s1
        scale = pow(36 * comb(size, HAND), p - 2, p)
        table = np.zeros((self.fc_counts[level] * self.n_d(level), self.karma + 1), dtype=np.int64)
        rows = np.zeros((len(keys), self.karma + 1), dtype=np.int64)
        _turn_rows(rows, sums, keys, self.arrays, mod, f36_35, scale)
        table[self.slots(level, keys)] = rows
        self.seconds[level] = dict(
            wall=time.perf_counter() - t0,
            cpu=time.process_time() - c0,
            one_left_cpu=c1 - c0,
            two_left_cpu=two,
            turn_start_cpu=three,
            after_one=len(after),
            a1_bytes=a1.nbytes,
            v2_bytes=v2.nbytes,
        )
        if verbose:
            s = self.seconds[level]
            print(
                f"  turn from level {level}: {len(keys):,} keys, {len(after):,} one-placement layouts; "
                f"A1 {a1.nbytes / 2**20:,.0f} MiB ({c1 - c0:.1f} s CPU), two-left {two:.1f} s CPU, "
                f"turn start {three:.1f} s CPU; {s['wall']:.1f} s wall, {s['cpu']:.1f} s CPU",
                flush=True,
            )
        return table

    def tables(self, p: int, down_to: int = 0, verbose: bool = False) -> dict:
        """The dense turn-start tables mod p from the final card back to level ``down_to``."""
        tables = {self.n - 1: self.final_table(p)}
        for level in (6, 3, 0):
            if level < down_to:
                break
            tables[level] = self.turn(level, self.keys[level], tables[level + 3], p, verbose)
        return tables

    def root_residue(self, p: int, verbose: bool = False) -> int:
        """The whole game's value times L, mod p."""
        table = self.tables(p, verbose=verbose)[0]
        return int(table[self.slots(0, self.keys[0])[0], self.karma])


# --------------------------------------------------------------------------- single positions (the tests' oracle)


@lru_cache(maxsize=16)  # a model is a frozen dataclass, hashed and compared by value
def _late(model: Model, p: int):
    """The solver and the final card's table mod p for one model."""
    solver = RandomSolver(model, keys={})
    return solver, solver.final_table(p)


def _placements(model: Model, filled: int, colours: int, cards: list[int]) -> set[tuple[int, int]]:
    """Every (F, C) after placing one card of ``cards`` on a legal cell (any orientation)."""
    return {
        model.place(filled, colours, c, o, x)
        for c in cards
        for x in range(model.size)
        if model.legal(filled, x)
        for o in range(len(model.orientations))
    }


def position_residue(state, p: int) -> int:
    """The random bot's value mod p at a position of ``state``'s rules, computing only the rows it needs: a
    turn 3 start (before the draw), a decision with two or one cards in hand at turn 2 or 3, or the final
    card's decision (the tests' entry point against ``solver.evaluate_policy``). (Long: one case per kind
    of position, each reading the rows the passes of a turn store.)"""
    from gamelib.pangu.solver.exact import model_for, position_of

    model = model_for(state)
    solver, final = _late(model, p)
    n, karma_max = solver.n, solver.karma
    filled, colours, unseen, hand, roll, karma, _ = position_of(state)
    unplaced = unseen | hand
    placed, in_hand = popcount(filled), popcount(hand)
    arrays, mod = solver.arrays, solver.modulus(p)
    key = np.array([filled | colours << 10 | unplaced << 20], dtype=np.int64)
    if placed == 6 and in_hand == 0 and roll is None:
        return int(solver.turn(6, key, final, p)[solver.slots(6, key)[0], karma])
    start = placed - (HAND - in_hand)
    if roll is None or not (start in (3, 6) and in_hand in (1, 2) or placed == n - 1):
        raise ValueError(
            "a turn-3 start, or a decision with one or two cards in hand at turn 2 or 3, or the final card"
        )
    r = (roll[0] - 1) * 6 + roll[1] - 1
    if placed == n - 1:  # the final card, its roll known (a blocking roll is rerolled before any decision)
        e, x = hand.bit_length() - 1, next(y for y in range(n) if not filled >> y & 1)
        wins = sum(
            arrays.step[karma, cost, model.rec(filled, colours, e, o, x)] > 0
            for cost in (arrays.blue_cost[e, r], arrays.white_cost[e, r])
            if cost > 0
            for o in range(solver.orients)
        )
        return wins * int(mod.inverse[arrays.legal_dice[e, r] * solver.orients]) % p
    held = [c for c in range(solver.cards) if hand >> c & 1]
    next_table = final
    if start == 3:  # turn 3's rows at the keys this hand reaches
        layouts = {(filled, colours)}
        for _ in held:
            layouts = set().union(*(_placements(model, f, c, held) for f, c in layouts))
        rest = unplaced & ~hand
        keys = np.array(sorted(f | c << 10 | rest << 20 for f, c in layouts), dtype=np.int64)
        next_table = solver.turn(6, keys, final, p)
    layouts = [(filled, colours)] if in_hand == 1 else sorted(_placements(model, filled, colours, held))
    fc_index = solver.fc_index.copy()  # the one-card-left layouts renumbered 0.. so that A1 holds only them
    level = start + 2
    codes = solver.codes(level)
    fc_index[codes] = -1
    for number, (f, c) in enumerate(layouts):
        fc_index[f << n | c] = number
    size = solver.cards - level
    a1 = np.zeros((len(layouts) * solver.n_d(level), size, 5, karma_max + 1), dtype=np.int32)
    codes = np.array([f << n | c for f, c in layouts], dtype=np.int64)
    _one_left(a1, codes, next_table, solver.index(level, fc_index), solver.index(level + 1), size, arrays, mod)
    if in_hand == 2:
        v2 = np.zeros((1, comb(solver.cards - placed, 2), karma_max + 1), dtype=np.int32)
        _two_left(v2, key, r, a1, solver.index(level, fc_index), arrays, mod)
        a, b = (solver._position(unplaced, c) for c in held)
        return int(v2[0, _pair_rank(a, b), karma])
    e = held[0]
    out = np.zeros(karma_max + 1, dtype=np.int64)
    slot = int(fc_index[filled << n | colours]) * solver.n_d(level) + int(solver.ranks[unplaced])
    _one_left_row(out, a1, slot, solver._position(unplaced, e), e, r, arrays, mod)
    return int(out[karma])


def solve_random(
    rules: Rules,
    centre: str | None = None,
    verbose: bool = True,
    primes: list[int] | None = None,
    report: dict | None = None,
) -> Fraction:
    """The exact whole-game value of ``bots.random_policy`` under ``rules``: modulo each prime, then the CRT.

    ``report`` (a dict) receives the bound, the primes and each prime's seconds."""
    check_supported(rules, "random")
    if (centre or rules.centre_config) == "RANDOM":
        return (
            sum((solve_random(rules, c, verbose, primes, report) for c in ("YIN_LEFT", "YANG_LEFT")), Fraction(0)) / 2
        )
    model = build_model(rules, centre)
    solver = RandomSolver(model)
    bound = denominator_bound(model)
    primes = primes or primes_for(bound)
    if verbose:
        print(
            f"random bot: L = {float(bound):.3e} ({bound.bit_length()} bits), {len(primes)} primes "
            f"({len(primes) - 1} needed + 1 check); keys per level "
            + ", ".join(f"{len(k):,}" for k in solver.keys.values()),
            flush=True,
        )
    residues, per_prime = [], []
    for p in primes:
        t0, c0 = time.perf_counter(), time.process_time()
        residues.append(solver.root_residue(p, verbose))
        per_prime.append(
            dict(prime=p, wall=time.perf_counter() - t0, cpu=time.process_time() - c0, levels=dict(solver.seconds))
        )
        if verbose:
            print(
                f" prime {p}: residue {residues[-1]}, {per_prime[-1]['wall']:.1f} s wall, "
                f"{per_prime[-1]['cpu']:.1f} s CPU",
                flush=True,
            )
    value = rebuild(residues, primes, bound)
    if len(primes) > 1 and rebuild(residues[:-1], primes[:-1], bound) != value:
        raise ArithmeticError("the check prime changed the rebuilt value")
    if report is not None:
        report.setdefault("runs", []).append(
            dict(
                centre=model.centre,
                bound_bits=bound.bit_length(),
                primes=primes,
                residues=residues,
                per_prime=per_prime,
            )
        )
    return value
