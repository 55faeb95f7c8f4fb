"""Commentary helpers for the Pangu lessons: what each card costs now, and what the bots would do.

Everything here reads the engine (costs, recoveries, the lookahead's exact values); nothing
decides a rule.
"""

from __future__ import annotations

from gamelib import core
from gamelib.core import Match
from gamelib.pangu.actions import ONGOING, Action
from gamelib.pangu.bots import greedy_policy, lookahead_policy, lookahead_values
from gamelib.pangu.rules import State


def options(state: State) -> str:
    """One line per revealed card: its numbers, what each die costs, and the cheaper die."""
    lines = [f"Karma {state.karma}, dice blue {state.roll[0]} and white {state.roll[1]}:"]
    for card_id in state.revealed:
        card = state.cards[card_id]
        costs = []
        for die in ("BLUE", "WHITE"):
            cost = state.cost(card_id, die)
            number = card.number(die)
            costs.append(f"{die.lower()} {state.die_value(die)} vs {number}: "
                         + (f"pay {cost}" if cost is not None else "forbidden (equal)"))
        cheapest = state.cheapest_die(card_id)
        best = f"-> {cheapest[0].lower()} die, pay {cheapest[1]}" if cheapest else "-> blocked by this roll"
        lines.append(f"  {card_id} {card.name:<9} (B{card.blue} W{card.white}): {'; '.join(costs)} {best}")
    return "\n".join(lines)


def bots_view(state: State, yours: Action | None = None) -> str:
    """What greedy and lookahead would play, each with its exact expected Karma at the end of the turn."""
    values = dict(lookahead_values(state))
    lines = []
    if yours is not None:
        lines.append(f"You played      {yours}: expected Karma at the end of the turn {_number(values[yours])}")
    greedy, lookahead = greedy_policy(state), lookahead_policy(state)
    preview = state.preview(greedy)
    lines.append(f"Greedy plays    {greedy} (rec {preview['rec']} - cost {preview['cost']} = "
                 f"{preview['rec'] - preview['cost']:+d} now): expected {_number(values[greedy])}")
    lines.append(f"Lookahead plays {lookahead}: expected {_number(values[lookahead])} (the best possible)")
    return "\n".join(lines)


def review(match: Match) -> str:
    """Compare the first move a student made on a board's match with the bots' moves there."""
    start = match.states[0]
    if not match.actions:
        return "No move on the board above yet: click a card and a cell, then run this cell again.\n" + bots_view(start)
    return bots_view(start, match.actions[0])


def _number(value) -> str:
    return f"{float(value):.2f}" if value.denominator != 1 else str(value.numerator)


def follow(match: Match, line: list[Action]) -> str:
    """Play the next move of ``line`` on ``match`` (first undoing any moves that left the line)."""
    while match.actions != line[: match.index]:  # the student clicked off the line: go back to it
        match.undo()
    if match.index >= len(line) or match.state.status != ONGOING:
        return "The guided game is over."
    before = len(match.state.log)
    match.apply(line[match.index])
    return "\n".join(str(event) for event in match.state.log[before:])


def line_of(state: State, policy=lookahead_policy) -> list[Action]:
    """The moves ``policy`` plays from ``state`` to the end of the game."""
    actions: list[Action] = []
    core.play(state, policy, on_action=lambda _state, action: actions.append(action))
    return actions
