"""Chakra benchmarks: move generation, games per second, and seat win rates of the greedy bot.

Run: ``.venv/bin/python bench/bench_chakra.py`` (``--quick`` for a short run). Every timing
is the median of several runs, next to a naive method run in the same process:
* enumeration: the brute-force oracle (try every candidate action with ``apply``);
* random games: the same games with every legal-action list made by the brute-force oracle
  (one game: it is slow);
* greedy games: the same games played by today's greedy evaluation before issue 8 (kept verbatim
  in ``chakra_reference_greedy.py``; the games must be identical), and by the plain lookahead
  (simulate each action, then score the whole board);
* greedy games against the old engine itself (commit ``BASELINE_COMMIT``, taken from git): each
  engine in a fresh process, interleaved, on the same seeds, the final positions compared.
Targets from the issues: all legal actions of a mid-game position in under 5 ms; at least 50
random 2-player games per second; greedy games at least 3x faster than before issue 8.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the plain greedy rule lives with the tests

from chakra_reference_greedy import reference_greedy_policy  # noqa: E402
from chakra_support import plain_greedy_policy  # noqa: E402
from gamelib import core  # noqa: E402
from gamelib.chakra import Rules, new_game  # noqa: E402
from gamelib.chakra import actions as moves  # noqa: E402
from gamelib.chakra.bots import DEFAULT_MAX_ROUNDS, greedy_policy, random_policy, tournament  # noqa: E402
from gamelib.simulate import seeds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RANDOM_MAX_ROUNDS = 30  # random players never trigger the end (tokens locked in notches): the safeguard ends them


def load() -> str:
    """The machine's load beside each ratio: the machine is shared, and a ratio measured under load is noisier."""
    return f"load {os.getloadavg()[0]:.1f}"


def median_time(function, runs: int) -> float:
    """Median CPU time of this process over ``runs`` calls: the machine is shared, and CPU time is
    far less disturbed by other processes than wall-clock time."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def brute_force_random_policy(state, rng):
    """The naive random player: its choices come from the brute-force list of legal actions."""
    return rng.choice(moves.brute_force_legal_actions(state))


def mid_game_positions(players: int, count: int, seed: int) -> list:
    """Positions after 8 to 20 rounds of greedy play: boards with energies on several levels."""
    found = []
    for game_seed in seeds(seed, count):
        state = new_game(players=players, seed=game_seed, rules=Rules(max_rounds=40))
        rng = random.Random(game_seed)
        while not state.is_terminal:
            if 8 <= state.rounds_completed <= 20 and rng.random() < 0.3:
                found.append(state)
            state = state.apply(greedy_policy(state, rng))
    return found


def cold_legal_actions(state):
    moves._listing.cache_clear()  # the listings kept by legal_actions: every call lists the actions afresh
    return state.legal_actions()


def bench_enumeration(runs: int, quick: bool) -> None:
    positions = mid_game_positions(2, 4 if quick else 10, 1) + mid_game_positions(4, 2 if quick else 5, 2)
    sizes = [len(p.legal_actions()) for p in positions]
    print(
        f"mid-game positions: {len(positions)}, legal actions per position: median {statistics.median(sizes)}, "
        f"max {max(sizes)}"
    )

    def all_cold():
        for p in positions:
            cold_legal_actions(p)

    brute_sample = positions[:: max(1, len(positions) // (5 if quick else 15))]

    def all_brute():
        for p in brute_sample:
            moves.brute_force_legal_actions(p)

    per_fast = median_time(all_cold, runs) / len(positions)
    per_brute = median_time(all_brute, max(1, runs // 2)) / len(brute_sample)
    worst = max(median_time(lambda p=p: cold_legal_actions(p), runs) for p in positions)
    print(
        f"legal_actions: {per_fast * 1e3:.3f} ms per position (median of {runs} runs; "
        f"slowest position {worst * 1e3:.3f} ms; target < 5 ms)"
    )
    print(
        f"  brute-force oracle: {per_brute * 1e3:.1f} ms per position, same process "
        f"(ratio {per_brute / per_fast:.0f}x, {len(brute_sample)} positions)"
    )


def bench_games(runs: int, quick: bool) -> None:
    games = 10 if quick else 40
    for players in (2, 4):
        for name, policy, max_rounds in (
            ("random", random_policy, RANDOM_MAX_ROUNDS),
            ("greedy", greedy_policy, DEFAULT_MAX_ROUNDS),
        ):
            count = games if name == "random" else max(4, games // 4)
            game_seeds = seeds(10 + players, count)
            rules = Rules(max_rounds=max_rounds)

            def play_all(policy=policy, game_seeds=game_seeds):
                return [core.play(new_game(seed=s, rules=rules, players=players), policy, seed=s) for s in game_seeds]

            finals = play_all()
            rounds = statistics.mean(f.rounds_completed for f in finals)
            natural = sum(f.end_triggered for f in finals)
            fast = median_time(play_all, runs) / count
            print(
                f"{name} {players}-player games: {1 / fast:.1f} games/s ({fast * 1e3:.1f} ms per game, "
                f"median of {runs} runs; {rounds:.1f} rounds on average, {natural}/{count} ended by the rules, "
                f"max_rounds {max_rounds})"
            )
            if name == "random":
                naive = median_time(lambda: play_all(brute_force_random_policy, game_seeds[:1]), 1)
                print(
                    f"  naive random player (brute-force legal actions), one game: {naive * 1e3:.0f} ms "
                    f"(ratio {naive / fast:.0f}x)"
                )
            else:
                for label, naive_policy in (
                    ("before issue 8 (today's method, kept in the bench)", reference_greedy_policy),
                    ("plain lookahead (simulate, then score the whole board)", plain_greedy_policy),
                ):
                    naive_finals = play_all(naive_policy)
                    assert [f.to_json() for f in naive_finals] == [f.to_json() for f in finals]  # same games
                    naive = median_time(lambda p=naive_policy: play_all(p), runs) / count
                    print(
                        f"  {label}: {naive * 1e3:.1f} ms per game (ratio {naive / fast:.2f}x, identical games; {load()})"
                    )


# The old engine itself (BASELINE_COMMIT, before issue 8), taken from git and timed in its own process
# against this engine in another fresh process, on the same seeds: greedy games, final positions compared.
BASELINE_COMMIT = "a051ccf"
OLD_ENGINE_SCRIPT = """
import json, sys, time
from gamelib.chakra.bots import greedy_policy, play_game
from gamelib.chakra.rules import Rules
players, first, games = map(int, sys.argv[1:4])
rules = Rules(max_rounds=100)
play_game(players, [greedy_policy] * players, 0, rules=rules)  # warm the caches
start = time.process_time()
finals = [play_game(players, [greedy_policy] * players, seed, rules=rules) for seed in range(first, first + games)]
cpu = time.process_time() - start
"""
NEW_ENGINE_SCRIPT = """
import json, sys, time
from gamelib import core
from gamelib.chakra import Rules, new_game
from gamelib.chakra.bots import greedy_policy
players, first, games = map(int, sys.argv[1:4])
rules = Rules(max_rounds=100)
play = lambda seed: core.play(new_game(seed=seed, rules=rules, players=players), greedy_policy, seed=seed)
play(0)  # warm the caches
start = time.process_time()
finals = [play(seed) for seed in range(first, first + games)]
cpu = time.process_time() - start
"""
POSITION_DIGEST = """
def digest(state):  # the final position in fields both engines share
    boards = [[list(map(list, b.levels)), b.earth, b.reserve, sorted(b.spaces), sorted(b.notches), list(b.meditation)]
              for b in state.players]
    return [boards, list(state.bag), list(map(list, state.maya)), list(state.turns), state.removed_blacks]
print(json.dumps({"cpu": cpu, "finals": [digest(f) for f in finals]}))
"""


def engine_batch(script: str, folder: Path, players: int, first: int, games: int) -> tuple[float, list]:
    environment = dict(os.environ, PYTHONPATH=str(folder))
    result = subprocess.run(
        [sys.executable, "-c", script + POSITION_DIGEST, str(players), str(first), str(games)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(result.stdout)
    return data["cpu"], data["finals"]


def bench_old_engine(runs: int, quick: bool) -> None:
    """Greedy games per CPU second against the engine of BASELINE_COMMIT, each in a fresh process, in pairs
    of batches on the same seeds run one after the other: the ratio is the median of the pairs' ratios (a
    slow spell of this shared machine slows both batches of a pair)."""
    folder = Path(tempfile.mkdtemp(prefix="chakra-baseline-"))
    try:
        archive = subprocess.run(
            ["git", "archive", BASELINE_COMMIT, "gamelib"], cwd=ROOT, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    except (OSError, subprocess.CalledProcessError):
        print("greedy games against the old engine: no git, so no old engine to compare with")
        return
    games = 3 if quick else 6
    for players in (2, 4):
        ours, theirs, ratios = [], [], []
        for run in range(runs):
            first = 500 + run * games
            batches = [(OLD_ENGINE_SCRIPT, folder), (NEW_ENGINE_SCRIPT, ROOT)]
            if run % 2:  # each engine goes first every other run: a load that rises or falls favours neither
                batches.reverse()
            timed = {script: engine_batch(script, where, players, first, games) for script, where in batches}
            (their_cpu, their_finals), (our_cpu, our_finals) = timed[OLD_ENGINE_SCRIPT], timed[NEW_ENGINE_SCRIPT]
            if our_finals != their_finals:
                raise AssertionError(f"the engines played different {players}-player games on seeds {first}..")
            theirs.append(games / their_cpu)
            ours.append(games / our_cpu)
            ratios.append(their_cpu / our_cpu)
        print(
            f"greedy {players}-player games: {statistics.median(ours):.1f} games per CPU second, the engine of "
            f"{BASELINE_COMMIT} {statistics.median(theirs):.1f} on the same seeds (identical final positions; {runs} "
            f"pairs of batches of {games} games, each engine in a fresh process): {statistics.median(ratios):.2f}x, "
            f"the median of the pairs' ratios (from {min(ratios):.2f}x to {max(ratios):.2f}x; target >= 3x; {load()})"
        )


def bench_seats(quick: bool) -> None:
    for players, games in ((2, 60 if quick else 400), (3, 40 if quick else 300), (4, 40 if quick else 300)):
        start = time.perf_counter()
        result = tournament(greedy_policy, games=games, players=players, seed=2024, show_progress=False)
        print(f"greedy vs greedy, {players} players ({time.perf_counter() - start:.0f} s):")
        print("  " + result.summary().replace("\n", "\n  "))
        print(
            "  score distribution (all seats): "
            + ", ".join(f"{score}:{n}" for score, n in sorted(result.score_distribution().items()))
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--skip-seats", action="store_true", help="skip the seat win-rate tournaments")
    args = parser.parse_args()
    runs = 3 if args.quick else 5
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; "
        "times are CPU time of this process"
    )
    bench_enumeration(runs, args.quick)
    bench_games(runs, args.quick)
    bench_old_engine(runs, args.quick)
    if not args.skip_seats:
        bench_seats(args.quick)


if __name__ == "__main__":
    main()
