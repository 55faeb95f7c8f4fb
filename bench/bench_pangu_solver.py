"""Pangu solver benchmark (issue 11): the full default solve, the per-move time, and ratios against naive methods.

Run: ``.venv/bin/python bench/bench_pangu_solver.py --runs 3`` (about 5 minutes on an idle 2-core
machine). ``--runs 0`` skips the full solve, which needs the optional numba extra
(``pip install -e '.[solver]'``).

* Compile: the first call of the numba builder in this process on a one-key level (machine code
  compiled, or loaded from numba's on-disk cache when it is warm), reported apart.
* Full solve: ``optimal.solve(Rules())`` from scratch (no checkpoint), wall and CPU seconds,
  median over the runs, with each level's time and the numbers of reroll blocks; every run's
  root and shipped levels (keys and numerators) must equal ``data/solver_default.npz`` exactly.
* Per move: ``solver.action_values(state)`` (pure Python on the shipped tables), each with a cold
  memo, on decision positions of turns 1 to 4 from seeded random games; median and max.
* Naive ratios, in this process: (a) the pure-Python expectimax on turn-3 keys, extrapolated to
  the whole turn-3 level, against the builder's whole solve; (b) the test suite's brute force (every
  card, both dice, every cell, no tables) against ``solver.win_probability`` on turn-3 positions.

The machine is shared: every figure carries the 1-minute load average (``os.getloadavg()``) at the
time it was measured; wall time is noisy under load, CPU time much less so.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from gamelib.core import CHANCE  # noqa: E402
from gamelib.pangu import Rules, new_game  # noqa: E402
from gamelib.pangu import solver  # noqa: E402
from test_pangu_solver import brute_force, random_turn_three_position  # noqa: E402


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def timed(function, *args, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def decision_positions(turn: int, count: int, seed: int):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = new_game(seed=rng.randrange(10**6))
        while state.status == "ONGOING" and state.turn < turn:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.status == "ONGOING" and state.turn == turn:
            positions.append(state)
    return positions


def cold_action_values(state):
    solver.forget_solvers()  # a cold memo: the time of a first look at the position
    return solver.action_values(state)


def bench_compile() -> None:
    from gamelib.pangu.solver import optimal

    _, wall, cpu = timed(optimal.warm_up)
    print(f"numba compile (or load from its cache): {wall:.1f} s wall, {cpu:.1f} s CPU ({load()})", flush=True)


def assert_same_as_shipped(tables) -> None:
    """Every key and numerator of the shipped levels, bit for bit, against the file the package ships."""
    import numpy as np

    shipped = solver.default_tables()
    for level in (0, 3, 6):
        keys, rows = tables.values[level]
        order = np.argsort(keys)
        assert np.array_equal(keys[order], shipped.keys[level]), f"level {level}: the keys differ"
        numerators = rows[order][:, 1:]
        assert np.array_equal(numerators, shipped.rows[level]), f"level {level}: the numerators differ"


def bench_full_solve(runs: int) -> float:
    from gamelib.pangu.solver import optimal

    walls, cpus = [], []
    expected = solver.win_probability(new_game(explicit_chance=True))
    for run in range(runs):
        tables, wall, cpu = timed(optimal.solve, Rules(), verbose=False)
        assert tables.root() == expected, tables.root()
        assert_same_as_shipped(tables)
        walls.append(wall)
        cpus.append(cpu)
        levels = ", ".join(
            f"turn {level // 3 + 1} {w:.1f} s wall / {c:.1f} s CPU"
            for level, (w, c) in sorted(tables.level_times.items(), reverse=True)
        )
        stats = {level: tables.cache_stats[level].sum(axis=0) for level in sorted(tables.cache_stats)}
        blocks = "; ".join(
            f"turn {level // 3 + 1}: {s[0]:,} after one placement, {s[1]:,} after two" for level, s in stats.items()
        )
        print(
            f"  run {run + 1}: root {tables.root()} in {wall:.1f} s wall, {cpu:.1f} s CPU ({load()}); {levels}; "
            f"reroll blocks {blocks}",
            flush=True,
        )
    print(
        f"full default solve (numba, {optimal.numba.get_num_threads()} threads, compile apart): median "
        f"{statistics.median(walls):.1f} s wall, {statistics.median(cpus):.1f} s CPU over {runs} runs ({load()})",
        flush=True,
    )
    return statistics.median(cpus)


def bench_pure_python_turn_three(builder_cpu: float, keys: int) -> None:
    """The same turn-3 rows by the pure-Python expectimax, extrapolated to the whole level (naive ratio)."""
    tables = solver.default_tables()
    model = solver.model_for(new_game(explicit_chance=True))
    rng = random.Random(5)
    cpus = []
    for at in rng.sample(range(len(tables.keys[6])), keys):
        key = int(tables.keys[6][at])
        fresh = solver.Solver(model, None)
        _, _, cpu = timed(
            lambda: [fresh.turn_start(key & 1023, key >> 10 & 1023, key >> 20 & 1023, k) for k in range(1, 11)]
        )
        cpus.append(cpu)
    per_key = statistics.median(cpus)
    whole = per_key * len(tables.keys[6])
    print(
        f"pure Python, one turn-3 key (10 Karma values): median {per_key * 1000:.0f} ms CPU over {keys} keys "
        f"({load()}); x {len(tables.keys[6]):,} keys = {whole / 3600:.1f} CPU-hours for turn 3 alone, "
        f"{whole / builder_cpu:.0f}x the builder's CPU time for the whole game",
        flush=True,
    )


def bench_per_move(count: int) -> None:
    _, wall, cpu = timed(solver.ShippedTables)
    print(f"loading and checking the shipped tables: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU ({load()})")
    solver.default_tables()
    for turn in (1, 2, 3, 4):
        walls, cpus, sizes = [], [], []
        for state in decision_positions(turn, count, seed=turn):
            values, wall, cpu = timed(cold_action_values, state)
            walls.append(wall)
            cpus.append(cpu)
            sizes.append(len(values))
        print(
            f"per move, turn {turn}: median {statistics.median(walls) * 1000:.1f} ms wall, "
            f"{statistics.median(cpus) * 1000:.1f} ms CPU; max {max(walls) * 1000:.1f} ms wall, "
            f"{max(cpus) * 1000:.1f} ms CPU ({count} positions, {statistics.median(sizes):.0f} actions each; "
            f"{load()})",
            flush=True,
        )


def bench_naive(count: int) -> None:
    rng = random.Random(11)
    fast, slow = [], []
    for _ in range(count):
        state = random_turn_three_position(rng, Rules())
        while state.current_player == CHANCE:
            state = state.apply(state.chance_outcomes()[0][0])
        solver.forget_solvers()
        a, _, cpu_fast = timed(solver.win_probability, state)
        b, _, cpu_slow = timed(brute_force, state)
        assert a == b
        fast.append(cpu_fast)
        slow.append(cpu_slow)
    print(
        f"turn-3 decision, solver {statistics.median(fast) * 1000:.1f} ms CPU vs brute force "
        f"{statistics.median(slow) * 1000:.1f} ms CPU: ratio {statistics.median(slow) / statistics.median(fast):.1f}x "
        f"(median of {count}; {load()})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of the full solve (0 skips it; default 3)")
    parser.add_argument("--positions", type=int, default=15, help="positions per turn for the per-move time")
    args = parser.parse_args()
    print(f"Pangu solver bench, {os.cpu_count()} CPUs ({load()})")
    if args.runs:
        bench_compile()
        builder_cpu = bench_full_solve(args.runs)
        bench_pure_python_turn_three(builder_cpu, keys=3)
    bench_per_move(args.positions)
    bench_naive(5)


if __name__ == "__main__":
    main()
