"""Shared Pangu test data and drivers: the scripted games S1 and S2 of the rules page's examples (pangu.md#examples, T10 and T11), their
moves and Karma, and the two ways the tests play a game (a script of moves, a checked policy game)."""

from __future__ import annotations

import random

from gamelib.pangu import Action, Rules, new_game

# spec 11, T10: scripted game S1 (a win with waste and a stuck reroll)
S1_DECK = ["A6", "A3", "A5", "A1", "A2", "A10", "A8", "A9", "A4", "A7"]
S1_ROLLS = [(3, 5), (2, 2), (6, 1), (5, 3), (2, 3)]
S1_MOVES = [
    ("A6", "BLUE", (0, 1)),
    ("A3", "BLUE", (1, 0)),
    ("A5", "WHITE", (2, 1)),
    ("A1", "BLUE", (0, 0)),
    ("A2", "WHITE", (0, 2)),
    ("A10", "BLUE", (2, 0)),
    ("A9", "BLUE", (1, 3)),
    ("A4", "BLUE", (0, 3)),
    ("A8", "BLUE", (2, 2)),
    ("A7", "BLUE", (2, 3)),
]
S1_KARMA = [10, 10, 10, 10, 10, 9, 6, 7, 8, 9]  # spec 11, T10, column "karma"
S1 = dict(deck=S1_DECK, rolls=S1_ROLLS)  # the setup keywords of new_game

# spec 11, T11: scripted game S2 (a loss on exactly 0)
S2_DECK = ["A1", "A7", "A2", "A3", "A4", "A5", "A6", "A8", "A9", "A10"]
S2_ROLLS = [(6, 1), (4, 3), (1, 1)]
S2_MOVES = [("A1", "BLUE", (0, 1)), ("A7", "BLUE", (0, 2)), ("A2", "BLUE", (1, 0))]


def play_script(moves, deck=S1_DECK, rolls=S1_ROLLS, rules=None, **setup):
    """A scripted game (spec 8) after ``moves`` (``(card, die, cell[, orientation])``), stopping if it ends."""
    state = new_game(rules=rules, deck=deck, rolls=rolls, **setup)
    for move in moves:
        if state.is_terminal:
            break
        state = state.apply(Action(*move))
    return state


def play_checked(seed: int, rules: Rules, policy):
    """Play one seeded game, checking I1 and I2 of spec 10 before every decision; return the final state
    and the actions."""
    state = new_game(seed=seed, rules=rules)
    rng = random.Random(seed)
    actions = []
    ceiling = rules.starting_karma
    while not state.is_terminal:
        assert 1 <= state.karma <= ceiling, "I1"  # spec 10, I1
        legal = state.legal_actions()
        assert legal, "I2"  # spec 10, I2
        action = policy(state, rng)
        assert action in legal
        actions.append(action)
        state = state.apply(action)
    return state, actions
