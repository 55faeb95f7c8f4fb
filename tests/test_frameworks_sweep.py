"""Random play through each framework adapter, 10,000 games per game, and OpenSpiel's random_sim_test on Chakra, in
``make test-long`` only.

What CI (``make test-long``, GAMELIB_LONG_TESTS=1) plays, per adapter (``GAMES``):

* **OpenSpiel** and **PettingZoo**: 10,000 random games each of Pangu, Chakra (2, 3 and 4 players sharing the 10,000:
  3,334, 3,333 and 3,333), Nagaraja, the toy race, the studio's Pig and Bluff (these three standing for any contract
  game);
* **Gymnasium** (its single-agent envs): 10,000 each of Pangu, Chakra (shared as above) and Nagaraja, the learner's
  seat ``seed % players`` and every other seat played by gamelib's ``random_policy`` (the cheapest opponent, and a
  legitimate one: every one of its moves is a uniform choice among gamelib's listing, applied through the checked
  ``State.apply``).

So 150,000 games in all. At every decision the numbers the adapter offers (OpenSpiel's ``legal_actions()``, the
PettingZoo and Gymnasium action mask) must be exactly those of gamelib's own listing of the position, and the chosen
number goes through the adapter's step, which decodes it and applies it through gamelib's checked ``State.apply``
(an illegal move raises ``IllegalMove``); every game must end, PettingZoo paying and Gymnasium rewarding gamelib's
returns (tests/test_frameworks.py's play_openspiel_randomly, play_pettingzoo_randomly, play_gymnasium_randomly).
PettingZoo and Gymnasium build the observation of every step as a learner reads it (``last()``, ``step()``), so an
observation beyond the encoding's bound would raise here too. Each adapter is driven for its own games: nothing is
shared between them but the rules.

Chakra's games are mostly short ones, for each adapter. Random players never end a Chakra game by the rules (their
tokens stay locked in the notches): every random game runs to the ``max_rounds`` safeguard, 200 rounds by default,
that is 400 to 800 decisions of 70 to 110 moves each, 0.1 to 0.25 s of CPU through OpenSpiel with 2 to 4 players
(PettingZoo up to twice that), half an hour or more of one core for 10,000 through one adapter. So 20
games per player count and adapter play the full 200 rounds (``CHAKRA_FULL``), and the rest play the same game under
the rules parameter ``max_rounds=SHORT_ROUNDS``: the same rules, the same checks, only cut at round 10. They cover
the opening (empty boards filling, the Maya's refills, every kind of move, the end at the safeguard) thousands of
times, and the full-length games the jammed boards of the late rounds. OpenSpiel plays the short rules as a game
registered with them (``python_gamelib_chakra_short``: its parameters are numbers and strings); PettingZoo and
Gymnasium take the rules themselves.

The cost (docs/frameworks.md has the figures): about 540 worker-seconds for this file in the last recorded
clean-clone run of .ci/run (tests/durations_long.json), about 40% of the long session; a random Nagaraja game
takes about 6.4 ms of CPU through OpenSpiel, 8.6 through PettingZoo (the observation and its JSON bytes at every
step) and 6.4 through Gymnasium on that machine, and Nagaraja is about half of the file.
Chunks of ``CHUNK`` games, each a test of its own, so that the two CI workers share them (tests/conftest.py's
SPLIT_ACROSS_WORKERS) and a failure names its seeds.

``GAMELIB_FRAMEWORK_SWEEP=full`` plays all 10,000 per game and adapter full-length (Chakra's too).
"""

from __future__ import annotations

import os

import pytest

from test_frameworks import (
    IDS,
    SETUPS,
    load,
    play_gymnasium_randomly,
    play_openspiel_randomly,
    play_pettingzoo_randomly,
)  # skips (or fails in CI) without the extra

from gamelib.chakra import Rules as ChakraRules
from gamelib.frameworks import openspiel_game

GAMES = {
    "pangu": 10_000,
    "chakra2": 3_334,
    "chakra3": 3_333,
    "chakra4": 3_333,
    "nagaraja": 10_000,
    "toy_race": 10_000,
    "pig": 10_000,
    "bluff": 10_000,
}
ADAPTER_GAMES = {  # the setups each adapter plays (Gymnasium seats a learner in the three games)
    "openspiel": IDS,
    "pettingzoo": IDS,
    "gymnasium": ["pangu", "chakra2", "chakra3", "chakra4", "nagaraja"],
}
CHAKRA_FULL = 20  # full-length Chakra games per player count and adapter; the rest of GAMES are short (docstring)
SHORT_ROUNDS = 10
SHORT_OPENSPIEL_NAME = "chakra_short"  # registered below as openspiel_game.PREFIX + this, with SHORT_ROUNDS
SHORT_SEEDS = 100_000  # the short games' seeds start here, apart from the full-length games'
FULL = os.environ.get("GAMELIB_FRAMEWORK_SWEEP") == "full"
CHUNK = 2_000
PLAYERS = {
    "openspiel": play_openspiel_randomly,
    "pettingzoo": play_pettingzoo_randomly,
    "gymnasium": play_gymnasium_randomly,
}


def full_length_games(name: str) -> int:
    if name.startswith("chakra") and not FULL:
        return CHAKRA_FULL
    return GAMES[name]


def chunks(games: int, first_seed: int = 0):
    for start in range(0, games, CHUNK):
        yield start, range(first_seed + start, first_seed + min(start + CHUNK, games))


def cases():
    for adapter, names in ADAPTER_GAMES.items():
        for name in names:
            setup = SETUPS[IDS.index(name)]
            for start, seeds in chunks(full_length_games(name)):
                yield pytest.param(adapter, setup, seeds, id=f"{adapter}-{name}-{start}")


def short_cases():
    if FULL:
        return
    for adapter, names in ADAPTER_GAMES.items():
        for name in names:
            if name.startswith("chakra"):
                players = int(name[-1])
                for start, seeds in chunks(GAMES[name] - CHAKRA_FULL, SHORT_SEEDS):
                    yield pytest.param(adapter, players, seeds, id=f"{adapter}-chakra{players}-short-{start}")


def short_chakra_setup(adapter: str, players: int) -> tuple:
    """The (game, options) of a short Chakra game for an adapter: PettingZoo and Gymnasium take the rules, OpenSpiel a
    game registered with them (its parameters are numbers and strings)."""
    rules = ChakraRules(max_rounds=SHORT_ROUNDS)
    if adapter != "openspiel":
        return "chakra", {"players": players, "rules": rules}
    openspiel_game.register(
        "chakra", openspiel_game.PREFIX + SHORT_OPENSPIEL_NAME, rules=rules, parameters={"players": 2}
    )
    return SHORT_OPENSPIEL_NAME, {"players": players}


def test_the_sweep_plays_10000_games_per_game_through_each_adapter():
    """The counts the docstring states: every adapter's setups add up to 10,000 games per game (Chakra's three player
    counts together), full-length and short games together."""
    played = {}
    for case in [*cases(), *short_cases()]:
        adapter, setup_or_players, seeds = case.values
        game = "chakra" if isinstance(setup_or_players, int) else setup_or_players[0]
        game = game if isinstance(game, str) else game.__name__.rsplit(".", 1)[-1]
        played[adapter, game] = played.get((adapter, game), 0) + len(seeds)
    expected = {}
    for adapter, names in ADAPTER_GAMES.items():
        for name in names:
            game = "chakra" if name.startswith("chakra") else name
            game = {"toy_race": "toy_game"}.get(game, game)
            expected[adapter, game] = expected.get((adapter, game), 0) + GAMES[name]
    assert played == expected and set(played.values()) == {10_000}


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
