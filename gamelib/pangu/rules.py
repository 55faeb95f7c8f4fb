"""The Pangu rules: the rule parameters, the immutable game state, and ``new_game`` (rules: ``docs/rules/pangu.md``).

References such as ``pangu.md#karma`` are sections of ``docs/rules/pangu.md``. The state is immutable: ``apply`` returns a
new state and raises :class:`gamelib.IllegalMove` with a readable reason (leaving the old state
as it was); the work is done in :mod:`gamelib.pangu.actions`.

Chance (pangu.md#setup, pangu.md#turns, pangu.md#programmers): by default the game resolves its own chance from its seed: one
shuffle at setup (and the centre configuration first when it is ``RANDOM``), and every
roll of the dice, each from ``chance_rng(seed, draw_number)``. A scripted game takes the
deck order and the rolls from lists. With ``explicit_chance=True`` the game stops at each
chance node instead: the centre configuration, each card drawn from the unseen cards, and
each roll are then outcomes of ``chance_outcomes()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from gamelib.core import (
    CHANCE,
    TERMINAL,
    RulesBase,
    StateBase,
    chance_rng,
    check_choice,
    check_int,
    check_switch,
    resolve_seed,
    returns_for,
    rules_or_default,
    single_winner,
)
from gamelib.pangu import actions
from gamelib.pangu.actions import ONGOING, WON, Action, Draft, Placement
from gamelib.pangu.cards import GEOMETRIES, LAYOUTS, Deck, Geometry, load_deck, teaching_deck

# --------------------------------------------------------------------------- rules (pangu.md#parameters)

CHOICES = {
    "roll_timing": ("per_turn", "per_placement"),
    "cap_rule": ("start_value", "before_placement", "before_turn"),
    "defeat_check": ("after_payment", "after_recovery"),
    "centre_config": ("YIN_LEFT", "YANG_LEFT", "RANDOM"),
    "stuck_rule": ("reroll", "reroll_penalty_1"),
    "grid": ("3x4", "4x3"),
}
SWITCHES = ("allow_rotation", "centre_match_counts_as_circle")
MAX_STARTING_KARMA = 1000
"""pangu.md#parameters sets no upper bound; a game spends at most 5 Karma on each of its 10 placements, so 1000 is
already "never lose" (the tests and lesson 03 use it that way) and no teacher needs more."""


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule parameter of pangu.md#parameters; the defaults are the rules page's defaults."""

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
            check_choice(name, getattr(self, name), allowed)
        for name in SWITCHES:
            check_switch(name, getattr(self, name))
        check_int("starting_karma", self.starting_karma, 1, MAX_STARTING_KARMA)


DEFAULT_RULES = Rules()

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
"""The defaults and each one-parameter variant of pangu.md#parameters, by a short name (the list of pangu.md#measured)."""


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State(StateBase):
    """One moment of a Pangu game. Immutable: ``apply`` returns a new state.

    ``grid`` has one entry per cell, row-major: ``None`` (empty), ``"YIN"``/``"YANG"``
    (a centre card) or ``(card_id, orientation)``. Use :meth:`card_at`, :meth:`placed_cards`
    or ``str(state)`` rather than indexing it by hand.
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
    seed: int | str
    draws: int  # chance events already drawn from the seed
    deck_order_fixed: bool
    rolls_script: tuple[tuple[int, int], ...] | None
    explicit_chance: bool
    log: tuple  # every event (pangu.md#programmers); search positions carry none

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
    def winners(self) -> tuple[int, ...]:
        """``(0,)`` once the game is won, else ``()`` (a solo game: seat 0 or nobody)."""
        return (0,) if self.status == WON else ()

    @property
    def winner(self) -> int | None:
        return single_winner(self.winners)

    def returns(self) -> list[float]:
        """``[1.0]`` for a won game, ``[0.0]`` otherwise (so a mean of returns is a win rate)."""
        return returns_for(self.winners, 1)

    def scores(self) -> tuple[int]:
        """The Karma, the game's score (at the end: what a win kept, or how far below 1 a loss fell)."""
        return (self.karma,)

    # the engine's functions themselves (not wrappers): these run millions of times in tournaments
    legal_actions = actions.legal_actions  # every legal placement, in the order of pangu.md#programmers

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """The exact outcomes of the chance node the game waits at (empty at a decision)."""
        return actions.chance_outcomes(self)

    apply = actions.apply_action  # the state after a placement or a chance outcome; validated, pure

    # ----------------------------------------------------------------- reading
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
        return replace(
            self, deck=tuple(self.unseen_cards()), deck_order_fixed=False, rolls_script=None, explicit_chance=True
        )

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
        return actions.unseen_cards(self)

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
        return actions.cheapest_die(self.cards[card_id], self.roll)

    def legal_cells(self) -> list[tuple[int, int]]:
        """Empty ring cells sharing an edge with a centre card or a placed card (row-major)."""
        layout = LAYOUTS[self.rules.grid]
        return [layout.cell_of[i] for i in actions.legal_cell_indices(self.grid, layout)]

    def recovery(self, card_id: str, cell: tuple[int, int], orientation: int = 0) -> int:
        """``rec`` of placing the card on the cell (pangu.md#karma step 4, with the centre-match variant)."""
        return actions.recovery(self, self.cards[card_id], self._index(cell), orientation)

    def preview(self, action: Action) -> dict:
        """What applying a legal action would do: cost, rec, gain, wasted, karma after, status.

        Only what the player can know: the deck order and the rolls to come stay hidden, so the
        preview stops at the next draw or roll (a seeded game would otherwise play out its own
        future, such as stuck rerolls that lose the game, which no player can foresee).
        """
        hidden = self.explicit_chance and not self.deck_order_fixed and self.rolls_script is None
        known = self if hidden else self.with_explicit_chance()
        after = known.apply(action)
        event = next(e for e in reversed(after.log) if e.kind == "placement")
        return {
            "cost": event.cost,
            "rec": event.rec,
            "gain": event.gain,
            "wasted": event.wasted,
            "karma": event.karma,
            "placed": event.placed,
            "status": after.status,
        }

    def _index(self, cell) -> int:
        return GEOMETRIES[self.rules.grid].index(cell)


# --------------------------------------------------------------------------- new game


def new_game(
    seed: int | str | None = None,
    rules: Rules | None = None,
    *,
    explicit_chance: bool = False,
    deck: Sequence[str] | None = None,
    rolls: Sequence[Sequence[int]] | None = None,
    cards: Deck | str | None = None,
) -> State:
    """Set up a game (pangu.md#setup) and play the automatic steps up to the first decision.

    ``seed`` drives every chance event not scripted (a fresh one is drawn when None, and kept
    in ``state.seed``). ``explicit_chance`` stops at chance nodes instead of sampling them.
    Setup, keywords only: ``deck`` = card ids top first and ``rolls`` = ``(blue, white)`` pairs
    script the game (pangu.md#programmers); ``cards`` is a user deck (a :class:`Deck` or a deck file path),
    by default the teaching deck.
    """
    rules = rules_or_default(rules, Rules, DEFAULT_RULES)
    card_set = teaching_deck() if cards is None else load_deck(cards)  # a Deck is checked too (its name)
    seed = resolve_seed(seed)
    deck_order = _check_deck_order(deck, card_set)
    script = _check_rolls(rolls)
    layout = LAYOUTS[rules.grid]
    draft = Draft.__new__(Draft)
    draft.__dict__.update(
        rules=rules,
        cards=card_set,
        centre=None,
        grid=(None,) * layout.size,
        deck=card_set.ids,
        revealed=(),
        roll=None,
        karma=rules.starting_karma,
        status=ONGOING,
        turn=0,
        turn_start_karma=rules.starting_karma,
        gained_this_turn=0,
        to_reveal=0,
        roll_reason="turn",
        pending=None,
        seed=seed,
        draws=0,
        deck_order_fixed=False,
        rolls_script=script,
        explicit_chance=explicit_chance,
        log=(),
    )
    if rules.centre_config != "RANDOM":
        draft.set_centre(rules.centre_config)
    else:
        draft.chance("centre")  # with explicit chance the game waits for it (advance stops there)
    _shuffle(draft, deck_order)  # a scripted deck order holds even while the centre is pending
    draft.advance()
    return draft.freeze(State)


def _shuffle(draft: Draft, deck_order: tuple[str, ...] | None) -> None:
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
        if (
            not isinstance(roll, (tuple, list))
            or len(roll) != 2
            or not all(type(x) is int and 1 <= x <= 6 for x in roll)
        ):
            raise ValueError(f"a scripted roll is a (blue, white) pair of numbers 1 to 6, not {roll!r}")
        script.append((roll[0], roll[1]))
    return tuple(script)
