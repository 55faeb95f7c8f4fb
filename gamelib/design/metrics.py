"""Balance metrics of a table of games, each an :class:`~gamelib.simulate.Estimate` with its 95% interval.

The names follow Ludii's evaluation metrics (Browne; Piette et al., "Ludii game evaluation"):
advantage, balance, drawishness, completion, duration, decisiveness, lead changes and skill
trace. A rate of whole wins gets the Wilson interval (:func:`gamelib.simulate.proportion`);
a mean, including win shares when wins were shared, the normal interval
(:func:`gamelib.simulate.mean`); balance and the spread of lengths, which are no plain mean,
a bootstrap over deals (every seating of a deal is resampled together, as it was played).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import sqrt
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gamelib.design.results import NO_LEADER, GameResult, Results
from gamelib.simulate import Estimate, mean, proportion

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 2026  # fixed, so a metric's interval is the same on every run


def share_estimate(values: Sequence[float]) -> Estimate:
    """A mean win share: Wilson's interval when every value is a whole win or loss, else the normal one."""
    values = list(values)
    if all(value in (0, 1) for value in values):
        return proportion(int(sum(values)), len(values))
    return mean(values)


def seat_win_rates(results: Results) -> list[Estimate]:
    """Win rate by seat: each seat's mean share of the win (1/k for each of k tied winners)."""
    return [share_estimate(column) for column in zip(*(row.returns() for row in _nonempty(results)))]


def policy_win_rates(results: Results) -> list[Estimate]:
    """Win rate by policy: each policy's mean share of the win, whatever seat it sat in."""
    return [share_estimate(column) for column in zip(*(row.policy_returns() for row in _nonempty(results)))]


def seat_advantage(results: Results, seat: int = 0) -> Estimate:
    """Seat advantage: the seat's win rate minus the fair share 1/n (0 = no advantage)."""
    return _shifted(seat_win_rates(results)[seat], -1 / results.players)


def first_mover_win_rate(results: Results) -> Estimate:
    """First-mover win rate: the mean share of the win of whoever made the game's first move."""
    rows = [row for row in _nonempty(results) if row.first_mover is not None]
    return share_estimate([row.returns()[row.first_mover] for row in rows])


def first_mover_advantage(results: Results) -> Estimate:
    """First-mover advantage: the first mover's win rate minus 1/n (Nagaraja's first guide, seat 0 elsewhere)."""
    return _shifted(first_mover_win_rate(results), -1 / results.players)


def balance(results: Results) -> Estimate:
    """Balance: 1 minus the gap between the best and the worst seat's win rate (1 = every seat equal)."""
    return _bootstrap(results, lambda row: (1, *row.returns()), _balance_of)


def draw_rate(results: Results) -> Estimate:
    """Draw or shared-win rate: the share of games without a single winner (a solo game has none)."""
    rows = _nonempty(results)
    if results.players == 1:
        raise ValueError("a solo game has no draws: a game without a winner is lost")
    return proportion(sum(len(row.winners) != 1 for row in rows), len(rows))


def completion(results: Results) -> Estimate:
    """Completion: the share of games ended by the rules, not by a safeguard such as a round limit."""
    rows = _nonempty(results)
    return proportion(sum(row.completed for row in rows), len(rows))


@dataclass(frozen=True)
class Duration:
    """Game length in player actions: mean and standard deviation with intervals, and the distribution."""

    mean: Estimate
    standard_deviation: Estimate
    distribution: dict[int, int]  # length -> number of games
    shortest: int
    longest: int

    def __str__(self) -> str:
        return (
            f"mean {self.mean}, SD {self.standard_deviation.value:.1f} "
            f"(95% CI {self.standard_deviation.low:.1f}–{self.standard_deviation.high:.1f}), "
            f"range {self.shortest}–{self.longest}"
        )


def duration(results: Results) -> Duration:
    """Duration: the length of a game in player actions (mean, SD and distribution)."""
    rows = _nonempty(results)
    lengths = [row.length for row in rows]
    spread = _bootstrap(results, lambda row: (1, row.length, row.length**2), _standard_deviation_of)
    return Duration(mean(lengths), spread, dict(sorted(Counter(lengths).items())), min(lengths), max(lengths))


def decisive_moment(row: GameResult) -> float | None:
    """The fraction of the game played when its single winner takes the lead it keeps to the end
    (1 when the winner does not lead at the end); None without a single winner, a trace or a move."""
    if len(row.winners) != 1 or len(row.trace) < 2 or row.length == 0:
        return None
    winner, kept_from = row.winners[0], len(row.trace)
    while kept_from > 0 and row.trace[kept_from - 1] == winner:
        kept_from -= 1
    return min(kept_from, row.length) / row.length


def decisiveness(results: Results) -> Estimate:
    """Decisiveness: the mean fraction of the game played before the winner takes a lead it keeps (0 = from the start)."""
    moments = [moment for moment in map(decisive_moment, _nonempty(results)) if moment is not None]
    if not moments:
        raise ValueError("decisiveness needs games with a single winner and a lead trace")
    return mean(moments)


def lead_changes_in(row: GameResult) -> int:
    """How often the single leader changes hands in one game (moments of shared lead are skipped)."""
    leaders = [seat for seat in row.trace if seat != NO_LEADER]
    return sum(before != after for before, after in zip(leaders, leaders[1:]))


def lead_changes(results: Results) -> Estimate:
    """Lead changes: the mean number of times per game the lead passes from one seat to another."""
    return mean([lead_changes_in(row) for row in _nonempty(results)])


def skill_trace(results: Results, stronger: int = 0) -> Estimate:
    """Skill trace: the stronger policy's win rate against the weaker (0.5 for two players = all luck)."""
    return policy_win_rates(results)[stronger]


# --------------------------------------------------------------------------- beside an exact value


@dataclass(frozen=True)
class Check:
    """A simulated figure beside the exact one, and whether the interval covers it."""

    name: str
    estimate: Estimate
    exact: float | None = None

    @property
    def covered(self) -> bool | None:
        return None if self.exact is None else self.estimate.contains(float(self.exact))

    def __str__(self) -> str:
        text = f"{self.name}: {self.estimate}"
        if self.exact is not None:
            text += f"; exact {float(self.exact):.4f} ({'inside' if self.covered else 'OUTSIDE'} the interval)"
        return text


def beside_exact(name: str, estimate: Estimate, exact: float | None) -> Check:
    """Put a simulated figure beside an exact one (the Pangu solver's win probability, an enumeration)."""
    return Check(name, estimate, exact)


def compare_to_exact(
    simulated: Mapping[str, Results | Estimate],
    exact: Mapping[str, Any],
    metric: Callable[[Results], Estimate] | None = None,
):
    """A table of exact values beside simulated rates, and whether each interval holds its exact value.

    Args:
        simulated: by name, a :class:`Results` (measured by ``metric``) or an :class:`Estimate`
            (used as it is).
        exact: by name, the exact value (a ``Fraction`` is shown as a fraction too).
        metric: default: seat 0's win rate, which is the win rate of a solo game.

    Returns:
        A :class:`Table`, one row per name: the exact value, the simulated rate with its 95% interval
        and games, and whether the interval holds the exact value. A name on one side only gets a row
        with the other side empty.
    """
    from gamelib.design.tables import Table

    measure = metric or (lambda results: seat_win_rates(results)[0])
    rows = []
    for name in list(simulated) + [name for name in exact if name not in simulated]:
        given = simulated.get(name)
        estimate = given if isinstance(given, Estimate) or given is None else measure(given)
        value = exact.get(name)
        covered = None if estimate is None or value is None else Check(name, estimate, value).covered
        rows.append(
            {
                "name": name,
                "exact": "" if value is None else _exact_text(value),
                "simulated": "" if estimate is None else estimate.value,
                "low": "" if estimate is None else estimate.low,
                "high": "" if estimate is None else estimate.high,
                "games": "" if estimate is None else estimate.samples,
                "exact in interval": {True: "yes", False: "NO", None: ""}[covered],
            }
        )
    return Table(rows, ["name", "exact", "simulated", "low", "high", "games", "exact in interval"])


def _exact_text(value: Any) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4f} ({value})"
    return f"{float(value):.4f}"


METRICS: dict[str, Callable[[Results], Estimate]] = {
    "first seat win rate": lambda results: seat_win_rates(results)[0],
    "first seat advantage": seat_advantage,
    "first mover advantage": first_mover_advantage,
    "balance": balance,
    "draw rate": draw_rate,
    "completion": completion,
    "mean length": lambda results: duration(results).mean,
    "decisiveness": decisiveness,
    "lead changes": lead_changes,
}


SEATED_METRICS = (
    "first seat advantage",
    "first mover advantage",
    "balance",
    "draw rate",
    "decisiveness",
    "lead changes",
)


def summary(results: Results, exact: dict[str, float] | None = None):
    """Every metric of :data:`METRICS` measured on ``results``.

    Args:
        results: a table of games.
        exact: exact values by metric name, shown beside the simulated ones.

    Returns:
        A :class:`Table`: name, value, interval, exact value where given, definition.
    """
    from gamelib.design.tables import Table

    exact = exact or {}
    rows = []
    for name, metric in METRICS.items():
        if results.players == 1 and name in SEATED_METRICS:
            continue  # a solo game has no seats to compare, no draw and no rival to lead
        try:
            estimate = metric(results)
        except ValueError:
            continue  # e.g. decisiveness of games never won alone
        check = Check(name, estimate, exact.get(name))
        rows.append(
            {
                "metric": name,
                "value": estimate.value,
                "low": estimate.low,
                "high": estimate.high,
                "exact": "" if check.exact is None else float(check.exact),
                "definition": _definition(metric, name),
            }
        )
    return Table(rows, ["metric", "value", "low", "high", "exact", "definition"])


# --------------------------------------------------------------------------- helpers


def _definition(metric: Callable, name: str) -> str:
    target = {"first seat win rate": seat_win_rates, "mean length": duration}.get(name, metric)
    return (target.__doc__ or "").strip().splitlines()[0].split(": ", 1)[-1]


def _nonempty(results: Results) -> Results:
    if not len(results):
        raise ValueError("no games to measure")
    return results


def _shifted(estimate: Estimate, by: float) -> Estimate:
    return Estimate(estimate.value + by, estimate.low + by, estimate.high + by, estimate.samples)


BOOTSTRAP_BLOCK = 1 << 16
"""Deals drawn at a time: the bootstrap's memory is a few blocks, whatever the number of rows."""


def _bootstrap(
    results: Results, row_vector: Callable[[GameResult], Sequence[float]], finish: Callable[[np.ndarray], float]
) -> Estimate:
    """A statistic ``finish(sum of row_vector over the rows)`` with a percentile interval from
    resampling whole deals (a deal's seatings stay together, as they were played)."""
    groups = _deal_totals(_nonempty(results), row_vector)
    totals = _resampled_totals(groups, np.random.default_rng(BOOTSTRAP_SEED))
    values = np.sort([finish(total) for total in totals])
    low, high = values[int(0.025 * BOOTSTRAP_RESAMPLES)], values[int(0.975 * BOOTSTRAP_RESAMPLES) - 1]
    return Estimate(float(finish(groups.sum(axis=0))), float(low), float(high), len(results))


def _deal_totals(rows: Results, row_vector: Callable[[GameResult], Sequence[float]]) -> np.ndarray:
    """One row per deal (variant, seed): the sum of ``row_vector`` over its seatings, deals in first-seen order."""
    deal_index: dict = {}
    deals = np.empty(len(rows), dtype=np.int64)
    vectors = None
    for number, row in enumerate(rows):
        vector = row_vector(row)
        if vectors is None:
            vectors = np.empty((len(rows), len(vector)))
        vectors[number] = vector
        deals[number] = deal_index.setdefault((row.variant, row.seed), len(deal_index))
    groups = np.zeros((len(deal_index), vectors.shape[1]))
    np.add.at(groups, deals, vectors)  # row by row, in order: the sums the seatings' vectors give
    return groups


def _resampled_totals(groups: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The column sums of BOOTSTRAP_RESAMPLES resamples (with replacement) of the deals, drawn block by
    block: the same draws, in the same order, as one ``(resamples, deals)`` array, without building it."""
    deals = len(groups)
    totals = np.zeros((BOOTSTRAP_RESAMPLES, groups.shape[1]))
    if deals <= BOOTSTRAP_BLOCK:
        per_block = BOOTSTRAP_BLOCK // deals
        for first in range(0, BOOTSTRAP_RESAMPLES, per_block):
            count = min(per_block, BOOTSTRAP_RESAMPLES - first)
            totals[first : first + count] = groups[rng.integers(0, deals, size=(count, deals))].sum(axis=1)
        return totals
    columns = np.ascontiguousarray(groups.T)  # one row per statistic: each pick gathers from a contiguous row
    for resample in range(BOOTSTRAP_RESAMPLES):
        for first in range(0, deals, BOOTSTRAP_BLOCK):
            picks = rng.integers(0, deals, size=min(BOOTSTRAP_BLOCK, deals - first))
            totals[resample] += columns.take(picks, axis=1).sum(axis=1)
    return totals


def _balance_of(total: np.ndarray) -> float:
    """From (games, wins of seat 0, wins of seat 1, ...): 1 - (best seat's rate - worst seat's rate)."""
    rates = total[1:] / total[0]
    return 1 - float(rates.max() - rates.min())


def _standard_deviation_of(total: np.ndarray) -> float:
    """From (games, sum of lengths, sum of squared lengths): the sample standard deviation."""
    count, first, second = total
    return sqrt(max(0.0, (second - first * first / count) / (count - 1))) if count > 1 else 0.0


__all__ = [
    "share_estimate",
    "seat_win_rates",
    "policy_win_rates",
    "seat_advantage",
    "first_mover_win_rate",
    "first_mover_advantage",
    "balance",
    "draw_rate",
    "completion",
    "Duration",
    "duration",
    "decisive_moment",
    "decisiveness",
    "lead_changes_in",
    "lead_changes",
    "skill_trace",
    "Check",
    "beside_exact",
    "compare_to_exact",
    "METRICS",
    "summary",
]
