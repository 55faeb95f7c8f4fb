"""Today's greedy evaluation before issue 8 (commit a051ccf), kept verbatim as the bench's naive reference.

The move generator's scored search (``_search_steps`` with a score, ``_scored_step``,
``scored_channel_actions`` of the old ``moves.py``) and the bot's ``lookahead_values`` / ``_Base``
of the old ``bots.py``, with only their imports changed. ``bench_chakra.py`` plays the same
games with this and with the current bot, checks they are identical, and prints the ratio.
"""

from __future__ import annotations

import random

from gamelib.chakra import actions as moves
from gamelib.chakra.actions import _STEP_TABLE, _channel
from gamelib.chakra.bots import (
    FULL_BHAGYA_COST,
    RUN_STEP,
    _level_score,
    _token_value,
    action_value,
    expected_plenitude,
)
from gamelib.chakra.components import BHAGYA, BLACK, CAPACITY, EARTH, SPACE_PATTERNS, SPACES, run_of
from gamelib.chakra.components import is_harmonized as _is_harmonized
from gamelib.chakra.components import is_harmonized as _harmonized

_run_of = run_of


def _search_steps(levels, pattern, depth, prefix, landed, found, score=None, effect=None) -> None:
    """Depth-first search over the steps of one pattern; appends every complete step tuple to ``found``.

    ``levels`` is a mutable copy of the board (lists), changed and restored around each recursion;
    ``landed`` counts, per (level, colour), the energies earlier steps put there (§7.3.4).
    With ``score`` (see ``scored_channel_actions``), ``found`` gets ``(steps, effect)`` pairs instead.
    """
    direction, distance = pattern[depth]
    last = depth + 1 == len(pattern)
    table = _STEP_TABLE
    for origin in range(1, BHAGYA + 1):
        contents = levels[origin]
        if not contents:
            continue
        if (
            origin != BHAGYA
            and len(contents) == 3
            and contents[0] == origin
            and contents[1] == origin
            and contents[2] == origin
        ):
            continue  # locked (§7.5.1)
        # the walk of §7.5, inlined for speed (see ``walk`` for the readable version); where the
        # energy lands does not depend on its colour, except that only black may enter the Earth
        position, left = origin, distance
        while True:
            position += direction
            if position >= BHAGYA:
                position = -1
                break
            if position == EARTH:
                if left != 1:
                    position = -1
                break
            here = levels[position]
            if len(here) >= CAPACITY:
                if here[0] == position and here[1] == position and here[2] == position:
                    continue
                position = -1
                break
            left -= 1
            if left == 0:
                break
        if position < 0:
            continue
        if position == EARTH:
            if BLACK not in contents:
                continue
            colours = (BLACK,)
        elif len(contents) == 1:
            colours = (contents[0],)
        else:
            colours = set(contents)
        step_row = table[origin]
        for colour in colours:
            if depth and contents.count(colour) <= landed.get(origin * 8 + colour, 0):
                continue  # every energy of this colour here has already moved (§7.3.4)
            steps = prefix + (step_row[colour][direction][distance],)
            if score is not None:
                _scored_step(levels, pattern, depth, steps, landed, found, score, effect, origin, colour, position)
                continue
            if last:
                found.append(steps)
                continue
            contents.remove(colour)
            if position != EARTH:
                levels[position].append(colour)
            key = position * 8 + colour
            landed[key] = landed.get(key, 0) + 1
            _search_steps(levels, pattern, depth + 1, steps, landed, found)
            landed[key] -= 1
            if position != EARTH:
                levels[position].remove(colour)
            contents.append(colour)


def _scored_step(levels, pattern, depth, steps, landed, found, score, effect, origin, colour, landing) -> None:
    """One step of the scored search: apply it, update the effect, record or recurse, undo.

    ``score`` is a list: ``score[0]`` the scoring function, ``score[level]`` the current score
    of each level (kept up to date, so only the two changed levels are scored again)."""
    scores, function = score, score[0]
    contents = levels[origin]
    old_origin, old_landing = scores[origin], scores[landing]
    contents.remove(colour)
    scores[origin] = function(origin, contents)
    change = scores[origin] - old_origin
    harmonized = effect[2]
    if landing != EARTH:
        levels[landing].append(colour)
        scores[landing] = function(landing, levels[landing])
        change += scores[landing] - old_landing
        if landing != BHAGYA and _is_harmonized(levels[landing], landing):
            harmonized = harmonized + (landing,)
    new_effect = (effect[0] + change, effect[1] + (landing == EARTH), harmonized, effect[3] + (origin == BHAGYA))
    if depth + 1 == len(pattern):
        found.append((steps, new_effect))
    else:
        key = landing * 8 + colour
        landed[key] = landed.get(key, 0) + 1
        _search_steps(levels, pattern, depth + 1, steps, landed, found, score, new_effect)
        landed[key] -= 1
    if landing != EARTH:
        levels[landing].remove(colour)
    contents.append(colour)
    scores[origin], scores[landing] = old_origin, old_landing


def scored_channel_actions(levels: tuple, space: str, score) -> list:
    """``[(action, effect)]`` for the legal actions of ``space`` (not SWAP), in §14.3 order, where
    ``effect`` = (change of the summed ``score(level, contents)`` over levels 1-8, blacks
    alleviated, chakras harmonized, energies that left the Bhagya). ``score`` must not depend on
    the order of ``contents``. Bots use it to value every action without applying it."""
    working = [list(contents) for contents in levels]
    scores = [score] + [score(level, working[level]) for level in range(1, BHAGYA + 1)]
    found = []
    for pattern in SPACE_PATTERNS[space]:
        _search_steps(working, pattern, 0, (), {}, found, scores, (0.0, 0, (), 0))
    found.sort(key=lambda pair: pair[0])
    return [(_channel(space, steps), effect) for steps, effect in found]


def reference_greedy_policy(state, rng: random.Random):
    """The legal action with the best one-action lookahead value (ties at random); sees only its observation."""
    player = state.current_player
    observation = state  # today a masked copy of the state; the state itself reads the same (and costs less)
    best, best_value = [], float("-inf")
    for action, value in lookahead_values(observation, player):
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return rng.choice(best)


def lookahead_values(observation, player: int) -> list:
    """``[(action, action_value)]`` for every legal action, in the order of ``legal_actions``.

    Same values as :func:`action_value`, computed faster from the levels an action changes:
    Channel actions are scored during move generation (each step changes two levels), a
    Receive changes one level and its value is shared by columns offering the same colours."""
    board = observation.players[player]
    base = _Base(board, expected_plenitude(observation.known_plenitude(player)))
    values = []
    receive_values: dict = {}
    for action in moves.receive_actions(observation, board):
        key = (action.colours, action.destination)
        if key not in receive_values:
            receive_values[key] = base.receive_value(action)
        values.append((action, receive_values[key]))
    if board.reserve >= 1:
        values += base.channel_values()
        if "SWAP" not in board.spaces:
            values += [
                (action, action_value(observation, player, action, base.worth))
                for action in (moves.Channel("SWAP", (), c) for c in moves.swap_colours(observation, board))
            ]
    values += [
        (action, action_value(observation, player, action, base.worth))
        for action in moves.meditate_actions(observation, board)
    ]
    return values


class _Base:
    """The parts of ``board_value`` of the board before the action, for valuing changes to it."""

    def __init__(self, board, worth: dict):
        self.board, self.worth = board, worth
        self.scores = [0.0] + [_level_score(level, board.levels[level], worth) for level in range(1, BHAGYA + 1)]
        self.levels_total = sum(self.scores)
        self.harmonized = set(board.harmonized_levels())
        self.run = _run_of(self.harmonized)

    def value(self, level_change, harmonized, earth, reserve, spaces, bhagya_size) -> float:
        run = _run_of(self.harmonized.union(harmonized)) if harmonized else self.run
        return (
            self.levels_total
            + level_change
            + _token_value(earth, reserve, spaces)
            + (FULL_BHAGYA_COST if bhagya_size == 3 else 0.0)
            + RUN_STEP * run
        )

    def receive_value(self, action) -> float:
        board, destination = self.board, action.destination
        contents = tuple(sorted(board.levels[destination] + tuple(action.colours)))
        change = _level_score(destination, contents, self.worth) - self.scores[destination]
        if destination == BHAGYA:
            return self.value(change, (), board.earth, board.reserve, len(board.spaces), len(contents))
        harmonized = (destination,) if _harmonized(contents, destination) else ()
        reserve = board.reserve if harmonized else board.reserve - 1  # the notch token returns at once (§6.3)
        return self.value(change, harmonized, board.earth, reserve, len(board.spaces), len(board.levels[BHAGYA]))

    def channel_values(self) -> list:
        board, worth = self.board, self.worth
        cache: dict = {}

        def score(level, contents):
            key = (level, *sorted(contents))
            value = cache.get(key)
            if value is None:
                value = cache[key] = _level_score(level, key[1:], worth)
            return value

        values = []
        bhagya = len(board.levels[BHAGYA])
        for space in SPACES[:-1]:
            if space in board.spaces:
                continue
            for action, (change, alleviated, harmonized, from_bhagya) in scored_channel_actions(
                board.levels, space, score
            ):
                returned = sum(1 for level in harmonized if level in board.notches) if harmonized else 0
                values.append(
                    (
                        action,
                        self.value(
                            change,
                            harmonized,
                            board.earth + alleviated,
                            board.reserve - 1 + returned,
                            len(board.spaces) + 1,
                            bhagya - from_bhagya,
                        ),
                    )
                )
        return values
