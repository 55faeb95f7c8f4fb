"""Nagaraja saves, both directions: ``to_json(state)`` and ``from_json(text)`` (nagaraja.md#hidden-information).

A save is one JSON object starting with the header ``{"game": "nagaraja", "version": 1}``,
then every field of the state and ``moves``, every action (and, with explicit chance, every
chance outcome) applied since ``new_game``. Loading replays the moves from the seed, the rules
and the edition, then requires every saved field to equal the replay's: a loaded state is always
one the rules can reach, and a damaged, forged or foreign save raises
:class:`~gamelib.core.CorruptSave` saying what is wrong. A save never names a file: its edition
is the packaged one or carried inline.
"""

from __future__ import annotations

import dataclasses
import json

from gamelib.core import (
    CorruptSave,
    IllegalMove,
    check_save_header,
    check_seed,
    load_json,
    require_fields,
    require_rule_fields,
    save_header,
)
from gamelib.nagaraja.actions import ACTION_TYPES, FIELD_KINDS, PARAM_TYPES
from gamelib.nagaraja.edition import Edition, EditionError, edition_from_source
from gamelib.nagaraja.rules import Rules, State, new_game
from gamelib.nagaraja.temple import TRAP, Temple

GAME = "nagaraja"
SAVE_VERSION = 2  # 2: saves carry their moves and are replayed on loading
MAX_MOVES = 20_000  # far above the longest game (a random game takes a few hundred)
RULES_ADDED_IN_VERSION_2 = {
    "tie_rule": "guide",
    "discard2_sticks": "any",
}  # a version-2 save written before a parameter existed played its default


def to_json(state: State) -> str:
    return json.dumps(_to_dict(state))


def from_json(text) -> State:
    data = load_json(text, "Nagaraja save")
    check_save_header(data, GAME, SAVE_VERSION)
    require_fields(data, _STATE_FIELDS, "Nagaraja save")
    if isinstance(data["rules"], dict):
        data["rules"] = {**RULES_ADDED_IN_VERSION_2, **data["rules"]}
    unknown = sorted(set(data) - set(_STATE_FIELDS) - {"game", "version"})
    if unknown:
        raise CorruptSave(f"this Nagaraja save has an unknown field {unknown[0]!r}")
    state = _replay(data)
    _check_agrees(data, state)
    return state


# --------------------------------------------------------------------------- writing


def _temple_to_dict(temple: Temple) -> dict:
    cells = [c if c is None or c == TRAP else [c.tile_id, c.rotation, c.amulet] for c in temple.cells]
    return {"cells": cells, "relics": list(temple.relics)}


def _to_dict(state: State) -> dict:
    players = []
    for p in state.players:
        players.append(
            {
                "temple": _temple_to_dict(p.temple),
                "hand": list(p.hand),
                "amulets": list(p.amulets),
                "sticks": [list(s) for s in p.sticks],
                "committed": None if p.committed is None else list(p.committed),
                "activated": list(p.activated),
                "modifier": p.modifier,
                "virtual_nagas": p.virtual_nagas,
                "knowledge": sorted([o, r] for o, r in p.knowledge),
                "public_hand": sorted(p.public_hand),
            }
        )
    plain = {name: getattr(state, name) for name in _PLAIN_FIELDS}
    return {
        **save_header(GAME, SAVE_VERSION),
        "edition": state.edition.source,
        "rules": state.rules.to_dict(),
        "players": players,
        "queue": [list(t) for t in state.queue],
        "log": [list(e) for e in state.log],
        "result": state.result.to_dict() if state.result else None,
        **plain,
        "moves": [move_to_json(m) for m in state.moves],
    }


# The state's fields saved as they are (JSON values already), and every field a save holds, in order.
_PLAIN_FIELDS = (
    "phase",
    "to_act",
    "guide",
    "round",
    "draw_pile",
    "discard_pile",
    "room_pile",
    "room_bottom",
    "current_room",
    "room_amulet",
    "amulet_pile",
    "supply",
    "out_of_game",
    "pass_streak",
    "deal",
    "pending_swap",
    "first_guide",
    "first_guide_ties",
    "room_winner",
    "seed",
    "draws",
    "explicit_chance",
)
_STATE_FIELDS = ("edition", "rules", "players", "queue", "log", "result", *_PLAIN_FIELDS, "moves")


def move_to_json(move):
    """A player's action as ``{"action": name, field: value...}``; a chance outcome as ``{"outcome": value}``."""
    if isinstance(move, ACTION_TYPES):
        return {"action": type(move).__name__, **{f: _field_to_json(getattr(move, f)) for f in FIELD_KINDS[type(move)]}}
    return {"outcome": _field_to_json(move)}


def _field_to_json(value):
    if isinstance(value, PARAM_TYPES):
        return {
            "params": type(value).__name__,
            **{f: _field_to_json(getattr(value, f)) for f in FIELD_KINDS[type(value)]},
        }
    if isinstance(value, tuple):
        return [_field_to_json(v) for v in value]
    return value


# --------------------------------------------------------------------------- reading

_ACTIONS_BY_NAME = {t.__name__: t for t in ACTION_TYPES}
_PARAMS_BY_NAME = {t.__name__: t for t in PARAM_TYPES}


def move_from_json(entry, number: int):
    """The action or chance outcome a ``moves`` entry records (its legality is checked by replaying it)."""
    if isinstance(entry, dict) and set(entry) == {"outcome"}:
        return _tuples(entry["outcome"])
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("action"), str)
        or entry["action"] not in _ACTIONS_BY_NAME
    ):
        raise CorruptSave(
            f"move {number} of this Nagaraja save is neither an action nor a chance outcome: {_short(entry)}"
        )
    return _build(_ACTIONS_BY_NAME[entry["action"]], entry, "action", number)


def _build(cls, entry: dict, tag: str, number: int):
    names = FIELD_KINDS[cls]
    if set(entry) != {tag, *names}:
        raise CorruptSave(
            f"move {number} of this Nagaraja save: a {cls.__name__} has the fields "
            f"{', '.join(names) or 'none'}, not {_short(sorted(k for k in entry if k != tag))}"
        )
    values = {}
    for name in names:
        value = entry[name]
        if isinstance(value, dict):
            if not isinstance(value.get("params"), str) or value["params"] not in _PARAMS_BY_NAME:
                raise CorruptSave(f"move {number} of this Nagaraja save has unknown parameters {_short(value)}")
            value = _build(_PARAMS_BY_NAME[value["params"]], value, "params", number)
        values[name] = _tuples(value)
    return cls(**values)


def _tuples(value):
    """JSON lists back to tuples (the save is depth-bounded, so this recursion is shallow)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _short(value) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4,300-digit limit for text (a save given as a dict)
        return f"<a number of {value.bit_length():,} bits>" if isinstance(value, int) else "<an unprintable value>"
    return text if len(text) <= 60 else text[:57] + "..."


def _edition(record) -> Edition:
    try:
        return edition_from_source(record)
    except (EditionError, ValueError, TypeError, KeyError, AttributeError) as error:
        raise CorruptSave(f"this Nagaraja save has a bad edition: {error}") from None


def _rules(record) -> Rules:
    if not isinstance(record, dict) or not all(isinstance(k, str) for k in record):
        raise CorruptSave("this Nagaraja save has bad rules: they should be an object of rule parameters")
    require_rule_fields(record, Rules, "Nagaraja save")
    try:
        return Rules(**record)
    except TypeError:
        known = [f.name for f in dataclasses.fields(Rules)]
        raise CorruptSave(
            f"this Nagaraja save has an unknown rule parameter; the parameters are {', '.join(known)}"
        ) from None
    except ValueError as error:
        raise CorruptSave(f"this Nagaraja save has bad rules: {error}") from None


def _replay(data: dict) -> State:
    """The state reached from the save's seed, rules and edition by its moves, each checked as it is played."""
    edition, rules = _edition(data["edition"]), _rules(data["rules"])
    seed, explicit, moves = data["seed"], data["explicit_chance"], data["moves"]
    try:
        check_seed(seed)
    except ValueError as error:
        raise CorruptSave(f"this Nagaraja save has a bad seed {_short(seed)}: {error}") from None
    if not isinstance(explicit, bool):
        raise CorruptSave("this Nagaraja save is damaged: explicit_chance should be true or false")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise CorruptSave(f"this Nagaraja save is damaged: moves should be a list of at most {MAX_MOVES:,} entries")
    state = new_game(seed, rules, explicit_chance=explicit, edition=edition)
    for number, entry in enumerate(moves, 1):
        move = move_from_json(entry, number)
        try:
            state = state.apply(move)
        except IllegalMove as error:
            raise CorruptSave(f"move {number} of this Nagaraja save cannot be played: {error.reason}") from None
        except (TypeError, ValueError) as error:  # a value no action holds (the action check should refuse it first)
            raise CorruptSave(f"move {number} of this Nagaraja save cannot be played ({error})") from None
    return state


def _canonical_text(value) -> str:
    """JSON text that tells 1, 1.0 and true apart (``==`` would not)."""
    return json.dumps(value, sort_keys=True)


def _check_agrees(data: dict, state: State) -> None:
    """Every saved field must be what replaying the moves gives."""
    replayed = json.loads(json.dumps(_to_dict(state)))
    for name in _STATE_FIELDS:
        if _canonical_text(data[name]) != _canonical_text(replayed[name]):
            raise CorruptSave(
                f"this Nagaraja save does not follow from its seed and moves: its {name} is "
                f"{_short(data[name])}, but replaying the game gives {_short(replayed[name])}"
            )
