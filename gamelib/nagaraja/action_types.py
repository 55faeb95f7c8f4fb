"""Nagaraja's actions and their parameters as values (nagaraja.md#programmers): the frozen types a
player's move is made of, what each field may hold, and the check of an action's shape.

:mod:`~gamelib.nagaraja.actions` is where a reader looks for them: it re-exports every name here
(the listing and the effects build and read actions too, so the types sit below all three).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gamelib.core import IllegalMove
from gamelib.nagaraja.position import seat_name

# =========================================================================== actions and params


@dataclass(frozen=True, slots=True)
class NoParams:
    """The parameters of an effect that needs none."""

    def __str__(self):
        return ""


@dataclass(frozen=True, slots=True)
class Sticks:
    target: int
    stick_ids: tuple

    def __str__(self):
        return f"{', '.join(self.stick_ids)} of {seat_name(self.target)}"


@dataclass(frozen=True, slots=True)
class Spot:
    spot: str

    def __str__(self):
        return self.spot


@dataclass(frozen=True, slots=True)
class SpotPair:
    temple: int
    a: str
    b: str

    def __str__(self):
        return f"{self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Rotate:
    temple: int
    cell: tuple
    k: int

    def __str__(self):
        return f"{self.cell} in {seat_name(self.temple)}'s temple by {self.k} quarter-turn(s)"


@dataclass(frozen=True, slots=True)
class Move:
    temple: int
    origin: tuple
    destination: tuple

    def __str__(self):
        return f"move {self.origin} to {self.destination} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Swap:
    temple: int
    a: tuple
    b: tuple

    def __str__(self):
        return f"swap {self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Cell:
    cell: tuple

    def __str__(self):
        return f"cell {self.cell} of the opponent's temple"


@dataclass(frozen=True, slots=True)
class Commit:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} commits {' + '.join(self.cards) or 'nothing'}"


@dataclass(frozen=True, slots=True)
class UseNaga:
    player: int
    source: str
    card: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses a {self.source} Naga on {self.card}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True, slots=True)
class UseAmulet:
    player: int
    amulet: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses amulet {self.amulet}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True, slots=True)
class SwapChoice:
    player: int
    swap: bool

    def __str__(self):
        return f"{seat_name(self.player)} {'swaps' if self.swap else 'does not swap'} the peeked relics"


@dataclass(frozen=True, slots=True)
class Pass:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} passes"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    player: int
    cell: tuple
    rotation: int

    def __str__(self):
        return f"{seat_name(self.player)} places the room at {self.cell}, rotation {self.rotation}"


@dataclass(frozen=True, slots=True)
class DiscardTile:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} discards the room (the temple is full)"


@dataclass(frozen=True, slots=True)
class Keep:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} keeps {' + '.join(self.cards) or 'nothing'}"


ACTION_TYPES = (Commit, UseNaga, UseAmulet, SwapChoice, Pass, PlaceTile, DiscardTile, Keep)
PARAM_TYPES = (NoParams, Sticks, Spot, SpotPair, Rotate, Move, Swap, Cell)

# Actions and their parameters keep their fields in slots: no dict beside each object (a random game's
# listings build and cache thousands, which the collector walks), and the fastest attribute reads.
# Listings build them with ``made``, which sets each slot through its descriptor, without ``__init__``.
SLOT_SETTERS = {
    kind: tuple(getattr(kind, name).__set__ for name in kind.__dataclass_fields__)
    for kind in ACTION_TYPES + PARAM_TYPES
}


def _sealed(kind) -> None:
    """Make ``kind``'s fields read-only even to ``object.__setattr__``, which passes ``frozen``.

    Listings share their actions between positions and games (the listing's shared objects): one changed through ``object.__setattr__`` (a PlaceTile moved to (9, 9)) once made
    unrelated games list it and raise IndexError. Each field becomes a property without a setter that
    reads the slot, and ``__init__`` and ``__setstate__`` (copies, pickles) fill the slots through the
    setters kept here, so an action can only be made, never changed, and no cache serves a changed one.
    """
    names = tuple(kind.__dataclass_fields__)
    if not names:
        return
    setters = SLOT_SETTERS[kind]
    defaults = {
        field.name: field.default for field in dataclasses.fields(kind) if field.default is not dataclasses.MISSING
    }
    arguments = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in names)
    body = "".join(f"    _set_{index}(self, {name})\n" for index, name in enumerate(names))
    namespace = {f"_set_{index}": setter for index, setter in enumerate(setters)}
    namespace.update({f"_default_{name}": value for name, value in defaults.items()})
    exec(f"def __init__(self, {arguments}):\n{body}", namespace)  # noqa: S102 - field names only, as dataclasses do
    initialise = namespace["__init__"]
    initialise.__qualname__ = f"{kind.__name__}.__init__"

    def __setstate__(self, state):
        for setter, value in zip(setters, state):
            setter(self, value)

    kind.__init__, kind.__setstate__ = initialise, __setstate__
    for name in names:
        setattr(kind, name, property(kind.__dict__[name].__get__, doc=f"the action's {name} (read-only)"))


for _kind in ACTION_TYPES + PARAM_TYPES:
    _sealed(_kind)

# =========================================================================== the shape of an action

# What each field of an action or a parameter set holds. An action is checked against this before
# anything reads it, so a float, a bool or a list where a seat number or a card id belongs is refused
# with a reason (IllegalMove) instead of raising TypeError or being applied and saved.
_SEAT, _TEXT, _TEXTS, _CELL, _WHOLE, _SWITCH, _PARAMS = "seat", "text", "texts", "cell", "whole", "switch", "params"
FIELD_KINDS = {
    Commit: {"player": _SEAT, "cards": _TEXTS},
    UseNaga: {"player": _SEAT, "source": _TEXT, "card": _TEXT, "params": _PARAMS},
    UseAmulet: {"player": _SEAT, "amulet": _TEXT, "params": _PARAMS},
    SwapChoice: {"player": _SEAT, "swap": _SWITCH},
    Pass: {"player": _SEAT},
    PlaceTile: {"player": _SEAT, "cell": _CELL, "rotation": _WHOLE},
    DiscardTile: {"player": _SEAT},
    Keep: {"player": _SEAT, "cards": _TEXTS},
    NoParams: {},
    Sticks: {"target": _SEAT, "stick_ids": _TEXTS},
    Spot: {"spot": _TEXT},
    SpotPair: {"temple": _SEAT, "a": _TEXT, "b": _TEXT},
    Rotate: {"temple": _SEAT, "cell": _CELL, "k": _WHOLE},
    Move: {"temple": _SEAT, "origin": _CELL, "destination": _CELL},
    Swap: {"temple": _SEAT, "a": _CELL, "b": _CELL},
    Cell: {"cell": _CELL},
}
_MAX_TEXTS = 64  # more card or stick ids than any action names


def _is_whole(value) -> bool:
    return type(value) is int


def _field_value(kind: str, value, where: str):
    """``value`` in canonical form (lists become tuples), or IllegalMove saying what belongs there."""
    if kind == _SEAT:
        if not _is_whole(value) or value not in (0, 1):
            raise IllegalMove(f"{where} must be a seat number, 0 or 1 (a whole number), not {value!r}")
        return value
    if kind == _TEXT:
        if type(value) is not str:
            raise IllegalMove(f"{where} must be a text id such as a card, stick, spot or source name, not {value!r}")
        return value
    if kind == _TEXTS:
        if not isinstance(value, (tuple, list)) or len(value) > _MAX_TEXTS or any(type(v) is not str for v in value):
            raise IllegalMove(f"{where} must be a tuple of text ids, not {value!r}")
        return tuple(value)
    if kind == _CELL:
        if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(_is_whole(v) for v in value):
            raise IllegalMove(f"{where} must be a cell (row, column) of two whole numbers, not {value!r}")
        return tuple(value)
    if kind == _WHOLE:
        if not _is_whole(value):
            raise IllegalMove(f"{where} must be a whole number, not {value!r}")
        return value
    if kind == _SWITCH:
        if type(value) is not bool:
            raise IllegalMove(f"{where} must be True or False, not {value!r}")
        return value
    if not isinstance(value, PARAM_TYPES):
        raise IllegalMove(
            f"{where} must be the parameters of the effect ({', '.join(t.__name__ for t in PARAM_TYPES)}), "
            f"not {value!r}"
        )
    return canonical(value)


def checked_action(action):
    """A player's action in canonical form, or IllegalMove saying why it is none."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalMove(f"{action!r} is not a Nagaraja action", action)
    try:
        return canonical(action)
    except IllegalMove as error:
        error.action = action
        raise


def canonical(action):
    """``action`` checked field by field and rebuilt in canonical form (tuples, exact types);
    IllegalMove with a reason when it is not a well-formed Nagaraja action or parameter set."""
    kinds = FIELD_KINDS.get(type(action))
    if kinds is None:
        raise IllegalMove(f"{action!r} is not a Nagaraja action", action)
    if _IN_CANONICAL_FORM[type(action)](action):
        return action  # the common case: every field of the exact type, checked without building a reason
    changed = None
    for field, kind in kinds.items():
        value = getattr(action, field, None)
        if kind in _FAST_OK and type(value) is _FAST_OK[kind] and (kind != _SEAT or value in (0, 1)):
            continue  # the common case, checked without building a reason
        fixed = _field_value(kind, value, f"{type(action).__name__}.{field}")
        if fixed is not value:
            changed = {**(changed or {}), field: fixed}
    if changed is None:
        return action
    return type(action)(**{**{f: getattr(action, f) for f in kinds}, **changed})


_FAST_OK = {_SEAT: int, _TEXT: str, _WHOLE: int, _SWITCH: bool}

# The test that a field of each kind holds its canonical value already, as Python source (``v`` is the value).
_CANONICAL_TESTS = {
    _SEAT: "type(v) is int and (v == 0 or v == 1)",
    _TEXT: "type(v) is str",
    _WHOLE: "type(v) is int",
    _SWITCH: "type(v) is bool",
    _TEXTS: "type(v) is tuple and len(v) <= _MAX_TEXTS and all_texts(v)",
    _CELL: "type(v) is tuple and len(v) == 2 and type(v[0]) is int and type(v[1]) is int",
    _PARAMS: "type(v) in _IN_CANONICAL_FORM and _IN_CANONICAL_FORM[type(v)](v)",
}


def _all_texts(values: tuple) -> bool:
    for value in values:
        if type(value) is not str:
            return False
    return True


def _canonical_form_test(kind):
    """A function telling whether an action or parameter set of type ``kind`` is in canonical form
    already (then ``canonical`` returns it as it is): the tests of its fields one after the other,
    written out once per type, since every move a player makes is checked."""
    lines = "".join(
        f"    v = action.{name}\n    if not ({_CANONICAL_TESTS[field_kind]}):\n        return False\n"
        for name, field_kind in FIELD_KINDS[kind].items()
    )
    namespace = {"_MAX_TEXTS": _MAX_TEXTS, "all_texts": _all_texts, "_IN_CANONICAL_FORM": _IN_CANONICAL_FORM}
    exec(f"def in_canonical_form(action):\n{lines}    return True\n", namespace)  # noqa: S102 - field names only
    return namespace["in_canonical_form"]


_IN_CANONICAL_FORM: dict = {}
_IN_CANONICAL_FORM.update({kind: _canonical_form_test(kind) for kind in ACTION_TYPES + PARAM_TYPES})
CANONICAL_ACTION_TESTS = {kind: _IN_CANONICAL_FORM[kind] for kind in ACTION_TYPES}
"""Action type -> the test that an action of it is in canonical form already (``checked_action`` would
return it as it is); a move's check runs it first."""


def made(kind, *fields):
    """``kind(*fields)`` for an action or parameter type given all its fields, without ``__init__`` (see
    ``SLOT_SETTERS``): listings and their options build thousands."""
    action = _new(kind)
    for set_field, value in zip(SLOT_SETTERS[kind], fields):
        set_field(action, value)
    return action


_new = object.__new__
