"""Chakra test helpers shared by several test files: seeded games checked after every action, sampled positions.

``GAMELIB_LONG_TESTS=1`` runs the long sweeps (500 games per policy and player count, as the
invariant tests were first written); ``make test`` plays a smaller sample of the same seeds.
"""

from __future__ import annotations

import os
import random

from gamelib.chakra import Rules, new_game
from gamelib.chakra.bots import action_value, expected_plenitude, greedy_policy, random_policy
from gamelib.chakra.invariants import invariant_violations
from gamelib.simulate import seeds

LONG_TESTS = os.environ.get("GAMELIB_LONG_TESTS") == "1"
SWEEP_GAMES = int(os.environ.get("CHAKRA_GAMES", "500" if LONG_TESTS else "25"))  # per policy and player count


def play_checked(players, policy, seed, rules):
    """Play one game, checking §3 after every action; return the final state."""
    state = new_game(seed=seed, rules=rules, players=players)
    assert not invariant_violations(state)
    rng = random.Random(seed)
    while not state.is_terminal:
        action = policy(state, rng)
        previous, state = state, state.apply(action)
        problems = invariant_violations(state, previous)
        assert not problems, f"seed {seed}, after {action}: {problems}"
    assert state.turns == (state.turns[0],) * players  # equal turns (§11.2)
    assert state.winners and len(state.scores()) == players
    return state


def plain_greedy_policy(state, rng):
    """The greedy rule written plainly, the oracle of the bot's search: value every legal action with
    ``action_value`` (simulate the action, score the whole board), keep the best (ties within 1e-9, in
    the order of ``legal_actions``), choose among them with ``rng``. No search, pruning or tables."""
    player = state.current_player
    worth = expected_plenitude(state.known_plenitude(player))
    best, best_value = [], float("-inf")
    for action in state.legal_actions():
        value = action_value(state, player, action, worth)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return rng.choice(best)


def sample_positions(players, count, seed):
    """Positions from seeded games mixing greedy and random play (varied, mid-game boards)."""
    found = []
    for game_seed in seeds(seed, count):
        state = new_game(seed=game_seed, rules=Rules(max_rounds=25), players=players)
        rng = random.Random(game_seed)
        while not state.is_terminal:
            if rng.random() < 0.15:
                found.append(state)
            policy = greedy_policy if rng.random() < 0.6 else random_policy
            state = state.apply(policy(state, rng))
    return found


def played(seed=4, actions=25, players=3):
    """A game after ``actions`` actions chosen by a fixed stride through the legal list."""
    state = new_game(seed=seed, players=players)
    for i in range(actions):
        legal = state.legal_actions()
        state = state.apply(legal[(i * 7919) % len(legal)])
    return state
