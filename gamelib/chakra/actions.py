"""The three actions of Chakra: Receive (chakra.md#receive), Channel (chakra.md#channel) and Meditate (chakra.md#meditate).

``legal_actions(state)`` lists every legal action once, in the order of chakra.md#programmers;
``next_steps`` / ``completions`` serve a board that lets a player pick a Channel action step by
step (chakra.md#programmers). Every game of gamelib keeps the same four names here (README,
"Package map"):

* :func:`check_action` validates a move and raises ``IllegalMove`` with the rule's reason;
* :func:`apply_action` is the checked path ``State.apply`` calls: the check, then the whole turn
  (the move, the Maya refill after a Receive, chakra.md#refill, and the passing of the turn);
* :func:`search_step` is the same build without the checks, for moves read off ``legal_actions()``;
* :func:`check_end` is the rule that ends the game (chakra.md#end).

Both paths build the turn on one :class:`TurnDraft` (a :class:`gamelib.core.Draft` of the state),
frozen once at the end of the turn.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, repeat
from typing import NamedTuple

from gamelib import core
from gamelib.core import IllegalMove, chance_rng, replace_fields, weighted_draw
from gamelib.chakra.components import (
    BHAGYA,
    BLACK,
    CAPACITY,
    CHAKRAS,
    COLOUR_NAMES,
    DOWN,
    EARTH,
    LETTERS,
    LEVEL_NAMES,
    SPACE_EFFECTS,
    SPACE_PATTERNS,
    SPACES,
    UP,
    BLACK_ONLY,
    CODE_COLOURS,
    CODE_COUNT,
    HARMONY_CODE,
    CODE_HAS_BLACK,
    CODE_SIZE,
    CODE_WITH,
    CODE_WITHOUT,
    PlayerBoard,
    colour_id,
    colour_word,
    is_harmonized,
    level_id,
    level_codes,
    level_word,
    shown,
    space_id,
)

_SPACE_ORDER = {space: i for i, space in enumerate(SPACES)}
_DIRECTION_WORD = {DOWN: "down", UP: "up"}


# --------------------------------------------------------------------------- action objects (chakra.md#receive, chakra.md#channel, chakra.md#meditate)


class _ReceiveFields(NamedTuple):
    column: int
    colours: frozenset
    destination: int


class Receive(_ReceiveFields):
    """Take one energy of each colour in ``colours`` from Maya column ``column`` and place them on ``destination``."""

    __slots__ = ()

    def __new__(cls, column, colours, destination):
        if not _is_int(column):
            raise IllegalMove(f"a Maya column is 0, 1 or 2, not {shown(column)}")
        if isinstance(colours, (str, int)):
            colours = [colours]
        if not isinstance(colours, _COLLECTIONS):
            raise IllegalMove(f"the colours to receive are a colour or a set of colours, not {shown(colours)}")
        return tuple.__new__(cls, (column, frozenset(colour_id(c) for c in colours), level_id(destination)))

    def __str__(self):
        letters = ",".join(LETTERS[c] for c in sorted(self.colours))
        return f"Receive c{self.column} {{{letters}}} -> {LEVEL_NAMES[self.destination]}"


class _StepFields(NamedTuple):
    level: int
    colour: int
    direction: int
    distance: int


class Step(_StepFields):
    """Move one energy of ``colour`` from ``level`` by ``distance`` in ``direction`` (DOWN = -1, UP = +1)."""

    __slots__ = ()

    def __new__(cls, level, colour, direction, distance):
        if isinstance(direction, str):
            direction = {"DOWN": DOWN, "UP": UP}.get(direction.strip().upper(), direction)
        if not _is_int(direction) or direction not in (DOWN, UP):
            raise IllegalMove(f"a step goes DOWN (-1) or UP (+1), not {shown(direction)}")
        if not _is_int(distance) or not 1 <= distance <= 3:
            raise IllegalMove(f"a step moves 1, 2 or 3 levels, not {shown(distance)}")
        return tuple.__new__(cls, (level_id(level), colour_id(colour), direction, distance))

    def __str__(self):
        return f"{LEVEL_NAMES[self.level]} {LETTERS[self.colour]} {_DIRECTION_WORD.get(self.direction, self.direction)} {self.distance}"


class _ChannelFields(NamedTuple):
    space: str
    steps: tuple = ()
    bag_colour: int | None = None


class Channel(_ChannelFields):
    """Put a token on channel ``space`` and carry out ``steps`` (or, for SWAP, take ``bag_colour``)."""

    __slots__ = ()

    def __new__(cls, space, steps=(), bag_colour=None):
        steps = as_steps(steps)
        colour = None if bag_colour is None else colour_id(bag_colour)
        return tuple.__new__(cls, (space_id(space), steps, colour))

    def __str__(self):
        if self.space == "SWAP":
            taken = "?" if self.bag_colour is None else LETTERS[self.bag_colour]
            return f"Channel SWAP: take {taken}"
        return f"Channel {self.space}: " + "; ".join(str(step) for step in self.steps)


class _MeditateFields(NamedTuple):
    colour: int | None = None


class Meditate(_MeditateFields):
    """Take back the tokens on channel spaces and a Meditation token of ``colour`` (None once all 7 are held)."""

    __slots__ = ()

    def __new__(cls, colour=None):
        return tuple.__new__(cls, (None if colour is None else colour_id(colour),))

    def __str__(self):
        return "Meditate (no colour left)" if self.colour is None else f"Meditate {COLOUR_NAMES[self.colour]}"


_COLLECTIONS = (list, tuple, set, frozenset)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_steps(steps) -> tuple:
    """Steps given as Step values or (level, colour, direction, distance) sequences, as a tuple of Steps."""
    if not isinstance(steps, (list, tuple)):
        raise IllegalMove(f"the steps of a Channel action are a list of steps, not {shown(steps)}")
    built = []
    for step in steps:
        if isinstance(step, Step):
            built.append(step)
        elif isinstance(step, (list, tuple)) and len(step) == 4:
            built.append(Step(*step))
        else:
            raise IllegalMove(f"a step is (level, colour, direction, distance), not {shown(step)}")
    return tuple(built)


def _int_in(value, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _colour_or_none(value) -> bool:
    return value is None or _int_in(value, 0, 7)


def _step_is_sound(step) -> bool:
    return (
        isinstance(step, Step)
        and len(step) == 4
        and _int_in(step[0], 0, BHAGYA)
        and _int_in(step[1], 0, 7)
        and type(step[2]) is int
        and step[2] in (DOWN, UP)
        and _int_in(step[3], 1, 3)
    )


def malformed(action) -> str | None:
    """Why ``action`` cannot be read (a field of the wrong type or out of every range), or None.

    The constructors check their arguments, but a NamedTuple can be built around them
    (``Receive._make``, ``_replace``, ``tuple.__new__``); ``apply`` asks this first."""
    if isinstance(action, Receive):
        sound = (
            len(action) == 3
            and type(action[0]) is int
            and type(action[1]) is frozenset
            and all(_int_in(c, 0, 7) for c in action[1])
            and _int_in(action[2], 0, BHAGYA)
        )
        return None if sound else "a Receive is (column 0-2, a set of colour ids, destination level 0-8)"
    if isinstance(action, Channel):
        sound = (
            len(action) == 3
            and type(action[0]) is str
            and action[0] in _SPACE_ORDER
            and type(action[1]) is tuple
            and all(_step_is_sound(step) for step in action[1])
            and _colour_or_none(action[2])
        )
        return None if sound else "a Channel is (space, a tuple of Steps, bag colour id or None)"
    if isinstance(action, Meditate):
        return None if len(action) == 1 and _colour_or_none(action[0]) else "a Meditate is (colour id or None)"
    return f"{shown(action)} is not a Chakra action: use Receive, Channel or Meditate"


def _receive(column, colours, destination):
    return tuple.__new__(Receive, (column, colours, destination))


def _step(level, colour, direction, distance):
    return tuple.__new__(Step, (level, colour, direction, distance))


def _channel(space, steps, bag_colour=None):
    return tuple.__new__(Channel, (space, steps, bag_colour))


def _meditate(colour):
    return tuple.__new__(Meditate, (colour,))


# --------------------------------------------------------------------------- movement (chakra.md#movement)


def walk(levels, origin: int, colour: int, direction: int, distance: int) -> tuple[int, str | None]:
    """Where one energy lands: ``(landing level, None)``, or ``(-1, reason)`` if the step is illegal.

    ``levels`` is indexable by level (1-8) and gives the contents (any sequence of colour ids)
    at the moment of the step. The origin's own checks (locked, present) are the caller's.
    """
    position, left = origin, distance
    while True:
        position += direction
        if position >= BHAGYA:
            return -1, "nothing can move into the Bhagya"
        if position == EARTH:
            if colour != BLACK:
                return -1, "only black energy can enter the Earth"
            if left != 1:
                return -1, "the black energy would overshoot the Earth"
            return EARTH, None
        contents = levels[position]
        if len(contents) >= CAPACITY:
            if contents[0] == position and contents[1] == position and contents[2] == position:
                continue  # a harmonized chakra is skipped and not counted
            return -1, f"{level_word(position)} is full"
        left -= 1
        if left == 0:
            return position, None


# --------------------------------------------------------------------------- enumeration (chakra.md#programmers)


def legal_actions(state) -> list:
    """Every legal action of the player to move, in the order of chakra.md#programmers (a new list each call)."""
    try:
        return list(_listing(state.players[state.to_move], state.maya, state.bag, state.rules))
    except TypeError:  # a state built by hand with lists in it: not a key, so listed without the cache
        return list(_list_actions(state.players[state.to_move], _Listed(state.rules, state.maya, state.bag)))


class _Listed(NamedTuple):
    """All a listing reads of a state besides the board of the player to move (the key of :func:`_listing`)."""

    rules: object
    maya: tuple
    bag: tuple


# Listings kept by _listing. One position is often listed more than once in a row (a framework adapter lists
# it, then a test or a board lists it again; a board's next_steps and completions list it at every click),
# so a few entries are enough. Few on purpose: every long-lived object is walked by each full garbage
# collection, and a listing is up to a few thousand actions (bench/bench_chakra_listing.py); a kept listing
# also outlives the young collections, so it is traversed again in the older ones. Four serve as many
# repeats as eight in the framework tests' lockstep games (2 entries lose a quarter of them).
LISTINGS_KEPT = 4


@lru_cache(maxsize=LISTINGS_KEPT)
def _listing(board: PlayerBoard, maya: tuple, bag: tuple, rules) -> tuple:
    """The legal actions of a player with ``board`` facing this Maya, bag and rules, as a tuple.

    A bounded standard-library cache keyed by value (the board, the Maya and the bag are tuples of
    numbers, the rules a frozen dataclass): equal positions give equal listings, and the actions are
    immutable, so no caller can change what the next one gets."""
    return tuple(_list_actions(board, _Listed(rules, maya, bag)))


def _list_actions(board: PlayerBoard, state) -> list:
    return receive_actions(state, board) + channel_actions(state, board) + meditate_actions(state, board)


def receive_actions(state, board: PlayerBoard) -> list:
    cap = state.rules.colour_cap
    counts = board.colour_counts()
    levels = board.levels
    can_place_on_chakra = board.reserve >= 1
    # destinations by number of energies, in the order BHAGYA, PURPLE .. RED (chakra.md#programmers)
    destinations = [[], [], [], []]
    for size in (1, 2, 3):
        if len(levels[BHAGYA]) + size <= CAPACITY:
            destinations[size].append(BHAGYA)
        if can_place_on_chakra:
            for level in (7, 6, 5, 4, 3, 2, 1):
                if level not in board.notches and len(levels[level]) + size <= CAPACITY:
                    destinations[size].append(level)
    actions = []
    new = tuple.__new__
    for column_index, column in enumerate(state.maya):
        if not column:
            continue
        distinct = sorted(set(column))
        takeable = tuple(c for c in distinct if c != BLACK and (cap is None or counts[c] < cap))
        for colour_set in _colour_sets(BLACK in distinct, takeable):
            actions += [
                new(Receive, (column_index, colour_set, destination)) for destination in destinations[len(colour_set)]
            ]
    return actions


@lru_cache(maxsize=None)
def _colour_sets(black_shown: bool, takeable: tuple) -> tuple:
    """Colour sets allowed by chakra.md#receive as frozensets, in the order of their sorted id tuples, shorter first."""
    sets = []
    for size in range(0, len(takeable) + 1):
        for combo in combinations(takeable, size):
            chosen = (BLACK,) + combo if black_shown else combo
            if chosen:
                sets.append(chosen)
    sets.sort(key=lambda s: (len(s), s))
    return tuple(frozenset(chosen) for chosen in sets)


def channel_actions(state, board: PlayerBoard) -> list:
    if board.reserve < 1:
        return []
    actions = []
    if any(board.levels):
        working = level_codes(board.levels)  # the search restores it after each space
        for space in SPACES[:-1]:
            if space not in board.spaces:  # Channel(space, steps, None) for each, built in C
                found = channel_step_tuples(board.levels, space, working)
                actions += map(tuple.__new__, repeat(Channel), zip(repeat(space), found, repeat(None)))
    if "SWAP" not in board.spaces:
        actions.extend(_channel("SWAP", (), colour) for colour in swap_colours(state, board))
    return actions


def space_actions(levels: tuple, space: str) -> list:
    """Every legal Channel action of ``space`` (not SWAP) on a board with these ``levels``, sorted (chakra.md#programmers)."""
    return [_channel(space, steps) for steps in channel_step_tuples(levels, space)]


def channel_step_tuples(levels: tuple, space: str, working: list | None = None) -> list:
    """Every legal step sequence of ``space`` on a board with these ``levels``, sorted (chakra.md#programmers).
    ``working``, if given, is :func:`level_codes` of ``levels``, a list that the search may use."""
    working = level_codes(levels) if working is None else working
    found = []
    for pattern in SPACE_PATTERNS[space]:
        _search_steps(working, pattern, 0, (), [0] * ((BHAGYA + 1) * 8), found, {})
    found.sort()
    return found


# every possible Step object, built once: _STEP_TABLE[level][colour][direction][distance]
_STEP_TABLE = [
    [
        [
            [tuple.__new__(Step, (level, colour, direction, distance)) if direction else None for distance in range(4)]
            for direction in (0, UP, DOWN)
        ]
        for colour in range(8)
    ]
    for level in range(BHAGYA + 1)
]
# the same Step objects by move: _STEP_ROWS[(direction, distance)][level][colour]
_STEP_ROWS = {
    (direction, distance): tuple(
        tuple(_STEP_TABLE[level][colour][direction][distance] for colour in range(8)) for level in range(BHAGYA + 1)
    )
    for direction in (UP, DOWN)
    for distance in range(1, 4)
}


def landing_of(levels, origin: int, direction: int, distance: int) -> int:
    """Where an energy from ``origin`` lands (chakra.md#movement), or -1 if the step is illegal for every colour.

    The fast form of :func:`walk` for the searches: the landing does not depend on the colour,
    except that only black may enter the Earth (the caller checks that when it returns EARTH)."""
    position, left = origin, distance
    while True:
        position += direction
        if position >= BHAGYA:
            return -1
        if position == EARTH:
            return EARTH if left == 1 else -1
        here = levels[position]
        if len(here) >= CAPACITY:
            if here[0] == position and here[1] == position and here[2] == position:
                continue  # a harmonized chakra is skipped and not counted
            return -1
        left -= 1
        if left == 0:
            return position


def _search_steps(codes, pattern, depth, prefix, landed, found, last_steps) -> None:
    """Depth-first search over the steps of one pattern; appends every complete step tuple to ``found``.

    ``codes`` holds the code of each level's contents (:func:`level_codes`), changed and restored
    around each recursion; ``landed[level * 8 + colour]`` counts the energies earlier steps put
    there (chakra.md#channel). ``last_steps`` keeps the third steps found after two steps (D1x3), by
    the two steps in either order: the same two moves in the other order leave the same board and
    the same ``landed``, so the same third steps (the greedy bot's search does the same).

    Long on purpose: the move generator's innermost recursion, with the walk of :func:`landing_of`
    written out on codes, so that a step costs no further call.
    """
    if depth == 2:
        first, second = prefix
        either_order = (first, second) if first <= second else (second, first)
        known = last_steps.get(either_order)
        if known is not None:
            found += [prefix + (step,) for step in known]
            return
        start = len(found)
    move = pattern[depth]
    direction, distance = move
    last = depth + 1 == len(pattern)
    step_rows = _STEP_ROWS[move]
    harmony, size = HARMONY_CODE, CODE_SIZE
    for origin in range(1, BHAGYA + 1):
        code = codes[origin]
        if not code or code == harmony[origin]:
            continue  # empty, or locked (chakra.md#movement)
        position, left = origin, distance  # the walk of landing_of
        while True:
            position += direction
            if position >= BHAGYA:
                position = -1
                break
            if position == EARTH:
                if left != 1:
                    position = -1
                break
            here = codes[position]
            if size[here] == CAPACITY:
                if here == harmony[position]:
                    continue  # a harmonized chakra is skipped and not counted
                position = -1
                break
            left -= 1
            if not left:
                break
        if position < 0:
            continue
        if position == EARTH:
            if not CODE_HAS_BLACK[code]:
                continue
            colours = BLACK_ONLY
        else:
            colours = CODE_COLOURS[code]
        step_row = step_rows[origin]
        row = code * 8
        for colour in colours:
            if depth and CODE_COUNT[row + colour] <= landed[origin * 8 + colour]:
                continue  # every energy of this colour here has already moved (chakra.md#channel)
            steps = prefix + (step_row[colour],)
            if last:
                found.append(steps)
                continue
            codes[origin] = CODE_WITHOUT[row + colour]
            if position != EARTH:
                here = codes[position]
                codes[position] = CODE_WITH[here * 8 + colour]
            key = position * 8 + colour
            landed[key] += 1
            _search_steps(codes, pattern, depth + 1, steps, landed, found, last_steps)
            landed[key] -= 1
            if position != EARTH:
                codes[position] = here
            codes[origin] = code
    if depth == 2:
        last_steps[either_order] = [steps[-1] for steps in found[start:]]


def swap_colours(state, board: PlayerBoard | None = None) -> list:
    """The colours a SWAP may take now (chakra.md#swap), by colour id; empty when SWAP is not legal."""
    board = state.players[state.to_move] if board is None else board
    if board.reserve < 1 or "SWAP" in board.spaces or board.earth < 1 or board.free(BHAGYA) < 1:
        return []
    bag = list(state.bag)
    if state.rules.swap_discard_to_bag:
        bag[BLACK] += 1
    cap = state.rules.colour_cap
    counts = board.colour_counts()
    return [c for c in range(8) if bag[c] and (c == BLACK or cap is None or counts[c] < cap)]


def meditate_actions(state, board: PlayerBoard) -> list:
    if state.rules.allow_repeat_meditation:
        return [_meditate(c) for c in CHAKRAS]
    held = set(board.meditation)
    missing = [c for c in CHAKRAS if c not in held]
    return [_meditate(c) for c in missing] if missing else [_meditate(None)]


def brute_force_legal_actions(state) -> list:
    """The slow, obvious oracle for ``legal_actions``: try every candidate action with ``apply``.

    Candidates: every set of 1-3 colours from every column onto every level; for every step
    pattern of every space, every sequence of steps from (level, colour) pairs present at the
    start (an energy moves once per action, so every step starts from an energy that was there);
    SWAP of every colour; Meditate of every colour and None. Returned in the order of chakra.md#programmers.
    """
    from itertools import product

    if state.is_terminal or state.refill_pending:
        return []
    board = state.players[state.to_move]
    candidates = []
    for column in range(3):
        for size in (1, 2, 3):
            for colours in combinations(range(8), size):
                candidates += [_receive(column, frozenset(colours), level) for level in range(BHAGYA + 1)]
    pairs = sorted({(level, colour) for level in range(1, BHAGYA + 1) for colour in board.levels[level]})
    for space in SPACES[:-1]:
        for pattern in SPACE_PATTERNS[space]:
            options = [
                [_step(level, colour, direction, distance) for level, colour in pairs]
                for direction, distance in pattern
            ]
            candidates += [_channel(space, steps) for steps in product(*options)]
    candidates += [_channel("SWAP", (), colour) for colour in range(8)]
    candidates += [_meditate(colour) for colour in (*CHAKRAS, None)]
    legal = []
    for action in candidates:
        try:
            state.apply(action)
        except IllegalMove:
            continue
        legal.append(action)
    return sorted(legal, key=action_order_key)


_DESTINATION_ORDER = {level: i for i, level in enumerate((BHAGYA, 7, 6, 5, 4, 3, 2, 1))}


def action_order_key(action) -> tuple:
    """The order of chakra.md#programmers as a sort key."""
    if isinstance(action, Receive):
        colours = tuple(sorted(action.colours))
        return (0, action.column, len(colours), colours, _DESTINATION_ORDER.get(action.destination, 9))
    if isinstance(action, Channel):
        return (1, _SPACE_ORDER[action.space], action.steps, -1 if action.bag_colour is None else action.bag_colour)
    return (2, 8 if action.colour is None else action.colour)


# --------------------------------------------------------------------------- partial Channel actions (chakra.md#programmers)


def completions(state, space, prefix=()) -> list:
    """Every legal Channel action on ``space`` whose steps start with ``prefix``, in chakra.md#programmers order."""
    space = space_id(space)
    prefix = as_steps(prefix)
    if state.is_terminal or state.refill_pending:
        return []
    return [
        action
        for action in state.legal_actions()
        if isinstance(action, Channel) and action.space == space and action.steps[: len(prefix)] == prefix
    ]


def next_steps(state, space, prefix=()) -> list:
    """The steps that can follow ``prefix`` on ``space`` and still be completed to a legal action."""
    depth = len(as_steps(prefix))
    steps = {action.steps[depth] for action in completions(state, space, prefix) if len(action.steps) > depth}
    return sorted(steps)


# --------------------------------------------------------------------------- validating a move (chakra.md#receive, chakra.md#channel, chakra.md#meditate)


def check_action(state, action):
    """Validate ``action`` for the player to move; return it or raise IllegalMove with the rule it breaks.

    The action types are already canonical (their constructors turn names into ids), so the
    action comes back as it was given. A Channel's steps are walked on a copy of the board, each
    on the board the previous steps left (chakra.md#movement)."""
    if state.finished:
        raise IllegalMove("the game is over", action)
    if state.refill_pending:
        raise IllegalMove("a Maya refill is pending: the next outcome is a colour drawn from the bag", action)
    problem = malformed(action)
    if problem:
        raise IllegalMove(problem, action)
    board = state.players[state.to_move]
    if isinstance(action, Receive):
        _check_receive(state, board, action)
    elif isinstance(action, Channel):
        _check_channel(state, board, action)
    else:
        _check_meditate(state, board, action)
    return action


def check_refill(state, colour) -> None:
    """Raise IllegalMove unless ``colour`` is a refill outcome the pending refill can draw (chakra.md#refill)."""
    if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < 8 or not state.bag[colour]:
        raise IllegalMove(
            f"a Maya refill is pending: the outcome must be a colour id still in the bag, not {shown(colour)}"
        )


def _check_receive(state, board: PlayerBoard, action: Receive) -> None:
    column, colours, destination = action
    if not 0 <= column <= 2:
        raise IllegalMove(f"there is no Maya column {column}: the columns are 0, 1 and 2", action)
    if not 1 <= len(colours) <= 3:
        raise IllegalMove("take 1, 2 or 3 energies of different colours", action)
    shown = state.maya[column]
    if not shown:
        raise IllegalMove(f"Maya column {column} is empty", action)
    for colour in sorted(colours):
        if colour not in shown:
            raise IllegalMove(f"Maya column {column} has no {colour_word(colour)} energy", action)
    if BLACK in shown and BLACK not in colours:
        raise IllegalMove("this column shows a black energy: you must take one", action)
    _check_cap(state, board, colours, action)
    size = len(colours)
    if destination == BHAGYA:
        if board.free(BHAGYA) < size:
            raise IllegalMove(f"the Bhagya has only {_bubbles(board.free(BHAGYA))}", action)
    elif destination in CHAKRAS:
        if board.reserve < 1:
            raise IllegalMove("no Inspiration token in reserve", action)
        if destination in board.notches:
            raise IllegalMove(f"{level_word(destination)}'s notch already holds a token", action)
        free = board.free(destination)
        if free < size:
            if board.harmonized(destination):
                raise IllegalMove(f"{level_word(destination)} is harmonized: it can receive nothing", action)
            raise IllegalMove(
                f"{level_word(destination)} is full"
                if free == 0
                else f"{level_word(destination)} has only {free} free space",
                action,
            )
    else:
        raise IllegalMove("energies can be received only on the Bhagya or on a chakra", action)


def _bubbles(n: int) -> str:
    return "no free bubble" if n == 0 else f"{n} free bubble" + ("s" if n > 1 else "")


def _check_cap(state, board, colours, action) -> None:
    cap = state.rules.colour_cap
    if cap is None:
        return
    for colour in sorted(colours):
        if colour != BLACK and board.count(colour) >= cap:
            raise IllegalMove(
                f"you already hold {board.count(colour)} {colour_word(colour)} energies (at most {cap} of a colour)",
                action,
            )


def _check_channel(state, board: PlayerBoard, action: Channel) -> None:
    space = action.space
    if space not in _SPACE_ORDER:
        space_id(space)  # raises with the list of spaces
    if board.reserve < 1:
        raise IllegalMove("no Inspiration token in reserve", action)
    if space in board.spaces:
        raise IllegalMove(f"space {space} is occupied", action)
    if space == "SWAP":
        _check_swap(state, board, action)
        return
    if action.bag_colour is not None:
        raise IllegalMove("only SWAP takes an energy from the bag", action)
    pattern = tuple((step.direction, step.distance) for step in action.steps)
    if pattern not in SPACE_PATTERNS[space]:
        raise IllegalMove(f"space {space} moves {SPACE_EFFECTS[space]}", action)
    _check_steps(board, action)


def _check_steps(board: PlayerBoard, action: Channel) -> None:
    """Check each step of a (non-SWAP) Channel action by chakra.md#channel, chakra.md#movement on the
    board the previous steps left (a working copy); raise IllegalMove at the first that breaks a rule."""
    levels = [list(contents) for contents in board.levels]
    landed: dict = {}
    for step in action.steps:
        origin, colour = step.level, step.colour
        if origin == EARTH:
            raise IllegalMove("energies in the Earth cannot move", action)
        if not 1 <= origin <= BHAGYA:
            raise IllegalMove(f"there is no level {origin!r}", action)
        if origin != BHAGYA and is_harmonized(levels[origin], origin):
            raise IllegalMove("energies of a harmonized chakra cannot move", action)
        present = levels[origin].count(colour)
        if present == 0:
            raise IllegalMove(f"{level_word(origin)} holds no {colour_word(colour)} energy", action)
        if present <= landed.get((origin, colour), 0):
            raise IllegalMove("this energy has already moved in this action", action)
        landing, reason = walk(levels, origin, colour, step.direction, step.distance)
        if reason:
            raise IllegalMove(reason, action)
        levels[origin].remove(colour)
        landed[(landing, colour)] = landed.get((landing, colour), 0) + 1
        if landing != EARTH:
            levels[landing].append(colour)


def _check_swap(state, board: PlayerBoard, action: Channel) -> None:
    if action.steps:
        raise IllegalMove("SWAP moves no energy: name only the colour to take from the bag", action)
    if board.earth < 1:
        raise IllegalMove("you have no alleviated black in the Earth to give up", action)
    if board.free(BHAGYA) < 1:
        raise IllegalMove("the Bhagya has no free bubble", action)
    if action.bag_colour is None:
        raise IllegalMove("SWAP needs the colour to take from the bag", action)
    colour = action.bag_colour
    in_bag = state.bag[colour] + (1 if colour == BLACK and state.rules.swap_discard_to_bag else 0)
    if not in_bag:  # the black given up goes back first when swap_discard_to_bag (chakra.md#parameters)
        raise IllegalMove(f"the bag holds no {colour_word(colour)} energy", action)
    _check_cap(state, board, (colour,), action)


def _check_meditate(state, board: PlayerBoard, action: Meditate) -> None:
    colour = action.colour
    if state.rules.allow_repeat_meditation:
        if colour is None:
            raise IllegalMove("with allow_repeat_meditation you must name a chakra colour to meditate on", action)
    elif colour is None:
        if len(set(board.meditation)) < 7:
            raise IllegalMove("Meditate without a colour is only for a player who holds all 7 colours", action)
    elif colour in board.meditation:
        raise IllegalMove(f"you already hold the {colour_word(colour)} Meditation token", action)
    if colour is not None and colour not in CHAKRAS:
        raise IllegalMove("Meditation tokens exist only for the seven chakra colours", action)


# --------------------------------------------------------------------------- building the next state


def apply_action(state, action):
    """The checked path (``State.apply``): the state after ``action`` and the rest of its turn, or
    IllegalMove (state unchanged) with the rule's reason. At a pending refill (explicit chance)
    ``action`` is the colour drawn (chakra.md#refill)."""
    if state.refill_pending and not state.finished:
        check_refill(state, action)
    else:
        check_action(state, action)
    return search_step(state, action)


def search_step(state, action):
    """The unchecked path: the state :func:`apply_action` builds, log included, without the checks.
    ``action`` must come from ``state.legal_actions()`` (or ``chance_outcomes()`` at a refill);
    anything else gives an undefined state. Tests compare it with ``apply`` on random games."""
    draft = TurnDraft(state)
    if state.refill_pending:
        draft.draw_refill(action)
    else:
        draft.play(action)
    if draft.log is not None:
        draft.log = draft.log + (action,)  # a save replays the log
    return draft.freeze()


def check_end(draft) -> None:
    """The rule that ends the game (chakra.md#end), after the turn of ``draft.to_move`` is counted:
    the end is triggered once a player has harmonized ``end_trigger_harmonized`` chakras, and the
    game ends when the round closes (the last seat's turn) with the end triggered, or at the
    ``max_rounds`` safeguard. Sets ``end_triggered`` and ``finished`` on the draft."""
    actor = draft.to_move
    rules = draft.rules
    if not draft.end_triggered and len(draft.players[actor].harmonized_levels()) >= rules.end_trigger_harmonized:
        draft.end_triggered = True
    draft.finished = actor == (draft.first_player - 1) % len(draft.players) and (
        draft.end_triggered or (rules.max_rounds is not None and draft.turns[actor] >= rules.max_rounds)
    )


class TurnDraft(core.Draft):
    """One Chakra turn being built on a :class:`gamelib.core.Draft` of the state: the move, the Maya
    refill after a Receive and the passing of the turn, each an edit of the draft's fields, then one
    ``freeze``. Nothing here checks a rule: :func:`check_action` did (or the move was listed)."""

    __slots__ = ()

    def play(self, action) -> None:
        """Play a move of the player to move, then the rest of the turn."""
        board = self.players[self.to_move]
        if isinstance(action, Receive):
            self.receive(board, action)
            self.refill()
            return
        if isinstance(action, Channel):
            if action.space == "SWAP":
                self.swap(board, action)
            else:
                self.set_board(moved_board(board, action))
        else:
            self.set_board(
                replace_fields(
                    board,
                    reserve=board.reserve + len(board.spaces),
                    spaces=frozenset(),
                    meditation=_meditated(board, action.colour),
                )
            )
        self.end_turn()

    def set_board(self, board: PlayerBoard) -> None:
        players = list(self.players)
        players[self.to_move] = board
        self.players = tuple(players)

    def receive(self, board: PlayerBoard, action: Receive) -> None:
        """chakra.md#receive: the energies leave the Maya column for the destination."""
        column, colours, destination = action
        maya = list(self.maya)
        remaining = list(maya[column])
        for colour in colours:
            remaining.remove(colour)
        maya[column] = tuple(remaining)
        self.maya = tuple(maya)
        levels = list(board.levels)
        levels[destination] = tuple(sorted(levels[destination] + tuple(colours)))
        changes = {"levels": tuple(levels)}
        if destination != BHAGYA and not is_harmonized(levels[destination], destination):
            # the token goes into the notch; on harmonization it would come straight back (chakra.md#receive)
            changes.update(reserve=board.reserve - 1, notches=board.notches | {destination})
        self.set_board(replace_fields(board, **changes))

    def swap(self, board: PlayerBoard, action: Channel) -> None:
        """chakra.md#channel SWAP: an alleviated black given up for a colour from the bag."""
        colour = action.bag_colour
        bag = list(self.bag)
        if self.rules.swap_discard_to_bag:
            bag[BLACK] += 1
        else:
            self.removed_blacks += 1
        bag[colour] -= 1
        self.bag = tuple(bag)
        levels = list(board.levels)
        levels[BHAGYA] = tuple(sorted(levels[BHAGYA] + (colour,)))
        self.set_board(
            replace_fields(
                board,
                levels=tuple(levels),
                earth=board.earth - 1,
                reserve=board.reserve - 1,
                spaces=board.spaces | {"SWAP"},
            )
        )

    def refill(self) -> None:
        """Start the Maya refill after a Receive (chakra.md#refill): drawn from the seed at once, or left
        pending as chance nodes under explicit chance; then the turn ends."""
        maya, bag = list(self.maya), list(self.bag)
        if _needs_refill(maya, bag):
            if self.explicit_chance:
                self.refill_pending = True
                return
            draws = self.draws
            while _needs_refill(maya, bag):
                _draw_into_maya(
                    maya, bag, weighted_draw(bag, chance_rng(self.seed, draws))
                )  # weights as chance_outcomes
                draws += 1
            self.maya, self.bag, self.draws = tuple(maya), tuple(bag), draws
        self.end_turn()

    def draw_refill(self, colour: int) -> None:
        """One refill outcome under explicit chance; the turn ends when the Maya is full or the bag empty."""
        maya, bag = list(self.maya), list(self.bag)
        _draw_into_maya(maya, bag, colour)
        self.maya, self.bag = tuple(maya), tuple(bag)
        if not _needs_refill(maya, bag):
            self.end_turn()

    def end_turn(self) -> None:
        """Count the turn, apply :func:`check_end`, and pass to the next seat unless the game ended."""
        actor = self.to_move
        turns = list(self.turns)
        turns[actor] += 1
        self.turns = tuple(turns)
        self.refill_pending = False
        check_end(self)
        if not self.finished:
            self.to_move = (actor + 1) % len(self.players)


def _meditated(board: PlayerBoard, colour) -> tuple:
    """The Meditation tokens after meditating on ``colour`` (None: a player holding all 7 takes none)."""
    return board.meditation if colour is None else tuple(sorted(board.meditation + (colour,)))


def _needs_refill(maya, bag) -> bool:
    return any(bag) and any(len(contents) < CAPACITY for contents in maya)


def _draw_into_maya(maya: list, bag: list, colour: int) -> None:
    """Put one energy of ``colour`` from the bag into the first Maya column with room (chakra.md#refill)."""
    column = next(i for i, contents in enumerate(maya) if len(contents) < CAPACITY)
    maya[column] = tuple(sorted(maya[column] + (colour,)))
    bag[colour] -= 1


def channel_board(board: PlayerBoard, action: Channel) -> PlayerBoard:
    """The board after the steps of a (non-SWAP) Channel action, each checked by chakra.md#channel,
    chakra.md#movement on the board the previous steps left; raises IllegalMove. Space and pattern
    are the caller's checks."""
    _check_steps(board, action)
    return moved_board(board, action)


def moved_board(board: PlayerBoard, action: Channel) -> PlayerBoard:
    """The board after the steps of a legal (non-SWAP) Channel action, unchecked: the energies move,
    a harmonized notch gives its token back at once (chakra.md#harmonization), the space is taken."""
    levels = [list(contents) for contents in board.levels]
    earth, reserve, notches = board.earth, board.reserve - 1, set(board.notches)
    for step in action.steps:
        origin, colour = step.level, step.colour
        landing = landing_of(levels, origin, step.direction, step.distance)
        levels[origin].remove(colour)
        if landing == EARTH:
            earth += 1  # alleviated (chakra.md#earth)
            continue
        levels[landing].append(colour)
        if landing in notches and is_harmonized(levels[landing], landing):
            notches.discard(landing)  # chakra.md#harmonization: the notch token returns at once
            reserve += 1
    return replace_fields(
        board,
        levels=tuple(tuple(sorted(contents)) for contents in levels),
        earth=earth,
        reserve=reserve,
        notches=frozenset(notches),
        spaces=board.spaces | {action.space},
    )
