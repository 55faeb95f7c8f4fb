"""gamelib.design benchmarks: games per second serially and on 2 worker processes, and the
overhead per game of the executor path.

Run: ``.venv/bin/python bench/bench_design.py`` (``--game gamelib.chakra`` for a real game,
``--quick`` for a short run). Figures are medians of several runs, next to the naive method in
the same process, the core's serial ``core.tournament`` (no lead trace, no executor):
* serial: CPU time of this process (the machine is shared; CPU time is the steadier clock);
* 2 workers: the work happens in other processes, so only wall time can show it; the ratio
  serial wall / 2-worker wall is the figure (at most 2 on this 2-core machine, less when
  other jobs share the cores);
* executor overhead: the wall time per game added by sending games to one worker process
  instead of playing them here, and this process's CPU time per game on that path.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the toy race lives with the tests

from gamelib import core, design  # noqa: E402


def timed(function) -> tuple[float, float, object]:
    """(CPU seconds of this process, wall seconds, the result) of one call."""
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    result = function()
    return time.process_time() - start_cpu, time.perf_counter() - start_wall, result


def interleaved_medians(methods: dict, runs: int) -> tuple[dict, dict]:
    """Median (CPU, wall) of each method, the methods taking turns in every run, so a burst of load
    from the other users of the machine falls on all of them alike; and each method's last result."""
    samples, results = {name: [] for name in methods}, {}
    for _ in range(runs):
        for name, function in methods.items():
            cpu, wall, results[name] = timed(function)
            samples[name].append((cpu, wall))
    medians = {
        name: (statistics.median(c for c, _ in pairs), statistics.median(w for _, w in pairs))
        for name, pairs in samples.items()
    }
    return medians, results


def same_games(results: dict) -> bool:
    """Whether every design.tournament path gave the same table, game by game (and the naive
    core.tournament the same winners)."""
    tables = [list(table) for name, table in results.items() if name != "naive"]
    naive_winners = [record.winners for record in results["naive"]]
    return all(table == tables[0] for table in tables) and naive_winners == [row.winners for row in tables[0]]


def policies_for(game) -> list:
    players = design.players_of(game)
    if game.__name__ == "toy_game":
        return [core.random_policy] * players
    bots = importlib.import_module(game.__name__ + ".bots")
    return [bots.greedy_policy] + [bots.random_policy] * (players - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="toy_game", help="a game module on the contract (default: the toy race)")
    parser.add_argument("--games", type=int, default=None, help="deals per run")
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args()
    game = importlib.import_module(options.game)
    deals = options.games or (200 if options.quick else 1000) if game.__name__ == "toy_game" else (options.games or 20)
    runs = 3 if options.quick else 5
    policies = policies_for(game)
    seatings = len(core.seatings(len(policies), len({id(p) for p in policies}) > 1))
    games = deals * seatings
    print(
        f"{game.__name__}: {deals} deals x {seatings} seatings = {games} games per run, median of {runs} runs, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (others' jobs share the cores)"
    )
    load_before = os.getloadavg()[0]

    rotate = seatings > 1

    def play(**where):
        return lambda: design.tournament(game, policies, deals, seed=1, progress=False, **where)

    with ProcessPoolExecutor(2) as two, ProcessPoolExecutor(1) as one:
        two.submit(int).result(), one.submit(int).result()  # start the warm pools' workers before timing
        methods = {
            "naive": lambda: core.tournament(game, policies, deals, seed=1, rotate=rotate, progress=False),
            "serial": play(workers=1),
            "parallel": play(workers=2),
            "warm": play(executor=two),
            "one": play(executor=one),
        }
        timings, results = interleaved_medians(methods, runs)
    if not same_games(results):
        raise SystemExit("the executors disagree: a tournament must give the same games on any executor")
    (naive_cpu, _), (serial_cpu, serial_wall) = timings["naive"], timings["serial"]
    parallel_wall, warm_wall = timings["parallel"][1], timings["warm"][1]
    one_cpu, one_wall = timings["one"]

    print(f"naive core.tournament (serial, no trace): {games / naive_cpu:8.1f} games/s CPU")
    print(
        f"design.tournament serial (lead trace):    {games / serial_cpu:8.1f} games/s CPU "
        f"({naive_cpu / serial_cpu:.2f}x the naive rate: the lead trace costs little)"
    )
    print(f"design.tournament serial, wall clock:     {games / serial_wall:8.1f} games/s")
    print(
        f"design.tournament on 2 worker processes:  {games / parallel_wall:8.1f} games/s wall "
        f"(ratio 2 workers / serial: {serial_wall / parallel_wall:.2f}x)"
    )
    print(
        f"  the same on a pool already started:     {games / warm_wall:8.1f} games/s wall "
        f"(ratio {serial_wall / warm_wall:.2f}x; the difference is starting 2 processes per tournament)"
    )
    print(
        f"  2 worker processes vs 1 (both started):  ratio {one_wall / warm_wall:.2f}x wall "
        f"({games / one_wall:.3g} vs {games / warm_wall:.3g} games/s)"
    )
    print(
        "checked: every path gave the same games, game by game (serial, 2 workers, pools of 1 and 2; "
        "the naive method the same winners)"
    )
    print(
        f"executor overhead per game (1 worker process vs here): "
        f"{(one_wall - serial_wall) / games * 1e6:+.0f} us wall, this process's CPU {one_cpu / games * 1e6:.0f} us "
        f"(vs {serial_cpu / games * 1e6:.0f} us to play a game here)"
    )
    print(f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after (1-minute; 2 = both cores busy)")


if __name__ == "__main__":
    main()
