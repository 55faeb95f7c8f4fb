"""Pangu benchmark: games per second, lookahead decisions per second, and bot win rates.

Run: ``.venv/bin/python bench/bench_pangu.py`` (add ``--quick`` for a short run).
Timings are the median of several runs, in CPU seconds of this process (one core); each fast method is compared with a naive method
run in the same process:

* greedy against a naive greedy that applies every legal action to a copy of the state
  and reads the placement's outcome from the log (legal-move enumeration);
* the one-turn lookahead planner (memo + dominance pruning) against the naive planner
  (every legal action, no memo) on the same decisions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gamelib.pangu import (
    SINGLE_VARIANTS,
    Rules,
    greedy_policy,
    lookahead_policy,
    new_game,
    random_policy,
    tournament,
)
from gamelib.pangu.bots import TurnPlanner, _shared_planner, play
from gamelib.simulate import seeds

SPEC_12 = {"random": "≈3%", "greedy": "≈61%", "lookahead": "≈70%"}
SPEC_12_GREEDY = {"defaults": "≈61%", "per_placement": "≈88%", "before_placement": "≈54%", "before_turn": "≈23%",
                  "after_recovery": "≈71%", "rotation": "≈65%", "reroll_penalty_1": "≈58%", "centre_match_2": "≈92%",
                  "YANG_LEFT": "≈61%", "RANDOM_centre": "(not given)", "4x3": "≈62%"}


def naive_greedy(state, rng=None):
    """Spec 12's greedy by brute force: apply every legal action and read its placement event."""
    best, best_key = None, None
    for position, action in enumerate(state.legal_actions()):
        event = [e for e in state.apply(action).log if e.kind == "placement"][-1]
        cheapest = state.cheapest_die(action.card)[1]
        if event.cost != cheapest:
            continue
        key = (event.rec - event.cost, -position)
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def median_rate(work, count: int, runs: int) -> float:
    """Median over ``runs`` of ``count / CPU seconds`` for ``work()``.

    CPU time of this process (one core), so other jobs on a shared machine do not skew it.
    """
    rates = []
    for _ in range(runs):
        start = time.process_time()
        work()
        rates.append(count / (time.process_time() - start))
    return statistics.median(rates)


def games_per_second(policy, games: int, runs: int) -> float:
    game_seeds = seeds(1, games)
    return median_rate(lambda: [play(policy, s) for s in game_seeds], games, runs)


def decision_states(count: int, cards_left: int) -> list:
    """Decision points of greedy games with ``cards_left`` revealed cards, in turns 1-3."""
    states = []
    for seed in range(10_000):
        state = new_game(seed=seed)
        while not state.is_terminal and state.turn <= 3:
            if len(state.revealed) == cards_left:
                states.append(state)
                break
            state = state.apply(greedy_policy(state))
        if len(states) == count:
            return states
    return states


def bench_speed(quick: bool) -> None:
    runs = 3 if quick else 5
    games = 300 if quick else 1000
    print(f"== Speed (median of {runs} runs, CPU time, one core) ==")
    random_rate = games_per_second(random_policy, games, runs)
    greedy_rate = games_per_second(greedy_policy, games, runs)
    naive_rate = games_per_second(naive_greedy, games // 10, runs)
    print(f"random policy : {random_rate:8.0f} games/s")
    print(f"greedy policy : {greedy_rate:8.0f} games/s   (target >= 1,000)")
    print(f"naive greedy  : {naive_rate:8.0f} games/s   -> greedy is {greedy_rate / naive_rate:.1f}x faster")

    start, cpu_start = time.perf_counter(), time.process_time()
    tournament({"greedy": greedy_policy}, Rules(), games=10_000, seed=2, show_progress=False)
    print(f"10,000-game greedy tournament: {time.process_time() - cpu_start:.2f} s CPU, "
          f"{time.perf_counter() - start:.2f} s wall   (target < 10 s)")

    two_left = decision_states(6 if quick else 12, cards_left=2)
    fast = median_rate(lambda: [TurnPlanner().best_action(s) for s in two_left], len(two_left), runs)
    naive = median_rate(lambda: [TurnPlanner(naive=True).best_action(s) for s in two_left], len(two_left),
                        1 if quick else 3)
    print(f"lookahead, 2 cards left : {fast:8.1f} decisions/s; naive planner {naive:6.2f}/s -> "
          f"{fast / naive:.0f}x faster")
    three_left = decision_states(5 if quick else 20, cards_left=3)
    fresh = median_rate(lambda: [TurnPlanner().best_action(s) for s in three_left], len(three_left), runs)
    print(f"lookahead, turn start (3 cards): {fresh:6.1f} decisions/s (fresh planner each time)")
    game_seeds = iter(seeds(3, 100))

    def one_fresh_game():
        _shared_planner.memo.clear()
        play(lookahead_policy, next(game_seeds))

    in_game = median_rate(one_fresh_game, 1, runs * 2)
    print(f"lookahead policy in play: {in_game:6.1f} games/s (10 decisions each; memo shared within a game)")


def bench_win_rates(quick: bool) -> None:
    print("\n== Win rates under the default rules (95% Wilson intervals) ==")
    sizes = {"random": 10_000, "greedy": 10_000, "lookahead": 2_000}
    if quick:
        sizes = {"random": 1000, "greedy": 1000, "lookahead": 100}
    policies = {"random": random_policy, "greedy": greedy_policy, "lookahead": lookahead_policy}
    for name, policy in policies.items():
        start = time.perf_counter()
        result = tournament({name: policy}, Rules(), games=sizes[name], seed=12, show_progress=False)[0]
        spread = sorted(result.final_karma.items())
        print(f"{name:10s} {result.win_rate.percent():40s} spec 12 {SPEC_12[name]:>5s}  "
              f"({time.perf_counter() - start:.0f} s)")
        print(f"{'':10s} final Karma -> games: {dict(spread)}")
    print("\n== Greedy under each one-parameter variant ==")
    games = 500 if quick else 4000
    for name, rules in SINGLE_VARIANTS.items():
        result = tournament({"greedy": greedy_policy}, rules, games=games, seed=13, show_progress=False)[0]
        print(f"{name:17s} {result.win_rate.percent():40s} spec 12 {SPEC_12_GREEDY[name]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--skip-win-rates", action="store_true")
    options = parser.parse_args()
    random.seed(0)
    bench_speed(options.quick)
    if not options.skip_win_rates:
        bench_win_rates(options.quick)


if __name__ == "__main__":
    main()
