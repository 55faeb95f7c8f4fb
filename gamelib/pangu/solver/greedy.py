"""The exact whole-game chance of winning of ``bots.greedy_policy`` (numba, the ``solver`` extra).

Greedy plays the cheapest legal die with the best ``rec - cost`` now, first in the action order, and
ignores Karma, so one play of a hand under a roll serves every Karma value. The rolls are grouped by
the hand's three cheapest costs (the play depends on nothing else), and after a stuck roll the
blocked cards share one cost under every reroll, so one play covers all 35 rerolls. Only the keys
greedy reaches are evaluated: a forward pass lists them, then the backward pass computes their rows.
See docs/pangu_solver.md, "A bot's value".
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
from gamelib.pangu.solver.arrays import MAX_REC
from gamelib.pangu.solver.kernels import (
    dense_slot,
    hands_of,
    is_legal,
    pack_key,
    place_card,
    placement_rec,
    roll_classes,
    unpack_key,
)
from gamelib.pangu.solver.levels import (
    LEVELS,
    Arrays,
    action_of,
    check_supported,
    decision_arrays,
    ordered_hands,
    roll_index,
    turn_three_value,
)
from gamelib.pangu.solver.model import build_model
from gamelib.pangu.solver.tables import checkpoint_folder, rules_tag


# --------------------------------------------------------------------------- the kernels


@njit(cache=True)
def _greedy_choice(filled, colours, order, count, placed, roll, arrays):
    """Greedy's next placement among ``order[:count]`` not yet in ``placed``: (i, x, o, rec), i = -1 if all are blocked.

    The loops run in the order of pangu.md#programmers (revealed order, row-major cells, orientation 0
    first) and keep the first best, as ``bots.greedy_policy`` does."""
    best_score = -100
    best_i, best_x, best_o, best_rec = -1, -1, -1, 0
    for i in range(count):
        card = order[i]
        if (placed >> card) & 1:
            continue
        c = arrays.cost[card, roll]
        if c == 0:
            continue
        for q in range(arrays.n):
            x = arrays.rowmajor[q]
            if not is_legal(filled, x, arrays):
                continue
            for o in range(arrays.orients):
                r = placement_rec(filled, colours, card, o, x, arrays)
                if r - c > best_score:
                    best_score = r - c
                    best_i, best_x, best_o, best_rec = i, x, o, r
    return best_i, best_x, best_o, best_rec


@njit(cache=True)
def _greedy_play(filled, colours, order, count, roll, arrays, steps, start):
    """Play greedy for the cards ``order[:count]`` with ``roll`` until all are placed or the rest are blocked.

    Returns (F, C, placed mask, steps used); ``steps[start + t]`` gets (cost, rec) of the t-th
    placement. Greedy ignores Karma, so one play serves every Karma."""
    placed = np.int64(0)  # not literal 0s: see kernels, "One signature per kernel"
    used = np.int64(0)
    while True:
        i, x, o, r = _greedy_choice(filled, colours, order, count, placed, roll, arrays)
        if i < 0:
            return filled, colours, placed, used
        card = order[i]
        steps[start + used, 0] = arrays.cost[card, roll]
        steps[start + used, 1] = r
        used += 1
        placed |= 1 << card
        filled, colours = place_card(filled, colours, card, o, x, arrays)
        if used == count:
            return filled, colours, placed, used


@njit(cache=True)
def _karma_after(k, steps, used, step):
    """Karma ``k`` after the first ``used`` placements of a play (their cost and rec in ``steps``); 0 once lost."""
    for t in range(used):
        if k <= 0:
            return 0
        k = step[k, steps[t, 0], min(steps[t, 1], MAX_REC)]
    return k


@njit(cache=True)
def _greedy_turn(filled, colours, order, count, roll, arrays, steps, rest):
    """Greedy's whole turn with ``roll``: its play, and after a stuck roll the blocked rest (``rest[:m]``) played
    under any reroll (one play serves them all: see ``_greedy_roll``). Returns (F, C, placements with ``roll``,
    placements after the reroll); ``steps`` holds them all."""
    f, c, placed, used = _greedy_play(filled, colours, order, count, roll, arrays, steps, np.int64(0))
    if used == count:
        return f, c, used, 0
    m = np.int64(0)
    for i in range(count):
        if not (placed >> order[i]) & 1:
            rest[m] = order[i]
            m += 1
    # any unblocked roll of the rest gives the same play; the first card's cheapest cost stands for the class
    probe = np.int64(0)
    while arrays.cost[rest[0], probe] == 0:
        probe += 1
    f, c, _, used2 = _greedy_play(f, c, rest, m, probe, arrays, steps, used)
    return f, c, used, used2


@njit(cache=True)
def _greedy_roll(filled, colours, after, order, count, roll, next_table, index, arrays, contribution, steps, rest):
    """35 x greedy's value row after ``roll`` with the cards ``order[:count]`` to place, into ``contribution``.

    A stuck roll sums the 35 rerolls instead: the blocked cards share both numbers, so they cost the
    same under every reroll and greedy places them the same way (by ``rec``) under all of them;
    ``reroll_counts[card, c]`` is the number of rerolls at which they cost ``c``."""
    karma, step = arrays.karma, arrays.step
    f, c, used, used2 = _greedy_turn(filled, colours, order, count, roll, arrays, steps, rest)
    row = next_table[dense_slot(f, c, after, index)]
    total = used + used2
    if used == count:
        contribution[0] = row[0]  # -1 flags a key the table lacks (Arrays.table): a forward pass missed it
        for k in range(1, karma + 1):
            contribution[k] = 35 * row[_karma_after(k, steps, total, step)]
        return
    for k in range(karma + 1):
        contribution[k] = 0
    contribution[0] = row[0]
    for cc in range(1, 6):
        times = arrays.reroll_counts[rest[0], cc]
        if times == 0:
            continue
        for t in range(used, total):
            steps[t, 0] = cc
        for k in range(1, karma + 1):
            contribution[k] += times * row[_karma_after(k, steps, total, step)]


@njit(cache=True, parallel=True)
def _greedy_level(keys, out, reached, next_table, index, arrays):
    """Greedy at one turn-start level: every ordered hand of 3 and every roll of each key of ``keys``, the rolls with
    the same cost triple sharing one play. With a non-empty ``reached``, a forward pass: mark the next level's keys
    greedy reaches (``reached[slot] = key + 1``; threads may mark the same slot, with the same value), so that
    the backward pass visits only those. Else the backward pass: the value rows into ``out`` (scaled, int64)."""
    karma = arrays.karma
    forward = reached.shape[0] > 0
    hand = np.int64(3)  # the cards of a hand, as an int64 (see kernels, "One signature per kernel")
    for q in prange(keys.shape[0]):
        filled, colours, unplaced = unpack_key(keys[q])
        row_out = np.zeros(karma + 1, dtype=np.int64)
        contribution = np.zeros(karma + 1, dtype=np.int64)
        hands = np.zeros((720, 3), dtype=np.int64)
        rest = np.zeros(3, dtype=np.int64)
        steps = np.zeros((3, 2), dtype=np.int64)
        rolls = np.zeros(36, dtype=np.int64)
        times = np.zeros(36, dtype=np.int64)
        for h in range(hands_of(unplaced, arrays.cards, hands)):
            order = hands[h]
            after = unplaced & ~((1 << order[0]) | (1 << order[1]) | (1 << order[2]))
            for i in range(roll_classes(order, arrays.cost, rolls, times)):
                if forward:
                    f, c, _, _ = _greedy_turn(filled, colours, order, hand, rolls[i], arrays, steps, rest)
                    reached[dense_slot(f, c, after, index)] = pack_key(f, c, after) + 1
                    continue
                _greedy_roll(
                    filled, colours, after, order, hand, rolls[i], next_table, index, arrays, contribution, steps, rest
                )
                if contribution[0] < 0:
                    row_out[0] = -1
                for k in range(1, karma + 1):
                    row_out[k] += times[i] * contribution[k]
        if not forward:
            for k in range(karma + 1):  # element by element: a whole-row copy compiles numba's shape check
                out[q, k] = row_out[k]


# --------------------------------------------------------------------------- the driver


def reached_keys(data: Arrays) -> dict:
    """The turn-start keys greedy itself reaches from the start (a subset of ``space.turn_start_keys``)."""
    keys = {0: np.array([((1 << data.cards) - 1) << 20], dtype=np.int64)}
    for level, following in zip(LEVELS[:-1], LEVELS[1:]):
        index = data.index(following)
        reached = np.zeros(data.fc_counts[following] * index.n_d, dtype=np.int64)
        _greedy_level(keys[level], np.zeros((0, 0), np.int64), reached, np.zeros((0, 0), np.int64), index, data.arrays)
        keys[following] = np.sort(reached[reached > 0] - 1)
    return keys


def level_rows(data: Arrays, level: int, keys, next_table) -> np.ndarray:
    """Greedy's value rows of the turn-start ``keys`` at ``level``, from the next level's dense table."""
    out = np.zeros((len(keys), data.karma + 1), dtype=np.int64)
    _greedy_level(keys, out, np.zeros(0, np.int64), next_table, data.index(level + 3), data.arrays)
    return out


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
        data.keys = reached_keys(data)
        if verbose:
            print(
                "greedy reaches "
                + ", ".join(f"{len(k):,}" for k in data.keys.values())
                + f" turn-start keys at turns 1-4 ({time.process_time() - t0:.1f} s CPU)",
                flush=True,
            )
    rows = {9: data.final_rows(data.keys[9])}
    scale = 35
    for level in (6, 3, 0):
        t0, c0 = time.perf_counter(), time.process_time()
        saved = checkpoint_folder() / f"greedy_{rules_tag(rules, data.model.centre)}_level{level}.npz"
        if saved.exists():
            with np.load(saved) as stored:
                if np.array_equal(stored["keys"], data.keys[level]):
                    rows[level] = stored["rows"]
        if level not in rows:
            table = data.table(level + 3, data.keys[level + 3], rows[level + 3])
            rows[level] = level_rows(data, level, data.keys[level], table)
            np.savez(saved, keys=data.keys[level], rows=rows[level])
        scale *= ordered_hands(data.cards - level) * 36 * 35
        if verbose:
            print(
                f"greedy level {level}: {len(data.keys[level]):,} keys in {time.perf_counter() - t0:.1f} s wall, "
                f"{time.process_time() - c0:.1f} s CPU",
                flush=True,
            )
        if (rows[level][:, 0] < 0).any():
            raise RuntimeError(f"level {level}: greedy reached a key the forward pass did not list")
        if rows[level].max() > scale or scale >= 2**63:
            raise OverflowError(f"level {level}: a numerator exceeds its scale {scale}")
    return Fraction(int(rows[0][0][data.karma]), scale)


def greedy_action(state):
    """``bots.greedy_policy``'s move, chosen by the numba kernel ``_greedy_choice`` (for the tests)."""
    model, data, filled, colours, roll, _, order = decision_arrays(state)
    i, x, o, _ = _greedy_choice(filled, colours, order, len(order), 0, roll_index(roll), data.arrays)
    return action_of(state, model, roll, i, x, o)


def greedy_turn_three_value(state) -> Fraction:
    """Greedy's exact value at a turn-3 position (decision nodes by ``_greedy_roll``, a turn start by
    ``_greedy_level``, other chance nodes by the engine's outcomes), against the final card's table."""
    from gamelib.pangu.bots import greedy_policy

    def at_turn_start(data, table, key, karma):
        row = level_rows(data, 6, np.array([key], dtype=np.int64), table)[0]
        return Fraction(int(row[karma]), ordered_hands(4) * 36 * 35 * 35)

    def after_roll(data, table, filled, colours, unseen, order, roll, karma):
        contribution = np.zeros(data.karma + 1, dtype=np.int64)
        _greedy_roll(
            filled,
            colours,
            unseen,
            order,
            len(order),
            roll_index(roll),
            table,
            data.index(9),
            data.arrays,
            contribution,
            np.zeros((3, 2), np.int64),
            np.zeros(3, np.int64),
        )
        return Fraction(int(contribution[karma]), 35 * 35)

    return turn_three_value(state, greedy_policy, at_turn_start, after_roll)
