"""Nagaraja: a two-player temple duel of fate sticks, cards, rooms and relics.

``new_game(seed=None, rules=None, *, explicit_chance=False, edition=None)`` starts a duel on the
shared engine contract (``gamelib.core``); the modules follow the floor plan: the components
``cards``, ``temple``, ``edition``, ``sticks`` and ``position``, then ``chance``, ``actions``
(every action type and its effect), ``rules`` (``Rules``, ``State``, ``new_game``), ``saving``,
``view`` (observation and text board), ``bots`` and ``board``; ``analysis`` and ``explorer``
compute the odds. The component data is the PLACEHOLDER teaching edition of nagaraja.md#editions,
in ``gamelib/nagaraja/data/*.json``, replaceable without touching code.
"""

from gamelib.nagaraja import saving, view
from gamelib.nagaraja.bots import greedy_policy, heuristic_policy, random_policy
from gamelib.nagaraja.actions import (
    Cell,
    Commit,
    DiscardTile,
    Keep,
    Move,
    NoParams,
    Pass,
    PlaceTile,
    Rotate,
    Spot,
    SpotPair,
    Sticks,
    Swap,
    SwapChoice,
    UseAmulet,
    UseNaga,
    describe_result,
)
from gamelib.nagaraja.cards import Amulet, Card, Relic, Target
from gamelib.nagaraja.edition import (
    Edition,
    EditionError,
    TileDef,
    check_against_rules_text,
    default_edition,
    load_edition,
)
from gamelib.nagaraja.position import Result, check_invariants
from gamelib.nagaraja.rules import Rules, State, new_game
from gamelib.nagaraja.saving import GAME, SAVE_VERSION
from gamelib.nagaraja.temple import RELIC_SPOTS, SPOTS, Temple

State.bind(saving, view)

__all__ = [
    "GAME",
    "SAVE_VERSION",
    "Rules",
    "State",
    "new_game",
    "random_policy",
    "greedy_policy",
    "heuristic_policy",
    "Amulet",
    "Card",
    "Cell",
    "Commit",
    "DiscardTile",
    "Edition",
    "EditionError",
    "Keep",
    "Move",
    "NoParams",
    "Pass",
    "PlaceTile",
    "RELIC_SPOTS",
    "Relic",
    "Result",
    "Rotate",
    "SPOTS",
    "Spot",
    "SpotPair",
    "Sticks",
    "Swap",
    "SwapChoice",
    "Target",
    "Temple",
    "TileDef",
    "UseAmulet",
    "UseNaga",
    "check_against_rules_text",
    "check_invariants",
    "default_edition",
    "describe_result",
    "load_edition",
]
