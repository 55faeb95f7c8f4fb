"""Cards, their effects and the amulets and relics (nagaraja.md#card-list, nagaraja.md#effects, nagaraja.md#amulets, nagaraja.md#relics).

The data (which card has which sticks and effect) lives in ``data/*.json``; this
module holds what the engine knows about each effect *name*: the symbol it belongs
to, whom it may target, and a sentence for students. A user's edition may deal the
effects out differently, but it can only use effect names the engine implements.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from itertools import combinations

SYMBOLS = ("STK", "REL", "ROM", "CRD")
SYMBOL_NAMES = {"STK": "sticks", "REL": "relics", "ROM": "rooms", "CRD": "cards"}
STICK_LETTERS = {"B": "BROWN", "W": "WHITE", "G": "GREEN"}
COLOURS = ("BROWN", "WHITE", "GREEN")


class Target(enum.Enum):
    """Who an effect may act on (the arrows around a card's symbol; colour is cosmetic)."""

    SELF = "SELF"
    OPPONENT = "OPPONENT"
    EITHER = "EITHER"


@dataclass(frozen=True)
class EffectInfo:
    name: str
    symbol: str
    target: Target
    text: str


EFFECTS: dict[str, EffectInfo] = {
    info.name: info
    for info in (
        EffectInfo("PLUS2", "STK", Target.SELF, "+2 to your total this round"),
        EffectInfo("RETHROW2", "STK", Target.EITHER, "throw again 1 or 2 current sticks of either player"),
        EffectInfo("DISCARD2", "STK", Target.OPPONENT, "the opponent discards 2 of their current sticks"),
        EffectInfo("PEEK", "REL", Target.SELF, "look at one face-down relic of your temple"),
        EffectInfo("SWAP", "REL", Target.EITHER, "swap two relics of either temple"),
        EffectInfo(
            "PEEK2_SWAP", "REL", Target.SELF, "look at two face-down relics of your temple, then swap them or not"
        ),
        EffectInfo("ROTATE", "ROM", Target.EITHER, "turn a room tile of either temple 1, 2 or 3 quarter-turns"),
        EffectInfo(
            "MOVE_SWAP", "ROM", Target.EITHER, "move a room to a legal empty cell, or swap two rooms, in either temple"
        ),
        EffectInfo("TRAP", "ROM", Target.OPPONENT, "put the trap on a cell of the opponent's temple"),
        EffectInfo("DRAW2", "CRD", Target.SELF, "draw 2 cards"),
        EffectInfo("OPP_DISCARD", "CRD", Target.OPPONENT, "a random card of the opponent's hand is discarded"),
        EffectInfo("STEAL", "CRD", Target.OPPONENT, "take a random card from the opponent's hand"),
    )
}

AMULET_EFFECTS = {
    "AM_PLUS2": "+2 to your total this round",
    "AM_RETHROW1": "throw one of your current sticks again",
    "AM_NAGA": "one extra Naga for this round",
    "AM_PEEK": "look at one face-down relic of your temple",
}


@dataclass(frozen=True)
class Card:
    """A card: its symbol, the sticks it lets its owner throw, and its effect."""

    id: str
    symbol: str
    sticks: str
    effect: str

    @property
    def target(self) -> Target:
        return EFFECTS[self.effect].target

    @property
    def pool(self) -> tuple[int, int, int]:
        """(brown, white, green) sticks printed on the card."""
        return (self.sticks.count("B"), self.sticks.count("W"), self.sticks.count("G"))

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "symbol": self.symbol,
            "sticks": self.sticks,
            "effect": self.effect,
            "target": self.target.value,
        }

    def __str__(self) -> str:
        return f"{self.id} [{self.sticks} | {self.effect}]"


@dataclass(frozen=True)
class Amulet:
    id: str
    vp: int
    effect: str | None

    def to_dict(self) -> dict:
        return {"id": self.id, "vp": self.vp, "effect": self.effect}


@dataclass(frozen=True)
class Relic:
    id: str
    vp: int
    cursed: bool

    def __str__(self) -> str:
        return f"{'cursed' if self.cursed else 'sacred'} {self.vp}"


def pool_of(cards) -> tuple[int, int, int]:
    """The sticks of several cards added up, as (brown, white, green)."""
    brown = white = green = 0
    for card in cards:
        b, w, g = card.pool
        brown, white, green = brown + b, white + w, green + g
    return (brown, white, green)


def commitments(hand) -> list[tuple[str, ...]]:
    """Every legal Call-of-Fate commitment: non-empty sets of hand cards sharing one symbol.

    ``hand`` holds Card objects; each commitment is a sorted tuple of card ids. An empty
    hand can only commit nothing (nagaraja.md#edge-cases).
    """
    if not hand:
        return [()]
    by_symbol: dict[str, list[str]] = {}
    for card in hand:
        by_symbol.setdefault(card.symbol, []).append(card.id)
    options = []
    for ids in by_symbol.values():
        ids = sorted(ids)
        for size in range(1, len(ids) + 1):
            options.extend(combinations(ids, size))
    return sorted(options)
