"""A toy game that exercises the engine contract: a two-dice race.

Two players take turns. The player to act chooses to throw one die or two; the throw
is a chance node. The first to reach TARGET points wins, but a double 1 on two dice
wipes out that player's points. It is small enough to check by hand.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, replace
from fractions import Fraction

from gamelib.core import CHANCE, TERMINAL, IllegalMove, chance_rng, load_json, require_fields, sample_outcome, CorruptSave

TARGET = 12
ACTIONS = ("ONE_DIE", "TWO_DICE")


@dataclass(frozen=True)
class RaceState:
    scores: tuple[int, int] = (0, 0)
    to_move: int = 0
    pending: str | None = None  # the throw chosen, waiting for the dice
    seed: int | None = None
    draws: int = 0
    explicit_chance: bool = False

    @property
    def is_terminal(self) -> bool:
        return max(self.scores) >= TARGET

    @property
    def winner(self) -> int | None:
        return self.scores.index(max(self.scores)) if self.is_terminal else None

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
        dice = 1 if self.pending == "ONE_DIE" else 2
        faces = list(itertools.product(range(1, 7), repeat=dice))
        return [(face, Fraction(1, len(faces))) for face in faces]

    def apply(self, action) -> "RaceState":
        if self.is_terminal:
            raise IllegalMove("the race is over")
        if self.pending:
            if (action, Fraction(1, 6 ** len(action))) not in self.chance_outcomes():
                raise IllegalMove(f"{action} is not a possible throw")
            return self._resolve(action)
        if action not in ACTIONS:
            raise IllegalMove(f"choose ONE_DIE or TWO_DICE, not {action!r}")
        state = replace(self, pending=action)
        if not self.explicit_chance:
            throw = sample_outcome(state.chance_outcomes(), chance_rng(self.seed, self.draws))
            state = replace(state, draws=self.draws + 1)._resolve(throw)
        return state

    def _resolve(self, throw: tuple) -> "RaceState":
        gained = sum(throw)
        scores = list(self.scores)
        scores[self.to_move] = 0 if throw == (1, 1) else scores[self.to_move] + gained
        return replace(self, scores=tuple(scores), pending=None, to_move=1 - self.to_move)

    def returns(self) -> list[float]:
        if not self.is_terminal:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def to_json(self) -> str:
        return json.dumps({"scores": list(self.scores), "to_move": self.to_move, "pending": self.pending,
                           "seed": self.seed, "draws": self.draws, "explicit_chance": self.explicit_chance})

    @classmethod
    def from_json(cls, text) -> "RaceState":
        data = load_json(text, "race")
        require_fields(data, ["scores", "to_move", "pending", "seed", "draws", "explicit_chance"], "race")
        if len(data["scores"]) != 2:
            raise CorruptSave("a race has exactly two scores")
        return cls(tuple(data["scores"]), data["to_move"], data["pending"], data["seed"], data["draws"],
                   data["explicit_chance"])


def new_game(seed=None, explicit_chance=False) -> RaceState:
    return RaceState(seed=seed, explicit_chance=explicit_chance)
