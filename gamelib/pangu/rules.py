"""The Pangu rules engine: rule parameters, the immutable game state, and ``new_game``.

Everything follows the normative spec (``shared/rules/pangu.md``); section numbers in the
comments refer to it. The state is immutable: ``apply`` returns a new state and raises
:class:`gamelib.IllegalMove` with a readable reason (leaving the old state as it was).

Chance (spec 4, 5, 8): by default the game resolves its own chance from its seed: one
shuffle at setup (and the centre configuration first when it is ``RANDOM``), and every
roll of the dice, each from ``chance_rng(seed, draw_number)``. A scripted game takes the
deck order and the rolls from lists. With ``explicit_chance=True`` the game stops at each
chance node instead: the centre configuration, each card drawn from the unseen cards, and
each roll are then outcomes of ``chance_outcomes()``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from fractions import Fraction
from typing import Any, NamedTuple

from gamelib.core import (
    CHANCE,
    TERMINAL,
    CorruptSave,
    IllegalMove,
    chance_rng,
    load_json,
    new_seed,
)
from gamelib.pangu.cards import DICE, EDGES, Deck, load_deck, teaching_deck

ONGOING, WON, LOST = "ONGOING", "WON", "LOST"
YIN, YANG = "YIN", "YANG"
SAVE_FORMAT = "gamelib.pangu/1"

# --------------------------------------------------------------------------- rules (spec 9)

CHOICES = {
    "roll_timing": ("per_turn", "per_placement"),
    "cap_rule": ("start_value", "before_placement", "before_turn"),
    "defeat_check": ("after_payment", "after_recovery"),
    "centre_config": ("YIN_LEFT", "YANG_LEFT", "RANDOM"),
    "stuck_rule": ("reroll", "reroll_penalty_1"),
    "grid": ("3x4", "4x3"),
}
SWITCHES = ("allow_rotation", "centre_match_counts_as_circle")


@dataclass(frozen=True)
class Rules:
    """Every rule parameter of spec section 9; the defaults are the spec's defaults."""

    roll_timing: str = "per_turn"
    cap_rule: str = "start_value"
    defeat_check: str = "after_payment"
    allow_rotation: bool = False
    centre_config: str = "YIN_LEFT"
    stuck_rule: str = "reroll"
    centre_match_counts_as_circle: bool = False
    starting_karma: int = 10
    grid: str = "3x4"

    def __post_init__(self):
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
        for name in SWITCHES:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        karma = self.starting_karma
        if type(karma) is not int or karma < 1:
            raise ValueError(f"starting_karma must be a whole number of at least 1, not {karma!r}")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rules from a dict such as ``to_dict()`` gives; unknown names are an error."""
        if not isinstance(data, dict):
            raise ValueError(f"rules should be a dict of parameters, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule parameter(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)

    def changes(self) -> dict:
        """The parameters that differ from the defaults."""
        default = Rules()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)}

    def __str__(self) -> str:
        changed = self.changes()
        if not changed:
            return "default rules"
        return ", ".join(f"{name}={value}" for name, value in changed.items())


SINGLE_VARIANTS = {
    "defaults": Rules(),
    "per_placement": Rules(roll_timing="per_placement"),
    "before_placement": Rules(cap_rule="before_placement"),
    "before_turn": Rules(cap_rule="before_turn"),
    "after_recovery": Rules(defeat_check="after_recovery"),
    "rotation": Rules(allow_rotation=True),
    "YANG_LEFT": Rules(centre_config="YANG_LEFT"),
    "RANDOM_centre": Rules(centre_config="RANDOM"),
    "reroll_penalty_1": Rules(stuck_rule="reroll_penalty_1"),
    "centre_match_2": Rules(centre_match_counts_as_circle=True),
    "4x3": Rules(grid="4x3"),
}
"""The defaults and each one-parameter variant of spec 9, by a short name (spec 12's list)."""


# --------------------------------------------------------------------------- geometry (spec 2)


@dataclass(frozen=True)
class Geometry:
    """A layout shape: cells are ``(row, col)``; internally a cell is ``row * cols + col``."""

    name: str
    rows: int
    cols: int
    centre_cells: tuple[tuple[int, int], tuple[int, int]]  # the first (left or upper) one first

    @property
    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    @property
    def ring(self) -> list[tuple[int, int]]:
        """The ring cells in row-major order."""
        return [cell for cell in self.cells if cell not in self.centre_cells]

    def index(self, cell: tuple[int, int]) -> int:
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def neighbours(self, cell: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
        """``(edge of cell, neighbour cell)`` for every cell sharing a full edge with ``cell``."""
        r, c = cell
        steps = ((0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1))  # TOP, RIGHT, BOTTOM, LEFT
        return [(edge, (r + dr, c + dc)) for edge, dr, dc in steps
                if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols]


GEOMETRIES = {
    "3x4": Geometry("3x4", 3, 4, ((1, 1), (1, 2))),
    "4x3": Geometry("4x3", 4, 3, ((1, 1), (2, 1))),
}


class _Layout:
    """Precomputed index tables of a geometry, for speed (built once per grid name)."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self.size = geometry.rows * geometry.cols
        self.centre = tuple(geometry.index(cell) for cell in geometry.centre_cells)
        self.ring = tuple(geometry.index(cell) for cell in geometry.ring)
        self.cell_of = tuple(geometry.cell(i) for i in range(self.size))
        self.neighbours = tuple(
            tuple((edge, geometry.index(other)) for edge, other in geometry.neighbours(geometry.cell(i)))
            for i in range(self.size))


LAYOUTS = {name: _Layout(geometry) for name, geometry in GEOMETRIES.items()}


def turn_sizes(cards: int) -> list[int]:
    """How many cards each turn reveals from a deck of ``cards`` (spec 5: 10 -> 3, 3, 3, 1)."""
    sizes = []
    while cards > 0:
        size = min(3, cards - 1) if cards > 1 else 1
        sizes.append(size)
        cards -= size
    return sizes


# --------------------------------------------------------------------------- actions and events


class Action(NamedTuple):
    """Place ``card`` using ``die`` ("BLUE"/"WHITE") on ``cell`` = (row, col), turned 0 or 180 degrees."""

    card: str
    die: str
    cell: tuple[int, int]
    orientation: int = 0

    def __str__(self) -> str:
        turned = " turned 180°" if self.orientation == 180 else ""
        return f"{self.card} with the {self.die.lower()} die to ({self.cell[0]},{self.cell[1]}){turned}"


class Setup(NamedTuple):
    rules: dict
    centre: str  # YIN_LEFT or YANG_LEFT (RANDOM is resolved before this event)
    deck: str
    kind = "setup"

    def __str__(self) -> str:
        side = "Yin" if self.centre == "YIN_LEFT" else "Yang"
        return f"New game ({Rules.from_dict(self.rules)}): {side} centre card first, deck '{self.deck}'"


class TurnStart(NamedTuple):
    turn: int
    revealed: tuple[str, ...]
    deck_left: int
    kind = "turn_start"

    def __str__(self) -> str:
        return f"Turn {self.turn}: revealed {', '.join(self.revealed)} ({self.deck_left} left in the deck)"


class Roll(NamedTuple):
    blue: int
    white: int
    reason: str  # "turn", "placement" or "stuck"
    kind = "roll"

    def __str__(self) -> str:
        if self.reason == "stuck":
            return f"Rerolled blue {self.blue}, white {self.white}: no revealed card could use the previous roll"
        why = "for the turn" if self.reason == "turn" else "before this placement"
        return f"Rolled blue {self.blue}, white {self.white} {why}"


class StuckPenalty(NamedTuple):
    karma: int  # after paying
    kind = "stuck_penalty"

    def __str__(self) -> str:
        return f"Paid 1 Karma for the stuck reroll: Karma {self.karma}"


class Placement(NamedTuple):
    card: str
    die: str
    cell: tuple[int, int]
    orientation: int
    cost: int
    rec: int
    gain: int
    wasted: int
    karma: int  # after the placement
    placed: bool  # False when paying the cost lost the game (spec 7, step 2)
    kind = "placement"

    def __str__(self) -> str:
        where = f"{self.card} with the {self.die.lower()} die to ({self.cell[0]},{self.cell[1]})"
        if self.orientation == 180:
            where += " turned 180°"
        if not self.placed:
            return f"{where}: paid {self.cost}, Karma {self.karma}: out of Karma, the card is not placed"
        text = f"{where}: paid {self.cost}, recovered {self.gain}"
        if self.wasted:
            text += f" ({self.wasted} of {self.rec} wasted by the cap)"
        return f"{text}, Karma {self.karma}"


class GameEnd(NamedTuple):
    status: str
    karma: int
    kind = "game_end"

    def __str__(self) -> str:
        return f"Game won with Karma {self.karma}" if self.status == WON else f"Game lost: Karma {self.karma}"


EVENT_TYPES = {cls.kind: cls for cls in (Setup, TurnStart, Roll, StuckPenalty, Placement, GameEnd)}


def event_to_dict(event) -> dict:
    data = {"kind": event.kind, **event._asdict()}
    if "cell" in data:
        data["cell"] = list(data["cell"])
    if "revealed" in data:
        data["revealed"] = list(data["revealed"])
    return data


def event_from_dict(data: Any):
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise CorruptSave(f"the log holds an unknown event {data!r}")
    cls = EVENT_TYPES[data["kind"]]
    values = {key: value for key, value in data.items() if key != "kind"}
    if set(values) != set(cls._fields):
        raise CorruptSave(f"a '{data['kind']}' event in the log should have {', '.join(cls._fields)}")
    if "cell" in values:
        values["cell"] = _as_cell(values["cell"], "a logged cell")
    if "revealed" in values:
        values["revealed"] = tuple(values["revealed"])
    return cls(**values)


def _as_cell(value: Any, what: str) -> tuple[int, int]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(type(x) is int for x in value)):
        raise CorruptSave(f"{what} should be a [row, column] pair, not {value!r}")
    return (value[0], value[1])


class ScriptExhausted(IllegalMove):
    """A scripted game needed a roll after its list of rolls ran out (spec 8)."""


# --------------------------------------------------------------------------- state

ROLLS = tuple((blue, white) for blue in range(1, 7) for white in range(1, 7))


@dataclass(frozen=True)
class State:
    """One moment of a Pangu game. Immutable: ``apply`` returns a new state.

    ``grid`` has one entry per cell, row-major: ``None`` (empty), ``"YIN"``/``"YANG"``
    (a centre card) or ``(card_id, orientation)``. Use :meth:`card_at` or ``str(state)``
    rather than indexing it by hand.
    """

    rules: Rules
    cards: Deck
    centre: str | None  # "YIN_LEFT"/"YANG_LEFT"; None until a RANDOM configuration is drawn
    grid: tuple
    deck: tuple[str, ...]  # cards not yet revealed; top first when deck_order_fixed
    revealed: tuple[str, ...]
    roll: tuple[int, int] | None  # (blue, white)
    karma: int
    status: str
    turn: int
    turn_start_karma: int
    gained_this_turn: int
    to_reveal: int  # cards still to draw for the turn being set up
    roll_reason: str  # reason of the next roll to make when roll is None
    pending: str | None  # "centre", "draw" or "roll": the chance node an explicit-chance game waits at
    seed: int | str | None
    draws: int  # chance events already drawn from the seed
    deck_order_fixed: bool
    rolls_script: tuple[tuple[int, int], ...] | None
    explicit_chance: bool
    log: tuple

    # ----------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        if self.status != ONGOING:
            return TERMINAL
        return CHANCE if self.pending else 0

    @property
    def is_terminal(self) -> bool:
        return self.status != ONGOING

    @property
    def winner(self) -> int | None:
        return 0 if self.status == WON else None

    def returns(self) -> list[float]:
        """``[1.0]`` for a won game, ``[0.0]`` otherwise (so a mean of returns is a win rate)."""
        return [1.0 if self.status == WON else 0.0]

    @property
    def geometry(self) -> Geometry:
        return GEOMETRIES[self.rules.grid]

    @property
    def dice(self) -> dict | None:
        """The current roll as ``{"BLUE": b, "WHITE": w}`` (None while no roll is showing)."""
        return None if self.roll is None else {"BLUE": self.roll[0], "WHITE": self.roll[1]}

    def die_value(self, die: str) -> int:
        return self.roll[0] if die == "BLUE" else self.roll[1]

    def copy(self) -> State:
        """An independent copy (states are immutable, so this is for search code's clarity)."""
        return replace(self)

    def with_explicit_chance(self) -> State:
        """The same position, stopping at every chance node, with the deck order hidden.

        Search code uses it to enumerate dice and draws (it forgets the shuffle and any
        scripted rolls, so a bot cannot peek at the future).
        """
        unseen = tuple(card_id for card_id in self.cards.ids if card_id in self.deck)
        return replace(self, deck=unseen, deck_order_fixed=False, rolls_script=None, explicit_chance=True)

    # ----------------------------------------------------------------- reading
    def card_at(self, cell: tuple[int, int]):
        """``(AgeCard, orientation)`` on ``cell``, the centre colour string, or None when empty."""
        entry = self.grid[self._index(cell)]
        if isinstance(entry, tuple):
            return self.cards[entry[0]], entry[1]
        return entry

    def placed_cards(self) -> dict:
        """``{cell: (AgeCard, orientation)}`` for every placed Ages card."""
        layout = LAYOUTS[self.rules.grid]
        return {layout.cell_of[i]: (self.cards[e[0]], e[1]) for i, e in enumerate(self.grid) if isinstance(e, tuple)}

    @property
    def centre_cells(self) -> dict:
        """``{cell: "YIN" or "YANG"}`` for the two centre cards (empty while not drawn)."""
        layout = LAYOUTS[self.rules.grid]
        return {layout.cell_of[i]: self.grid[i] for i in layout.centre if self.grid[i] is not None}

    @property
    def deck_count(self) -> int:
        return len(self.deck)

    def unseen_cards(self) -> list[str]:
        """Cards still in the deck, in the deck file's order (never the shuffled order)."""
        return [card_id for card_id in self.cards.ids if card_id in self.deck]

    def debug_deck_order(self) -> tuple[str, ...] | None:
        """Debug only: the hidden deck order, top first (None when it is not fixed yet)."""
        return self.deck if self.deck_order_fixed else None

    @property
    def last_event(self):
        return self.log[-1] if self.log else None

    def events_since_last_action(self) -> list:
        """The last placement and everything it caused (new turn, rolls...), for a board's message."""
        for position in range(len(self.log) - 1, -1, -1):
            if self.log[position].kind == "placement":
                return list(self.log[position:])
        return list(self.log)

    def placements(self) -> list[Placement]:
        return [event for event in self.log if event.kind == "placement"]

    # ----------------------------------------------------------------- rules helpers
    def cost(self, card_id: str, die: str) -> int | None:
        """Karma the die costs for the card with the current roll, or None if the die is illegal."""
        card = self.cards[card_id]
        value = self.roll[0] if die == "BLUE" else self.roll[1]
        number = card.blue if die == "BLUE" else card.white
        return abs(value - number) if value != number else None

    def cheapest_die(self, card_id: str) -> tuple[str, int] | None:
        """``(die, cost)`` of the cheaper legal die (BLUE on a tie), or None if the roll blocks the card."""
        card = self.cards[card_id]
        blue, white = self.roll
        best = None
        if blue != card.blue:
            best = ("BLUE", abs(blue - card.blue))
        if white != card.white and (best is None or abs(white - card.white) < best[1]):
            best = ("WHITE", abs(white - card.white))
        return best

    def legal_cells(self) -> list[tuple[int, int]]:
        """Empty ring cells sharing an edge with a centre card or a placed card (row-major)."""
        layout = LAYOUTS[self.rules.grid]
        return [layout.cell_of[i] for i in _legal_cell_indices(self.grid, layout)]

    def recovery(self, card_id: str, cell: tuple[int, int], orientation: int = 0) -> int:
        """``rec`` of placing the card on the cell (spec 7 step 4, with the centre-match variant)."""
        return _recovery(self, self.cards[card_id], self._index(cell), orientation)

    def preview(self, action: Action) -> dict:
        """What applying a legal action would do: cost, rec, gain, wasted, karma after, status."""
        after = self.apply(action)
        event = next(e for e in reversed(after.log) if e.kind == "placement")
        return {"cost": event.cost, "rec": event.rec, "gain": event.gain, "wasted": event.wasted,
                "karma": event.karma, "placed": event.placed, "status": after.status}

    def _index(self, cell) -> int:
        layout = LAYOUTS[self.rules.grid]
        return layout.geometry.index(cell)

    # ----------------------------------------------------------------- legal actions (spec 6, 8)
    def legal_actions(self) -> list[Action]:
        """Every legal placement: revealed order, BLUE before WHITE, cells row-major, 0 before 180."""
        if self.status != ONGOING or self.pending:
            return []
        layout = LAYOUTS[self.rules.grid]
        cells = [layout.cell_of[i] for i in _legal_cell_indices(self.grid, layout)]
        orientations = (0, 180) if self.rules.allow_rotation else (0,)
        blue, white = self.roll
        actions = []
        for card_id in self.revealed:
            card = self.cards[card_id]
            for die, value, number in (("BLUE", blue, card.blue), ("WHITE", white, card.white)):
                if value != number:
                    actions.extend(Action(card_id, die, cell, o) for cell in cells for o in orientations)
        return actions

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """The exact outcomes of the chance node the game waits at (empty at a decision)."""
        if self.status != ONGOING or not self.pending:
            return []
        if self.pending == "centre":
            return [("YIN_LEFT", Fraction(1, 2)), ("YANG_LEFT", Fraction(1, 2))]
        if self.pending == "draw":
            unseen = self.unseen_cards()
            return [(card_id, Fraction(1, len(unseen))) for card_id in unseen]
        return [(roll, Fraction(1, 36)) for roll in ROLLS]

    # ----------------------------------------------------------------- applying (spec 7)
    def apply(self, action) -> State:
        """The state after ``action`` (a placement, or a chance outcome at a chance node)."""
        if self.status != ONGOING:
            raise IllegalMove(f"the game is over ({self.status}): no more moves", action)
        if self.pending:
            return self._apply_chance(action)
        card, die, cell_index, orientation = self._check(action)
        draft = _Draft(self)
        draft.place(card, die, cell_index, orientation)
        draft.advance()
        return draft.freeze()

    def _check(self, action):
        """Validate a placement; return ``(card, die, cell index, orientation)`` or raise IllegalMove."""
        if not isinstance(action, tuple) or len(action) not in (3, 4):
            raise IllegalMove(f"an action is Action(card, die, cell, orientation), not {action!r}", action)
        card_id, die, cell = action[0], action[1], action[2]
        orientation = action[3] if len(action) == 4 else 0
        if card_id not in self.revealed:
            raise IllegalMove(self._why_not_revealed(card_id), action)
        card = self.cards[card_id]
        if die not in DICE:
            raise IllegalMove(f"the die must be BLUE or WHITE, not {die!r}", action)
        value, number = self.die_value(die), card.number(die)
        if value == number:
            colour = die.lower()
            raise IllegalMove(f"{colour} die {value} equals {card_id}'s {colour} {number}: the die must differ", action)
        index = self._check_cell(cell, action)
        if type(orientation) is not int or orientation not in (0, 180):  # not False, 0.0 or "0"
            raise IllegalMove(f"orientation must be 0 or 180 (degrees), not {orientation!r}", action)
        if orientation == 180 and not self.rules.allow_rotation:
            raise IllegalMove("cards may not be turned 180° under these rules (allow_rotation is off): use orientation 0",
                              action)
        return card, die, index, orientation

    def _why_not_revealed(self, card_id) -> str:
        choices = ", ".join(self.revealed)
        if card_id not in self.cards:
            return f"there is no card {card_id!r} in this deck: choose one of the revealed cards {choices}"
        if card_id in self.deck:
            return f"{card_id} has not been revealed yet: choose one of the revealed cards {choices}"
        return f"{card_id} is already on the board: choose one of the revealed cards {choices}"

    def _check_cell(self, cell, action) -> int:
        geometry = self.geometry
        if (not isinstance(cell, (tuple, list)) or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
            raise IllegalMove(f"a cell is a (row, column) pair such as (0, 1), not {cell!r}", action)
        row, col = cell
        if not (0 <= row < geometry.rows and 0 <= col < geometry.cols):
            raise IllegalMove(f"({row},{col}) is outside the {geometry.rows}×{geometry.cols} layout: rows run 0 to "
                              f"{geometry.rows - 1} and columns 0 to {geometry.cols - 1}", action)
        index = geometry.index((row, col))
        entry = self.grid[index]
        if entry in (YIN, YANG):
            raise IllegalMove(f"({row},{col}) holds the {entry.title()} centre card", action)
        if entry is not None:
            raise IllegalMove(f"({row},{col}) already holds {entry[0]}: choose an empty cell", action)
        grid = self.grid
        if not any(grid[other] is not None for _, other in LAYOUTS[self.rules.grid].neighbours[index]):
            raise IllegalMove(f"({row},{col}) does not touch the centre or a placed card: a card must share a "
                              f"full edge with one (diagonals do not count)", action)
        return index

    def _apply_chance(self, outcome) -> State:
        if outcome not in [choice for choice, _ in self.chance_outcomes()]:
            what = {"centre": "a centre configuration (YIN_LEFT or YANG_LEFT)",
                    "draw": f"an unseen card ({', '.join(self.unseen_cards())})",
                    "roll": "a roll (blue, white) with both dice from 1 to 6"}[self.pending]
            raise IllegalMove(f"the game waits for chance: expected {what}, not {outcome!r}", outcome)
        draft = _Draft(self)
        draft.resolve(self.pending, outcome)
        draft.advance()
        return draft.freeze()

    # ----------------------------------------------------------------- views
    def observation(self, player: int = 0) -> dict:
        """What the player may see (spec 8), as JSON-ready data; never the deck order."""
        layout = LAYOUTS[self.rules.grid]
        legal = set(_legal_cell_indices(self.grid, layout)) if self.status == ONGOING else set()
        cells = []
        for index, entry in enumerate(self.grid):
            row, col = layout.cell_of[index]
            view = {"cell": [row, col], "ring": index in layout.ring, "legal": index in legal}
            if entry in (YIN, YANG):
                view.update(kind="centre", colour=entry, half=dict.fromkeys(EDGES, entry))
            elif entry is not None:
                card = self.cards[entry[0]]
                view.update(kind="card", card=_card_view(card), orientation=entry[1],
                            half={edge: card.colour(e, entry[1]) for e, edge in enumerate(EDGES)})
            else:
                view.update(kind="empty")
            cells.append(view)
        revealed = []
        for card_id in self.revealed:
            view = _card_view(self.cards[card_id])
            if self.roll is not None:
                view["costs"] = {die: self.cost(card_id, die) for die in DICE}
            revealed.append(view)
        return {
            "rules": self.rules.to_dict(),
            "rows": layout.geometry.rows, "cols": layout.geometry.cols,
            "cells": cells,
            "revealed": revealed,
            "dice": self.dice,
            "karma": self.karma, "starting_karma": self.rules.starting_karma,
            "status": self.status, "turn": self.turn,
            "deck_count": len(self.deck),
            "unseen": self.unseen_cards(),
            "waiting_for_chance": self.pending,
            "last_event": str(self.log[-1]) if self.log else "",
            "recent_events": [str(event) for event in self.events_since_last_action()],
        }

    def __str__(self) -> str:
        return _render(self)

    # ----------------------------------------------------------------- saving
    def to_json(self) -> str:
        """A JSON save of the whole state (including the hidden deck order: it is a save file)."""
        return json.dumps({
            "format": SAVE_FORMAT,
            "rules": self.rules.to_dict(),
            "cards": self.cards.to_dict(),
            "centre": self.centre,
            "grid": [list(entry) if isinstance(entry, tuple) else entry for entry in self.grid],
            "deck": list(self.deck),
            "revealed": list(self.revealed),
            "roll": list(self.roll) if self.roll else None,
            "karma": self.karma,
            "status": self.status,
            "turn": self.turn,
            "turn_start_karma": self.turn_start_karma,
            "gained_this_turn": self.gained_this_turn,
            "to_reveal": self.to_reveal,
            "roll_reason": self.roll_reason,
            "pending": self.pending,
            "seed": self.seed,
            "draws": self.draws,
            "deck_order_fixed": self.deck_order_fixed,
            "rolls_script": [list(r) for r in self.rolls_script] if self.rolls_script is not None else None,
            "explicit_chance": self.explicit_chance,
            "log": [event_to_dict(event) for event in self.log],
        })

    @classmethod
    def from_json(cls, text) -> State:
        """Read a save; any damage or hand edit raises :class:`gamelib.CorruptSave` saying what is wrong."""
        from gamelib.pangu.saves import state_from_save

        return state_from_save(load_json(text, "Pangu save"))


def _card_view(card) -> dict:
    return {"id": card.id, "name": card.name, "blue": card.blue, "white": card.white,
            "half": dict(zip(EDGES, card.half))}


# --------------------------------------------------------------------------- fast internals


def _legal_cell_indices(grid: tuple, layout: _Layout) -> list[int]:
    neighbours = layout.neighbours
    return [i for i in layout.ring
            if grid[i] is None and any(grid[j] is not None for _, j in neighbours[i])]


def _recovery(state: State, card, index: int, orientation: int) -> int:
    grid = state.grid
    centre_worth = 2 if state.rules.centre_match_counts_as_circle else 1
    half = card.half
    flip = 2 if orientation == 180 else 0
    rec = 0
    for edge, other in LAYOUTS[state.rules.grid].neighbours[index]:
        entry = grid[other]
        if entry is None:
            continue
        mine = half[(edge + flip) % 4]
        if isinstance(entry, str):  # a centre card: its colour on every edge
            if mine == entry:
                rec += centre_worth
        else:
            neighbour = state.cards[entry[0]]
            theirs = neighbour.half[(edge + 2 + (2 if entry[1] == 180 else 0)) % 4]
            if mine == theirs:
                rec += 1
    return rec


class _Draft:
    """A mutable working copy used inside ``apply``; frozen into a new State at the end."""

    def __init__(self, state: State):
        self.__dict__.update(state.__dict__)
        self.grid = list(state.grid)
        self.log = list(state.log)

    def freeze(self) -> State:
        values = dict(self.__dict__)
        values["grid"] = tuple(self.grid)
        values["log"] = tuple(self.log)
        return State(**values)

    # one placement, spec 7
    def place(self, card, die: str, index: int, orientation: int) -> None:
        rules = self.rules
        value = self.roll[0] if die == "BLUE" else self.roll[1]
        cost = abs(value - card.number(die))
        karma_paid = self.karma - cost
        cell = LAYOUTS[rules.grid].cell_of[index]
        if karma_paid <= 0 and rules.defeat_check == "after_payment":
            self.karma = karma_paid
            self.log.append(Placement(card.id, die, cell, orientation, cost, 0, 0, 0, karma_paid, False))
            self.end(LOST)
            return
        self.grid[index] = (card.id, orientation)
        self.revealed = tuple(card_id for card_id in self.revealed if card_id != card.id)
        rec = _recovery(self, card, index, orientation)
        gain = self.gain(rec, karma_paid, cost)
        self.karma = karma_paid + gain
        self.gained_this_turn += gain
        self.log.append(Placement(card.id, die, cell, orientation, cost, rec, gain, rec - gain, self.karma, True))
        if self.karma <= 0:  # only reachable under defeat_check = after_recovery
            self.end(LOST)
        elif all(self.grid[i] is not None for i in LAYOUTS[rules.grid].ring):
            self.end(WON)
        elif self.revealed and rules.roll_timing == "per_placement":
            self.roll, self.roll_reason = None, "placement"

    def gain(self, rec: int, karma_paid: int, cost: int) -> int:
        """How much of ``rec`` the cap rule lets back (spec 7 step 5, spec 9 cap_rule)."""
        ceiling = self.rules.starting_karma
        cap_rule = self.rules.cap_rule
        if cap_rule == "start_value":
            return min(rec, ceiling - karma_paid)
        if cap_rule == "before_placement":
            return min(rec, cost)
        return min(rec, ceiling - karma_paid, ceiling - self.turn_start_karma - self.gained_this_turn)

    def end(self, status: str) -> None:
        self.status = status
        self.pending = None
        self.log.append(GameEnd(status, self.karma))

    # automatic steps between decisions: new turns, draws, rolls and the stuck rule (spec 4-6)
    def advance(self) -> None:
        while self.status == ONGOING:
            if self.centre is None:
                if not self.chance("centre"):
                    return
                continue
            if not self.revealed and self.to_reveal == 0:
                self.start_turn()
            if self.to_reveal:
                if not self.chance("draw"):
                    return
                continue
            if self.roll is None:
                if not self.chance("roll"):
                    return
                continue
            if self.is_stuck():
                if self.rules.stuck_rule == "reroll_penalty_1":
                    self.karma -= 1
                    self.log.append(StuckPenalty(self.karma))
                    if self.karma <= 0:
                        self.end(LOST)
                        return
                self.roll, self.roll_reason = None, "stuck"
                continue
            self.pending = None
            return

    def start_turn(self) -> None:
        remaining = len(self.deck)
        self.turn += 1
        self.to_reveal = min(3, remaining - 1) if remaining > 1 else 1
        self.turn_start_karma = self.karma
        self.gained_this_turn = 0
        # spec 5 rolls for the turn under per_turn; under per_placement every roll is a placement's (spec 9)
        self.roll, self.roll_reason = None, "turn" if self.rules.roll_timing == "per_turn" else "placement"

    def is_stuck(self) -> bool:
        blue, white = self.roll
        cards = self.cards
        return not any(blue != cards[c].blue or white != cards[c].white for c in self.revealed)

    def chance(self, kind: str) -> bool:
        """Resolve the next chance event from the script or the seed; False if the game must wait."""
        if kind == "draw" and self.deck_order_fixed:
            outcome = self.deck[0]
        elif kind == "roll" and self.rolls_script is not None:
            if not self.rolls_script:
                raise ScriptExhausted("the scripted rolls are used up: this scripted game needs another roll "
                                      "to continue (add more rolls to the script)")
            outcome, self.rolls_script = self.rolls_script[0], self.rolls_script[1:]
        elif self.explicit_chance:
            self.pending = kind
            return False
        else:
            rng = chance_rng(self.seed, self.draws)
            self.draws += 1
            if kind == "centre":
                outcome = rng.choice(("YIN_LEFT", "YANG_LEFT"))
            elif kind == "draw":
                outcome = rng.choice(self.unseen())
            else:
                outcome = ROLLS[rng.randrange(36)]
        self.resolve(kind, outcome)
        return True

    def unseen(self) -> list[str]:
        return [card_id for card_id in self.cards.ids if card_id in self.deck]

    def resolve(self, kind: str, outcome) -> None:
        self.pending = None
        if kind == "centre":
            self.set_centre(outcome)
        elif kind == "draw":
            self.deck = tuple(card_id for card_id in self.deck if card_id != outcome)
            self.revealed = self.revealed + (outcome,)
            self.to_reveal -= 1
            if self.to_reveal == 0:
                self.log.append(TurnStart(self.turn, self.revealed, len(self.deck)))
        else:
            self.roll = tuple(outcome)
            self.log.append(Roll(self.roll[0], self.roll[1], self.roll_reason))

    def set_centre(self, config: str) -> None:
        self.centre = config
        first, second = LAYOUTS[self.rules.grid].centre
        self.grid[first], self.grid[second] = (YIN, YANG) if config == "YIN_LEFT" else (YANG, YIN)
        self.log.append(Setup(self.rules.to_dict(), config, self.cards.name))


# --------------------------------------------------------------------------- new game


def new_game(seed: int | str | None = None, rules: Rules | None = None, deck: Sequence[str] | None = None,
             rolls: Sequence[Sequence[int]] | None = None, explicit_chance: bool = False,
             cards: Deck | str | None = None) -> State:
    """Set up a game (spec 4) and play the automatic steps up to the first decision.

    ``seed`` drives every chance event not scripted (a fresh one is chosen when None, and kept
    in the state). ``deck`` = card ids top first and ``rolls`` = ``(blue, white)`` pairs script
    the game (spec 8). ``explicit_chance`` stops at chance nodes instead of sampling them.
    ``cards`` is a user deck (a :class:`Deck` or a deck file path); default: the teaching deck.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {type(rules).__name__}")
    if cards is None:
        card_set = teaching_deck()
    elif isinstance(cards, Deck):
        card_set = cards
    else:
        card_set = load_deck(cards)
    if seed is None:
        seed = new_seed()
    deck_order = _check_deck_order(deck, card_set)
    script = _check_rolls(rolls)
    layout = LAYOUTS[rules.grid]
    draft = _Draft.__new__(_Draft)
    draft.__dict__.update(
        rules=rules, cards=card_set, centre=None, grid=[None] * layout.size, deck=card_set.ids, revealed=(),
        roll=None, karma=rules.starting_karma, status=ONGOING, turn=0, turn_start_karma=rules.starting_karma,
        gained_this_turn=0, to_reveal=0, roll_reason="turn", pending=None, seed=seed, draws=0,
        deck_order_fixed=False, rolls_script=script, explicit_chance=explicit_chance, log=[])
    if rules.centre_config != "RANDOM":
        draft.set_centre(rules.centre_config)
    else:
        draft.chance("centre")  # with explicit chance the game waits for it (advance stops there)
    _shuffle(draft, deck_order)  # a scripted deck order holds even while the centre is pending
    draft.advance()
    return draft.freeze()


def _shuffle(draft: _Draft, deck_order: tuple[str, ...] | None) -> None:
    if deck_order is not None:
        draft.deck, draft.deck_order_fixed = deck_order, True
    elif not draft.explicit_chance:
        order = list(draft.cards.ids)
        chance_rng(draft.seed, draft.draws).shuffle(order)
        draft.draws += 1
        draft.deck, draft.deck_order_fixed = tuple(order), True


def _check_deck_order(deck, card_set: Deck) -> tuple[str, ...] | None:
    if deck is None:
        return None
    order = tuple(deck)
    if sorted(order) != sorted(card_set.ids):
        missing = sorted(set(card_set.ids) - set(order))
        extra = sorted(set(order) - set(card_set.ids))
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if extra:
            problems.append(f"unknown {', '.join(map(str, extra))}")
        if len(set(order)) != len(order):
            problems.append("some card is listed twice")
        raise ValueError(f"a scripted deck must list every card exactly once ({'; '.join(problems)})")
    return order


def _check_rolls(rolls) -> tuple[tuple[int, int], ...] | None:
    if rolls is None:
        return None
    script = []
    for roll in rolls:
        if (not isinstance(roll, (tuple, list)) or len(roll) != 2
                or not all(type(x) is int and 1 <= x <= 6 for x in roll)):
            raise ValueError(f"a scripted roll is a (blue, white) pair of numbers 1 to 6, not {roll!r}")
        script.append((roll[0], roll[1]))
    return tuple(script)


# --------------------------------------------------------------------------- text board

_SYMBOL = {YIN: "●", YANG: "○"}


def _cell_lines(state: State, index: int, legal: set[int]) -> list[str]:
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


def _render(state: State) -> str:
    layout = LAYOUTS[state.rules.grid]
    rows, cols = layout.geometry.rows, layout.geometry.cols
    legal = set(_legal_cell_indices(state.grid, layout)) if state.status == ONGOING else set()
    dice = f"blue {state.roll[0]}, white {state.roll[1]}" if state.roll else "not rolled"
    lines = [(f"Pangu · turn {state.turn} · Karma {state.karma}/{state.rules.starting_karma} · {state.status} · "
              f"dice {dice} · deck {len(state.deck)}"),
             "    " + "".join(f"    c{c}     " for c in range(cols))]
    for r in range(rows):
        blocks = [_cell_lines(state, r * cols + c, legal) for c in range(cols)]
        for part in range(3):
            label = f"r{r}  " if part == 1 else "    "
            lines.append(label + "".join(f"[{block[part]}] " for block in blocks).rstrip())
    lines.append("Cards show id, blue then white number; ● Yin, ○ Yang half circles.")
    if state.revealed:
        lines.append("Revealed: " + "; ".join(
            f"{c} {state.cards[c].name} (B{state.cards[c].blue} W{state.cards[c].white})" for c in state.revealed))
    if state.log:
        lines.append(f"Last: {state.log[-1]}")
    return "\n".join(lines)
