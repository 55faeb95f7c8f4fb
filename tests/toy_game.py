"""A toy game that keeps the engine contract: a two-dice race.

Two players take turns. The player to act chooses to throw one die or two; the throw
is a chance node. The first to reach ``Rules.target`` points wins, but a double 1 on two
dice wipes out that player's points. It is small enough to check by hand.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from fractions import Fraction

from gamelib.core import (
    CHANCE,
    TERMINAL,
    CorruptSave,
    IllegalMove,
    RulesBase,
    chance_rng,
    check_int,
    check_save_header,
    load_json,
    replace_fields,
    require_fields,
    resolve_seed,
    returns_for,
    sample_outcome,
    save_header,
    single_winner,
)

GAME = "race"
SAVE_VERSION = 1
ACTIONS = ("ONE_DIE", "TWO_DICE")
THROWS = tuple(tuple(itertools.product(range(1, 7), repeat=dice)) for dice in (0, 1, 2))  # by dice thrown
ODDS = tuple(tuple((face, Fraction(1, len(faces))) for face in faces) for faces in THROWS)  # listed once


@dataclass(frozen=True)
class Rules(RulesBase):
    target: int = 12

    def __post_init__(self):
        check_int("target", self.target, 1, 1000)


@dataclass(frozen=True)
class State:
    points: tuple[int, int] = (0, 0)
    to_move: int = 0
    pending: str | None = None  # the throw chosen, waiting for the dice
    seed: int | str = 0
    draws: int = 0
    explicit_chance: bool = False
    rules: Rules = Rules()

    @property
    def is_terminal(self) -> bool:
        return max(self.points) >= self.rules.target

    @property
    def winners(self) -> tuple[int, ...]:
        return (self.points.index(max(self.points)),) if self.is_terminal else ()

    @property
    def winner(self) -> int | None:
        return single_winner(self.winners)

    @property
    def current_player(self) -> int:
        if self.is_terminal:
            return TERMINAL
        return CHANCE if self.pending else self.to_move

    def legal_actions(self) -> list:
        if self.is_terminal or self.pending:
            return []
        return list(ACTIONS)

    def chance_outcomes(self) -> list:
        if not self.pending:
            return []
        return list(ODDS[1 if self.pending == "ONE_DIE" else 2])

    def apply(self, action) -> "State":
        if self.is_terminal:
            raise IllegalMove("the race is over")
        if self.pending:
            if action not in THROWS[1 if self.pending == "ONE_DIE" else 2]:
                raise IllegalMove(f"{action!r} is not a possible throw")
            return self._resolve(action)
        if not isinstance(action, str) or action not in ACTIONS:
            raise IllegalMove(f"choose ONE_DIE or TWO_DICE, not {action!r}")
        state = replace_fields(self, pending=action)
        if not self.explicit_chance:
            throw = sample_outcome(state.chance_outcomes(), chance_rng(self.seed, self.draws))
            state = replace_fields(state, draws=self.draws + 1)._resolve(throw)
        return state

    def _resolve(self, throw: tuple) -> "State":
        points = list(self.points)
        points[self.to_move] = 0 if throw == (1, 1) else points[self.to_move] + sum(throw)
        return replace_fields(self, points=tuple(points), pending=None, to_move=1 - self.to_move)

    def returns(self) -> list[float]:
        return returns_for(self.winners, 2)

    def scores(self) -> tuple[int, int]:
        return self.points

    def observation(self, player: int) -> dict:
        return {"points": list(self.points), "to_move": self.to_move, "pending": self.pending}

    def __str__(self) -> str:
        return f"race to {self.rules.target}: {self.points[0]} - {self.points[1]}, seat {self.to_move} to move"

    def to_json(self) -> str:
        return json.dumps(
            {
                **save_header(GAME, SAVE_VERSION),
                "rules": self.rules.to_dict(),
                "points": list(self.points),
                "to_move": self.to_move,
                "pending": self.pending,
                "seed": self.seed,
                "draws": self.draws,
                "explicit_chance": self.explicit_chance,
            }
        )

    @classmethod
    def from_json(cls, text) -> "State":
        data = load_json(text, "race")
        check_save_header(data, GAME, SAVE_VERSION)
        require_fields(data, ["rules", "points", "to_move", "pending", "seed", "draws", "explicit_chance"], "race")
        if not isinstance(data["points"], list) or len(data["points"]) != 2:
            raise CorruptSave("a race has exactly two scores (points)")
        try:
            rules = Rules.from_dict(data["rules"])
        except ValueError as problem:
            raise CorruptSave(f"the race's rules are not valid: {problem}") from None
        return cls(
            tuple(data["points"]),
            data["to_move"],
            data["pending"],
            data["seed"],
            data["draws"],
            data["explicit_chance"],
            rules,
        )


RaceState = State


def new_game(seed=None, rules=None, *, explicit_chance=False) -> State:
    return State(seed=resolve_seed(seed), explicit_chance=explicit_chance, rules=rules or Rules())
