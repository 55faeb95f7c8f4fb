"""The shared base of every game board (anywidget).

Python owns the rules: it sends the state as JSON, the legal moves and a message;
JavaScript draws them and reports what the user picked by setting the ``pick``
trait. Python then applies the pick through the game's :class:`~gamelib.core.Match`,
or shows the engine's reason on the board. A headless test can do exactly what a
click does by assigning ``board.pick = {...}``.

The JavaScript of a board is ``common.js`` (helpers for SVG, the message line and the
history bar) followed by the game's own module; the CSS is ``board.css`` followed by
the game's own sheet. Both are real files, read once at import.
"""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from gamelib.core import IllegalMove, Match

HERE = Path(__file__).parent


def assets(js_file: Path, css_file: Path | None = None) -> tuple[str, str]:
    """The ESM and CSS text of a board: the shared helpers first, then the game's own."""
    js = (HERE / "common.js").read_text(encoding="utf-8") + "\n" + Path(js_file).read_text(encoding="utf-8")
    css = (HERE / "board.css").read_text(encoding="utf-8")
    if css_file is not None:
        css += "\n" + Path(css_file).read_text(encoding="utf-8")
    return js, css


class BoardWidget(anywidget.AnyWidget):
    """A game board driven by a :class:`Match`; subclasses say how to draw and what a pick means."""

    state = traitlets.Dict().tag(sync=True)
    legal = traitlets.List().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    message_kind = traitlets.Unicode("info").tag(sync=True)
    history = traitlets.Dict().tag(sync=True)
    pick = traitlets.Dict().tag(sync=True)
    playtest = traitlets.Dict().tag(
        sync=True
    )  # the recording's panel (see record() and buildPlaytestPanel in common.js)

    def __init__(self, match: Match | Any, **kwargs):
        if not isinstance(match, Match):
            match = Match(match)
        super().__init__(**kwargs)
        self.match = match
        self.match.observe(lambda _match: self.refresh())
        self.observe(self._on_pick, names="pick")
        self.refresh()

    # ------------------------------------------------------------ to override
    def state_json(self, state: Any) -> dict:
        """The JSON the JavaScript draws (the viewing player's observation)."""
        raise NotImplementedError

    def legal_json(self, state: Any) -> list:
        """The legal moves, in a form the JavaScript can highlight."""
        return [str(action) for action in state.legal_actions()] if not state.is_terminal else []

    def handle_pick(self, pick: dict) -> str | None:
        """Act on a pick that is not a history step; return a message, or raise IllegalMove."""
        raise NotImplementedError

    def describe(self, state: Any) -> str:
        """One line on what just happened, shown under the board."""
        return ""

    # ------------------------------------------------------------ machinery
    @property
    def game_state(self) -> Any:
        return self.match.state

    def refresh(self, message: str | None = None, kind: str = "info") -> None:
        """Send the current state, legal moves and history position to the page."""
        state = self.match.state
        with self.hold_sync():  # one message to the page, so the page redraws once (see listen() in common.js)
            self.state = self.state_json(state)
            self.legal = self.legal_json(state)
            self.history = {
                "index": self.match.index,
                "length": self.match.length,
                "can_back": self.match.can_step_back,
                "can_forward": self.match.can_step_forward,
            }
            self.message = self.describe(state) if message is None else message
            self.message_kind = kind

    def apply(self, action: Any) -> Any:
        """Apply an action as if clicked; an illegal one shows its reason and raises."""
        try:
            return self.match.apply(action)
        except IllegalMove as error:
            self.refresh(error.reason, "error")
            raise

    def _on_pick(self, change: dict) -> None:
        pick = dict(change["new"] or {})
        pick.pop("nonce", None)
        if not pick:
            return
        try:
            if pick.get("kind") == "history":
                self._step_history(pick.get("to", ""))
                return
            if pick.get("kind") in ("survey", "skip_survey"):
                self._take_survey(pick)
                return
            message = self.handle_pick(pick)
            if message is not None:
                self.refresh(message)
        except IllegalMove as error:
            self.refresh(error.reason, "error")

    def _step_history(self, where: str) -> None:
        steps = {
            "start": self.match.to_start,
            "back": self.match.step_back,
            "forward": self.match.step_forward,
            "end": self.match.to_end,
        }
        if not isinstance(where, str) or where not in steps:
            raise IllegalMove(f"unknown history step {where!r}")
        steps[where]()

    # ------------------------------------------------------------ playtests
    def record(self, path: str | Path | None = None, *, seats=None, folder: str | Path = "playtests"):
        """Record the games played on this board into a playtest file (see :mod:`gamelib.design.playtests`).

        ``seats`` names who sits where (None, or None for a seat: an anonymous code); ``path`` defaults
        to a new file in ``folder``. When a game ends the board asks its short survey. Returns the recorder.
        """
        from gamelib.design.playtests import PlaytestRecorder, anonymous_code, game_module_of

        if path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            path = Path(folder) / f"{game_module_of(self.match.state).GAME}-{stamp}-{anonymous_code()[5:]}.jsonl"
        self.recorder = PlaytestRecorder(self.match, path, seats=seats, bots=lambda: getattr(self, "bots", None) or {})
        self._watch_playtest(self.match)
        self._show_playtest()
        return self.recorder

    def _watch_playtest(self, match: Match) -> None:
        """Redraw the playtest panel after the recorder has seen each change of ``match`` (it listens first)."""
        match.observe(lambda changed: self._show_playtest() if changed is self.match else None)

    def _show_playtest(self) -> None:
        recorder = getattr(self, "recorder", None)
        if recorder is None:
            return
        self.playtest = {
            "recording": True,
            "file": recorder.path.name,
            "game": recorder.game_number,
            "finished": len(recorder.finished),
            "survey": recorder.awaiting_survey,
            "seats": [seat["player"] for seat in recorder.seats],
            "problem": recorder.problem,
        }

    def _take_survey(self, pick: dict) -> None:
        recorder = getattr(self, "recorder", None)
        if recorder is None or recorder.awaiting_survey is None:
            raise IllegalMove("there is no survey to answer: it comes when a recorded game ends")
        from gamelib.design.playtests import SURVEY_QUESTIONS  # lazily: gamelib.design needs numpy, a board does not

        answers = (
            {} if pick["kind"] == "skip_survey" else {key: pick.get(key) for key in (*SURVEY_QUESTIONS, "comment")}
        )
        try:
            recorder.survey(answers)
        except ValueError as problem:
            raise IllegalMove(str(problem)) from None
        self._show_playtest()
        self.refresh("Thank you: the survey is saved in " + recorder.path.name + ".")

    # ------------------------------------------------------------ fallbacks
    def text_fallback(self) -> str:
        return str(self.match.state)

    def _repr_html_(self) -> str:
        return f"<pre class='gamelib-fallback'>{html.escape(self.text_fallback())}</pre>"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(move {self.match.index} of {self.match.length})"
