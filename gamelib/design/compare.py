"""Paired comparison of two rule sets or two bots on the same deals, and how many games a test needs.

Two tournaments run with the same seed play the same deals in the same seatings, so each game of
one has a twin in the other. Only the discordant pairs (the outcome happened in one and not the
other) say anything about the difference: McNemar's test on them, and Agresti and Min's (2005)
interval for the difference of the two matched rates.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, comb, sqrt
from statistics import NormalDist
from typing import Callable, Sequence

from gamelib.design.results import GameResult, Results
from gamelib.simulate import Z95, Estimate

Outcome = Callable[[GameResult], bool]


def policy_won(policy_index: int = 0) -> Outcome:
    """The outcome "this policy won alone"."""
    return lambda row: row.winners == (row.seat_of(policy_index),)


def seat_won(seat: int = 0) -> Outcome:
    """The outcome "this seat won alone"."""
    return lambda row: row.winners == (seat,)


def first_mover_won(row: GameResult) -> bool:
    """The outcome "whoever moved first won alone"."""
    return row.first_mover is not None and row.winners == (row.first_mover,)


@dataclass(frozen=True)
class PairedComparison:
    """Counts of the paired games by outcome in A and in B, the difference of rates and McNemar's p."""

    both: int
    only_a: int
    only_b: int
    neither: int
    difference: Estimate  # rate in A minus rate in B
    p_value: float  # McNemar's exact (binomial) two-sided test on the discordant pairs

    @property
    def pairs(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither

    @property
    def discordant(self) -> int:
        return self.only_a + self.only_b

    def __str__(self) -> str:
        d = self.difference
        return (
            f"difference {d.value:+.3f} (95% CI {d.low:+.3f} to {d.high:+.3f}) over {self.pairs} paired games; "
            f"the outcome in {self.only_a} only in A, in {self.only_b} only in B; McNemar p = {self.p_value:.3g}"
        )


def paired_comparison(a: Results, b: Results, outcome: Outcome | None = None) -> PairedComparison:
    """Compare the rate of ``outcome`` in two tables played on the same deals, deal by deal.

    Args:
        a, b: two tournaments run with the same seed, games and seat rotation.
        outcome: maps a row to True or False (default: policy 0 won alone, :func:`policy_won`).

    Returns:
        A :class:`PairedComparison`: the counts of pairs by outcome, the difference of rates and
        McNemar's exact p-value.

    Raises:
        ValueError: the tables do not hold the same deals in the same seatings.

    Example (a rule change measured on the same 500 deals)::

        paired_comparison(design.tournament(game, bots, 500, seed=1),
                          design.tournament(game, bots, 500, variant_rules, seed=1))
    """
    outcome = outcome or policy_won(0)
    twins = {row.deal: row for row in b}
    if len(twins) != len(b) or {row.deal for row in a} != set(twins) or len(a) != len(b):
        raise ValueError(
            "the two tables do not hold the same deals and seatings: "
            "run both tournaments with the same seed, games and seat rotation"
        )
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for row in a:
        counts[(bool(outcome(row)), bool(outcome(twins[row.deal])))] += 1
    both, only_a, only_b, neither = (
        counts[key] for key in ((True, True), (True, False), (False, True), (False, False))
    )
    return PairedComparison(
        both, only_a, only_b, neither, _matched_difference(only_a, only_b, len(a)), mcnemar_p_value(only_a, only_b)
    )


def paired_outcomes(a: Sequence[bool], b: Sequence[bool]) -> PairedComparison:
    """:func:`paired_comparison` for two lists of outcomes already matched deal by deal.

    Args:
        a, b: ``a[i]`` and ``b[i]`` come from the same deal, e.g. whether each of two bots won each of
            the same seeded games.

    Returns:
        A :class:`PairedComparison`.

    Raises:
        ValueError: a list is empty, or they differ in length.
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"need two non-empty lists of outcomes of the same deals, not {len(a)} and {len(b)}")
    pairs = [(bool(x), bool(y)) for x, y in zip(a, b)]
    both, only_a, only_b = pairs.count((True, True)), pairs.count((True, False)), pairs.count((False, True))
    return PairedComparison(
        both,
        only_a,
        only_b,
        len(pairs) - both - only_a - only_b,
        _matched_difference(only_a, only_b, len(pairs)),
        mcnemar_p_value(only_a, only_b),
    )


def mcnemar_p_value(only_a: int, only_b: int) -> float:
    """McNemar's exact test: the two-sided binomial p of the split of the discordant pairs under 1/2 each.

    Args:
        only_a: pairs where the outcome happened in A only.
        only_b: pairs where it happened in B only.

    Returns:
        The p-value (1.0 when there is no discordant pair).

    >>> round(mcnemar_p_value(9, 1), 4)
    0.0215
    """
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    tail = sum(comb(discordant, k) for k in range(min(only_a, only_b) + 1))
    return min(1.0, 2 * tail / 2**discordant)


def _matched_difference(only_a: int, only_b: int, pairs: int) -> Estimate:
    """Agresti and Min's interval: add 1/2 to each of the four cells, then the Wald interval."""
    adjusted = pairs + 2
    p_a, p_b = (only_a + 0.5) / adjusted, (only_b + 0.5) / adjusted
    centre = p_a - p_b
    margin = Z95 * sqrt(max(0.0, (p_a + p_b - centre**2) / adjusted))
    return Estimate((only_a - only_b) / pairs, max(-1.0, centre - margin), min(1.0, centre + margin), pairs)


# --------------------------------------------------------------------------- power


def _z(probability: float) -> float:
    return NormalDist().inv_cdf(probability)


def games_needed(difference: float, baseline: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games needed to tell a rate of ``baseline + difference`` from ``baseline``, e.g. a first-seat
    advantage of 5 points.

    A one-sample count (a two-sided test of one proportion): ``baseline`` is a known value, not a
    second sample. To compare two bots or two rule sets, use :func:`two_sample_games_needed`
    (separate games) or :func:`paired_games_needed`.

    Args:
        difference: the gap to detect, as a rate (0.05 for 5 points).
        baseline: the known rate.
        alpha: the test's level; ``power``: the chance of detecting the gap when it is there.

    Returns:
        The number of games, rounded up.

    Raises:
        ValueError: a rate outside (0, 1), or no difference.
    """
    rate = baseline + difference
    if difference == 0 or not 0 < rate < 1:
        raise ValueError(f"the rate {rate} must differ from {baseline} and lie strictly between 0 and 1")
    spread = _z(1 - alpha / 2) * sqrt(baseline * (1 - baseline)) + _z(power) * sqrt(rate * (1 - rate))
    return ceil((spread / difference) ** 2)


def two_sample_games_needed(difference: float, baseline: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games needed *per arm* to tell two independent samples apart, one with rate ``baseline`` and one with
    ``baseline + difference`` (two-sided z-test of two proportions).

    Fleiss, Levin and Paik, *Statistical Methods for Rates and Proportions* (3rd ed., 2003), eq. 4.14
    without the continuity correction: ``n = (z_(1-alpha/2) sqrt(2 p q) + z_power sqrt(p1 q1 + p2 q2))^2 / d^2``
    with ``p`` the mean of the two rates. Use it for two bots or two rule sets played on *different* deals;
    :func:`games_needed` is the one-sample count (one rate against a known value), and
    :func:`paired_games_needed` the count of paired deals.

    Args:
        difference, baseline: the two rates are ``baseline`` and ``baseline + difference``.
        alpha: the test's level; ``power``: the chance of detecting the gap when it is there.

    Returns:
        The number of games in each sample, rounded up.

    Raises:
        ValueError: a rate outside (0, 1), or no difference.
    """
    rate = baseline + difference
    if difference == 0 or not 0 < baseline < 1 or not 0 < rate < 1:
        raise ValueError(f"the rates {baseline} and {rate} must differ and lie strictly between 0 and 1")
    mean = (baseline + rate) / 2
    spread = _z(1 - alpha / 2) * sqrt(2 * mean * (1 - mean)) + _z(power) * sqrt(
        baseline * (1 - baseline) + rate * (1 - rate)
    )
    return ceil((spread / difference) ** 2)


def paired_games_needed(difference: float, discordant: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Paired games needed for McNemar's test to detect a difference of rates (Connor 1987).

    Args:
        difference: the difference of rates to detect.
        discordant: the share of pairs whose outcomes differ (a pilot comparison gives it).
        alpha: the test's level; ``power``: the chance of detecting the difference when it is there.

    Returns:
        The number of paired deals, rounded up.

    Raises:
        ValueError: unless 0 < |difference| <= discordant <= 1.
    """
    if not 0 < abs(difference) <= discordant <= 1:
        raise ValueError("need 0 < |difference| <= discordant share <= 1")
    spread = _z(1 - alpha / 2) * sqrt(discordant) + _z(power) * sqrt(discordant - difference**2)
    return ceil((spread / difference) ** 2)
