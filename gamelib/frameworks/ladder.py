"""The skill ladder through OpenSpiel: gamelib's bots and OpenSpiel's information-set MCTS on the same deals.

``ladder_bots(game, simulations=(4, 16), shortlisted=(16,))`` gives the rungs in order: ``random``, ``greedy``
(Nagaraja's greedy bot is its heuristic bot, ``nagaraja.bots.greedy_policy is heuristic_policy``; Chakra has no
other heuristic policy), then for each budget in ``simulations`` ``ismcts_k``
(:func:`gamelib.frameworks.openspiel_game.ismcts_policy`: OpenSpiel's ``ISMCTSBot`` on every legal move with the
determinising resampler and the score-lead leaf evaluator), then for each budget in ``shortlisted``
``ismcts_k_topW``: the same ``ISMCTSBot`` on a shortlist of ``W`` moves at every decision node
(:func:`gamelib.frameworks.openspiel_game.shortlist`: greedy's best by its own lookahead in Chakra, greedy's move
and the best by the score lead after it in Nagaraja) whose leaves are valued after ``rollout_actions`` actions of
the greedy bot (:func:`gamelib.frameworks.openspiel_game.score_lead_evaluator`). ``play_ladder`` plays every
pairing of two rungs with ``core.tournament`` on the same seeded deals, each deal twice with the seats swapped,
and gives each bot's share of the wins in that pairing with its 95% interval (Wilson's when no game was tied,
``gamelib.design.metrics.share_estimate``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from itertools import combinations

from gamelib import core
from gamelib.design.metrics import share_estimate
from gamelib.frameworks import openspiel_game
from gamelib.simulate import Estimate

GAMES = {"chakra": ("python_gamelib_chakra", {"players": 2}), "nagaraja": ("python_gamelib_nagaraja", {})}
WIDTH = 4  # moves on a shortlisted search's list
ROLLOUT_ACTIONS = 20  # actions of the greedy bot from a shortlisted search's leaf before the score lead is read
FIRST_SHARE = 0.5  # a shortlisted search's prior on the first move of the shortlist (greedy's move)


def ladder_bots(
    game: str,
    simulations=(4, 16),
    seed: int = 0,
    shortlisted=(),
    width: int = WIDTH,
    rollout_actions: int = ROLLOUT_ACTIONS,
) -> dict:
    """The ladder's bots of ``"chakra"`` (two players) or ``"nagaraja"``, weakest rung first (by design); see the
    module docstring for the rungs."""
    import pyspiel

    bots = importlib.import_module(f"gamelib.{game}.bots")
    openspiel_game.register_all()
    name, params = GAMES[game]
    spiel_game = pyspiel.load_game(name, params)
    rungs = {"random": core.random_policy, "greedy": bots.greedy_policy}
    for budget in simulations:
        rungs[f"ismcts_{budget}"] = openspiel_game.ismcts_policy(spiel_game, budget, seed=seed)
    for budget in shortlisted:
        evaluator = openspiel_game.score_lead_evaluator(
            rollout_policy=bots.greedy_policy, rollout_actions=rollout_actions, seed=seed, first_share=FIRST_SHARE
        )
        rungs[f"ismcts_{budget}_top{width}"] = openspiel_game.ismcts_policy(
            spiel_game, budget, evaluator=evaluator, seed=seed, width=width, puct=True
        )
    return rungs


@dataclass(frozen=True)
class Pairing:
    """One pairing of the ladder: each bot's share of the wins over ``games`` games (deals x 2 seatings)."""

    first: str
    second: str
    first_share: Estimate
    second_share: Estimate
    games: int
    ties: int


def play_ladder(game: str, bots: dict, deals: int, seed: int = 0, pairings=None) -> list[Pairing]:
    """Every pairing of two bots (or the given ``(name, name)`` pairings) on ``deals`` seeded deals, seats swapped."""
    module = importlib.import_module(f"gamelib.{game}")
    setup = GAMES[game][1] if game == "chakra" else None
    results = []
    for first, second in pairings or combinations(bots, 2):
        records = core.tournament(module, [bots[first], bots[second]], deals, seed=seed, setup=setup, progress=False)
        shares = [record.policy_returns() for record in records]
        ties = sum(1 for share in shares if 0 < share[0] < 1)
        results.append(
            Pairing(
                first,
                second,
                share_estimate([s[0] for s in shares]),
                share_estimate([s[1] for s in shares]),
                len(records),
                ties,
            )
        )
    return results


def ladder_table(results: list[Pairing]) -> str:
    """A markdown table of the pairings."""
    lines = ["| pairing | first's win share (95%) | second's win share (95%) | games | ties |", "|---|---|---|---|---|"]
    for row in results:
        lines.append(
            f"| {row.first} v {row.second} | {row.first_share} | {row.second_share} | {row.games} | {row.ties} |"
        )
    return "\n".join(lines)
