"""What a Pangu player sees: the observation (pangu.md#programmers) and the text board of ``str(state)``."""

from __future__ import annotations

from gamelib.pangu.actions import ONGOING, legal_cell_indices
from gamelib.pangu.cards import DICE, EDGES, LAYOUTS, YANG, YIN


def card_view(card) -> dict:
    return {
        "id": card.id,
        "name": card.name,
        "blue": card.blue,
        "white": card.white,
        "half": dict(zip(EDGES, card.half)),
    }


def observation(state, player: int = 0) -> dict:
    """What the (only) player may see, as JSON-ready data; never the deck order (pangu.md#programmers)."""
    layout = LAYOUTS[state.rules.grid]
    legal = set(legal_cell_indices(state.grid, layout)) if state.status == ONGOING else set()
    cells = []
    for index, entry in enumerate(state.grid):
        row, col = layout.cell_of[index]
        view = {"cell": [row, col], "ring": index in layout.ring, "legal": index in legal}
        if entry in (YIN, YANG):
            view.update(kind="centre", colour=entry, half=dict.fromkeys(EDGES, entry))
        elif entry is not None:
            card = state.cards[entry[0]]
            view.update(
                kind="card",
                card=card_view(card),
                orientation=entry[1],
                half={edge: card.colour(e, entry[1]) for e, edge in enumerate(EDGES)},
            )
        else:
            view.update(kind="empty")
        cells.append(view)
    revealed = []
    for card_id in state.revealed:
        view = card_view(state.cards[card_id])
        if state.roll is not None:
            view["costs"] = {die: state.cost(card_id, die) for die in DICE}
        revealed.append(view)
    return {
        "rules": state.rules.to_dict(),
        "rows": layout.geometry.rows,
        "cols": layout.geometry.cols,
        "cells": cells,
        "revealed": revealed,
        "dice": state.dice,
        "karma": state.karma,
        "starting_karma": state.rules.starting_karma,
        "status": state.status,
        "turn": state.turn,
        "deck_count": len(state.deck),
        "unseen": state.unseen_cards(),
        "waiting_for_chance": state.pending,
        "last_event": str(state.log[-1]) if state.log else "",
        "recent_events": [str(event) for event in state.events_since_last_action()],
    }


# --------------------------------------------------------------------------- text board

_SYMBOL = {YIN: "●", YANG: "○"}


def _cell_lines(state, index: int, legal: set[int]) -> list[str]:
    entry = state.grid[index]
    if entry is None:
        middle = "  legal  " if index in legal else "    ·    "
        return ["         ", middle, "         "]
    if entry in (YIN, YANG):
        s = _SYMBOL[entry]
        return [f"    {s}    ", f"{s} {entry.title():^5} {s}", f"    {s}    "]
    card = state.cards[entry[0]]
    top, right, bottom, left = (_SYMBOL[card.colour(e, entry[1])] for e in range(4))
    return [f"    {top}    ", f"{left}{card.id:>3} {card.blue}{card.white} {right}"[:9].ljust(9), f"    {bottom}    "]


def text_board(state) -> str:
    """The board as text: a header line, the grid of cards and centre cards, the revealed cards, the last event."""
    layout = LAYOUTS[state.rules.grid]
    rows, cols = layout.geometry.rows, layout.geometry.cols
    legal = set(legal_cell_indices(state.grid, layout)) if state.status == ONGOING else set()
    dice = f"blue {state.roll[0]}, white {state.roll[1]}" if state.roll else "not rolled"
    lines = [
        (
            f"Pangu · turn {state.turn} · Karma {state.karma}/{state.rules.starting_karma} · {state.status} · "
            f"dice {dice} · deck {len(state.deck)}"
        ),
        "    " + "".join(f"    c{c}     " for c in range(cols)),
    ]
    for r in range(rows):
        blocks = [_cell_lines(state, r * cols + c, legal) for c in range(cols)]
        for part in range(3):
            label = f"r{r}  " if part == 1 else "    "
            lines.append(label + "".join(f"[{block[part]}] " for block in blocks).rstrip())
    lines.append("Cards show id, blue then white number; ● Yin, ○ Yang half circles.")
    if state.revealed:
        lines.append(
            "Revealed: "
            + "; ".join(
                f"{c} {state.cards[c].name} (B{state.cards[c].blue} W{state.cards[c].white})" for c in state.revealed
            )
        )
    if state.log:
        lines.append(f"Last: {state.log[-1]}")
    return "\n".join(lines)
