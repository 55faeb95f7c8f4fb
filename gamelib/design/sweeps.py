"""A metric against a rule parameter, with intervals, as a table and a plot; and a target search.

Every value of the parameter is played on the same deals (the same seed), so the curve's steps
come from the rule, not from the luck of different deals.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from gamelib.core import replace_fields
from gamelib.design.metrics import seat_win_rates
from gamelib.design.results import Results
from gamelib.design.running import tournament
from gamelib.design.tables import Table
from gamelib.simulate import Estimate

Metric = Callable[[Results], Estimate]


def first_seat_win_rate(results: Results) -> Estimate:
    """The win rate of seat 0 (for a solo game, the win rate)."""
    return seat_win_rates(results)[0]


@dataclass(frozen=True)
class Sweep:
    """A metric measured at each value of one parameter."""

    parameter: str
    values: tuple
    estimates: tuple[Estimate, ...]
    results: tuple[Results, ...]
    metric_name: str

    def table(self) -> Table:
        return Table(
            [
                {
                    self.parameter: value,
                    self.metric_name: estimate.value,
                    "low": estimate.low,
                    "high": estimate.high,
                    "games": estimate.samples,
                }
                for value, estimate in zip(self.values, self.estimates)
            ]
        )

    def __str__(self) -> str:
        return str(self.table())

    def plot(self, ax=None, target: float | None = None, exact: Sequence[float] | None = None):
        """The metric with its 95% intervals against the parameter, in the house style."""
        from gamelib import plots

        if ax is None:
            _, ax = plots.figure()
        numeric = all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in self.values)
        xs = list(self.values) if numeric else list(range(len(self.values)))
        ys = [estimate.value for estimate in self.estimates]
        errors = [[y - e.low for y, e in zip(ys, self.estimates)], [e.high - y for y, e in zip(ys, self.estimates)]]
        ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, color=plots.SERIES[0], label="simulated (95% CI)")
        if exact is not None:
            ax.plot(xs, [float(value) for value in exact], "s--", color=plots.SERIES[1], label="exact")
        if target is not None:
            ax.axhline(target, color=plots.PALETTE["grey"], linestyle=":", label=f"target {target:g}")
        if not numeric:
            ax.set_xticks(xs, [str(value) for value in self.values])
        elif all(isinstance(value, int) for value in self.values) and len(xs) <= 20:
            ax.set_xticks(xs)  # a whole-number parameter: no ticks between its values
        if exact is not None or target is not None:
            ax.legend()
        return plots.label(ax, self.parameter, self.metric_name)


def sweep(
    game: Any,
    parameter: str,
    values: Sequence,
    policies: Any,
    games: int,
    *,
    metric: Metric = first_seat_win_rate,
    metric_name: str | None = None,
    rules: Any = None,
    setup: dict | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: bool = True,
    **options: Any,
) -> Sweep:
    """Measure ``metric`` at each value of one parameter, every value played on the same deals.

    Args:
        game, policies: as in :func:`tournament`.
        parameter: a field of the game's ``Rules`` (changed from ``rules``, default the game's
            defaults), or else a setup keyword such as ``players``.
        values: the values to try.
        games: the number of deals at each value, as in :func:`tournament`.
        metric: maps a :class:`Results` to an Estimate (default: seat 0's win rate);
            ``metric_name`` labels it.
        seed, setup, executor, workers, progress: as in :func:`tournament`.
        options: passed to :func:`tournament` (``lead``, ``rotate``, ...).

    Returns:
        A :class:`Sweep` (``.plot()`` draws it).

    Example (which starting Karma gives greedy play which chance)::

        design.sweep(pangu, "starting_karma", range(6, 15), pangu.greedy_policy, 300).plot()
    """
    estimates, tables = [], []
    for value in values:
        value_rules, value_setup = _with_parameter(game, rules, setup, parameter, value)
        results = tournament(
            game,
            policies,
            games,
            value_rules,
            seed=seed,
            setup=value_setup,
            executor=executor,
            workers=workers,
            progress=progress,
            variant=f"{parameter}={value}",
            description=f"{parameter}={value}",
            **options,
        )
        tables.append(results)
        estimates.append(metric(results))
    name = metric_name or (metric.__name__.replace("_", " ") if hasattr(metric, "__name__") else "metric")
    return Sweep(parameter, tuple(values), tuple(estimates), tuple(tables), name)


@dataclass(frozen=True)
class TargetSearch:
    """The parameter value whose metric comes nearest the target, and every value tried."""

    value: Any
    estimate: Estimate
    target: float
    tried: Sweep

    @property
    def target_in_interval(self) -> bool:
        return self.estimate.contains(self.target)

    def __str__(self) -> str:
        return (
            f"{self.tried.parameter} = {self.value}: {self.tried.metric_name} {self.estimate} "
            f"(target {self.target:g}{' inside' if self.target_in_interval else ' outside'} the interval)"
        )


def find_target(
    game: Any,
    parameter: str,
    low: int,
    high: int,
    policies: Any,
    games: int,
    *,
    target: float = 0.5,
    metric: Metric = first_seat_win_rate,
    **options: Any,
) -> TargetSearch:
    """The whole-number value of ``parameter`` in ``low..high`` whose metric is nearest ``target``, by bisection.

    It assumes the metric rises or falls steadily with the parameter (e.g. which starting Karma
    makes greedy win 50%).

    Args:
        low, high: the range searched, both included.
        target: the metric's value wanted.
        game, parameter, policies, games, metric, options: as in :func:`sweep`.

    Returns:
        A :class:`TargetSearch`: the value chosen and every value tried with its metric.
    """
    if low > high:
        raise ValueError(f"the search range {low}..{high} is empty")
    measured: dict[int, tuple[Estimate, Results]] = {}

    def measure(value: int) -> float:
        if value not in measured:
            one = sweep(game, parameter, [value], policies, games, metric=metric, **options)
            measured[value] = (one.estimates[0], one.results[0])
        return measured[value][0].value - target

    below, above = low, high
    side_of_low = measure(low) < 0
    if side_of_low == (measure(high) < 0):
        pass  # the target lies outside the range: the nearer end is the answer
    else:
        while above - below > 1:
            middle = (below + above) // 2
            if (measure(middle) < 0) == side_of_low:
                below = middle
            else:
                above = middle
    best = min(measured, key=lambda value: (abs(measured[value][0].value - target), value))
    order = sorted(measured)
    name = options.get("metric_name") or getattr(metric, "__name__", "metric").replace("_", " ")
    tried = Sweep(
        parameter, tuple(order), tuple(measured[v][0] for v in order), tuple(measured[v][1] for v in order), name
    )
    return TargetSearch(best, measured[best][0], target, tried)


def _with_parameter(game: Any, rules: Any, setup: dict | None, parameter: str, value: Any) -> tuple[Any, dict]:
    base = rules if rules is not None else getattr(game, "Rules", None)
    base = base() if isinstance(base, type) else base
    if base is not None and parameter in {field.name for field in dataclasses.fields(base)}:
        return replace_fields(base, **{parameter: value}), dict(setup or {})
    return rules, {**(setup or {}), parameter: value}
