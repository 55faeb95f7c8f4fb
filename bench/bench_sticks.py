"""How fast are the exact fate-stick odds? (issue 2; figures go in the issue note)

For pools of 3, 12 and 36 sticks it prints the median time of `joint` and
`win_probability` (caches cleared before every run), next to two naive methods run
in the same process: brute-force enumeration of every face combination (only where
it finishes in seconds) and plain convolution of Fraction dictionaries (gamelib.Dist).
Then the worst case: `joint` is timed once on every pool of at most 36 sticks under
Models A and B, and the slowest pools are timed again (median of 15 runs) to name the
worst one. It also times the odds explorer's kernel work for one slider change (exact
odds, moments, the joint table for the heat map, both sweeps, and the JSON sent to the
page), with every cache cleared first, beside the time of the odds alone (a ratio);
pools of 12 + 12 + 12 sticks a side. Target: at most 5 ms per change. The stick
effects are timed too (they are computed only when one is chosen).

Times are CPU time of this process (time.process_time), so other work on a shared
machine does not inflate them; the explorer line also gives wall-clock time.

Run: .venv/bin/python bench/bench_sticks.py
"""

from __future__ import annotations

import statistics
import time

from gamelib import Dist
from gamelib.nagaraja import sticks

POOLS = {3: (1, 1, 1), 8: (3, 3, 2), 12: (4, 4, 4), 36: (12, 12, 12)}
BRUTE_FORCE_LIMIT = 8  # 4**8 = 65,536 combinations; 12 sticks would be 16.8 million
ALL_POOLS = [(b, w, g) for b in range(37) for w in range(37 - b) for g in range(37 - b - w)]


def clear_caches() -> None:
    from gamelib.nagaraja import explorer

    sticks._joint_cached.cache_clear()
    sticks._points_counts.cache_clear()
    sticks._joint_counts_cached.cache_clear()
    explorer._sweep.cache_clear()
    explorer._pool_moments.cache_clear()
    explorer._stick_moments.cache_clear()


def cpu_ms(function) -> float:
    clear_caches()
    start = time.process_time()
    function()
    return (time.process_time() - start) * 1000


def median_ms(function, repeats: int = 15) -> float:
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.process_time()
        function()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def naive_convolution(pool, model: str = "A") -> Dist:
    faces = sticks.load_faces(model)
    total = Dist.constant((0, 0))
    for colour, count in zip(sticks.COLOURS, pool):
        one = Dist.uniform(faces[colour])
        for _ in range(count):
            total = total + one
    return total


def main() -> None:
    print(
        f"{'sticks':>6} {'joint ms':>10} {'win_prob ms':>12} {'brute ms':>10} {'x faster':>9} "
        f"{'naive conv ms':>14} {'x faster':>9}"
    )
    for size, pool in POOLS.items():
        joint_ms = median_ms(lambda: sticks.joint(*pool))
        win_ms = median_ms(lambda: sticks.win_probability(pool, pool, True))
        assert Dist(sticks.joint(*pool)) == naive_convolution(pool)
        naive_ms = median_ms(lambda: naive_convolution(pool), repeats=3 if size > 12 else 7)
        if size <= BRUTE_FORCE_LIMIT:
            assert sticks.brute_force_joint(pool) == sticks.joint(*pool)
            brute_ms = median_ms(lambda: sticks.brute_force_joint(pool), repeats=3)
            brute = f"{brute_ms:10.2f} {brute_ms / joint_ms:9.0f}"
        else:
            brute = f"{'(skipped)':>10} {'':>9}"
        print(f"{size:6d} {joint_ms:10.3f} {win_ms:12.3f} {brute} {naive_ms:14.2f} {naive_ms / joint_ms:9.0f}")
    for model in ("A", "B"):
        worst_ms, worst = worst_pool(model)
        naive_ms = median_ms(lambda: naive_convolution(worst, model), repeats=3)
        assert Dist(sticks.joint(*worst, faces=model)) == naive_convolution(worst, model)
        print(
            f"worst of all {len(ALL_POOLS)} pools of up to 36 sticks, Model {model}: joint {worst_ms:.3f} ms "
            f"for {worst} (target < 5 ms); naive conv {naive_ms:.2f} ms, {naive_ms / worst_ms:.0f}x slower"
        )
    bench_explorer()


def worst_pool(model: str, finalists: int = 20) -> tuple[float, tuple[int, int, int]]:
    """One timed run of every pool, then the median of 15 runs for the slowest few."""
    once = sorted(ALL_POOLS, key=lambda pool: cpu_ms(lambda: sticks.joint(*pool, faces=model)), reverse=True)
    return max((median_ms(lambda: sticks.joint(*pool, faces=model)), pool) for pool in once[:finalists])


def bench_explorer() -> None:
    from gamelib.nagaraja.explorer import explore

    explorer = explore(free=True)
    explorer.set_pool(1, (12, 12, 12))
    explorer.set_pool(0, (12, 12, 12))
    for colour in ("WHITE", "BROWN"):
        slider = explorer.sliders[0][colour]
        kernel, odds = [], []
        for value in list(range(11, -1, -1)) + list(range(1, 13)):
            clear_caches()
            explorer.kernel_ms.clear()
            slider.value = value  # the observer runs refresh(), which records its CPU time
            kernel.append(explorer.kernel_ms[-1])
            odds.append(cpu_ms(lambda: sticks.compare(*explorer.pools)))
        k, o = statistics.median(kernel), statistics.median(odds)
        print(
            f"explorer, Elodie's {colour.lower()} slider 0-12 against 12+12+12 (every cache cleared): kernel "
            f"{k:.2f} ms per change (max {max(kernel):.2f}; target <= 5), odds alone {o:.2f} ms, ratio {k / o:.1f}; "
            f"{len(explorer.plots.data) / 1000:.1f} kB sent"
        )
        clear_caches()
        fresh = explore(free=True)
        fresh.set_pool(1, (12, 12, 12))
        fresh.set_pool(0, (12, 12, 12))
        fresh.kernel_ms.clear()
        for value in range(11, -1, -1):  # each pool seen for the first time; Marion's tables stay cached
            fresh.sliders[0][colour].value = value
        print(
            f"  as used (each of Elodie's pools new, Marion's cached): kernel {statistics.median(fresh.kernel_ms):.2f} ms "
            f"per change (max {max(fresh.kernel_ms):.2f}), ratio {statistics.median(fresh.kernel_ms) / o:.1f}"
        )
    bench_explorer_against_previous_path()
    for effect, chooser in (("PLUS2", None), ("DISCARD2", None), ("RETHROW2", "mine"), ("RETHROW2", "theirs")):
        for pools in (((0, 3, 0), (3, 1, 1)), ((12, 12, 12), (12, 12, 12))):
            ms = median_ms(lambda: sticks.win_probability_after(*pools, True, effect, "mine", chooser), repeats=5)
            print(f"effect {effect:8} chosen by {chooser or 'rule':6} {pools}: {ms:.2f} ms")


def previous_explorer_work(explorer) -> str:
    """The explorer's kernel work before issue 12's second pass, kept as the baseline: moments
    through ``sticks.moments`` (which validates the face table again on every call) and the
    heat map's rows walked by ``json.dumps`` as nested lists."""
    import json

    from gamelib.nagaraja.explorer import _sweep

    mine, theirs = explorer.pools
    sticks.compare(mine, theirs, explorer.faces)
    [sticks.moments(pool, faces=explorer.faces) for pool in (mine, theirs)]
    players = []
    for player, pool in enumerate(explorer.pools):
        counts, total = sticks.points_counts(pool, explorer.faces)
        entry = {
            "pool": list(pool),
            "total": f"{total:x}",
            "points": [[p, f"{c:x}"] for p, c in sorted(counts.items())],
            "sim": [],
            "heat": [],
        }
        if player == explorer.plots.heat_player:
            outcomes, joint_counts, _ = sticks.joint_table(pool, explorer.faces)
            entry["heat"] = [[p, n, f"{c:x}"] for (p, n), c in zip(outcomes, joint_counts)]
        players.append(entry)
    key = explorer._sweep_key(0, "WHITE")
    models = [{"name": model, "values": _sweep(*key, 12, model)} for model in sticks.MODELS]
    return json.dumps({"players": players, "models": models}, separators=(",", ":"))


def current_explorer_work(explorer) -> str:
    explorer._odds()
    return explorer._plot_data()


def bench_explorer_against_previous_path(rounds: int = 5) -> None:
    """Both paths on the same pools, alternately, every cache cleared: the ratio is not load drift."""
    from gamelib.nagaraja.explorer import explore

    explorer = explore(free=True)
    explorer.set_pool(1, (12, 12, 12))
    runs = {"current": [], "previous": []}
    for _ in range(rounds):
        per_round = {"current": [], "previous": []}
        for white in range(13):
            explorer.sliders[0]["WHITE"].value = white
            for name, work in (("current", current_explorer_work), ("previous", previous_explorer_work)):
                per_round[name].append(cpu_ms(lambda: work(explorer)))
        for name in runs:
            runs[name].append(statistics.median(per_round[name]))
    now, before = (statistics.median(runs[name]) for name in ("current", "previous"))
    print(
        f"explorer kernel work (odds + plot data), Elodie (k,12,12) for k = 0..12 v 12+12+12, every cache cleared, "
        f"{rounds} rounds: medians per round current {', '.join(f'{v:.2f}' for v in runs['current'])} ms; "
        f"previous path {', '.join(f'{v:.2f}' for v in runs['previous'])} ms; median {now:.2f} v {before:.2f} ms, "
        f"{before / now:.2f}x faster"
    )


if __name__ == "__main__":
    main()
