"""The design targets of the course's design sessions (issue 23), each with a passing and a failing design.

Session 2's target is measured with ``gamelib.studio.solve``, whose Pig values are checked against
Neller and Presser's published ones in tests/test_studio_solve_pig100.py; the edges quoted here are
that solver's (Pig to 20: 61.56% for the first player; to 30 with a head start of 6: 50.07%).
"""

from __future__ import annotations

import pytest

from gamelib.course.designing import check_fair_start, first_player_edge
from gamelib.course.guesses import compare_guess
from gamelib.studio import Param
from gamelib.studio.examples import bluff
from gamelib.studio.examples.pig import Pig, Position


class PigHeadStart(Pig):
    head_start = Param(0, 0, 50, "points the second player starts with")

    def start(self):
        return Position(scores=(0, self.head_start), turn_total=0, player=0)


def test_fair_start_passes_a_compensated_pig():
    feedback = check_fair_start(PigHeadStart, PigHeadStart.Rules(goal=30, head_start=6))
    assert feedback, feedback
    assert "50.07%" in feedback and "+0.07 points" in feedback


def test_fair_start_fails_plain_pig_and_says_how_far_and_which_way():
    feedback = check_fair_start(Pig, Pig.Rules(goal=20))
    assert not feedback
    assert "61.56%" in feedback and "+11.56 points" in feedback and "10.56 points beyond" in feedback
    assert "favours the first player" in feedback and "head start" in feedback


def test_fair_start_fails_an_overshoot_and_says_so():
    feedback = check_fair_start(PigHeadStart, PigHeadStart.Rules(goal=20, head_start=12))
    assert not feedback
    assert "favours the second player" in feedback and "overshot" in feedback


def test_fair_start_refuses_a_game_too_large_with_the_count():
    feedback = check_fair_start(Pig, Pig.Rules(goal=20), max_positions=1000)
    assert not feedback and "Not checked" in feedback and "1,000" in feedback and "Lower the goal" in feedback


def test_fair_start_refuses_hidden_information_with_the_solvers_reason():
    feedback = check_fair_start(bluff)
    assert not feedback and "hides information" in feedback


def test_first_player_edge_agrees_with_the_check():
    assert first_player_edge(Pig, Pig.Rules(goal=20)) == pytest.approx(11.5559, abs=1e-3)


def test_compare_guess_asks_for_a_guess_first_and_then_measures_it():
    assert "No guess" in compare_guess(..., 61.56)
    assert "close" in compare_guess(60, 61.56, "%", close=2)
    assert "11.6% too low" in compare_guess(50, 61.56, "%", close=2)
    assert "not a number" in compare_guess("lots", 61.56)


# --------------------------------------------------------------------------- session 4: randomizers, exactly

from fractions import Fraction
from itertools import pairwise, product

from gamelib.course.streaks import (
    Independent,
    Pity,
    Ramp,
    ShuffleBag,
    check_drought_design,
    figures,
    first_to_hit,
    longest_same_face,
)


def brute_force(randomizer, trials):
    """Every hit/miss sequence weighed by its exact chance: the oracle of ``figures``."""
    droughts, hits = {}, {}
    for sequence in product((True, False), repeat=trials):
        state, weight, run, longest = randomizer.start(), Fraction(1), 0, 0
        for hit in sequence:
            p = randomizer.chance(state)
            weight *= p if hit else 1 - p
            if not weight:
                break
            run = 0 if hit else run + 1
            longest = max(longest, run)
            state = randomizer.after(state, hit)
        if weight:
            droughts[longest] = droughts.get(longest, 0) + weight
            hits[sum(sequence)] = hits.get(sum(sequence), 0) + weight
    return droughts, hits


@pytest.mark.parametrize(
    "randomizer",
    [Independent(Fraction(1, 3)), ShuffleBag(1, 4), Pity(Fraction(1, 5), 3), Ramp(Fraction(1, 4))],
    ids=repr,
)
def test_figures_agree_with_brute_force(randomizer):
    droughts, hits = brute_force(randomizer, 9)
    found = figures(randomizer, 9)
    assert dict(found.longest_drought.items()) == droughts
    assert dict(found.hits.items()) == hits


def test_longest_same_face_by_enumeration_of_five_rolls():
    counts = {}
    for rolls in product(range(1, 7), repeat=5):
        run = longest = 1
        for before, now in pairwise(rolls):
            run = run + 1 if now == before else 1
            longest = max(longest, run)
        counts[longest] = counts.get(longest, 0) + 1
    assert dict(longest_same_face(5).items()) == {length: Fraction(count, 6**5) for length, count in counts.items()}


def test_first_to_hit_of_a_fair_die_is_six_elevenths():
    # seat 0 wins on its rolls 1, 3, 5, ...: (1/6) / (1 - (5/6)^2) = 6/11 (geometric series)
    assert first_to_hit(Independent(Fraction(1, 6))) == [Fraction(6, 11), Fraction(5, 11)]
    assert first_to_hit(ShuffleBag(1, 6)) == [Fraction(1, 2), Fraction(1, 2)]  # the six is equally likely anywhere


def test_drought_target_passes_a_bag_and_a_tuned_pity():
    for design in (ShuffleBag(1, 4), Pity(Fraction(1, 5), 6)):
        feedback = check_drought_design(design)
        assert feedback, feedback


def test_drought_target_fails_the_plain_stick_on_droughts():
    feedback = check_drought_design(Independent(Fraction(1, 4)))
    assert not feedback and "at most 17 (target 8)" in feedback and "9 too long" in feedback


def test_drought_target_fails_a_pity_that_adds_hits():
    feedback = check_drought_design(Pity(Fraction(1, 4), 6))
    assert not feedback and "11.383" in feedback and "more hits" in feedback and "too long" not in feedback


def test_drought_target_names_a_float_chance():
    feedback = check_drought_design(Independent(0.25))
    assert not feedback and "exact Fraction" in feedback


# --------------------------------------------------------------------------- session 11: the playtest report

import json
import shutil
from pathlib import Path

from gamelib.course.playtest_report import check_playtest_report, report_figures

SAMPLE = Path(__file__).resolve().parents[1] / "notebooks" / "course" / "data" / "playtests"


def by_hand(folder):
    """The report's numbers counted straight from the JSON lines (no loader), the oracle of report_figures."""
    import statistics

    figures = {}
    for path in sorted(Path(folder).glob("*.jsonl")):
        variant = path.stem.rsplit("_", 1)[-1]
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        mine = figures.setdefault(variant, {"games": 0, "seconds": [], "first": 0, "fun": [], "fairness": []})
        for line in lines:
            if line["kind"] == "end":
                mine["games"] += 1
                mine["first"] += line["save"]["actions"] and _winner_of(line) == 0
            elif line["kind"] == "decision" and line["by"] == "human":
                mine["seconds"].append(line["seconds"])
            elif line["kind"] == "survey":
                mine["fun"].append(line["fun"])
                mine["fairness"].append(line["fairness"])
    return {
        variant: {
            "games": f["games"],
            "decisions": len(f["seconds"]),
            "median_seconds": statistics.median(f["seconds"]),
            "first_seat_wins": f["first"] / f["games"],
            "fun": statistics.mean(f["fun"]),
            "fairness": statistics.mean(f["fairness"]),
        }
        for variant, f in figures.items()
    }


def _winner_of(end_line):
    from gamelib.studio.examples import pig

    return pig.State.from_json(json.dumps(end_line["save"])).winners[0]


def test_report_figures_agree_with_counting_the_lines_by_hand():
    found = report_figures(SAMPLE)
    for variant, expected in by_hand(SAMPLE).items():
        for field, value in expected.items():
            assert found[variant][field] == pytest.approx(value), (variant, field)
        assert 0 < found[variant]["agree_optimal"] < 1


def test_playtest_report_passes_the_recomputed_numbers_rounded():
    report = {
        variant: {field: round(value, 3) for field, value in figures.items()}
        for variant, figures in report_figures(SAMPLE).items()
    }
    feedback = check_playtest_report(report, SAMPLE)
    assert feedback, feedback


def test_playtest_report_fails_a_mean_for_a_median_and_a_miscount_and_says_which():
    import statistics

    report = report_figures(SAMPLE)
    rows_seconds = [
        line["seconds"]
        for path in SAMPLE.glob("*_A.jsonl")
        for line in map(json.loads, path.read_text(encoding="utf-8").splitlines())
        if line["kind"] == "decision"
    ]
    report["A"] = dict(
        report["A"], median_seconds=statistics.mean(rows_seconds), decisions=report["A"]["decisions"] + 24
    )
    feedback = check_playtest_report(report, SAMPLE)
    assert not feedback
    assert "2 of 14 numbers" in feedback and "A.median_seconds" in feedback and "the median, not the mean" in feedback
    assert "A.decisions" in feedback and "24 too high" in feedback and "chance outcomes are not decisions" in feedback


def test_playtest_report_check_reads_the_class_files_it_is_given(tmp_path):
    for path in SAMPLE.glob("pair1_*.jsonl"):
        shutil.copy(path, tmp_path / path.name)
    full = report_figures(SAMPLE)
    feedback = check_playtest_report(full, tmp_path)
    assert not feedback and "A.games" in feedback  # pair 1 alone played fewer games than the class


def test_playtest_report_names_what_is_missing():
    feedback = check_playtest_report({"A": {"games": ...}}, SAMPLE)
    assert not feedback and "A.decisions is not filled in" in feedback and "variant B is missing" in feedback


def test_shipped_sample_is_what_the_seeded_tool_writes(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_course_playtests", SAMPLE.parents[3] / "tools" / "make_course_playtests.py"
    )
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "OUT", tmp_path)
    tool.main()

    def without_time(path):
        return [line for line in path.read_text(encoding="utf-8").splitlines() if '"kind":"session"' not in line]

    shipped = sorted(SAMPLE.glob("*.jsonl"))
    assert [path.name for path in shipped] == sorted(path.name for path in tmp_path.glob("*.jsonl"))
    for path in shipped:
        assert without_time(path) == without_time(tmp_path / path.name), path.name


def test_paper_survey_asks_the_boards_questions_on_their_scale():
    from gamelib.design.playtests import SURVEY_QUESTIONS, SURVEY_SCALE

    sheet = (SAMPLE.parents[3] / "docs" / "teaching" / "printables" / "playtest_survey.html").read_text(
        encoding="utf-8"
    )
    for question in SURVEY_QUESTIONS:
        assert sheet.count(f"<td>{question}</td>") == 3  # one row per game on the sheet
    assert "".join(f"<th>{value}</th>" for value in SURVEY_SCALE) in sheet
