"""An interactive Chakra board (anywidget): the Lotus board and every player's board, as SVG.

Python owns the rules. The page draws the JSON of :meth:`ChakraBoard.state_json` and reports
clicks through the ``pick`` trait; Python keeps the partly chosen action (``selection``), asks
the engine what may follow, and applies the finished action through the :class:`Match`, or
shows the engine's reason on the board. Everything a click does can be done headless by
assigning ``board.pick = {...}``; the pick kinds are:

``{"kind": "maya", "column": 0, "colour": "R"}``   add/remove an energy of a Maya column (Receive)
``{"kind": "level", "level": "GREEN"}``            where the picked energies go, or where a moving energy lands
``{"kind": "space", "space": "D3"}``               choose a channel space (Channel)
``{"kind": "energy", "level": "GREEN", "colour": "K"}``  the energy to move in the next step
``{"kind": "step", "index": 0}``                   one of the listed next steps
``{"kind": "swap", "colour": "Y"}``                the colour a SWAP takes from the bag
``{"kind": "meditate", "colour": "RED"}``          Meditate (``None`` when all 7 are held)
``{"kind": "cancel"}``, ``{"kind": "viewer", "seat": 1 | "all" | "auto"}``, ``{"kind": "bot"}``
and the history steps of the base class.
"""

from __future__ import annotations

import html
import random
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

from gamelib.core import CHANCE, IllegalMove, Match, sample_outcome
from gamelib.widgets import BoardWidget, assets
from gamelib.chakra.actions import Channel, Meditate, Receive, Step, completions, next_steps, swap_colours, walk
from gamelib.chakra.bots import greedy_policy
from gamelib.chakra.components import (
    BHAGYA,
    BLACK,
    CHAKRAS,
    COLOUR_NAMES,
    EARTH,
    LETTERS,
    LEVEL_NAMES,
    SPACE_EFFECTS,
    SPACE_PATTERNS,
    SPACE_WORDS,
    SPACES,
    colour_id,
    level_id,
    level_word,
    shown,
    space_id,
)
from gamelib.chakra.rules import new_game
from gamelib.chakra.view import describe_action, describe_step
from gamelib.chakra.view import text_board as view_text

HERE = Path(__file__).parent
# a space's words on the board, shortened where its 84-pixel box is too narrow for the full words
_BOARD_LABELS = {**SPACE_WORDS, "D1x3": "down 1, 3 times", "D2_D1": "down 2, down 1", "D1_U1": "down 1, up 1"}
_ESM, _CSS = assets(HERE / "board.js", HERE / "board.css")

TRACK_TOP_DOWN = (BHAGYA, 7, 6, 5, 4, 3, 2, 1)
"""The levels a player board draws, top to bottom (the Earth is drawn below them)."""


def _field(pick: dict, name: str):
    """The value of a pick's field; a pick without it gets a reason, not a KeyError."""
    if name not in pick:
        raise IllegalMove(f"this {shown(pick.get('kind'))} pick needs a {name!r}")
    return pick[name]


def _whole_number(pick: dict, name: str, low: int, high: int, what: str) -> int:
    value = _field(pick, name)
    if type(value) is not int or not low <= value <= high:
        raise IllegalMove(f"there is no {what} {shown(value)}: pick one from {low} to {high}")
    return value


def _seat_number(seat, players: int) -> int:
    """A seat from a pick: a number, or its digits as the page's seat menu sends them ("1")."""
    if isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) <= 2:
        seat = int(seat)
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalMove(f"there is no seat {shown(seat)}: the seats are 0 to {players - 1}")
    return seat


def letters(colours) -> list[str]:
    return [LETTERS[c] for c in colours]


class ChakraBoard(BoardWidget):
    """Play Chakra by clicking. ``game_or_match`` is a state or a :class:`Match` (a new game from
    ``seed`` and ``rules`` when None); ``bots`` maps seats to policies that answer automatically.

    ``viewer`` is whose knowledge the board shows: a seat, ``"all"`` (every plenitude value),
    or ``"auto"``/None (the player to move; with bots, the first human seat). ``label`` names
    the board for screen readers.
    """

    _esm = _ESM
    _css = _CSS

    def __init__(
        self,
        game_or_match: Match | Any = None,
        *,
        seed=None,
        rules=None,
        viewer: int | str | None = None,
        bots: dict[int, Callable] | None = None,
        label: str | None = None,
        bot_seed: int = 0,
        names: list[str] | None = None,
        **kwargs,
    ):
        if game_or_match is None:
            game_or_match = new_game(seed=0 if seed is None else seed, rules=rules)
        self.bots = dict(bots or {})
        self.bot_seed = bot_seed
        self.viewer = "auto" if viewer is None else viewer
        self.names = names
        self.label = label or "Chakra board"
        self.selection: dict = {}
        self._selection_for = None  # the state the selection was made on
        self._deferred: list | None = None  # refreshes asked for while one update runs (see one_redraw)
        super().__init__(game_or_match, **kwargs)

    # ------------------------------------------------------------------ one redraw per update
    def refresh(self, message: str | None = None, kind: str = "info") -> None:
        if self._deferred is not None:
            self._deferred.append((message, kind))
            return
        super().refresh(message, kind)

    @contextmanager
    def one_redraw(self):
        """Collect the refreshes of one update (a move, its chance draws, the bots' answers) into one."""
        if self._deferred is not None:
            yield
            return
        self._deferred = []
        try:
            yield
        finally:
            asked, self._deferred = self._deferred, None
            if asked:
                self.refresh(*asked[-1])

    def legal_json(self, state) -> list:
        """Nothing: the page highlights from ``state["hints"]``, so the list of actions is not sent."""
        return []

    # ------------------------------------------------------------------ whose view
    @property
    def viewing_seat(self) -> int | None:
        """The seat whose observation is drawn (None = everything)."""
        state = self.match.state
        if self.viewer == "all":
            return None
        if self.viewer == "auto":
            humans = [seat for seat in range(state.num_players) if seat not in self.bots]
            if self.bots and humans:
                return humans[0]
            return state.to_move
        return int(self.viewer)

    def seat_name(self, seat: int) -> str:
        if self.names:
            return self.names[seat]
        return f"Seat {seat}" + (" (bot)" if seat in self.bots else "")

    # ------------------------------------------------------------------ drawing data
    def state_json(self, state) -> dict:
        if self._selection_for is not state:
            self.selection, self._selection_for = {}, state
        seat = self.viewing_seat
        view = state.observation(seat) if seat is not None else None
        plenitude = (
            view["plenitude"] if view else {COLOUR_NAMES[level]: state.plenitude[level - 1] for level in CHAKRAS}
        )
        preview = self._preview(state)
        data = {
            "label": self.label,
            "to_move": state.to_move,
            "phase": "over" if state.is_terminal else ("chance" if state.current_player == CHANCE else "play"),
            "viewer": seat,
            "viewer_choice": str(self.viewer),
            "names": [self.seat_name(p) for p in range(state.num_players)],
            "plenitude": [
                {"colour": COLOUR_NAMES[level], "letter": LETTERS[level], "value": plenitude[COLOUR_NAMES[level]]}
                for level in CHAKRAS
            ],
            "unused": view["unused_plenitude"] if view else state.unused_plenitude,
            "maya": [letters(column) for column in state.maya],
            "bag": {LETTERS[c]: n for c, n in enumerate(state.bag)},
            "bag_total": sum(state.bag),
            "end_triggered": state.end_triggered,
            "turns": list(state.turns),
            "players": [
                self._player_json(state, p, preview if p == state.to_move else None) for p in range(state.num_players)
            ],
            "last_action": self._last_action_text(),
            "spaces": [{"id": space, "name": _BOARD_LABELS[space], "effect": SPACE_EFFECTS[space]} for space in SPACES],
            "selection": self._selection_json(),
            "hints": self._hints(state),
            "bots": sorted(self.bots),
        }
        if state.is_terminal:
            data["scores"] = state.scores()
            data["winners"] = list(state.winners)
        return data

    def _player_json(self, state, seat: int, preview: dict | None) -> dict:
        board = state.players[seat]
        levels = preview["levels"] if preview else board.levels
        return {
            "seat": seat,
            "levels": {LEVEL_NAMES[level]: letters(levels[level]) for level in TRACK_TOP_DOWN},
            "harmonized": [LEVEL_NAMES[level] for level in board.harmonized_levels()],
            "earth": preview["earth"] if preview else board.earth,
            "reserve": board.reserve,
            "spaces": [space for space in SPACES if space in board.spaces],
            "notches": [LEVEL_NAMES[level] for level in sorted(board.notches)],
            "meditation": letters(board.meditation),
            "run": board.run(),
            "moved": preview["moved"] if preview else [],
        }

    def _last_action_text(self) -> str:
        if not self.match.actions:
            return ""
        before = self.match.states[self.match.index - 1]
        return f"{self.seat_name(before.to_move)}: {describe_action(self.match.actions[-1])}"

    def _selection_json(self) -> dict:
        sel = self.selection
        out = {"mode": sel.get("mode")}
        if sel.get("mode") == "receive":
            out.update(column=sel["column"], colours=letters(sorted(sel["colours"])))
        elif sel.get("mode") == "channel":
            out.update(space=sel["space"], prefix=[str(step) for step in sel["prefix"]])
            if sel.get("energy"):
                level, colour = sel["energy"]
                out["energy"] = {"level": LEVEL_NAMES[level], "colour": LETTERS[colour]}
        return out

    def _hints(self, state) -> dict:
        """What the page may highlight: always derived from the engine's legal actions."""
        if state.is_terminal or state.current_player == CHANCE:
            return {}
        legal = state.legal_actions()
        hints: dict = {
            "maya": [
                sorted({LETTERS[c] for a in legal if isinstance(a, Receive) and a.column == column for c in a.colours})
                for column in range(3)
            ],
            "spaces": sorted({a.space for a in legal if isinstance(a, Channel)}, key=SPACES.index),
            "meditate": [
                ("NONE" if a.colour is None else COLOUR_NAMES[a.colour]) for a in legal if isinstance(a, Meditate)
            ],
        }
        sel = self.selection
        if sel.get("mode") == "receive":
            hints["destinations"] = [
                LEVEL_NAMES[a.destination]
                for a in legal
                if isinstance(a, Receive) and a.column == sel["column"] and a.colours == frozenset(sel["colours"])
            ]
        elif sel.get("mode") == "channel" and sel["space"] == "SWAP":
            hints["swap"] = letters(swap_colours(state))
        elif sel.get("mode") == "channel":
            steps = self._next_steps(state)
            hints["steps"] = [self._step_json(state, i, step) for i, step in enumerate(steps)]
            if sel.get("energy"):
                hints["targets"] = [
                    entry["to"]
                    for entry in hints["steps"]
                    if (level_id(entry["level"]), colour_id(entry["colour"])) == sel["energy"]
                ]
        return hints

    def _step_json(self, state, index: int, step: Step) -> dict:
        levels = self._preview(state)["levels"]
        landing, _ = walk(levels, step.level, step.colour, step.direction, step.distance)
        return {
            "index": index,
            "level": LEVEL_NAMES[step.level],
            "colour": LETTERS[step.colour],
            "direction": "up" if step.direction > 0 else "down",
            "distance": step.distance,
            "to": LEVEL_NAMES[landing],
            "text": f"{step} → {LEVEL_NAMES[landing]}",
        }

    def _preview(self, state) -> dict:
        """The acting player's track after the steps chosen so far (drawn while a Channel is built)."""
        board = state.players[state.to_move]
        levels = [list(contents) for contents in board.levels]
        earth, moved, landed = board.earth, [], []
        for step in self.selection.get("prefix", ()):
            landing, _ = walk(levels, step.level, step.colour, step.direction, step.distance)
            levels[step.level].remove(step.colour)
            if landing == EARTH:
                earth += 1
            else:
                levels[landing].append(step.colour)
            landed.append((landing, step.colour))
            moved.append({"from": LEVEL_NAMES[step.level], "to": LEVEL_NAMES[landing], "colour": LETTERS[step.colour]})
        return {
            "levels": tuple(tuple(sorted(contents)) for contents in levels),
            "earth": earth,
            "moved": moved,
            "landed": landed,
        }

    def _next_steps(self, state) -> list[Step]:
        return next_steps(state, self.selection["space"], tuple(self.selection["prefix"]))

    def describe(self, state) -> str:
        if state.is_terminal:
            scores = state.scores()
            best = ", ".join(self.seat_name(p) for p in state.winners)
            verb = "wins" if len(state.winners) == 1 else "share the victory"
            return f"Game over. Scores {' – '.join(map(str, scores))}: {best} {verb}."
        who = self.seat_name(state.to_move)
        sel = self.selection
        if sel.get("mode") == "receive":
            return (
                f"{who}: column {sel['column']}, {'+'.join(letters(sorted(sel['colours'])))} picked. "
                "Pick more energies of that column, or click where they go: a Bhagya bubble or a chakra."
            )
        if sel.get("mode") == "channel" and sel["space"] == "SWAP":
            return f"{who}: swap gives up an alleviated black. Pick the colour to take from the bag."
        if sel.get("mode") == "channel":
            done = ", then ".join(describe_step(step) for step in sel["prefix"])
            return (
                f"{who}: {_space_words(sel['space'])} moves {SPACE_EFFECTS[sel['space']]}. "
                + (f"So far: {done}. " if done else "")
                + "Pick the energy to move (highlighted)."
            )
        return f"{who} to play: take energies from a Maya column, pick a channel space, or meditate."

    # ------------------------------------------------------------------ picks
    def handle_pick(self, pick: dict) -> str | None:
        handlers = {
            "maya": self._pick_maya,
            "level": self._pick_level,
            "space": self._pick_space,
            "energy": self._pick_energy,
            "step": self._pick_step,
            "swap": self._pick_swap,
            "meditate": self._pick_meditate,
            "cancel": self._pick_cancel,
            "viewer": self._pick_viewer,
            "bot": self._pick_bot,
        }
        kind = pick.get("kind")
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalMove(f"the board does not know the pick {shown(kind)}")
        return handler(pick)

    def _playable(self) -> Any:
        state = self.match.state
        if state.is_terminal:
            raise IllegalMove("the game is over: step back in the history to look at earlier moves")
        if state.to_move in self.bots:
            raise IllegalMove(f"it is {self.seat_name(state.to_move)}'s turn: press “Bot move”")
        return state

    def _check_seat(self, pick: dict, state) -> None:
        seat = pick.get("seat", state.to_move)
        if seat is not None and _seat_number(seat, state.num_players) != state.to_move:
            raise IllegalMove(f"it is {self.seat_name(state.to_move)}'s turn: use that player's board")

    def _pick_maya(self, pick: dict) -> str | None:
        state = self._playable()
        column, colour = _whole_number(pick, "column", 0, 2, "Maya column"), colour_id(_field(pick, "colour"))
        if colour not in state.maya[column]:
            raise IllegalMove(f"Maya column {column} has no {COLOUR_NAMES[colour].lower()} energy")
        sel = self.selection
        if sel.get("mode") != "receive" or sel["column"] != column:
            sel = {"mode": "receive", "column": column, "colours": set()}
        sel["colours"] ^= {colour}
        self.selection = sel if sel["colours"] else {}
        return self._redraw()

    def _pick_level(self, pick: dict) -> str | None:
        state = self._playable()
        self._check_seat(pick, state)
        level = level_id(_field(pick, "level"))
        sel = self.selection
        if sel.get("mode") == "receive":
            return self._apply(Receive(sel["column"], sel["colours"], level))
        if sel.get("mode") == "channel" and sel.get("energy"):
            candidates = [
                step
                for step in self._next_steps(state)
                if (step.level, step.colour) == sel["energy"] and self._landing(state, step) == level
            ]
            if not candidates:
                raise IllegalMove(
                    f"the chosen energy cannot land on {level_word(level)} with {_space_words(sel['space'])}"
                )
            return self._add_step(state, candidates[0])
        raise IllegalMove("first pick energies in a Maya column (to receive) or a channel space (to move energies)")

    def _pick_space(self, pick: dict) -> str | None:
        state = self._playable()
        self._check_seat(pick, state)
        space = space_id(_field(pick, "space"))
        if space not in {a.space for a in state.legal_actions() if isinstance(a, Channel)}:
            raise IllegalMove(self._why_space_is_closed(state, space))
        self.selection = {"mode": "channel", "space": space, "prefix": []}
        return self._redraw()

    def _why_space_is_closed(self, state, space: str) -> str:
        """The engine's reason when it has one (token, occupied); otherwise chakra.md#channel in words."""
        board = state.players[state.to_move]
        if board.reserve < 1 or space in board.spaces or space == "SWAP":
            try:
                state.apply(Channel(space, (), BLACK if space == "SWAP" else None))
            except IllegalMove as error:
                return error.reason
        return (
            f"{_space_words(space)} ({SPACE_EFFECTS[space]}) cannot be carried out in full on this board, "
            "and a space whose moves cannot all be made cannot be chosen"
        )

    def _pick_energy(self, pick: dict) -> str | None:
        state = self._playable()
        self._check_seat(pick, state)
        sel = self.selection
        if sel.get("mode") != "channel" or sel["space"] == "SWAP":
            raise IllegalMove("to move an energy, first pick a channel space on your board")
        energy = (level_id(_field(pick, "level")), colour_id(_field(pick, "colour")))
        candidates = [step for step in self._next_steps(state) if (step.level, step.colour) == energy]
        if not candidates:
            raise IllegalMove(self._why_energy_cannot_move(state, energy))
        if len({self._landing(state, step) for step in candidates}) == 1:
            return self._add_step(state, candidates[0])
        sel["energy"] = energy
        return self._redraw(f"Now click where the {COLOUR_NAMES[energy[1]].lower()} energy goes (highlighted).")

    def _why_energy_cannot_move(self, state, energy: tuple) -> str:
        """The rule that stops this energy: locked, already moved, or the engine's walk reason."""
        sel = self.selection
        level, colour = energy
        board = state.players[state.to_move]
        if level == EARTH:
            return "energies in the Earth cannot move"
        if board.harmonized(level):
            return "energies of a harmonized chakra cannot move"
        preview = self._preview(state)
        levels = preview["levels"]
        landed = preview["landed"].count((level, colour))
        if levels[level].count(colour) <= landed:
            return "this energy has already moved in this action"
        depth = len(sel["prefix"])
        done = tuple((step.direction, step.distance) for step in sel["prefix"])
        for pattern in SPACE_PATTERNS[sel["space"]]:
            if pattern[:depth] == done:
                _, reason = walk(levels, level, colour, *pattern[depth])
                if reason:
                    return reason
        return f"moving this energy now would leave the rest of {_space_words(sel['space'])} impossible to carry out"

    def _pick_step(self, pick: dict) -> str | None:
        state = self._playable()
        if self.selection.get("mode") != "channel":
            raise IllegalMove("pick a channel space first")
        steps = self._next_steps(state)
        index = _whole_number(pick, "index", 0, len(steps) - 1, "offered step") if steps else -1
        if not 0 <= index < len(steps):
            raise IllegalMove("that step is no longer on offer")
        return self._add_step(state, steps[index])

    def _add_step(self, state, step: Step) -> str | None:
        sel = self.selection
        sel["prefix"] = sel["prefix"] + [step]
        sel.pop("energy", None)
        finished = [
            a for a in completions(state, sel["space"], tuple(sel["prefix"])) if len(a.steps) == len(sel["prefix"])
        ]
        if finished:
            return self._apply(finished[0])
        return self._redraw()

    def _landing(self, state, step: Step) -> int:
        landing, _ = walk(self._preview(state)["levels"], step.level, step.colour, step.direction, step.distance)
        return landing

    def _pick_swap(self, pick: dict) -> str | None:
        self._playable()
        return self._apply(Channel("SWAP", (), colour_id(_field(pick, "colour"))))

    def _pick_meditate(self, pick: dict) -> str | None:
        self._playable()
        colour = pick.get("colour")
        return self._apply(Meditate(None if colour in (None, "NONE") else colour))

    def _pick_cancel(self, pick: dict) -> str | None:
        self.selection = {}
        return self._redraw()

    def _pick_viewer(self, pick: dict) -> str | None:
        seat = pick.get("seat", "auto")
        if not (isinstance(seat, str) and seat in ("auto", "all")):
            seat = _seat_number(seat, self.match.state.num_players)
        self.viewer = seat
        return self._redraw()

    def _pick_bot(self, pick: dict) -> str | None:
        if self.match.state.is_terminal:
            raise IllegalMove("the game is over")
        human_seat = self.match.state.to_move not in self.bots
        with self.one_redraw():
            self.play_bot_turn()
            if human_seat:  # the bot played for a human: the bot seats answer, as after a click
                self.play_bots()
        return None

    # ------------------------------------------------------------------ acting
    def _redraw(self, message: str | None = None) -> str:
        """The message to show after the selection changed (the base class then redraws)."""
        return message if message is not None else self.describe(self.match.state)

    def _apply(self, action) -> None:
        """Apply a finished action through the Match, then let the bot seats answer.

        An illegal action raises before anything changes, so the selection stays and the
        base class shows the engine's reason."""
        with self.one_redraw():
            self.match.apply(action)
            self._resolve_chance()
            self.play_bots()

    def _resolve_chance(self) -> None:
        """States built with explicit chance stop at refills; the board draws them from a seeded generator."""
        while self.match.state.current_player == CHANCE:
            rng = random.Random(f"{self.bot_seed}:{self.match.index}")
            self.match.apply(sample_outcome(self.match.state.chance_outcomes(), rng))

    def policy_for(self, seat: int) -> Callable:
        return self.bots.get(seat, greedy_policy)  # greedy: the "Bot move" button for a human seat

    def play_bot_turn(self) -> None:
        """The player to move plays their bot's (or the greedy bot's) choice."""
        state = self.match.state
        rng = random.Random(f"{self.bot_seed}:{self.match.index}")
        self.match.apply(self.policy_for(state.to_move)(state, rng))
        self._resolve_chance()

    def play_bots(self) -> None:
        """Let the bot seats play until a human is to move or the game ends."""
        while not self.match.state.is_terminal and self.match.state.to_move in self.bots:
            self.play_bot_turn()

    # ------------------------------------------------------------------ fallbacks
    def text_fallback(self) -> str:
        return view_text(self.match.state, self.viewing_seat)

    def _repr_html_(self) -> str:
        return f"<pre class='gamelib-fallback ck-fallback'>{html.escape(self.text_fallback())}</pre>"


def _space_words(space: str) -> str:
    """A channel space as a player names it: 'the space \u201cdown 1, three times\u201d'."""
    return f"the space \u201c{SPACE_WORDS[space]}\u201d"
