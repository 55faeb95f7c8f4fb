"""Pangu bots (pangu.md#measured), each ``policy(state, rng) -> Action``, and a tournament table for the lessons.

* :data:`random_policy`: uniform over the legal actions (the core's one copy).
* :func:`greedy_policy`: the cheapest legal die, maximising ``rec - cost`` of this placement,
  ties broken by the action order of pangu.md#programmers.
* :func:`lookahead_policy`: the best plan for the rest of the current turn (every order, cell
  and die), maximising the expected Karma at the end of the turn. Where the plan crosses a
  roll (a stuck reroll, or every placement under ``per_placement``) the expectation over the
  dice is exact (fractions). A lost game counts as Karma 0.

Games are played by :func:`gamelib.core.play` and :func:`gamelib.core.tournament`; :func:`tournament`
here only summarises the core's records into the win-rate and Karma table the lessons print.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from gamelib import core
from gamelib.core import random_policy, replace_fields
from gamelib.pangu import rules as pangu_rules
from gamelib.pangu.actions import (
    LOST,
    ONGOING,
    Action,
    best_recovery,
    cheapest_die,
    facing_colours,
    legal_cell_indices,
    search_chance,
    search_successor,
    settle_karma,
)
from gamelib.pangu.cards import LAYOUTS, ROLLS
from gamelib.pangu.rules import Rules, State
from gamelib.simulate import Estimate, mean, proportion

__all__ = [
    "random_policy",
    "greedy_policy",
    "lookahead_policy",
    "lookahead_values",
    "TurnPlanner",
    "tournament",
    "TournamentResult",
    "POLICIES",
]


# --------------------------------------------------------------------------- simple policies


def greedy_policy(state: State, rng=None) -> Action:
    """Cheapest legal die; best ``rec - cost`` now; the first such action in the order of pangu.md#programmers."""
    _require_decision(state)
    rules = state.rules
    flips = (0, 2) if rules.allow_rotation else (0,)  # orientation 180 shows the printed opposite edge
    layout = LAYOUTS[rules.grid]
    cells = [(index, facing_colours(state, index)) for index in legal_cell_indices(state.grid, layout)]
    by_id = state.cards.by_id
    best, best_score = None, None
    for card_id in state.revealed:
        card = by_id[card_id]
        choice = cheapest_die(card, state.roll)
        if choice is None:
            continue
        die, cost = choice
        half = card.half
        for index, facing in cells:
            for flip in flips:
                score = -cost
                for edge, colour, worth in facing:
                    if half[(edge + flip) % 4] == colour:
                        score += worth
                if best_score is None or score > best_score:
                    best, best_score = (card_id, die, index, 90 * flip), score
    card_id, die, index, orientation = best
    return Action(card_id, die, layout.cell_of[index], orientation)


def _require_decision(state: State) -> None:
    if state.status != ONGOING or state.pending:
        raise ValueError(
            f"there is no move to choose: the game is {state.status.lower()}"
            + (f" and waits for chance ({state.pending})" if state.pending else "")
        )


# --------------------------------------------------------------------------- one-turn lookahead


def leaf_value(state: State) -> int:
    """A plan's worth once the turn is over: Karma, with a lost game counted as 0."""
    return 0 if state.status == LOST else state.karma


def search_position(state: State) -> State:
    """The position a planner searches from: chance explicit, the deck order hidden, no log kept."""
    return replace_fields(state.with_explicit_chance(), log=())


def dominant_moves(state: State) -> list[tuple]:
    """``(card, die, cell index, orientation)`` of every legal action whose die is the card's cheaper one
    (the dominance of pangu.md#karma note), in the order of pangu.md#programmers."""
    orientations = (0, 180) if state.rules.allow_rotation else (0,)
    cells = legal_cell_indices(state.grid, LAYOUTS[state.rules.grid])
    by_id = state.cards.by_id
    moves = []
    for card_id in state.revealed:
        card = by_id[card_id]
        choice = cheapest_die(card, state.roll)
        if choice is not None:
            moves.extend((card, choice[0], index, o) for index in cells for o in orientations)
    return moves


def dominant_actions(state: State) -> list[Action]:
    """The legal actions with each card's cheaper legal die only (the dominance of pangu.md#karma note)."""
    cell_of = LAYOUTS[state.rules.grid].cell_of
    return [Action(card.id, die, cell_of[index], o) for card, die, index, o in dominant_moves(state)]


class TurnPlanner:
    """Exact expectimax over the rest of the current turn, memoised by position.

    The search runs on the engine's unvalidated fast path (:func:`~gamelib.pangu.actions.search_successor`).
    ``naive=True`` gives the brute-force oracle: every legal action (both dice) through the public,
    validated ``apply``, no memo, and every stuck reroll followed as a chance node up to
    ``stuck_depth`` times.
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
        """Each legal action with its exact expected end-of-turn value, in pangu.md#programmers order."""
        self._use_context(state)
        root = search_position(state)
        turn = state.turn
        return [(action, Fraction(self.value(root.apply(action), turn))) for action in state.legal_actions()]

    def best_action(self, state: State) -> Action:
        _require_decision(state)
        self._use_context(state)
        root = search_position(state)
        turn = state.turn
        best, best_value = None, None
        if self.naive:
            for action in state.legal_actions():
                value = self.value(root.apply(action), turn)
                if best_value is None or value > best_value:
                    best, best_value = action, value
            return best
        for move in dominant_moves(root):
            value = self.value(search_successor(root, *move), turn)
            if best_value is None or value > best_value:
                best, best_value = move, value
        card, die, index, orientation = best
        return Action(card.id, die, LAYOUTS[state.rules.grid].cell_of[index], orientation)

    def value(self, state: State, turn: int, stuck_left: int | None = None) -> Fraction | int:
        if state.status != ONGOING or state.pending == "draw" or state.turn != turn:
            return leaf_value(state)  # an int; roll nodes turn sums into exact Fractions
        if self.naive:
            if state.pending == "roll":
                return self._roll_value(state, turn, self.stuck_depth if stuck_left is None else stuck_left)
            return max(self.value(state.apply(action), turn) for action in state.legal_actions())
        key = (
            state.grid,
            frozenset(state.revealed),
            state.karma,
            state.turn_start_karma,
            state.gained_this_turn,
            state.roll,
            state.pending,
        )
        result = self.memo.get(key)
        if result is None:
            if state.pending == "roll":
                result = self._roll_value(state, turn, 0)
            elif len(state.revealed) == 1:
                result = self._last_card_value(state)
            else:
                result = max(self.value(search_successor(state, *move), turn) for move in dominant_moves(state))
            self.memo[key] = result
        return result

    @staticmethod
    def _last_card_value(state: State) -> int:
        """The turn's last card ends the turn, so the position is worth the Karma it leaves (0 if lost).
        The Karma grows with ``rec`` under every cap rule, so the best cell is one of highest ``rec``."""
        card = state.cards.by_id[state.revealed[0]]
        _, cost = cheapest_die(card, state.roll)  # the stuck rule leaves it a legal die
        cells = legal_cell_indices(state.grid, LAYOUTS[state.rules.grid])
        karma, _, placed = settle_karma(state, cost, best_recovery(state, card, cells))
        return karma if placed and karma > 0 else 0

    def _roll_value(self, state: State, turn: int, stuck_left: int) -> Fraction:
        """Exact expectation over the 36 rolls, with the stuck rule (pangu.md#placing, pangu.md#parameters)."""
        total, stuck_rolls = Fraction(0), []
        for roll in ROLLS:
            if _blocks_all(state, roll):
                stuck_rolls.append(roll)
            elif self.naive:
                total += self.value(state.apply(roll), turn)
            else:
                total += self.value(search_chance(state, roll), turn)
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
        after_stuck = search_chance(state, stuck_rolls[0])  # paid 1 Karma; a new roll node or a loss
        return (total + len(stuck_rolls) * self.value(after_stuck, turn)) / 36


def _blocks_all(state: State, roll: tuple[int, int]) -> bool:
    blue, white = roll
    by_id = state.cards.by_id
    return all(by_id[c].blue == blue and by_id[c].white == white for c in state.revealed)


_shared_planner = TurnPlanner()


def lookahead_policy(state: State, rng=None) -> Action:
    """The first move of the best plan for the rest of this turn (exact expectation over dice)."""
    if len(_shared_planner.memo) > 200_000:
        _shared_planner.memo.clear()
    return _shared_planner.best_action(state)


def lookahead_values(state: State) -> list[tuple[Action, Fraction]]:
    """Every legal action with its exact expected Karma at the end of this turn (lost = 0)."""
    return TurnPlanner().action_values(state)


# --------------------------------------------------------------------------- the lessons' tournament table


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


def tournament(
    policies: Mapping | None = None,
    rules: Rules | Mapping[str, Rules] | None = None,
    games: int = 1000,
    seed: int = 0,
    show_progress: bool = True,
) -> list[TournamentResult]:
    """Pangu's preset of :func:`gamelib.core.tournament`: each (policy, rule set) pair on the same deals.

    Args:
        policies: maps names to policies (default: random, greedy, lookahead).
        rules: one ``Rules`` or a mapping of names to ``Rules`` (default: the default rules).
        games: the number of DEALS, as everywhere in gamelib; Pangu has one seat, so one game per deal.
        seed: the master seed: every pair plays the same deals.
        show_progress: show a progress bar per pair.

    Returns:
        One :class:`TournamentResult` per pair, rule sets outermost, in the mappings' order.
    """
    policies = POLICIES if policies is None else policies
    if rules is None or isinstance(rules, Rules):
        rules = {"": rules or Rules()}
    results = []
    for rules_name, rule_set in rules.items():
        for name, policy in policies.items():
            records = core.tournament(
                pangu_rules,
                [policy],
                games,
                rules=rule_set,
                seed=seed,
                progress=show_progress,
                description=f"{name} {rules_name}".strip(),
            )
            results.append(_summarise(name, rule_set, records))
    return results


def _summarise(name: str, rules: Rules, records: list[core.GameRecord]) -> TournamentResult:
    wins = sum(bool(record.winners) for record in records)
    final_karma = [record.scores[0] for record in records]
    won_karma = [record.scores[0] for record in records if record.winners]
    return TournamentResult(
        name,
        rules,
        len(records),
        wins,
        proportion(wins, len(records)),
        Counter(final_karma),
        mean(won_karma) if won_karma else None,
    )
