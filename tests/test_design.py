"""gamelib.design's metrics: each against a hand-computed value on a small synthetic table, then on
the toy race where enumeration gives the exact answer (tests/design_support.py)."""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import pytest

import toy_game
from design_support import exact_one_die_race, one_die, two_dice
from gamelib import design
from gamelib.design import GameResult, Results
from gamelib.simulate import mean, proportion

# Two deals, each in both seatings. Hand-made: the winners, lengths, completion flags, first movers
# and leader traces (trace[i] = seat leading after i actions, -1 = nobody alone) below are the data.
SYNTHETIC = Results(
    [
        GameResult(0, 1, (0, 1), (0,), (5, 3), 4, True, 0, (-1, 0, 1, 0, 0)),
        GameResult(1, 1, (1, 0), (0,), (6, 2), 2, True, 0, (-1, 0, 0)),
        GameResult(2, 2, (0, 1), (1,), (2, 7), 4, True, 0, (-1, 0, -1, 1, 1)),
        GameResult(3, 2, (1, 0), (0, 1), (4, 4), 3, False, 1, (-1, 0, 1, -1)),
    ]
)


def test_win_rates_by_seat_and_policy_on_the_synthetic_table():
    # seat 0's shares: 1, 1, 0, 1/2 (the shared win) -> 0.625; seat 1's: 0, 0, 1, 1/2 -> 0.375
    seat0, seat1 = design.seat_win_rates(SYNTHETIC)
    assert seat0.value == 0.625 and seat1.value == 0.375
    assert (seat0.low, seat0.high) == (mean([1, 1, 0, 0.5]).low, mean([1, 1, 0, 0.5]).high)  # shares: normal interval
    assert design.seat_advantage(SYNTHETIC).value == pytest.approx(0.125)
    assert design.seat_advantage(SYNTHETIC, seat=1).value == pytest.approx(-0.125)
    # policy 0 sits in seat 0, 1, 0, 1: it wins game 0, loses 1 (seat 0 = policy 1 won) and 2, shares 3
    assert design.policy_win_rates(SYNTHETIC)[0].value == 0.375
    assert design.skill_trace(SYNTHETIC, stronger=1).value == 0.625


def test_whole_wins_get_the_wilson_interval():
    rows = Results([GameResult(i, i, (0, 1), ((0,) if i < 3 else (1,)), None, 1) for i in range(4)])
    assert design.seat_win_rates(rows)[0] == proportion(3, 4)


def test_balance_draws_completion_on_the_synthetic_table():
    balance = design.balance(SYNTHETIC)
    assert balance.value == pytest.approx(1 - (0.625 - 0.375))  # 0.75
    assert balance.low <= balance.value <= balance.high and 0 <= balance.low and balance.high <= 1
    assert design.draw_rate(SYNTHETIC) == proportion(1, 4)  # game 3 is shared
    assert design.completion(SYNTHETIC) == proportion(3, 4)  # game 3 was cut short


def test_duration_on_the_synthetic_table():
    duration = design.duration(SYNTHETIC)
    # lengths 4, 2, 4, 3: mean 3.25, squared deviations 0.5625 + 1.5625 + 0.5625 + 0.0625 = 2.75 over 3
    assert duration.mean.value == 3.25 and duration.mean == mean([4, 2, 4, 3])
    assert duration.standard_deviation.value == pytest.approx(sqrt(2.75 / 3))
    assert duration.distribution == {2: 1, 3: 1, 4: 2}
    assert (duration.shortest, duration.longest) == (2, 4)
    assert "range 2–4" in str(duration)


def test_first_mover_on_the_synthetic_table():
    # first movers 0, 0, 0, 1; their shares 1, 1, 0, 1/2 -> 0.625
    assert design.first_mover_win_rate(SYNTHETIC).value == 0.625
    assert design.first_mover_advantage(SYNTHETIC).value == pytest.approx(0.125)


def test_decisiveness_and_lead_changes_on_the_synthetic_table():
    # game 0: winner 0 leads for good from action 3 of 4 -> 3/4; game 1: from action 1 of 2 -> 1/2;
    # game 2: winner 1 from action 3 of 4 -> 3/4; game 3 is shared and does not count
    assert [design.decisive_moment(row) for row in SYNTHETIC] == [0.75, 0.5, 0.75, None]
    assert design.decisiveness(SYNTHETIC).value == pytest.approx(2 / 3)
    # single leaders in order: 0 1 0 0 -> 2 changes; 0 0 -> 0; 0 1 1 -> 1; 0 1 -> 1
    assert [design.lead_changes_in(row) for row in SYNTHETIC] == [2, 0, 1, 1]
    assert design.lead_changes(SYNTHETIC) == mean([2, 0, 1, 1])


def test_a_winner_who_never_leads_at_the_end_decides_at_the_last_move():
    row = GameResult(0, 0, (0, 1), (1,), None, 3, trace=(-1, 0, 0, 0))
    assert design.decisive_moment(row) == 1.0


def test_summary_lists_every_metric_with_its_definition_and_exact_value():
    table = design.summary(SYNTHETIC, exact={"first seat win rate": 0.6})
    names = table.column("metric")
    assert names[0] == "first seat win rate" and "balance" in names and "lead changes" in names
    first = table.rows[0]
    assert first["value"] == 0.625 and first["exact"] == 0.6 and "share of the win" in first["definition"]
    assert "balance" in str(table) and "<table>" in table._repr_html_()


def test_every_metric_has_a_one_line_definition():
    for metric in (
        design.seat_win_rates,
        design.seat_advantage,
        design.balance,
        design.draw_rate,
        design.completion,
        design.duration,
        design.decisiveness,
        design.lead_changes,
        design.skill_trace,
        design.first_mover_advantage,
        design.policy_win_rates,
    ):
        first_line = metric.__doc__.strip().splitlines()[0]
        name, _, definition = first_line.partition(": ")
        assert name and definition.endswith((".", ")")), metric.__name__


def test_beside_exact_says_whether_the_interval_covers_it():
    estimate = proportion(60, 100)
    assert design.beside_exact("win rate", estimate, 0.61).covered
    assert not design.beside_exact("win rate", estimate, 0.9).covered
    assert "exact 0.6100 (inside" in str(design.beside_exact("win rate", estimate, 0.61))


def test_compare_to_exact_by_hand():
    # 3 wins in 4 solo games: Wilson's 95% interval 0.3006-0.9544 (p = 3/4, z = 1.96, n = 4:
    # centre (0.75 + 0.4801) / 1.9604 = 0.6275, margin 1.96 sqrt(0.046875 + 0.0600) / 1.9604 = 0.3268)
    solo = Results(GameResult(i, i, (0,), (0,) if i < 3 else (), None, 10) for i in range(4))
    table = design.compare_to_exact(
        {"greedy": solo, "random": proportion(30, 100)},
        {"greedy": Fraction(1, 2), "random": Fraction(1, 2), "optimal": Fraction(4, 5)},
    )
    greedy, random_row, optimal = table.rows
    assert greedy["simulated"] == 0.75 and greedy["games"] == 4
    assert greedy["low"] == pytest.approx(0.3006, abs=1e-4) and greedy["high"] == pytest.approx(0.9544, abs=1e-4)
    assert greedy["exact"] == "0.5000 (1/2)" and greedy["exact in interval"] == "yes"
    # 30 of 100: Wilson 0.2189-0.3958, which leaves 1/2 out
    assert random_row["high"] == pytest.approx(0.3958, abs=1e-4) and random_row["exact in interval"] == "NO"
    assert optimal == {
        "name": "optimal",
        "exact": "0.8000 (4/5)",
        "simulated": "",
        "low": "",
        "high": "",
        "games": "",
        "exact in interval": "",
    }  # exact only: no simulation to set beside it


def test_compare_to_exact_takes_any_metric_and_plain_numbers():
    table = design.compare_to_exact(
        {"first seat": SYNTHETIC}, {"first seat": 0.625}, metric=design.first_mover_win_rate
    )
    # the first movers of SYNTHETIC win 1, 1, 0 and half of the shared game: 0.625
    assert table.rows[0]["simulated"] == 0.625 and table.rows[0]["exact"] == "0.6250"
    assert table.rows[0]["exact in interval"] == "yes"
    assert design.compare_to_exact({"a": proportion(1, 2)}, {}).rows[0]["exact in interval"] == ""


def test_metrics_refuse_an_empty_table():
    with pytest.raises(ValueError, match="no games"):
        design.completion(Results())


# ------------------------------------------------------------------ the toy race, exactly


def test_first_player_advantage_of_the_race_matches_enumeration():
    exact_win, exact_length = exact_one_die_race(12)
    assert exact_win == pytest.approx(0.6525988, abs=1e-7)  # enumeration (design_support), printed once
    results = design.tournament(toy_game, one_die, 1500, seed=11, workers=1, progress=False)
    assert len(results) == 1500  # one policy for both seats: no rotation (it would replay each deal)
    assert design.seat_win_rates(results)[0].contains(float(exact_win))
    assert design.seat_advantage(results).contains(float(exact_win) - 0.5)
    assert design.first_mover_win_rate(results).contains(float(exact_win))
    assert design.duration(results).mean.contains(float(exact_length))
    assert design.balance(results).contains(1 - 2 * (float(exact_win) - 0.5))
    assert design.completion(results).value == 1 and design.draw_rate(results).value == 0


def test_skill_trace_two_dice_beat_one_die_and_the_lead_is_traced_from_the_scores():
    results = design.tournament(toy_game, [two_dice, one_die], 300, seed=2, workers=1, progress=False)
    assert len(results) == 600 and design.skill_trace(results, stronger=0).low > 0.5
    for row in results[:20]:
        assert len(row.trace) == row.length + 1 and row.trace[0] == design.NO_LEADER
        assert row.trace[-1] == design.leader(row.scores)
    assert design.lead_changes(results).value > 0 and 0 < design.decisiveness(results).value <= 1


def test_a_solo_game_has_win_rate_duration_and_completion_but_no_seats_to_compare():
    # a Pangu-like table: one seat, 3 wins in 4 games
    solo = Results([GameResult(i, i, (0,), (0,) if i else (), None, 10 + i) for i in range(4)])
    table = design.summary(solo, exact={"first seat win rate": 0.7})
    assert "balance" not in table.column("metric") and "lead changes" not in table.column("metric")
    assert table.rows[0]["value"] == 0.75 and table.rows[0]["exact"] == 0.7
    with pytest.raises(ValueError, match="solo"):
        design.draw_rate(solo)  # a lost solo game has no winner, and that is no draw
    assert repr(solo) == "Results(4 games, players [1], variants [''])"
