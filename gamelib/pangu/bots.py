"""Pangu bots (spec 12), a seeded ``play`` driver and a tournament helper.

* :func:`random_policy`: uniform over the legal actions.
* :func:`greedy_policy`: the cheapest legal die, maximising ``rec - cost`` of this placement,
  ties broken by the action order of spec 8.
* :func:`lookahead_policy`: the best plan for the rest of the current turn (every order, cell
  and die), maximising the expected Karma at the end of the turn. Where the plan crosses a
  roll (a stuck reroll, or every placement under ``per_placement``) the expectation over the
  dice is exact (fractions). A lost game counts as Karma 0.

Every policy has the signature ``policy(state, rng) -> Action``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from gamelib import core
from gamelib.pangu.rules import (
    LAYOUTS,
    LOST,
    ROLLS,
    WON,
    Action,
    Rules,
    State,
    _legal_cell_indices,
    _recovery,
    new_game,
)
from gamelib.simulate import Estimate, mean, progress, proportion, seeds

Policy = Callable[[State, random.Random], Action]


# --------------------------------------------------------------------------- simple policies


def random_policy(state: State, rng: random.Random) -> Action:
    """Uniform over every legal action."""
    return rng.choice(state.legal_actions())


def greedy_policy(state: State, rng: random.Random | None = None) -> Action:
    """Cheapest legal die; best ``rec - cost`` now; the first such action in spec 8's order."""
    _require_decision(state)
    orientations = (0, 180) if state.rules.allow_rotation else (0,)
    layout = LAYOUTS[state.rules.grid]
    cells = _legal_cell_indices(state.grid, layout)  # engine internals: this runs millions of times
    best, best_score = None, None
    for card_id in state.revealed:
        choice = state.cheapest_die(card_id)
        if choice is None:
            continue
        die, cost = choice
        card = state.cards[card_id]
        for index in cells:
            for orientation in orientations:
                score = _recovery(state, card, index, orientation) - cost
                if best_score is None or score > best_score:
                    best, best_score = (card_id, die, index, orientation), score
    card_id, die, index, orientation = best
    return Action(card_id, die, layout.cell_of[index], orientation)


def _require_decision(state: State) -> None:
    if state.status != "ONGOING" or state.pending:
        raise ValueError(f"there is no move to choose: the game is {state.status.lower()}"
                         + (f" and waits for chance ({state.pending})" if state.pending else ""))


# --------------------------------------------------------------------------- one-turn lookahead


def leaf_value(state: State) -> int:
    """A plan's worth once the turn is over: Karma, with a lost game counted as 0."""
    return 0 if state.status == LOST else state.karma


def dominant_actions(state: State) -> list[Action]:
    """The legal actions with each card's cheaper legal die only (spec 7's dominance note)."""
    orientations = (0, 180) if state.rules.allow_rotation else (0,)
    cells = state.legal_cells()
    actions = []
    for card_id in state.revealed:
        choice = state.cheapest_die(card_id)
        if choice is not None:
            actions.extend(Action(card_id, choice[0], cell, o) for cell in cells for o in orientations)
    return actions


class TurnPlanner:
    """Exact expectimax over the rest of the current turn, memoised by position.

    ``naive=True`` gives the brute-force oracle: every legal action (both dice), no memo,
    and every stuck reroll followed as a chance node up to ``stuck_depth`` times.
    """

    def __init__(self, naive: bool = False, stuck_depth: int = 3):
        self.naive = naive
        self.stuck_depth = stuck_depth
        self.memo: dict = {}
        self._context = None  # the rules and deck the memo was built under

    def _use_context(self, state: State) -> None:
        context = (state.rules, state.cards)
        if context != self._context:
            self.memo.clear()
            self._context = context

    def action_values(self, state: State) -> list[tuple[Action, Fraction]]:
        """Each legal action with its exact expected end-of-turn value, in spec 8 order."""
        self._use_context(state)
        search_state = state.with_explicit_chance()
        turn = state.turn
        return [(action, Fraction(self.value(search_state.apply(action), turn))) for action in state.legal_actions()]

    def best_action(self, state: State) -> Action:
        _require_decision(state)
        self._use_context(state)
        search_state = state.with_explicit_chance()
        turn = state.turn
        candidates = state.legal_actions() if self.naive else dominant_actions(state)
        best, best_value = None, None
        for action in candidates:
            value = self.value(search_state.apply(action), turn)
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best

    def value(self, state: State, turn: int, stuck_left: int | None = None) -> Fraction | int:
        if state.status != "ONGOING" or state.pending == "draw" or state.turn != turn:
            return leaf_value(state)  # an int; roll nodes turn sums into exact Fractions
        key = None
        if not self.naive:
            key = (state.grid, frozenset(state.revealed), state.karma, state.turn_start_karma,
                   state.gained_this_turn, state.roll, state.pending)
            if key in self.memo:
                return self.memo[key]
        if state.pending == "roll":
            result = self._roll_value(state, turn, self.stuck_depth if stuck_left is None else stuck_left)
        elif self.naive:
            result = max(self.value(state.apply(action), turn) for action in state.legal_actions())
        else:
            result = max(self.value(state.apply(action), turn) for action in self._distinct_actions(state))
        if key is not None:
            self.memo[key] = result
        return result

    @staticmethod
    def _distinct_actions(state: State) -> list[Action]:
        """Dominant actions; for the turn's last card, one per recovery value (the turn ends there,
        so the position is worth only the Karma, which depends on the cell only through ``rec``)."""
        actions = dominant_actions(state)
        if len(state.revealed) != 1:
            return actions
        seen, distinct = set(), []
        for action in actions:
            rec = state.recovery(action.card, action.cell, action.orientation)
            if rec not in seen:
                seen.add(rec)
                distinct.append(action)
        return distinct

    def _roll_value(self, state: State, turn: int, stuck_left: int) -> Fraction:
        """Exact expectation over the 36 rolls, with the stuck rule (spec 6, 9)."""
        total, stuck_rolls = Fraction(0), []
        for roll in ROLLS:
            if _blocks_all(state, roll):
                stuck_rolls.append(roll)
            else:
                total += self.value(state.apply(roll), turn)
        if not stuck_rolls:
            return total / 36
        if self.naive:  # follow the reroll as a chance node, a bounded number of times
            if stuck_left == 0:
                return total / (36 - len(stuck_rolls))  # the tail, closed by the geometric series
            after_stuck = state.apply(stuck_rolls[0])
            return (total + len(stuck_rolls) * self.value(after_stuck, turn, stuck_left - 1)) / 36
        if state.rules.stuck_rule == "reroll":
            # V = total/36 + (stuck/36) V, since a free reroll leads back to this very position
            return total / (36 - len(stuck_rolls))
        after_stuck = state.apply(stuck_rolls[0])  # paid 1 Karma; a new roll node or a loss
        return (total + len(stuck_rolls) * self.value(after_stuck, turn)) / 36


def _blocks_all(state: State, roll: tuple[int, int]) -> bool:
    blue, white = roll
    return all(state.cards[c].blue == blue and state.cards[c].white == white for c in state.revealed)


_shared_planner = TurnPlanner()


def lookahead_policy(state: State, rng: random.Random | None = None) -> Action:
    """The first move of the best plan for the rest of this turn (exact expectation over dice)."""
    if len(_shared_planner.memo) > 200_000:
        _shared_planner.memo.clear()
    return _shared_planner.best_action(state)


def lookahead_values(state: State) -> list[tuple[Action, Fraction]]:
    """Every legal action with its exact expected Karma at the end of this turn (lost = 0)."""
    return TurnPlanner().action_values(state)


# --------------------------------------------------------------------------- playing many games


def play(policy: Policy, seed: int | None = None, rules: Rules | None = None, **game_options) -> State:
    """Play one seeded game with ``policy``; return the finished state (its log holds every event)."""
    if seed is None:
        seed = core.new_seed()
    state = new_game(seed=seed, rules=rules, **game_options)
    return core.play(state, policy, seed=seed)


POLICIES = {"random": random_policy, "greedy": greedy_policy, "lookahead": lookahead_policy}


@dataclass(frozen=True)
class TournamentResult:
    """The outcome of ``games`` seeded games of one policy under one rule set."""

    policy: str
    rules: Rules
    games: int
    wins: int
    win_rate: Estimate  # with its 95% Wilson interval
    final_karma: Counter  # final Karma -> number of games (negative values are losses)
    mean_karma_when_won: Estimate | None

    def __str__(self) -> str:
        return f"{self.policy} under {self.rules}: wins {self.win_rate.percent()}"


def tournament(policies: Mapping[str, Policy] | None = None, rules: Rules | Mapping[str, Rules] | None = None,
               games: int = 1000, seed: int = 0, show_progress: bool = True) -> list[TournamentResult]:
    """Play ``games`` seeded games for every (policy, rule set) pair; the same deals for all.

    ``policies`` maps names to policies (default: random, greedy, lookahead); ``rules`` is one
    ``Rules`` or a mapping of names to ``Rules`` (default: the default rules).
    """
    policies = POLICIES if policies is None else policies
    if rules is None or isinstance(rules, Rules):
        rules = {"": rules or Rules()}
    game_seeds = seeds(seed, games)
    results = []
    for rules_name, rule_set in rules.items():
        for name, policy in policies.items():
            label = f"{name} {rules_name}".strip()
            iterator = progress(game_seeds, games, label) if show_progress else game_seeds
            finals = [play(policy, game_seed, rule_set) for game_seed in iterator]
            results.append(_summarise(name, rule_set, finals))
    return results


def _summarise(name: str, rules: Rules, finals: list[State]) -> TournamentResult:
    wins = sum(state.status == WON for state in finals)
    won_karma = [state.karma for state in finals if state.status == WON]
    return TournamentResult(name, rules, len(finals), wins, proportion(wins, len(finals)),
                            Counter(state.karma for state in finals), mean(won_karma) if won_karma else None)
