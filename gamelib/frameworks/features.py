"""A numeric feature encoding of ``observation(player)`` for learners: one fixed slot per field.

The bytes encoding (:func:`gamelib.frameworks.numbering.encode_observation`) is exact but makes a network learn
to read JSON. This one gives every field of the observation its own fixed place in a float32 vector of fixed
length, from a *schema* of the game's observations (:func:`schema_of`):

* a number (``int``, ``bool``): one slot holding its value (``bool`` as 0/1); counts stay counts;
* a string that names something of the game (a card, tile or stick id, a colour, a phase, an effect: every
  string the field was met with is a *name* of the game's vocabulary, :func:`vocabulary`): a one-hot over the
  field's names: the smallest vocabulary group holding every string met (all the card ids of ``cards.json``, say,
  though the games met only some), else for each string met its smallest group, together; sorted;
* any other string (free text, like Pangu's and Nagaraja's event lines, or an id built by formatting, like
  Nagaraja's ``ENTRANCE_0``): a length slot, then two slots per token up to a ``limit`` of tokens. The text is cut
  into tokens that tile it exactly (runs of letters, numbers without leading zeros, runs of white space, any other
  character): a number token is ``(0, its value)``, any other ``(its id, 0)``, its id being its place (from 1) in
  the vocabulary's ``words``. One-hot tokens would make Nagaraja's events millions of slots; ids keep them a few
  thousand, and a learner can embed them;
* ``None`` (what the player cannot see: a hidden plenitude, a face-down relic's points, an opponent's hand):
  all of the field's slots 0, with the field's *kind* slots telling "hidden" from a shown 0;
* a field seen with several kinds (``None`` or a number, ``None`` or a dict) starts with one 0/1 slot per kind
  (one-hot of which kind it holds now), then each kind's slots; a field always of one kind has no kind slots;
* a list: one slot with its length, then ``limit`` item slots (zeros past the length); a list met always with the
  same length (the players, a board's cells) gets exactly that many, any other twice the longest met plus 4;
* a dict: its keys' slots in sorted key order (a key absent now: its slots 0, and its kind slot says so).

So equal observations give equal vectors and different ones different vectors (the test checks both over
random states): the encoding holds exactly what the observation holds. The schema of each game and setup is
measured from random games (``SCHEMA_GAMES`` of them, seeded) with room to spare: token limits and the limits
of lists of varying length twice what was met, plus a margin. An observation beyond the schema (a longer list, a
longer text, a string outside its field's names, a word not in the vocabulary, a key or a kind never met) raises a
``ValueError`` naming the field, rather than being cut. ``describe()`` lists every field's slots: the documentation of the layout.

The vocabulary of a game (:func:`vocabulary`) is read from the game's own files, not from play, so it is stable:
it changes only when the game's rules code or data change. Its sources are the game package's modules (for a
single-module game, its module) and the JSON files in its ``data`` folder:

* names, in groups: each JSON file's string values under one key path make a group (``cards.json:cards[].id``:
  the card ids); each top-level statement of a module makes a group of its string constants (``rules.PHASES``),
  with an ``Enum`` class's member names; docstrings and the literal parts of f-strings are left out;
* words: the tokens (as above) of every string constant, f-string part, JSON string and JSON key, and every ASCII
  letter and punctuation mark (so a run of letters that is not a word goes letter by letter), sorted.

The vocabulary never depends on play; which fields are names and which are text, and which group a name field
covers, is decided by the seeded schema games (so it too is the same in every run).
"""

from __future__ import annotations

import ast
import json
import random
import re
import string
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from gamelib.core import CHANCE, sample_outcome
from gamelib.frameworks.numbering import encode_observation

KINDS = ("none", "bool", "int", "str", "list", "dict")  # JSON floats do not occur in the three games' observations
SCHEMA_GAMES = {"pangu": 40, "chakra": 2, "nagaraja": 8}
LIMIT = 1 << 24  # float32 holds every integer up to 2**24 exactly
TOKEN = re.compile(r"[A-Za-z]+|0|[1-9][0-9]*|\s+|.", re.DOTALL)  # tiles any text exactly


def tokens(text: str) -> list[str]:
    """``text`` cut into tokens whose concatenation is ``text``: runs of letters, numbers without leading zeros
    (``"07"`` is ``"0", "7"``), runs of white space, any other single character."""
    return TOKEN.findall(text)


@dataclass(frozen=True)
class Vocabulary:
    """A game's names (in groups, each a sorted tuple) and words (sorted), read from its files (module docstring)."""

    game: str
    groups: dict
    words: tuple

    def __post_init__(self):
        object.__setattr__(self, "_word_ids", {word: index + 1 for index, word in enumerate(self.words)})
        groups_of: dict = {}
        for group, names in self.groups.items():
            for name in names:
                groups_of.setdefault(name, []).append(group)
        object.__setattr__(self, "_groups_of", groups_of)

    @property
    def names(self) -> tuple:
        """Every name of every group, sorted."""
        return tuple(sorted(self._groups_of))

    def groups_of(self, name: str) -> list:
        """The groups holding ``name`` (empty: not a name of the game)."""
        return self._groups_of.get(name, [])

    def word_id(self, word: str) -> int | None:
        return self._word_ids.get(word)

    def token_pairs(self, text: str, path: str) -> list[tuple[int, int]]:
        """``text`` as ``(word id, 0)`` and ``(0, number)`` pairs, one per token (:func:`tokens`); a run of letters
        that is not a word goes letter by letter (every ASCII letter is a word)."""
        pairs = []
        for token in tokens(text):
            if token.isdigit():
                pairs.append((0, int(token)))
                continue
            for word in [token] if token in self._word_ids or not token.isalpha() else token:
                if word not in self._word_ids:
                    raise ValueError(
                        f"the observation's field {path} holds {text!r:.60}, whose {word!r} is not a word of "
                        f"{self.game}'s vocabulary"
                    )
                pairs.append((self._word_ids[word], 0))
        return pairs


def vocabulary(module) -> Vocabulary:
    """The vocabulary of a game module (a package such as ``gamelib.nagaraja``, or a one-module game such as a
    studio example), read once per process from its source and data files (see the module docstring)."""
    return _vocabulary_of(module.__name__, module.__file__)


@cache
def _vocabulary_of(name: str, file: str) -> Vocabulary:
    groups: dict = {}
    words: set = set()
    origin = Path(file)
    if origin.name == "__init__.py":
        sources = sorted(origin.parent.glob("*.py"))
        data = sorted((origin.parent / "data").glob("*.json"))
    else:
        sources, data = [origin], []
    for path in sources:
        _read_source(path, groups, words)
    for path in data:
        _read_json(json.loads(path.read_text(encoding="utf-8")), f"{path.name}:", groups, words)
    return Vocabulary(
        name.rsplit(".", 1)[-1],
        {group: tuple(sorted(names)) for group, names in sorted(groups.items()) if names},
        tuple(sorted(words | set(string.ascii_letters + string.punctuation + " "))),
    )


def _field_names(strings: set, words: Vocabulary) -> tuple | None:
    """The names a field's one-hot covers (module docstring), or None if a string met is not a name (a text)."""
    if not all(words.groups_of(text) for text in strings):
        return None

    def size_then_name(group):
        return len(words.groups[group]), group

    covering = [group for group in words.groups if strings <= set(words.groups[group])]
    if covering:
        return words.groups[min(covering, key=size_then_name)]
    chosen = {min(words.groups_of(text), key=size_then_name) for text in strings}
    return tuple(sorted({name for group in chosen for name in words.groups[group]}))


def _read_source(path: Path, groups: dict, words: set) -> None:
    """A module's names, one group per top-level statement, and the words of all its strings but docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    formatted = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for statement in tree.body:
        names = groups.setdefault(f"{path.stem}.{_statement_name(statement)}", set())
        for node in ast.walk(statement):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                words.update(tokens(node.value))
                if id(node) not in formatted:
                    names.add(node.value)
            elif isinstance(node, ast.ClassDef) and _is_enum(node):
                for item in node.body:
                    for target in getattr(item, "targets", [getattr(item, "target", None)]):
                        if isinstance(target, ast.Name):
                            names.add(target.id)
                            words.update(tokens(target.id))


def _statement_name(statement) -> str:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name
    targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
    if isinstance(targets[0], ast.Name):
        return targets[0].id
    return f"line{statement.lineno}"


def _is_enum(node: ast.ClassDef) -> bool:
    return any(getattr(base, "id", getattr(base, "attr", "")).endswith("Enum") for base in node.bases)


def _read_json(value, path: str, groups: dict, words: set) -> None:
    """A data file's names, one group per key path (list positions dropped), and the words of its strings and keys."""
    if isinstance(value, str):
        groups.setdefault(path, set()).add(value)
        words.update(tokens(value))
    elif isinstance(value, list):
        for item in value:
            _read_json(item, f"{path}[]", groups, words)
    elif isinstance(value, dict):
        for key, item in value.items():
            words.update(tokens(key))
            _read_json(item, f"{path}.{key}" if not path.endswith(":") else f"{path}{key}", groups, words)


_KIND_OF_TYPE = {type(None): "none", bool: "bool", int: "int", str: "str", list: "list", dict: "dict"}


def _kind(value) -> str:
    kind = _KIND_OF_TYPE.get(type(value))  # the exact types, in one look-up; subclasses go down the tests below
    if kind is not None:
        return kind
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
    strings: set = field(default_factory=set)  # str: every string met
    length: int = 0  # list: the longest met
    shortest: int | None = None  # list: the shortest met
    item: Field | None = None  # list: the items' schema
    keys: dict = field(default_factory=dict)  # dict: key -> Field

    def meet(self, value) -> None:
        kind = _kind(value)
        self.kinds.add(kind)
        if kind == "str":
            self.strings.add(value)
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

    def freeze(self, words: Vocabulary) -> "Slots":
        kinds = tuple(kind for kind in KINDS if kind in self.kinds)
        if "list" in kinds and self.item is None:
            self.item = Field()
        names = _field_names(self.strings, words) if "str" in kinds else None
        texts = self.strings if "str" in kinds and names is None else ()
        longest = max((len(words.token_pairs(text, "(measuring)")) for text in texts), default=0)
        return Slots(
            kinds=kinds,
            names=names or (),
            tokens=2 * longest + 8 if "str" in kinds and names is None else 0,
            vocabulary=words if "str" in kinds and names is None else None,
            limit=self._limit() if "list" in kinds else 0,
            item=self.item.freeze(words) if "list" in kinds and self.item.kinds else None,
            keys=tuple((key, self.keys[key].freeze(words)) for key in sorted(self.keys)),
        )

    def _limit(self) -> int:
        """A list always met with the same length (the players, the board's cells) keeps exactly that many item
        slots; any other list twice the longest met plus 4."""
        return self.length if self.shortest == self.length and self.length else 2 * self.length + 4


@dataclass(frozen=True)
class Slots:
    """A frozen field schema: how many slots it takes and how a value fills them."""

    kinds: tuple
    names: tuple  # str of a name field: the names its one-hot covers, sorted
    tokens: int  # str of a text field: the most tokens it holds
    limit: int
    item: "Slots | None"
    keys: tuple
    vocabulary: "Vocabulary | None" = field(default=None, compare=False, repr=False)  # a text field's words

    def __post_init__(self):
        # sizes and name places, computed once (the item and key schemas are built first): ``fill`` reads them at
        # every field of every observation, and summing them afresh there cost most of an encoding
        sizes = {kind: self._measure_kind(kind) for kind in self.kinds}
        object.__setattr__(self, "_kind_sizes", sizes)
        object.__setattr__(self, "size", (len(self.kinds) if len(self.kinds) > 1 else 0) + sum(sizes.values()))
        object.__setattr__(self, "_name_places", {name: place for place, name in enumerate(self.names)})
        object.__setattr__(self, "_key_names", frozenset(key for key, _ in self.keys))

    def _kind_size(self, kind: str) -> int:
        return self._kind_sizes[kind]

    def _measure_kind(self, kind: str) -> int:
        if kind == "none":
            return 0
        if kind in ("bool", "int"):
            return 1
        if kind == "str":
            return len(self.names) if self.names else 1 + 2 * self.tokens
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
        elif kind == "str" and self.names:
            index = self._name_places.get(value)
            if index is None:
                raise ValueError(
                    f"the observation's field {path} holds {value!r}, not one of the {len(self.names)} names its "
                    f"one-hot covers ({', '.join(self.names[:4])}...)"
                )
            out[at + index] = 1
        elif kind == "str":
            pairs = self.vocabulary.token_pairs(value, path)
            if len(pairs) > self.tokens:
                raise ValueError(
                    f"the observation's field {path} holds a text of {len(pairs)} tokens, more than the "
                    f"{self.tokens} its slots allow"
                )
            out[at] = len(pairs)
            for index, (word, number) in enumerate(pairs):
                if number > LIMIT:
                    raise ValueError(f"the observation's field {path} holds {number}, beyond float32's exact integers")
                out[at + 1 + 2 * index : at + 3 + 2 * index] = (word, number)
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
            unknown = value.keys() - self._key_names
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
        """One line per leaf field: its slots, kinds, names and token limits."""
        lines = [
            f"{at:6d}-{at + self.size - 1:<6d} {path or '(observation)'}: {'/'.join(self.kinds)}"
            + (f", one-hot of {len(self.names)} names" if self.names else "")
            + (f", text of up to {self.tokens} tokens" if self.tokens else "")
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

    def __init__(self, slots: Slots, name: str = "", words: Vocabulary | None = None):
        self.slots = slots
        self.name = name
        self.size = slots.size
        self.vocabulary = words

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
        words = vocabulary(shape.module)
        _SCHEMAS[key] = NumericEncoding(root.freeze(words), shape.name, words)
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
            lambda seen: encode_observation(seen, shape.observation_bytes, shape.float_free),
        )
    if features == "numeric":
        encoding = schema_of(shape)
        return spaces.Box(-LIMIT, LIMIT, (encoding.size,), np.float32), encoding.encode
    raise ValueError(f"features is 'bytes' or 'numeric', not {features!r}")
