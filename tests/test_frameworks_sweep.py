"""Random play through the PettingZoo and OpenSpiel adapters, and OpenSpiel's random_sim_test on Chakra (13 to
35 s a game), in ``make test-long`` only.

With ``GAMELIB_FRAMEWORK_SWEEP=full`` each game of Pangu, Nagaraja, the toy race, the studio's Pig and Bluff
(standing for any contract game) is played 10,000 times through both adapters, and Chakra's 10,000 are shared
between its player counts (3,334 with 2 players, 3,333 with 3 and with 4): about four hours on a 2-core machine,
mostly Chakra (a random game is 400 to 900 moves, about a second through each adapter). CI's ``make test-long``
plays the sizes in ``CI_GAMES``, which fit its time. Nothing may raise, and every number an adapter offers must
decode to a move gamelib applies (tests/test_frameworks.py's play_randomly). Chunks of 1,000 games so that a
failure names its seeds.
"""

from __future__ import annotations

import os

import pytest

from test_frameworks import IDS, SETUPS, load, play_randomly  # skips (or fails in CI) without the extra, as that file does

FULL_GAMES = {"pangu": 10_000, "chakra2": 3_334, "chakra3": 3_333, "chakra4": 3_333, "nagaraja": 10_000,
              "toy_race": 10_000, "pig": 10_000, "bluff": 10_000}
CI_GAMES = {"pangu": 1_000, "chakra2": 20, "chakra3": 20, "chakra4": 20, "nagaraja": 200, "toy_race": 1_000,
            "pig": 1_000, "bluff": 1_000}
GAMES = FULL_GAMES if os.environ.get("GAMELIB_FRAMEWORK_SWEEP") == "full" else CI_GAMES
CHUNK = 1_000
CASES = [(name, setup, start) for name, setup in zip(IDS, SETUPS) for start in range(0, GAMES[name], CHUNK)]


@pytest.mark.parametrize("name, setup, start", CASES, ids=[f"{name}-{start}" for name, _, start in CASES])
def test_random_play_offers_only_legal_moves(name, setup, start):
    game, options = setup
    play_randomly(game, options, range(start, min(start + CHUNK, GAMES[name])))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_chakra(players):
    """OpenSpiel's own API consistency test with serialisation, as tests/test_frameworks.py runs it on the others."""
    import pyspiel

    pyspiel.random_sim_test(load("chakra", {"players": players}), num_sims=3, serialize=True, verbose=False)
