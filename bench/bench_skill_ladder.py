"""The skill ladder in Chakra (two players) and Nagaraja through OpenSpiel (issue 27).

    PYTHONPATH=$PWD python bench/bench_skill_ladder.py                  # 20 deals per pairing
    PYTHONPATH=$PWD python bench/bench_skill_ladder.py --deals 4        # a smoke run
    PYTHONPATH=$PWD python bench/bench_skill_ladder.py --simulations 16 --shortlisted 16 64 --width 4
    PYTHONPATH=$PWD python bench/bench_skill_ladder.py --only greedy ismcts_16_top4   # one pairing

Rungs (:mod:`gamelib.frameworks.ladder`): random; greedy (Nagaraja's greedy bot is its heuristic bot);
``ismcts_k``, OpenSpiel's information-set MCTS (``ismcts.ISMCTSBot``) on every legal move with the determinising
resampler and the score-lead leaf evaluator, for each budget of ``--simulations``; ``ismcts_k_topW``, the same bot
on a shortlist of ``--width`` moves at every decision (greedy's best by its own lookahead in Chakra, greedy's move
and the best by score lead after it in Nagaraja), PUCT with the prior ``ladder.FIRST_SHARE`` on greedy's move, and
leaves valued after ``--rollout-actions`` actions of the greedy bot, for each budget of ``--shortlisted``. Every
pairing plays the same seeded deals, each twice with the seats swapped; the table gives each bot's share of the
wins with its 95% interval (Wilson's when nothing tied) and the CPU seconds of the pairing, one row as each
pairing ends.
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations

from gamelib.frameworks.ladder import ROLLOUT_ACTIONS, WIDTH, ladder_bots, ladder_table, play_ladder

SEED = 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, nargs="*", default=[16])
    parser.add_argument("--shortlisted", type=int, nargs="*", default=[16])
    parser.add_argument("--width", type=int, default=WIDTH)
    parser.add_argument("--rollout-actions", type=int, default=ROLLOUT_ACTIONS)
    parser.add_argument("--games", nargs="+", default=["nagaraja", "chakra"])
    parser.add_argument("--only", nargs=2, metavar=("FIRST", "SECOND"), help="play this one pairing")
    options = parser.parse_args()
    for game in options.games:
        bots = ladder_bots(
            game,
            tuple(options.simulations),
            seed=SEED,
            shortlisted=tuple(options.shortlisted),
            width=options.width,
            rollout_actions=options.rollout_actions,
        )
        print(f"\n## {game}: {options.deals} deals per pairing, seats swapped\n")
        header, rule = ladder_table([]).splitlines()
        print(f"{header} CPU s |\n{rule}---|", flush=True)
        for pairing in [tuple(options.only)] if options.only else combinations(bots, 2):  # a row as each ends
            start = time.process_time()
            row = ladder_table(play_ladder(game, bots, options.deals, seed=SEED, pairings=[pairing])).splitlines()[-1]
            print(f"{row} {time.process_time() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
