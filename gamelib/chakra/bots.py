"""Bots for Chakra and tournaments between them.

* :func:`random_policy` (the core's) picks a legal action uniformly at random.
* :func:`greedy_policy` looks one action ahead: it scores the board each legal action would
  leave and takes the best (ties broken at random). It reads only what its observation holds
  (chakra.md#hidden-values): its board, the Maya, the bag and the plenitude values it knows; unknown values
  count at their expected value given what it knows.

The score of a board (:func:`board_value`) adds up, per level, progress towards
harmonization, energies near their home chakra, blacks near (or in) the Earth, and the
Inspiration tokens that are free rather than locked in notches.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from statistics import median
from typing import Callable, Sequence

from gamelib import core
from gamelib.core import random_policy
from gamelib.simulate import Estimate, mean, proportion
from gamelib.chakra import actions
from gamelib.chakra.actions import Meditate, Receive, _channel, walk
from gamelib.chakra.components import (
    BHAGYA,
    BLACK,
    CAPACITY,
    CHAKRAS,
    EARTH,
    PLENITUDE_TOKENS,
    SPACE_PATTERNS,
    SPACES,
    run_of,
)
from gamelib.chakra.components import is_harmonized as _harmonized
from gamelib.chakra.components import (  # the level codes, which the move generator searches with too
    BLACK_ONLY as _BLACK_ONLY,
    CODES as _CODES,
    CODE_COLOURS as _COLOURS_OF,
    CODE_COUNT as _COUNT,
    CODE_HAS_BLACK as _HAS_BLACK,
    CODE_SIZE as _SIZE,
    CODE_WITH as _WITH_CODE,
    CODE_WITHOUT as _WITHOUT_CODE,
    CONTENTS_CODE as _CODE,  # noqa: F401 (tests/test_chakra_fast_paths.py checks the tables under these names)
    HARMONY_CODE as _HARMONY_CODE,
    LEVEL_CONTENTS as _CONTENTS,
    level_codes,
)
from gamelib.chakra.rules import Rules, new_game

__all__ = ["random_policy", "greedy_policy", "lookahead_values", "action_value", "board_value", "tournament"]

# --------------------------------------------------------------------------- policies


# Weights of the greedy evaluation, in points (one plenitude point = 1).
HARMONIZED = 4.0  # a harmonized chakra beyond its plenitude value: it counts towards the end and the run
OWN_ENERGY = 0.9  # an energy already in its home chakra
OWN_PAIR = 0.6  # extra for each further own energy in the same chakra (completion is near)
FOREIGN = 0.1  # an energy of another colour sitting in a chakra (it blocks and must move again)
NEAR_HOME = 1.2  # a coloured energy on the board away from home...
HOME_DISTANCE = 0.15  # ... less this much per level it still has to travel
BLACK_WORTH = 0.9  # a black on the board will be a point once walked into the Earth...
BLACK_HEIGHT = 0.1  # ... less this much per level it still has to go
ALLEVIATED = 1.1  # a black in the Earth: one point at the end, and SWAP fuel
# Tokens not locked in notches (in reserve or on spaces, which Meditate brings back) are the
# clock of the game: the last ones are worth most, since a player whose tokens all sit in
# notches of unfinished chakras can only Receive onto the Bhagya or Meditate.
FREE_TOKENS = (0.0, 3.0, 5.0, 6.2, 7.0, 7.5, 7.9, 8.2, 8.4)  # by number of free tokens
RESERVE_TOKEN = 0.3  # extra for a token in reserve rather than on a space
FULL_BHAGYA_COST = -0.8  # a full Bhagya blocks Receive without a token
RUN_STEP = 0.7  # each chakra of the run from RED (the bonus race)
NEW_KNOWLEDGE = 0.05  # learning one more plenitude value
MEDITATE_COST = 0.3  # a turn spent without moving energy


@lru_cache(maxsize=None)
def level_value(level: int, contents: tuple) -> float:
    """The evaluation of one level's contents, harmonization excluded (see ``board_value``)."""
    value = 0.0
    own = 0
    for colour in contents:
        if colour == BLACK:
            value += BLACK_WORTH - BLACK_HEIGHT * level - (FOREIGN if level != BHAGYA else 0.0)
        elif colour == level:
            own += 1
        else:
            value += NEAR_HOME - HOME_DISTANCE * abs(colour - level)
            if level != BHAGYA:
                value -= FOREIGN
    if own:
        value += OWN_ENERGY * own + OWN_PAIR * own * (own - 1) / 2
    return value


def expected_plenitude(known: dict) -> dict:
    """For every chakra, its value if known, else the mean of the tokens not yet seen (chakra.md#hidden-values)."""
    unseen = list(PLENITUDE_TOKENS)
    for value in known.values():
        unseen.remove(value)
    average = sum(unseen) / len(unseen)
    return {level: known.get(level, average) for level in CHAKRAS}


def board_value(levels, earth: int, reserve: int, spaces: int, notches: int, worth: dict) -> float:
    """The greedy bot's score of one board; ``worth`` maps chakra levels to (expected) plenitude values."""
    value = _token_value(earth, reserve, spaces) + (FULL_BHAGYA_COST if len(levels[BHAGYA]) == 3 else 0.0)
    return (
        value
        + sum(_level_score(level, levels[level], worth) for level in range(1, BHAGYA + 1))
        + RUN_STEP * _run(levels)
    )


def _token_value(earth, reserve, spaces):
    return ALLEVIATED * earth + RESERVE_TOKEN * reserve + FREE_TOKENS[min(reserve + spaces, 8)]


def _level_score(level, contents, worth):
    if level < BHAGYA and _harmonized(contents, level):
        return HARMONIZED + worth[level]
    return level_value(level, contents)


def _run(levels):
    return run_of({level for level in CHAKRAS if _harmonized(levels[level], level)})


def after_action(board, action):
    """The (levels, earth, reserve, spaces, notches) the acting player would have after a legal ``action``."""
    levels = list(board.levels)
    earth, reserve, spaces, notches = board.earth, board.reserve, len(board.spaces), len(board.notches)
    if isinstance(action, Receive):
        destination = action.destination
        levels[destination] = tuple(sorted(levels[destination] + tuple(action.colours)))
        if destination != BHAGYA and not _harmonized(levels[destination], destination):
            reserve, notches = reserve - 1, notches + 1
    elif isinstance(action, Meditate):
        reserve, spaces = reserve + spaces, 0
    elif action.space == "SWAP":
        levels[BHAGYA] = tuple(sorted(levels[BHAGYA] + (action.bag_colour,)))
        earth, reserve, spaces = earth - 1, reserve - 1, spaces + 1
    else:
        reserve, spaces = reserve - 1, spaces + 1
        for step in action.steps:
            landing, _ = walk(levels, step.level, step.colour, step.direction, step.distance)
            origin = list(levels[step.level])
            origin.remove(step.colour)
            levels[step.level] = tuple(origin)
            if landing == EARTH:
                earth += 1
                continue
            levels[landing] = tuple(sorted(levels[landing] + (step.colour,)))
            if landing in board.notches and _harmonized(levels[landing], landing):
                reserve, notches = reserve + 1, notches - 1
    return levels, earth, reserve, spaces, notches


def action_value(state, player: int, action, worth: dict) -> float:
    """One-action lookahead, the plain way: the value of the board ``action`` leaves (plus the Meditate terms)."""
    board = state.players[player]
    value = board_value(*after_action(board, action), worth)
    if isinstance(action, Meditate):
        value -= MEDITATE_COST
        if action.colour is not None and action.colour not in board.meditation:
            value += NEW_KNOWLEDGE
    return value


def greedy_policy(state, rng: random.Random):
    """The legal action with the best one-action lookahead value (ties at random); reads only what it may know."""
    player = state.current_player
    best, best_value = [], float("-inf")
    for action, value in _lookahead(state, player, best_only=True):
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    choice = rng.choice(best)
    return _channel(*choice) if type(choice) is tuple and type(choice[0]) is str else choice


def lookahead_values(state, player: int) -> list:
    """``[(action, action_value)]`` for every legal action, in the order of ``legal_actions``.

    Same values as :func:`action_value`, computed faster from the levels an action changes:
    Channel actions are scored during a search like the move generator's (each step changes two
    levels), a Receive changes one level and its value is shared by columns offering the same colours."""
    return [
        (_channel(*action) if type(action) is tuple and type(action[0]) is str else action, value)
        for action, value in _lookahead(state, player)
    ]


def _lookahead(state, player: int, best_only: bool = False) -> list:
    """As :func:`lookahead_values`, but Channel actions other than SWAP stay ``(space, steps)`` pairs
    (the greedy bot builds only the action it plays); ``best_only`` leaves out Channel actions
    that cannot be among the best."""
    board = state.players[player]
    base = _Base(board, expected_plenitude(state.known_plenitude(player)))
    values = []
    receive_values: dict = {}  # a Receive's value depends on its colours and destination, not on the column
    value_of = base.received_value
    for action in actions.receive_actions(state, board):
        key = action[1], action[2]  # colours, destination
        value = receive_values.get(key)
        if value is None:
            value = receive_values[key] = value_of(*key)
        values.append((action, value))
    if board.reserve >= 1:
        values += base.channel_values(max((value for _, value in values), default=float("-inf")) if best_only else None)
        if "SWAP" not in board.spaces:
            values += [
                (_channel("SWAP", (), colour), base.swap_value(colour)) for colour in actions.swap_colours(state, board)
            ]
    values += [(action, base.meditate_value(action)) for action in actions.meditate_actions(state, board)]
    return values


class _Base:
    """The parts of ``board_value`` of the board before the action, for valuing changes to it."""

    def __init__(self, board, worth: dict):
        self.board, self.worth, self.table = board, worth, _score_table(worth)
        self.scores = [0.0] + [_level_score(level, board.levels[level], worth) for level in range(1, BHAGYA + 1)]
        self.levels_total = sum(self.scores)
        self.harmonized = set(board.harmonized_levels())
        self.run = run_of(self.harmonized)
        # the terms of ``value`` for a Receive that harmonizes nothing, as ``value`` computes them
        self.codes = level_codes(board.levels)  # the level codes of the scored search
        spaces = len(board.spaces)
        self.tokens = _token_value(board.earth, board.reserve, spaces)  # onto the Bhagya
        self.notched_tokens = _token_value(board.earth, board.reserve - 1, spaces)  # a token into a notch
        self.bhagya_term = FULL_BHAGYA_COST if len(board.levels[BHAGYA]) == 3 else 0.0
        self.run_term = RUN_STEP * self.run

    def value(self, level_change, harmonized, earth, reserve, spaces, bhagya_size) -> float:
        run = run_of(self.harmonized.union(harmonized)) if harmonized else self.run
        return (
            self.levels_total
            + level_change
            + _token_value(earth, reserve, spaces)
            + (FULL_BHAGYA_COST if bhagya_size == 3 else 0.0)
            + RUN_STEP * run
        )

    def receive_value(self, action) -> float:
        """Receive (chakra.md#receive): the value of the board after ``action``."""
        return self.received_value(action.colours, action.destination)

    def received_value(self, colours: frozenset, destination: int) -> float:
        """The value after receiving ``colours`` on ``destination``: :meth:`value`, with its terms
        read from ``__init__`` (added in the same order, so the same float) unless a chakra is harmonized."""
        board = self.board
        code = self.codes[destination]
        for colour in colours:
            code = _WITH_CODE[code * 8 + colour]
        change = self.table[destination * _CODES + code] - self.scores[destination]
        if destination == BHAGYA:
            bhagya_term = FULL_BHAGYA_COST if _SIZE[code] == 3 else 0.0
            return self.levels_total + change + self.tokens + bhagya_term + self.run_term
        if code == _HARMONY_CODE[destination]:  # the notch token returns at once (chakra.md#receive)
            return self.value(
                change, (destination,), board.earth, board.reserve, len(board.spaces), len(board.levels[BHAGYA])
            )
        return self.levels_total + change + self.notched_tokens + self.bhagya_term + self.run_term

    def swap_value(self, colour: int) -> float:
        """SWAP (chakra.md#swap): one energy from the bag onto the Bhagya, one alleviated black and one token spent."""
        board = self.board
        contents = tuple(sorted(board.levels[BHAGYA] + (colour,)))
        change = _level_score(BHAGYA, contents, self.worth) - self.scores[BHAGYA]
        return self.value(change, (), board.earth - 1, board.reserve - 1, len(board.spaces) + 1, len(contents))

    def meditate_value(self, action) -> float:
        """Meditate (chakra.md#meditate): the tokens on spaces come back; no energy moves."""
        board = self.board
        value = self.value(0.0, (), board.earth, board.reserve + len(board.spaces), 0, len(board.levels[BHAGYA]))
        value -= MEDITATE_COST
        if action.colour is not None and action.colour not in board.meditation:
            value += NEW_KNOWLEDGE
        return value

    def channel_values(self, floor: float | None = None) -> list:
        """``[((space, steps), value)]`` for every Channel action but SWAP, in the order of ``legal_actions``.

        With ``floor`` (the greedy bot), only the actions whose value comes within ``NEAR_BEST`` of the
        best seen so far (``floor`` counts as seen) are kept: the others cannot be among the best."""
        board = self.board
        search = _Search(self, floor)
        codes = level_codes(board.levels)
        values = []
        for space in SPACES[:-1]:
            if space in board.spaces:
                continue
            search.found = found = []
            for pattern in SPACE_PATTERNS[space]:
                _scored_search(codes, pattern, 0, (), search, 0.0, 0, (), 0)
            found.sort(key=_first)
            values += [((space, steps), value) for steps, value in found]
        if floor is not None:
            values = [item for item in values if item[1] > search.bound[0]]
        return values

    def _channel_terms(self, alleviated, harmonized, from_bhagya) -> tuple:
        """The token, full-Bhagya and run terms of ``value`` after a (non-SWAP) Channel action."""
        board = self.board
        returned = sum(
            1 for level in harmonized if level in board.notches
        )  # notch tokens come back (chakra.md#harmonization)
        run = run_of(self.harmonized.union(harmonized)) if harmonized else self.run
        bhagya_size = len(board.levels[BHAGYA]) - from_bhagya
        return (
            _token_value(board.earth + alleviated, board.reserve - 1 + returned, len(board.spaces) + 1),
            FULL_BHAGYA_COST if bhagya_size == 3 else 0.0,
            RUN_STEP * run,
        )


def _first(item):
    return item[0]


# --------------------------------------------------------------------------- the scored search
# The greedy bot values ~150 Channel actions per decision. Rather than applying each, it walks
# the step patterns once, as the move generator does, keeping each level's score up to date: a
# step changes only its origin and its landing. It reads the level codes of components.py, and
# each level's score from a flat table indexed by level and code.


_LEVEL_VALUES = tuple(level_value(level, contents) for level in range(BHAGYA + 1) for contents in _CONTENTS)


def _score_table(worth: dict) -> tuple:
    """``table[level * _CODES + code]`` = ``_level_score(level, _CONTENTS[code], worth)``: the
    worth-free ``level_value`` everywhere but on the seven harmonized chakras."""
    return _score_table_of(tuple(sorted(worth.items())))


@lru_cache(maxsize=1024)  # one table (12 kB) per worth (expected plenitude by level) seen lately
def _score_table_of(worth_items: tuple) -> tuple:
    worth = dict(worth_items)
    table = list(_LEVEL_VALUES)
    for level in CHAKRAS:
        table[level * _CODES + _HARMONY_CODE[level]] = _level_score(level, (level,) * CAPACITY, worth)
    return tuple(table)


NEAR_BEST = 1e-6  # far above the greedy bot's tie tolerance (1e-9), far below any real difference of values


class _Search:
    """What the scored search carries: the score table, the value terms by effect, the kept actions."""

    def __init__(self, base: "_Base", floor: float | None):
        self.base, self.table, self.levels_total = base, base.table, base.levels_total
        self.terms: dict = {}  # (alleviated, harmonized, from_bhagya) -> the sum of the value's terms after the level change
        self.raise_bound = floor is not None
        self.bound = [float("-inf") if floor is None else floor - NEAR_BEST]
        self.found: list = []
        self.landed = [0] * ((BHAGYA + 1) * 8)  # [level * 8 + colour]: energies earlier steps put there
        # the last steps kept after two steps (D1x3), by the two steps in either order: the same moves
        # in another order leave the same board, the same energies still to move and the same terms
        self.last_steps: dict = {}

    def terms_of(self, key: tuple) -> float:
        token, bhagya, run = self.base._channel_terms(*key)
        terms = self.terms[key] = token + bhagya + run
        return terms


def _scored_search(codes, pattern, depth, prefix, search, change, alleviated, harmonized, from_bhagya) -> None:
    """Every legal step tuple of ``pattern`` on the board whose level codes are ``codes`` (a list,
    restored after use) with its value, appended to ``search.found`` as (steps, value) when above
    ``search.bound``. The legality is the move generator's (``actions._search_steps``), step for
    step; the tests check both give the same actions, and the values against :func:`action_value`.

    Long on purpose: it is the greedy search's innermost recursion, kept in one frame so that a step
    costs no further call."""
    if depth == 2:  # the third step of D1x3: the first two in the other order leave the same board
        first, second = prefix
        either_order = (first, second) if first <= second else (second, first)
        known = search.last_steps.get(either_order)
        if known is not None:
            floor = search.bound[0]
            search.found.extend([(prefix + (step,), value) for step, value in known if value > floor])
            return
        start = len(search.found)
    direction, distance = pattern[depth]
    last = depth + 1 == len(pattern)
    table, landed, size, harmony = search.table, search.landed, _SIZE, _HARMONY_CODE
    terms, levels_total, bound, found, raise_bound = (
        search.terms,
        search.levels_total,
        search.bound,
        search.found,
        search.raise_bound,
    )
    for origin in range(1, BHAGYA + 1):
        code = codes[origin]
        if not code or code == harmony[origin]:
            continue  # empty, or locked (chakra.md#movement)
        landing, left = origin, distance  # the walk of chakra.md#movement (``actions.landing_of``), on codes
        while True:
            landing += direction
            if landing >= BHAGYA:
                landing = -1
                break
            if landing == EARTH:
                if left != 1:
                    landing = -1
                break
            here = codes[landing]
            if size[here] == CAPACITY:
                if here == harmony[landing]:
                    continue  # a harmonized chakra is skipped and not counted
                landing = -1
                break
            left -= 1
            if not left:
                break
        if landing < 0:
            continue
        if landing == EARTH:
            if not _HAS_BLACK[code]:
                continue
            colours, here = _BLACK_ONLY, -1
        else:
            colours, here = _COLOURS_OF[code], codes[landing]
            here_score = table[landing * _CODES + here]
        step_row = actions._STEP_TABLE[origin]
        old_origin = table[origin * _CODES + code]
        from_here = from_bhagya + (origin == BHAGYA)
        row = code * 8
        if last:  # value each colour's step; the terms depend on the effect only, the same for every
            # colour unless the step harmonizes the landing chakra
            plain_key = (alleviated + (here < 0), harmonized, from_here)
            plain = terms.get(plain_key)
            if plain is None:
                plain = search.terms_of(plain_key)
            start_value = levels_total + change + plain  # the value but for this step's level changes
            harmony_here = harmony[landing]
            origin_row, landing_row = origin * _CODES, landing * _CODES
            for colour in colours:
                if depth and _COUNT[row + colour] <= landed[origin * 8 + colour]:
                    continue  # every energy of this colour here has already moved (chakra.md#channel)
                step_change = table[origin_row + _WITHOUT_CODE[row + colour]] - old_origin
                if here >= 0:
                    arrived = _WITH_CODE[here * 8 + colour]
                    step_change += table[landing_row + arrived] - here_score
                    if arrived == harmony_here:
                        key = (alleviated, harmonized + (landing,), from_here)
                        harmonizing = terms.get(key)
                        if harmonizing is None:
                            harmonizing = search.terms_of(key)
                        step_change += harmonizing - plain
                value = start_value + step_change
                if value > bound[0]:
                    found.append((prefix + (step_row[colour][direction][distance],), value))
                    if raise_bound and value - NEAR_BEST > bound[0]:
                        bound[0] = value - NEAR_BEST
            continue
        for colour in colours:
            if depth and _COUNT[row + colour] <= landed[origin * 8 + colour]:
                continue  # every energy of this colour here has already moved (chakra.md#channel)
            rest = _WITHOUT_CODE[row + colour]
            step_change = table[origin * _CODES + rest] - old_origin
            if here < 0:
                now_alleviated, now_harmonized = alleviated + 1, harmonized
            else:
                arrived = _WITH_CODE[here * 8 + colour]
                step_change += table[landing * _CODES + arrived] - here_score
                now_alleviated = alleviated
                now_harmonized = harmonized + (landing,) if arrived == harmony[landing] else harmonized
            codes[origin] = rest
            if here >= 0:
                codes[landing] = arrived
            key = landing * 8 + colour
            landed[key] += 1
            _scored_search(
                codes,
                pattern,
                depth + 1,
                prefix + (step_row[colour][direction][distance],),
                search,
                change + step_change,
                now_alleviated,
                now_harmonized,
                from_here,
            )
            landed[key] -= 1
            if here >= 0:
                codes[landing] = here
            codes[origin] = code
    if depth == 2:
        search.last_steps[either_order] = [(steps[-1], value) for steps, value in search.found[start:]]


POLICIES = {"random": random_policy, "greedy": greedy_policy}


# --------------------------------------------------------------------------- tournaments


@dataclass(frozen=True)
class TournamentResult:
    """Outcome of many seeded games: wins by seat (ties share), lengths and scores."""

    players: int
    games: int
    wins_by_seat: tuple  # a tie counts as a win for each tied seat
    natural_ends: int  # games ended by the rule of chakra.md#end, not by the max_rounds safeguard
    rounds: tuple  # rounds played, one per game
    scores_by_seat: tuple  # per seat, the list of final scores

    def win_rate(self, seat: int) -> Estimate:
        return proportion(self.wins_by_seat[seat], self.games)

    def game_length(self) -> Estimate:
        return mean(self.rounds)

    def score(self, seat: int) -> Estimate:
        return mean(self.scores_by_seat[seat])

    def score_distribution(self, seat: int | None = None) -> Counter:
        """How often each final score occurred (for one seat, or all seats pooled)."""
        chosen = self.scores_by_seat if seat is None else [self.scores_by_seat[seat]]
        return Counter(score for seat_scores in chosen for score in seat_scores)

    def summary(self) -> str:
        lines = [
            f"{self.games} games, {self.players} players; ended by the rules: "
            f"{proportion(self.natural_ends, self.games).percent()}",
            f"rounds per game: {self.game_length()} (median {median(self.rounds)})",
        ]
        for seat in range(self.players):
            lines.append(f"seat {seat}: wins {self.win_rate(seat).percent()}, score {self.score(seat)}")
        return "\n".join(lines)


def tournament(
    policies: Sequence[Callable] | Callable,
    games: int = 100,
    players: int = 2,
    seed: int = 0,
    rules: Rules | None = None,
    show_progress: bool = True,
) -> TournamentResult:
    """Chakra's preset of :func:`gamelib.core.tournament`, summed up by seat: wins, lengths and scores.

    Args:
        policies: one policy per seat, or one policy for every seat.
        games: the number of DEALS, as everywhere in gamelib. Seats are not rotated (policy i
            always sits in seat i and seat 0 starts), so one game per deal.
        players: the number of seats.
        seed: the master seed of the deals.
        rules: default: the game's rules with ``max_rounds=DEFAULT_MAX_ROUNDS`` as a safeguard.
        show_progress: show a progress bar.

    Returns:
        A :class:`TournamentResult` by seat.

    Raises:
        ValueError: the number of policies is not ``players``.
    """
    rules = Rules(max_rounds=DEFAULT_MAX_ROUNDS) if rules is None else rules
    seat_policies = list(policies) if isinstance(policies, Sequence) else [policies] * players
    if len(seat_policies) != players:
        raise ValueError(f"give one policy per seat ({players}), not {len(seat_policies)}")
    records = core.tournament(
        new_game,
        seat_policies,
        games,
        rules=rules,
        seed=seed,
        setup={"players": players},
        rotate=False,
        progress=show_progress,
        description=f"{players}-player games",
        keep_final=True,
    )
    wins = [sum(seat in record.winners for record in records) for seat in range(players)]
    natural = sum(record.final.end_triggered for record in records)
    rounds = tuple(record.final.rounds_completed for record in records)
    scores = tuple(tuple(record.scores[seat] for record in records) for seat in range(players))
    return TournamentResult(players, games, tuple(wins), natural, rounds, scores)


DEFAULT_MAX_ROUNDS = 100
