"""One board for any contract game (anywidget): the position, the legal moves as buttons, the log.

``Board(pig)`` plays a studio game (or any game on the contract) with no JavaScript from the
student. Python keeps every rule; the page draws :meth:`Board.state_json` and reports clicks
through the ``pick`` trait:

* ``{"kind": "move", "index": 2, "ply": 7}`` -- play the third of ``legal_actions()`` (``ply``, the
  number of moves the page showed, refuses a click on a position that has changed since);
* ``{"kind": "reveal"}`` -- the next player has the screen (hot-seat with hidden information);
* ``{"kind": "chance"}`` -- let chance act where the history stands on a chance event;
* ``{"kind": "bots"}`` -- let the bots play on from a position stepped back to;
* ``{"kind": "undo"}`` -- take back the last person's move (and the chance and bot moves after it);
* ``{"kind": "new_game"}`` -- a new game under the same rules (the next seed);
* the history steps and the playtest survey of the base class.

Chance is shown as it happens: the board plays the game with ``explicit_chance=True`` and draws
each outcome itself from the game's seed and the move number (so an undo cannot re-roll a die),
and the log names it with its probability. Seats are people (hot-seat, 1-4 on one screen) or bots
(``bots={1: policy}``). When the game hides information, each person sees only their own
``observation(seat)``, in the position and in the log, and the board asks to pass the screen
between two people.
"""

from __future__ import annotations

import random
import reprlib
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import traitlets

from gamelib.core import CHANCE, IllegalMove, Match, chance_rng, sample_outcome
from gamelib.widgets import BoardWidget, assets
from gamelib.widgets.drawing import DrawingError, sanitize_drawing

HERE = Path(__file__).parent
_ESM, _CSS = assets(HERE / "board.js", HERE / "board.css")

MAX_AUTOMATIC_ACTIONS = 10_000  # bots and chance in a row before the board stops and says so
MAX_LOG_SHOWN = 200
MAX_COMPARED_OUTCOMES = 64  # a log line is hidden when more alternatives than this would have to be compared


def _default_game():
    from gamelib.studio.examples import pig

    return pig


def _is_game(value: Any) -> bool:
    """A game module or a studio Game class (something with new_game), not a state or a match."""
    return (
        callable(getattr(value, "new_game", None))
        and not hasattr(value, "legal_actions")
        and not isinstance(value, Match)
    )


def starting_match(game_or_match: Any, seed: Any, rules: Any) -> Match:
    """The board's match: a new game of a game module/class (explicit chance, so the board shows it),
    or the given state or match as it is."""
    if game_or_match is None:
        game_or_match = _default_game()
    if _is_game(game_or_match):
        return Match(game_or_match.new_game(seed=seed, rules=rules, explicit_chance=True))
    if seed is not None or rules is not None:
        raise ValueError("give either a game (or a state or match) or seed/rules for a new one, not both")
    return game_or_match if isinstance(game_or_match, Match) else Match(game_or_match)


def _game_of(state: Any) -> Any:
    """What makes new games like ``state``: a studio game's class, or a contract game's module."""
    game_class = getattr(type(state), "_game_class", None)
    if game_class is not None:
        return game_class
    from gamelib.design.playtests import game_module_of

    try:
        return game_module_of(state)
    except ValueError:
        return None  # a state of a class outside any game module: it plays, but "New game" cannot make another


def _players(state: Any) -> int:
    players = getattr(state, "players", None)
    return players if type(players) is int else len(state.returns())


def _label(state: Any, action: Any) -> str:
    """A move's button text: the game's ``action_label`` (its ``str`` when it has none or it fails)."""
    label = getattr(state, "action_label", None)
    if callable(label):
        try:
            text = label(action)
        except Exception:  # noqa: BLE001 - a student's broken label still leaves a button to press
            text = None
        if isinstance(text, str):
            return text
    return str(action)


def _shown(describe: Callable[[], str]) -> str:
    """A text of the game's own code, or why it cannot be shown (a student's show() that fails)."""
    try:
        text = describe()
    except Exception as error:  # noqa: BLE001 - the board must still draw, and say what went wrong
        return f"(the position cannot be shown: {type(error).__name__}: {error})"
    return text if isinstance(text, str) else f"(the position cannot be shown: got {type(text).__name__}, not text)"


def _fraction_text(probability: Any) -> str:
    return str(Fraction(probability))


class Board(BoardWidget):
    """A live game of any contract game: ``Board(pig)``, ``Board(state)``, ``Board(match)``,
    ``Board(pig, seed=3, rules={"goal": 50})``.

    ``bots`` maps seats to policies ``(state, rng) -> action``; the other seats are people taking
    turns at one screen. ``names`` names the seats; ``viewer`` fixes whose view is drawn (default:
    the person to move). ``label`` names the board in the page (``data-board``).
    """

    _esm = _ESM
    _css = _CSS
    label = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        game_or_match: Any = None,
        *,
        seed: Any = None,
        rules: Any = None,
        viewer: int | None = None,
        bots: dict[int, Callable] | None = None,
        label: str | None = None,
        names: list[str] | None = None,
        bot_seed: int = 0,
    ):
        match = starting_match(game_or_match, seed, rules)
        state = match.state
        self.seats = _players(state)
        self.bots = dict(bots or {})
        for seat in self.bots:
            if type(seat) is not int or not 0 <= seat < self.seats:
                raise ValueError(f"bots take seats 0 to {self.seats - 1}, not {seat!r}")
        if names is not None and (
            len(names) != self.seats or not all(isinstance(name, str) and name.strip() for name in names)
        ):
            raise ValueError(f"names gives one name per seat ({self.seats} here), not {names!r}")
        if viewer is not None and (type(viewer) is not int or not 0 <= viewer < self.seats):
            raise ValueError(f"viewer is a seat from 0 to {self.seats - 1}, not {viewer!r}")
        self.names = list(names) if names is not None else None
        self.viewer = viewer
        self.bot_seed = bot_seed
        self.game_module = game_or_match if _is_game(game_or_match) else _game_of(state)
        self.game_name = str(
            getattr(self.game_module, "GAME", None) or getattr(self.game_module, "name", None) or type(state).__name__
        )
        self._revealed_to: int | None = None  # the person who has the screen (hot-seat with hidden information)
        self._last_viewer: int | None = None
        self._quiet = False
        self._visible_cache: dict = {}
        self._games_played = 0
        super().__init__(match, label=label or "")
        self._advance()

    # ------------------------------------------------------------ seats and views
    @property
    def hides_information(self) -> bool:
        return bool(getattr(self.match.state, "hides_information", False))

    @property
    def humans(self) -> list[int]:
        return [seat for seat in range(self.seats) if seat not in self.bots]

    def seat_name(self, seat: int) -> str:
        if self.names:
            return self.names[seat]
        if seat in self.bots:
            return f"Bot {seat} ({getattr(self.bots[seat], '__name__', 'policy')})"
        return f"Seat {seat}"

    def viewing_seat(self, state: Any | None = None) -> int | None:
        """Whose view is drawn: None (everything) when nothing is hidden from anyone at the table."""
        state = self.match.state if state is None else state
        if not self.hides_information:
            return None  # (a game that hides information keeps hiding it after the end: a fold shows no cards)
        if self.viewer is not None:
            return self.viewer
        if not self.humans:
            return None
        mover = state.current_player
        if mover >= 0 and mover not in self.bots:
            return mover
        return self._last_viewer if self._last_viewer is not None else self.humans[0]

    def covered(self, state: Any | None = None) -> int | None:
        """The seat the screen must be passed to before anything is shown (hot-seat, hidden information)."""
        seat = self.viewing_seat(state)
        if seat is None or self.viewer is not None or len(self.humans) < 2:
            return None
        return None if seat == self._revealed_to else seat

    # ------------------------------------------------------------ playing
    def refresh(self, message: str | None = None, kind: str = "info") -> None:
        if self._quiet:
            return
        seat = self.viewing_seat()
        if seat is not None and self.covered() is None:
            self._last_viewer = seat
        super().refresh(message, kind)

    def handle_pick(self, pick: dict) -> str | None:
        kind = pick.get("kind")
        handlers = {
            "move": self._pick_move,
            "reveal": self._pick_reveal,
            "chance": self._pick_chance,
            "bots": self._pick_bots,
            "undo": self._pick_undo,
            "new_game": self._pick_new_game,
        }
        if not isinstance(kind, str) or kind not in handlers:
            raise IllegalMove(f"unknown pick {reprlib.repr(pick)}: choose one of the move buttons")
        try:
            return handlers[kind](pick)
        except IllegalMove:
            raise
        except Exception as error:  # noqa: BLE001 - a student's rules or bot failing: say so on the board
            raise IllegalMove(f"{type(error).__name__}: {error}") from None

    def _pick_move(self, pick: dict) -> None:
        state = self.match.state
        ply = pick.get("ply", self.match.index)
        if ply != self.match.index:
            raise IllegalMove("the position changed before this click arrived: look again and choose a move")
        if state.is_terminal:
            raise IllegalMove("the game is over: step back in the history, undo, or start a new game")
        if self.covered() is not None:
            raise IllegalMove(f"first pass the screen to {self.seat_name(self.covered())}")
        if state.current_player == CHANCE:
            raise IllegalMove("chance decides here: press the chance button")
        if state.current_player in self.bots:
            raise IllegalMove(f"{self.seat_name(state.current_player)} is a bot: let the bots play")
        moves = state.legal_actions()
        index = pick.get("index")
        if type(index) is not int or not 0 <= index < len(moves):
            raise IllegalMove(
                f"there is no move {reprlib.repr(index)} here: the moves are numbered 0 to {len(moves) - 1}"
            )
        self.apply(moves[index])
        self._advance()

    def _pick_reveal(self, _pick: dict) -> None:
        seat = self.covered()
        if seat is None:
            raise IllegalMove("the screen is already shown")
        self._revealed_to = seat
        recorder = getattr(self, "recorder", None)
        if recorder is not None:
            recorder.restart_clock()  # the time to pass the screen is not the next player's thinking time
        self.refresh()

    def _pick_chance(self, _pick: dict) -> None:
        if self.match.state.current_player != CHANCE:
            raise IllegalMove("chance has nothing to decide here")
        self._advance()

    def _pick_bots(self, _pick: dict) -> None:
        state = self.match.state
        if state.is_terminal or state.current_player not in self.bots:
            raise IllegalMove("no bot is to move here")
        self._advance()

    def _pick_undo(self, _pick: dict) -> None:
        """Take back the last person's move and everything chance and the bots did after it."""
        match = self.match
        people = [
            i
            for i, before in enumerate(match.states[: match.index])
            if before.current_player >= 0 and before.current_player not in self.bots
        ]
        if not people:
            raise IllegalMove("there is nothing to undo: nobody has moved yet")
        self._quiet = True
        try:
            while match.index > people[-1]:
                match.undo()
        finally:
            self._quiet = False
        # whoever has the screen keeps it: when the move taken back was another person's, the screen is passed first
        self.refresh(f"Took back {self.seat_name(match.state.current_player)}'s move.")

    def _pick_new_game(self, _pick: dict) -> None:
        state = self.match.state
        game = self.game_module
        if game is None:
            raise IllegalMove("this board cannot start a new game of its own: give Board(<the game's module>)")
        self._games_played += 1
        seed = random.Random(f"{state.seed}:next:{self._games_played}").getrandbits(48)
        fresh = game.new_game(seed=seed, rules=getattr(state, "rules", None), explicit_chance=True)
        self.match = Match(fresh)
        self.match.observe(lambda changed: self.refresh() if changed is self.match else None)
        self._revealed_to = None
        self._visible_cache.clear()
        recorder = getattr(self, "recorder", None)
        if recorder is not None:
            recorder.follow(self.match)
            self._watch_playtest(self.match)
        self._advance()
        self.refresh(f"A new game (seed {seed}).")

    def _advance(self) -> None:
        """Let chance and the bots act until a person is to move or the game is over (one redraw)."""
        self._quiet = True
        try:
            for _ in range(MAX_AUTOMATIC_ACTIONS):
                state = self.match.state
                if state.is_terminal:
                    break
                player = state.current_player
                ply = self.match.index
                if player == CHANCE:
                    rng = chance_rng(f"{state.seed}:board", ply)
                    self.match.apply(sample_outcome(state.chance_outcomes(), rng))
                elif player in self.bots:
                    self.match.apply(self.bots[player](state, random.Random(f"{self.bot_seed}:{ply}")))
                else:
                    break
            else:
                raise IllegalMove(
                    f"chance and the bots made {MAX_AUTOMATIC_ACTIONS} moves in a row without a person "
                    "to move: the game seems not to end"
                )
        finally:
            self._quiet = False
        self.refresh()

    # ------------------------------------------------------------ what the page draws
    def state_json(self, state: Any) -> dict:
        seat = self.viewing_seat(state)
        cover = self.covered(state)
        data = {
            "game": self.game_name,
            "label": self.label,
            "ply": self.match.index,
            "status": self._status(state),
            "terminal": bool(state.is_terminal),
            "to_move": state.current_player,
            "seats": [
                {
                    "seat": s,
                    "name": self.seat_name(s),
                    "kind": "bot" if s in self.bots else "human",
                    "to_move": s == state.current_player,
                }
                for s in range(self.seats)
            ],
            "viewer": seat,
            "viewer_name": None if seat is None else self.seat_name(seat),
            "hides": self.hides_information,
            "cover": None if cover is None else {"seat": cover, "name": self.seat_name(cover)},
            "can_undo": any(
                b.current_player >= 0 and b.current_player not in self.bots
                for b in self.match.states[: self.match.index]
            ),
        }
        if cover is not None:
            return data  # nothing of the position until the next person has the screen
        data.update(self._position_json(state, seat))
        data["log"] = self._log(seat)
        data["moves"] = self._moves_json(state)
        data["chance"] = (
            [
                {"label": _label(state, outcome), "probability": _fraction_text(p)}
                for outcome, p in state.chance_outcomes()
            ]
            if state.current_player == CHANCE
            else []
        )
        data["bot_waiting"] = not state.is_terminal and state.current_player in self.bots
        return data

    def legal_json(self, state: Any) -> list:
        return []  # the buttons come with state_json (only for the person who may see them)

    def _moves_json(self, state: Any) -> list:
        player = state.current_player
        if state.is_terminal or player < 0 or player in self.bots:
            return []
        return [{"index": i, "label": _label(state, action)} for i, action in enumerate(state.legal_actions())]

    def _position_json(self, state: Any, seat: int | None) -> dict:
        if seat is not None:
            return {"text": _shown(lambda: self.observation_text(state, seat)), "drawing": None, "drawing_note": ""}
        drawing, note = None, ""
        draw = getattr(state, "drawing", None)
        if callable(draw):
            try:
                markup = draw()
                drawing = None if markup is None else sanitize_drawing(markup)
            except (DrawingError, ValueError, TypeError) as problem:
                note = f"the drawing could not be shown ({problem}); here is the text"
            except Exception as problem:  # noqa: BLE001 - a student's drawing code must not break the board
                note = f"drawing() raised {type(problem).__name__}: {problem}; here is the text"
        return {"text": _shown(lambda: str(state)), "drawing": drawing or None, "drawing_note": note}

    def observation_text(self, state: Any, seat: int) -> str:
        """What ``seat`` may know, as text: the game's ``observation(seat)``, one line per entry."""
        seen = state.observation(seat)
        lines = [f"Seat {seat} ({self.seat_name(seat)}) sees:"]
        for key, value in seen.items():
            shown = (
                ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else "—" if value is None else str(value)
            )
            lines.append(f"  {key.replace('_', ' ')}: {shown or '—'}")
        return "\n".join(lines)

    def _status(self, state: Any) -> str:
        if state.is_terminal:
            winners = list(state.winners)
            try:
                scores = state.scores() if callable(getattr(state, "scores", None)) else None
            except Exception:  # noqa: BLE001 - a student's scores() that fails: the result without them
                scores = None
            told = (
                "nobody wins"
                if not winners
                else (
                    f"{self.seat_name(winners[0])} wins"
                    if len(winners) == 1
                    else "a shared win: " + " and ".join(self.seat_name(w) for w in winners)
                )
            )
            if scores is not None:
                told += " (" + ", ".join(f"{self.seat_name(s)} {score}" for s, score in enumerate(scores)) + ")"
            return "Game over: " + told
        player = state.current_player
        if player == CHANCE:
            return "Chance decides"
        return f"{self.seat_name(player)} to move" + (" (bot)" if player in self.bots else "")

    # ------------------------------------------------------------ the log
    def _log(self, seat: int | None) -> list[dict]:
        match = self.match
        entries = []
        start = max(0, match.index - MAX_LOG_SHOWN)
        for ply in range(start, match.index):
            before, action = match.states[ply], match.recorded_actions[ply]
            player = before.current_player
            if player == CHANCE:
                probability = dict((repr(o), p) for o, p in before.chance_outcomes()).get(repr(action))
                text = _label(before, action) + (
                    f" (chance {_fraction_text(probability)})" if probability is not None else ""
                )
                who, kind = "Chance", "chance"
            else:
                text, who, kind = (
                    _label(before, action),
                    self.seat_name(player),
                    "bot" if player in self.bots else "human",
                )
            if seat is not None and player != seat and not self._visible(ply, before, action, seat):
                text = "(hidden from you)"
            entries.append({"ply": ply + 1, "who": who, "kind": kind, "text": text})
        return entries

    def _visible(self, ply: int, before: Any, action: Any, seat: int) -> bool:
        """Whether ``seat`` can tell which action was taken at ``ply`` of the line, from ``before``: no other
        choice there looks the same to it. Kept by ply and seat for the line's log, and used again only while
        that ply still starts from this very state and action (an undo and another move replace them)."""
        key = (ply, seat)
        cached = self._visible_cache.get(key)
        if cached is not None and cached[0] is before and cached[1] == repr(action):
            return cached[2]
        options = (
            [o for o, _ in before.chance_outcomes()] if before.current_player == CHANCE else before.legal_actions()
        )
        visible = False
        if len(options) <= MAX_COMPARED_OUTCOMES:
            seen = before.apply(action).observation(seat)
            visible = all(before.apply(other).observation(seat) != seen for other in options if other != action)
        if len(self._visible_cache) > 10_000:
            self._visible_cache.clear()
        self._visible_cache[key] = (before, repr(action), visible)
        return visible

    # ------------------------------------------------------------ playtests and fallbacks
    def record(self, path=None, *, seats=None, folder="playtests"):
        """Record the games played here (see :meth:`BoardWidget.record`); people's names default to ``names``."""
        if seats is None and self.names is not None:
            seats = [None if seat in self.bots else name for seat, name in enumerate(self.names)]
        return super().record(path, seats=seats, folder=folder)

    def text_fallback(self) -> str:
        state = self.match.state
        data = self.state_json(state)
        if data["cover"] is not None:
            return f"{data['status']}\nPass the screen to {data['cover']['name']}."
        lines = [data["text"], "", data["status"]]
        log = data["log"][-12:]
        if log:
            lines += ["", "Last moves:"] + [f"  {entry['ply']}. {entry['who']}: {entry['text']}" for entry in log]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.game_name}, move {self.match.index} of {self.match.length})"
