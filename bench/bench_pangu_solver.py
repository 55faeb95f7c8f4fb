"""Pangu solver benchmark (issue 11): the full default solve, the per-move time, and a naive ratio.

Run: ``.venv/bin/python bench/bench_pangu_solver.py`` (``--quick`` skips the full solve, which
needs the optional numba extra: ``pip install -e '.[solver]'``; ``--solves N`` repeats it).

* Full solve: ``solver_build.solve(Rules())`` (numba, 2 threads), wall and CPU seconds, median
  over the runs; the first run also compiles unless numba's cache is warm (reported apart).
* Per move: ``solver.action_values(state)`` (pure Python on the shipped tables) on decision
  positions of turns 1, 2 and 3 from seeded random games, each with a cold memo; median wall
  and CPU milliseconds.
* Pure-Python ratio: one turn-3 row by the pure-Python expectimax, extrapolated to the level;
  at turn 2, the per-move time without the shipped turn-3 table (turn 3 solved on demand).
* Naive ratio: the test suite's brute force (every card, both dice, every cell, no tables) against
  ``solver.win_probability`` on the same turn-3 positions, CPU seconds in this process.
"""

from __future__ import annotations

import argparse
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


def timed(function, *args):
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(*args)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def decision_positions(turn: int, count: int, seed: int):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = new_game(seed=rng.randrange(10 ** 6))
        while state.status == "ONGOING" and state.turn < turn:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.status == "ONGOING" and state.turn == turn:
            positions.append(state)
    return positions


def cold_action_values(state):
    solver._SOLVERS.clear()  # a cold memo: the time of a first look at the position
    return solver.action_values(state)


def bench_full_solve(runs: int) -> None:
    from gamelib.pangu import solver_build

    walls, cpus = [], []
    for run in range(runs):
        tables, wall, cpu = timed(solver_build.solve, Rules(), None, False)
        walls.append(wall)
        cpus.append(cpu)
        levels = ", ".join(f"level {level} {w:.1f} s wall / {c:.1f} s CPU"
                           for level, (w, c) in sorted(tables.level_times.items(), reverse=True))
        print(f"  run {run + 1}: root {tables.root()} in {wall:.1f} s wall, {cpu:.1f} s CPU ({levels})")
    print(f"full default solve (numba, {solver_build.numba.get_num_threads()} threads): median {statistics.median(walls):.1f} s "
          f"wall, {statistics.median(cpus):.1f} s CPU over {runs} run(s) (the first run of a fresh checkout also "
          f"compiles; numba caches the machine code)")
    bench_pure_python_turn_three(statistics.median(cpus), keys=3)


def bench_pure_python_turn_three(builder_cpu: float, keys: int) -> None:
    """The same turn-3 rows by the pure-Python expectimax, extrapolated to the whole level (naive ratio)."""
    tables = solver.default_tables()
    model = solver.model_for(new_game(explicit_chance=True))
    rng = random.Random(5)
    cpus = []
    for at in rng.sample(range(len(tables.keys[6])), keys):
        key = int(tables.keys[6][at])
        fresh = solver.Solver(model, None)
        _, _, cpu = timed(lambda: [fresh.turn_start(key & 1023, key >> 10 & 1023, key >> 20 & 1023, k)
                                   for k in range(1, 11)])
        cpus.append(cpu)
    per_key = statistics.median(cpus)
    whole = per_key * len(tables.keys[6])
    print(f"pure Python, one turn-3 key (10 Karma values): median {per_key * 1000:.0f} ms CPU over {keys} keys; "
          f"x {len(tables.keys[6]):,} keys = {whole / 3600:.1f} CPU-hours for turn 3 alone, "
          f"{whole / builder_cpu:.0f}x the builder's CPU time for the whole game")


def bench_per_move(count: int) -> None:
    _, wall, cpu = timed(solver.ShippedTables)
    print(f"loading and checking the shipped tables: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
    solver.default_tables()
    model = solver.model_for(new_game(explicit_chance=True))
    for turn in (1, 2, 3):
        walls, cpus, sizes, slow = [], [], [], []
        for state in decision_positions(turn, count, seed=turn):
            values, wall, cpu = timed(cold_action_values, state)
            walls.append(wall)
            cpus.append(cpu)
            sizes.append(len(values))
            if turn == 2:  # the same move without the turn-3 table: turn 3 solved on demand in pure Python
                solver._SOLVERS[(state.rules, model.centre, state.cards)] = solver.Solver(
                    model, solver.default_tables, table_levels=(0, 3))
                again, _, cpu_slow = timed(solver.action_values, state)
                assert again == values
                slow.append(cpu_slow)
        line = (f"per move, turn {turn}: median {statistics.median(walls) * 1000:.0f} ms wall, "
                f"{statistics.median(cpus) * 1000:.0f} ms CPU, max {max(walls) * 1000:.0f} ms wall, {max(cpus) * 1000:.0f} ms CPU "
                f"({count} positions, {statistics.median(sizes):.0f} actions each)")
        if slow:
            line += (f"; without the turn-3 table {statistics.median(slow) * 1000:.0f} ms CPU, ratio "
                     f"{statistics.median(slow) / statistics.median(cpus):.1f}x")
        print(line)


def bench_naive(count: int) -> None:
    rng = random.Random(11)
    fast, slow = [], []
    for _ in range(count):
        state = random_turn_three_position(rng, Rules())
        while state.current_player == CHANCE:
            state = state.apply(state.chance_outcomes()[0][0])
        solver._SOLVERS.clear()
        a, _, cpu_fast = timed(solver.win_probability, state)
        b, _, cpu_slow = timed(brute_force, state)
        assert a == b
        fast.append(cpu_fast)
        slow.append(cpu_slow)
    print(f"turn-3 decision, solver {statistics.median(fast) * 1000:.1f} ms CPU vs brute force "
          f"{statistics.median(slow) * 1000:.1f} ms CPU: ratio {statistics.median(slow) / statistics.median(fast):.1f}x "
          f"(median of {count})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the full solve; fewer positions")
    parser.add_argument("--solves", type=int, default=1, help="runs of the full solve (default 1)")
    args = parser.parse_args()
    if not args.quick:
        bench_full_solve(args.solves)
    bench_per_move(5 if args.quick else 15)
    bench_naive(3 if args.quick else 7)


if __name__ == "__main__":
    main()
