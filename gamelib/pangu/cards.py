"""Pangu's components: the Ages cards and decks (pangu.md#deck), the centre cards and the grid (pangu.md#layout).

The shipped teaching deck lives in ``data/deck.json``. A user may load their own deck
(for example a transcription of a physical copy) with :func:`load_deck`; it is validated
with clear errors and nothing assumes the teaching deck's twin structure.
"""

from __future__ import annotations

from collections.abc import Iterable
import reprlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gamelib.core import read_json_file
from gamelib.datafiles import DamagedData, read_json

EDGES = ("TOP", "RIGHT", "BOTTOM", "LEFT")
"""Edge names, in the index order used everywhere (0..3); ``opposite(e) = (e + 2) % 4``."""

YIN, YANG = "YIN", "YANG"
COLOURS = (YIN, YANG)
DICE = ("BLUE", "WHITE")
ROLLS = tuple((blue, white) for blue in range(1, 7) for white in range(1, 7))
"""The 36 rolls ``(blue, white)`` of the two dice, in a fixed order."""
DECK_SIZE = 10  # as many cards as ring cells (pangu.md#deck)
TEACHING_DECK_PATH = Path(__file__).with_name("data") / "deck.json"


class DeckError(ValueError):
    """A deck file or list that does not describe a valid Pangu deck."""


@dataclass(frozen=True)
class AgeCard:
    """One Ages card: two numbers (blue and white) and four half circles."""

    id: str
    name: str
    blue: int
    white: int
    half: tuple[str, str, str, str]  # colours on TOP, RIGHT, BOTTOM, LEFT as printed

    def number(self, die: str) -> int:
        """The card's number printed in the colour of ``die`` ("BLUE" or "WHITE")."""
        return self.blue if die == "BLUE" else self.white

    def colour(self, edge: int | str, orientation: int = 0) -> str:
        """The half-circle colour on ``edge`` when the card lies at ``orientation`` (0 or 180)."""
        index = EDGES.index(edge) if isinstance(edge, str) else edge
        if orientation == 180:
            index = (index + 2) % 4
        return self.half[index]

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "blue": self.blue,
            "white": self.white,
            "half": dict(zip(EDGES, self.half)),
        }

    def __str__(self) -> str:
        halves = " ".join(f"{edge[0]}:{colour.title()}" for edge, colour in zip(EDGES, self.half))
        return f"{self.id} {self.name} (B{self.blue} W{self.white}; {halves})"


@dataclass(frozen=True)
class Deck:
    """An ordered, validated collection of Ages cards (the file order, not a shuffle)."""

    name: str
    cards: tuple[AgeCard, ...]

    def __post_init__(self):
        # by_id is read by the engine's inner loops (a plain dict is faster than __getitem__)
        object.__setattr__(self, "by_id", {card.id: card for card in self.cards})
        object.__setattr__(self, "ids", tuple(card.id for card in self.cards))

    def __getitem__(self, card_id: str) -> AgeCard:
        return self.by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, str) and card_id in self.by_id

    def __iter__(self):
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def to_dict(self) -> dict:
        return {"name": self.name, "cards": [card.to_dict() for card in self.cards]}


CARD_FIELDS = {"id", "name", "blue", "white", "half"}


def _card_from_record(record: Any, position: int) -> AgeCard:
    where = f"card {position + 1}"
    if not isinstance(record, dict):
        raise DeckError(f"{where} should be an object with id, name, blue, white and half, not {reprlib.repr(record)}")
    missing = sorted(CARD_FIELDS - record.keys())
    if missing:
        raise DeckError(f"{where} ({record.get('id', 'no id')}) is missing {', '.join(missing)}")
    unknown = sorted(record.keys() - CARD_FIELDS - {"twin"})
    if unknown:
        raise DeckError(f"{where} ({record['id']}) has unknown field(s) {', '.join(unknown)}")
    card_id, name = record["id"], record["name"]
    if not isinstance(card_id, str) or not card_id:
        raise DeckError(f"{where} needs a non-empty text id, not {reprlib.repr(card_id)}")
    if not isinstance(name, str):
        raise DeckError(f"card {card_id}'s name should be text, not {reprlib.repr(name)}")
    for die in ("blue", "white"):
        value = record[die]
        if type(value) is not int or not 1 <= value <= 6:
            raise DeckError(
                f"card {card_id}'s {die} number must be a whole number from 1 to 6, not {reprlib.repr(value)}"
            )
    half = record["half"]
    if not isinstance(half, dict):
        raise DeckError(f"card {card_id}'s half circles should map TOP, RIGHT, BOTTOM, LEFT to YIN or YANG")
    missing_edges = [edge for edge in EDGES if edge not in half]
    if missing_edges:
        raise DeckError(f"card {card_id} has no half-circle colour on {', '.join(missing_edges)}")
    extra_edges = sorted(set(half) - set(EDGES))
    if extra_edges:
        raise DeckError(f"card {card_id} has unknown edge(s) {', '.join(map(reprlib.repr, extra_edges))}")
    colours = []
    for edge in EDGES:
        colour = half[edge]
        if not isinstance(colour, str) or colour.upper() not in COLOURS:
            raise DeckError(f"card {card_id}'s {edge} half circle must be YIN or YANG, not {reprlib.repr(colour)}")
        colours.append(colour.upper())
    return AgeCard(card_id, name, record["blue"], record["white"], tuple(colours))


def deck_from_records(records: Iterable[Any], name: str = "custom deck") -> Deck:
    """Build a :class:`Deck` from card records (dicts as in the JSON file), validating each."""
    if isinstance(records, (str, bytes)) or not hasattr(records, "__iter__"):
        raise DeckError(f"a deck is a list of cards, not {type(records).__name__}")
    cards = tuple(_card_from_record(record, i) for i, record in enumerate(records))
    if len(cards) != DECK_SIZE:
        raise DeckError(f"a Pangu deck has exactly {DECK_SIZE} cards (one per ring cell), this one has {len(cards)}")
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise DeckError(f"card id {card.id} appears twice: ids must be unique")
        seen.add(card.id)
    return Deck(name, cards)


def load_deck(source: str | Path | dict | list | None = None) -> Deck:
    """Load and validate a deck: a JSON file path, a parsed document, or a list of card records.

    With no argument, the shipped teaching deck. A document is ``{"name": ..., "cards": [...]}``.
    Only this explicit call reads a file: saves go through :func:`deck_from_document`.
    """
    if source is None:
        return teaching_deck()
    if isinstance(source, (str, Path)):
        source = read_json_file(source, "the deck file", DeckError)
    return deck_from_document(source)


def deck_from_document(source: Any) -> Deck:
    """A deck from parsed data (a :class:`Deck`, a document or a list of records); never a file.

    A deck named like the built-in teaching deck must be the built-in deck: a copy edited
    without a new name is refused, so the name always means the same cards (a save naming it
    cannot change a card that has not been played yet).
    """
    if isinstance(source, Deck):
        deck = source
    elif isinstance(source, dict):
        if "cards" not in source:
            raise DeckError("a deck document needs a 'cards' list")
        name = source.get("name", "custom deck")
        if not isinstance(name, str):
            raise DeckError(f"a deck's name should be text, not {reprlib.repr(name)}")
        deck = deck_from_records(source["cards"], name)
    else:
        deck = deck_from_records(source)
    _check_not_a_changed_teaching_deck(deck)
    return deck


def _check_not_a_changed_teaching_deck(deck: Deck) -> None:
    builtin = teaching_deck()
    if deck.name != builtin.name or deck == builtin:
        return
    changed = next((card.id for card, original in zip(deck.cards, builtin.cards) if card != original), "order")
    raise DeckError(
        f"this deck is named {builtin.name!r} like the built-in deck, but its cards differ "
        f"(first difference: {changed}): give an edited deck a name of its own"
    )


@cache
def teaching_deck() -> Deck:
    """The shipped teaching deck (loaded once, after its checksum: the solver's tables are for these cards)."""
    document = read_json("pangu/data/deck.json")
    try:
        return deck_from_records(document["cards"], document["name"])
    except (DeckError, KeyError, TypeError) as problem:  # only if the checksums list a broken deck
        raise DamagedData(f"the teaching deck deck.json is damaged: {problem}") from None


# --------------------------------------------------------------------------- the grid (pangu.md#layout, pangu.md#parameters grid)


def turn_sizes(cards: int) -> list[int]:
    """How many cards each turn reveals from a deck of ``cards`` (pangu.md#turns: 10 -> 3, 3, 3, 1)."""
    sizes = []
    while cards > 0:
        size = min(3, cards - 1) if cards > 1 else 1
        sizes.append(size)
        cards -= size
    return sizes


@dataclass(frozen=True)
class Geometry:
    """A layout shape: cells are ``(row, col)``; internally a cell is ``row * cols + col``."""

    name: str
    rows: int
    cols: int
    centre_cells: tuple[tuple[int, int], tuple[int, int]]  # the first (left or upper) one first

    @property
    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    @property
    def ring(self) -> list[tuple[int, int]]:
        """The ring cells in row-major order."""
        return [cell for cell in self.cells if cell not in self.centre_cells]

    def index(self, cell: tuple[int, int]) -> int:
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
        """``(edge of cell, neighbour cell)`` for every cell sharing a full edge with ``cell``."""
        r, c = cell
        steps = ((0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1))  # TOP, RIGHT, BOTTOM, LEFT
        return [
            (edge, (r + dr, c + dc)) for edge, dr, dc in steps if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols
        ]


GEOMETRIES = {
    "3x4": Geometry("3x4", 3, 4, ((1, 1), (1, 2))),
    "4x3": Geometry("4x3", 4, 3, ((1, 1), (2, 1))),
}


class Layout:
    """Index tables of a geometry, built once per grid name, for the engine's inner loops."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self.size = geometry.rows * geometry.cols
        self.centre = tuple(geometry.index(cell) for cell in geometry.centre_cells)
        self.ring = tuple(geometry.index(cell) for cell in geometry.ring)
        self.cell_of = tuple(geometry.cell(i) for i in range(self.size))
        self.index_of = {cell: index for index, cell in enumerate(self.cell_of)}
        self.neighbours = tuple(
            tuple((edge, geometry.index(other)) for edge, other in geometry.neighbours(geometry.cell(i)))
            for i in range(self.size)
        )
        self.adjacent = tuple(tuple(other for _, other in pairs) for pairs in self.neighbours)


LAYOUTS = {name: Layout(geometry) for name, geometry in GEOMETRIES.items()}
