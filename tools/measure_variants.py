"""Reproduce every measured figure on the rules pages (docs/rules/*.md).

Each figure is a seeded simulation with the engines and bots of this repository, printed with
its 95% interval (Wilson for rates, normal for means; ``gamelib.simulate``). Same master seed,
same figures. The pages quote the output of

    nice .venv/bin/python tools/measure_variants.py            # all three games
    nice .venv/bin/python tools/measure_variants.py pangu      # one game

Every rule set of one game is played on the same derived game seeds, so variants are compared
on the same deals (and the same shuffles for Chakra and Nagaraja).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamelib.simulate import mean, proportion, seeds  # noqa: E402

SEED = 2026  # the master seed of every figure on the pages

PANGU_GAMES = {"random": 10_000, "greedy": 10_000, "lookahead": 2_000}
CHAKRA_GAMES = 400
NAGARAJA_GAMES = 1_000


# --------------------------------------------------------------------------- Pangu


def pangu() -> None:
    from gamelib.pangu import bots
    from gamelib.pangu.rules import SINGLE_VARIANTS, Rules

    print("## Pangu (win rate of one bot, the same deals for every rule set)")
    for name in ("random", "greedy", "lookahead"):
        games = PANGU_GAMES[name]
        (result,) = bots.tournament({name: bots.POLICIES[name]}, Rules(), games=games, seed=SEED, show_progress=False)
        print(f"{name:>9} | default rules | {result.win_rate.percent()}")
    greedy = {"greedy": bots.greedy_policy}
    extra = {"starting_karma=9": Rules(starting_karma=9), "starting_karma=11": Rules(starting_karma=11)}
    for label, rules in {**SINGLE_VARIANTS, **extra}.items():
        (result,) = bots.tournament(greedy, rules, games=PANGU_GAMES["greedy"], seed=SEED, show_progress=False)
        print(f"   greedy | {label} ({rules}) | {result.win_rate.percent()}")
    print()


# --------------------------------------------------------------------------- Chakra


def chakra() -> None:
    from gamelib.core import play
    from gamelib.chakra import bots
    from gamelib.chakra.rules import Rules, new_game

    variants = {
        "default": {},
        "colour_cap=None": {"colour_cap": None},
        "bonus_min_run=0": {"bonus_min_run": 0},
        "swap_discard_to_bag=True": {"swap_discard_to_bag": True},
        "allow_repeat_meditation=True": {"allow_repeat_meditation": True},
    }
    games = CHAKRA_GAMES
    print(
        f"## Chakra (greedy against greedy, 2 players, seat 0 first, {games} games per rule set,"
        f" max_rounds={bots.DEFAULT_MAX_ROUNDS} as a safeguard)"
    )
    for label, changes in variants.items():
        rules = Rules(max_rounds=bots.DEFAULT_MAX_ROUNDS, **changes)
        finals = [
            play(new_game(seed=game_seed, rules=rules, players=2), bots.greedy_policy, seed=game_seed)
            for game_seed in seeds(SEED, games)
        ]
        scores = [score for final in finals for score in final.scores()]
        ties = sum(len(final.winners) > 1 for final in finals)
        seat0 = sum(final.winner == 0 for final in finals)
        natural = sum(final.end_triggered for final in finals)
        no_red = sum(max(board.run() for board in final.players) == 0 for final in finals)
        print(
            f"{label} | rounds {mean([f.rounds_completed for f in finals])}"
            f" | score per player {mean(scores)}"
            f" | seat 0 wins alone {proportion(seat0, games).percent()}"
            f" | tie {proportion(ties, games).percent()}"
            f" | ended by the rules {proportion(natural, games).percent()}"
            f" | nobody has RED harmonized {proportion(no_red, games).percent()}"
        )
    print()


# --------------------------------------------------------------------------- Nagaraja


def nagaraja() -> None:
    from gamelib.nagaraja import bots
    from gamelib.nagaraja.edition import default_edition

    games = NAGARAJA_GAMES
    print(f"## Nagaraja ({games} games per line, seats alternate, the same seeds for both stick models)")
    for model in ("A", "B"):
        edition = default_edition(model)
        for opponent_name, opponent in (("heuristic", bots.heuristic_policy), ("random", bots.random_policy)):
            result = bots.tournament(
                bots.heuristic_policy,
                opponent,
                games=games // 2,
                seed=SEED,
                edition=edition,  # deals
                names=("heuristic", opponent_name),
                show_progress=False,
            )
            reasons = ", ".join(f"{reason} {share.percent()}" for reason, share in result.reason_shares().items())
            print(
                f"model {model} | heuristic vs {opponent_name} | first named wins {result.win_rate(0).percent()}"
                f" | guide wins the room {result.guide_room_rate().percent()}"
                f" | first guide wins the game {result.first_guide_win_rate().percent()}"
                f" | rounds {result.game_length()} | ends: {reasons}"
            )
    print()


GAMES = {"pangu": pangu, "chakra": chakra, "nagaraja": nagaraja}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)} (default: all)")
    chosen = parser.parse_args(argv).games or list(GAMES)
    unknown = sorted(set(chosen) - set(GAMES))
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(GAMES)}")
    for name in chosen:
        random.seed(SEED)  # nothing should depend on the global generator; this makes sure
        GAMES[name]()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
