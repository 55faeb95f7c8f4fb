"""gamelib.design's paired comparison (McNemar), power helpers, sweeps and target search."""

from __future__ import annotations

from math import comb

import matplotlib
import pytest

import toy_game
from design_support import exact_one_die_race, one_die, two_dice
from gamelib import design
from gamelib.design import GameResult, Results


def paired_tables(both, only_a, only_b, neither):
    """Two tables over the same deals whose "seat 0 won" outcomes fall in the four cells as given."""
    cells = [(True, True)] * both + [(True, False)] * only_a + [(False, True)] * only_b + [(False, False)] * neither

    def winner(won):
        return (0,) if won else (1,)

    a = Results(GameResult(i, i, (0, 1), winner(x), None, 1) for i, (x, _) in enumerate(cells))
    b = [GameResult(i, i, (0, 1), winner(y), None, 1) for i, (_, y) in enumerate(cells)]
    return a, Results(reversed(b))  # pairs are found by deal, not by position


def test_mcnemar_and_the_matched_interval_by_hand():
    a, b = paired_tables(both=2, only_a=3, only_b=1, neither=4)
    comparison = design.paired_comparison(a, b, design.seat_won(0))
    assert (comparison.both, comparison.only_a, comparison.only_b, comparison.neither) == (2, 3, 1, 4)
    # exact McNemar: 4 discordant pairs split 3-1; two-sided p = 2 (C(4,0) + C(4,1)) / 2^4 = 10/16
    assert comparison.p_value == pytest.approx(0.625)
    # the difference of rates (5 - 3) / 10; Agresti-Min: (3.5 - 1.5) / 12 = 1/6 +- 1.96 sqrt((5/12 - 1/36) / 12)
    assert comparison.difference.value == pytest.approx(0.2)
    assert comparison.difference.low == pytest.approx(-0.186167, abs=1e-6)
    assert comparison.difference.high == pytest.approx(0.519501, abs=1e-6)
    assert "McNemar p = 0.625" in str(comparison)


def test_mcnemar_edges():
    assert design.mcnemar_p_value(0, 0) == 1.0
    assert design.mcnemar_p_value(10, 0) == pytest.approx(2 / 2**10)
    assert design.mcnemar_p_value(7, 3) == pytest.approx(2 * sum(comb(10, k) for k in range(4)) / 2**10)


def test_paired_outcomes_counts_like_paired_comparison():
    a, b = paired_tables(2, 3, 1, 4)
    from_tables = design.paired_comparison(a, b)
    b_by_deal = sorted(b, key=lambda row: row.deal)  # the lists must be matched by position
    from_lists = design.paired_outcomes([row.winners == (0,) for row in a], [row.winners == (0,) for row in b_by_deal])
    assert from_lists == from_tables
    with pytest.raises(ValueError, match="same deals"):
        design.paired_outcomes([True], [True, False])


def test_comparison_needs_the_same_deals():
    a, b = paired_tables(2, 3, 1, 4)
    with pytest.raises(ValueError, match="same seed"):
        design.paired_comparison(a, b[:5])


def test_two_bots_compared_on_the_same_deals_of_the_race():
    against_one = design.tournament(toy_game, [two_dice, one_die], 200, seed=8, workers=1, progress=False)
    mirror = design.tournament(toy_game, [one_die, one_die], 200, seed=8, rotate=True, workers=1, progress=False)
    comparison = design.paired_comparison(against_one, mirror, design.policy_won(0))
    assert comparison.pairs == 400 and comparison.difference.low > 0 and comparison.p_value < 0.05
    assert comparison.both + comparison.neither > 0  # the same dice often decide both games alike


def test_games_needed_by_hand():
    # (1.95996 * sqrt(0.25) + 0.84162 * sqrt(0.6 * 0.4))^2 / 0.1^2 = 193.85 -> 194 games
    assert design.games_needed(0.1) == 194
    assert design.games_needed(-0.1) == 194  # symmetric around 1/2
    assert design.games_needed(0.05) > 4 * design.games_needed(0.1) - 20  # a quarter of the gap, ~4x games
    # Connor: (1.95996 * sqrt(0.3) + 0.84162 * sqrt(0.3 - 0.01))^2 / 0.1^2 = 233.09 -> 234 pairs
    assert design.paired_games_needed(0.1, 0.3) == 234
    with pytest.raises(ValueError):
        design.games_needed(0.6)
    with pytest.raises(ValueError):
        design.paired_games_needed(0.4, 0.3)


def _binomial(n: int, rate: float) -> list[float]:
    return [comb(n, k) * rate**k * (1 - rate) ** (n - k) for k in range(n + 1)]


def exact_power_of_two_sample_z_test(n: int, rate_a: float, rate_b: float, z: float = 1.959963984540054) -> float:
    """Oracle: the chance that the pooled two-proportion z-test rejects at 5% with n games per arm,
    summed over every pair of win counts (no normal approximation of the counts)."""
    power = 0.0
    for wins_a, chance_a in enumerate(_binomial(n, rate_a)):
        for wins_b, chance_b in enumerate(_binomial(n, rate_b)):
            pooled = (wins_a + wins_b) / (2 * n)
            if 0 < pooled < 1 and abs(wins_a - wins_b) / n > z * (pooled * (1 - pooled) * 2 / n) ** 0.5:
                power += chance_a * chance_b
    return power


def test_two_sample_games_needed_by_the_textbook_formula():
    # Fleiss, Levin & Paik (2003) eq. 4.14, no continuity correction, rates 0.5 and 0.6:
    # (1.95996 * sqrt(2 * 0.55 * 0.45) + 0.84162 * sqrt(0.25 + 0.24))^2 / 0.1^2 = 387.3 -> 388 per arm
    assert design.two_sample_games_needed(0.1) == 388
    # Pangu 04's pilot: greedy's exact 0.6073 against a gap of 16/120 -> 192.9 -> 193 games of each bot,
    # about twice the one-sample count (99), which treats greedy's rate as known
    assert design.two_sample_games_needed(16 / 120, baseline=0.6073) == 193
    assert design.games_needed(16 / 120, baseline=0.6073) == 99
    with pytest.raises(ValueError):
        design.two_sample_games_needed(0.0)
    with pytest.raises(ValueError):
        design.two_sample_games_needed(0.5, baseline=0.6)


@pytest.mark.parametrize("baseline, difference", [(0.6073, 16 / 120), (0.2, 0.15)])
def test_two_sample_count_gives_the_asked_power_exactly(baseline, difference):
    games = design.two_sample_games_needed(difference, baseline=baseline)
    assert exact_power_of_two_sample_z_test(games, baseline, baseline + difference) == pytest.approx(0.8, abs=0.02)
    # the one-sample count is too few for two samples: about a coin flip's power
    one_sample = design.games_needed(difference, baseline=baseline)
    assert exact_power_of_two_sample_z_test(one_sample, baseline, baseline + difference) < 0.6


# ------------------------------------------------------------------ sweeps


def test_sweep_of_the_race_target_against_enumeration():
    targets = [4, 8, 16]
    result = design.sweep(toy_game, "target", targets, one_die, 800, seed=3, workers=1, progress=False)
    exact = [float(exact_one_die_race(target)[0]) for target in targets]
    assert result.values == tuple(targets)
    for estimate, value in zip(result.estimates, exact):
        assert estimate.contains(value)
    # every target is played on the same deals
    assert [row.seed for row in result.results[0]] == [row.seed for row in result.results[2]]
    table = result.table()
    assert table.columns == ["target", "first seat win rate", "low", "high", "games"]
    assert table.column("games") == [800, 800, 800]


def test_sweep_a_setup_keyword_and_plot_in_the_house_style():
    matplotlib.use("Agg", force=True)
    result = design.sweep(
        toy_game,
        "explicit_chance",
        [False, True],
        [two_dice, one_die],
        30,
        seed=1,
        metric=design.draw_rate,
        workers=1,
        progress=False,
    )
    assert result.results[1][0].variant == "explicit_chance=True"
    assert [estimate.value for estimate in result.estimates] == [0, 0]  # a race is never drawn
    ax = design.sweep(toy_game, "target", [6, 12], one_die, 50, workers=1, progress=False).plot(
        target=0.6, exact=[0.7, 0.65]
    )
    assert ax.get_xlabel() == "target" and ax.get_ylabel() == "first seat win rate"
    assert ax.get_legend() is not None and len(ax.lines) >= 2
    assert list(ax.get_xticks()) == [6, 12]  # a whole-number parameter gets ticks at its values only
    matplotlib.pyplot.close("all")


def test_find_target_by_bisection():
    # The mean length rises with the target (exact means by enumeration: 9.90 throws at target 19,
    # 10.44 at 20), so a search for 10 throws must end on 19 or 20, between two neighbours that it
    # measured on either side of 10, and pick the nearer of them.
    def mean_length(results):
        return design.duration(results).mean

    search = design.find_target(
        toy_game,
        "target",
        10,
        30,
        one_die,
        150,
        target=10.0,
        metric=mean_length,
        metric_name="mean length",
        workers=1,
        progress=False,
    )
    assert float(exact_one_die_race(19)[1]) < 10 < float(exact_one_die_race(20)[1])
    assert search.value in (19, 20)
    measured = dict(zip(search.tried.values, (estimate.value for estimate in search.tried.estimates)))
    below, above = (
        (search.value - 1, search.value) if measured[search.value] >= 10 else (search.value, search.value + 1)
    )
    assert measured[below] < 10 <= measured[above]
    assert abs(measured[search.value] - 10) == min(abs(measured[below] - 10), abs(measured[above] - 10))
    assert len(search.tried.values) <= 7  # both ends and a bisection, not a scan of 21 values
    assert search.tried.values == tuple(sorted(search.tried.values)) and "target = " in str(search)


def test_find_target_outside_the_range_gives_the_nearer_end():
    def mean_length(results):
        return design.duration(results).mean

    search = design.find_target(
        toy_game, "target", 2, 5, one_die, 50, target=100.0, metric=mean_length, workers=1, progress=False
    )
    assert search.value == 5 and not search.target_in_interval
