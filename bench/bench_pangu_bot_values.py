"""The lookahead's exact evaluator (issue 11, ``gamelib.pangu.solver.lookahead``): memoised against plain, per slice.

Run: ``.venv/bin/python bench/bench_pangu_bot_values.py --pairs 20 --runs 3`` (8.5 minutes wall on the
shared 2-core machine at load 7; needs the optional numba extra).

* Turn 2 forward pass: ``pairs`` seeded (turn-2 key, Karma) pairs that the lookahead reaches under the
  default rules, played through every ordered hand and roll class: ``la_outcomes`` searching without a
  memo (``memoised=False``: the planner's full search at every decision) against the whole-game run's
  memoised search, CPU seconds, median over the runs.
* Turn 3 values: the turn-3 keys those pairs reach (up to ``--keys``), every Karma reached: ``la_rows``
  without and with the memo.

Both give the same pairs and rows (checked here, and in tests/test_pangu_bot_values_numba.py). The first
run of each kernel in this process includes its compilation (the recursive kernels are not cached on
disk), so the median is taken over ``--runs`` runs after one warm-up on two pairs. CPU time counts every
thread; the machine is shared, so each figure carries the 1-minute load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from gamelib.pangu.rules import Rules
from gamelib.pangu.solver import levels
from gamelib.pangu.solver import lookahead as sp
from gamelib.pangu.solver.model import build_model


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def cpu_of(function) -> tuple[object, float]:
    cpu = time.process_time()
    result = function()
    return result, time.process_time() - cpu


def turn_two_pairs(data, count: int, seed: int):
    """``count`` seeded turn-2 (key, Karma) pairs the lookahead reaches: keys and one-Karma masks."""
    start = np.array([((1 << data.cards) - 1) << 20], dtype=np.int64)
    keys, masks = sp.la_outcomes(data, 0, start, np.array([1 << data.karma], dtype=np.int64), threads=1).reached()
    pairs = [(key, k) for key, mask in zip(keys, masks) for k in range(1, data.karma + 1) if (int(mask) >> k) & 1]
    chosen = sorted(np.random.default_rng(seed).choice(len(pairs), count, replace=False))
    return (
        np.array([pairs[i][0] for i in chosen], dtype=np.int64),
        np.array([1 << pairs[i][1] for i in chosen], dtype=np.int64),
    )


def plain_reached(data, keys, masks):
    """The (key, Karma) pairs reached, by the forward pass searching without a memo."""
    return sp.la_outcomes(data, 3, keys, masks, threads=1, memoised=False).reached()


def plain_rows(data, keys, masks, table):
    """The turn-3 rows, searching without a memo."""
    return sp.la_rows(data, 6, keys, masks, table, threads=1, memoised=False)


def median_cpu(function, runs: int) -> tuple[object, float]:
    results = [cpu_of(function) for _ in range(runs)]
    return results[0][0], statistics.median(cpu for _, cpu in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--keys", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    data = levels.Arrays(build_model(Rules(), None), keys={})
    keys, masks = turn_two_pairs(data, args.pairs, args.seed)
    plain_reached(data, keys[:2], masks[:2])  # warm-up: compilation
    sp.la_outcomes(data, 3, keys[:2], masks[:2], threads=1)

    plain, plain_cpu = median_cpu(lambda: plain_reached(data, keys, masks), args.runs)
    stored, memo_cpu = median_cpu(lambda: sp.la_outcomes(data, 3, keys, masks, threads=1), args.runs)
    next_keys, next_masks = stored.reached()
    assert np.array_equal(plain[0], next_keys) and np.array_equal(plain[1], next_masks)
    print(
        f"turn 2 forward, {args.pairs} (key, Karma) pairs: plain {plain_cpu:.2f} s CPU, memoised and stored "
        f"{memo_cpu:.2f} s CPU: ratio {plain_cpu / memo_cpu:.1f}x (median of {args.runs}; {load()})",
        flush=True,
    )

    final_keys = levels.all_keys(data, 9)
    table = data.table(9, final_keys, data.final_rows(final_keys))
    sample = np.arange(0, len(next_keys), max(1, len(next_keys) // args.keys))[: args.keys]
    k6, m6 = next_keys[sample], next_masks[sample]
    pairs6 = sum(bin(int(m)).count("1") for m in m6)
    plain_row, plain6_cpu = median_cpu(lambda: plain_rows(data, k6, m6, table), args.runs)
    memo_row, memo6_cpu = median_cpu(lambda: sp.la_rows(data, 6, k6, m6, table, threads=1), args.runs)
    assert np.array_equal(plain_row, memo_row)
    print(
        f"turn 3 values, {len(k6)} keys ({pairs6} pairs): plain {plain6_cpu:.2f} s CPU, memoised {memo6_cpu:.2f} s "
        f"CPU: ratio {plain6_cpu / memo6_cpu:.1f}x (median of {args.runs}; {load()})",
        flush=True,
    )


if __name__ == "__main__":
    main()
