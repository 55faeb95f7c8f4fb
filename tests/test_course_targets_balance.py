"""The balance units of the course (issue 23, sessions 07-09): their design-target checks accept a
passing design and refuse a failing one with a reason, their answer sheets hold the recomputed
answers, and the exact equilibrium solver agrees with brute force."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from gamelib import nagaraja
from gamelib.design import pacing, payoff
from gamelib.exercises import check_answer, digest, load
from gamelib.nagaraja import cost_curve, fate_matrix, sticks
from gamelib.nagaraja.bots import heuristic_policy

# ------------------------------------------------------------------ session 07: the cost curve


def test_stick_value_is_the_mean_of_the_exact_room_chances():
    # by hand from the definition: BB against each reference set, as guide and not
    expected = (
        sum(
            sticks.win_probability("BB", theirs, guide)
            for theirs in cost_curve.reference_sets()
            for guide in (True, False)
        )
        / 24
    )
    assert cost_curve.stick_value("BB") == expected


def test_plus2_value_is_the_chance_that_two_points_turn_the_room():
    # PLUS2 turns the room exactly when its user was behind by 1 or 2 as guide (a tie after it is won), or tied
    # or behind by 1 as non-guide (behind by 2 ends in a tie, which the guide wins)
    sets = cost_curve.reference_sets()
    gain = Fraction(0)
    for mine, theirs in product(sets, sets):
        a, b = sticks.points(sticks.as_pool(mine)), sticks.points(sticks.as_pool(theirs))
        behind = {d: sum(a.probability(x) * b.probability(x + d) for x in range(30)) for d in range(3)}
        gain += behind[1] + behind[2] + behind[0] + behind[1]
    assert cost_curve.effect_value("PLUS2") == gain / (2 * len(sets) ** 2)


def test_fit_line_recovers_a_line():
    assert cost_curve.fit_line([(0, 1), (1, 3), (2, 5)]) == (1.0, 2.0)


def test_card_on_curve_check_accepts_a_priced_card():
    feedback = cost_curve.check_card_on_curve("STK-09", "WWW")  # 0.7 points from the curve of the other 11
    assert feedback and feedback.startswith("Right:")


@pytest.mark.parametrize(
    "card, letters, words",
    [
        ("STK-09", "GGG", "too weak (over-costed)"),  # the printed card: 41.8 points below
        ("STK-09", "BBW", "too strong (under-costed)"),
        ("STK-09", "BBBB", "2 or 3"),
        ("STK-09", "BXW", "not a stick set"),
        ("STK-99", "BW", "not a stick card"),
    ],
)
def test_card_on_curve_check_refuses_with_a_reason(card, letters, words):
    feedback = cost_curve.check_card_on_curve(card, letters)
    assert not feedback and words in feedback


def test_a_refused_card_gets_the_effect_of_each_stick_swap():
    feedback = cost_curve.check_card_on_curve("STK-09", "GGG")
    assert "G->B: +" in feedback and "G->W: +" in feedback


def test_every_stick_card_can_reach_the_curve_with_two_or_three_sticks():
    sets = ["".join(s) for n in (2, 3) for s in product("BWG", repeat=n)]
    for card_id, _, _ in cost_curve.stick_cards():
        assert any(abs(cost_curve.residual_against_others(card_id, s)[0]) <= cost_curve.TOLERANCE for s in sets), (
            card_id
        )


def test_edition_with_changes_one_card_only():
    edition = cost_curve.edition_with({"STK-09": "WWW"})
    assert edition.cards["STK-09"].pool == (0, 3, 0)
    assert edition.cards["STK-08"].pool == (0, 1, 2)


def test_session_07_answers_are_the_recomputed_ones():
    sheet = load("course_07_cost_curves")
    assert sheet["q1"]["digest"] == digest(max(cost_curve.STICK_EFFECTS, key=cost_curve.effect_value), "text")
    assert sheet["q2"]["digest"] == digest(sticks.win_probability("BW", "WW", True), "exact")
    assert "guide" in check_answer("course_07_cost_curves", "q2", sticks.win_probability("BW", "WW", False))


# ------------------------------------------------------------------ session 08: the equilibrium solver


def test_rock_paper_scissors_is_uniform_with_value_zero():
    found = payoff.solve_zero_sum(payoff.ROCK_PAPER_SCISSORS)
    assert found.rows == found.columns == (Fraction(1, 3),) * 3 and found.value == 0


def test_a_two_by_two_game_matches_the_closed_form():
    # [[a, b], [c, d]] without a saddle: p = (d - c) / (a - b - c + d), value = (ad - bc) / (a - b - c + d)
    a, b, c, d = 3, -1, -2, 1
    found = payoff.solve_zero_sum([[a, b], [c, d]])
    assert found.rows[0] == Fraction(d - c, a - b - c + d) and found.value == Fraction(a * d - b * c, a - b - c + d)


def test_a_saddle_point_is_found_as_a_pure_equilibrium():
    found = payoff.solve_zero_sum([[4, 2, 5], [1, 0, 6]])
    assert (
        found.rows == (1, 0)
        and found.columns == (0, 1, 0)
        and payoff.pure_saddle_points([[4, 2, 5], [1, 0, 6]]) == [(0, 1)]
    )


@pytest.mark.parametrize("seed", range(25))
def test_no_pure_deviation_gains_on_random_matrices(seed):
    rng = random.Random(seed)
    m, n = rng.randint(1, 4), rng.randint(1, 4)
    matrix = [[Fraction(rng.randint(-5, 5), rng.randint(1, 3)) for _ in range(n)] for _ in range(m)]
    found = payoff.solve_zero_sum(matrix)
    assert sum(found.rows) == 1 == sum(found.columns) and min(found.rows + found.columns) >= 0
    assert payoff.deviation_gains(matrix, found.rows, found.columns) == (0, 0)
    # the value is the best guaranteed payoff: no pure row guarantees more
    assert found.value >= max(min(row) for row in matrix)


def test_a_non_equilibrium_is_caught_by_the_oracle():
    row_gain, _ = payoff.deviation_gains(payoff.ROCK_PAPER_SCISSORS, (1, 0, 0), (1, 0, 0))
    assert row_gain == 1  # against rock, paper gains 1


def test_a_ragged_matrix_is_refused():
    with pytest.raises(ValueError, match="as many entries"):
        payoff.solve_zero_sum([[1, 2], [3]])


# ------------------------------------------------------------------ session 08: the Call of Fate matrix


def brute_room_chance(guide, opponent, tie_rule):
    """Every face of every stick listed (sticks.brute_force_joint), then the totals compared."""
    mine = sticks.brute_force_joint(sticks.as_pool(guide))
    theirs = sticks.brute_force_joint(sticks.as_pool(opponent))
    total = Fraction(0)
    for (p, _), a in mine.items():
        for (q, _), b in theirs.items():
            if p > q or (p == q and tie_rule == "guide"):
                total += a * b
    return total


@pytest.mark.parametrize("tie_rule", ["guide", "opponent"])
def test_matrix_entries_match_brute_force(tie_rule):
    game = fate_matrix.fate_game(card_value=2, tie_rule=tie_rule)
    for i, guide in enumerate(game.guide_options[:4]):
        for j, opponent in enumerate(game.opponent_options[:4]):
            chance = brute_room_chance("".join(guide), "".join(opponent), tie_rule)
            assert game.matrix[i][j] == 3 * (2 * chance - 1) - 2 * (len(guide) - len(opponent))


def test_fate_equilibrium_has_no_profitable_deviation():
    game = fate_matrix.fate_game(card_value=2)
    assert payoff.deviation_gains(game.matrix, game.equilibrium.rows, game.equilibrium.columns) == (0, 0)


def test_mixed_call_check_accepts_a_mixing_price():
    feedback = fate_matrix.check_mixed_call(3, 2)  # the guide mixes BBW 68% and BBW+WW 32%
    assert feedback and "BBW" in feedback


@pytest.mark.parametrize(
    "room, card, tie_rule, words",
    [
        (3, 1, "guide", "pure: BBW+WW+GGG"),  # the starting price of the session: all three cards always
        (3, 0, "guide", "is pure"),
        (0, 1, "guide", "more than 0"),
        (3, 2, "nobody", "tie rule"),
        ("x", 1, "guide", "as numbers"),
        (3, Fraction(3, 2), "opponent", "only 1 commitment"),  # BBW 78.7%, BBW+WW 21.3%: a mix too thin
    ],
)
def test_mixed_call_check_refuses_with_a_reason(room, card, tie_rule, words):
    feedback = fate_matrix.check_mixed_call(room, card, tie_rule)
    assert not feedback and words in feedback


def test_regret_is_zero_on_the_support_and_positive_off_it():
    game = fate_matrix.fate_game(card_value=2)
    for option, weight in zip(game.guide_options, game.equilibrium.rows):
        regret = fate_matrix.regret_of(game, option)
        assert regret == 0 if weight else regret >= 0
    assert fate_matrix.regret_of(game, ("GGG",)) > 0


def test_bot_commit_sizes_count_every_call_of_both_roles():
    sizes = fate_matrix.bot_commit_sizes(heuristic_policy, 2, seed=1)
    assert set(sizes) == {"guide", "opponent"}
    # one guide call and one opponent call per round (an empty hand calls nothing and is not counted)
    assert abs(sum(sizes["guide"].values()) - sum(sizes["opponent"].values())) <= 2
    assert all(cards >= 1 for role in sizes.values() for cards in role)


def test_session_08_answers_are_the_recomputed_ones():
    sheet = load("course_08_payoff_matrices")
    scissors_pays_three = [[0, -1, 1], [1, 0, -3], [-1, 3, 0]]
    assert sheet["q1"]["digest"] == digest(payoff.solve_zero_sum(scissors_pays_three).rows[2], "exact")
    assert sheet["q2"]["digest"] == digest(fate_matrix.fate_game(tie_rule="opponent").equilibrium.value, "exact")
    assert "third row" in check_answer(
        "course_08_payoff_matrices", "q1", payoff.solve_zero_sum(scissors_pays_three).rows[0]
    )


# ------------------------------------------------------------------ session 09: feedback and pacing


# a made-up game of six actions: seat 1 leads, seat 0 takes the lead at action 3 and keeps it
COMEBACK = pacing.ScoreTrace(((0, 0), (0, 2), (1, 2), (3, 2), (4, 2), (5, 3), (6, 3)), (0,))


def test_decided_action_is_where_the_winner_leads_for_good():
    assert pacing.decided_action(COMEBACK) == 3
    assert pacing.decided_action(pacing.ScoreTrace(((0, 0), (1, 0)), (0,))) == 1
    assert pacing.decided_action(pacing.ScoreTrace(((1, 1),), (0, 1))) is None  # a shared win has no single winner


def test_lead_changes_skip_tied_moments():
    assert pacing.lead_changes(COMEBACK) == 1
    assert pacing.lead_changes(pacing.ScoreTrace(((1, 0), (1, 1), (1, 2), (3, 2)), (0,))) == 2


def test_comeback_by_deficit_counts_the_player_behind_at_half_time():
    behind_wins = COMEBACK  # at action 3 of 6 seat 0 leads 3-2: not a comeback, deficit band 1-2
    lost_lead = pacing.ScoreTrace(
        ((0, 0), (0, 4), (0, 4), (0, 4), (5, 4)), (0,)
    )  # at half time 0-4: seat 0 behind by 4, wins
    rates = pacing.comeback_by_deficit([behind_wins, lost_lead])
    assert rates["1-2"].value == 0 and rates["1-2"].samples == 1
    assert rates["3-5"].value == 1 and rates["3-5"].samples == 1


def test_decided_at_finds_where_the_bar_settles():
    assert pacing.decided_at([0.5, 0.95, 0.6, 0.92, 1.0]) == 3
    assert pacing.decided_at([0.5, 0.95, 0.6, 0.92, 1.0], sure=0.95) == 4
    assert pacing.decided_at([0.5, 0.5]) == 2  # never settles


def test_later_decision_check_refuses_a_rule_that_changes_nothing():
    # win_score 30: these games end by the ninth room before anyone reaches 25, so nothing moves (+0.0 exactly)
    feedback = pacing.check_later_decision(nagaraja, heuristic_policy, nagaraja.Rules(win_score=30), games=4)
    assert not feedback and "+0.0 actions" in feedback and "at least +5" in feedback


def test_later_decision_check_refuses_a_longer_game():
    fake = [pacing.ScoreTrace(((0, 0), (1, 0)), (0,))] * 4  # a baseline of 1-action games: any real game is too long
    feedback = pacing.check_later_decision(nagaraja, heuristic_policy, nagaraja.Rules(), games=4, baseline=fake)
    assert not feedback and "too long" in feedback


def test_later_decision_check_passes_a_shift_whose_interval_lies_above_0():
    # a made-up baseline of 100-action games decided at action 1: the printed rules' real games (decided around
    # action 60 of about 88, lengths within the bound) are a shift far past +5 with its whole interval above 0
    early = pacing.ScoreTrace(tuple((index, 0) for index in range(101)), (0,))
    feedback = pacing.check_later_decision(nagaraja, heuristic_policy, nagaraja.Rules(), games=4, baseline=[early] * 4)
    assert feedback and feedback.startswith("Right:") and "lies above 0" in feedback


def test_later_decision_check_plays_the_deals_a_short_baseline_lacks():
    # a baseline of the first 2 deals is extended to 4 by playing deals 3 and 4 (the same as a full run of 4)
    full = pacing.score_traces(nagaraja, heuristic_policy, 4, seed=7)
    assert pacing.score_traces(nagaraja, heuristic_policy, 4, seed=7, first=2) == full[2:]
    with pytest.raises(ValueError, match="more than games=1"):
        pacing.check_later_decision(nagaraja, heuristic_policy, nagaraja.Rules(), games=1, baseline=full[:2])


def test_later_decision_check_refuses_a_mean_shift_that_chance_could_explain():
    # ties to the opponent on the session's 20 deals (seed 2026): +8.8 actions on average, past the +5 target,
    # but the 95% interval is -7.3 to +25.0 (the old rule passed it on the mean alone)
    feedback = pacing.check_later_decision(nagaraja, heuristic_policy, nagaraja.Rules(tie_rule="opponent"))
    assert not feedback and "+8.8" in feedback and "reaches down to -7.3" in feedback and "games=40" in feedback


def test_session_09_answer_is_the_recomputed_one():
    import random as stdlib_random

    from gamelib import pangu
    from gamelib.pangu import solver
    from gamelib.pangu.bots import greedy_policy

    state, rng, bar = pangu.new_game(seed=38), stdlib_random.Random(38), []
    while not state.is_terminal:
        bar.append(float(solver.win_probability(state)))
        state = state.apply(greedy_policy(state, rng))
    assert load("course_09_feedback_and_pacing")["q1"]["digest"] == digest(pacing.decided_at(bar, 0.95), "integer")
    assert "sure=0.95" in check_answer("course_09_feedback_and_pacing", "q1", pacing.decided_at(bar))


# ------------------------------------------------------------------ the three notebooks call their targets

TARGETS = {  # notebook -> (the design target's check, as test_lesson_checks.RICHER writes it)
    "course/07_cost_curves.ipynb": "check_card_on_curve(",
    "course/08_payoff_matrices.ipynb": "check_mixed_call(",
    "course/09_feedback_and_pacing.ipynb": "check_later_decision(",
}


@pytest.mark.parametrize("lesson", sorted(TARGETS))
def test_each_balance_session_ends_with_its_tagged_design_target(lesson):
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    cells = json.loads((root / "notebooks" / lesson).read_text(encoding="utf-8"))["cells"]
    calling = [cell for cell in cells if cell["cell_type"] == "code" and TARGETS[lesson] in "".join(cell["source"])]
    assert len(calling) == 1 and calling[0] is [cell for cell in cells if cell["cell_type"] == "code"][-1]
    (tag,) = [tag for tag in calling[0]["metadata"].get("tags", []) if tag.startswith("exercise:")]
    source = root / "docs" / "teaching" / "solutions" / "source" / f"course_{Path(lesson).stem}.json"
    assert TARGETS[lesson] in json.loads(source.read_text(encoding="utf-8"))["cells"][tag[len("exercise:") :]]


def test_paired_shift_is_the_mean_difference_of_decisive_actions_by_deal():
    early = pacing.ScoreTrace(((0, 0), (1, 0), (2, 0)), (0,))  # decided at action 1
    late = pacing.ScoreTrace(((0, 0), (0, 0), (1, 0)), (0,))  # decided at action 2
    shared = pacing.ScoreTrace(((0, 0),), (0, 1))  # no single winner: left out
    assert pacing.paired_shift([early, early, shared], [late, early, late]).value == Fraction(1, 2)
    with pytest.raises(ValueError, match="same deals"):
        pacing.paired_shift([early], [early, late])
