"""The skill ladder in the three games: MCTS (gamelib.studio.mcts) against each game's greedy bot.

    PYTHONPATH=$PWD python bench/bench_mcts_ladder.py            # about 15 minutes on one free core
    PYTHONPATH=$PWD python bench/bench_mcts_ladder.py --quick    # a smoke run

Chakra and Nagaraja: each deal is played twice with the seats swapped (core.tournament: seeds
paired, seats rotated); the figure is MCTS's share of the wins with its 95% interval. Pangu is
solo: MCTS and greedy each play the same deals, and the figure is each bot's win rate plus the
paired difference (MCTS minus greedy) with its 95% interval. The budgets are small because the
machine is shared: Chakra's rollouts are cut after a few actions and scored by the lead
(mcts.score_lead); Pangu's play to the end.
"""

from __future__ import annotations

import argparse
import time

from gamelib import core
from gamelib.design.metrics import share_estimate
from gamelib.simulate import mean
from gamelib.studio.mcts import mcts_policy

# game name -> (module, the two budgets, deals at each, rollout limit)
PLAN = {
    "pangu": ("gamelib.pangu", (50, 200), 100, None),
    "nagaraja": ("gamelib.nagaraja", (8, 32), 12, 20),
    "chakra": ("gamelib.chakra", (8, 24), 8, 10),
}
SEED = 2026


def _module(name: str):
    import importlib

    module = importlib.import_module(name)
    importlib.import_module(name + ".bots")
    return module


def solo_ladder(module, budget: int, deals: int, rollout_limit) -> str:
    """MCTS and greedy on the same deals of a solo game: both win rates and the paired difference."""
    bot = mcts_policy(budget, rollout_limit=rollout_limit)
    mcts_games = core.tournament(module, [bot], deals, seed=SEED, progress=False)
    greedy_games = core.tournament(module, [module.bots.greedy_policy], deals, seed=SEED, progress=False)
    mcts_wins = [record.returns[0] for record in mcts_games]
    greedy_wins = [record.returns[0] for record in greedy_games]
    difference = mean([a - b for a, b in zip(mcts_wins, greedy_wins)])
    return f"MCTS {share_estimate(mcts_wins)}; greedy {share_estimate(greedy_wins)}; MCTS - greedy {difference}"


def duel_ladder(module, budget: int, deals: int, rollout_limit) -> str:
    """MCTS against greedy, each deal with the seats swapped: MCTS's share of the wins."""
    bot = mcts_policy(budget, rollout_limit=rollout_limit)
    records = core.tournament(module, [bot, module.bots.greedy_policy], deals, seed=SEED, progress=False)
    shares = [record.policy_returns()[0] for record in records]
    first_seat = [record.returns[0] for record in records]
    return f"MCTS's win share {share_estimate(shares)}; seat 0's {share_estimate(first_seat)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few deals only (a smoke run)")
    parser.add_argument("--games", nargs="*", default=list(PLAN), help="which games")
    arguments = parser.parse_args()
    for name in arguments.games:
        module_name, budgets, deals, rollout_limit = PLAN[name]
        module = _module(module_name)
        deals = 2 if arguments.quick else deals
        for budget in budgets:
            started = time.perf_counter()
            ladder = solo_ladder if name == "pangu" else duel_ladder
            line = ladder(module, budget, deals, rollout_limit)
            print(
                f"{name:9} MCTS {budget:3} simulations (rollout limit {rollout_limit}), {deals} deals: {line} "
                f"[{time.perf_counter() - started:.0f} s]",
                flush=True,
            )


if __name__ == "__main__":
    main()
