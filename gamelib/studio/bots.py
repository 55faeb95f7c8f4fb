"""Bots for any contract game, as ``(state, rng) -> action``: random, and greedy on an evaluation.

``greedy(evaluate)`` looks one move ahead: for each legal move it weighs every chance outcome
that follows by its exact probability and scores the positions reached with
``evaluate(state, player)`` (a number, higher is better for ``player``). It never reads the
future from the state's seed: chance is weighed, not drawn. MCTS lives in
:mod:`gamelib.studio.mcts`.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace
from typing import Any, Callable

from gamelib.core import CHANCE, random_policy

Evaluation = Callable[[Any, int], float]

MAX_CHANCE_LEAVES = 10_000
"""Positions a greedy bot weighs after one move before it samples chance instead (a bound on its time)."""


def win_share(state: Any, player: int) -> float:
    """The plainest evaluation: the player's share of the win once the game is over, else 0."""
    return state.returns()[player] if state.is_terminal else 0.0


class greedy:
    """A policy choosing the move whose expected ``evaluate(next state, player)`` is highest
    (ties broken at random by the bot's ``rng``). A class, not a closure, so a tournament can
    send it to other processes when ``evaluate`` is a module-level function."""

    def __init__(self, evaluate: Evaluation = win_share, name: str = "greedy"):
        self.evaluate = evaluate
        self.__name__ = name

    def __call__(self, state: Any, rng: random.Random) -> Any:
        player = state.current_player
        weighing = _explicit(state)
        best, best_value = [], None
        for action in state.legal_actions():
            value = self.expected_value(weighing.apply(action), player, rng)
            if best_value is None or value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)

    def expected_value(self, state: Any, player: int, rng: random.Random) -> float:
        """``evaluate`` averaged over the chance events that follow ``state`` (exactly, up to a bound)."""
        frontier = [(state, Fraction(1))]
        total = 0
        while frontier:
            node, weight = frontier.pop()
            if node.current_player != CHANCE:
                value = self.evaluate(node, player)
                # exact when the evaluation is exact, so equal moves tie exactly (Pig's turn total 20)
                total += weight * value if isinstance(value, (int, Fraction)) else float(weight) * value
            elif len(frontier) < MAX_CHANCE_LEAVES:
                frontier.extend(
                    (node.apply(outcome), weight * probability) for outcome, probability in node.chance_outcomes()
                )
            else:
                outcomes = node.chance_outcomes()
                outcome = rng.choices([o for o, _ in outcomes], [float(p) for _, p in outcomes])[0]
                frontier.append((node.apply(outcome), weight))
        return total

    def __repr__(self) -> str:
        return f"greedy({getattr(self.evaluate, '__name__', self.evaluate)!r})"


def _explicit(state: Any) -> Any:
    """The state stopping at chance events, so a bot weighs them instead of reading the seed."""
    if getattr(state, "explicit_chance", False):
        return state
    if hasattr(state, "with_explicit_chance"):
        return state.with_explicit_chance()
    raise TypeError(
        f"greedy needs a state that can stop at chance events (with_explicit_chance), "
        f"which {type(state).__name__} does not offer"
    )


def bots_for(evaluate: Evaluation) -> SimpleNamespace:
    """A game's ``bots``: ``random_policy`` and ``greedy_policy`` on its default evaluation."""
    return SimpleNamespace(random_policy=random_policy, greedy_policy=greedy(evaluate, "greedy"), evaluate=evaluate)


__all__ = ["random_policy", "greedy", "win_share", "bots_for"]
