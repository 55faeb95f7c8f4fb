"""Checks for the Pangu lessons' richer exercises: a function the student completes, run against the engine.

Each check returns a :class:`~gamelib.exercises.Feedback` (text that is also True or False). A
wrong function gets one case where it differs from the engine, and a hint aimed at the mistake
when the answers match a common one (the forbidden equal die forgotten, the dearer die taken,
"at most" instead of "less than", 36 rolls instead of 35). Every case is checked, so a function
that is right on the examples but wrong elsewhere is still refused.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Callable, NamedTuple

from gamelib.core import CHANCE, sample_outcome
from gamelib.exercises import Feedback
from gamelib.pangu import odds, solver
from gamelib.pangu.actions import cheapest_die
from gamelib.pangu.bots import greedy_policy
from gamelib.pangu.cards import ROLLS
from gamelib.pangu.rules import new_game

NUMBER_PAIRS = [(blue, white) for blue, white in product(range(1, 7), repeat=2) if blue != white]
"""Every (blue number, white number) a card could print, the two numbers different as on every Pangu card."""

KARMA_VALUES = range(0, 9)


class _Numbers(NamedTuple):
    blue: int
    white: int


def engine_cheapest_cost(numbers, roll) -> int | None:
    """The engine's cost of the cheaper legal die, or None when the roll blocks the card."""
    choice = cheapest_die(_Numbers(*numbers), tuple(roll))
    return None if choice is None else choice[1]


def _call(function: Callable, *arguments):
    try:
        return function(*arguments), None
    except Exception as error:  # a student's function may fail in any way: report it, do not crash the check
        return None, f"{type(error).__name__}: {error}"


# --------------------------------------------------------------------------- lesson 01: the cost of a card


def _cost_mistake(numbers, roll, answer) -> str:
    blue, white = roll
    if answer is None:
        return (
            "the roll does not block this card: work out the cost of each die that may be used and return the smaller."
        )
    free = min(abs(blue - numbers[0]), abs(white - numbers[1]))
    dearer = max(
        abs(blue - numbers[0]) if blue != numbers[0] else -1, abs(white - numbers[1]) if white != numbers[1] else -1
    )
    if answer == free:
        return "a die equal to the card's number is forbidden: it cannot be used, so it never costs 0."
    if answer == dearer:
        return "the player pays with the cheaper legal die, not the dearer one."
    if engine_cheapest_cost(numbers, roll) is None:
        return "when both dice equal the card's numbers the card is blocked: return None."
    return "each die is compared with the number of its own colour: blue with blue, white with white."


def check_cheapest_cost(function: Callable) -> Feedback:
    """``function(numbers, roll)`` with numbers = (blue, white) of a card and roll = (blue die, white die)
    must return the cost of the cheaper legal die, or None when neither die may be used.
    Checked on all 30 number pairs and all 36 rolls (1,080 cases)."""
    for numbers, roll in product(NUMBER_PAIRS, ROLLS):
        expected = engine_cheapest_cost(numbers, roll)
        answer, error = _call(function, numbers, roll)
        if error:
            return Feedback(f"Not yet: for the card {numbers} and the roll {roll} your function raised {error}.", False)
        if answer != expected:
            return Feedback(
                f"Not yet: for a card with blue {numbers[0]}, white {numbers[1]} and the roll blue {roll[0]}, "
                f"white {roll[1]}, your function returns {answer!r}, which is not what the engine computes. "
                f"Hint: {_cost_mistake(numbers, roll, answer)}",
                False,
            )
    return Feedback(f"Right: your function agrees with the engine on all {len(NUMBER_PAIRS) * len(ROLLS)} cases.", True)


# --------------------------------------------------------------------------- lesson 03: the final card


def _final_chance_variants(numbers, karma) -> dict[str, Fraction]:
    """The answers the common mistakes give, to aim the hint."""
    unblocked = [cost for roll in ROLLS if (cost := engine_cheapest_cost(numbers, roll)) is not None]
    return {
        "cost ≤ Karma": Fraction(sum(cost <= karma for cost in unblocked), len(unblocked)),
        "out of 36": Fraction(sum(cost < karma for cost in unblocked), len(ROLLS)),
        "the dearer die": Fraction(sum(cost < karma for cost in _dearer_costs(numbers)), len(unblocked)),
    }


def _dearer_costs(numbers) -> list[int]:
    costs = []
    for blue, white in ROLLS:
        legal = [abs(blue - numbers[0])] * (blue != numbers[0]) + [abs(white - numbers[1])] * (white != numbers[1])
        if legal:
            costs.append(max(legal))
    return costs


_FINAL_HINTS = {
    "cost ≤ Karma": "paying down to exactly 0 Karma loses: the cost must be *less* than the Karma you hold.",
    "out of 36": "a roll that blocks the card is rerolled (the stuck rule), so only the 35 other rolls count.",
    "the dearer die": "you pay with the cheaper legal die.",
}


def check_final_card_chance(function: Callable) -> Feedback:
    """``function(numbers, karma)`` must return, as an exact Fraction, the chance that the final card
    with these (blue, white) numbers wins when you hold ``karma``. Checked on all 30 number pairs and
    Karma 0 to 8 (270 cases) against :func:`gamelib.pangu.odds.final_card_win_probability`."""
    for numbers, karma in product(NUMBER_PAIRS, KARMA_VALUES):
        expected = odds.final_card_win_probability(numbers, karma)
        answer, error = _call(function, numbers, karma)
        if error:
            return Feedback(f"Not yet: for the card {numbers} with Karma {karma} your function raised {error}.", False)
        if isinstance(answer, float):
            return Feedback(
                f"Not yet: your function returns the decimal {answer!r}; return an exact Fraction "
                "(count the rolls and divide with Fraction(wins, rolls)).",
                False,
            )
        if answer != expected:
            mistake = next(
                (name for name, value in _final_chance_variants(numbers, karma).items() if value == answer), None
            )
            hint = (
                _FINAL_HINTS[mistake]
                if mistake
                else "list the 36 rolls, keep those that do not block the card, and count."
            )
            return Feedback(
                f"Not yet: for a card with blue {numbers[0]}, white {numbers[1]} and Karma {karma}, your "
                f"function returns {answer}, which is not the engine's chance. Hint: {hint}",
                False,
            )
    return Feedback(
        f"Right: your function agrees with the engine on all {len(NUMBER_PAIRS) * len(KARMA_VALUES)} cases.", True
    )


# --------------------------------------------------------------------------- positions from turn 3 on


def late_positions(count: int, seed: int, first_turn: int = 3) -> list:
    """``count`` decision positions from turn ``first_turn`` on, from seeded games of random play
    (one position per game, at a move drawn at random), where the solver is exact in milliseconds."""
    rng, positions, game = random.Random(seed), [], 0
    while len(positions) < count:
        state, candidates = new_game(seed=seed * 1000 + game), []
        game += 1
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state = state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            if state.turn >= first_turn:
                candidates.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
        if candidates:
            positions.append(rng.choice(candidates))
    return positions


# --------------------------------------------------------------------------- lesson 02: the cost of a move


COST_POSITIONS, COST_SEED = 12, 202


def _cost_cases() -> list:
    """(position, action, action values) for the check: at each position the best move, the worst,
    greedy's and one more, so a function that is right only for the best move is still refused."""
    rng, cases = random.Random(COST_SEED), []
    for state in late_positions(COST_POSITIONS, COST_SEED):
        values = solver.action_values(state)
        ranked = sorted(values, key=lambda action: (values[action], str(action)))
        picks = [ranked[0], greedy_policy(state), rng.choice(ranked), ranked[-1]]
        cases.extend((state, action, values) for action in dict.fromkeys(picks))
    return sorted(cases, key=lambda case: not _telling(case[2], case[1]))


def _telling(values: dict, action) -> bool:
    """A move that costs something and keeps some chance, its cost unlike its value: checked first, so that
    each common mistake (always 0, the value, the sign) is caught, and named, on the first case."""
    best, mine = max(values.values()), values[action]
    return min(values.values()) < mine < best and mine != best - mine


def _cost_mistakes(values: dict, action) -> dict[str, Fraction]:
    best, worst, mine = max(values.values()), min(values.values()), values[action]
    return {"sign": mine - best, "value": mine, "points": 100 * (best - mine), "worst": mine - worst}


_COST_HINTS = {
    "sign": "the cost is how much the best move's chance exceeds yours: best minus yours, never negative.",
    "value": "that is the chance of winning after the move; its cost is how far it falls short of the best move's chance.",
    "points": "return the difference of the two chances as a Fraction (0.027 is 2.7 points), not in percentage points.",
    "worst": "compare with the best move's value (the max of the action values), not the worst.",
}


def check_cost_in_chance(function: Callable) -> Feedback:
    """``function(state, action)`` must return, as an exact Fraction, what playing ``action`` costs in
    chance of winning against the best move of ``state`` (the best move costs 0). Checked against
    :func:`gamelib.pangu.solver.action_values` on the best, the worst, greedy's and a random move
    of 12 positions from turn 3 on, drawn from seeded random games (41 moves)."""
    cases = _cost_cases()
    for state, action, values in cases:
        expected = max(values.values()) - values[action]
        answer, error = _call(function, state, action)
        where = f"turn {state.turn}, Karma {state.karma}, the move {action}"
        if error:
            return Feedback(f"Not yet: at {where} your function raised {error}.", False)
        if answer is None:
            return Feedback(
                f"Not yet: at {where} your function returns None. Hint: values = solver.action_values(state) "
                "gives every legal move's chance of winning; compare the move's with the best.",
                False,
            )
        if isinstance(answer, float):
            return Feedback(
                f"Not yet: your function returns the decimal {answer!r}; return the exact Fraction "
                "(subtract the two Fractions that action_values gives).",
                False,
            )
        if answer != expected:
            mistake = next((name for name, value in _cost_mistakes(values, action).items() if value == answer), None)
            hint = (
                _COST_HINTS[mistake]
                if mistake
                else (
                    "a move that is not the best costs something: look at max(values.values())."
                    if answer == 0
                    else "the cost is max(values.values()) minus the value of the move you were given."
                )
            )
            return Feedback(
                f"Not yet: at {where} your function returns {answer}, which is not the solver's cost of that move. "
                f"Hint: {hint}",
                False,
            )
    return Feedback(
        f"Right: your function agrees with the solver on all {len(cases)} moves of {COST_POSITIONS} positions.", True
    )


# --------------------------------------------------------------------------- lesson 04: a bot that beats greedy


BEAT_POSITIONS, BEAT_SEED, BEAT_TURN = 4, 404, 2


def beat_greedy_positions() -> list:
    """The check's positions: the first decision of turn 2 in seeded games that greedy played that far
    (from turn 3 on greedy and perfect play hardly differ; from turn 2 the exact evaluation still takes
    well under a second per position)."""
    positions, game = [], 0
    while len(positions) < BEAT_POSITIONS:
        rng = random.Random(BEAT_SEED * 1000 + game)
        state = new_game(seed=BEAT_SEED * 1000 + game)
        game += 1
        while not state.is_terminal and state.turn < BEAT_TURN:
            if state.current_player == CHANCE:
                state = state.apply(sample_outcome(state.chance_outcomes(), rng))
            else:
                state = state.apply(greedy_policy(state))
        if not state.is_terminal and state.current_player != CHANCE:
            positions.append(state)
    return positions


class _Watched:
    """The student's policy, wrapped to notice an illegal move or a dearer die before the solver does."""

    def __init__(self, policy: Callable):
        self.policy, self.problem, self.dearer = policy, None, False

    def __call__(self, state, rng=None):
        action = self.policy(state, rng)
        if action not in state.legal_actions():
            self.problem = (
                f"at turn {state.turn} your policy returned {action!r}, which is not one of state.legal_actions()"
            )
            raise ValueError(self.problem)
        if state.cost(action.card, action.die) != state.cheapest_die(action.card)[1]:
            self.dearer = True
        return action


@lru_cache(maxsize=1)
def _greedy_baseline() -> tuple[list, list[Fraction], Fraction]:
    """The positions, greedy's exact chance from each, and perfect play's mean (worked out once)."""
    positions = beat_greedy_positions()
    greedy = [solver.evaluate_policy(greedy_policy, state=state) for state in positions]
    return positions, greedy, sum(solver.win_probability(state) for state in positions) / len(positions)


def check_beats_greedy(policy: Callable) -> Feedback:
    """``policy(state, rng) -> Action`` must win more often than greedy from the start of turn 2 of
    4 seeded games, on average: each chance computed exactly by
    :func:`gamelib.pangu.solver.evaluate_policy` over every card and roll that follows, no luck."""
    watched = _Watched(policy)
    try:
        watched(beat_greedy_positions()[0])  # a first move, before the exact work: a blank or broken policy fails fast
        positions, greedy, best = _greedy_baseline()
        yours = [solver.evaluate_policy(watched, state=state) for state in positions]
    except Exception as error:  # a student's policy may fail in any way: report it
        if "ellipsis" in str(error):
            return Feedback(
                "Not yet: replace the ... with your score of the placement, e.g. a number made from "
                "after['karma'], after['cost'] and after['rec'].",
                False,
            )
        return Feedback(f"Not yet: {watched.problem or f'your policy raised {type(error).__name__}: {error}'}.", False)
    mean_yours, mean_greedy = sum(yours) / len(yours), sum(greedy) / len(greedy)
    measured = (
        f"your policy wins {float(mean_yours):.2%} of these positions on average, greedy "
        f"{float(mean_greedy):.2%} (perfect play {float(best):.2%})"
    )
    if mean_yours > mean_greedy:
        return Feedback(f"Right: {measured}, exactly, over every card and roll that follows.", True)
    if yours == greedy:
        hint = (
            "it wins exactly as often as greedy on every position, so it makes the same choices where they matter. "
            "At 10 of 10 many moves leave the same Karma: which card is best paid for while Karma is full?"
        )
    elif watched.dearer:
        hint = "it sometimes pays with the dearer die, which is never better (lesson 1): use state.cheapest_die(card)."
    else:
        hint = (
            "greedy scores rec - cost, but the cap wastes what goes above it: score the Karma the move leaves "
            "(after['karma']), and among moves that leave the same Karma, pay for the dear card while Karma is full."
        )
    return Feedback(f"Not yet: {measured}. Hint: {hint}", False)
