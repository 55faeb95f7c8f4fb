"""The adapters' cheaper observation bytes (issue 27's sweep cost) are byte for byte the old ones.

``numbering.canonical_json(observation, float_free=True)`` lets orjson write the canonical JSON of the three games'
observations; the old path, kept as the oracle, is the standard library's encoder with sorted keys and no spaces
(``numbering._CANONICAL``, the encoder the adapters used up to main 118c468). Checked: every escape (each code point
up to U+07FF, the line separators, astral characters, in keys and values), what orjson refuses (integers beyond 64
bits, non-string keys: the standard library's bytes), and every seat's observation at every position of seeded
random games of Pangu, Chakra (2, 3, 4 players) and Nagaraja, several thousand in all.

orjson comes with the frameworks extra: without it this file is skipped with a message, except where
GAMELIB_REQUIRE_FRAMEWORKS=1 (CI) turns the missing package into a failure."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random

import pytest

if importlib.util.find_spec("orjson") is None:
    _why = "orjson is not installed (pip install -e '.[frameworks]')"
    if os.environ.get("GAMELIB_REQUIRE_FRAMEWORKS") == "1":
        raise RuntimeError(f"GAMELIB_REQUIRE_FRAMEWORKS=1 but {_why}")
    pytest.skip(_why, allow_module_level=True)

from gamelib.core import CHANCE, sample_outcome  # noqa: E402
from gamelib.frameworks import numbering  # noqa: E402

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
# (game, setup, games): under GAMELIB_LONG_TESTS=1 about 1,000-6,000 observations each, a fifth of that in make test
GAMES = [
    ("pangu", {}, 120 if LONG else 24),
    ("chakra", {"players": 2}, 2 if LONG else 1),
    ("chakra", {"players": 3}, 1),
    ("chakra", {"players": 4}, 1),
    ("nagaraja", {}, 30 if LONG else 6),
]


def oracle(observation) -> bytes:
    """The old bytes: the standard library's canonical encoder."""
    return numbering._CANONICAL.encode(observation).encode()


def test_every_escape_is_the_standard_librarys():
    points = [*range(0x800), 0x2028, 0x2029, 0xFEFF, 0xFFFF, 0x10000, 0x1F600]
    for point in points:
        char = chr(point)
        seen = {f"k{char}": [char, f"a{char}b"], char: 1, "b": None, "a": True, "n": -3, "z": {"y": [], "x": {}}}
        assert numbering.canonical_json(seen, float_free=True) == oracle(seen), hex(point)


@pytest.mark.parametrize("seen", [{"big": 2**64}, {"low": -(2**63) - 1}, {1: "a", 2: "b"}, [2**70, {"x": 1}]])
def test_what_orjson_refuses_goes_to_the_standard_library(seen):
    assert numbering.canonical_json(seen, float_free=True) == oracle(seen)


def test_floats_keep_the_standard_librarys_bytes_unless_declared_absent():
    seen = {"x": 1e16, "y": 1e-5, "z": float("nan"), "w": 0.5}
    assert numbering.canonical_json(seen) == oracle(seen) == b'{"w":0.5,"x":1e+16,"y":1e-05,"z":NaN}'


@pytest.mark.parametrize(("game", "setup", "games"), GAMES, ids=[f"{g}{s.get('players', '')}" for g, s, _ in GAMES])
def test_the_three_games_observations_encode_exactly_as_before(game, setup, games):
    shape = numbering.shape(game, **setup)
    assert shape.float_free
    rng = random.Random(27)
    count = 0
    for _ in range(games):
        state = shape.new_game(rng.getrandbits(32), explicit_chance=True)
        while True:
            for seat in range(shape.players):
                seen = state.observation(seat)
                old = oracle(seen)
                assert numbering.canonical_json(seen, shape.float_free) == old
                encoded = numbering.encode_observation(seen, shape.observation_bytes, shape.float_free)
                assert bytes(encoded[: len(old)]) == old and not encoded[len(old) :].any()
                count += 1
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state = state.apply(sample_outcome(state.chance_outcomes(), rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))
    assert count >= (1000 if LONG else 200), count
