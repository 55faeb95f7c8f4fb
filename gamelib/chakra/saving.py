"""The Chakra save format, both ways: ``to_json`` writes colour and level *names*; ``from_json``
reads a save back, checking everything a hand edit could break.

Every problem becomes a :class:`gamelib.CorruptSave` whose message names the field and the rule.
"""

from __future__ import annotations

import json

from gamelib.core import CorruptSave, IllegalMove, check_save_header, load_json, require_fields, save_header
from gamelib.chakra.components import (
    BHAGYA, CAPACITY, CHAKRAS, COLOUR_NAMES, LEVEL_NAMES, PLENITUDE_TOKENS, SPACES, PlayerBoard, colour_id,
)
from gamelib.chakra.invariants import invariant_violations
from gamelib.chakra.rules import GAME, SAVE_VERSION, Rules, State

WHAT = "Chakra save"
STATE_FIELDS = ("rules", "bag", "maya", "plenitude", "unused_plenitude", "removed_blacks", "first_player",
                "to_move", "turns", "end_triggered", "refill_pending", "finished", "seed", "draws",
                "explicit_chance", "players")
BOARD_FIELDS = ("levels", "earth", "reserve", "spaces", "notches", "meditation")


def to_dict(state: State) -> dict:
    """The save document of ``state`` as a JSON-ready dict."""
    return {
        **save_header(GAME, SAVE_VERSION),
        "rules": state.rules.to_dict(),
        "bag": {COLOUR_NAMES[c]: n for c, n in enumerate(state.bag)},
        "maya": [[COLOUR_NAMES[c] for c in column] for column in state.maya],
        "plenitude": {COLOUR_NAMES[level]: state.plenitude[level - 1] for level in CHAKRAS},
        "unused_plenitude": state.unused_plenitude,
        "removed_blacks": state.removed_blacks,
        "first_player": state.first_player,
        "to_move": state.to_move,
        "turns": list(state.turns),
        "end_triggered": state.end_triggered,
        "refill_pending": state.refill_pending,
        "finished": state.finished,
        "seed": state.seed,
        "draws": state.draws,
        "explicit_chance": state.explicit_chance,
        "players": [board.to_dict() for board in state.players],
    }


def to_json(state: State) -> str:
    return json.dumps(to_dict(state))


def from_json(text) -> State:
    return from_dict(load_json(text, WHAT))


def from_dict(data: dict) -> State:
    """A state from a save document; :class:`CorruptSave` names what is wrong."""
    check_save_header(data, GAME, SAVE_VERSION)
    require_fields(data, STATE_FIELDS, WHAT)
    try:
        state = _build(data)
    except CorruptSave:
        raise
    except (IllegalMove, ValueError, TypeError, KeyError, AttributeError) as error:
        raise CorruptSave(f"this {WHAT} is damaged: {error}") from None
    _check_consistency(state)
    return state


def _build(data: dict) -> State:
    if not isinstance(data["rules"], dict):
        raise CorruptSave("'rules' should be an object of rule parameters")
    rules = Rules.from_dict(data["rules"])
    players = data["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise CorruptSave("'players' should list 2 to 4 player boards")
    n = len(players)
    bag = _colour_counts(data["bag"], "bag")
    maya = data["maya"]
    if not isinstance(maya, list) or len(maya) != 3:
        raise CorruptSave("'maya' should list exactly 3 columns")
    maya = tuple(_colour_list(column, f"Maya column {i}", CAPACITY) for i, column in enumerate(maya))
    plenitude = data["plenitude"]
    if not isinstance(plenitude, dict) or set(plenitude) != set(COLOUR_NAMES[1:]):
        raise CorruptSave("'plenitude' should give a value for each of RED .. PURPLE")
    values = tuple(plenitude[COLOUR_NAMES[level]] for level in CHAKRAS)
    for value in values + (data["unused_plenitude"],):
        if value not in (1, 2, 3, 4):
            raise CorruptSave(f"plenitude values are 1 to 4, not {value!r}")
    boards = tuple(_board(board, i, rules) for i, board in enumerate(players))
    for name in ("first_player", "to_move"):
        _int(data[name], name, 0, n - 1)
    turns = data["turns"]
    if not isinstance(turns, list) or len(turns) != n:
        raise CorruptSave(f"'turns' should list one number per player ({n})")
    for flag in ("end_triggered", "refill_pending", "finished", "explicit_chance"):
        if not isinstance(data[flag], bool):
            raise CorruptSave(f"'{flag}' should be true or false")
    return State(rules=rules, players=boards, bag=bag, maya=maya, plenitude=values,
                 unused_plenitude=data["unused_plenitude"], removed_blacks=_int(data["removed_blacks"], "removed_blacks"),
                 first_player=data["first_player"], to_move=data["to_move"],
                 turns=tuple(_int(t, "turns") for t in turns), end_triggered=data["end_triggered"],
                 refill_pending=data["refill_pending"], finished=data["finished"], seed=data["seed"],
                 draws=_int(data["draws"], "draws"), explicit_chance=data["explicit_chance"])


def _int(value, name, low=0, high=None):
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise CorruptSave(f"'{name}' should be a whole number {bounds}, not {value!r}")
    return value


def _colour_counts(counts, name) -> tuple:
    if not isinstance(counts, dict) or set(counts) != set(COLOUR_NAMES):
        raise CorruptSave(f"'{name}' should give a count for each colour {', '.join(COLOUR_NAMES)}")
    return tuple(_int(counts[c], f"{name} {c}") for c in COLOUR_NAMES)


def _colour_list(items, where, capacity) -> tuple:
    if not isinstance(items, list):
        raise CorruptSave(f"{where} should be a list of colours")
    if len(items) > capacity:
        raise CorruptSave(f"{where} holds {len(items)} energies; at most {capacity} fit there")
    return tuple(sorted(colour_id(c) for c in items))


def _board(data, seat, rules) -> PlayerBoard:
    where = f"player {seat}"
    if not isinstance(data, dict):
        raise CorruptSave(f"{where}'s board should be an object")
    require_fields(data, BOARD_FIELDS, f"{WHAT} ({where})")
    levels_data = data["levels"]
    names = set(LEVEL_NAMES[1:])
    if not isinstance(levels_data, dict) or set(levels_data) != names:
        raise CorruptSave(f"{where}'s 'levels' should list the contents of RED .. PURPLE and BHAGYA")
    levels = ((),) + tuple(_colour_list(levels_data[LEVEL_NAMES[level]], f"{where}'s {LEVEL_NAMES[level]}", CAPACITY)
                           for level in range(1, BHAGYA + 1))
    spaces = data["spaces"]
    if not isinstance(spaces, list) or any(s not in SPACES for s in spaces) or len(set(spaces)) != len(spaces):
        raise CorruptSave(f"{where}'s 'spaces' should list distinct channel spaces from {', '.join(SPACES)}")
    notches = data["notches"]
    if (not isinstance(notches, list) or any(n not in COLOUR_NAMES[1:] for n in notches)
            or len(set(notches)) != len(notches)):
        raise CorruptSave(f"{where}'s 'notches' should list distinct chakra colours")
    meditation = data["meditation"]
    if not isinstance(meditation, list) or any(m not in COLOUR_NAMES[1:] for m in meditation):
        raise CorruptSave(f"{where}'s 'meditation' should list chakra colours")
    return PlayerBoard(levels=levels, earth=_int(data["earth"], f"{where} earth"),
                       reserve=_int(data["reserve"], f"{where} reserve"), spaces=frozenset(spaces),
                       notches=frozenset(COLOUR_NAMES.index(n) for n in notches),
                       meditation=tuple(sorted(COLOUR_NAMES.index(m) for m in meditation)))


def _check_consistency(state: State) -> None:
    """The invariants of §3 that a hand edit could break."""
    problems = invariant_violations(state)
    if problems:
        raise CorruptSave(f"this {WHAT} breaks the rules: " + "; ".join(problems))
    known = list(state.plenitude) + [state.unused_plenitude]
    for value in set(known):
        if known.count(value) > PLENITUDE_TOKENS.count(value):
            raise CorruptSave(f"this {WHAT} uses the plenitude value {value} more than twice")
