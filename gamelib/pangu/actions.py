"""Pangu's actions: the action and log-event types, listing the legal actions, applying one (pangu.md#turns).

The functions here read a state's fields and build the next state; they never call back into
``State``. Every game of gamelib keeps the same four names here (README, "Package map"):

* :func:`check_action` validates a move and raises ``IllegalMove`` with a reason a student understands;
* :func:`apply_action` is the checked path ``State.apply`` calls: the check, then the build;
* :func:`search_step` is the unchecked path for search, for moves read off ``legal_actions()``;
* :func:`check_end` is the rule that ends the game (out of Karma, or every card placed).

Both paths build on a :class:`Draft` (a :class:`gamelib.core.Draft`: a mutable copy of the state's
fields), which also plays the automatic steps that follow the move (new turns, draws, rolls and the
stuck rule) and is then frozen into a new state of the same class. :func:`search_successor` and
:func:`search_chance` are the solver's and planner's leaner fast path, on positions without a log
(tests check that every path reaches the same positions).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, NamedTuple

from gamelib import core
from gamelib.core import IllegalMove, chance_rng
from gamelib.pangu.cards import DICE, LAYOUTS, ROLLS, YANG, YIN, Layout

ONGOING, WON, LOST = "ONGOING", "WON", "LOST"
CENTRE_CONFIGS = ("YIN_LEFT", "YANG_LEFT")


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
    rules: dict  # every rule parameter (pangu.md#programmers: recorded in the log)
    centre: str  # YIN_LEFT or YANG_LEFT (RANDOM is resolved before this event)
    deck: str
    kind = "setup"

    def __str__(self) -> str:
        side = "Yin" if self.centre == "YIN_LEFT" else "Yang"
        return f"New game: {side} centre card first, deck '{self.deck}'"


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
    placed: bool  # False when paying the cost lost the game (pangu.md#karma, step 2)
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


class ScriptExhausted(IllegalMove):
    """A scripted game needed a roll after its list of rolls ran out (pangu.md#programmers)."""


# --------------------------------------------------------------------------- reading a position


def legal_cell_indices(grid: tuple, layout: Layout) -> list[int]:
    """Empty ring cells sharing an edge with an occupied cell (pangu.md#layout), row-major, as indices."""
    cells = []
    adjacent = layout.adjacent
    for index in layout.ring:
        if grid[index] is None:
            for other in adjacent[index]:
                if grid[other] is not None:
                    cells.append(index)
                    break
    return cells


@functools.lru_cache(maxsize=1024)
def _action_rows(grid: str, card_id: str) -> tuple:
    """Every placement of one card on the layout named ``grid``: ``rows[die][orientation // 180][cell index]``.

    ``legal_actions`` runs millions of times in tournaments; reusing the Action values (immutable,
    and made of the card's id and the layout's cells alone, so the same for every game and deck) is
    several times faster than building them. The cache is bounded, for a process that loads many
    user decks.
    """
    cells = LAYOUTS[grid].cell_of
    return tuple(
        tuple(tuple(Action(card_id, die, cell, orientation) for cell in cells) for orientation in (0, 180))
        for die in DICE
    )


def legal_actions(state) -> list[Action]:
    """Every legal placement (pangu.md#placing), in the order of pangu.md#programmers: revealed, BLUE before WHITE, row-major, 0 before 180."""
    if state.status != ONGOING or state.pending:
        return []
    rules = state.rules
    layout = LAYOUTS[rules.grid]
    cells = legal_cell_indices(state.grid, layout)
    blue, white = state.roll
    by_id = state.cards.by_id
    rotation = rules.allow_rotation
    actions = []
    for card_id in state.revealed:
        card = by_id[card_id]
        blue_rows, white_rows = _action_rows(rules.grid, card_id)
        for (upright, turned), legal in ((blue_rows, blue != card.blue), (white_rows, white != card.white)):
            if not legal:
                continue
            if rotation:
                for index in cells:
                    actions.append(upright[index])
                    actions.append(turned[index])
            else:
                actions += [upright[index] for index in cells]
    return actions


def chance_outcomes(state) -> list[tuple[Any, Fraction]]:
    """The exact outcomes of the chance node the game waits at (empty at a decision)."""
    if state.status != ONGOING or not state.pending:
        return []
    if state.pending == "centre":
        return [(config, Fraction(1, 2)) for config in CENTRE_CONFIGS]
    if state.pending == "draw":
        unseen = unseen_cards(state)
        return [(card_id, Fraction(1, len(unseen))) for card_id in unseen]
    return [(roll, Fraction(1, 36)) for roll in ROLLS]


def unseen_cards(state) -> list[str]:
    """Cards still in the deck, in the deck file's order (never the shuffled order)."""
    deck = state.deck
    return [card_id for card_id in state.cards.ids if card_id in deck]


def recovery(state, card, index: int, orientation: int) -> int:
    """``rec`` of placing ``card`` on cell ``index`` (pangu.md#karma step 4, with the centre of pangu.md#parameters match and rotation)."""
    grid = state.grid
    by_id = state.cards.by_id
    centre_worth = 2 if state.rules.centre_match_counts_as_circle else 1
    half = card.half
    flip = 2 if orientation == 180 else 0
    rec = 0
    for edge, other in LAYOUTS[state.rules.grid].neighbours[index]:
        entry = grid[other]
        if entry is None:
            continue
        mine = half[(edge + flip) % 4]
        if entry.__class__ is str:  # a centre card: its colour on every edge
            if mine == entry:
                rec += centre_worth
        elif mine == by_id[entry[0]].half[(edge + (4 if entry[1] == 180 else 2)) % 4]:
            rec += 1
    return rec


def best_recovery(state, card, cells: list[int]) -> int:
    """The highest ``rec`` of ``card`` over the cells ``cells`` and the allowed orientations (see
    :func:`recovery`, whose loop this is, with the look-ups done once: search calls it very often)."""
    grid = state.grid
    by_id = state.cards.by_id
    rules = state.rules
    centre_worth = 2 if rules.centre_match_counts_as_circle else 1
    flips = (0, 2) if rules.allow_rotation else (0,)
    neighbours = LAYOUTS[rules.grid].neighbours
    half = card.half
    best = 0
    for index in cells:
        for flip in flips:
            rec = 0
            for edge, other in neighbours[index]:
                entry = grid[other]
                if entry is None:
                    continue
                mine = half[(edge + flip) % 4]
                if entry.__class__ is str:
                    if mine == entry:
                        rec += centre_worth
                elif mine == by_id[entry[0]].half[(edge + (4 if entry[1] == 180 else 2)) % 4]:
                    rec += 1
            if rec > best:
                best = rec
    return best


def facing_colours(state, index: int) -> list[tuple[int, str, int]]:
    """``(edge, colour, worth)`` for each occupied neighbour of cell ``index``: the half colour it shows
    towards the cell and what a match with it is worth (pangu.md#karma step 4, pangu.md#parameters centre match).

    ``rec`` of a card on the cell is the sum of ``worth`` over the edges where the card shows ``colour``,
    so a policy comparing many cards on one cell reads the neighbours once.
    """
    grid = state.grid
    by_id = state.cards.by_id
    centre_worth = 2 if state.rules.centre_match_counts_as_circle else 1
    facing = []
    for edge, other in LAYOUTS[state.rules.grid].neighbours[index]:
        entry = grid[other]
        if entry is None:
            continue
        if entry.__class__ is str:
            facing.append((edge, entry, centre_worth))
        else:
            facing.append((edge, by_id[entry[0]].half[(edge + (4 if entry[1] == 180 else 2)) % 4], 1))
    return facing


def cheapest_die(card, roll: tuple[int, int]) -> tuple[str, int] | None:
    """``(die, cost)`` of the cheaper legal die (BLUE on a tie), or None if the roll blocks the card."""
    blue, white = roll
    best = None
    if blue != card.blue:
        best = ("BLUE", abs(blue - card.blue))
    if white != card.white and (best is None or abs(white - card.white) < best[1]):
        best = ("WHITE", abs(white - card.white))
    return best


def settle_karma(state, cost: int, rec: int) -> tuple[int, int, bool]:
    """``(karma after, gain, placed)`` of a placement costing ``cost`` and recovering ``rec`` (pangu.md#karma steps
    2-5 with the cap_rule of pangu.md#parameters and defeat_check); ``placed`` is False when paying lost the game."""
    rules = state.rules
    karma_paid = state.karma - cost
    if karma_paid <= 0 and rules.defeat_check == "after_payment":
        return karma_paid, 0, False
    ceiling = rules.starting_karma
    cap_rule = rules.cap_rule
    if cap_rule == "start_value":
        gain = min(rec, ceiling - karma_paid)
    elif cap_rule == "before_placement":
        gain = min(rec, cost)
    else:
        gain = min(rec, ceiling - karma_paid, ceiling - state.turn_start_karma - state.gained_this_turn)
    return karma_paid + gain, gain, True


# --------------------------------------------------------------------------- validating a move


def check_action(state, action) -> tuple:
    """Validate a placement (pangu.md#placing); return it in the form the draft places,
    ``(card, die, cell index, orientation)``, or raise IllegalMove saying which rule it breaks.

    Accepts an :class:`Action` or any 3- or 4-tuple of the same fields (orientation 0 when left
    out), so that a student's plain tuple is checked like the engine's own actions.
    """
    if not isinstance(action, tuple) or len(action) not in (3, 4):
        raise IllegalMove(f"an action is Action(card, die, cell, orientation), not {action!r}", action)
    card_id, die, cell = action[0], action[1], action[2]
    orientation = action[3] if len(action) == 4 else 0
    if not isinstance(card_id, str) or card_id not in state.revealed:
        raise IllegalMove(_why_not_revealed(state, card_id), action)
    card = state.cards.by_id[card_id]
    if die not in DICE:
        raise IllegalMove(f"the die must be BLUE or WHITE, not {die!r}", action)
    value, number = (state.roll[0], card.blue) if die == "BLUE" else (state.roll[1], card.white)
    if value == number:
        colour = die.lower()
        raise IllegalMove(f"{colour} die {value} equals {card_id}'s {colour} {number}: the die must differ", action)
    index = _check_cell(state, cell, action)
    if type(orientation) is not int or orientation not in (0, 180):  # not False, 0.0 or "0"
        raise IllegalMove(f"orientation must be 0 or 180 (degrees), not {orientation!r}", action)
    if orientation == 180 and not state.rules.allow_rotation:
        raise IllegalMove(
            "cards may not be turned 180° under these rules (allow_rotation is off): use orientation 0", action
        )
    return card, die, index, orientation


def _why_not_revealed(state, card_id) -> str:
    choices = ", ".join(state.revealed)
    if card_id not in state.cards:
        return f"there is no card {card_id!r} in this deck: choose one of the revealed cards {choices}"
    if card_id in state.deck:
        return f"{card_id} has not been revealed yet: choose one of the revealed cards {choices}"
    return f"{card_id} is already on the board: choose one of the revealed cards {choices}"


def _check_cell(state, cell, action) -> int:
    layout = LAYOUTS[state.rules.grid]
    index = None
    if cell.__class__ is tuple and len(cell) == 2 and cell[0].__class__ is int and cell[1].__class__ is int:
        index = layout.index_of.get(cell)  # the common case, one look-up; anything else gets its reason below
    if index is not None:
        entry = state.grid[index]
        if entry is None:
            for other in layout.adjacent[index]:
                if state.grid[other] is not None:
                    return index
    geometry = layout.geometry
    if (
        not isinstance(cell, (tuple, list))
        or len(cell) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
    ):
        raise IllegalMove(f"a cell is a (row, column) pair such as (0, 1), not {cell!r}", action)
    row, col = cell
    if not (0 <= row < geometry.rows and 0 <= col < geometry.cols):
        raise IllegalMove(
            f"({row},{col}) is outside the {geometry.rows}×{geometry.cols} layout: rows run 0 to "
            f"{geometry.rows - 1} and columns 0 to {geometry.cols - 1}",
            action,
        )
    index = row * geometry.cols + col
    grid = state.grid
    entry = grid[index]
    if entry in (YIN, YANG):
        raise IllegalMove(f"({row},{col}) holds the {entry.title()} centre card", action)
    if entry is not None:
        raise IllegalMove(f"({row},{col}) already holds {entry[0]}: choose an empty cell", action)
    if all(grid[other] is None for other in layout.adjacent[index]):
        raise IllegalMove(
            f"({row},{col}) does not touch the centre or a placed card: a card must share a "
            f"full edge with one (diagonals do not count)",
            action,
        )
    return index


def check_chance_outcome(state, outcome) -> None:
    """Raise IllegalMove unless ``outcome`` is one of the outcomes the game waits for."""
    pending = state.pending
    if pending == "centre":
        valid = isinstance(outcome, str) and outcome in CENTRE_CONFIGS
    elif pending == "draw":
        valid = isinstance(outcome, str) and outcome in state.deck and outcome in state.cards
    else:
        valid = (
            isinstance(outcome, tuple) and len(outcome) == 2 and all(type(x) is int and 1 <= x <= 6 for x in outcome)
        )
    if not valid:
        what = {
            "centre": "a centre configuration (YIN_LEFT or YANG_LEFT)",
            "draw": f"an unseen card ({', '.join(unseen_cards(state))})",
            "roll": "a roll (blue, white) with both dice from 1 to 6",
        }[pending]
        raise IllegalMove(f"the game waits for chance: expected {what}, not {outcome!r}", outcome)


# --------------------------------------------------------------------------- applying


def apply_action(state, action):
    """The checked path (``State.apply``): the state after a placement or a chance outcome and the
    automatic steps it starts (pangu.md#karma, then 5-6). Everything is validated first, so an
    illegal move raises IllegalMove and builds nothing."""
    if state.status != ONGOING:
        raise IllegalMove(f"the game is over ({state.status}): no more moves", action)
    draft = Draft(state)
    if state.pending:
        check_chance_outcome(state, action)
        draft.resolve(state.pending, action)
    else:
        draft.place(*check_action(state, action))
    draft.advance()
    return draft.freeze()


def search_step(state, action):
    """The unchecked path: the state :func:`apply_action` would build, log included, without the
    checks. ``action`` must be read off ``state.legal_actions()`` (or ``chance_outcomes()`` at a
    chance node); anything else gives an undefined state. Tests compare it with ``apply``."""
    draft = Draft(state)
    if state.pending:
        draft.resolve(state.pending, action)
    else:
        layout = LAYOUTS[state.rules.grid]
        draft.place(state.cards.by_id[action[0]], action[1], layout.index_of[action[2]], action[3])
    draft.advance()
    return draft.freeze()


def check_end(draft) -> bool:
    """The rule that ends the game (pangu.md#karma step 2 and 5, pangu.md#setup): lost when the
    Karma is 0 or less, won when every card is placed. Ends the draft's game (status, no chance
    pending, a :class:`GameEnd` event) and returns True, or returns False while the game goes on."""
    if draft.karma <= 0:
        draft.end(LOST)
        return True
    if not draft.revealed and not draft.deck and not draft.to_reveal:  # every card placed: the ring is full
        draft.end(WON)
        return True
    return False


def search_successor(state, card, die: str, index: int, orientation: int = 0):
    """Search's fast path: the position after a placement known to be legal, with no log kept.

    ``state`` must come from ``with_explicit_chance()`` with its log dropped (see the planner);
    nothing is validated, so callers pass only moves read off the legal actions.
    """
    draft = SearchDraft(state)
    draft.place(card, die, index, orientation)
    draft.advance()
    return draft.freeze()


def search_chance(state, outcome):
    """Search's fast path at a chance node: the position after ``outcome``, with no log kept."""
    draft = SearchDraft(state)
    draft.resolve(state.pending, outcome)
    draft.advance()
    return draft.freeze()


class Draft(core.Draft):
    """Pangu's editing steps on a :class:`gamelib.core.Draft` of a state: a placement, the chance
    events and the automatic steps between decisions; ``freeze`` makes the new state."""

    __slots__ = ()
    logging = True  # record every event in the log (pangu.md#programmers)

    def record(self, event) -> None:
        if self.logging:
            self.log += (event,)

    # one placement, pangu.md#karma
    def place(self, card, die: str, index: int, orientation: int) -> None:
        rules = self.rules
        cost = abs(self.roll[0] - card.blue) if die == "BLUE" else abs(self.roll[1] - card.white)
        rec = recovery(self, card, index, orientation)  # the cell is still empty: only its neighbours count
        karma, gain, placed = settle_karma(self, cost, rec)
        self.karma = karma
        if not placed:  # paying the cost took the last Karma (then karma <= 0: check_end ends the game)
            if self.logging:
                self.log += (
                    Placement(
                        card.id, die, LAYOUTS[rules.grid].cell_of[index], orientation, cost, 0, 0, 0, karma, False
                    ),
                )
            check_end(self)
            return
        grid = self.grid
        self.grid = grid[:index] + ((card.id, orientation),) + grid[index + 1 :]
        self.revealed = revealed = tuple([card_id for card_id in self.revealed if card_id != card.id])
        self.gained_this_turn += gain
        if self.logging:
            self.log += (
                Placement(
                    card.id,
                    die,
                    LAYOUTS[rules.grid].cell_of[index],
                    orientation,
                    cost,
                    rec,
                    gain,
                    rec - gain,
                    karma,
                    True,
                ),
            )
        if check_end(self):  # out of Karma (only under defeat_check = after_recovery) or every card placed
            return
        if revealed and rules.roll_timing == "per_placement":
            self.roll, self.roll_reason = None, "placement"

    def end(self, status: str) -> None:
        self.status = status
        self.pending = None
        self.record(GameEnd(status, self.karma))

    # automatic steps between decisions: new turns, draws, rolls and the stuck rule (pangu.md#setup)
    def advance(self) -> None:
        while self.status == ONGOING:
            if self.centre is None:
                if not self.chance("centre"):
                    return
                continue
            if not self.revealed and self.to_reveal == 0:
                self.start_turn()
            if self.to_reveal and self.deck_order_fixed:  # a shuffled or scripted deck: its top cards at once
                size, deck = self.to_reveal, self.deck
                self.revealed, self.deck, self.to_reveal = self.revealed + deck[:size], deck[size:], 0
                self.record(TurnStart(self.turn, self.revealed, len(self.deck)))
                continue
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
                    self.record(StuckPenalty(self.karma))
                    if check_end(self):
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
        # pangu.md#turns rolls for the turn under per_turn; under per_placement every roll is a placement's (pangu.md#parameters)
        self.roll, self.roll_reason = None, "turn" if self.rules.roll_timing == "per_turn" else "placement"

    def is_stuck(self) -> bool:
        blue, white = self.roll
        by_id = self.cards.by_id
        for card_id in self.revealed:
            card = by_id[card_id]
            if blue != card.blue or white != card.white:
                return False
        return True

    def chance(self, kind: str) -> bool:
        """Resolve the next chance event from the script or the seed; False if the game must wait."""
        if kind == "draw" and self.deck_order_fixed:
            outcome = self.deck[0]
        elif kind == "roll" and self.rolls_script is not None:
            if not self.rolls_script:
                raise ScriptExhausted(
                    "the scripted rolls are used up: this scripted game needs another roll "
                    "to continue (add more rolls to the script)"
                )
            outcome, self.rolls_script = self.rolls_script[0], self.rolls_script[1:]
        elif self.explicit_chance:
            self.pending = kind
            return False
        else:
            rng = chance_rng(self.seed, self.draws)
            self.draws += 1
            if kind == "centre":
                outcome = rng.choice(CENTRE_CONFIGS)
            elif kind == "draw":
                outcome = rng.choice(unseen_cards(self))
            else:
                outcome = ROLLS[rng.randrange(36)]
        self.resolve(kind, outcome)
        return True

    def resolve(self, kind: str, outcome) -> None:
        self.pending = None
        if kind == "centre":
            self.set_centre(outcome)
        elif kind == "draw":
            deck = self.deck
            self.deck = deck[1:] if deck[0] == outcome else tuple([card_id for card_id in deck if card_id != outcome])
            self.revealed = self.revealed + (outcome,)
            self.to_reveal -= 1
            if self.to_reveal == 0:
                self.record(TurnStart(self.turn, self.revealed, len(self.deck)))
        else:
            self.roll = (outcome[0], outcome[1])
            self.record(Roll(outcome[0], outcome[1], self.roll_reason))

    def set_centre(self, config: str) -> None:
        self.centre = config
        first, second = LAYOUTS[self.rules.grid].centre
        grid = list(self.grid)
        grid[first], grid[second] = (YIN, YANG) if config == "YIN_LEFT" else (YANG, YIN)
        self.grid = tuple(grid)
        self.record(Setup(dict(self.rules.__dict__), config, self.cards.name))  # = rules.to_dict(), faster


class SearchDraft(Draft):
    """A draft that records no events: search positions carry no log."""

    logging = False
