"""The table of games a design study works on: one row per game, saved to and loaded from CSV.

A row holds what every metric needs and nothing game-specific: the deal seed, who sat where,
who won, the scores, the length, whether the rules (not a safeguard) ended the game, who made
the first move, and the per-turn trace of the leader. A class pools runs by adding tables, and
a teacher turns games played by people on a board (``board.match``) into rows with
:func:`result_from_match`.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from gamelib.core import CHANCE, returns_for

NO_LEADER = -1
"""The trace's entry when no single seat leads (everybody level, or a tie at the top)."""

CSV_COLUMNS = ("variant", "index", "seed", "seating", "policies", "winners", "scores", "length",
               "completed", "first_mover", "trace")


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
        return self.seating.index(policy_index)

    @property
    def deal(self) -> tuple:
        """What pairs two games of compared variants or bots: the same deal in the same seating."""
        return (self.seed, self.seating)


class Results(Sequence[GameResult]):
    """An ordered table of :class:`GameResult` rows; ``a + b`` pools two tables."""

    def __init__(self, rows: Iterable[GameResult] = ()):
        self._rows = tuple(rows)

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
        return Results(self._rows + tuple(other))

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
        """Write one row per game (standard library ``csv``); lists are space-separated."""
        path = Path(path)
        with path.open("w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(CSV_COLUMNS)
            for row in self._rows:
                writer.writerow(_csv_row(row))
        return path

    @classmethod
    def from_csv(cls, path: str | Path) -> "Results":
        """Read a table written by :meth:`to_csv` (or by hand, with the same columns)."""
        path = Path(path)
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.DictReader(file)
            missing = [column for column in CSV_COLUMNS if column not in (reader.fieldnames or ())]
            if missing:
                raise ValueError(f"{path.name} is missing the column(s) {', '.join(missing)}")
            return cls(_parse_row(line, number) for number, line in enumerate(reader, start=2))


def save_csv(results: Iterable[GameResult], path: str | Path) -> Path:
    return Results(results).to_csv(path)


def load_csv(*paths: str | Path) -> Results:
    """Read and pool one or more CSV files of results (a class's runs, in order)."""
    pooled = Results()
    for path in paths:
        pooled = pooled + Results.from_csv(path)
    return pooled


def _numbers(text: str) -> tuple:
    return tuple(_number(word) for word in text.split())


def _number(word: str) -> int | float:
    try:
        return int(word)
    except ValueError:
        return float(word)


def _csv_row(row: GameResult) -> list:
    joined = lambda values: " ".join(str(value) for value in values)
    return [row.variant, row.index, row.seed, joined(row.seating), "|".join(row.policies), joined(row.winners),
            "" if row.scores is None else joined(row.scores), row.length, int(row.completed),
            "" if row.first_mover is None else row.first_mover, joined(row.trace)]


def _parse_row(line: dict, number: int) -> GameResult:
    try:
        seed = line["seed"]
        return GameResult(
            index=int(line["index"]), seed=int(seed) if seed.lstrip("-").isdigit() else seed,
            seating=_numbers(line["seating"]), winners=_numbers(line["winners"]),
            scores=_numbers(line["scores"]) if line["scores"].strip() else None,
            length=int(line["length"]), completed=line["completed"].strip() in ("1", "True", "true"),
            first_mover=int(line["first_mover"]) if line["first_mover"].strip() else None,
            trace=_numbers(line["trace"]), variant=line["variant"],
            policies=tuple(line["policies"].split("|")) if line["policies"] else ())
    except (TypeError, ValueError) as problem:
        raise ValueError(f"line {number} of the results is not readable: {problem}") from None


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


def result_from_states(states: Sequence[Any], *, seating: Sequence[int] | None = None, index: int = 0,
                       variant: str = "", policies: Sequence[str] = (),
                       lead: Callable[[Any], Sequence[float]] | None = None) -> GameResult:
    """A row from every state of one finished game, start first (a board's ``match.states``)."""
    if not states or not states[-1].is_terminal:
        raise ValueError("a result needs a finished game: the last state is not terminal")
    measure = lead or score_lead
    movers = [state for state in states[:-1] if state.current_player != CHANCE]
    final = states[-1]
    players = len(final.returns())
    trace = tuple(leader(measure(state)) for state in movers) + (leader(measure(final)),)
    scores = final.scores() if hasattr(final, "scores") else None
    return GameResult(index, getattr(states[0], "seed", ""), tuple(seating or range(players)), tuple(final.winners),
                      None if scores is None else tuple(scores), len(movers), ended_by_rules(final),
                      movers[0].current_player if movers else None, trace, variant, tuple(policies))


def result_from_match(match: Any, **keywords: Any) -> GameResult:
    """A row from a finished :class:`gamelib.Match` (what a board keeps of a game played by people)."""
    return result_from_states(match.states[: match.index + 1], **keywords)
