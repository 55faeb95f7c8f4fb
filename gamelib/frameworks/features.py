"""A numeric feature encoding of ``observation(player)`` for learners: one fixed slot per field.

The bytes encoding (:func:`gamelib.frameworks.numbering.encode_observation`) is exact but makes a network learn
to read JSON. This one gives every field of the observation its own fixed place in a float32 vector of fixed
length, from a *schema* of the game's observations (:func:`schema_of`):

* a number (``int``, ``bool``): one slot holding its value (``bool`` as 0/1); counts stay counts;
* a string (card and tile ids, colours, phases, event lines): ``width`` slots holding its UTF-8 bytes, then
  zeros (ids are short, so this is a handful of slots; every string of a field has the same slots);
* ``None`` (what the player cannot see: a hidden plenitude, a face-down relic's points, an opponent's hand):
  all of the field's slots 0, with the field's *kind* slots telling "hidden" from a shown 0;
* a field seen with several kinds (``None`` or a number, ``None`` or a dict) starts with one 0/1 slot per kind
  (one-hot of which kind it holds now), then each kind's slots; a field always of one kind has no kind slots;
* a list: one slot with its length, then ``limit`` item slots (zeros past the length); a list met always with the
  same length (the players, a board's cells) gets exactly that many, any other twice the longest met plus 4;
* a dict: its keys' slots in sorted key order (a key absent now: its slots 0, and its kind slot says so).

So equal observations give equal vectors and different ones different vectors (the test checks both over
random states): the encoding holds exactly what the observation holds. The schema of each game and setup is
measured from random games (``SCHEMA_GAMES`` of them, seeded) with room to spare: string widths and the limits
of lists of varying length twice what was met, plus a margin. An observation beyond the schema (a longer list, a longer string, a
key or a kind never met) raises a ``ValueError`` naming the field, rather than being cut.
``describe()`` lists every field's slots: the documentation of the layout.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from gamelib.core import CHANCE, sample_outcome
from gamelib.frameworks.numbering import encode_observation

KINDS = ("none", "bool", "int", "str", "list", "dict")  # JSON floats do not occur in the three games' observations
SCHEMA_GAMES = {"pangu": 40, "chakra": 2, "nagaraja": 8}
LIMIT = 1 << 24  # float32 holds every integer up to 2**24 exactly


def _kind(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    raise ValueError(f"an observation holds {value!r}, which the numeric encoding does not know (a float?)")


@dataclass
class Field:
    """The schema of one field (a path in the observation): the kinds met, and per kind what it needs."""

    kinds: set = field(default_factory=set)
    width: int = 0  # str: the longest met, in bytes
    length: int = 0  # list: the longest met
    shortest: int | None = None  # list: the shortest met
    item: Field | None = None  # list: the items' schema
    keys: dict = field(default_factory=dict)  # dict: key -> Field

    def meet(self, value) -> None:
        kind = _kind(value)
        self.kinds.add(kind)
        if kind == "str":
            self.width = max(self.width, len(value.encode()))
        elif kind == "list":
            self.length = max(self.length, len(value))
            self.shortest = len(value) if self.shortest is None else min(self.shortest, len(value))
            self.item = self.item or Field()
            for item in value:
                self.item.meet(item)
        elif kind == "dict":
            for key, item in value.items():
                self.keys.setdefault(key, Field()).meet(item)
            for key in self.keys:
                if key not in value:
                    self.keys[key].kinds.add("none")

    def freeze(self) -> "Slots":
        kinds = tuple(kind for kind in KINDS if kind in self.kinds)
        if "list" in kinds and self.item is None:
            self.item = Field()
        return Slots(
            kinds=kinds,
            width=2 * self.width + 8 if "str" in kinds else 0,
            limit=self._limit() if "list" in kinds else 0,
            item=self.item.freeze() if "list" in kinds and self.item.kinds else None,
            keys=tuple((key, self.keys[key].freeze()) for key in sorted(self.keys)),
        )

    def _limit(self) -> int:
        """A list always met with the same length (the players, the board's cells) keeps exactly that many item
        slots; any other list twice the longest met plus 4."""
        return self.length if self.shortest == self.length and self.length else 2 * self.length + 4


@dataclass(frozen=True)
class Slots:
    """A frozen field schema: how many slots it takes and how a value fills them."""

    kinds: tuple
    width: int
    limit: int
    item: "Slots | None"
    keys: tuple

    @property
    def size(self) -> int:
        tagged = len(self.kinds) if len(self.kinds) > 1 else 0
        return tagged + sum(self._kind_size(kind) for kind in self.kinds)

    def _kind_size(self, kind: str) -> int:
        if kind == "none":
            return 0
        if kind in ("bool", "int"):
            return 1
        if kind == "str":
            return self.width
        if kind == "list":
            return 1 + self.limit * (self.item.size if self.item else 0)
        return sum(slots.size for _, slots in self.keys)

    def fill(self, value, out: np.ndarray, at: int, path: str) -> int:
        """Write ``value`` into ``out`` from ``at`` (zeros already there); returns the position after its slots."""
        kind = _kind(value)
        if kind not in self.kinds:
            raise ValueError(
                f"the observation's field {path or '(top)'} holds a {kind} ({value!r:.60}), which the "
                f"numeric encoding's schema never met (it has {', '.join(self.kinds)})"
            )
        if len(self.kinds) > 1:
            out[at + self.kinds.index(kind)] = 1
            at += len(self.kinds)
        for other in self.kinds:
            if other == kind:
                self._fill_kind(kind, value, out, at, path)
            at += self._kind_size(other)
        return at

    def _fill_kind(self, kind, value, out, at, path):
        if kind in ("bool", "int"):
            if not -LIMIT <= value <= LIMIT:
                raise ValueError(f"the observation's field {path} holds {value}, beyond float32's exact integers")
            out[at] = float(value)
        elif kind == "str":
            data = value.encode()
            if len(data) > self.width:
                raise ValueError(
                    f"the observation's field {path} holds a string of {len(data)} bytes, more than the "
                    f"{self.width} its slots allow"
                )
            out[at : at + len(data)] = np.frombuffer(data, dtype=np.uint8)
        elif kind == "list":
            if len(value) > self.limit:
                raise ValueError(
                    f"the observation's field {path} holds {len(value)} items, more than the "
                    f"{self.limit} its slots allow"
                )
            out[at] = len(value)
            at += 1
            for index, item in enumerate(value):
                at = self.item.fill(item, out, at, f"{path}[{index}]")
        elif kind == "dict":
            unknown = set(value) - {key for key, _ in self.keys}
            if unknown:
                raise ValueError(
                    f"the observation's field {path or '(top)'} has keys {sorted(unknown)} the "
                    f"numeric encoding's schema never met"
                )
            for key, slots in self.keys:
                if key in value:
                    slots.fill(value[key], out, at, f"{path}.{key}")
                elif "none" not in slots.kinds:
                    raise ValueError(f"the observation's field {path}.{key} is missing")
                else:
                    slots.fill(None, out, at, f"{path}.{key}")
                at += slots.size

    def describe(self, path: str = "", at: int = 0) -> list[str]:
        """One line per leaf field: its slots, kinds and widths."""
        lines = [
            f"{at:6d}-{at + self.size - 1:<6d} {path or '(observation)'}: {'/'.join(self.kinds)}"
            + (f", {self.width} bytes" if self.width else "")
            + (f", up to {self.limit} items" if self.limit else "")
        ]
        inner = at + (len(self.kinds) if len(self.kinds) > 1 else 0)
        for kind in self.kinds:
            if kind == "dict":
                position = inner
                for key, slots in self.keys:
                    lines += slots.describe(f"{path}.{key}", position)
                    position += slots.size
            elif kind == "list" and self.item is not None:
                lines += self.item.describe(f"{path}[i] (each of {self.limit}, after the length slot)", inner + 1)[:1]
                if self.item.keys:
                    lines += self.item.describe(f"{path}[0]", inner + 1)[1:]
            inner += self._kind_size(kind)
        return lines


class NumericEncoding:
    """The numeric encoding of one game's observations (see the module docstring)."""

    def __init__(self, slots: Slots, name: str = ""):
        self.slots = slots
        self.name = name
        self.size = slots.size

    def encode(self, observation: dict) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        self.slots.fill(observation, out, 0, "")
        return out

    def describe(self) -> str:
        return "\n".join([f"numeric encoding of {self.name}: {self.size} float32 slots"] + self.slots.describe())


_SCHEMAS: dict = {}


def schema_of(shape, games: int | None = None, seed: int = 0) -> NumericEncoding:
    """The numeric encoding of a game shape (:func:`gamelib.frameworks.numbering.shape`), measured once per process
    from ``games`` seeded random games (default ``SCHEMA_GAMES`` of the game, else 50), every seat's observation at
    every position, chance drawn as the game draws it."""
    family = shape.name.split("-")[0]
    games = games or SCHEMA_GAMES.get(family, 50)
    key = (shape.module.__name__, repr(shape.rules), repr(sorted(shape.setup.items())), games, seed)
    if key not in _SCHEMAS:
        root = Field()
        rng = random.Random(seed)
        for _ in range(games):
            state = shape.new_game(rng.getrandbits(32), explicit_chance=True)
            while True:
                for player in range(shape.players):
                    root.meet(state.observation(player))
                if state.is_terminal:
                    break
                if state.current_player == CHANCE:
                    state = state.apply(sample_outcome(state.chance_outcomes(), rng))
                else:
                    state = state.apply(rng.choice(state.legal_actions()))
        _SCHEMAS[key] = NumericEncoding(root.freeze(), shape.name)
    return _SCHEMAS[key]


def observation_box(shape, features: str = "bytes"):
    """The adapters' observation space (a gymnasium ``Box``) and its encoder ``dict -> array``: ``"bytes"``, the
    observation's JSON bytes (uint8, :func:`gamelib.frameworks.numbering.encode_observation`), or ``"numeric"``,
    this module's float32 slots."""
    from gamelib.frameworks import require

    spaces = require("gymnasium.spaces")
    if features == "bytes":
        return (
            spaces.Box(0, 255, (shape.observation_bytes,), np.uint8),
            lambda seen: encode_observation(seen, shape.observation_bytes),
        )
    if features == "numeric":
        encoding = schema_of(shape)
        return spaces.Box(-LIMIT, LIMIT, (encoding.size,), np.float32), encoding.encode
    raise ValueError(f"features is 'bytes' or 'numeric', not {features!r}")
