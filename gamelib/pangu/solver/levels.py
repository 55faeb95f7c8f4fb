"""What the bots' exact evaluators share: one model's arrays and turn-start keys, the dense table of a
level, the supported rules and the late positions the tests start from (see docs/pangu_solver.md,
"A bot's value").

Each evaluator (``greedy``, ``lookahead``, ``random_bot``) is a turn-level dynamic programme over the
same keys ``(F, C, D)`` as the optimal builder, with the bot's own play in place of the maximum. Its
rows are whole numerators over Karma, in int64, over a fixed scale.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from gamelib.core import CHANCE
from gamelib.pangu.rules import Rules
from gamelib.pangu.solver.arrays import DenseIndex, dense_index, model_arrays, rank_table, slots_of
from gamelib.pangu.solver.exact import model_for, position_of
from gamelib.pangu.solver.kernels import final_card_rows
from gamelib.pangu.solver.model import Model
from gamelib.pangu.solver.space import turn_start_keys

LEVELS = (0, 3, 6, 9)  # cards placed at each turn start; 9 = the final card alone


class Arrays:
    """One model's arrays as the bots' kernels read them (``arrays``, an ``arrays.ModelArrays``), the dense index
    of the turn starts and the keys of each level."""

    def __init__(self, model: Model, keys: dict | None = None):
        self.model = model
        self.arrays = model_arrays(model)
        a = self.arrays
        self.n, self.cards, self.orients, self.karma = a.n, a.cards, a.orients, a.karma
        self.fc_index, self.fc_counts = dense_index(model, list(LEVELS))
        self.ranks = rank_table(self.n)
        self.keys = keys if keys is not None else turn_start_keys(model, self.arrays, LEVELS)

    def n_d(self, level: int) -> int:
        """How many unplaced sets D a level has (the width of a dense slot's last part)."""
        return comb(self.cards, self.cards - level)

    def index(self, level: int) -> DenseIndex:
        """The dense index of a turn-start level's keys, as the kernels take it."""
        return DenseIndex(self.fc_index, self.ranks, self.n_d(level), self.n)

    def final_rows(self, keys) -> np.ndarray:
        """The final card's rows at ``keys`` (scale 35), as the optimal builder's: every bot plays it alike."""
        return np.rint(final_card_rows(keys, self.arrays, False)).astype(np.int64)

    def table(self, level: int, keys, rows) -> np.ndarray:
        """The dense table of a level, indexed by ``kernels.dense_slot``."""
        index = self.index(level)
        table = np.zeros((self.fc_counts[level] * index.n_d, self.karma + 1), dtype=np.int64)
        table[:, 0] = -1  # Karma 0 is worth 0 in every row: -1 there marks a slot with no key
        slots = slots_of(keys, *index)
        table[slots] = rows
        table[slots, 0] = 0
        return table


def check_supported(rules: Rules, policy: str) -> None:
    """Refuse rules a bot's evaluator does not cover: a fresh roll per placement, paid rerolls, or a gain
    limit that depends on the turn's allowance (a second Karma-like dimension the step table lacks)."""
    if rules.roll_timing != "per_turn" or rules.cap_rule == "before_turn" or rules.stuck_rule != "reroll":
        raise ValueError(
            f"the exact {policy} evaluator does not cover {rules}: it needs roll_timing=per_turn, "
            "stuck_rule=reroll and a cap rule other than before_turn"
        )


def ordered_hands(left: int) -> int:
    """Ordered hands of three among ``left`` unseen cards (the revealed order breaks the bots' ties)."""
    return left * (left - 1) * (left - 2)


# --------------------------------------------------------------------------- single positions (the tests' entry points)


def all_keys(data: Arrays, level: int) -> np.ndarray:
    """Every turn-start key with ``level`` cards placed (any reachable F, any frontier colours, any unplaced set)."""
    n, cards = data.n, data.cards
    fcs = [
        (f, c)
        for f in range(1 << n)
        for c in range(1 << n)
        if bin(f).count("1") == level and data.fc_index[f << n | c] >= 0
    ]
    decks = [d for d in range(1 << cards) if bin(d).count("1") == cards - level]
    return np.array(sorted(f | c << 10 | d << 20 for f, c in fcs for d in decks), dtype=np.int64)


def late_arrays(state) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``state``'s rules and centre, with the final card's table over every turn-4 key."""
    return _late_arrays(model_for(state))


@lru_cache(maxsize=16)  # a model is a frozen dataclass, hashed and compared by value
def _late_arrays(model: Model) -> tuple[Arrays, np.ndarray]:
    data = Arrays(model, keys={})
    keys = all_keys(data, 9)
    data.keys = {9: keys}
    return data, data.table(9, keys, data.final_rows(keys))


def roll_index(roll) -> int:
    """The kernels' number 0..35 of a roll (blue, white)."""
    return (roll[0] - 1) * 6 + roll[1] - 1


def decision_arrays(state):
    """The model, its arrays and the compact position of a decision (for the bots' choice kernels)."""
    model = model_for(state)
    data = Arrays(model, keys={})
    filled, colours, _, _, roll, karma, _ = position_of(state)
    order = np.array([model.card_ids.index(card_id) for card_id in state.revealed], dtype=np.int64)
    return model, data, filled, colours, roll, karma, order


def action_of(state, model, roll, i: int, x: int, o: int):
    """The engine's action for a kernel's choice (revealed card i, ring cell x, orientation o)."""
    from gamelib.pangu.actions import cheapest_die
    from gamelib.pangu.bots import Action

    card = state.cards.by_id[state.revealed[i]]
    die, _ = cheapest_die(card, roll)
    return Action(card.id, die, model.ring[x], model.orientations[o])


def turn_three_value(state, policy, at_turn_start, after_roll) -> Fraction:
    """A bot's exact value at a turn-3 position, against the final card's table: a turn start by
    ``at_turn_start(data, table, key, karma)``, a rolled decision by ``after_roll(data, table, filled, colours,
    unseen, order, roll, karma)`` (the numba kernels), other chance nodes by the engine's outcomes, and the
    final card (its cell is forced) by the bot's own move."""
    if state.is_terminal:
        return Fraction(state.status == "WON")
    data, table = late_arrays(state)
    filled, colours, unseen, _, roll, karma, _ = position_of(state)
    placed = bin(filled).count("1")
    if placed == 6 and not state.revealed and state.roll is None:
        return at_turn_start(data, table, filled | colours << 10 | unseen << 20, karma)
    if state.revealed and state.roll is not None and placed < 9:
        order = np.array([data.model.card_ids.index(card_id) for card_id in state.revealed], dtype=np.int64)
        return after_roll(data, table, filled, colours, unseen, order, roll, karma)
    if state.current_player == CHANCE:
        return sum(
            (
                p * turn_three_value(state.apply(outcome), policy, at_turn_start, after_roll)
                for outcome, p in state.chance_outcomes()
            ),
            Fraction(0),
        )
    if placed == 9:
        return turn_three_value(state.apply(policy(state)), policy, at_turn_start, after_roll)
    raise ValueError(f"the exact value of {policy.__name__} here needs a position from turn 3 on")
