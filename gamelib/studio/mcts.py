"""Monte Carlo tree search for any game on the contract: a bot with a budget of simulations.

>>> bot = mcts_policy(simulations=200)        # a (state, rng) -> action policy
>>> play(new_game(seed=1), [bot, greedy_policy], seed=1)

Each simulation starts from a fresh :func:`~gamelib.studio.determinise.determinised` copy of the
position: the hidden part drawn again from what the player to move observes, the future chance
drawn from a new seed (or sampled at each explicit chance node). So the bot never reads the
future from the state's seed, nor a card it cannot see. The tree is "open loop": a node is the
sequence of players' actions and of the chance outcomes the search sees from the root (chance
resolved inside a game's ``apply`` is not seen), chance is sampled on the way down, and a node's
statistics average over the hidden parts and the unseen chance that led to it (the information-set
search of Cowling, Powley and Whitehouse, 2012, in its simplest form). Selection is UCT
(Kocsis and Szepesvári, 2006) on the mover's own return, so games of 2 to 4 players are played
by each seat for itself; an action not legal in a simulation's position is skipped there.

A simulation ends at the end of the game or after ``rollout_limit`` actions of the rollout,
where ``evaluate(state)`` (default: :func:`score_lead`, the leaders by ``scores()`` share the
win) estimates the returns.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Sequence

from gamelib.core import CHANCE, Policy, random_policy, sample_outcome
from gamelib.studio.determinise import determinised

DEFAULT_EXPLORATION = math.sqrt(2)  # UCB1's constant for returns in [0, 1]


class _Node:
    """Statistics of one sequence of actions: visits, and each seat's summed return."""

    __slots__ = ("visits", "totals", "children")

    def __init__(self, players: int):
        self.visits = 0
        self.totals = [0.0] * players
        self.children: dict = {}


def score_lead(state: Any) -> list[float]:
    """Returns of a game cut short: the seats with the highest ``scores()`` share the win (the
    returns of the contract); all 0 for a solo game or a game without scores (nothing known)."""
    players = len(state.returns())
    if players < 2 or not hasattr(state, "scores"):
        return [0.0] * players
    scores = list(state.scores())
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return [1 / len(leaders) if seat in leaders else 0.0 for seat in range(players)]


def mcts_policy(
    simulations: int = 200,
    *,
    exploration: float = DEFAULT_EXPLORATION,
    rollout_policy: Policy = random_policy,
    rollout_limit: int | None = 200,
    evaluate: Callable[[Any], Sequence[float]] = score_lead,
) -> Policy:
    """A ``(state, rng) -> action`` policy choosing by ``simulations`` simulations of Monte Carlo
    tree search (see the module's text). ``rollout_limit`` bounds the actions of each rollout
    (None: play to the end); ``evaluate`` gives the returns where a rollout is cut short."""
    if type(simulations) is not int or simulations < 1:
        raise ValueError(f"simulations must be a whole number of at least 1, not {simulations!r}")
    if rollout_limit is not None and (type(rollout_limit) is not int or rollout_limit < 0):
        raise ValueError(f"rollout_limit must be None or a whole number of at least 0, not {rollout_limit!r}")

    def policy(state: Any, rng: random.Random) -> Any:
        return search(state, rng, simulations, exploration, rollout_policy, rollout_limit, evaluate)

    policy.__name__ = f"mcts_{simulations}"
    policy.__qualname__ = policy.__name__
    return policy


def search(
    state: Any,
    rng: random.Random,
    simulations: int,
    exploration: float = DEFAULT_EXPLORATION,
    rollout_policy: Policy = random_policy,
    rollout_limit: int | None = 200,
    evaluate: Callable[[Any], Sequence[float]] = score_lead,
) -> Any:
    """The action of the most visited root child after ``simulations`` simulations."""
    player = state.current_player
    if player < 0:
        raise ValueError("MCTS chooses a player's action; this state is at a chance node or over")
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    root = _Node(len(state.returns()))
    for _ in range(simulations):
        _simulate(determinised(state, player, rng), root, rng, exploration, rollout_policy, rollout_limit, evaluate)
    by_key = {_key(action): action for action in legal}
    best = max(
        by_key,
        key=lambda key: (
            (root.children[key].visits, root.children[key].totals[player]) if key in root.children else (-1, 0.0)
        ),
    )
    return by_key[best]


def _simulate(
    state: Any,
    root: _Node,
    rng: random.Random,
    exploration: float,
    rollout_policy: Policy,
    rollout_limit: int | None,
    evaluate: Callable,
) -> None:
    path = [root]
    node = root
    expanded = False
    while not state.is_terminal and not expanded:
        mover = state.current_player
        if mover == CHANCE:  # a chance outcome the search sees gets its own node (a roll of 6 is not a 1)
            outcome = sample_outcome(state.chance_outcomes(), rng)
            state = state.apply(outcome)
            key = ("chance outcome", _key(outcome))
            node = node.children.get(key) or node.children.setdefault(key, _Node(len(node.totals)))
            path.append(node)
            continue
        legal = state.legal_actions()
        untried = [action for action in legal if _key(action) not in node.children]
        if untried:
            action = rng.choice(untried)
            node.children[_key(action)] = child = _Node(len(node.totals))
            expanded = True
        else:
            action, child = _select(node, legal, mover, exploration)
        state = state.apply(action)
        node = child
        path.append(node)
    returns = _rollout(state, rng, rollout_policy, rollout_limit, evaluate)
    for visited in path:
        visited.visits += 1
        totals = visited.totals
        for seat, value in enumerate(returns):
            totals[seat] += value


def _select(node: _Node, legal: list, mover: int, exploration: float) -> tuple[Any, _Node]:
    """UCB1 on the mover's mean return over the children legal here."""
    log_visits = math.log(max(node.visits, 1))
    best, best_score = None, -math.inf
    for action in legal:
        child = node.children[_key(action)]
        score = child.totals[mover] / child.visits + exploration * math.sqrt(log_visits / child.visits)
        if score > best_score:
            best, best_score = (action, child), score
    return best


def _rollout(
    state: Any, rng: random.Random, rollout_policy: Policy, rollout_limit: int | None, evaluate: Callable
) -> list[float]:
    steps = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            state = state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        if rollout_limit is not None and steps >= rollout_limit:
            return list(evaluate(state))
        state = state.apply(rollout_policy(state, rng))
        steps += 1
    return list(state.returns())


def _key(action: Any) -> Any:
    """The action as a dictionary key (its text when it cannot be hashed)."""
    try:
        hash(action)
    except TypeError:
        return ("unhashable", repr(action))
    return action


__all__ = ["mcts_policy", "search", "score_lead", "DEFAULT_EXPLORATION"]
