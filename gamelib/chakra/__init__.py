"""Chakra (Luka Krleža, BLAM!, 2019) for 2-4 players: an exact rules engine (rules: ``docs/rules/chakra.md``),
bots, a planner and a live board. ``new_game(seed, rules, players=2)`` starts a game; the pieces live in
``components``, the actions in ``actions``, ``Rules``/``State`` in ``rules``, saves in ``saving``, the
observation and text board in ``view``, bots in ``bots``, the board in ``board``; ``planning`` and
``scoring`` are the lessons' analysis, ``positions.position`` builds hand-made positions.
"""

from gamelib.chakra import saving, view
from gamelib.chakra.components import (
    BHAGYA,
    BLACK,
    CHAKRAS,
    COLOUR_NAMES,
    COLOURS,
    DARK_BLUE,
    DOWN,
    EARTH,
    GREEN,
    LETTERS,
    LEVEL_NAMES,
    LIGHT_BLUE,
    ORANGE,
    PURPLE,
    RED,
    SPACE_EFFECTS,
    SPACE_NUMBERS,
    SPACE_PATTERNS,
    SPACES,
    UP,
    YELLOW,
    PlayerBoard,
    colour_id,
    level_id,
    space_id,
)
from gamelib.chakra.actions import Channel, Meditate, Receive, Step, completions, next_steps, swap_colours
from gamelib.chakra.rules import Rules, State, new_game
from gamelib.chakra.saving import GAME, SAVE_VERSION
from gamelib.chakra.positions import position
from gamelib.chakra.scoring import final_scores, run_length, winners
from gamelib.chakra.bots import greedy_policy, random_policy, tournament
from gamelib.chakra.planning import fewest_actions

State.bind(saving, view)

__all__ = [
    "GAME",
    "SAVE_VERSION",
    "Rules",
    "State",
    "new_game",
    "position",
    "BHAGYA",
    "BLACK",
    "CHAKRAS",
    "COLOUR_NAMES",
    "COLOURS",
    "DARK_BLUE",
    "DOWN",
    "EARTH",
    "GREEN",
    "LETTERS",
    "LEVEL_NAMES",
    "LIGHT_BLUE",
    "ORANGE",
    "PURPLE",
    "RED",
    "SPACE_EFFECTS",
    "SPACE_NUMBERS",
    "SPACE_PATTERNS",
    "SPACES",
    "UP",
    "YELLOW",
    "PlayerBoard",
    "colour_id",
    "level_id",
    "space_id",
    "Channel",
    "Meditate",
    "Receive",
    "Step",
    "completions",
    "next_steps",
    "swap_colours",
    "final_scores",
    "run_length",
    "winners",
    "greedy_policy",
    "random_policy",
    "tournament",
    "fewest_actions",
]
