"""The exact whole-game chance of winning of ``bots.lookahead_policy`` (numba, the ``solver`` extra).

The lookahead bot (``bots.TurnPlanner``) plays the first move, in the action order, of a plan that
maximises the expected Karma at the end of the turn (a lost game counts 0, stuck rerolls averaged
exactly). It depends on Karma, so the forward pass lists (key, Karma) pairs and every decision runs
the planner's search (``_search_value``, in units of 1/35 Karma so the reroll average is whole).

The whole-game run (``solve_lookahead``) memoises the search (``Memo``) and plays each turn once:
turns 1 and 2 forward with every play's outcome stored, turn 3 summed against the final card's
table, then turns 2 and 1 only sum their stored plays. The same kernels with an empty memo
(``memoised=False``) are the tests' oracle for the memoised run. See docs/pangu_solver.md, "A bot's
value".
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import NamedTuple

import numpy as np

try:
    from numba import njit
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("evaluating the bots exactly needs numba: pip install -e '.[solver]'") from error

from gamelib.pangu.rules import Rules
from gamelib.pangu.solver.arrays import MAX_REC, slots_of
from gamelib.pangu.solver.kernels import (
    dense_slot,
    is_legal,
    hands_of,
    pack_key,
    place_card,
    placement_rec,
    roll_classes,
    unpack_key,
)
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
#
# The whole-game run evaluates the planner at every (key, Karma, ordered hand, roll class): millions
# of searches of ~1,000 nodes each. Three savings, each keeping every choice of ``bots.TurnPlanner``:
# * the value of a search node depends only on (F, C, the hand's cards left, their costs under the
#   roll, Karma): not on the deck left, the hand's order (order only breaks ties between equal values)
#   or the roll beyond those costs, so ``_search_value`` memoises it per thread in an open-addressing
#   table (``Memo``; a full probe run only stops storing, and the table is cleared when half full). A
#   memo of size 0 stores nothing: the plain search, the tests' oracle of the memoised one;
# * each play of a turn is done once: in the forward pass its outcome (next key, Karma, weight) is
#   stored (``_la_outcomes`` with ``emit``), and the backward pass only sums those rows against the next
#   level's table (``Outcomes.rows``); the last turn's plays are summed against the full final-card table
#   straight away, without a forward pass;
# * the keys are worked in groups of equal (F, C), which share their search nodes.
#
# The search is recursive: numba's on-disk cache of a recursive function (and of its callers) is not
# safe to read back in another process, so these kernels compile afresh in each process.

MEMO_BITS = 21  # entries of each thread's memo: 2**21 x 24 bytes
MEMO_PROBES = 16
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (a multiplicative hash; int64 wraps)


class Memo(NamedTuple):
    """One thread's memo of ``_search_value``: keys, values and generation stamps (open addressing), and
    ``state`` = [generation, entries]. Size 0: no memo."""

    keys: np.ndarray
    vals: np.ndarray
    stamp: np.ndarray
    state: np.ndarray


def new_memo(bits: int | None = MEMO_BITS) -> Memo:
    """An empty memo of ``2**bits`` entries; ``bits=None``: none (the plain search)."""
    size = 0 if bits is None else 1 << bits
    return Memo(
        np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64), np.array([1, 0], np.int64)
    )


@njit(cache=True, inline="always")
def _memo_home(key, mask):
    """The first slot probed for ``key`` (a multiplicative hash)."""
    h = key * _GOLDEN
    return (h ^ (h >> 31)) & mask


@njit(cache=True)
def _memo_get(memo, key):
    """The stored value of ``key``, -1 if absent (every value is >= 0)."""
    mask = memo.keys.shape[0] - 1
    s = _memo_home(key, mask)
    for _ in range(MEMO_PROBES):
        if memo.stamp[s] != memo.state[0]:
            return -1
        if memo.keys[s] == key:
            return memo.vals[s]
        s = (s + 1) & mask
    return -1


@njit(cache=True)
def _memo_put(memo, key, value):
    """Store ``key``; ``memo.state`` = (generation, entries). At half load the table starts a new generation."""
    mask = memo.keys.shape[0] - 1
    state = memo.state
    if state[1] * 2 > memo.keys.shape[0]:
        state[0] += 1
        state[1] = 0
    gen = state[0]
    s = _memo_home(key, mask)
    for _ in range(MEMO_PROBES):
        if memo.stamp[s] != gen:
            memo.stamp[s] = gen
            memo.keys[s] = key
            memo.vals[s] = value
            state[1] += 1
            return
        s = (s + 1) & mask


@njit()
def _search_value(filled, colours, rem, roll, k, arrays, memo):
    """35 x the expected Karma at the end of the turn with the best plan, the hand's cards ``rem`` left
    (``TurnPlanner.value``; lost = 0). A set, not an order: the value is the best child's, whatever the order.

    After a stuck roll the blocked rest is played under each reroll class: 35 x the expectation is the
    sum over the 35 rerolls of the Karma reached, a whole number. Memoised by (F, C, rem, their costs
    under ``roll``, Karma) unless ``memo`` is empty."""
    if rem == 0:
        return 35 * k
    cost = arrays.cost
    first = -1
    unblocked = False
    code = 0
    left = 0
    for card in range(arrays.cards):
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
            times = arrays.reroll_counts[first, c]
            if times > 0:
                total += times * _search_value(filled, colours, rem, arrays.class_roll[first, c], k, arrays, memo) // 35
        return total
    key = filled | (colours << 10) | (rem << 20) | (code << 30) | (k << 38)
    remember = left > 1 and memo.keys.shape[0] > 0
    if remember:
        stored = _memo_get(memo, key)
        if stored >= 0:
            return stored
    best = np.int64(-1)  # not a literal -1: _memo_put stores it (see kernels, "One signature per kernel")
    for card in range(arrays.cards):
        if (rem >> card) & 1 and cost[card, roll] > 0:
            v, _, _, _ = _best_placement(filled, colours, rem, card, roll, k, arrays, memo)
            if v > best:
                best = v
    if remember:
        _memo_put(memo, key, best)
    return best


@njit()
def _best_placement(filled, colours, rem, card, roll, k, arrays, memo):
    """The best placement of ``card`` (one of ``rem``, unblocked by ``roll``): (value, x, o, Karma after), the
    first best in the action order (row-major cells, orientation 0 first; strictly greater replaces)."""
    c = arrays.cost[card, roll]
    best = -1
    best_x, best_o, best_k = -1, -1, 0
    for q in range(arrays.n):
        x = arrays.rowmajor[q]
        if not is_legal(filled, x, arrays):
            continue
        for o in range(arrays.orients):
            k2 = arrays.step[k, c, min(placement_rec(filled, colours, card, o, x, arrays), MAX_REC)]
            v = 0
            if k2 > 0:
                f2, c2 = place_card(filled, colours, card, o, x, arrays)
                v = _search_value(f2, c2, rem & ~(1 << card), roll, k2, arrays, memo)
            if v > best:
                best = v
                best_x, best_o, best_k = x, o, k2
    return best, best_x, best_o, best_k


@njit()
def _la_choice(filled, colours, order, count, placed, roll, k, arrays, memo):
    """The lookahead's move: the first (card, cell, orientation) in the action order of best value, as
    ``TurnPlanner.best_action`` (strictly greater replaces). Returns (value, i, x, o, Karma after); i = -1 and
    value -1 if every card is blocked. The children's values come from ``_search_value``."""
    rem = np.int64(0)  # not a literal 0: see kernels, "One signature per kernel"
    for i in range(count):
        rem |= 1 << order[i]
    rem &= ~placed
    best = -1
    best_i, best_x, best_o, best_k = -1, -1, -1, 0
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1 or arrays.cost[card, roll] == 0:
            continue
        v, x, o, k2 = _best_placement(filled, colours, rem, card, roll, k, arrays, memo)
        if v > best:
            best = v
            best_i, best_x, best_o, best_k = i, x, o, k2
    return best, best_i, best_x, best_o, best_k


@njit()
def _la_phase(filled, colours, order, count, placed, roll, k, arrays, memo):
    """Play the lookahead with ``roll`` until every card is placed, the rest is blocked, or the game is lost.
    Returns (F, C, placed, Karma); Karma 0 = lost."""
    while True:
        _, i, x, o, k2 = _la_choice(filled, colours, order, count, placed, roll, k, arrays, memo)
        if i < 0:
            return filled, colours, placed, k
        if k2 == 0:
            return filled, colours, placed, 0
        filled, colours = place_card(filled, colours, order[i], o, x, arrays)
        placed |= 1 << order[i]
        k = k2


@njit()
def _first_left(order, count, placed):
    """The first card of ``order[:count]`` not in ``placed`` (-1: none)."""
    for i in range(count):
        if not (placed >> order[i]) & 1:
            return order[i]
    return -1


@njit()
def _la_roll(filled, colours, after, order, count, roll, k, next_table, index, arrays, memo):
    """35 x the lookahead's value from Karma ``k`` after ``roll`` (a stuck roll: the sum over the 35 rerolls)."""
    f, c, placed, k1 = _la_phase(filled, colours, order, count, np.int64(0), roll, k, arrays, memo)
    if k1 == 0:
        return 0
    first = _first_left(order, count, placed)
    if first < 0:
        return 35 * next_table[dense_slot(f, c, after, index)][k1]
    total = 0
    for cc in range(1, 6):
        times = arrays.reroll_counts[first, cc]
        if times == 0:
            continue
        f2, c2, _, k2 = _la_phase(f, c, order, count, placed, arrays.class_roll[first, cc], k1, arrays, memo)
        if k2 > 0:
            total += times * next_table[dense_slot(f2, c2, after, index)][k2]
    return total


@njit(nogil=True)
def _la_outcomes(keys, karmas, emit, out_code, out_weight, next_table, rows, index, arrays, memo):
    """Play the lookahead at every (key, Karma in its mask, ordered hand, roll class) of ``keys``.
    (Long: one jitted loop nest over hands, rolls and reroll classes, which numba compiles as one.)

    Each outcome is (q, k, next key, next Karma, weight), the weight counting the rolls (x35 if not
    stuck; a stuck roll counts each reroll class's rerolls): with ``emit`` it goes to ``out_code``
    (``((q * 16 + k) << 34 | next key) << 4 | next Karma``) and ``out_weight``, and the count is returned
    (-1 if the arrays are full); else ``rows[q, k]`` adds weight x ``next_table``'s entry (``rows[q, 0]``
    = -1 flags a next key the table lacks)."""
    count = 0
    hand, nothing = np.int64(3), np.int64(0)  # int64s, not literals: see kernels, "One signature per kernel"
    hands = np.zeros((720, 3), dtype=np.int64)
    rolls = np.zeros(36, dtype=np.int64)
    times = np.zeros(36, dtype=np.int64)
    for q in range(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        for h in range(hands_of(unplaced, arrays.cards, hands)):
            order = hands[h]
            after = unplaced & ~((1 << order[0]) | (1 << order[1]) | (1 << order[2]))
            for i in range(roll_classes(order, arrays.cost, rolls, times)):
                for k in range(1, arrays.karma + 1):
                    if not (karmas[q] >> k) & 1:
                        continue
                    f, c, placed, k1 = _la_phase(filled, colours, order, hand, nothing, rolls[i], k, arrays, memo)
                    if k1 == 0:
                        continue
                    first = _first_left(order, hand, placed)
                    for cc in range(6):
                        if first < 0:  # not stuck: one outcome, all 35 rerolls' worth
                            if cc > 0:
                                break
                            f2, c2, k2, weight = f, c, k1, 35 * times[i]
                        else:
                            if cc == 0 or arrays.reroll_counts[first, cc] == 0:
                                continue
                            reroll = arrays.class_roll[first, cc]
                            f2, c2, _, k2 = _la_phase(f, c, order, hand, placed, reroll, k1, arrays, memo)
                            weight = times[i] * arrays.reroll_counts[first, cc]
                            if k2 == 0:
                                continue
                        if emit:
                            if count == out_code.shape[0]:
                                return -1
                            out_code[count] = (((q * 16 + k) << 34) | pack_key(f2, c2, after)) << 4 | k2
                            out_weight[count] = weight
                            count += 1
                        else:
                            s = dense_slot(f2, c2, after, index)
                            if next_table[s, 0] < 0:
                                rows[q, 0] = -1
                            rows[q, k] += weight * next_table[s, k2]
    return count


# --------------------------------------------------------------------------- the drivers


LOOKAHEAD_THREADS = 2  # worker threads of the whole-game run (the machine is shared)
GROUP_KEYS = 16  # keys per work item: consecutive keys of equal (F, C), which share search nodes


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


def _run_items(items, work, threads: int, verbose: bool, label: str, memo_bits: int | None = MEMO_BITS) -> list:
    """``work(item, memo)`` for every item on ``threads`` threads (the kernels release the GIL), in order; each
    thread keeps one memo of ``2**memo_bits`` entries (``None``: no memo, the plain search)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    local = threading.local()
    done = [0]
    lock = threading.Lock()
    t0, c0 = time.perf_counter(), time.process_time()

    def run(item):
        if not hasattr(local, "memo"):
            local.memo = new_memo(memo_bits)
        result = work(item, local.memo)
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


def la_outcomes(
    data: "Arrays", level: int, keys, karmas, threads: int = LOOKAHEAD_THREADS, verbose: bool = False, memoised=True
) -> Outcomes:
    """The forward pass of one level: every play of the lookahead from ``keys`` (at the Karma values of
    ``karmas``), stored with its outcome so that the backward pass does not play again. ``memoised=False``
    searches without a memo (the tests' oracle)."""
    if data.karma >= 16:
        raise ValueError("the stored plays pack Karma in 4 bits")
    index = data.index(level + 3)
    dummy = np.zeros((1, data.karma + 1), dtype=np.int64)
    per_pair = ordered_hands(data.cards - level) * 36 * 2

    def work(item, memo):
        pairs = sum(bin(int(m)).count("1") for m in karmas[item])
        capacity = max(1024, pairs * per_pair)
        while True:
            codes = np.zeros(capacity, dtype=np.int64)
            weights = np.zeros(capacity, dtype=np.int64)
            count = _la_outcomes(keys[item], karmas[item], True, codes, weights, dummy, dummy, index, data.arrays, memo)
            if count >= 0:
                break
            capacity *= 2
        order = np.argsort(codes[:count], kind="stable")
        codes, weights = codes[:count][order], weights[:count][order]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if count else np.zeros(0, np.int64)
        codes, weights = codes[starts], np.add.reduceat(weights, starts) if count else weights[:0]
        pair = codes >> 38
        return item[pair >> 4], pair & 15, (codes >> 4) & ((1 << 34) - 1), codes & 15, weights

    label = f"level {level} forward"
    parts = _run_items(_work_items(keys), work, threads, verbose, label, MEMO_BITS if memoised else None)
    return Outcomes(*(np.concatenate([p[i] for p in parts]) for i in range(5)))


def la_rows(
    data: "Arrays",
    level: int,
    keys,
    karmas,
    next_table,
    threads: int = LOOKAHEAD_THREADS,
    verbose: bool = False,
    memoised=True,
) -> np.ndarray:
    """The lookahead's value rows at ``keys`` (the Karma values of ``karmas``), its plays summed against
    ``next_table`` as they are made (the last turn's, whose table is complete: no forward pass).
    ``memoised=False`` searches without a memo (the tests' oracle)."""
    index = data.index(level + 3)
    rows = np.zeros((len(keys), data.karma + 1), dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)

    def work(item, memo):
        out = np.zeros((len(item), data.karma + 1), dtype=np.int64)
        _la_outcomes(keys[item], karmas[item], False, empty, empty, next_table, out, index, data.arrays, memo)
        rows[item] = out

    label = f"level {level} values"
    _run_items(_work_items(keys), work, threads, verbose, label, MEMO_BITS if memoised else None)
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
    keys = {0: np.array([((1 << data.cards) - 1) << 20], dtype=np.int64)}
    karmas = {0: np.array([1 << data.karma], dtype=np.int64)}
    plays = {}
    for level, following in ((0, 3), (3, 6)):
        t0, c0 = time.perf_counter(), time.process_time()
        plays[level] = la_outcomes(data, level, keys[level], karmas[level], threads, verbose)
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
    _, i, x, o, _ = _la_choice(
        filled, colours, order, len(order), 0, roll_index(roll), karma, data.arrays, new_memo(None)
    )
    return action_of(state, model, roll, i, x, o)


def lookahead_turn_three_value(state, memoised: bool = True) -> Fraction:
    """The lookahead's exact value at a turn-3 position (decisions by ``_la_roll``, a turn start by ``la_rows``,
    the whole-game run's kernel; with ``memoised=False`` both search without a memo; other chance nodes by the
    engine's outcomes), against the final card's table."""
    from gamelib.pangu.bots import lookahead_policy

    def at_turn_start(data, table, key, karma):
        keys = np.array([key], dtype=np.int64)
        every_karma = np.full(1, (1 << (data.karma + 1)) - 2, dtype=np.int64)
        out = la_rows(data, 6, keys, every_karma, table, threads=1, memoised=memoised)
        return Fraction(int(out[0][karma]), ordered_hands(4) * 36 * 35 * 35)

    def after_roll(data, table, filled, colours, unseen, order, roll, karma):
        memo = new_memo(MEMO_BITS if memoised else None)
        value = _la_roll(
            filled, colours, unseen, order, len(order), roll_index(roll), karma, table, data.index(9), data.arrays, memo
        )
        return Fraction(int(value), 35 * 35)

    return turn_three_value(state, lookahead_policy, at_turn_start, after_roll)
