"""Pangu saves, both directions: ``to_json`` writes the whole state, ``from_json`` reads it back.

A save starts with the header ``{"game": "pangu", "version": 2}`` and holds the whole state and
its log. Reading it checks the header and the shape of every field, then replays the log's moves
and chance events from the start and compares the result with the saved fields, so a hand-edited
Karma or board is caught ("the saved karma 10 does not match the moves in the log, which give 7").
The replay starts from the ``new_game`` call the save implies (its seed, its scripts, the deck order
its log reveals) and lets the engine draw from the seed, so the hidden future (deck order, seed,
draw count, remaining rolls) must be the one that seed or script gives. The deck is written out in
the save; a string may only be the built-in deck's name, never a file. Every damaged input, however
deep, long or odd, gives :class:`gamelib.CorruptSave` with a short reason.
"""

from __future__ import annotations

import json
import reprlib
from typing import Any

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
from gamelib.pangu.actions import EVENT_TYPES, Action
from gamelib.pangu.cards import LAYOUTS, YANG, YIN, DeckError, deck_from_document, teaching_deck
from gamelib.pangu.rules import Rules, State, new_game

GAME = "pangu"
SAVE_VERSION = 2  # version 1 was the "format": "gamelib.pangu/1" header

FIELDS = (
    "rules",
    "cards",
    "centre",
    "grid",
    "deck",
    "revealed",
    "roll",
    "karma",
    "status",
    "turn",
    "turn_start_karma",
    "gained_this_turn",
    "to_reveal",
    "roll_reason",
    "pending",
    "seed",
    "draws",
    "deck_order_fixed",
    "rolls_script",
    "explicit_chance",
    "log",
)
COMPARED = (
    "centre",
    "grid",
    "revealed",
    "roll",
    "karma",
    "status",
    "turn",
    "turn_start_karma",
    "gained_this_turn",
    "to_reveal",
    "roll_reason",
    "pending",
    "deck",
    "draws",
    "deck_order_fixed",
    "rolls_script",
    "log",
)
HIDDEN_FUTURE = ("deck", "draws", "deck_order_fixed", "rolls_script")
MAX_SAVE_SIZE = 1_000_000  # characters; a finished game saves in about 10,000 (parsing takes ~10x in memory)
MAX_DEPTH = 5  # a Pangu save nests 4 deep (save, log, event, revealed list); one level of slack
MAX_EVENTS = 2000  # a game logs about 30 events; a thousand stuck rerolls in a row never happens
MAX_SCRIPTED_ROLLS = 10_000
MAX_MESSAGE = 300  # characters of a refusal shown to the reader


# ----------------------------------------------------------------------------- writing


def to_json(state: State) -> str:
    """A JSON save of the whole state (including the hidden deck order: it is a save file)."""
    return json.dumps(
        {
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
        }
    )


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
    try:
        return _read(text)
    except CorruptSave as error:  # reasons echo saved values: keep what the reader sees short
        reason = str(error)
        if len(reason) > MAX_MESSAGE:
            raise CorruptSave(reason[: MAX_MESSAGE - 3] + "...") from None
        raise


def _read(text: Any) -> State:
    if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_SAVE_SIZE:
        raise CorruptSave(f"this Pangu save is {len(text):,} characters long; no save is longer than {MAX_SAVE_SIZE:,}")
    data = load_json(text, "Pangu save")
    _check_nesting(data)
    check_save_header(data, GAME, SAVE_VERSION)
    require_fields(data, FIELDS, "Pangu save")
    unknown = sorted(map(_show, set(data) - set(FIELDS) - {"game", "version"}))
    if unknown:
        raise CorruptSave(f"this Pangu save has unknown field(s) {', '.join(unknown)}")
    try:
        rules = Rules.from_dict(data["rules"])
    except (TypeError, ValueError) as error:
        raise CorruptSave(f"the saved rules are invalid: {error}") from None
    require_rule_fields(data["rules"], Rules, "Pangu save")
    cards = _cards(data["cards"])
    state = State(
        rules=rules,
        cards=cards,
        centre=_choice(data, "centre", ("YIN_LEFT", "YANG_LEFT", None)),
        grid=_grid(data["grid"], rules, cards),
        deck=_ids(data, "deck", cards),
        revealed=_ids(data, "revealed", cards),
        roll=_roll(data["roll"], "roll", allow_none=True),
        karma=_int(data, "karma"),
        status=_choice(data, "status", ("ONGOING", "WON", "LOST")),
        turn=_int(data, "turn"),
        turn_start_karma=_int(data, "turn_start_karma"),
        gained_this_turn=_int(data, "gained_this_turn"),
        to_reveal=_int(data, "to_reveal"),
        roll_reason=_choice(data, "roll_reason", ("turn", "placement", "stuck")),
        pending=_choice(data, "pending", ("centre", "draw", "roll", None)),
        seed=_seed(data["seed"]),
        draws=_int(data, "draws"),
        deck_order_fixed=_bool(data, "deck_order_fixed"),
        rolls_script=_script(data["rolls_script"]),
        explicit_chance=_bool(data, "explicit_chance"),
        log=_log(data["log"]),
    )
    _check_cards_conserved(state)
    return _check_against_replay(state)


class _Brief(reprlib.Repr):
    """A short repr for the reasons: long lists, strings and numbers are cut."""

    def __init__(self):
        super().__init__()
        self.maxlevel, self.maxlist, self.maxdict, self.maxstring, self.maxother = 3, 6, 4, 40, 40

    def repr_int(self, value, level):
        if value.bit_length() > 128:  # the repr would be long, and beyond 4300 digits it raises
            return f"<a whole number of {value.bit_length()} bits>"
        return repr(value)


_show = _Brief().repr


# ----------------------------------------------------------------------------- field checks


def _check_nesting(data: Any) -> None:
    """Refuse lists or objects nested deeper than any Pangu save, before anything reads or echoes them."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
        for child in children:
            if isinstance(child, (dict, list, tuple)):
                if depth >= MAX_DEPTH:
                    raise CorruptSave(
                        f"this Pangu save nests lists or objects more than {MAX_DEPTH} levels deep, which no save does"
                    )
                stack.append((child, depth + 1))


def _cards(value: Any):
    """The saved deck: written out in the save, or the built-in deck's name. Never a file."""
    builtin = teaching_deck()
    if isinstance(value, str):
        if value == builtin.name:
            return builtin
        raise CorruptSave(
            f"'cards' should be the deck written out in the save or the built-in deck's name "
            f"{builtin.name!r}, not {_show(value)}: a save never names a file"
        )
    if not isinstance(value, dict):
        raise CorruptSave(f"'cards' should be the saved deck (name and cards), not {_show(value)}")
    try:
        return deck_from_document(value)
    except DeckError as error:
        raise CorruptSave(f"the saved deck is invalid: {error}") from None


def _int(data: dict, name: str) -> int:
    value = data[name]
    if type(value) is not int:
        raise CorruptSave(f"'{name}' should be a whole number, not {_show(value)}")
    return value


def _bool(data: dict, name: str) -> bool:
    if not isinstance(data[name], bool):
        raise CorruptSave(f"'{name}' should be true or false, not {_show(data[name])}")
    return data[name]


def _choice(data: dict, name: str, allowed: tuple) -> Any:
    value = data[name]
    if not (value is None or isinstance(value, str)) or value not in allowed:  # a list cannot be looked up
        raise CorruptSave(f"'{name}' should be one of {', '.join(map(repr, allowed))}, not {_show(value)}")
    return value


def _seed(value: Any):
    """The seed check of ``new_game`` itself (gamelib.core.check_seed): what it accepts, a save reopens."""
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise CorruptSave(f"'seed' should be a number or text, not {_show(value)}")
    try:
        return check_seed(value)
    except ValueError as error:
        raise CorruptSave(f"'seed': {error}") from None


def _roll(value: Any, what: str, allow_none: bool = False):
    if value is None and allow_none:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(type(x) is int and 1 <= x <= 6 for x in value):
        raise CorruptSave(f"'{what}' should be a [blue, white] pair of numbers 1 to 6, not {_show(value)}")
    return (value[0], value[1])


def _script(value: Any):
    if value is None:
        return None
    if not isinstance(value, list):
        raise CorruptSave(f"'rolls_script' should be a list of rolls, not {_show(value)}")
    if len(value) > MAX_SCRIPTED_ROLLS:
        raise CorruptSave(f"'rolls_script' holds {len(value)} rolls; a save keeps at most {MAX_SCRIPTED_ROLLS}")
    return tuple(_roll(roll, "rolls_script entry") for roll in value)


def _ids(data: dict, name: str, cards) -> tuple[str, ...]:
    value = data[name]
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise CorruptSave(f"'{name}' should be a list of card ids, not {_show(value)}")
    unknown = [x for x in value if x not in cards]
    if unknown:
        raise CorruptSave(f"'{name}' names card(s) {', '.join(map(_show, unknown))} that are not in the saved deck")
    return tuple(value)


def _grid(value: Any, rules: Rules, cards) -> tuple:
    layout = LAYOUTS[rules.grid]
    if not isinstance(value, list) or len(value) != layout.size:
        raise CorruptSave(f"'grid' should list the {layout.size} cells of the {rules.grid} layout")
    grid = []
    for index, entry in enumerate(value):
        where = layout.cell_of[index]
        if index in layout.centre:
            if entry not in (YIN, YANG, None) or not (entry is None or isinstance(entry, str)):
                raise CorruptSave(f"centre cell {where} should hold YIN or YANG, not {_show(entry)}")
            grid.append(entry)
        elif entry is None:
            grid.append(None)
        elif (
            isinstance(entry, list)
            and len(entry) == 2
            and entry[0] in cards
            and type(entry[1]) is int
            and entry[1] in (0, 180)
        ):
            grid.append((entry[0], entry[1]))
        else:
            raise CorruptSave(f"cell {where} should be empty or [card id, 0 or 180], not {_show(entry)}")
    return tuple(grid)


def _log(value: Any) -> tuple:
    if not isinstance(value, list):
        raise CorruptSave("'log' should be a list of events")
    if len(value) > MAX_EVENTS:
        raise CorruptSave(f"the log holds {len(value)} events; no Pangu game logs more than {MAX_EVENTS}")
    try:
        return tuple(_event_from_dict(event) for event in value)
    except TypeError as error:
        raise CorruptSave(f"the log holds a malformed event ({error})") from None


def _event_from_dict(data: Any):
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in EVENT_TYPES:
        raise CorruptSave(f"the log holds an unknown event {_show(data)}")
    cls = EVENT_TYPES[data["kind"]]
    values = {key: value for key, value in data.items() if key != "kind"}
    if set(values) != set(cls._fields):
        raise CorruptSave(f"a '{data['kind']}' event in the log should have {', '.join(cls._fields)}")
    if "cell" in values:
        values["cell"] = _as_cell(values["cell"], "a logged cell")
    if "revealed" in values:
        if not isinstance(values["revealed"], list):
            raise CorruptSave(f"a logged turn start should list the revealed cards, not {_show(values['revealed'])}")
        values["revealed"] = tuple(values["revealed"])
    return cls(**values)


def _as_cell(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(type(x) is int for x in value):
        raise CorruptSave(f"{what} should be a [row, column] pair, not {_show(value)}")
    return (value[0], value[1])


def _check_cards_conserved(state: State) -> None:
    on_board = [entry[0] for entry in state.grid if isinstance(entry, tuple)]
    everywhere = on_board + list(state.revealed) + list(state.deck)  # a card lost on payment stays revealed
    for card_id in state.cards.ids:
        count = everywhere.count(card_id)
        if count != 1:
            raise CorruptSave(
                f"card {card_id} appears {count} times across the board, the revealed cards and "
                f"the deck: every card must be in exactly one place"
            )


# ----------------------------------------------------------------------------- replay


def _check_against_replay(saved: State) -> State:
    """Replay the log from the ``new_game`` call the save implies; every saved field must agree.

    Returns the replayed state (built by the engine, so no loose type of the file survives).
    A seeded game may have shuffled from its seed or taken a scripted deck order: both starts
    are tried, and the one agreeing on more fields names the problem.
    """
    problems = []
    for start in _possible_starts(saved):
        try:
            replayed = _replay(start, saved)
        except IllegalMove as error:
            problems.append((len(COMPARED), f"the log does not replay under the saved rules: {error.reason}"))
            continue
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
            problems.append((len(COMPARED), f"the log holds a malformed event ({_show(str(error))})"))
            continue
        differing = [name for name in COMPARED if getattr(saved, name) != getattr(replayed, name)]
        if not differing:
            return replayed
        problems.append((len(differing), _mismatch(saved, replayed, differing[0])))
    if not problems:
        raise CorruptSave("the saved deck order and scripts do not describe any game the rules can set up")
    raise CorruptSave(min(problems, key=lambda problem: problem[0])[1])


def _mismatch(saved: State, replayed: State, name: str) -> str:
    mine, theirs = _show_field(getattr(saved, name)), _show_field(getattr(replayed, name))
    if name == "log":
        return "the saved log is not what its own moves produce: the file was edited or damaged"
    if name in HIDDEN_FUTURE:
        return (
            f"the saved {name} {mine} is not what the game's seed and scripts give ({theirs}): "
            f"the hidden future was edited"
        )
    return (
        f"the saved {name} {mine} does not match the moves in the log, which give {theirs}: "
        f"the file was edited or damaged"
    )


def _show_field(value) -> str:
    return _show(list(value)) if isinstance(value, tuple) else _show(value)


def _possible_starts(saved: State) -> list[State]:
    """The games ``new_game`` could have set up for this save: a seeded or a scripted deck, its roll script."""
    logged_rolls = [(event.blue, event.white) for event in saved.log if event.kind == "roll"]
    rolls = None if saved.rolls_script is None else logged_rolls + list(saved.rolls_script)
    orders = []
    if not saved.deck_order_fixed or not saved.explicit_chance:
        orders.append(None)  # shuffled from the seed, or drawn at explicit chance nodes
    if saved.deck_order_fixed:  # a scripted deck: the cards the log revealed, then the rest
        orders.append(
            [card for event in saved.log if event.kind == "turn_start" for card in event.revealed] + list(saved.deck)
        )
    starts = []
    for order in orders:
        try:
            starts.append(
                new_game(
                    seed=saved.seed,
                    rules=saved.rules,
                    cards=saved.cards,
                    explicit_chance=saved.explicit_chance,
                    deck=order,
                    rolls=rolls,
                )
            )
        except (IllegalMove, TypeError, ValueError):  # no setup the rules allow (or its script runs out)
            continue
    return starts


def _replay(start: State, saved: State) -> State:
    """Feed the log's placements (and, at explicit chance nodes, its chance events) to ``start``.

    Events the engine writes by itself (setup, reveals and rolls drawn from the seed or a script,
    stuck penalties, the end) are skipped here and compared with the saved log afterwards.
    """
    state, log, position = start, saved.log, 0
    wanted = {None: "placement", "centre": "setup", "draw": "turn_start", "roll": "roll"}
    while not state.is_terminal:
        kind = wanted[state.pending]
        while position < len(log) and log[position].kind != kind:
            position += 1
        if position >= len(log):
            if state.pending == "draw":  # a turn being revealed one card at a time, saved part way
                for card_id in saved.revealed[len(state.revealed) :]:
                    state = state.apply(card_id)
            return state
        event = log[position]
        position += 1
        if kind == "placement":
            state = state.apply(Action(event.card, event.die, event.cell, event.orientation))
        elif kind == "setup":
            state = state.apply(event.centre)
        elif kind == "roll":
            state = state.apply((event.blue, event.white))
        else:
            for card_id in event.revealed[len(state.revealed) :]:
                state = state.apply(card_id)
    return state
