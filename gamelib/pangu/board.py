"""An interactive Pangu board (anywidget): click a revealed card, maybe a die, then a cell.

Python keeps every rule: the page draws the JSON of :meth:`PanguBoard.state_json` and
reports clicks through the ``pick`` trait. The picks are

* ``{"kind": "card", "card": "A6"}`` -- select a revealed card (its cheaper legal die is preselected);
* ``{"kind": "die", "die": "WHITE"}`` -- use that die for the selected card;
* ``{"kind": "rotate"}`` -- turn the selected card 180° (only when the rules allow it);
* ``{"kind": "cell", "cell": [0, 1]}`` -- place the selected card there;
* ``{"kind": "place", "card": "A6", "cell": [0, 1], "die": "BLUE", "orientation": 0}`` -- all at once
  (``die`` defaults to the cheaper legal die);
* ``{"kind": "hints", "on": true}`` -- show each legal action's value under the lookahead bot;
* ``{"kind": "history", "to": "back"}`` (and ``start``, ``forward``, ``end``), from the base class.

An illegal pick leaves the game as it was and shows the engine's reason in ``message``.
"""

from __future__ import annotations

import reprlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import traitlets

from gamelib import core
from gamelib.core import IllegalMove, Match
from gamelib.pangu.actions import ONGOING, Action
from gamelib.pangu.bots import lookahead_policy, lookahead_values
from gamelib.pangu.cards import DICE, EDGES
from gamelib.pangu.rules import State, new_game
from gamelib.widgets import BoardWidget, assets

HERE = Path(__file__).parent
_ESM, _CSS = assets(HERE / "board.js", HERE / "board.css")

OPPOSITE = {edge: EDGES[(i + 2) % 4] for i, edge in enumerate(EDGES)}
_CHANCE_WORDS = {"centre": "which centre card goes first", "draw": "the next card drawn", "roll": "a roll of the dice"}


def action_key(action: Action) -> str:
    """The text key the page uses to find an action: ``card|die|row|col|orientation``."""
    return f"{action.card}|{action.die}|{action.cell[0]}|{action.cell[1]}|{action.orientation}"


class PanguBoard(BoardWidget):
    """A live Pangu game: ``PanguBoard(state)``, ``PanguBoard(match)`` or ``PanguBoard(seed=7, rules=...)``.

    ``viewer`` is the seat whose view is drawn (Pangu is solo: 0). ``bots`` maps seat 0 to a policy
    that then plays the whole game at once, leaving its history to step through. ``hints`` shows
    each legal action's value under the lookahead bot; ``label`` names the board in the page.
    """

    _esm = _ESM
    _css = _CSS
    hints = traitlets.Bool(False).tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)  # names the board in the page (data-board), for tests and CSS

    def __init__(self, game_or_match: State | Match | None = None, *, seed: int | str | None = None, rules=None,
                 viewer: int | None = None, bots: dict | None = None, label: str | None = None,
                 hints: bool = False):
        if viewer not in (None, 0):
            raise ValueError(f"Pangu is a solo game: the only seat to view is 0, not {viewer!r}")
        if game_or_match is None:
            game_or_match = new_game(seed=seed, rules=rules)
        elif seed is not None or rules is not None:
            raise ValueError("give either a game (or match) or seed/rules for a new one, not both")
        self._selection = {"card": None, "die": None, "orientation": 0}
        self._hint_cache: tuple | None = None  # (state, values, best action)
        super().__init__(game_or_match, hints=hints, label=label or "")
        self._play_bots(bots or {})
        self.observe(lambda _change: self.refresh(), names="hints")

    def _play_bots(self, bots: dict) -> None:
        unknown = set(bots) - {0}
        if unknown:
            raise ValueError(f"Pangu is a solo game: bots can only take seat 0, not {sorted(unknown)}")
        if 0 in bots:
            core.play(self.match.state, bots[0], seed=self.match.state.seed,
                      on_action=lambda _state, action: self.match.apply(action))

    # ------------------------------------------------------------ selection
    @property
    def selection(self) -> dict:
        """The selected card, die and orientation (what the next cell click will place)."""
        return dict(self._selection)

    def _tidy_selection(self, state: State) -> None:
        """Drop a selection the state no longer allows; preselect the cheaper die and a lone card."""
        sel = self._selection
        if state.status != ONGOING or sel["card"] not in state.revealed:
            sel.update(card=None, die=None, orientation=0)
        if sel["card"] is None and state.status == ONGOING and len(state.revealed) == 1:
            sel["card"] = state.revealed[0]
        if sel["card"] is not None and state.roll is not None:
            if sel["die"] is None or state.cost(sel["card"], sel["die"]) is None:
                cheapest = state.cheapest_die(sel["card"])
                sel["die"] = cheapest[0] if cheapest else None

    def refresh(self, message: str | None = None, kind: str = "info") -> None:
        self._tidy_selection(self.match.state)
        super().refresh(message, kind)

    # ------------------------------------------------------------ picks
    def handle_pick(self, pick: dict) -> None:
        kind = pick.get("kind")
        if kind == "hints":
            self.hints = bool(pick.get("on"))
            return
        state = self.match.state
        if state.status != ONGOING:
            raise IllegalMove(f"the game is over ({state.status}): step back in the history to try another line")
        if state.pending:
            raise IllegalMove(f"the game waits for chance ({_CHANCE_WORDS[state.pending]}): give the outcome "
                              f"with board.apply(...), one of state.chance_outcomes()")
        actions = {
            "card": lambda: self._select_card(state, pick.get("card")),
            "die": lambda: self._select_die(state, pick.get("die")),
            "rotate": lambda: self._rotate(state),
            "cell": lambda: self._place_selected(pick.get("cell")),
            "place": lambda: self._place(state, pick),
        }
        if not isinstance(kind, str) or kind not in actions:  # a pick holds any JSON: a list is no key
            raise IllegalMove(f"unknown pick {reprlib.repr(pick)}: pick a card, a die, a cell or a history step")
        actions[kind]()

    def _select_card(self, state: State, card_id: Any) -> None:
        if card_id not in state.revealed or state.cheapest_die(card_id) is None:
            self._engine_reason(state, Action(card_id, "BLUE", self._any_legal_cell(state)))
        self._selection.update(card=card_id, die=None, orientation=0)
        self.refresh()

    def _select_die(self, state: State, die: Any) -> None:
        card_id = self._selection["card"]
        if card_id is None:
            raise IllegalMove("pick one of the revealed cards first, then the die it should use")
        self._engine_reason(state, Action(card_id, die, self._any_legal_cell(state)))
        self._selection["die"] = die
        self.refresh()

    def _rotate(self, state: State) -> None:
        card_id, die = self._selection["card"], self._selection["die"]
        if card_id is None:
            raise IllegalMove("pick one of the revealed cards first, then turn it")
        turned = 180 - self._selection["orientation"]
        self._engine_reason(state, Action(card_id, die, self._any_legal_cell(state), turned))
        self._selection["orientation"] = turned
        self.refresh()

    def _place_selected(self, cell: Any) -> None:
        sel = self._selection
        if sel["card"] is None:
            raise IllegalMove("pick one of the revealed cards first, then the cell where it goes")
        self.match.apply(Action(sel["card"], sel["die"], _as_cell(cell), sel["orientation"]))

    def _place(self, state: State, pick: dict) -> None:
        card_id = pick.get("card")
        die = pick.get("die")
        if die is None and card_id in state.revealed:
            cheapest = state.cheapest_die(card_id)
            die = cheapest[0] if cheapest else "BLUE"
        self.match.apply(Action(card_id, die, _as_cell(pick.get("cell")), pick.get("orientation", 0)))

    @staticmethod
    def _any_legal_cell(state: State) -> tuple[int, int]:
        return state.legal_cells()[0]

    @staticmethod
    def _engine_reason(state: State, action: Action) -> None:
        """Raise the engine's own IllegalMove if ``action`` is illegal (the state is not changed)."""
        state.apply(action)

    # ------------------------------------------------------------ hints
    def hint_values(self) -> list[tuple[Action, Fraction]]:
        """Each legal action's exact expected Karma at the end of the turn (the lookahead bot's values)."""
        state = self.match.state
        if self._hint_cache is None or self._hint_cache[0] is not state:
            values = lookahead_values(state) if state.status == ONGOING else []
            best = lookahead_policy(state) if values else None
            self._hint_cache = (state, values, best)
        return list(self._hint_cache[1])

    def hint_best(self) -> Action | None:
        """The action the lookahead bot would play here."""
        self.hint_values()
        return self._hint_cache[2]

    # ------------------------------------------------------------ what the page draws
    def state_json(self, state: State) -> dict:
        seen = state.observation(0)
        placed = []
        last = state.placements()[-1] if state.placements() else None
        for view in seen["cells"]:
            if view["kind"] == "card":
                card = dict(view["card"], cell=view["cell"], orientation=view["orientation"],
                            half=[view["half"][edge] for edge in EDGES],
                            last=bool(last and last.placed and list(last.cell) == view["cell"]))
                placed.append(card)
        revealed = [self._revealed_json(state, view) for view in seen["revealed"]]
        data = {
            "rows": seen["rows"], "cols": seen["cols"],
            "centre": [{"cell": list(cell), "colour": colour} for cell, colour in state.centre_cells.items()],
            "placed": placed,
            "matches": _matches(seen),
            "empty": [view["cell"] for view in seen["cells"] if view["ring"] and view["kind"] == "empty"],
            "legal_cells": [view["cell"] for view in seen["cells"] if view["legal"]],
            "revealed": revealed,
            "dice": seen["dice"],
            "karma": state.karma, "starting_karma": seen["starting_karma"],
            "deck_count": seen["deck_count"], "turn": seen["turn"], "status": seen["status"],
            "allow_rotation": state.rules.allow_rotation,
            "rules_changed": {key: str(value) for key, value in state.rules.changes().items()},
            "last_event": self.last_event_text(state),
            "selection": self.selection,
            "hints_on": self.hints,
        }
        best = self.hint_best() if self.hints and state.status == ONGOING else None
        if best is not None:  # no hints while the game waits for chance: nothing to choose yet
            ranked = sorted(self.hint_values(), key=lambda pair: -pair[1])[:5]
            data["best_action"] = action_key(best)
            data["best_card"] = best.card
            data["hint_list"] = [f"{action}: expected Karma {_karma_text(value)} at the end of the turn"
                                 + ("  ★ the bot's choice" if action == best else "") for action, value in ranked]
        return data

    @staticmethod
    def _revealed_json(state: State, view: dict) -> dict:
        card = state.cards[view["id"]]
        costs = view.get("costs") or {}
        return dict(view, half=list(card.half), half_turned=[card.colour(edge, 180) for edge in EDGES],
                    dice={die: {"legal": costs.get(die) is not None, "cost": costs.get(die)} for die in DICE},
                    blocked=bool(costs) and all(cost is None for cost in costs.values()))

    def legal_json(self, state: State) -> list:
        if state.status != ONGOING:
            return []
        hints = dict(self.hint_values()) if self.hints else {}
        # preview on what the player may know: with the deck order and future rolls hidden, a move
        # stops at the next draw or roll instead of playing out the seeded future (stuck rerolls)
        known = state.with_explicit_chance()
        moves = []
        for action in state.legal_actions():
            preview = known.preview(action)
            move = {"key": action_key(action), "card": action.card, "die": action.die, "cell": list(action.cell),
                    "orientation": action.orientation, "cost": preview["cost"], "rec": preview["rec"],
                    "gain": preview["gain"], "karma": preview["karma"], "status": preview["status"]}
            if action in hints:
                move["hint"] = float(hints[action])
                move["hint_text"] = _karma_text(hints[action])
            moves.append(move)
        return moves

    @staticmethod
    def last_event_text(state: State) -> str:
        """What the last action did, in words ("A6 with the blue die to (0,1): paid 1, recovered 1, ...")."""
        events = [event for event in state.events_since_last_action() if event.kind != "setup"]
        return "; ".join(str(event) for event in events) + ("." if events else "")

    def describe(self, state: State) -> str:
        if state.status != ONGOING:
            return f"Game {'won' if state.status == 'WON' else 'lost'} with Karma {state.karma}. Step back to try another line."
        if state.pending:
            return (f"The game waits for chance ({_CHANCE_WORDS[state.pending]}): give the outcome with "
                    "board.apply(...), one of state.chance_outcomes().")
        card_id, die = self._selection["card"], self._selection["die"]
        if card_id is None:
            return "Pick one of the revealed cards."
        if die is None:
            return f"{card_id} is blocked by this roll: place the other cards first."
        return (f"Now pick a highlighted cell for {card_id} (the {die.lower()} die costs {state.cost(card_id, die)};"
                " click the other die to change).")

    def text_fallback(self) -> str:
        state = self.match.state
        return f"{state}\n{self.last_event_text(state)}"


def _karma_text(value: Fraction) -> str:
    """An expected Karma for the page: whole numbers as such, others to two decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _as_cell(value: Any) -> Any:
    """A cell from the page arrives as a JSON list; the engine wants a (row, col) tuple."""
    return tuple(value) if isinstance(value, list) else value


def _matches(seen: dict) -> list[dict]:
    """Every edge where two touching cards show the same half colour, each listed once."""
    by_cell = {tuple(view["cell"]): view for view in seen["cells"]}
    steps = {"RIGHT": (0, 1), "BOTTOM": (1, 0)}
    found = []
    for (row, col), view in by_cell.items():
        if view["kind"] == "empty":
            continue
        for edge, (dr, dc) in steps.items():
            other = by_cell.get((row + dr, col + dc))
            if other is None or other["kind"] == "empty" or (view["kind"] == other["kind"] == "centre"):
                continue
            if view["half"][edge] == other["half"][OPPOSITE[edge]]:
                found.append({"cell": [row, col], "edge": edge})
    return found
