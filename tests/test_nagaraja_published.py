"""The published facts about the fate sticks and the tables that agree with them (issue 25).

Expected facts come from the Spanish rules text (seed 004) and rules spec 2.3/2.7; the fast
enumeration is checked against a brute force that tests every table against every fact."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamelib.nagaraja import published, sticks


def test_every_fact_has_a_check_and_a_source():
    assert {name for name, _, _ in published.FACTS} == set(published._CHECKS)
    for name, text, source in published.FACTS:
        assert text and source


def test_the_fast_enumeration_is_the_brute_force_one():
    # 4 dots at most: every one of the 70**3 tables checked literally against every fact
    assert published.consistent_tables(4) == published.brute_force_tables(4)
    assert len(published.consistent_tables(4)) == 906


@pytest.mark.parametrize("model", ["A", "B"])
def test_both_teaching_models_agree_with_every_published_fact(model):
    table = sticks.load_faces(model)
    assert all(published.satisfies(table).values())
    assert published.canonical(table) in published.consistent_tables()


@pytest.mark.parametrize(
    "fact, change",
    [
        ("green_two_nagas", {"GREEN": ((0, 1), (1, 0), (1, 0), (1, 0))}),
        ("elodie_throw", {"WHITE": ((0, 1), (1, 0), (1, 0), (1, 0))}),  # two white faces can never show 5
        ("marion_throw", {"BROWN": ((2, 0), (3, 0), (3, 0), (3, 0))}),  # no two browns show 7
        ("points_order", {"BROWN": ((0, 1), (1, 0), (1, 0), (4, 0))}),
        ("points_or_naga", {"WHITE": ((0, 0), (2, 0), (3, 0), (0, 1))}),  # a blank face
        ("four_faces", {"GREEN": ((0, 1), (0, 1), (1, 0))}),
    ],
)
def test_each_fact_can_fail(fact, change):
    table = {**sticks.load_faces("A"), **change}
    report = published.satisfies(table)
    assert report[fact] is False


def test_the_rules_text_example_under_every_table():
    """Every consistent table makes the example's throws possible (spec 2.7), checked with the odds library."""
    for table in published.consistent_tables()[::50]:
        assert sticks.joint(0, 3, 0, faces=table).get((5, 1), 0) > 0
        assert sticks.joint(3, 1, 1, faces=table).get((11, 1), 0) > 0


def test_headline_ranges_hold_the_teaching_edition():
    ranges = published.headline_ranges()
    model_a = sticks.load_faces("A")
    assert ranges["pwin"]["teaching"] == sticks.win_probability((0, 3, 0), (3, 1, 1), True) == Fraction(35, 4096)
    assert ranges["edge"]["teaching"] == Fraction(209, 32768)  # spec 9.3: P(tie) of the example, Model A
    for name, entry in ranges.items():
        assert entry["low"] <= entry["teaching"] <= entry["high"], name
        assert entry["tables"] == len(published.consistent_tables())
    values = [sticks.win_probability((0, 3, 0), (3, 1, 1), True, t) for t in published.consistent_tables()]
    assert (min(values), max(values)) == (ranges["pwin"]["low"], ranges["pwin"]["high"])
    assert published.pool_ranges((0, 3, 0))["mean"][0] <= sticks.moments(0, 3, 0, faces=model_a)["mean_points"]


def test_the_teaching_files_say_what_is_published_and_the_loader_keeps_it():
    from gamelib.datafiles import DamagedData, read_json

    for model, file in sticks.MODELS.items():
        data = read_json(f"nagaraja/data/{file}")
        assert set(data["published_facts"]) == set(published._CHECKS)
        for colour in sticks.COLOURS:
            assert len(data["provenance"][colour]) == len(data["faces"][colour])
        assert sum(mark.startswith("published") for mark in data["provenance"]["GREEN"]) == 2
        sticks.check_published_facts(data, sticks.load_faces(model), file)  # the packaged faces keep every fact
    broken = {**sticks.load_faces("A"), "GREEN": ((0, 1), (1, 0), (1, 0), (1, 0))}  # one Naga face only
    with pytest.raises(DamagedData, match="sticks_model_a.json: .*Green has exactly two Naga faces"):
        sticks.check_published_facts(data | {"published_facts": ["green_two_nagas"]}, broken, "sticks_model_a.json")
    with pytest.raises(DamagedData, match="unknown fact 'greenish'"):
        sticks.check_published_facts({"published_facts": ["greenish"]}, broken, "x.json")


@pytest.mark.parametrize("pool", [(0, 3, 0), (3, 1, 1), (0, 0, 0), (12, 0, 5)])
def test_pool_ranges_are_the_extremes_over_every_table(pool):
    tables = published.consistent_tables()
    means = [sticks.moments(*pool, faces=t)["mean_points"] for t in tables]
    chances = [1 - sticks.nagas(*pool, faces=t).probability(0) for t in tables]
    assert published.pool_ranges(pool) == {"mean": (min(means), max(means)), "naga": (min(chances), max(chances))}


def test_the_ranges_table_names_the_count():
    text = published.ranges_table()
    assert text.startswith("906 stick tables agree")
    assert len(text.splitlines()) == 2 + len(published.HEADLINES)


def test_the_rules_page_states_the_computed_count_and_ranges():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "rules" / "nagaraja.md").read_text(encoding="utf-8")
    assert f"**{len(published.consistent_tables())} tables**" in page
    assert f"3550 with at most 5 dots, {len(published.consistent_tables(6))} with at most 6" in page
    assert len(published.consistent_tables(5)) == 3550
    rows = {
        "elodie_mean": "Elodie's 3 white: mean points",
        "pwin": "P(Elodie, the guide, wins the example's raw throw)",
        "edge": "the guide's edge from winning ties (P(equal points)) in the example",
        "marion_naga": "Marion's pool: P(at least one Naga)",
    }
    for key, label in rows.items():
        entry = published.headline_ranges()[key]
        assert f"| {label} | {entry['low']} | {entry['teaching']} | {entry['high']} |" in page, key


def test_the_facts_module_names_the_colours_as_the_odds_library_does():
    from gamelib.nagaraja import stick_facts

    assert stick_facts.COLOURS == sticks.COLOURS
