"""Nagaraja saves, both directions: ``to_json(state)`` and ``from_json(text)`` (spec 7).

A save is one JSON object starting with the header ``{"game": "nagaraja", "version": 1}``
(checked on load), then every field of the state. A damaged, forged or foreign save raises
:class:`~gamelib.core.CorruptSave` saying what is wrong.
"""

from __future__ import annotations

import json

from gamelib.core import CorruptSave, check_save_header, load_json, require_fields, save_header
from gamelib.nagaraja.chance import TASK_KINDS, Task
from gamelib.nagaraja.edition import Edition, EditionError, edition_from_source
from gamelib.nagaraja.position import PHASES, REASONS, Event, Player, Result, Stick, check_invariants
from gamelib.nagaraja.rules import Rules, State
from gamelib.nagaraja.temple import TRAP, PlacedTile, Temple

GAME = "nagaraja"
SAVE_VERSION = 1


def to_json(state: State) -> str:
    return json.dumps(_to_dict(state))


def from_json(text) -> State:
    data = load_json(text, "Nagaraja save")
    check_save_header(data, GAME, SAVE_VERSION)
    return _from_dict(data)


def _temple_to_dict(temple: Temple) -> dict:
    cells = [c if c is None or c == TRAP else [c.tile_id, c.rotation, c.amulet] for c in temple.cells]
    return {"cells": cells, "relics": list(temple.relics)}


def _to_dict(state: State) -> dict:
    players = []
    for p in state.players:
        players.append({
            "temple": _temple_to_dict(p.temple), "hand": list(p.hand), "amulets": list(p.amulets),
            "sticks": [list(s) for s in p.sticks], "committed": None if p.committed is None else list(p.committed),
            "activated": list(p.activated), "modifier": p.modifier, "virtual_nagas": p.virtual_nagas,
            "knowledge": sorted([o, r] for o, r in p.knowledge), "public_hand": sorted(p.public_hand),
        })
    plain = {name: getattr(state, name) for name in (
        "phase", "to_act", "guide", "round", "draw_pile", "discard_pile", "room_pile", "room_bottom", "current_room",
        "room_amulet", "amulet_pile", "supply", "out_of_game", "pass_streak", "deal", "pending_swap",
        "first_guide", "first_guide_ties", "room_winner", "seed", "draws", "explicit_chance")}
    return {
        **save_header(GAME, SAVE_VERSION), "edition": state.edition.source, "rules": state.rules.to_dict(),
        "players": players, "queue": [list(t) for t in state.queue], "log": [list(e) for e in state.log],
        "result": state.result.to_dict() if state.result else None, **plain,
    }


_STATE_FIELDS = ("edition", "rules", "players", "queue", "log", "result", "phase", "to_act", "guide", "round",
                 "draw_pile", "discard_pile", "room_pile", "room_bottom", "current_room", "room_amulet", "amulet_pile",
                 "supply", "out_of_game", "pass_streak", "deal", "pending_swap", "first_guide", "first_guide_ties",
                 "room_winner", "seed", "draws", "explicit_chance")


def _tuple(value, what: str) -> tuple:
    if not isinstance(value, list):
        raise CorruptSave(f"this Nagaraja save is damaged: {what} should be a list")
    return tuple(value)


def _from_dict(data: dict) -> State:
    require_fields(data, _STATE_FIELDS, "Nagaraja save")
    try:
        edition = edition_from_source(data["edition"])
    except (EditionError, AttributeError, TypeError) as error:
        raise CorruptSave(f"this Nagaraja save has a bad edition: {error}") from None
    try:
        state = _build_state(data, edition)
    except CorruptSave:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise CorruptSave(f"this Nagaraja save is damaged ({type(error).__name__}: {error})") from None
    _check_loaded(state)
    return state


def _build_state(data: dict, edition: Edition) -> State:
    rules = Rules(**data["rules"])
    players = []
    if not isinstance(data["players"], list) or len(data["players"]) != 2:
        raise CorruptSave("this Nagaraja save is damaged: it needs exactly 2 players")
    for raw in data["players"]:
        cells = tuple(None if c is None else TRAP if c == TRAP else PlacedTile(str(c[0]), int(c[1]), c[2])
                      for c in _tuple(raw["temple"]["cells"], "a temple's cells"))
        relics = _tuple(raw["temple"]["relics"], "a temple's relics")
        if len(cells) != 9 or len(relics) != 9:
            raise CorruptSave("this Nagaraja save is damaged: a temple has 9 cells and 9 relic spots")
        for c in cells:
            if isinstance(c, PlacedTile) and (c.tile_id not in edition.tiles or c.rotation not in range(4)):
                raise CorruptSave(f"this Nagaraja save is damaged: unknown room {c.tile_id} or rotation {c.rotation}")
        players.append(Player(
            temple=Temple(edition.tiles, cells, relics), hand=_tuple(raw["hand"], "a hand"),
            amulets=_tuple(raw["amulets"], "amulets"), sticks=tuple(Stick(*s) for s in raw["sticks"]),
            committed=None if raw["committed"] is None else _tuple(raw["committed"], "committed cards"),
            activated=_tuple(raw["activated"], "activated cards"), modifier=int(raw["modifier"]),
            virtual_nagas=int(raw["virtual_nagas"]), knowledge=frozenset((int(o), r) for o, r in raw["knowledge"]),
            public_hand=frozenset(raw["public_hand"]),
        ))
    result = data["result"]
    return State(
        edition=edition, rules=rules, players=tuple(players), phase=data["phase"], to_act=data["to_act"],
        guide=data["guide"], round=data["round"], draw_pile=_tuple(data["draw_pile"], "the draw pile"),
        discard_pile=_tuple(data["discard_pile"], "the discard pile"), room_pile=_tuple(data["room_pile"], "the room pile"),
        room_bottom=_tuple(data["room_bottom"], "room_bottom"), current_room=data["current_room"],
        room_amulet=data["room_amulet"], amulet_pile=_tuple(data["amulet_pile"], "the amulet pile"),
        supply=_tuple(data["supply"], "the stick supply"), out_of_game=_tuple(data["out_of_game"], "out_of_game"),
        pass_streak=data["pass_streak"], queue=tuple(Task(*t) for t in data["queue"]),
        deal=None if data["deal"] is None else _tuple(data["deal"], "the deal"),
        pending_swap=None if data["pending_swap"] is None else tuple(data["pending_swap"]),
        first_guide=tuple(tuple(t) for t in data["first_guide"]), first_guide_ties=data["first_guide_ties"],
        room_winner=data["room_winner"], seed=data["seed"], draws=data["draws"],
        explicit_chance=bool(data["explicit_chance"]), log=tuple(Event(int(a), str(t)) for a, t in data["log"]),
        result=None if result is None else Result(result["winner"], result["reason"], tuple(result["scores"])),
    )


def _check_loaded(state: State) -> None:
    if state.phase not in PHASES:
        raise CorruptSave(f"this Nagaraja save has an unknown phase {state.phase!r}")
    if state.to_act not in (0, 1, None) or state.guide not in (0, 1):
        raise CorruptSave("this Nagaraja save has a bad seat number (players are 0 and 1)")
    if state.result is not None and state.result.reason not in REASONS:
        raise CorruptSave(f"this Nagaraja save has an unknown end reason {state.result.reason!r}")
    if state.current_room is not None and state.current_room not in state.edition.tiles:
        raise CorruptSave(f"this Nagaraja save names an unknown room {state.current_room!r}")
    for task in state.queue:
        if task.kind not in TASK_KINDS:
            raise CorruptSave(f"this Nagaraja save has an unknown chance event {task.kind!r}")
    try:
        check_invariants(state)
    except AssertionError as error:
        raise CorruptSave(f"this Nagaraja save does not add up: {error}") from None
    for p in state.players:
        unknown = [a for a in p.amulets if a not in state.edition.amulets]
        if unknown:
            raise CorruptSave(f"this Nagaraja save names an unknown amulet {unknown[0]!r}")


