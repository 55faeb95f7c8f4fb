"""The skill ladder in Chakra (two players) and Nagaraja through OpenSpiel (issue 27).

    PYTHONPATH=$PWD python bench/bench_skill_ladder.py                 # 20 deals per pairing
    PYTHONPATH=$PWD python bench/bench_skill_ladder.py --deals 4       # a smoke run
    PYTHONPATH=$PWD python bench/bench_skill_ladder.py --simulations 4 16 64

Rungs: random, greedy (Nagaraja's greedy bot is its heuristic bot), OpenSpiel's information-set MCTS
(``ismcts.ISMCTSBot``) with the determinising resampler and the score-lead leaf evaluator, for each budget
(:mod:`gamelib.frameworks.ladder`). Every pairing plays the same seeded deals, each twice with the seats
swapped; the table gives each bot's share of the wins with its 95% interval (Wilson's when nothing tied) and
the CPU seconds of the pairing, one row as each pairing ends.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations

from gamelib.frameworks.ladder import ladder_bots, ladder_table, play_ladder

SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, nargs="+", default=[4, 16])
    parser.add_argument("--games", nargs="+", default=["nagaraja", "chakra"])
    options = parser.parse_args()
    for game in options.games:
        bots = ladder_bots(game, tuple(options.simulations), seed=SEED)
        print(f"\n## {game}: {options.deals} deals per pairing, seats swapped\n")
        header, rule = ladder_table([]).splitlines()
        print(f"{header} CPU s |\n{rule}---|", flush=True)
        for pairing in combinations(bots, 2):  # one row at a time, as each pairing ends
            start = time.process_time()
            row = ladder_table(play_ladder(game, bots, options.deals, seed=SEED, pairings=[pairing])).splitlines()[-1]
            print(f"{row} {time.process_time() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
