"""Nagaraja benchmarks: game speed, connectivity, commitment analysis, and bot tournaments.

Run: ``.venv/bin/python bench/bench_nagaraja.py`` (``--quick`` for fewer games).
Every timing is the median of several runs, printed with a ratio against a naive method
run in the same process. Targets (issue 5): at least 100 random games per second; the
commitment analysis of a 5-card hand under 100 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from gamelib.nagaraja import analysis, sticks
from gamelib.nagaraja.bots import heuristic_policy, play_game, random_policy, tournament
from gamelib.nagaraja.temple import Temple, brute_force_connectivity

QUICK = "--quick" in sys.argv


def median_time(function, runs: int) -> float:
    """Median wall-clock seconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --------------------------------------------------------------------------- games per second


def games_per_second(policies, games: int, runs: int, first_seed: int) -> tuple[float, float]:
    """(wall, CPU) games per second: medians over ``runs`` batches of different seeded games."""
    walls, cpus = [], []
    for run in range(runs + 1):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        for seed in range(first_seed + run * games, first_seed + (run + 1) * games):
            play_game(policies, seed)
        if run:  # the first batch warms the caches
            walls.append(time.perf_counter() - start_wall)
            cpus.append(time.process_time() - start_cpu)
    return games / statistics.median(walls), games / statistics.median(cpus)


# --------------------------------------------------------------------------- connectivity


def random_temples(count: int, seed: int = 0) -> list[Temple]:
    rng = random.Random(seed)
    ids = [f"R{i:02d}" for i in range(1, 18)]
    temples = []
    for _ in range(count):
        temple = Temple()
        for tile in rng.sample(ids, 9):
            temple = temple.place(rng.choice(temple.legal_cells()), tile, rng.randrange(4))
        temples.append(temple)
    return temples


def naive_connected_spots(temple: Temple) -> set:
    """The obvious fixed-point method (the tests' oracle)."""
    return brute_force_connectivity(temple)[0]


def bench_connectivity() -> None:
    layouts = random_temples(300)

    def fresh_graph_search():
        for temple in layouts:
            Temple(temple.tiles, temple.cells, temple.relics).connected_spots()  # a new object: no cache

    def naive():
        for temple in layouts:
            naive_connected_spots(temple)

    fast = median_time(fresh_graph_search, 7) / len(layouts)
    slow = median_time(naive, 5) / len(layouts)
    print(f"connectivity of a full temple: {fast * 1e6:.1f} µs per recomputation "
          f"(naive fixed-point {slow * 1e6:.1f} µs, {slow / fast:.1f}x slower)")


# --------------------------------------------------------------------------- commitment analysis


def bench_commitment() -> None:
    hand = ["STK-01", "STK-05", "REL-03", "REL-11", "CRD-09"]

    def cold():
        analysis._pools_cached.cache_clear()
        analysis._points_counts.cache_clear()
        sticks._points_counts.cache_clear()
        analysis.commitment_table(hand, 2, True)

    fast_cold = median_time(cold, 7)
    fast_warm = median_time(lambda: analysis.commitment_table(hand, 2, True), 7)
    naive = median_time(lambda: analysis.naive_commitment_table(hand, 2, True), 3)
    print(f"commitment analysis, 5-card hand vs 2 unknown cards: {fast_cold * 1000:.1f} ms cold, "
          f"{fast_warm * 1000:.1f} ms warm (target < 100 ms); naive per-set method {naive * 1000:.0f} ms "
          f"({naive / fast_cold:.0f}x slower than cold)")


# --------------------------------------------------------------------------- tournaments


def bench_tournaments() -> None:
    rounds = [("heuristic", heuristic_policy, "random", random_policy, 60 if QUICK else 200),
              ("heuristic A", heuristic_policy, "heuristic B", heuristic_policy, 40 if QUICK else 100),
              ("random A", random_policy, "random B", random_policy, 200 if QUICK else 1000)]
    for name_a, a, name_b, b, games in rounds:
        result = tournament(a, b, games=games, seed=2026, names=(name_a, name_b), show_progress=False)
        print(result.summary())


def main() -> None:
    print("Nagaraja benchmarks (PLACEHOLDER teaching edition, Model A sticks)")
    wall, cpu = games_per_second((random_policy, random_policy), 20 if QUICK else 50, 5, 0)
    print(f"random vs random: {wall:.0f} games/s wall, {cpu:.0f} games/s CPU (target >= 100)")
    wall, cpu = games_per_second((heuristic_policy, random_policy), 5 if QUICK else 10, 3, 50_000)
    print(f"heuristic vs random: {wall:.1f} games/s wall, {cpu:.1f} games/s CPU")
    wall, cpu = games_per_second((heuristic_policy, heuristic_policy), 5 if QUICK else 10, 3, 60_000)
    print(f"heuristic vs heuristic: {wall:.1f} games/s wall, {cpu:.1f} games/s CPU")
    bench_connectivity()
    bench_commitment()
    bench_tournaments()


if __name__ == "__main__":
    main()
