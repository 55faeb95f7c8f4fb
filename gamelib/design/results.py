"""The table of games a design study works on: one row per game, saved to and loaded from CSV.

A row holds what every metric needs and nothing game-specific: the deal seed, who sat where,
who won, the scores, the length, whether the rules (not a safeguard) ended the game, who made
the first move, and the per-turn trace of the leader. A class pools runs by adding tables, and
a teacher turns games played by people on a board (``board.match``) into rows with
:func:`result_from_match`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from gamelib.core import CHANCE, GameRecord, returns_for

NO_LEADER = -1
"""The trace's entry when no single seat leads (everybody level, or a tie at the top)."""

CSV_COLUMNS = (
    "variant",
    "index",
    "seed",
    "seating",
    "policies",
    "winners",
    "scores",
    "length",
    "completed",
    "first_mover",
    "trace",
)


@dataclass(frozen=True)
class GameResult:
    """One game: ``seating[seat]`` is the index of the policy in that seat; ``winners`` are seats.

    ``trace[i]`` is the seat leading after ``i`` player actions (``trace[0]`` is the start), or
    :data:`NO_LEADER`; ``completed`` is False when a safeguard, not the rules, ended the game;
    ``first_mover`` is the seat that made the first player action (Nagaraja's first guide).
    """

    index: int
    seed: int | str
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    scores: tuple | None
    length: int
    completed: bool = True
    first_mover: int | None = None
    trace: tuple[int, ...] = ()
    variant: str = ""
    policies: tuple[str, ...] = ()

    def __post_init__(self):
        """A row that cannot be a game is refused where it is made, so no metric meets a seat 9 of 2."""
        problem = row_problem(self)
        if problem:
            raise BadRow(*problem)

    @property
    def players(self) -> int:
        return len(self.seating)

    def returns(self) -> list[float]:
        """The contract's returns by seat: 1/k to each of k winners."""
        return returns_for(self.winners, self.players)

    def policy_returns(self) -> list[float]:
        """The returns by policy index instead of by seat."""
        by_seat = self.returns()
        result = [0.0] * self.players
        for seat, policy_index in enumerate(self.seating):
            result[policy_index] = by_seat[seat]
        return result

    def seat_of(self, policy_index: int) -> int:
        """The seat of policy ``policy_index`` in this game."""
        return self.seating.index(policy_index)

    @classmethod
    def from_record(
        cls,
        record: GameRecord,
        *,
        completed: bool = True,
        first_mover: int | None = None,
        trace: Sequence[int] = (),
        variant: str = "",
        policies: Sequence[str] = (),
    ) -> "GameResult":
        """The table row of a game the core played: the one conversion from :class:`gamelib.core.GameRecord`.

        Every row of a design table is built here, from a tournament's record
        (:func:`gamelib.design.tournament`) or from the states of a game people played
        (:func:`result_from_states`). The row keeps the record's fields but its returns (they
        follow from ``winners``) and its final state, and adds the design fields.

        Args:
            record: the core's record of the game.
            completed: False when a safeguard, not the rules, ended the game.
            first_mover: the seat that made the first player action.
            trace: the seat leading after each player action, the start first (or :data:`NO_LEADER`).
            variant: the label of the rules played.
            policies: the label of each policy (by policy index).

        Raises:
            BadRow: the record cannot be a game (a seat out of range, a winner twice, ...).
        """
        return cls(
            record.index,
            record.seed,
            record.seating,
            record.winners,
            record.scores,
            record.length,
            completed,
            first_mover,
            tuple(trace),
            variant,
            tuple(policies),
        )

    @property
    def deal(self) -> tuple:
        """What pairs two games of compared variants or bots: the same deal in the same seating."""
        return (self.seed, self.seating)


class Results(Sequence[GameResult]):
    """An ordered table of :class:`GameResult` rows; ``a + b`` pools two tables."""

    def __init__(self, rows: Iterable[GameResult] = (), *, skipped: tuple[str, ...] = ()):
        self._rows = tuple(rows)
        self.skipped = tuple(skipped)
        """The rows (or files) a lenient load left out, each with its file, line, field and reason."""

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, item):
        if isinstance(item, slice):
            return Results(self._rows[item])
        return self._rows[item]

    def __iter__(self) -> Iterator[GameResult]:
        return iter(self._rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Results) and self._rows == other._rows

    def __hash__(self) -> int:
        return hash(self._rows)

    def __add__(self, other: "Results") -> "Results":
        return Results(self._rows + tuple(other), skipped=self.skipped + tuple(getattr(other, "skipped", ())))

    def __repr__(self) -> str:
        variants = sorted({row.variant for row in self._rows})
        players = sorted({row.players for row in self._rows})
        return f"Results({len(self)} games, players {players}, variants {variants})"

    @property
    def players(self) -> int:
        """The number of seats, which every row must share for seat metrics."""
        counts = {row.players for row in self._rows}
        if len(counts) != 1:
            raise ValueError(f"these results mix games of {sorted(counts)} players; select one with where()")
        return counts.pop()

    def where(self, keep: Callable[[GameResult], bool]) -> "Results":
        """The rows for which ``keep(row)`` is true (e.g. one variant of a pooled table)."""
        return Results(row for row in self._rows if keep(row))

    def variant(self, name: str) -> "Results":
        return self.where(lambda row: row.variant == name)

    @property
    def variants(self) -> list[str]:
        return sorted({row.variant for row in self._rows})

    # CSV
    def to_csv(self, path: str | Path) -> Path:
        """Write one row per game (standard library ``csv``); lists are space-separated.

        A text cell that a spreadsheet would run as a formula (one starting with ``=``, ``+``, ``-``,
        ``@``, a tab or a carriage return, OWASP's list) is written behind a ``'``, which
        :meth:`from_csv` takes off again, so every name comes back exactly as it was.
        """
        path = Path(path)
        lines = [_csv_row(row, number) for number, row in enumerate(self._rows, start=2)]
        with path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(CSV_COLUMNS)
            writer.writerows(lines)
        return path

    @classmethod
    def from_csv(cls, path: str | Path, *, players: int | None = None, bad_rows: str = "raise") -> "Results":
        """Read a table written by :meth:`to_csv` (or by hand, or by a spreadsheet, with the same columns).

        Every row is checked against the header and against its own seats (``players`` seats each when
        given); a row that breaks a rule raises :class:`BadResultsFile` naming the file, the line and the
        field, or with ``bad_rows="skip"`` is left out and listed in the table's ``skipped``.
        """
        return _read_csv(Path(path), players, bad_rows)


class BadRow(ValueError):
    """A row that cannot be a game: ``field`` names the cell, ``reason`` says what is wrong."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field, self.reason = field, reason


class BadResultsFile(ValueError):
    """A results file, or a row of one, that cannot be a game; the message names the file, line and field."""


MAX_FIELD_CHARS = 131_072
"""The longest cell read (the ``csv`` module's own limit): a game's trace is far shorter."""
MAX_LENGTH = 10**9
"""More player actions than any game has; a larger length is a damaged cell, not a game."""
MAX_SCORE = 10**15
"""Scores beyond this are damaged cells (their squares would lose every digit in a float)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection)."""
_WHOLE = re.compile(r"-?[0-9]+")


def save_csv(results: Iterable[GameResult], path: str | Path) -> Path:
    """Write a table of games to a CSV file (:data:`CSV_COLUMNS`), for pooling with :func:`load_csv`.

    Returns:
        The path written.
    """
    return Results(results).to_csv(path)


def load_csv(*paths: str | Path, players: int | None = None, bad_rows: str = "raise") -> Results:
    """Read and pool one or more CSV files of results (a class's runs, in order).

    Args:
        paths: the files.
        players: the number of seats every row must have (default: any).
        bad_rows: ``"raise"``, or ``"skip"`` to leave out a bad row, or a whole file that cannot be
            read, keep the other games, and list what was left out and why in ``result.skipped``.

    Returns:
        The pooled :class:`Results`.

    Raises:
        BadResultsFile: a bad row or file (with ``bad_rows="raise"``), naming the file, the line and the field.
    """
    pooled = Results()
    for path in paths:
        try:
            pooled = pooled + Results.from_csv(path, players=players, bad_rows=bad_rows)
        except BadResultsFile as problem:
            if bad_rows != "skip":
                raise
            pooled = pooled + Results(skipped=(str(problem),))
    return pooled


def row_problem(row: GameResult, players: int | None = None) -> tuple[str, str] | None:
    """``(field, what is wrong)`` for a row that cannot be a game of its seats, else None."""
    for check in (
        _seating_problem,
        _winners_problem,
        _scores_problem,
        _length_problem,
        _mover_problem,
        _trace_problem,
        _label_problem,
    ):
        problem = check(row, players)
        if problem:
            return problem
    return None


def _seating_problem(row: GameResult, players: int | None):
    seating = row.seating
    if not isinstance(seating, tuple) or not all(_is_whole(seat) for seat in seating):
        return "seating", "should list whole numbers"
    if not seating:
        return "seating", "is empty: a game has at least one seat"
    if sorted(seating) != list(range(len(seating))):
        return "seating", (
            f"{' '.join(map(str, seating))} should name each policy 0 to {len(seating) - 1} exactly once"
        )
    if players is not None and len(seating) != players:
        return "seating", f"has {len(seating)} seats, but these games have {players}"
    return None


def _winners_problem(row: GameResult, players):
    winners, seats = row.winners, len(row.seating)
    if not isinstance(winners, tuple) or not all(_is_whole(seat) for seat in winners):
        return "winners", "should list whole seat numbers"
    if any(not 0 <= seat < seats for seat in winners) or len(set(winners)) != len(winners):
        return "winners", (
            f"{' '.join(map(str, winners))} should be different seats from 0 to {seats - 1} (this game has {seats})"
        )
    return None


def _scores_problem(row: GameResult, players):
    scores = row.scores
    if scores is None:
        return None
    if not isinstance(scores, tuple) or len(scores) != len(row.seating):
        return "scores", f"should give one score per seat ({len(row.seating)})"
    for score in scores:
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not -MAX_SCORE <= score <= MAX_SCORE:
            return "scores", f"{score!r} is not a finite score (at most {MAX_SCORE:.0e} either way)"
    return None


def _length_problem(row: GameResult, players):
    if not _is_whole(row.length) or not 0 <= row.length <= MAX_LENGTH:
        return "length", f"{row.length!r} should be a whole number of moves from 0 to {MAX_LENGTH:,}"
    if not _is_whole(row.index) or row.index < 0:
        return "index", f"{row.index!r} should be a whole number from 0"
    return None


def _mover_problem(row: GameResult, players):
    mover = row.first_mover
    if mover is not None and (not _is_whole(mover) or not 0 <= mover < len(row.seating)):
        return "first_mover", f"{mover!r} should be a seat from 0 to {len(row.seating) - 1}, or empty"
    if not isinstance(row.completed, bool):
        return "completed", f"{row.completed!r} should be 1 or 0"
    return None


def _trace_problem(row: GameResult, players):
    trace = row.trace
    if not isinstance(trace, tuple) or not all(
        _is_whole(seat) and NO_LEADER <= seat < len(row.seating) for seat in trace
    ):
        return "trace", f"should list leading seats from 0 to {len(row.seating) - 1}, or {NO_LEADER} for nobody"
    if trace and len(trace) != row.length + 1:
        return "trace", f"has {len(trace)} entries; a game of {row.length} moves has {row.length + 1} (or none)"
    return None


def _label_problem(row: GameResult, players):
    if isinstance(row.seed, bool) or not isinstance(row.seed, (int, str)):
        return "seed", f"{row.seed!r} should be a whole number or a text"
    if not isinstance(row.variant, str):
        return "variant", "should be a text"
    if not isinstance(row.policies, tuple) or not all(isinstance(name, str) for name in row.policies):
        return "policies", "should be a list of names"
    if row.policies and len(row.policies) != len(row.seating):
        return "policies", f"names {len(row.policies)} policies for {len(row.seating)} seats"
    return None


def _is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- writing


def _csv_row(row: GameResult, number: int) -> list:
    def joined(values):
        return _protect_numbers(" ".join(str(value) for value in values))

    cells = [
        _protect(row.variant),
        row.index,
        _seed_cell(row.seed),
        joined(row.seating),
        _protect(_policies_cell(row.policies)),
        joined(row.winners),
        "" if row.scores is None else joined(row.scores),
        row.length,
        int(row.completed),
        "" if row.first_mover is None else row.first_mover,
        joined(row.trace),
    ]
    for column, cell in zip(CSV_COLUMNS, cells):
        if isinstance(cell, str):
            try:
                cell.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    f"row {number - 2} cannot be written: its {column} holds a character that is "
                    f"not text (a lone surrogate): {cell[:40]!r}"
                ) from None
    return cells


def _needs_quote(text: str, dangerous: Callable[[str], bool]) -> bool:
    return dangerous(text.lstrip("'"))


def _formula_like(text: str) -> bool:
    return text.startswith(FORMULA_STARTS)


def _protect(text: str, dangerous: Callable[[str], bool] = _formula_like) -> str:
    """``'`` + ``text`` when, apart from leading quotes, it is dangerous; exactly undone by :func:`_unprotect`."""
    return "'" + text if _needs_quote(text, dangerous) else text


def _unprotect(text: str, dangerous: Callable[[str], bool] = _formula_like) -> str:
    return text[1:] if text.startswith("'") and _needs_quote(text[1:], dangerous) else text


def _protect_numbers(text: str) -> str:
    """A list of numbers starting with a minus sign is a formula to a spreadsheet (``-1 0`` gives #NULL!)."""
    return "'" + text if text.startswith("-") and " " in text else text


def _seed_like(text: str) -> bool:
    return _formula_like(text) or bool(_WHOLE.fullmatch(text))


def _seed_cell(seed) -> str:
    """An int seed as its digits; a text seed quoted when it looks like a number or a formula."""
    return str(seed) if _is_whole(seed) else _protect(seed, _seed_like)


def _policies_cell(names: tuple[str, ...]) -> str:
    """``a|b`` as before, or a JSON list when that would not come back as the same names."""
    plain = "|".join(names)
    if not plain.startswith("[") and _split_policies(plain) == names:
        return plain
    return json.dumps(list(names), ensure_ascii=False)


def _split_policies(text: str) -> tuple[str, ...]:
    return tuple(text.split("|")) if text else ()


# --------------------------------------------------------------------------- reading


def _read_csv(path: Path, players: int | None, bad_rows: str) -> Results:
    if bad_rows not in ("raise", "skip"):
        raise ValueError(f"bad_rows should be 'raise' or 'skip', not {bad_rows!r}")
    text = _text_of(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, [])
    except csv.Error as problem:
        raise BadResultsFile(f"{path.name}, line 1 (the header): {problem}") from None
    _check_header(path, header)
    rows, skipped = [], []
    while True:
        number = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as problem:
            raise BadResultsFile(f"{path.name}, line {number}: {_csv_problem(problem)}") from None
        if not fields:
            continue  # a blank line (spreadsheets add them at the end)
        try:
            rows.append(_parse_row(fields, header, players))
        except BadRow as bad:
            message = f"{path.name}, line {number}, {bad.field}: {bad.reason}"
            if bad_rows == "raise":
                raise BadResultsFile(message) from None
            skipped.append(message)
    return Results(rows, skipped=tuple(skipped))


def _text_of(path: Path) -> str:
    """The file as text: UTF-8, with or without a spreadsheet's byte-order mark."""
    try:
        data = path.read_bytes()
    except OSError as problem:
        raise BadResultsFile(f"cannot read {path}: {problem.strerror or problem}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        line = data[: problem.start].count(b"\n") + 1
        raise BadResultsFile(
            f"{path.name}, line {line}: the file is not UTF-8 text (byte {data[problem.start]:#04x}); "
            'save it again as "CSV UTF-8"'
        ) from None


def _csv_problem(problem: csv.Error) -> str:
    if "field larger than field limit" in str(problem):
        return f"a cell is longer than {MAX_FIELD_CHARS:,} characters; no game's row has one so long"
    return f"not readable as CSV ({problem})"


def _check_header(path: Path, header: list[str]) -> None:
    missing = [column for column in CSV_COLUMNS if column not in header]
    if missing:
        raise BadResultsFile(f"{path.name} is missing the column(s) {', '.join(missing)}")
    repeated = sorted({column for column in header if header.count(column) > 1})
    if repeated:
        raise BadResultsFile(f"{path.name} has the column(s) {', '.join(repeated)} more than once")


def _parse_row(fields: list[str], header: list[str], players: int | None) -> GameResult:
    if len(fields) != len(header):
        raise BadRow("the row", f"has {len(fields)} cells, but the header names {len(header)}")
    line = dict(zip(header, fields))
    row = GameResult(
        index=_cell(line, "index", _whole),
        seed=_cell(line, "seed", _seed_value),
        seating=_cell(line, "seating", _wholes),
        winners=_cell(line, "winners", _wholes),
        scores=_cell(line, "scores", lambda text: _numbers(text) if text.strip() else None),
        length=_cell(line, "length", _whole),
        completed=_cell(line, "completed", _flag),
        first_mover=_cell(line, "first_mover", lambda text: _whole(text) if text.strip() else None),
        trace=_cell(line, "trace", _wholes),
        variant=_unprotect(line["variant"]),
        policies=_cell(line, "policies", _policies_value),
    )
    problem = row_problem(row, players)  # the seats the caller expects (the row checked itself)
    if problem:
        raise BadRow(*problem)
    return row


def _cell(line: dict, name: str, parse: Callable[[str], Any]) -> Any:
    try:
        return parse(line[name])
    except (TypeError, ValueError) as problem:
        raise BadRow(name, f"{line[name][:40]!r} is not readable ({str(problem)[:80]})") from None


def _whole(text: str) -> int:
    word = text.strip()
    if not _WHOLE.fullmatch(word):
        raise ValueError("not a whole number")
    return int(word)


def _wholes(text: str) -> tuple[int, ...]:
    return tuple(_whole(word) for word in _unquoted_numbers(text).split())


def _numbers(text: str) -> tuple:
    return tuple(_number(word) for word in _unquoted_numbers(text).split())


def _unquoted_numbers(text: str) -> str:
    return text.removeprefix("'")


def _number(word: str) -> int | float:
    if _WHOLE.fullmatch(word):
        return int(word)
    value = float(word)
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    return value


def _flag(text: str) -> bool:
    word = text.strip()
    if word in ("1", "True", "true", "TRUE"):
        return True
    if word in ("0", "False", "false", "FALSE"):
        return False
    raise ValueError("should be 1 (ended by the rules) or 0 (cut short)")


def _seed_value(text: str) -> int | str:
    if text.startswith("'"):
        return _unprotect(text, _seed_like)
    return int(text) if _WHOLE.fullmatch(text) else text


def _policies_value(text: str) -> tuple[str, ...]:
    text = _unprotect(text)
    if text.startswith("["):
        names = json.loads(text)
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError("a list of names should be a JSON list of texts")
        return tuple(names)
    return _split_policies(text)


# --------------------------------------------------------------------------- lead and completion


def leader(values: Sequence[float]) -> int:
    """The seat with the single highest value, or :data:`NO_LEADER` when the top is shared."""
    if not values:
        return NO_LEADER
    best = max(values)
    seats = [seat for seat, value in enumerate(values) if value == best]
    return seats[0] if len(seats) == 1 else NO_LEADER


def score_lead(state: Any) -> Sequence[float]:
    """The default lead measure: the game's ``scores()``, or its returns when it keeps no score."""
    return state.scores() if hasattr(state, "scores") else state.returns()


def ended_by_rules(state: Any) -> bool:
    """The completion protocol: a game that a safeguard can stop (Chakra's ``max_rounds``) gives its
    terminal states ``ended_by_rules`` (a bool property or method), False when the safeguard ended it.
    A game without the attribute is always ended by its rules."""
    flag = getattr(state, "ended_by_rules", True)
    return bool(flag() if callable(flag) else flag)


def result_from_states(
    states: Sequence[Any],
    *,
    seating: Sequence[int] | None = None,
    index: int = 0,
    variant: str = "",
    policies: Sequence[str] = (),
    lead: Callable[[Any], Sequence[float]] | None = None,
) -> GameResult:
    """A row from every state of one finished game, start first (a board's ``match.states``).

    Args:
        states: every state of the game, the final one terminal.
        seating, index, variant, policies: as in :class:`GameResult` (default: seat i holds policy i).
        lead: the lead measure (default: :func:`score_lead`).

    Returns:
        The game's :class:`GameResult`, built by :meth:`GameResult.from_record`.

    Raises:
        ValueError: the last state is not terminal.
    """
    if not states or not states[-1].is_terminal:
        raise ValueError("a result needs a finished game: the last state is not terminal")
    measure = lead or score_lead
    movers = [state for state in states[:-1] if state.current_player != CHANCE]
    final = states[-1]
    players = len(final.returns())
    trace = tuple(leader(measure(state)) for state in movers) + (leader(measure(final)),)
    scores = final.scores() if hasattr(final, "scores") else None
    record = GameRecord(
        index,
        getattr(states[0], "seed", ""),
        tuple(seating or range(players)),
        tuple(final.winners),
        tuple(final.returns()),
        None if scores is None else tuple(scores),
        len(movers),
    )
    return GameResult.from_record(
        record,
        completed=ended_by_rules(final),
        first_mover=movers[0].current_player if movers else None,
        trace=trace,
        variant=variant,
        policies=policies,
    )


def result_from_match(match: Any, **keywords: Any) -> GameResult:
    """A row from a finished :class:`gamelib.Match` (what a board keeps of a game played by people)."""
    return result_from_states(match.states[: match.index + 1], **keywords)
