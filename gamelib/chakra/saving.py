"""The Chakra save format, both ways: ``to_json`` writes colour and level *names*; ``from_json``
reads a save back, checking everything a hand edit could break.

A save holds the whole position and the game's log (every action since ``new_game``, and with
explicit chance every refill outcome). Reading it checks the shape of every field and the
invariants of chakra.md#programmers, then replays the log from the setup (seed, rules, players, first player) and
refuses any saved field that differs from the replay, so a loaded state is always one the rules
reach. A position built by hand has no log and cannot be loaded.

Every problem becomes a :class:`gamelib.CorruptSave` whose message names the field and the rule.
"""

from __future__ import annotations

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
from gamelib.chakra.actions import Channel, Meditate, Receive, Step
from gamelib.chakra.components import (
    BHAGYA,
    CAPACITY,
    CHAKRAS,
    COLOUR_NAMES,
    DOWN,
    LEVEL_NAMES,
    PLENITUDE_TOKENS,
    SPACES,
    UP,
    PlayerBoard,
    shown,
)
from gamelib.chakra.invariants import invariant_violations
from gamelib.chakra.rules import Rules, State, new_game

GAME = "chakra"
SAVE_VERSION = 3  # 3: a save carries the game's log and is replayed on loading; 2: observations are dicts
WHAT = "Chakra save"
STATE_FIELDS = (
    "rules",
    "bag",
    "maya",
    "plenitude",
    "unused_plenitude",
    "removed_blacks",
    "first_player",
    "to_move",
    "turns",
    "end_triggered",
    "refill_pending",
    "finished",
    "seed",
    "draws",
    "explicit_chance",
    "players",
    "log",
)
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
        "log": None if state.log is None else [entry_to_dict(entry) for entry in state.log],
    }


_DIRECTION_NAMES = {DOWN: "down", UP: "up"}


def entry_to_dict(entry) -> dict:
    """One log entry as the save writes it: an action, or (explicit chance) the colour a refill drew."""
    if isinstance(entry, Receive):
        return {
            "receive": entry.column,
            "colours": [COLOUR_NAMES[c] for c in sorted(entry.colours)],
            "to": LEVEL_NAMES[entry.destination],
        }
    if isinstance(entry, Channel):
        return {
            "channel": entry.space,
            "steps": [
                [LEVEL_NAMES[s.level], COLOUR_NAMES[s.colour], _DIRECTION_NAMES[s.direction], s.distance]
                for s in entry.steps
            ],
            "take": None if entry.bag_colour is None else COLOUR_NAMES[entry.bag_colour],
        }
    if isinstance(entry, Meditate):
        return {"meditate": None if entry.colour is None else COLOUR_NAMES[entry.colour]}
    return {"refill": COLOUR_NAMES[entry]}


def to_json(state: State) -> str:
    return json.dumps(to_dict(state))


def from_json(text) -> State:
    return from_dict(load_json(text, WHAT))


def from_dict(data: dict) -> State:
    """A state from a save document; :class:`CorruptSave` names what is wrong."""
    check_save_header(data, GAME, SAVE_VERSION)
    require_fields(data, STATE_FIELDS, WHAT)
    _no_unknown_fields(data, ("game", "version") + STATE_FIELDS, WHAT)
    try:
        log = _log(data["log"])
        state = _build(data)
    except CorruptSave:
        raise
    except (IllegalMove, ValueError, TypeError, KeyError, AttributeError) as error:
        raise CorruptSave(f"this {WHAT} is damaged: {error}") from None
    _check_consistency(state)
    return _check_against_replay(state, log)


def _build(data: dict) -> State:
    if not isinstance(data["rules"], dict):
        raise CorruptSave("'rules' should be an object of rule parameters")
    require_rule_fields(data["rules"], Rules, WHAT)
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
        if type(value) is not int or value not in (1, 2, 3, 4):
            raise CorruptSave(f"plenitude values are 1 to 4, not {shown(value)}")
    boards = tuple(_board(board, i, rules) for i, board in enumerate(players))
    for name in ("first_player", "to_move"):
        _int(data[name], name, 0, n - 1)
    turns = data["turns"]
    if not isinstance(turns, list) or len(turns) != n:
        raise CorruptSave(f"'turns' should list one number per player ({n})")
    for flag in ("end_triggered", "refill_pending", "finished", "explicit_chance"):
        if not isinstance(data[flag], bool):
            raise CorruptSave(f"'{flag}' should be true or false")
    return State(
        rules=rules,
        players=boards,
        bag=bag,
        maya=maya,
        plenitude=values,
        unused_plenitude=data["unused_plenitude"],
        removed_blacks=_int(data["removed_blacks"], "removed_blacks"),
        first_player=data["first_player"],
        to_move=data["to_move"],
        turns=tuple(_int(t, "turns") for t in turns),
        end_triggered=data["end_triggered"],
        refill_pending=data["refill_pending"],
        finished=data["finished"],
        seed=_seed(data["seed"]),
        draws=_int(data["draws"], "draws"),
        explicit_chance=data["explicit_chance"],
    )


def _no_unknown_fields(data: dict, known: tuple, what: str) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise CorruptSave(f"this {what} has fields no Chakra save has: {shown(unknown)}")


def _seed(value):
    try:
        return check_seed(value)
    except ValueError as error:
        raise CorruptSave(f"'seed': {error}") from None


def _int(value, name, low=0, high=None):
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise CorruptSave(f"'{name}' should be a whole number {bounds}, not {shown(value)}")
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
    return tuple(sorted(_colour_name(c, where) for c in items))


def _colour_name(name, where) -> int:
    if not isinstance(name, str) or name not in COLOUR_NAMES:
        raise CorruptSave(f"{where}: {shown(name)} is not a colour name ({', '.join(COLOUR_NAMES)})")
    return COLOUR_NAMES.index(name)


def _board(data, seat, rules) -> PlayerBoard:
    where = f"player {seat}"
    if not isinstance(data, dict):
        raise CorruptSave(f"{where}'s board should be an object")
    require_fields(data, BOARD_FIELDS, f"{WHAT} ({where})")
    _no_unknown_fields(data, BOARD_FIELDS, f"{where}'s board")
    levels_data = data["levels"]
    names = set(LEVEL_NAMES[1:])
    if not isinstance(levels_data, dict) or set(levels_data) != names:
        raise CorruptSave(f"{where}'s 'levels' should list the contents of RED .. PURPLE and BHAGYA")
    levels = ((),) + tuple(
        _colour_list(levels_data[LEVEL_NAMES[level]], f"{where}'s {LEVEL_NAMES[level]}", CAPACITY)
        for level in range(1, BHAGYA + 1)
    )
    spaces = data["spaces"]
    if not isinstance(spaces, list) or any(s not in SPACES for s in spaces) or len(set(spaces)) != len(spaces):
        raise CorruptSave(f"{where}'s 'spaces' should list distinct channel spaces from {', '.join(SPACES)}")
    notches = data["notches"]
    if (
        not isinstance(notches, list)
        or any(n not in COLOUR_NAMES[1:] for n in notches)
        or len(set(notches)) != len(notches)
    ):
        raise CorruptSave(f"{where}'s 'notches' should list distinct chakra colours")
    meditation = data["meditation"]
    if not isinstance(meditation, list) or not meditation or any(m not in COLOUR_NAMES[1:] for m in meditation):
        raise CorruptSave(f"{where}'s 'meditation' should list one or more chakra colours")
    if len(set(meditation)) != len(meditation) and not rules.allow_repeat_meditation:
        raise CorruptSave(f"{where}'s 'meditation' holds a colour twice, which only allow_repeat_meditation allows")
    return PlayerBoard(
        levels=levels,
        earth=_int(data["earth"], f"{where} earth"),
        reserve=_int(data["reserve"], f"{where} reserve"),
        spaces=frozenset(spaces),
        notches=frozenset(COLOUR_NAMES.index(n) for n in notches),
        meditation=tuple(sorted(COLOUR_NAMES.index(m) for m in meditation)),
    )


def _check_consistency(state: State) -> None:
    """The invariants of chakra.md#programmers that a hand edit could break."""
    problems = invariant_violations(state)
    if problems:
        raise CorruptSave(f"this {WHAT} breaks the rules: " + "; ".join(problems))
    known = list(state.plenitude) + [state.unused_plenitude]
    for value in set(known):
        if known.count(value) > PLENITUDE_TOKENS.count(value):
            raise CorruptSave(f"this {WHAT} uses the plenitude value {value} more than twice")


# --------------------------------------------------------------------------- the log and its replay


def _log(entries) -> tuple:
    if entries is None:
        raise CorruptSave(
            f"this {WHAT} has no log: it was saved from a position built by hand, which no "
            "game reached, so it cannot be loaded (start games with new_game to save them)"
        )
    if not isinstance(entries, list):
        raise CorruptSave(f"'log' should be a list of moves, not {shown(entries)}")
    return tuple(_entry(entry, index) for index, entry in enumerate(entries))


_ENTRY_KEYS = {
    "receive": {"receive", "colours", "to"},
    "channel": {"channel", "steps", "take"},
    "meditate": {"meditate"},
    "refill": {"refill"},
}
_DIRECTION_BY_NAME = {name: direction for direction, name in _DIRECTION_NAMES.items()}


def _entry(entry, index):
    """A log entry back as an action (or a refill colour id); names must be written as the save writes them."""
    kind = next((key for key in _ENTRY_KEYS if isinstance(entry, dict) and key in entry), None)
    if kind is None or set(entry) != _ENTRY_KEYS[kind]:
        raise CorruptSave(
            f"log entry {index} should be a receive, channel, meditate or refill move, not {shown(entry)}"
        )
    where = f"log entry {index}"
    try:
        if kind == "receive":
            colours = entry["colours"]
            if not isinstance(colours, list):
                raise CorruptSave(f"{where}: 'colours' should be a list of colour names")
            column = entry["receive"]
            if type(column) is not int:
                raise CorruptSave(f"{where}: the Maya column should be 0, 1 or 2, not {shown(column)}")
            return Receive(column, [_colour_name(c, where) for c in colours], _level_name(entry["to"], where))
        if kind == "channel":
            steps = entry["steps"]
            if not isinstance(steps, list):
                raise CorruptSave(f"{where}: 'steps' should be a list")
            take = entry["take"]
            return Channel(
                _space_name(entry["channel"], where),
                tuple(_step(step, where) for step in steps),
                None if take is None else _colour_name(take, where),
            )
        if kind == "meditate":
            colour = entry["meditate"]
            return Meditate(None if colour is None else _colour_name(colour, where))
        return _colour_name(entry["refill"], where)
    except IllegalMove as error:
        raise CorruptSave(f"{where}: {error.reason}") from None


def _level_name(name, where) -> int:
    if not isinstance(name, str) or name not in LEVEL_NAMES:
        raise CorruptSave(f"{where}: {shown(name)} is not a level name ({', '.join(LEVEL_NAMES)})")
    return LEVEL_NAMES.index(name)


def _space_name(name, where) -> str:
    if not isinstance(name, str) or name not in SPACES:
        raise CorruptSave(f"{where}: {shown(name)} is not a channel space ({', '.join(SPACES)})")
    return name


def _step(step, where) -> Step:
    if not isinstance(step, list) or len(step) != 4 or step[2] not in _DIRECTION_BY_NAME or type(step[3]) is not int:
        raise CorruptSave(f'{where}: a step is [level, colour, "down" or "up", distance], not {shown(step)}')
    return Step(_level_name(step[0], where), _colour_name(step[1], where), _DIRECTION_BY_NAME[step[2]], step[3])


def _check_against_replay(saved: State, log: tuple) -> State:
    """Replay ``log`` from the saved setup; every saved field must be what the replay gives."""
    try:
        state = new_game(
            seed=saved.seed,
            rules=saved.rules,
            explicit_chance=saved.explicit_chance,
            players=saved.num_players,
            first_player=saved.first_player,
        )
    except ValueError as error:
        raise CorruptSave(f"this {WHAT}'s setup cannot start a game: {error}") from None
    for index, entry in enumerate(log):
        try:
            state = state.apply(entry)
        except IllegalMove as error:
            raise CorruptSave(f"log entry {index} ({_entry_text(entry)}) is not legal there: {error.reason}") from None
    replayed, written = to_dict(state), to_dict(saved)
    for name in STATE_FIELDS:
        if name == "players":
            for seat, (board, saved_board) in enumerate(zip(replayed[name], written[name])):
                _compare(board, saved_board, f"player {seat}'s ")
        elif name != "log":
            _compare(replayed, written, "the ", (name,))
    return state


def _compare(replayed: dict, written: dict, where: str, names=None) -> None:
    for name in names or replayed:
        if replayed[name] != written[name]:
            raise CorruptSave(
                f"{where}saved '{name}' ({shown(written[name])}) does not follow from the moves in "
                f"the log, which give {shown(replayed[name])}"
            )


def _entry_text(entry) -> str:
    return f"refill {COLOUR_NAMES[entry]}" if isinstance(entry, int) else str(entry)
