"""An interactive Pangu board (anywidget): click a revealed card, maybe a die, then a cell.

Python keeps every rule: the page draws the JSON of :meth:`PanguBoard.state_json` and
reports clicks through the ``pick`` trait. The picks are

* ``{"kind": "card", "card": "A6"}`` -- select a revealed card (its cheaper legal die is preselected);
* ``{"kind": "die", "die": "WHITE"}`` -- use that die for the selected card;
* ``{"kind": "rotate"}`` -- turn the selected card 180° (only when the rules allow it);
* ``{"kind": "cell", "cell": [0, 1]}`` -- place the selected card there;
* ``{"kind": "place", "card": "A6", "cell": [0, 1], "die": "BLUE", "orientation": 0}`` -- all at once
  (``die`` defaults to the cheaper legal die);
* ``{"kind": "hints", "on": true}`` -- show the evaluation: the bar with the chance of winning, each
  legal action's value, the best move, and every past move's cost;
* ``{"kind": "eval_mode", "mode": "karma"}`` -- evaluate by the lookahead's expected Karma at the end
  of the turn instead (``"chance"``: the exact optimal chance of winning, from ``solver``);
* ``{"kind": "jump", "to": 3}`` -- show the position after that many moves (the move list's links);
* ``{"kind": "history", "to": "back"}`` (and ``start``, ``forward``, ``end``), from the base class.

The exact chance of winning comes from :mod:`gamelib.pangu.solver`. It answers positions from
turn 3 on in pure Python within milliseconds; earlier positions need its shipped turn-start
tables (default rules only). Where they are not installed the board says so and shows the
lookahead's expected Karma; it never waits seconds for a click (see :class:`Evaluator`).

An illegal pick leaves the game as it was and shows the engine's reason in ``message``.
"""

from __future__ import annotations

import reprlib
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import traitlets

from gamelib import core
from gamelib.core import IllegalMove, Match
from gamelib.pangu.actions import ONGOING, Action
from gamelib.pangu import solver
from gamelib.pangu.bots import lookahead_policy, lookahead_values
from gamelib.pangu.cards import DICE, EDGES
from gamelib.pangu.rules import Rules, State, new_game
from gamelib.pangu.solver import DamagedTable, NumpyMissing, SolverTableError
from gamelib.widgets import BoardWidget, assets

HERE = Path(__file__).parent
_ESM, _CSS = assets(HERE / "board.js", HERE / "board.css")

OPPOSITE = {edge: EDGES[(i + 2) % 4] for i, edge in enumerate(EDGES)}
_CHANCE_WORDS = {"centre": "which centre card goes first", "draw": "the next card drawn", "roll": "a roll of the dice"}


def action_key(action: Action) -> str:
    """The text key the page uses to find an action: ``card|die|row|col|orientation``."""
    return f"{action.card}|{action.die}|{action.cell[0]}|{action.cell[1]}|{action.orientation}"


EVAL_MODES = ("chance", "karma")
EXACT_FROM_TURN = 3  # without the shipped tables, the solver answers from here on in milliseconds


class Evaluation(NamedTuple):
    """What the board shows about one position (every value exact, as a Fraction)."""

    win: Fraction | None  # the chance of winning with optimal play; None when out of reach
    values: dict  # action -> chance of winning after it (empty when out of reach)
    best: Action | None  # the best move by chance of winning (ties: the better expected Karma)
    karma: dict  # action -> the lookahead's expected Karma at the end of the turn
    karma_best: Action | None  # the lookahead bot's move
    note: str  # why there is no exact chance, or ""


class Evaluator:
    """Exact evaluations of positions, cached per position (a board asks again at every click).

    ``quick_only`` keeps every answer fast: a position before turn 3 is answered exactly only
    when the solver's shipped tables are installed (default rules); otherwise the evaluation
    says why and carries the lookahead's values only. :meth:`warm` computes such positions
    anyway (a turn-2 position takes seconds without the tables), for a lesson that prepares
    its line once.
    """

    def __init__(self, quick_only: bool = True, size: int = 4096):
        self.quick_only = quick_only
        self.size = size
        self._cache: dict[tuple, Evaluation] = {}

    def __call__(self, state: State) -> Evaluation:
        key = self.key(state)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._evaluate(state, quick_only=self.quick_only)
            self._store(key, cached)
        return cached

    def warm(self, states) -> None:
        """Evaluate ``states`` now, exactly even where that takes seconds (then cached)."""
        for state in states:
            key = self.key(state)
            cached = self._cache.get(key)
            if cached is None or (cached.win is None and state.status == ONGOING):
                self._store(key, self._evaluate(state, quick_only=False))

    @staticmethod
    def key(state: State) -> tuple:
        """What the evaluation depends on: the rules, the deck, the centre and the position the
        player can see (not the seeded future, which no player knows), so a position reached
        again by another route hits the cache."""
        if state.status != ONGOING:
            return ("over", state.status)
        if state.pending:  # a chance node of an explicit-chance game: keyed by the whole state (rare)
            return ("pending", state.to_json())
        centre = tuple(sorted(state.centre_cells.items()))
        return (state.rules, state.cards.name, centre, solver.position_of(state), state.revealed)

    def _store(self, key: tuple, evaluation: Evaluation) -> None:
        if len(self._cache) >= self.size:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = evaluation

    @staticmethod
    def _evaluate(state: State, quick_only: bool) -> Evaluation:
        if state.status != ONGOING:
            won = Fraction(int(state.status == "WON"))
            return Evaluation(won, {}, None, {}, None, "")
        karma = dict(lookahead_values(state)) if not state.pending else {}
        karma_best = lookahead_policy(state) if karma else None
        note = "" if not quick_only else out_of_quick_reach(state)
        values: dict = {}
        win = None
        if not note:
            try:
                values = solver.action_values(state)
                win = max(values.values()) if values else solver.win_probability(state)
            except (solver.OutOfReach, SolverTableError) as error:
                note, values = _short_reason(error), {}
        best = max(values, key=lambda a: (values[a], karma.get(a, 0))) if values else None
        return Evaluation(win, values, best, karma, karma_best, note)


def out_of_quick_reach(state: State) -> str:
    """Why the exact chance of this position would not come back at once ("" when it would)."""
    if state.turn >= EXACT_FROM_TURN:
        return ""
    if state.rules == Rules():
        try:
            solver.default_tables()
            return ""
        except NumpyMissing:
            return NO_NUMPY_NOTE
        except DamagedTable as error:
            return _short_reason(error)
        except SolverTableError:
            pass
    return (
        f"exact chance available from turn {EXACT_FROM_TURN}"
        + ("" if state.rules == Rules() else " under these rules")
        + " (earlier turns need the solver's shipped tables)"
    )


NO_NUMPY_NOTE = (
    f"exact chance not available here before turn {EXACT_FROM_TURN} (the solver's table needs numpy, "
    "which this Python does not have)"
)


def _short_reason(error: Exception) -> str:
    """The solver's refusal in a line for the page (the full message, with its file, stays in the log)."""
    if isinstance(error, NumpyMissing):
        return NO_NUMPY_NOTE
    if isinstance(error, DamagedTable):
        return (
            f"exact chance not available before turn {EXACT_FROM_TURN}: a data file of the solver is missing "
            "or damaged (reinstall the package; solver.default_tables() names it)"
        )
    if isinstance(error, SolverTableError):
        return f"exact chance available from turn {EXACT_FROM_TURN} (the solver's shipped tables are not installed)"
    return f"exact chance not available for this position under these rules ({type(error).__name__})"


def short_name(action: Action, state: State) -> str:
    """ "A5 on (2,3)", naming the die only when it is not the cheaper one."""
    text = f"{action.card} on ({action.cell[0]},{action.cell[1]})"
    cheapest = state.cheapest_die(action.card)
    if cheapest and cheapest[0] != action.die:
        text += f" with the {action.die.lower()} die"
    if action.orientation == 180:
        text += " turned 180°"
    return text


def percent(value: Fraction) -> str:
    """A chance as the page shows it: 81.2%."""
    return f"{float(value) * 100:.1f}%"


def points(loss: Fraction) -> str:
    """A loss of chance in percentage points: "−2.7 points" (finer when it rounds to zero)."""
    amount = float(loss) * 100
    digits = 1 if amount >= 0.05 else 2 if amount >= 0.005 else 3
    return f"−{amount:.{digits}f} points"


def chance_between(before: State, action: Action, after: State) -> str:
    """What chance did between ``before`` and ``after`` once ``action`` was placed ("" if nothing):
    "the new turn's cards and roll", "the new roll" (the stuck rule's reroll) or "the cards revealed"."""
    if after.status != ONGOING:
        return ""
    if after.turn != before.turn:
        return f"the cards and roll of turn {after.turn}"
    if after.roll != before.roll:
        return "the new roll"
    if set(after.revealed) != set(before.revealed) - {action.card}:
        return "the cards revealed"
    return ""


class MoveReview(NamedTuple):
    """One played move judged against the best one in its position."""

    action: Action
    cost: Fraction | None  # chance of winning lost against the best move (None: out of reach)
    best: Action | None
    karma_cost: Fraction | None  # expected Karma lost against the lookahead's move
    karma_best: Action | None
    text: str


def review_move(evaluation: Evaluation, state: State, action: Action) -> MoveReview:
    """What ``action`` cost in ``state``: "−2.7 points; best was A5 on (2,3)"."""
    played = short_name(action, state)
    karma_cost = None
    if evaluation.karma and action in evaluation.karma:
        karma_cost = evaluation.karma[evaluation.karma_best] - evaluation.karma[action]
    if evaluation.values:
        cost = evaluation.win - evaluation.values[action]
        if cost == 0:
            text = f"{played}: a best move (chance of winning {percent(evaluation.win)})"
        else:
            text = f"{played}: {points(cost)}; best was {short_name(evaluation.best, state)}"
        return MoveReview(action, cost, evaluation.best, karma_cost, evaluation.karma_best, text)
    if karma_cost is None:
        return MoveReview(action, None, None, None, None, f"{played}: not judged")
    lookahead = short_name(evaluation.karma_best, state)
    judged = (
        f"as good as the lookahead's move: expected Karma {_karma_text(evaluation.karma[action])} at the end of the turn"
        if karma_cost == 0
        else f"−{_karma_text(karma_cost)} expected Karma at the end of the turn; the lookahead played {lookahead}"
    )
    return MoveReview(
        action,
        None,
        None,
        karma_cost,
        evaluation.karma_best,
        f"{played}: {judged} (no exact chance before turn {EXACT_FROM_TURN})",
    )


def review_match(match: Match, evaluate: "Evaluator") -> list[MoveReview | None]:
    """Every recorded move of ``match`` (also those after the position shown), judged, one entry per
    recorded action; chance's own moves (a card revealed, dice rolled, under ``explicit_chance``) are
    not the player's, so their entries are None."""
    states = match.states
    return [
        None if states[i].current_player == core.CHANCE else review_move(evaluate(states[i]), states[i], action)
        for i, action in enumerate(match.recorded_actions)
    ]


class PanguBoard(BoardWidget):
    """A live Pangu game: ``PanguBoard(state)``, ``PanguBoard(match)`` or ``PanguBoard(seed=7, rules=...)``.

    ``viewer`` is the seat whose view is drawn (Pangu is solo: 0). ``bots`` maps seat 0 to a policy
    that then plays the whole game at once, leaving its history to step through. ``hints`` shows
    each legal action's value under the lookahead bot; ``label`` names the board in the page.
    """

    _esm = _ESM
    _css = _CSS
    hints = traitlets.Bool(False).tag(sync=True)  # show the evaluation (bar, values, move costs)
    eval_mode = traitlets.Unicode("chance").tag(sync=True)  # "chance" (exact, solver) or "karma" (lookahead)

    @traitlets.validate("eval_mode")
    def _valid_mode(self, proposal) -> str:
        """A mode set as a trait (``board.eval_mode = ...``) is checked like one picked on the page."""
        mode = proposal["value"]
        if mode not in EVAL_MODES:
            raise traitlets.TraitError(
                f"unknown evaluation {mode!r}: the board evaluates by 'chance' (of winning, "
                "exact) or 'karma' (expected, lookahead)"
            )
        return mode

    label = traitlets.Unicode("").tag(sync=True)  # names the board in the page (data-board), for tests and CSS

    def __init__(
        self,
        game_or_match: State | Match | None = None,
        *,
        seed: int | str | None = None,
        rules=None,
        viewer: int | None = None,
        bots: dict | None = None,
        label: str | None = None,
        hints: bool = False,
        eval_mode: str = "chance",
        evaluator: Evaluator | None = None,
    ):
        if viewer not in (None, 0):
            raise ValueError(f"Pangu is a solo game: the only seat to view is 0, not {viewer!r}")
        if game_or_match is None:
            game_or_match = new_game(seed=seed, rules=rules)
        elif seed is not None or rules is not None:
            raise ValueError("give either a game (or match) or seed/rules for a new one, not both")
        self._selection = {"card": None, "die": None, "orientation": 0}
        self._check_mode(eval_mode)
        self.evaluate = evaluator or Evaluator()
        super().__init__(game_or_match, hints=hints, eval_mode=eval_mode, label=label or "")
        self._play_bots(bots or {})
        self.observe(lambda _change: self.refresh(), names=["hints", "eval_mode"])

    @staticmethod
    def _check_mode(mode: Any) -> None:
        if mode not in EVAL_MODES:
            raise IllegalMove(f"unknown evaluation {mode!r}: 'chance' (of winning) or 'karma' (expected, lookahead)")

    def _play_bots(self, bots: dict) -> None:
        unknown = set(bots) - {0}
        if unknown:
            raise ValueError(f"Pangu is a solo game: bots can only take seat 0, not {sorted(unknown)}")
        if 0 in bots:
            core.play(
                self.match.state,
                bots[0],
                seed=self.match.state.seed,
                on_action=lambda _state, action: self.match.apply(action),
            )

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
        if kind == "eval_mode":
            self._check_mode(pick.get("mode"))
            self.eval_mode = pick["mode"]
            return
        if kind == "jump":
            self.match.jump(_as_index(pick.get("to")))
            return
        state = self.match.state
        if state.status != ONGOING:
            raise IllegalMove(f"the game is over ({state.status}): step back in the history to try another line")
        if state.pending:
            raise IllegalMove(
                f"the game waits for chance ({_CHANCE_WORDS[state.pending]}): give the outcome "
                f"with board.apply(...), one of state.chance_outcomes()"
            )
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

    # ------------------------------------------------------------ evaluation
    def evaluation(self, state: State | None = None) -> Evaluation:
        """The evaluation of ``state`` (default: the position shown), cached per position."""
        return self.evaluate(self.match.state if state is None else state)

    def hint_values(self) -> list[tuple[Action, Fraction]]:
        """Each legal action's exact expected Karma at the end of the turn (the lookahead bot's values)."""
        state = self.match.state
        if state.status != ONGOING:
            return []
        return list(self.evaluation(state).karma.items())

    def hint_best(self) -> Action | None:
        """The action the lookahead bot would play here."""
        return self.evaluation().karma_best if self.match.state.status == ONGOING else None

    def best_action(self) -> Action | None:
        """The marked best move: by exact chance of winning (mode "chance", when in reach) or the lookahead's."""
        evaluation = self.evaluation()
        if self.eval_mode == "chance" and evaluation.best is not None:
            return evaluation.best
        return evaluation.karma_best

    def reviews(self) -> list[MoveReview | None]:
        """Every move of the game so far (the whole recorded history), with its cost."""
        return review_match(self.match, self.evaluate)

    def review_text(self) -> str:
        """The review of the game, one line per move: what each cost and the best move there."""
        lines = [f"{i + 1:2}. {review.text}" for i, review in enumerate(self.reviews()) if review]
        return "\n".join(lines) if lines else "No move yet."

    def _evaluation_json(self, state: State) -> dict:
        evaluation = self.evaluation(state)
        data = {"mode": self.eval_mode, "exact": evaluation.win is not None, "note": evaluation.note}
        if evaluation.win is not None:
            data.update(win=float(evaluation.win), win_text=percent(evaluation.win), win_fraction=str(evaluation.win))
        if evaluation.karma_best is not None:
            data["karma_best_text"] = _karma_text(evaluation.karma[evaluation.karma_best])
        cards = {}
        for action, value in evaluation.values.items():
            cards[action.card] = max(cards.get(action.card, value), value)
        data["card_win"] = {card: percent(value) for card, value in cards.items()}
        karma_cards = {}
        for action, value in evaluation.karma.items():
            karma_cards[action.card] = max(karma_cards.get(action.card, value), value)
        data["card_karma"] = {card: _karma_text(value) for card, value in karma_cards.items()}
        index = self.match.index
        reviews = self.reviews()
        data["moves"] = [
            {
                "index": i + 1,
                "text": review.text,
                "current": i + 1 == index,
                "cost": None if review.cost is None else float(review.cost),
                "karma_cost": None if review.karma_cost is None else float(review.karma_cost),
            }
            for i, review in enumerate(reviews)
            if review
        ]
        last = reviews[index - 1] if index else None
        data["last_move"] = last.text if last else ""
        data["change"] = self._change_json(index) if evaluation.win is not None else None
        return data

    def _change_json(self, index: int) -> dict | None:
        """How the chance of winning moved from the position before the last move to this one, split
        into the player's part (the move: the best chance before it against the chance after it) and
        chance's part (the roll, the reroll or the cards revealed after it), so that a fall caused by
        the dice is never read as the player's fault. None at the start, or where not exact."""
        if not index:
            return None
        before_state, action, now_state = (
            self.match.states[index - 1],
            self.match.actions[index - 1],
            self.match.states[index],
        )
        if before_state.current_player == core.CHANCE or now_state.current_player == core.CHANCE:
            return None  # explicit chance: the roll is its own step in the history
        before = self.evaluation(before_state)
        now = self.evaluation(now_state).win
        if before.win is None or action not in before.values or now is None:
            return None
        after_move = before.values[action]
        what = chance_between(before_state, action, now_state)
        text = f"Before your move {percent(before.win)} → after your move {percent(after_move)}"
        if what:
            text += f" → {what}: {percent(now)} (chance, not your move)"
        return {
            "before": percent(before.win),
            "after_move": percent(after_move),
            "chance": what,
            "after_chance": percent(now) if what else None,
            "text": text,
        }

    # ------------------------------------------------------------ what the page draws
    def state_json(self, state: State) -> dict:
        seen = state.observation(0)
        placed = []
        last = state.placements()[-1] if state.placements() else None
        for view in seen["cells"]:
            if view["kind"] == "card":
                card = dict(
                    view["card"],
                    cell=view["cell"],
                    orientation=view["orientation"],
                    half=[view["half"][edge] for edge in EDGES],
                    last=bool(last and last.placed and list(last.cell) == view["cell"]),
                )
                placed.append(card)
        revealed = [self._revealed_json(state, view) for view in seen["revealed"]]
        data = {
            "rows": seen["rows"],
            "cols": seen["cols"],
            "centre": [{"cell": list(cell), "colour": colour} for cell, colour in state.centre_cells.items()],
            "placed": placed,
            "matches": _matches(seen),
            "empty": [view["cell"] for view in seen["cells"] if view["ring"] and view["kind"] == "empty"],
            "legal_cells": [view["cell"] for view in seen["cells"] if view["legal"]],
            "revealed": revealed,
            "dice": seen["dice"],
            "karma": state.karma,
            "starting_karma": seen["starting_karma"],
            "deck_count": seen["deck_count"],
            "turn": seen["turn"],
            "status": seen["status"],
            "allow_rotation": state.rules.allow_rotation,
            "rules_changed": {key: str(value) for key, value in state.rules.changes().items()},
            "last_event": self.last_event_text(state),
            "selection": self.selection,
            "hints_on": self.hints,
            "eval_mode": self.eval_mode,
        }
        if not self.hints:
            return data
        data["evaluation"] = self._evaluation_json(state)
        best = self.best_action() if state.status == ONGOING else None
        if best is not None:  # no hints while the game waits for chance: nothing to choose yet
            data["best_action"] = action_key(best)
            data["best_card"] = best.card
            data["hint_list"] = self._hint_lines(best)
        return data

    def _hint_lines(self, best: Action) -> list[str]:
        """The five best moves in words, by the evaluation shown."""
        evaluation = self.evaluation()
        if self.eval_mode == "chance" and evaluation.values:
            ranked = sorted(evaluation.values.items(), key=lambda pair: -pair[1])[:5]
            return [
                f"{action}: chance of winning {percent(value)}" + ("  ★ best" if action == best else "")
                for action, value in ranked
            ]
        ranked = sorted(evaluation.karma.items(), key=lambda pair: -pair[1])[:5]
        return [
            f"{action}: expected Karma {_karma_text(value)} at the end of the turn"
            + ("  ★ the bot's choice" if action == best else "")
            for action, value in ranked
        ]

    @staticmethod
    def _revealed_json(state: State, view: dict) -> dict:
        card = state.cards[view["id"]]
        costs = view.get("costs") or {}
        return dict(
            view,
            half=list(card.half),
            half_turned=[card.colour(edge, 180) for edge in EDGES],
            dice={die: {"legal": costs.get(die) is not None, "cost": costs.get(die)} for die in DICE},
            blocked=bool(costs) and all(cost is None for cost in costs.values()),
        )

    def legal_json(self, state: State) -> list:
        if state.status != ONGOING:
            return []
        evaluation = self.evaluation(state) if self.hints else None
        hints = evaluation.karma if evaluation else {}
        chances = evaluation.values if evaluation else {}
        # preview on what the player may know: with the deck order and future rolls hidden, a move
        # stops at the next draw or roll instead of playing out the seeded future (stuck rerolls)
        known = state.with_explicit_chance()
        moves = []
        for action in state.legal_actions():
            preview = known.preview(action)
            move = {
                "key": action_key(action),
                "card": action.card,
                "die": action.die,
                "cell": list(action.cell),
                "orientation": action.orientation,
                "cost": preview["cost"],
                "rec": preview["rec"],
                "gain": preview["gain"],
                "karma": preview["karma"],
                "status": preview["status"],
            }
            if action in hints:
                move["hint"] = float(hints[action])
                move["hint_text"] = _karma_text(hints[action])
            if action in chances:
                move["win"] = float(chances[action])
                move["win_text"] = percent(chances[action])
                move["win_fraction"] = str(chances[action])
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
            return (
                f"The game waits for chance ({_CHANCE_WORDS[state.pending]}): give the outcome with "
                "board.apply(...), one of state.chance_outcomes()."
            )
        card_id, die = self._selection["card"], self._selection["die"]
        if card_id is None:
            return "Pick one of the revealed cards."
        if die is None:
            return f"{card_id} is blocked by this roll: place the other cards first."
        return (
            f"Now pick a highlighted cell for {card_id} (the {die.lower()} die costs {state.cost(card_id, die)};"
            " click the other die to change)."
        )

    def text_fallback(self) -> str:
        state = self.match.state
        return f"{state}\n{self.last_event_text(state)}"


def _karma_text(value: Fraction) -> str:
    """An expected Karma for the page: whole numbers as such, others to two decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _as_index(value: Any) -> int:
    """A history position from the page (a whole number; anything else is refused with a reason)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(f"move {reprlib.repr(value)} does not exist: give a move number")
    return value


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
