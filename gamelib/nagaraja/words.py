"""The duel board's words: every text the Nagaraja board shows, in the words printed on the cards.

The engine names things by code (symbols ``ROM``, effects ``PEEK2_SWAP``, phases ``CALL_OF_FATE``,
relic spots ``TOP_1``, colours ``GREEN``, action classes ``UseNaga``): that keeps its logs and saves
exact. A student reads what the card face shows instead: the symbol's name ("rooms"), the effect's
title ("peek at 2, swap") and the colour in plain words. :func:`plain` rewrites any engine text for
the board (its messages, events, move labels); :data:`EFFECT_TITLES` is what the board prints on a card.
A card keeps its id (``ROM-2``), which the card face prints in its corner, and a stick its id (``G3``),
printed under the stick.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gamelib.nagaraja.cards import AMULET_EFFECTS, EFFECTS, SYMBOL_NAMES

EFFECT_TITLES = {
    "PLUS2": "+2",
    "RETHROW2": "throw 2 again",
    "DISCARD2": "discard 2 sticks",
    "PEEK": "peek at a relic",
    "SWAP": "swap 2 relics",
    "PEEK2_SWAP": "peek at 2, swap",
    "ROTATE": "turn a room",
    "MOVE_SWAP": "move or swap rooms",
    "TRAP": "trap",
    "DRAW2": "draw 2 cards",
    "OPP_DISCARD": "opponent discards",
    "STEAL": "steal a card",
}
AMULET_TITLES = {
    "AM_PLUS2": "+2",
    "AM_RETHROW1": "throw 1 again",
    "AM_NAGA": "extra Naga",
    "AM_PEEK": "peek at a relic",
}
PHASES = {
    "CALL_OF_FATE": "the Call of Fate",
    "CONFRONTATION": "the Confrontation",
    "EXPLORATION": "the Exploration",
    "NEW_DEAL": "the new deal",
    "GAME_OVER": "the end of the game",
}
DOINGS = {
    "Commit": "committing cards",
    "Keep": "keeping cards",
    "PlaceTile": "placing a room",
    "Pass": "passing",
    "UseNaga": "using a Naga",
    "UseAmulet": "using an amulet",
    "SwapChoice": "the swap choice",
    "DiscardTile": "discarding the room",
}
COLOURS = {"BROWN": "brown", "WHITE": "white", "GREEN": "green", "VIRTUAL": "virtual (amulet)"}
SPOT_SIDES = {"TOP": "top", "LEFT": "left", "RIGHT": "right", "ENTRANCE": "entrance"}

assert set(EFFECT_TITLES) == set(EFFECTS) and set(AMULET_TITLES) == set(AMULET_EFFECTS), (
    "every effect the engine implements needs a printed title"
)

_CARD = re.compile(r"\b([A-Z]{3}-\d+) \[([BWG]*) \| ([A-Z0-9_]+)\]")
_PHASE_CLAUSE = re.compile(r"\b(" + "|".join(DOINGS) + r")\b(?= is not possible now| belongs to)")
_SPOT = re.compile(r"\b(TOP|LEFT|RIGHT|ENTRANCE)_(\d)\b")


def _alternation(words) -> re.Pattern:
    """Whole-word codes, longest first (PEEK2_SWAP before PEEK); a card id like ROM-2 is not a code."""
    return re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")(?![\w-])")


_EFFECT = _alternation(list(EFFECT_TITLES) + list(AMULET_TITLES))
_SYMBOL = _alternation(SYMBOL_NAMES)
_PHASE = _alternation(PHASES)
_COLOUR = _alternation(COLOURS)
_TITLES = {**EFFECT_TITLES, **AMULET_TITLES}
CODES = re.compile(
    _EFFECT.pattern
    + "|"
    + _SYMBOL.pattern
    + "|"
    + _PHASE.pattern
    + "|"
    + _COLOUR.pattern
    + r"|\b(TOP|LEFT|RIGHT|ENTRANCE)_\d\b|\b("
    + "|".join(DOINGS)
    + r")\b|\b[A-Z]\w*\("
)
"""Any engine code, or a Python call such as ``NoParams()``: what no text on the board may hold (for tests)."""


def effect_title(effect: str | None) -> str:
    """The title a card or an amulet prints for ``effect`` ("" for none)."""
    return _TITLES.get(effect, effect or "")


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """``text`` in the words printed on the cards: "these have ROM, STK" -> "these have rooms, sticks".

    Cached (a pure function of the text): a board rewrites the same move labels and messages at
    every position it shows, seven regular-expression passes each.
    """
    text = _CARD.sub(lambda m: f"{m[1]} [{m[2]} | {effect_title(m[3])}]", text)
    text = _PHASE_CLAUSE.sub(lambda m: DOINGS[m[1]], text)
    text = _PHASE.sub(lambda m: PHASES[m[1]], text)
    text = _EFFECT.sub(lambda m: f"“{effect_title(m[1])}”", text)
    text = _SYMBOL.sub(lambda m: SYMBOL_NAMES[m[1]], text)
    text = _COLOUR.sub(lambda m: COLOURS[m[1]], text)
    return _SPOT.sub(lambda m: f"{SPOT_SIDES[m[1]]} spot {m[2]}", text)
