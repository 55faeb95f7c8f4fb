"""Pangu, a solo game of cards, two dice and Karma (rules: ``docs/rules/pangu.md``), on the engine contract.

``new_game(seed=7)`` deals a game (``deck=``/``rolls=`` script one, ``rules=Rules(...)`` picks a
variant, ``explicit_chance=True`` stops at each shuffle draw and roll); ``state.legal_actions()``
lists :class:`Action` values and ``state.apply(action)`` returns the next state or raises
``gamelib.IllegalMove``. The modules: ``cards`` (the deck and the grid), ``actions`` (moves, events,
applying), ``rules`` (``Rules``, ``State``, ``new_game``), ``saving`` and ``view`` (saves, the
observation and the text board, bound to ``State`` here), ``bots``, ``board`` (the live board), and
the analysis modules ``odds`` (exact odds) and ``guide`` (commentary for the lessons).
"""

from gamelib.pangu import saving, view
from gamelib.pangu.actions import (
    LOST,
    ONGOING,
    WON,
    Action,
    GameEnd,
    Placement,
    Roll,
    ScriptExhausted,
    Setup,
    StuckPenalty,
    TurnStart,
)
from gamelib.pangu.cards import AgeCard, Deck, DeckError, Geometry, load_deck, teaching_deck, turn_sizes
from gamelib.pangu.rules import SINGLE_VARIANTS, Rules, State, new_game
from gamelib.pangu.saving import GAME, SAVE_VERSION

State.bind(saving, view)

from gamelib.pangu.bots import greedy_policy, lookahead_policy, lookahead_values, random_policy  # noqa: E402

__all__ = [
    "GAME",
    "LOST",
    "ONGOING",
    "SAVE_VERSION",
    "SINGLE_VARIANTS",
    "WON",
    "Action",
    "AgeCard",
    "Deck",
    "DeckError",
    "GameEnd",
    "Geometry",
    "Placement",
    "Roll",
    "Rules",
    "ScriptExhausted",
    "Setup",
    "State",
    "StuckPenalty",
    "TurnStart",
    "greedy_policy",
    "load_deck",
    "lookahead_policy",
    "lookahead_values",
    "new_game",
    "random_policy",
    "teaching_deck",
    "turn_sizes",
]
