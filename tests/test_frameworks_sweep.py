"""Random play through the adapters, and OpenSpiel's random_sim_test on Chakra, in ``make test-long`` only.

CI (``make test-long``) plays 10,000 random games of Pangu, the toy race, the studio's Pig and Bluff (standing
for any contract game) through the OpenSpiel game, the path where every offered number is decoded and applied
by gamelib's checked ``State.apply`` (tests/test_frameworks.py's play_openspiel_randomly), and fewer through the
PettingZoo env, whose mask must equal gamelib's listing (play_pettingzoo_randomly). Nagaraja and Chakra get the
sizes in ``OPENSPIEL_CI`` and ``PETTINGZOO_CI``: the adapter costs them little over gamelib (OpenSpiel's path
is gamelib's own explicit-chance game, bench/bench_frameworks.py), but a random game of gamelib itself is long.
Measured in CPU time through OpenSpiel on this 2-core machine: Nagaraja 34 ms a game, Chakra 0.14, 0.24 and
0.34 s with 2, 3 and 4 players (up to 600 decisions); their 10,000 games would take about 6 and 40 minutes of
one core, against 4 minutes of CPU (6 minutes beside another test run on 2 cores) for this whole file as
sized for CI, 2 of them OpenSpiel's random_sim_test on Chakra.
``GAMELIB_FRAMEWORK_SWEEP=full`` plays 10,000 games per game through both adapters (Chakra's shared between its
player counts: 3,334 with 2 players, 3,333 with 3 and with 4). Chunks of 2,500 games so that a failure names its
seeds.
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
    "nagaraja": 4_000,
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


@pytest.mark.parametrize("adapter, setup, seeds", list(cases()))
def test_random_play_offers_only_legal_moves(adapter, setup, seeds):
    game, options = setup
    PLAYERS[adapter](game, options, seeds)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_chakra(players):
    """OpenSpiel's own API consistency test with serialisation, as tests/test_frameworks.py runs it on the others."""
    import pyspiel

    pyspiel.random_sim_test(load("chakra", {"players": players}), num_sims=3, serialize=True, verbose=False)
