"""``check_game``: play a student's game at random and name the function behind any mistake.

It checks what the engine's own checks cannot see from one move: that the start is the same
every time, that positions compare by value, that every game ends within a bound, that moves
are distinct and saveable, that saves replay to the same game, and, for a game that hides
information, that ``could_be`` only offers positions its player cannot tell apart.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from gamelib.core import CHANCE, sample_outcome
from gamelib.studio.game import (
    MAX_CHANCE_CHAIN,
    Game,
    GameCodeError,
    _as_json,
    _call,
    _check_saveable,
    check_declarations,
    _short,
)


@dataclass(frozen=True)
class CheckReport:
    """What ``check_game`` saw: how many random games, how long they were and who won them."""

    game: str
    games: int
    mean_moves: float
    longest: int
    wins_by_seat: tuple

    def __str__(self) -> str:
        wins = ", ".join(f"seat {seat} won {count}" for seat, count in enumerate(self.wins_by_seat))
        return (
            f"{self.game}: {self.games} random games all ended, {self.mean_moves:.1f} moves on average "
            f"(longest {self.longest}); {wins}"
        )


def game_class(game: Any) -> type:
    """The :class:`Game` subclass behind ``game`` (the class itself, an example module or its ``State``)."""
    if isinstance(game, type) and issubclass(game, Game):
        return game
    found = getattr(getattr(game, "State", game), "_game_class", None)
    if found is None or found is Game:
        raise TypeError(f"check_game needs a studio Game subclass (or its module), not {_short(game)}")
    return found


def check_game(game: Any, games: int = 100, max_moves: int = 1000, *, rules: Any = None, seed: int = 0) -> CheckReport:
    """Play ``games`` random games of ``game`` (chance drawn from ``seed``) and check each step.

    Raises :class:`GameCodeError` naming the student's function and what it returned, or saying
    which random game did not end within ``max_moves`` player moves.
    """
    cls = game_class(game)
    check_declarations(cls)
    instance = cls.for_rules(rules)
    _check_start(instance)
    rng = random.Random(seed)
    lengths, wins = [], [0] * cls.players
    for number in range(1, games + 1):
        final, moves = _random_game(cls, instance.rules, rng, number, max_moves)
        lengths.append(moves)
        for seat in final.winners:
            wins[seat] += 1
        _check_save(final)
    default = cls.new_game(seed, instance.rules)
    while not default.is_terminal and len(default.actions()) < max_moves:
        default = default.apply(rng.choice(default.legal_actions()))
    _check_save(default)
    return CheckReport(cls.name, games, sum(lengths) / len(lengths), max(lengths), tuple(wins))


def _check_start(game: Game) -> None:
    first, second = _call(game, "start"), _call(game, "start")
    game._checked_position(first, "start")
    if first != second or hash(first) != hash(second):
        raise GameCodeError(
            f"{type(game).__name__}.start() returned two positions that are not equal "
            f"({_short(first)}): positions must compare by value (a tuple, namedtuple or frozen "
            f"dataclass), so a solver can see when a position comes back"
        )


def _random_game(cls: type, rules: Any, rng: random.Random, number: int, max_moves: int):
    state = cls.new_game(rng.getrandbits(63), rules, explicit_chance=True)
    moves = chance_in_a_row = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            chance_in_a_row += 1
            if chance_in_a_row > MAX_CHANCE_CHAIN:
                raise GameCodeError(
                    f"{cls.__name__}.chance() asked for {MAX_CHANCE_CHAIN} chance events in a row "
                    f"(random game {number}), last at {_short(state.position)}: does play() ever "
                    f"leave the chance event?"
                )
            state = state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        chance_in_a_row = 0
        if moves >= max_moves:
            raise GameCodeError(
                f"{cls.__name__} did not end within {max_moves} moves of random play (random game "
                f"{number}); the last position was {_short(state.position)}: make sure every game "
                f"ends, or raise max_moves if long games are meant"
            )
        _check_player_node(state)
        state = state.apply(rng.choice(state.legal_actions()))
        moves += 1
    return state, moves


def _check_player_node(state: Any) -> None:
    game, position = state._game, state.position
    name = type(game).__name__
    actions = state.legal_actions()
    where = f"{name}.moves({_short(position)})"
    for action in actions:
        _check_saveable(game, action, where, "move")
        state.action_label(action)
    if len({_as_json(action) for action in actions}) < len(actions):
        raise GameCodeError(f"{where} returned {_short(actions)}, which lists a move twice: list each move once")
    str(state)
    state.drawing()
    seen = [state.observation(player) for player in range(game.players)]
    if game.hides_information:
        for player in range(game.players):
            _check_could_be(state, player, seen[player])


def _check_could_be(state: Any, player: int, seen: dict) -> None:
    game, position = state._game, state.position
    where = f"{type(game).__name__}.could_be({_short(position)}, {player})"
    worlds = _call(game, "could_be", position, player)
    if not isinstance(worlds, (list, tuple)) or position not in worlds:
        raise GameCodeError(f"{where} returned {_short(worlds)}: return a list of positions that includes the real one")
    for world in worlds:
        other = _call(game, "observation", world, player)
        if json.dumps(other, sort_keys=True) != json.dumps(seen, sort_keys=True):
            raise GameCodeError(
                f"{where} offered {_short(world)}, which player {player} sees as {_short(other)}, "
                f"not {_short(seen)}: could_be must keep everything the player sees"
            )


def _check_save(final: Any) -> None:
    text = final.to_json()
    again = type(final).from_json(text)
    if again.position != final.position or again.to_json() != text:
        raise GameCodeError(
            f"{final._game_class.__name__}: replaying a save gave {_short(again.position)}, not "
            f"{_short(final.position)}: play() must depend on nothing but the position and the move"
        )
