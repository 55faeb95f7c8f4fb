"""Tiny contract games for the solver's and MCTS's tests, written plainly (independent of gamelib.studio's base).

* ``pig``: Pig (Neller and Presser's rules: roll a die, a 1 loses the turn total, hold banks it; the
  first to ``goal`` wins) with a small goal; positions repeat after two rolls of 1.
* ``dash``: a two-player race on a short track: step 1 for sure, or throw a coin for 1 or 3;
  every move advances, so no position repeats (an acyclic graph, solved exactly).
* ``sticks``: take 1 or 2 sticks, whoever takes the last wins; no chance (a forced win from 4 sticks).
* ``target``: solo: roll a three-sided die as often as you like and stop; win when you stop on exactly the target.

Each is a module-like namespace with ``GAME``, ``Rules`` and ``new_game(seed=None, rules=None, *,
explicit_chance=False)``; states have ``key()``, ``with_seed()``, and default-mode chance drawn from the seed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace

from gamelib.core import CHANCE, TERMINAL, IllegalMove, chance_rng, resolve_seed, returns_for, sample_outcome


@dataclass(frozen=True)
class _Base:
    """Plumbing shared by the tiny games: chance from the seed unless explicit, with_seed, returns."""

    seed: int = 0
    draws: int = 0
    explicit_chance: bool = False
    hides_information = False

    def with_seed(self, seed):
        return dataclasses.replace(self, seed=seed)

    def returns(self):
        return returns_for(self.winners, self.players)

    @property
    def is_terminal(self):
        return self.current_player == TERMINAL

    def _settle(self):
        """Resolve chance from the seed (default mode) until a decision or the end."""
        state = self
        while not state.explicit_chance and state.current_player == CHANCE:
            outcome = sample_outcome(state.chance_outcomes(), chance_rng(state.seed, state.draws))
            state = dataclasses.replace(state._outcome(outcome), draws=state.draws + 1)
        return state

    def apply(self, action):
        if self.is_terminal:
            raise IllegalMove("the game is over", action)
        if self.current_player == CHANCE:
            if action not in [outcome for outcome, _ in self.chance_outcomes()]:
                raise IllegalMove(f"{action!r} is not an outcome here", action)
            return self._outcome(action)._settle()
        if action not in self.legal_actions():
            raise IllegalMove(f"{action!r} is not legal here", action)
        return self._move(action)._settle()


# --------------------------------------------------------------------------- Pig


@dataclass(frozen=True)
class PigRules:
    goal: int = 10
    sides: int = 6


@dataclass(frozen=True)
class PigState(_Base):
    rules: PigRules = PigRules()
    scores: tuple = (0, 0)
    turn_total: int = 0
    to_move: int = 0
    rolling: bool = False  # a roll waits for the die
    players = 2

    @property
    def winners(self):
        """The player to move wins at once when banked points plus the turn total reach the goal."""
        return (self.to_move,) if self.scores[self.to_move] + self.turn_total >= self.rules.goal else ()

    @property
    def current_player(self):
        if self.winners:
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def key(self):
        return (self.scores, self.turn_total, self.to_move, self.rolling)

    def legal_actions(self):
        return [] if self.current_player < 0 else ["roll", "hold"]

    def chance_outcomes(self):
        return (
            [(face, Fraction(1, self.rules.sides)) for face in range(1, self.rules.sides + 1)] if self.rolling else []
        )

    def _move(self, action):
        if action == "roll":
            return dataclasses.replace(self, rolling=True)
        scores = list(self.scores)
        scores[self.to_move] += self.turn_total
        return dataclasses.replace(self, scores=tuple(scores), turn_total=0, to_move=1 - self.to_move)

    def _outcome(self, face):
        if face == 1:
            return dataclasses.replace(self, rolling=False, turn_total=0, to_move=1 - self.to_move)
        return dataclasses.replace(self, rolling=False, turn_total=self.turn_total + face)


def _pig_new_game(seed=None, rules=None, *, explicit_chance=False):
    return PigState(seed=resolve_seed(seed), explicit_chance=explicit_chance, rules=rules or PigRules())


def hold_at(threshold: int):
    """Pig's "hold at ``threshold`` or the goal" policy (Neller and Presser)."""

    def policy(state, rng=None):
        mine = state.scores[state.to_move]
        enough = state.turn_total >= threshold or mine + state.turn_total >= state.rules.goal
        return "hold" if enough and state.turn_total > 0 else "roll"  # (a game won at the goal never asks)

    policy.__name__ = f"hold_at_{threshold}"
    return policy


pig = SimpleNamespace(GAME="tiny pig", Rules=PigRules, State=PigState, new_game=_pig_new_game, hold_at=hold_at)


# --------------------------------------------------------------------------- Dash


@dataclass(frozen=True)
class DashRules:
    length: int = 5


@dataclass(frozen=True)
class DashState(_Base):
    rules: DashRules = DashRules()
    places: tuple = (0, 0)
    to_move: int = 0
    throwing: bool = False
    players = 2

    @property
    def winners(self):
        return tuple(seat for seat in (0, 1) if self.places[seat] >= self.rules.length)

    @property
    def current_player(self):
        if self.winners:
            return TERMINAL
        return CHANCE if self.throwing else self.to_move

    def key(self):
        return (self.places, self.to_move, self.throwing)

    def legal_actions(self):
        return [] if self.current_player < 0 else ["step", "throw"]

    def chance_outcomes(self):
        return [(1, Fraction(1, 2)), (3, Fraction(1, 2))] if self.throwing else []

    def _advance(self, distance):
        places = list(self.places)
        places[self.to_move] += distance
        return dataclasses.replace(self, places=tuple(places), to_move=1 - self.to_move, throwing=False)

    def _move(self, action):
        return self._advance(1) if action == "step" else dataclasses.replace(self, throwing=True)

    def _outcome(self, distance):
        return self._advance(distance)


dash = SimpleNamespace(
    GAME="dash",
    Rules=DashRules,
    State=DashState,
    new_game=lambda seed=None, rules=None, *, explicit_chance=False: DashState(
        seed=resolve_seed(seed), explicit_chance=explicit_chance, rules=rules or DashRules()
    ),
)


# --------------------------------------------------------------------------- Sticks


@dataclass(frozen=True)
class SticksRules:
    sticks: int = 4


@dataclass(frozen=True)
class SticksState(_Base):
    rules: SticksRules = SticksRules()
    left: int = 4
    to_move: int = 0
    last_taker: int | None = None
    players = 2

    @property
    def winners(self):
        return (self.last_taker,) if self.left == 0 else ()

    @property
    def current_player(self):
        return TERMINAL if self.left == 0 else self.to_move

    def key(self):
        return (self.left, self.to_move)

    def legal_actions(self):
        return [take for take in (1, 2) if take <= self.left] if self.left else []

    def chance_outcomes(self):
        return []

    def _move(self, take):
        return dataclasses.replace(self, left=self.left - take, to_move=1 - self.to_move, last_taker=self.to_move)


sticks = SimpleNamespace(
    GAME="sticks",
    Rules=SticksRules,
    State=SticksState,
    new_game=lambda seed=None, rules=None, *, explicit_chance=False: SticksState(
        seed=resolve_seed(seed),
        explicit_chance=explicit_chance,
        rules=rules or SticksRules(),
        left=(rules or SticksRules()).sticks,
    ),
)


# --------------------------------------------------------------------------- Target (solo)


@dataclass(frozen=True)
class TargetRules:
    target: int = 5


@dataclass(frozen=True)
class TargetState(_Base):
    rules: TargetRules = TargetRules()
    total: int = 0
    stopped: bool = False
    rolling: bool = False
    players = 1

    @property
    def winners(self):
        return (0,) if self.stopped and self.total == self.rules.target else ()

    @property
    def current_player(self):
        if self.stopped or self.total > self.rules.target:
            return TERMINAL
        return CHANCE if self.rolling else 0

    def key(self):
        return (self.total, self.stopped, self.rolling)

    def legal_actions(self):
        return [] if self.current_player < 0 else ["roll", "stop"]

    def chance_outcomes(self):
        return [(face, Fraction(1, 3)) for face in (1, 2, 3)] if self.rolling else []

    def _move(self, action):
        return dataclasses.replace(self, rolling=True) if action == "roll" else dataclasses.replace(self, stopped=True)

    def _outcome(self, face):
        return dataclasses.replace(self, total=self.total + face, rolling=False)


target = SimpleNamespace(
    GAME="target",
    Rules=TargetRules,
    State=TargetState,
    new_game=lambda seed=None, rules=None, *, explicit_chance=False: TargetState(
        seed=resolve_seed(seed), explicit_chance=explicit_chance, rules=rules or TargetRules()
    ),
)


# --------------------------------------------------------------------------- oracles, written plainly


def expectimax(state, memo=None):
    """Seat 0's winning chance under optimal play by plain recursion (acyclic games only), exact."""
    memo = {} if memo is None else memo
    key = state.key()
    if key in memo:
        return memo[key]
    if state.is_terminal:
        value = Fraction(state.returns()[0]).limit_denominator(100)
    elif state.current_player == CHANCE:
        value = sum(p * expectimax(state.apply(outcome), memo) for outcome, p in state.chance_outcomes())
    else:
        options = [expectimax(state.apply(action), memo) for action in state.legal_actions()]
        value = max(options) if state.current_player == 0 else min(options)
    memo[key] = value
    return value


def value_iteration_oracle(start, sweeps=100_000, tolerance=1e-14, policies=None):
    """Seat 0's winning chance of every position by plain Gauss-Seidel value iteration over a dict
    (for games whose positions repeat); ``policies`` = {seat: policy} fixes those seats' moves."""
    policies = policies or {}
    states, order, successors = {start.key(): start}, [start.key()], {}
    for key in order:  # list every position, breadth first
        state = states[key]
        if state.is_terminal:
            continue
        if state.current_player == CHANCE:
            edges = [(p, state.apply(outcome)) for outcome, p in state.chance_outcomes()]
        else:
            mover = state.current_player
            actions = [policies[mover](state, None)] if mover in policies else state.legal_actions()
            edges = [(None, state.apply(action)) for action in actions]
        successors[key] = [(p, after.key()) for p, after in edges]
        for _, after in edges:
            if after.key() not in states:
                states[after.key()] = after
                order.append(after.key())
    values = {key: float(state.returns()[0]) if state.is_terminal else 0.0 for key, state in states.items()}
    for _ in range(sweeps):
        change = 0.0
        for key in reversed(order):
            if key not in successors:
                continue
            state = states[key]
            if state.current_player == CHANCE:
                new = sum(float(p) * values[after] for p, after in successors[key])
            elif state.current_player == 0:
                new = max(values[after] for _, after in successors[key])
            else:
                new = min(values[after] for _, after in successors[key])
            change = max(change, abs(new - values[key]))
            values[key] = new
        if change < tolerance:
            return values
    raise AssertionError("the oracle did not converge")
