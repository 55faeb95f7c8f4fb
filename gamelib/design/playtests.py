"""Playtest files: the games people play on a board, recorded, and pooled into :class:`Results`.

A board records a *session* (``board.record(...)``, see :mod:`gamelib.widgets`) into one
JSON-lines file, one JSON object a line, written as it happens (a kernel that stops loses
nothing already played)::

    {"kind": "session", "format": "gamelib-playtest", "format_version": 1, "game": "pig", "module": ...,
     "save_version": 1, "rules": {...}, "seats": [{"seat": 0, "player": "Ana", "kind": "human"}, ...], ...}
    {"kind": "start", "game_number": 1, "start": {<the game's own save of the first position>}}
    {"kind": "decision", "game_number": 1, "ply": 0, "seat": 0, "by": "human", "action": 1, "label": "roll",
     "seconds": 2.41}
    {"kind": "chance", "game_number": 1, "ply": 1, "outcome": 3, "label": "4"}
    {"kind": "undo", "game_number": 1, "to": 1}
    {"kind": "end", "game_number": 1, "moves": [1, 3, ...], "save": {<the game's own save of the end>}}
    {"kind": "survey", "game_number": 1, "fun": 4, "tension": 5, "fairness": 3, "clarity": 4, "comment": "..."}

``action`` and ``outcome`` are positions in ``legal_actions()`` and ``chance_outcomes()`` (which
every contract game lists in a fixed order), so any game's moves fit in a number; ``label`` is for
people (a reader recomputes it from the replayed game). The end line's ``moves`` are the line that was finally played (undone moves dropped). The
survey has its own line after its game's end line, so a game is never lost waiting for a survey.

:func:`load_playtests` pools many files (a class's) into a :class:`PlaytestResults`, which *is* a
:class:`Results` (every metric reads it) and also keeps each game's decisions, timings, seats and
survey. Every game is checked by replaying it: its moves from its start save must reach its end
save, so a damaged or forged file cannot put an impossible game into the figures. A problem gives
a :class:`PlaytestError` naming the file and the line; the other files' games (and the file's
other games) are kept.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, Callable, Iterable, Sequence

from gamelib.core import CHANCE, CorruptSave, load_json
from gamelib.design.results import GameResult, Results, result_from_states
from gamelib.design.tables import Table

FORMAT = "gamelib-playtest"
FORMAT_VERSION = 1
SURVEY_QUESTIONS = ("fun", "tension", "fairness", "clarity")
SURVEY_SCALE = range(1, 6)
MAX_COMMENT_CHARS = 300
MAX_NAME_CHARS = 60
MAX_LINE_BYTES = 4_500_000  # a line holds at most one save (gamelib.core.MAX_SAVE_CHARS is 4,000,000)
MAX_FILE_BYTES = 100_000_000
MAX_MOVES = 100_000
MAX_SECONDS = 7 * 24 * 3600  # a decision longer than a week is no timing
MAX_SEATS = 8
LINE_KINDS = ("session", "start", "decision", "chance", "undo", "end", "survey")


class PlaytestError(ValueError):
    """A playtest file (or one line of it) that cannot be trusted; says which file, which line and why."""

    def __init__(self, path: str | Path, line: int | None, reason: str):
        self.path, self.line, self.reason = Path(path), line, reason
        where = f"{self.path.name}, line {line}" if line else f"{self.path.name}"
        super().__init__(f"{where}: {reason}")


class PlaytestProblems(ValueError):
    """Several files had problems: every one is listed; ``results`` holds all the games that were sound."""

    def __init__(self, problems: Sequence[PlaytestError], results: "PlaytestResults"):
        self.problems, self.results = list(problems), results
        listed = "\n".join(f"  {problem}" for problem in self.problems[:20])
        more = f"\n  ... and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        super().__init__(
            f"{len(self.problems)} problem(s) in the playtest files ({len(results)} sound games kept; "
            f"errors='skip' keeps them and counts the problems):\n{listed}{more}"
        )


# --------------------------------------------------------------------------- which game


def game_module_of(state: Any) -> Any:
    """The game ``state`` belongs to, as a module-like object with ``GAME``, ``SAVE_VERSION``, ``State`` and
    ``new_game``: the innermost package of its class that has them (``gamelib.pangu`` for a Pangu state),
    or for a studio game written in a notebook, its ``Game`` class seen through :func:`as_game`."""
    import sys

    game_class = getattr(type(state), "_game_class", None)
    name = type(state).__module__
    while name:
        module = sys.modules.get(name)
        if (
            module is not None
            and all(hasattr(module, attr) for attr in ("GAME", "State", "new_game"))
            and isinstance(state, module.State)
        ):
            return module
        name = name.rpartition(".")[0]
    if game_class is not None:
        return as_game(game_class)
    raise ValueError(f"cannot tell which game a {type(state).__name__} belongs to: record with game=<its module>")


def as_game(game: Any) -> Any:
    """A game module as it is, or a studio ``Game`` class as a module-like object (GAME, SAVE_VERSION, State, new_game)."""
    if all(hasattr(game, attr) for attr in ("GAME", "State", "new_game")):
        return game
    if isinstance(getattr(game, "name", None), str) and hasattr(game, "State") and hasattr(game, "new_game"):
        return SimpleNamespace(
            GAME=game.name,
            SAVE_VERSION=getattr(game, "save_version", None),
            State=game.State,
            new_game=game.new_game,
            __name__=f"{game.__module__}.{game.__qualname__}",
        )
    raise ValueError(
        f"{game!r} is not a game: give a game's module (with GAME, State, new_game) or a studio Game class"
    )


def anonymous_code(rng: random.Random | None = None) -> str:
    """A code for a player who gives no name, such as ``anon-7KQ3`` (no 0/O or 1/I to misread)."""
    letters = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    pick = rng.choice if rng is not None else secrets.choice
    return "anon-" + "".join(pick(letters) for _ in range(4))


def _policy_name(policy: Callable) -> str:
    return getattr(policy, "__name__", None) or type(policy).__name__


# --------------------------------------------------------------------------- recording


class PlaytestRecorder:
    """Writes a board's games into one playtest file as they are played.

    It listens to the board's :class:`~gamelib.Match`: every applied action becomes a decision
    line (with the seconds since its position came up) or a chance line, an undo an undo line,
    and a finished game its end line. ``bots()`` says which seats bots hold right now.
    """

    def __init__(
        self,
        match: Any,
        path: str | Path,
        *,
        seats: Sequence[str | None] | None = None,
        bots: Callable[[], dict] = dict,
        game: ModuleType | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.path = Path(path)
        if self.path.exists():
            raise FileExistsError(f"{self.path} already exists: a playtest file holds one session; give a new name")
        self.problem = ""  # why the recording stopped, if it did
        self.game = game or game_module_of(match.state)
        self.clock, self._bots = clock, bots
        self.players = _players_of(match.state)
        self.seats = self._seat_table(seats)
        self.game_number = 0
        self.finished: list[int] = []  # game numbers whose end line is written
        self.surveyed: set[int] = set()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        rules = getattr(match.state, "rules", None)
        self._write(
            {
                "kind": "session",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "game": self.game.GAME,
                "module": self.game.__name__,
                "save_version": getattr(self.game, "SAVE_VERSION", None),
                "rules": rules.to_dict() if hasattr(rules, "to_dict") else None,
                "seats": self.seats,
                "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
        )
        self.follow(match)

    def _seat_table(self, names: Sequence[str | None] | None) -> list[dict]:
        names = list(names) if names is not None else [None] * self.players
        if len(names) != self.players:
            raise ValueError(
                f"this game has {self.players} seats, so give {self.players} names (None for an anonymous code), "
                f"not {len(names)}"
            )
        bots = self._bots()
        table = []
        for seat, name in enumerate(names):
            if seat in bots:
                table.append({"seat": seat, "player": "bot:" + _policy_name(bots[seat]), "kind": "bot"})
                continue
            if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS):
                raise ValueError(
                    f"seat {seat}'s name should be a short text (at most {MAX_NAME_CHARS} characters), not {name!r}"
                )
            table.append({"seat": seat, "player": (name or anonymous_code()).strip(), "kind": "human"})
        return table

    # the game being recorded
    def follow(self, match: Any) -> None:
        """Record ``match`` from its current position as the session's next game (a board's new game)."""
        self.match = match
        self.game_number += 1
        self._seen = list(match.recorded_actions)[: match.index]
        self._line: list[int] = []
        self._start_index = match.index
        self._ended = False
        self._clock_from = self.clock()
        match.observe(lambda changed: self._on_change(changed) if changed is self.match else None)
        if match.state.is_terminal:  # a game over before anyone played on the board: nothing to record
            self._ended = True
            return
        self._write({"kind": "start", "game_number": self.game_number, "start": json.loads(match.state.to_json())})

    def restart_clock(self) -> None:
        """Time the decision from now (the board calls it when the screen has been passed on)."""
        self._clock_from = self.clock()

    def _on_change(self, match: Any) -> None:
        if self._ended or self.problem:
            return
        try:
            self._take_change(match)
        except Exception as error:  # noqa: BLE001 - a recording must never stop the game being played
            self._stop(f"{type(error).__name__}: {error}")

    def _stop(self, reason: str) -> None:
        """Stop recording (the games already written stay readable); the board's panel says why."""
        self.problem = f"recording stopped: {reason}"

    def _take_change(self, match: Any) -> None:
        actions = match.recorded_actions[self._start_index :]
        shared = 0
        while shared < min(len(actions), len(self._seen)) and actions[shared] is self._seen[shared]:
            shared += 1
        if shared < len(self._line):
            self._line = self._line[:shared]
            self._write({"kind": "undo", "game_number": self.game_number, "to": shared})
        if len(actions) == shared + 1 and match.index - self._start_index == len(actions):
            self._record(match.states[self._start_index + shared], actions[shared], shared)
        self._seen = list(actions)
        self.restart_clock()
        self._end_if_over()

    def _record(self, before: Any, action: Any, ply: int) -> None:
        seconds = round(max(0.0, self.clock() - self._clock_from), 2)
        if before.current_player == CHANCE:
            outcomes = [outcome for outcome, _ in before.chance_outcomes()]
            index = _position(outcomes, action)
            line = {
                "kind": "chance",
                "game_number": self.game_number,
                "ply": ply,
                "outcome": index,
                "label": str(action),
            }
        else:
            index = _position(before.legal_actions(), action)
            seat = before.current_player
            line = {
                "kind": "decision",
                "game_number": self.game_number,
                "ply": ply,
                "seat": seat,
                "by": "bot" if seat in self._bots() else "human",
                "action": index,
                "label": _label(before, action),
                "seconds": seconds,
            }
        self._line.append(index)
        self._write(line)

    def _end_if_over(self) -> None:
        match = self.match
        if self._ended or not match.state.is_terminal or match.index != match.length:
            return
        self._ended = True
        self.finished.append(self.game_number)
        self._write(
            {
                "kind": "end",
                "game_number": self.game_number,
                "moves": list(self._line),
                "save": json.loads(match.state.to_json()),
            }
        )

    @property
    def awaiting_survey(self) -> int | None:
        """The number of the last finished game when its survey is not in yet."""
        last = self.finished[-1] if self.finished else None
        return last if last is not None and last not in self.surveyed else None

    def survey(self, answers: dict, game_number: int | None = None) -> None:
        """Add the survey of a finished game: fun, tension, fairness, clarity on 1-5 and a one-line comment."""
        if self.problem:
            raise ValueError(f"the survey cannot be saved: {self.problem}")
        number = self.awaiting_survey if game_number is None else game_number
        if number not in self.finished:
            raise ValueError("the survey comes after a finished game: finish the game first")
        answers = check_survey(answers)
        self.surveyed.add(number)
        self._write({"kind": "survey", "game_number": number, **answers})

    def _write(self, line: dict) -> None:
        if self.problem:
            return
        text = json.dumps(line, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        try:
            with self.path.open("a", encoding="utf-8", newline="\n") as file:
                file.write(text + "\n")
        except OSError as error:
            self._stop(f"cannot write {self.path.name} ({error.strerror or error})")

    def __repr__(self) -> str:
        return f"PlaytestRecorder({self.path.name}, game {self.game_number}, {len(self.finished)} finished)"


def _players_of(state: Any) -> int:
    players = getattr(state, "players", None)
    if type(players) is int:
        return players
    return len(state.returns())


def _position(items: Sequence, action: Any) -> int:
    for index, item in enumerate(items):
        if item == action:
            return index
    raise ValueError(f"the action {action!r} is not in the position's list")


def _label(state: Any, action: Any) -> str:
    label = getattr(state, "action_label", None)
    try:
        return str(label(action)) if callable(label) else str(action)
    except Exception:  # noqa: BLE001 - a label is for people: a student's broken label must not stop the record
        return str(action)


def check_survey(answers: Any) -> dict:
    """The survey answers checked: each question 1-5 or None (not answered), a one-line comment."""
    if not isinstance(answers, dict):
        raise ValueError("the survey answers are a dict of fun, tension, fairness, clarity (1-5) and comment")
    unknown = set(answers) - set(SURVEY_QUESTIONS) - {"comment"}
    if unknown:
        raise ValueError(
            f"the survey asks only {', '.join(SURVEY_QUESTIONS)} and comment, not {sorted(map(str, unknown))}"
        )
    checked = {}
    for question in SURVEY_QUESTIONS:
        value = answers.get(question)
        if value is not None and (type(value) is not int or value not in SURVEY_SCALE):
            raise ValueError(f"{question} is answered with a whole number from 1 to 5 (or left out), not {value!r}")
        checked[question] = value
    comment = answers.get("comment") or ""
    if not isinstance(comment, str) or len(comment) > MAX_COMMENT_CHARS or "\n" in comment or "\r" in comment:
        raise ValueError(f"the comment is one line of at most {MAX_COMMENT_CHARS} characters")
    checked["comment"] = comment
    return checked


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Decision:
    """One choice made during a recorded game (a person's or a bot's), on the line finally played."""

    ply: int  # actions before it in the game (chance included)
    seat: int
    by: str  # "human" or "bot"
    player: str  # who sat there (a name, an anonymous code or bot:<policy>)
    action: Any
    label: str
    seconds: float | None  # None when the file has no decision line for it


@dataclass(frozen=True)
class PlaytestGame:
    """One finished game of a playtest file: its start, moves, end, decisions, seats, row and survey.

    Only the start, the moves and the end are kept (a class's pooled games stay small: a 400-move
    Chakra game would hold about 1.3 MB as states); :attr:`states` plays the moves again."""

    path: Path
    line: int  # the line of its end
    game_number: int
    seats: tuple[dict, ...]
    start: Any
    actions: tuple
    final: Any
    decisions: tuple[Decision, ...]
    undone: int  # decisions taken back with undo
    result: GameResult  # its row of the pooled Results (index 0 until pooled)
    survey: dict | None = None

    @property
    def states(self) -> tuple:
        """Every state of the line played, start first (replayed: the moves were checked on loading)."""
        states = [self.start]
        for action in self.actions:
            states.append(states[-1].apply(action))
        return tuple(states)


class PlaytestResults(Results):
    """The games of many playtest files: a :class:`Results` (one row per game) that also keeps each game's
    decisions (:attr:`games`), the problems met (:attr:`problems`) and the unfinished games skipped."""

    def __init__(
        self,
        rows: Iterable[GameResult] = (),
        games: Sequence[PlaytestGame] = (),
        problems: Sequence[PlaytestError] = (),
        unfinished: int = 0,
    ):
        super().__init__(rows)
        self.games, self.problems, self.unfinished = tuple(games), tuple(problems), unfinished

    def surveys(self) -> Table:
        """One row per answered survey: file, game, fun, tension, fairness, clarity, comment."""
        rows = [{"file": game.path.name, "game": game.game_number, **game.survey} for game in self.games if game.survey]
        return Table(rows, ["file", "game", *SURVEY_QUESTIONS, "comment"])

    def survey_means(self) -> dict:
        """Each survey question's mean answer and how many answered it."""
        means = {}
        for question in SURVEY_QUESTIONS:
            values = [game.survey[question] for game in self.games if game.survey and game.survey[question] is not None]
            means[question] = (sum(values) / len(values) if values else None, len(values))
        return means

    def decisions(self, by: str | None = None) -> list[tuple[PlaytestGame, Decision]]:
        """Every decision of every game (``by="human"``: the people's only)."""
        return [(game, decision) for game in self.games for decision in game.decisions if by in (None, decision.by)]

    def decision_seconds(self) -> list[float]:
        """The seconds each person took per decision."""
        return [decision.seconds for _, decision in self.decisions("human") if decision.seconds is not None]

    def __repr__(self) -> str:
        return (
            f"PlaytestResults({len(self)} games from {len({game.path for game in self.games})} file(s), "
            f"{len(self.problems)} problem(s), {self.unfinished} unfinished)"
        )


def load_playtests(
    paths: str | Path | Iterable[str | Path], *, errors: str = "raise", games: Iterable[ModuleType] = ()
) -> PlaytestResults:
    """Pool the finished games of playtest files (a folder's ``*.jsonl`` when given a folder).

    Every game is replayed from its start save to its end save; one that does not arrive there, or
    any damaged line, is a :class:`PlaytestError` naming its file and line. All files are read
    whatever happens: with ``errors="raise"`` (default) the problems are then raised together
    (:class:`PlaytestProblems`, whose ``results`` still holds the sound games); with ``errors="skip"``
    they are kept in ``problems`` and counted. ``games`` are the modules of games outside
    ``gamelib`` (a student's game); a file never makes this function import anything else.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors is 'raise' or 'skip', not {errors!r}")
    modules = {module.GAME: module for module in map(as_game, games)}
    found, problems, unfinished = [], [], 0
    for path in _expand(paths):
        try:
            file_games, file_problems, file_unfinished = _read_file(path, modules)
        except PlaytestError as problem:
            file_games, file_problems, file_unfinished = [], [problem], 0
        found += file_games
        problems += file_problems
        unfinished += file_unfinished
    rows = [replace(game.result, index=index) for index, game in enumerate(found)]
    results = PlaytestResults(rows, found, problems, unfinished)
    if problems and errors == "raise":
        raise PlaytestProblems(problems, results)
    return results


def _expand(paths) -> list[Path]:
    if isinstance(paths, (str, Path)):
        paths = [paths]
    expanded = []
    for path in map(Path, paths):
        expanded += sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return expanded


def _row(states: list, seats: tuple[dict, ...]) -> GameResult:
    """The game's row of the Results the metrics read (index 0: the pool numbers its rows)."""
    rules = getattr(states[0], "rules", None)
    variant = "default rules" if rules is None or str(rules) == "default rules" else str(rules)
    return result_from_states(states, index=0, variant=variant, policies=[seat["player"] for seat in seats])


# --------------------------------------------------------------------------- one file


def _lines(path: Path):
    """(line number, parsed object or PlaytestError) for each line, bounded in size, strict UTF-8."""
    try:
        size = path.stat().st_size
        file = path.open("rb")
    except OSError as problem:
        raise PlaytestError(path, None, f"cannot be read ({problem.strerror or problem})") from None
    if size > MAX_FILE_BYTES:
        file.close()
        raise PlaytestError(path, None, f"is {size:,} bytes; a playtest file holds at most {MAX_FILE_BYTES:,}")
    with file:
        number = 0
        while True:
            raw = file.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                yield (
                    number,
                    PlaytestError(path, number, f"is longer than {MAX_LINE_BYTES:,} bytes: no playtest line is"),
                )
                while raw and not raw.endswith(b"\n"):  # skip the rest of the huge line, a piece at a time
                    raw = file.readline(MAX_LINE_BYTES + 1)
                continue
            yield number, _parse_line(path, number, raw)


def _parse_line(path: Path, number: int, raw: bytes) -> dict | PlaytestError:
    cut = not raw.endswith(b"\n")
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # a byte-order mark, as some editors write
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        return PlaytestError(
            path,
            number,
            f"is not UTF-8 text (byte {problem.start + 1} of the line); playtest files are written in UTF-8",
        )
    try:
        data = load_json(text, what="playtest line")
    except CorruptSave as problem:
        reason = (
            "is cut short (the file ends in the middle of it)"
            if cut
            else str(problem).replace("this playtest line ", "")
        )
        return PlaytestError(path, number, reason)
    kind = data.get("kind")
    if kind not in LINE_KINDS:
        return PlaytestError(
            path, number, f"has kind {_short(kind)}; a playtest line is one of {', '.join(LINE_KINDS)}"
        )
    return data


def _short(value: Any) -> str:
    import reprlib

    return reprlib.repr(value)


@dataclass
class _Game:
    """A game of a file while it is read."""

    number: int
    start_line: int
    start: Any
    decisions: dict = field(default_factory=dict)  # ply -> (line number, decision line), the last one made there
    undone: int = 0
    problem: PlaytestError | None = None
    done: bool = False


def _read_file(path: Path, modules: dict) -> tuple[list[PlaytestGame], list[PlaytestError], int]:
    lines = _lines(path)
    header = next(lines, None)
    if header is None:
        raise PlaytestError(path, None, "is empty: a playtest file starts with its session line")
    number, session = header
    if isinstance(session, PlaytestError):
        raise session
    module, seats = _check_session(path, session, modules)
    problems: list[PlaytestError] = []
    open_games: dict[int, _Game] = {}
    finished: dict[int, PlaytestGame] = {}
    for number, data in lines:
        if isinstance(data, PlaytestError):
            problems.append(data)
            continue
        try:
            _take_line(path, number, data, module, seats, session.get("rules"), open_games, finished)
        except PlaytestError as problem:
            problems.append(problem)
            game = open_games.get(data.get("game_number")) if isinstance(data.get("game_number"), int) else None
            if game is not None and not game.done:
                game.problem = game.problem or problem
    unfinished = sum(1 for game in open_games.values() if not game.done and game.problem is None)
    return list(finished.values()), problems, unfinished


def _check_session(path: Path, session: dict, modules: dict) -> tuple[ModuleType, tuple[dict, ...]]:
    def refuse(reason):
        raise PlaytestError(path, 1, reason)

    if session.get("kind") != "session" or session.get("format") != FORMAT:
        refuse(f"is not a playtest session line (a {FORMAT} file starts with one)")
    if session.get("format_version") != FORMAT_VERSION:
        refuse(
            f"has format version {_short(session.get('format_version'))}; this gamelib reads version {FORMAT_VERSION}"
        )
    game, module_name = session.get("game"), session.get("module")
    if not isinstance(game, str) or not isinstance(module_name, str):
        refuse("does not say which game was played (game and module)")
    module = modules.get(game)
    if module is None:
        if not (module_name == "gamelib" or module_name.startswith("gamelib.")):
            refuse(
                f"is a playtest of {_short(game)} from the module {_short(module_name)}, which is not part of gamelib: "
                "pass that game's module as load_playtests(..., games=[module])"
            )
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            refuse(f"names the module {_short(module_name)}, which this gamelib does not have")
    if getattr(module, "GAME", None) != game:
        refuse(
            f"says the game is {_short(game)}, but {module.__name__} is the game {_short(getattr(module, 'GAME', None))}"
        )
    version = getattr(module, "SAVE_VERSION", None)
    if session.get("save_version") != version:
        refuse(
            f"was saved by version {_short(session.get('save_version'))} of {game}; this gamelib reads version {version}"
        )
    return module, _check_seats(path, session.get("seats"))


def _check_seats(path: Path, seats: Any) -> tuple[dict, ...]:
    if not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS:
        raise PlaytestError(path, 1, f"should list the seats (1 to {MAX_SEATS}), not {_short(seats)}")
    checked = []
    for place, seat in enumerate(seats):
        if (
            not isinstance(seat, dict)
            or seat.get("seat") != place
            or type(seat.get("seat")) is not int
            or seat.get("kind") not in ("human", "bot")
            or not isinstance(seat.get("player"), str)
            or not seat["player"].strip()
            or len(seat["player"]) > MAX_NAME_CHARS + 10
        ):
            raise PlaytestError(
                path,
                1,
                f"seat {place} should be {{'seat': {place}, 'player': a short name, "
                f"'kind': 'human' or 'bot'}}, not {_short(seat)}",
            )
        checked.append({"seat": place, "player": seat["player"], "kind": seat["kind"]})
    return tuple(checked)


def _whole(path: Path, number: int, data: dict, name: str, low: int, high: int) -> int:
    value = data.get(name)
    if type(value) is not int or not low <= value <= high:
        raise PlaytestError(
            path, number, f"its {name} should be a whole number from {low} to {high}, not {_short(value)}"
        )
    return value


def _take_line(path, number, data, module, seats, session_rules, open_games, finished) -> None:
    """One line after the session line: a game's start, decision, chance, undo, end or survey, checked."""
    kind = data["kind"]
    if kind == "session":
        raise PlaytestError(path, number, "is a second session line: a playtest file holds one session")
    game_number = _whole(path, number, data, "game_number", 1, 1_000_000)
    game = open_games.get(game_number)
    if kind == "start":
        if game is not None:
            raise PlaytestError(path, number, f"starts game {game_number} a second time")
        open_games[game_number] = _started_game(path, number, data, module, seats, session_rules, game_number)
        return
    if game is None:
        raise PlaytestError(path, number, f"belongs to game {game_number}, which has no start line before it")
    if kind == "survey":
        if game_number not in finished:
            raise PlaytestError(path, number, f"is a survey of game {game_number}, which has not ended before it")
        try:
            survey = check_survey({key: value for key, value in data.items() if key not in ("kind", "game_number")})
        except ValueError as problem:
            raise PlaytestError(path, number, f"is not a survey this gamelib reads: {problem}") from None
        finished[game_number] = _with_survey(finished[game_number], survey)
        return
    if game.done:
        raise PlaytestError(path, number, f"comes after the end of game {game_number}")
    if game.problem is not None:
        return  # the game is already refused; its problem is reported once
    if kind == "decision":
        _take_decision(path, number, data, seats, game)
    elif kind == "chance":
        ply = _whole(path, number, data, "ply", 0, MAX_MOVES)
        _whole(path, number, data, "outcome", 0, 10**9)
        game.decisions = {ply_: seen for ply_, seen in game.decisions.items() if ply_ < ply}
    elif kind == "undo":
        to = _whole(path, number, data, "to", 0, MAX_MOVES)
        game.undone += sum(1 for ply_ in game.decisions if ply_ >= to)
        game.decisions = {ply_: seen for ply_, seen in game.decisions.items() if ply_ < to}
    elif kind == "end":
        game.done = True
        finished[game_number] = _replay(path, number, module, seats, game, data)


def _started_game(path, number, data, module, seats, session_rules, game_number) -> "_Game":
    """A game opened by a start line, once its start position is a save of the session's game and rules."""
    start = _load_save(path, number, module, data.get("start"), "start")
    try:
        players = _players_of(start)
    except Exception as problem:  # noqa: BLE001 - a forged start the game's code cannot even count the seats of
        raise PlaytestError(
            path,
            number,
            f"the game's rules fail on its start ({type(problem).__name__}: "
            f"{_short(str(problem))}): it is not a position they play",
        ) from None
    if players != len(seats):
        raise PlaytestError(path, number, f"the game has {players} seats, but the session line lists {len(seats)}")
    rules = getattr(start, "rules", None)
    if (
        session_rules is not None
        and hasattr(rules, "to_dict")
        and json.loads(json.dumps(rules.to_dict())) != session_rules
    ):
        raise PlaytestError(path, number, "its rules are not the rules the session line names")
    return _Game(game_number, number, start)


def _take_decision(path, number, data, seats, game) -> None:
    """A decision line, checked field by field; a later decision at the same ply replaces the earlier."""
    ply = _whole(path, number, data, "ply", 0, MAX_MOVES)
    _whole(path, number, data, "seat", 0, len(seats) - 1)
    _whole(path, number, data, "action", 0, 10**9)
    if data.get("by") not in ("human", "bot"):
        raise PlaytestError(path, number, f"its by should be 'human' or 'bot', not {_short(data.get('by'))}")
    seconds = data.get("seconds")
    if type(seconds) not in (int, float) or not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
        raise PlaytestError(
            path, number, f"its seconds should be a time from 0 to {MAX_SECONDS:,}, not {_short(seconds)}"
        )
    if not isinstance(data.get("label", ""), str):
        raise PlaytestError(path, number, "its label should be text")
    game.decisions = {ply_: seen for ply_, seen in game.decisions.items() if ply_ < ply}
    game.decisions[ply] = (number, data)


def _load_save(path: Path, number: int, module: ModuleType, save: Any, what: str) -> Any:
    if not isinstance(save, dict):
        raise PlaytestError(path, number, f"its {what} should be the game's save (a JSON object), not {_short(save)}")
    try:
        return module.State.from_json(json.dumps(save))
    except Exception as problem:  # noqa: BLE001 - a forged save may break a game's loader in any way; say so, never crash
        reason = getattr(problem, "reason", None) or f"{type(problem).__name__}: {_short(str(problem))}"
        raise PlaytestError(path, number, f"its {what} is not a save this {module.GAME} can open: {reason}") from None


def _replay(path, number, module, seats, game: _Game, data: dict) -> PlaytestGame:
    """Play the end line's moves from the start save; they must arrive at its end save exactly.

    A forged start save can be one the game's loader accepts but its rules cannot play (a score that
    is text); whatever the game's code raises then is reported as this line's problem."""
    try:
        return _replay_checked(path, number, module, seats, game, data)
    except PlaytestError:
        raise
    except Exception as problem:  # noqa: BLE001 - see the docstring
        raise PlaytestError(
            path,
            number,
            f"the game's rules fail on this game ({type(problem).__name__}: "
            f"{_short(str(problem))}): its saves are not a game they play",
        ) from None


def _replay_checked(path, number, module, seats, game: _Game, data: dict) -> PlaytestGame:
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(type(m) is int and m >= 0 for m in moves):
        raise PlaytestError(
            path, number, f"its moves should be a list of at most {MAX_MOVES:,} positions (whole numbers)"
        )
    end = _load_save(path, number, module, data.get("save"), "save")
    state = game.start
    if _players_of(state) != len(seats):
        raise PlaytestError(
            path, number, f"the game has {_players_of(state)} seats, but the session line lists {len(seats)}"
        )
    states, actions = [state], []
    for ply, index in enumerate(moves):
        if state.is_terminal:
            raise PlaytestError(path, number, f"move {ply + 1} comes after the game was over")
        listed = (
            [outcome for outcome, _ in state.chance_outcomes()]
            if state.current_player == CHANCE
            else state.legal_actions()
        )
        if index >= len(listed):
            raise PlaytestError(path, number, f"move {ply + 1} is choice {index}, but that position has {len(listed)}")
        action = listed[index]
        try:
            state = state.apply(action)
        except ValueError as problem:
            raise PlaytestError(
                path, number, f"move {ply + 1} ({_short(action)}) is refused by the rules: {problem}"
            ) from None
        states.append(state)
        actions.append(action)
    if not state.is_terminal:
        raise PlaytestError(path, number, f"its moves stop before the game is over (after {len(moves)} moves)")
    reached, saved = state.to_json(), end.to_json()
    if reached != saved and json.loads(reached) != json.loads(saved):  # the same text is the same save
        raise PlaytestError(
            path, number, "its save is not where its moves lead: the rules cannot reach it from the start"
        )
    return PlaytestGame(
        path,
        number,
        game.number,
        seats,
        states[0],
        tuple(actions),
        states[-1],
        _decisions(path, seats, states, actions, moves, game),
        game.undone,
        _row(states, seats),
    )


def _decisions(path, seats, states, actions, moves, game: _Game) -> tuple[Decision, ...]:
    """The players' decisions of the line played, each with its decision line's seconds when it agrees."""
    decisions = []
    for ply, (before, action) in enumerate(zip(states, actions)):
        if before.current_player == CHANCE:
            continue
        number, line = game.decisions.get(ply, (None, None))
        seat = before.current_player
        if line is not None and (line["seat"] != seat or line["action"] != moves[ply]):  # the same listing's place
            raise PlaytestError(
                path,
                number,
                f"says seat {line['seat']} chose move {line['action']} at ply {ply}, "
                "but the game's moves say otherwise",
            )
        decisions.append(
            Decision(
                ply,
                seat,
                line["by"] if line else seats[seat]["kind"],
                seats[seat]["player"],
                action,
                _label(before, action),  # from the replay: a file's label is never shown
                float(line["seconds"]) if line else None,
            )
        )
    return tuple(decisions)


def _with_survey(game: PlaytestGame, survey: dict) -> PlaytestGame:
    return replace(game, survey=survey)


# --------------------------------------------------------------------------- people against a bot


def compare_with_bot(playtests: PlaytestResults, policy: Callable, *, seed: int = 0, by: str = "human") -> Table:
    """Each person's decision beside the bot's choice in the same position.

    One row per decision (of ``by``, people by default): the file, game, ply, seat, player, seconds,
    the person's move, the bot's move and whether they agree. The bot gets the position as the board
    had it, with its own seeded generator (``seed`` and the decision's place make it reproducible).
    """
    rows = []
    for game in playtests.games:
        decisions = [decision for decision in game.decisions if by in (None, decision.by)]
        states = game.states if decisions else ()
        for decision in decisions:
            before = states[decision.ply]
            rng = random.Random(f"{seed}:{game.path.name}:{game.game_number}:{decision.ply}")
            choice = policy(before, rng)
            rows.append(
                {
                    "file": game.path.name,
                    "game": game.game_number,
                    "ply": decision.ply,
                    "seat": decision.seat,
                    "player": decision.player,
                    "seconds": decision.seconds,
                    "move": decision.label,
                    "bot": _label(before, choice),
                    "agrees": choice == decision.action,
                }
            )
    return Table(rows, ["file", "game", "ply", "seat", "player", "seconds", "move", "bot", "agrees"])
