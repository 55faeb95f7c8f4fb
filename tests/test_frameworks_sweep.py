"""Random play through the PettingZoo and OpenSpiel adapters, 10,000 games per game (issue 27), and OpenSpiel's
random_sim_test on Chakra (13 to 35 s a game), in ``make test-long`` only.

Each game of Pangu, Nagaraja, the toy race, the studio's Pig and Bluff (standing for any contract game) is played 10,000 times through
both adapters; Chakra's 10,000 are shared between its player counts (3,334 with 2 players, 3,333 with 3 and
with 4), since a random Chakra game is about 400 to 900 moves. Nothing may raise, and every number an adapter
offers must decode to a move gamelib applies (tests/test_frameworks.py's play_randomly). Chunks of 1,000 games
so that a failure names its seeds.
"""

from __future__ import annotations

import pytest

from test_frameworks import IDS, SETUPS, load, play_randomly  # skips (or fails in CI) without the extra, as that file does

GAMES = {"pangu": 10_000, "chakra2": 3_334, "chakra3": 3_333, "chakra4": 3_333, "nagaraja": 10_000, "toy_race": 10_000,
         "pig": 10_000, "bluff": 10_000}
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
