"""Seeded batch simulation, confidence intervals and a progress bar.

Every Monte Carlo figure in the notebooks is an :class:`Estimate`: a value with its
95% interval, printed together so nobody reads three decimals into a noisy number.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import sqrt
from statistics import fmean, stdev
from typing import Any, Callable, Iterable, Iterator, Sequence

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


@dataclass(frozen=True)
class Estimate:
    """A simulated figure with its 95% confidence interval."""

    value: float
    low: float
    high: float
    samples: int

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high

    def __str__(self) -> str:
        return f"{self.value:.3f} (95% CI {self.low:.3f}–{self.high:.3f}, n={self.samples})"

    def percent(self) -> str:
        return f"{self.value:.1%} (95% CI {self.low:.1%}–{self.high:.1%}, n={self.samples})"


def proportion(successes: int, trials: int) -> Estimate:
    """A rate with its Wilson score interval (sound even near 0% or 100%)."""
    if trials <= 0:
        raise ValueError("a rate needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials is impossible")
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    margin = Z95 * sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - margin)
    high = 1.0 if successes == trials else min(1.0, centre + margin)
    return Estimate(p, low, high, trials)


def mean(values: Sequence[float]) -> Estimate:
    """A sample mean with its normal-approximation interval."""
    values = list(values)
    if not values:
        raise ValueError("a mean needs at least one value")
    centre = fmean(values)
    if len(values) < 2:
        return Estimate(centre, float("-inf"), float("inf"), 1)
    margin = Z95 * stdev(values) / sqrt(len(values))
    return Estimate(centre, centre - margin, centre + margin, len(values))


def seeds(master_seed: int, count: int) -> list[int]:
    """``count`` reproducible game seeds derived from one master seed."""
    rng = random.Random(master_seed)
    return [rng.getrandbits(63) for _ in range(count)]


def progress(iterable: Iterable, total: int | None = None, description: str = "") -> Iterator:
    """Yield from ``iterable`` under a labelled progress bar with counts (tqdm: a widget in a
    notebook, a line of text elsewhere)."""
    from tqdm.auto import tqdm

    return iter(tqdm(iterable, total=total, desc=description, unit="game", leave=True, mininterval=0.5))


def run_many(
    play_one: Callable[[int], Any],
    games: int,
    seed: int = 0,
    description: str = "games",
    show_progress: bool = True,
) -> list:
    """Call ``play_one(game_seed)`` for ``games`` derived seeds; return the results in order."""
    game_seeds = seeds(seed, games)
    iterator = progress(game_seeds, games, description) if show_progress else game_seeds
    return [play_one(s) for s in iterator]
