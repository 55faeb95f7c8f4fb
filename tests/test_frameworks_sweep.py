"""Random play through the adapters, and OpenSpiel's random_sim_test on Chakra, in ``make test-long`` only.

CI (``make test-long``) plays 10,000 random games of Pangu, the toy race, the studio's Pig and Bluff (standing
for any contract game), Nagaraja and Chakra through the OpenSpiel game, the path where every offered number is decoded and
applied by gamelib's checked ``State.apply`` and the offered numbers must be as many as gamelib lists moves
(tests/test_frameworks.py's play_openspiel_randomly), and fewer through the PettingZoo env, whose mask must equal
gamelib's listing (play_pettingzoo_randomly). A random Nagaraja game through OpenSpiel costs about 26 ms of CPU
(gamelib's explicit-chance game), about 4 1/2 minutes of one core for the 10,000, shared by the two workers.

Chakra's 10,000 games through OpenSpiel (3,334 with 2 players, 3,333 with 3 and with 4) are mostly short ones.
Random players never end a Chakra game by the rules (their tokens stay locked in the notches): every random
game runs to the ``max_rounds`` safeguard, 200 rounds by default, that is 400 to 800 decisions of 70 to 110 moves
each, 0.14, 0.24 and 0.34 s of CPU with 2, 3 and 4 players on this 2-core machine, about 40 minutes of one core
for 10,000. So 20 games per player count play the full 200 rounds (``OPENSPIEL_CI``), and the rest play the same
game under the rules parameter ``max_rounds=SHORT_ROUNDS`` (``CHAKRA_SHORT_CI``): the same rules, the same checks,
only cut at round 10. They cover the opening (empty boards filling, the Maya's refills, every kind of move, the end
at the safeguard) thousands of times, and the full-length games the jammed boards of the late rounds. PettingZoo
plays 5 full-length and 300 short games per player count. Measured in CPU time on the shared machine (load 10
to 26): this file's Chakra tests took 4 min 52 s, of which the 9,940 short games through OpenSpiel about 3 min
(15 to 20 ms a game), the 900 through PettingZoo about 35 s, the 75 full-length games about 25 s and OpenSpiel's
random_sim_test about 55 s.

``GAMELIB_FRAMEWORK_SWEEP=full`` plays 10,000 full-length games per game through both adapters (Chakra's shared
between its player counts: 3,334 with 2 players, 3,333 with 3 and with 4). Chunks of 2,500 games so that a failure
names its seeds.
"""

from __future__ import annotations

import os

import pytest

from test_frameworks import (
    IDS,
    SETUPS,
    load,
    play_openspiel_randomly,
    play_pettingzoo_randomly,
)  # skips (or fails in CI) without the extra

from gamelib.chakra import Rules as ChakraRules
from gamelib.frameworks import openspiel_game

FULL_GAMES = {
    "pangu": 10_000,
    "chakra2": 3_334,
    "chakra3": 3_333,
    "chakra4": 3_333,
    "nagaraja": 10_000,
    "toy_race": 10_000,
    "pig": 10_000,
    "bluff": 10_000,
}
OPENSPIEL_CI = {
    "pangu": 10_000,
    "chakra2": 20,
    "chakra3": 20,
    "chakra4": 20,
    "nagaraja": 10_000,
    "toy_race": 10_000,
    "pig": 10_000,
    "bluff": 10_000,
}
PETTINGZOO_CI = {
    "pangu": 1_000,
    "chakra2": 5,
    "chakra3": 5,
    "chakra4": 5,
    "nagaraja": 100,
    "toy_race": 1_000,
    "pig": 1_000,
    "bluff": 1_000,
}
# Chakra's short games (see the docstring): the rest of 10,000 through OpenSpiel after OPENSPIEL_CI's full-length ones
SHORT_ROUNDS = 10
CHAKRA_SHORT_CI = {
    "openspiel": {2: 3_334 - 20, 3: 3_333 - 20, 4: 3_333 - 20},
    "pettingzoo": {2: 300, 3: 300, 4: 300},
}
SHORT_OPENSPIEL_NAME = "chakra_short"  # registered below as openspiel_game.PREFIX + this, with SHORT_ROUNDS
FULL = os.environ.get("GAMELIB_FRAMEWORK_SWEEP") == "full"
CHUNK = 2_500
PLAYERS = {"openspiel": play_openspiel_randomly, "pettingzoo": play_pettingzoo_randomly}


def cases():
    for adapter, sizes in (("openspiel", OPENSPIEL_CI), ("pettingzoo", PETTINGZOO_CI)):
        for name, setup in zip(IDS, SETUPS):
            games = FULL_GAMES[name] if FULL else sizes[name]
            for start in range(0, games, CHUNK):
                yield pytest.param(
                    adapter, setup, range(start, min(start + CHUNK, games)), id=f"{adapter}-{name}-{start}"
                )


def short_chakra_setup(adapter: str, players: int) -> tuple:
    """The (game, options) of a short Chakra game for an adapter: PettingZoo takes the rules, OpenSpiel a game
    registered with them (its parameters are numbers and strings)."""
    rules = ChakraRules(max_rounds=SHORT_ROUNDS)
    if adapter == "pettingzoo":
        return "chakra", {"players": players, "rules": rules}
    openspiel_game.register(
        "chakra", openspiel_game.PREFIX + SHORT_OPENSPIEL_NAME, rules=rules, parameters={"players": 2}
    )
    return SHORT_OPENSPIEL_NAME, {"players": players}


def short_cases():
    if FULL:
        return
    for adapter, sizes in CHAKRA_SHORT_CI.items():
        for players, games in sizes.items():
            for start in range(0, games, CHUNK):
                seeds = range(100_000 + start, 100_000 + min(start + CHUNK, games))  # not the full-length games' seeds
                yield pytest.param(adapter, players, seeds, id=f"{adapter}-chakra{players}-short-{start}")


@pytest.mark.parametrize("adapter, players, seeds", list(short_cases()))
def test_random_short_chakra_games_offer_only_legal_moves(adapter, players, seeds):
    """Chakra under max_rounds=SHORT_ROUNDS, with the checks of every other game (the docstring says why short)."""
    game, options = short_chakra_setup(adapter, players)
    PLAYERS[adapter](game, options, seeds)
    if adapter == "openspiel":  # the registered game is Chakra with these players under the short rules
        start = load(game, options).new_initial_state().gamelib_state
        assert (len(start.players), start.rules) == (players, ChakraRules(max_rounds=SHORT_ROUNDS))


@pytest.mark.parametrize("adapter, setup, seeds", list(cases()))
def test_random_play_offers_only_legal_moves(adapter, setup, seeds):
    game, options = setup
    PLAYERS[adapter](game, options, seeds)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_chakra(players):
    """OpenSpiel's own API consistency test with serialisation, as tests/test_frameworks.py runs it on the others."""
    import pyspiel

    pyspiel.random_sim_test(load("chakra", {"players": players}), num_sims=3, serialize=True, verbose=False)
