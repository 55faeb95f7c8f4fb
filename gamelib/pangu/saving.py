"""Pangu saves, both directions: ``to_json`` writes the whole state, ``from_json`` reads it back.

A save starts with the header ``{"game": "pangu", "version": 2}`` and holds the whole state and
its log. Reading it checks the header and the shape of every field, then replays the log's moves
and chance events from the start and compares the result with the saved fields, so a hand-edited
Karma or board is caught ("the saved karma 10 does not match the moves in the log, which give 7").
"""

from __future__ import annotations

import json
from typing import Any

from gamelib.core import CorruptSave, IllegalMove, check_save_header, load_json, require_fields, save_header
from gamelib.pangu.actions import EVENT_TYPES, Action
from gamelib.pangu.cards import LAYOUTS, YANG, YIN, DeckError, load_deck
from gamelib.pangu.rules import Rules, State, new_game

GAME = "pangu"
SAVE_VERSION = 2  # version 1 was the "format": "gamelib.pangu/1" header

FIELDS = ("rules", "cards", "centre", "grid", "deck", "revealed", "roll", "karma", "status", "turn",
          "turn_start_karma", "gained_this_turn", "to_reveal", "roll_reason", "pending", "seed", "draws",
          "deck_order_fixed", "rolls_script", "explicit_chance", "log")
COMPARED = ("centre", "grid", "revealed", "roll", "karma", "status", "turn", "turn_start_karma",
            "gained_this_turn", "to_reveal", "roll_reason", "pending", "log")


# ----------------------------------------------------------------------------- writing


def to_json(state: State) -> str:
    """A JSON save of the whole state (including the hidden deck order: it is a save file)."""
    return json.dumps({
        **save_header(GAME, SAVE_VERSION),
        "rules": state.rules.to_dict(),
        "cards": state.cards.to_dict(),
        "centre": state.centre,
        "grid": [list(entry) if isinstance(entry, tuple) else entry for entry in state.grid],
        "deck": list(state.deck),
        "revealed": list(state.revealed),
        "roll": list(state.roll) if state.roll else None,
        "karma": state.karma,
        "status": state.status,
        "turn": state.turn,
        "turn_start_karma": state.turn_start_karma,
        "gained_this_turn": state.gained_this_turn,
        "to_reveal": state.to_reveal,
        "roll_reason": state.roll_reason,
        "pending": state.pending,
        "seed": state.seed,
        "draws": state.draws,
        "deck_order_fixed": state.deck_order_fixed,
        "rolls_script": [list(r) for r in state.rolls_script] if state.rolls_script is not None else None,
        "explicit_chance": state.explicit_chance,
        "log": [event_to_dict(event) for event in state.log],
    })


def event_to_dict(event) -> dict:
    data = {"kind": event.kind, **event._asdict()}
    if "cell" in data:
        data["cell"] = list(data["cell"])
    if "revealed" in data:
        data["revealed"] = list(data["revealed"])
    return data


# ----------------------------------------------------------------------------- reading


def from_json(text: Any) -> State:
    """Read a save; any damage or hand edit raises :class:`gamelib.CorruptSave` saying what is wrong."""
    data = load_json(text, "Pangu save")
    check_save_header(data, GAME, SAVE_VERSION)
    require_fields(data, FIELDS, "Pangu save")
    try:
        rules = Rules.from_dict(data["rules"])
    except (TypeError, ValueError) as error:
        raise CorruptSave(f"the saved rules are invalid: {error}") from None
    try:
        cards = load_deck(data["cards"])
    except DeckError as error:
        raise CorruptSave(f"the saved deck is invalid: {error}") from None
    state = State(
        rules=rules, cards=cards,
        centre=_choice(data, "centre", ("YIN_LEFT", "YANG_LEFT", None)),
        grid=_grid(data["grid"], rules, cards),
        deck=_ids(data, "deck", cards), revealed=_ids(data, "revealed", cards),
        roll=_roll(data["roll"], "roll", allow_none=True),
        karma=_int(data, "karma"), status=_choice(data, "status", ("ONGOING", "WON", "LOST")),
        turn=_int(data, "turn"), turn_start_karma=_int(data, "turn_start_karma"),
        gained_this_turn=_int(data, "gained_this_turn"), to_reveal=_int(data, "to_reveal"),
        roll_reason=_choice(data, "roll_reason", ("turn", "placement", "stuck")),
        pending=_choice(data, "pending", ("centre", "draw", "roll", None)),
        seed=_seed(data["seed"]), draws=_int(data, "draws"),
        deck_order_fixed=_bool(data, "deck_order_fixed"),
        rolls_script=_script(data["rolls_script"]), explicit_chance=_bool(data, "explicit_chance"),
        log=_log(data["log"]))
    _check_cards_conserved(state)
    _check_against_replay(state)
    return state


# ----------------------------------------------------------------------------- field checks


def _int(data: dict, name: str) -> int:
    value = data[name]
    if type(value) is not int:
        raise CorruptSave(f"'{name}' should be a whole number, not {value!r}")
    return value


def _bool(data: dict, name: str) -> bool:
    if not isinstance(data[name], bool):
        raise CorruptSave(f"'{name}' should be true or false, not {data[name]!r}")
    return data[name]


def _choice(data: dict, name: str, allowed: tuple) -> Any:
    if data[name] not in allowed:
        raise CorruptSave(f"'{name}' should be one of {', '.join(map(repr, allowed))}, not {data[name]!r}")
    return data[name]


def _seed(value: Any):
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise CorruptSave(f"'seed' should be a number or text, not {value!r}")
    return value


def _roll(value: Any, what: str, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if (not isinstance(value, list) or len(value) != 2
            or not all(type(x) is int and 1 <= x <= 6 for x in value)):
        raise CorruptSave(f"'{what}' should be a [blue, white] pair of numbers 1 to 6, not {value!r}")
    return (value[0], value[1])


def _script(value: Any):
    if value is None:
        return None
    if not isinstance(value, list):
        raise CorruptSave(f"'rolls_script' should be a list of rolls, not {value!r}")
    return tuple(_roll(roll, "rolls_script entry") for roll in value)


def _ids(data: dict, name: str, cards) -> tuple[str, ...]:
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise CorruptSave(f"'{name}' should be a list of card ids, not {value!r}")
    unknown = [x for x in value if x not in cards]
    if unknown:
        raise CorruptSave(f"'{name}' names card(s) {', '.join(unknown)} that are not in the saved deck")
    return tuple(value)


def _grid(value: Any, rules: Rules, cards) -> tuple:
    layout = LAYOUTS[rules.grid]
    if not isinstance(value, list) or len(value) != layout.size:
        raise CorruptSave(f"'grid' should list the {layout.size} cells of the {rules.grid} layout")
    grid = []
    for index, entry in enumerate(value):
        where = layout.cell_of[index]
        if index in layout.centre:
            if entry not in (YIN, YANG, None):
                raise CorruptSave(f"centre cell {where} should hold YIN or YANG, not {entry!r}")
            grid.append(entry)
        elif entry is None:
            grid.append(None)
        elif (isinstance(entry, list) and len(entry) == 2 and entry[0] in cards and entry[1] in (0, 180)):
            grid.append((entry[0], entry[1]))
        else:
            raise CorruptSave(f"cell {where} should be empty or [card id, 0 or 180], not {entry!r}")
    return tuple(grid)


def _log(value: Any) -> tuple:
    if not isinstance(value, list):
        raise CorruptSave("'log' should be a list of events")
    try:
        return tuple(_event_from_dict(event) for event in value)
    except TypeError as error:
        raise CorruptSave(f"the log holds a malformed event ({error})") from None


def _event_from_dict(data: Any):
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise CorruptSave(f"the log holds an unknown event {data!r}")
    cls = EVENT_TYPES[data["kind"]]
    values = {key: value for key, value in data.items() if key != "kind"}
    if set(values) != set(cls._fields):
        raise CorruptSave(f"a '{data['kind']}' event in the log should have {', '.join(cls._fields)}")
    if "cell" in values:
        values["cell"] = _as_cell(values["cell"], "a logged cell")
    if "revealed" in values:
        values["revealed"] = tuple(values["revealed"])
    return cls(**values)


def _as_cell(value: Any, what: str) -> tuple[int, int]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(type(x) is int for x in value)):
        raise CorruptSave(f"{what} should be a [row, column] pair, not {value!r}")
    return (value[0], value[1])


def _check_cards_conserved(state: State) -> None:
    on_board = [entry[0] for entry in state.grid if isinstance(entry, tuple)]
    everywhere = on_board + list(state.revealed) + list(state.deck)  # a card lost on payment stays revealed
    for card_id in state.cards.ids:
        count = everywhere.count(card_id)
        if count != 1:
            raise CorruptSave(f"card {card_id} appears {count} times across the board, the revealed cards and "
                              f"the deck: every card must be in exactly one place")


# ----------------------------------------------------------------------------- replay


def _check_against_replay(saved: State) -> None:
    """Replay the log's moves and chance from the start; every saved field must agree."""
    try:
        replayed = _replay(saved)
    except IllegalMove as error:
        raise CorruptSave(f"the log does not replay under the saved rules: {error.reason}") from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
        raise CorruptSave(f"the log holds a malformed event ({error})") from None
    for name in COMPARED:
        mine, theirs = getattr(saved, name), getattr(replayed, name)
        if mine != theirs:
            if name == "log":
                raise CorruptSave("the saved log is not what its own moves produce: the file was edited or damaged")
            raise CorruptSave(f"the saved {name} {_show(mine)} does not match the moves in the log, which give "
                              f"{_show(theirs)}: the file was edited or damaged")
    if set(saved.deck) != set(replayed.deck):
        raise CorruptSave("the saved deck does not hold the cards the log leaves unseen: the file was edited")


def _show(value) -> str:
    return repr(list(value)) if isinstance(value, tuple) else repr(value)


def _replay(saved: State) -> State:
    state = new_game(seed=0, rules=saved.rules, cards=saved.cards, explicit_chance=True)
    log = saved.log
    position = 0
    draws_this_turn: list[str] = []
    partial_reveal_fed = False
    while True:
        # skip events the engine writes by itself; they are compared at the end
        while position < len(log) and log[position].kind in ("setup", "stuck_penalty", "game_end"):
            if log[position].kind == "setup" and state.pending == "centre":
                state = state.apply(log[position].centre)
            position += 1
        if state.pending == "draw":
            if not draws_this_turn:
                if position < len(log) and log[position].kind == "turn_start":
                    draws_this_turn = list(log[position].revealed)
                    position += 1
                elif position >= len(log) and saved.pending == "draw" and not partial_reveal_fed:
                    draws_this_turn = list(saved.revealed)  # a turn being revealed one card at a time
                    partial_reveal_fed = True
            if not draws_this_turn:
                return state
            state = state.apply(draws_this_turn.pop(0))
            continue
        if position >= len(log) or state.is_terminal:
            return state
        event = log[position]
        position += 1
        if state.pending == "roll" and event.kind == "roll":
            state = state.apply((event.blue, event.white))
        elif state.pending is None and event.kind == "placement":
            state = state.apply(Action(event.card, event.die, event.cell, event.orientation))
        else:
            raise CorruptSave(f"the log's event '{event}' cannot happen at that point of the game")
