"""The odds explorer, driven headless: move its widgets as a user would and read what it shows.

Expected values come from ``sticks`` (tested against brute force elsewhere) or from the
spec's own tables (section 9.3), never from the explorer itself.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from gamelib.nagaraja import sticks
from gamelib.nagaraja.explorer import OddsExplorer, explore, faces_to_text, parse_faces, percent

COLOURS = sticks.COLOURS
EXACT = re.compile(r'class="gl-exact"[^>]*data-value="([^"]+)"[^>]*>([^<]+)<')
# Starting points for the sweep: empty pools, small mixed pools, and the full supply.
BASES = [((0, 0, 0), (0, 0, 0)), ((1, 2, 1), (3, 1, 1)), ((12, 12, 12), (5, 0, 7))]


def displayed(explorer: OddsExplorer, key: str) -> Fraction:
    """Read a number box's HTML as a browser would show it; the data attribute and the text must agree."""
    data_value, text = EXACT.search(explorer.numbers[key].value).groups()
    assert data_value == text
    return Fraction(text)


def check_display(explorer: OddsExplorer, mine, theirs, guide: int, faces="A") -> None:
    assert displayed(explorer, "pwin") == sticks.win_probability(mine, theirs, guide == 0, faces)
    assert displayed(explorer, "plose") == sticks.win_probability(theirs, mine, guide == 1, faces)
    assert displayed(explorer, "ptie") == sticks.compare(mine, theirs, faces)[1]
    assert displayed(explorer, "pswap") == sticks.win_probability(mine, theirs, guide != 0, faces)


def test_starts_on_the_rulebook_example_with_the_spec_figures():
    explorer = explore()
    # spec 9.3, last row: 3 white (Elodie, guide) vs 3B+1W+1G (Marion), Model A.
    assert explorer.pools == ((0, 3, 0), (3, 1, 1))
    assert displayed(explorer, "pwin") == Fraction(35, 4096)
    assert displayed(explorer, "ptie") == Fraction(209, 32768)
    assert displayed(explorer, "pswap") == Fraction(71, 32768)
    assert displayed(explorer, "plose") == 1 - Fraction(35, 4096)
    assert "0.85%" in explorer.numbers["pwin"].value
    # spec 8.2: E[N] for 3 white is 3/4, and for 1B+1W+1G also 3/4 (the extra browns add no Nagas).
    assert "Elodie 3/4" in explorer.numbers["nagas"].value and "Marion 3/4" in explorer.numbers["nagas"].value


@pytest.mark.parametrize("guide", [0, 1])
@pytest.mark.parametrize("base_mine, base_theirs", BASES)
def test_every_slider_across_its_range_shows_the_exact_win_probability(guide, base_mine, base_theirs):
    explorer = explore(plot=False)  # the numbers only; drawing at every stop is tested below
    explorer.guide.value = guide
    explorer.set_pool(0, base_mine)
    explorer.set_pool(1, base_theirs)
    bases = [list(base_mine), list(base_theirs)]
    for player in (0, 1):
        for index, colour in enumerate(COLOURS):
            slider = explorer.sliders[player][colour]
            assert (slider.min, slider.max) == (0, 12)  # spec 3.2: 12 sticks of each colour
            for count in range(slider.min, slider.max + 1):
                slider.value = count
                pools = [list(bases[0]), list(bases[1])]
                pools[player][index] = count
                check_display(explorer, tuple(pools[0]), tuple(pools[1]), guide)
            slider.value = bases[player][index]


def test_the_guide_toggle_moves_the_ties():
    explorer = explore()
    explorer.set_pool(0, (1, 0, 0))
    explorer.set_pool(1, (0, 1, 0))
    # spec 9.3, Model A: 1 brown vs 1 white wins 15/16 as guide and 3/4 as non-guide.
    assert displayed(explorer, "pwin") == Fraction(15, 16)
    explorer.guide.value = 1
    assert displayed(explorer, "pwin") == Fraction(3, 4)
    assert displayed(explorer, "pswap") == Fraction(15, 16)
    assert displayed(explorer, "plose") == Fraction(1, 4)


def test_sliders_recompute_on_release_only():
    explorer = explore()
    assert all(not slider.continuous_update for row in explorer.sliders for slider in row.values())


def test_percentages_keep_small_chances_visible():
    assert percent(Fraction(35, 4096)) == "0.85%"
    assert percent(Fraction(1, 2)) == "50.00%"
    assert percent(Fraction(0)) == "0.00%"
    assert percent(Fraction(1, 10**6)) == "0.0001%"


# --------------------------------------------------------------------------- face editor


def test_face_text_round_trip_for_both_models():
    for model in sticks.MODELS:
        faces = sticks.load_faces(model)
        assert {c: tuple(parse_faces(c, faces_to_text(faces[c]))) for c in COLOURS} == faces
    assert faces_to_text(((0, 1), (1, 0), (2, 1))) == "N,1,2N"


@pytest.mark.parametrize(
    "colour, text, words",
    [
        ("BROWN", "2,3,x,4", ["BROWN", "'x'"]),
        ("WHITE", "N,-1,2,3", ["WHITE", "0 or more"]),
        ("GREEN", "", ["GREEN", "no faces"]),
        ("WHITE", "N, 1, 2.5", ["WHITE", "'2.5'"]),
    ],
)
def test_a_malformed_table_shows_an_error_and_keeps_the_last_good_one(colour, text, words):
    explorer = explore()
    explorer.set_pool(0, (1, 1, 1))
    before = displayed(explorer, "pwin")
    explorer.face_texts[colour].value = text
    message = explorer.face_message.value
    assert "gl-error-text" in message and "cannot be used" in message
    for word in words:
        assert word in message.replace("&#x27;", "'")
    assert explorer.faces == sticks.load_faces("A")
    assert displayed(explorer, "pwin") == before
    assert "Traceback" not in message


def test_an_edited_table_changes_the_odds_and_clears_the_error():
    explorer = explore()
    explorer.set_pool(0, (1, 0, 0))
    explorer.set_pool(1, (0, 1, 0))
    explorer.face_texts["BROWN"].value = "oops"
    assert "cannot be used" in explorer.face_message.value
    # Model B typed in by hand: spec 9.3 gives 1 brown vs 1 white = 3/4 as guide under Model B.
    explorer.face_texts["BROWN"].value = "1, 2, 3, 4"
    explorer.face_texts["WHITE"].value = "N 2 2 3"
    assert explorer.face_message.value == ""
    assert displayed(explorer, "pwin") == Fraction(3, 4)
    assert "your own table" in explorer.face_title.value


def test_a_points_and_naga_face_is_computed_with_a_warning():
    explorer = explore()
    explorer.face_texts["GREEN"].value = "N,N,1,1N"
    custom = {**sticks.load_faces("A"), "GREEN": ((0, 1), (0, 1), (1, 0), (1, 1))}
    assert "gl-warning" in explorer.face_message.value and "both points and a Naga" in explorer.face_message.value
    with pytest.warns(UserWarning):
        check_display(explorer, (0, 3, 0), (3, 1, 1), 0, faces=custom)
    # E[N] of Marion's green now 3/4: 1/4 (white) + 3/4 (green) = 1.
    assert "Marion 1 " in explorer.numbers["nagas"].value


def test_model_buttons_restore_a_packaged_table():
    explorer = explore()
    explorer.face_texts["BROWN"].value = "9,9,9,9"
    explorer.load_model("B")
    assert explorer.face_texts["BROWN"].value == "1,2,3,4"
    assert explorer.faces == sticks.load_faces("B")
    # spec 9.4: the raw throws of Elodie and Marion under Model B.
    check_display(explorer, (0, 3, 0), (3, 1, 1), 0, faces="B")


# --------------------------------------------------------------------------- simulated throws


def test_throws_are_reproducible_with_a_seed_and_sum_to_one():
    first, second, other = explore(seed=7), explore(seed=7), explore(seed=8)
    for explorer in (first, second, other):
        explorer.throw(300)
        explorer.throw(300)
    assert first.simulated == second.simulated
    assert first.simulated != other.simulated
    for frequencies in first.simulated:
        assert sum(frequencies.values()) == pytest.approx(1)
    assert "After <b>600</b> throws" in first.simulation.value


def test_the_throw_button_uses_the_n_box_and_only_possible_totals():
    explorer = explore()
    explorer.throw_count.value = 250
    explorer.throw_button.click()
    assert "After <b>250</b> throws" in explorer.simulation.value
    for frequencies, pool in zip(explorer.simulated, explorer.pools):
        assert set(frequencies) <= set(sticks.points(pool).outcomes)


def test_simulated_frequencies_converge_to_the_exact_bars():
    explorer = explore(seed=11)
    explorer.throw(40_000)
    for frequencies, pool in zip(explorer.simulated, explorer.pools):
        for outcome, p in sticks.points(pool).items():
            spread = (float(p) * (1 - float(p)) / 40_000) ** 0.5
            assert abs(frequencies.get(outcome, 0.0) - float(p)) < 5 * spread + 1e-9


def test_changing_a_pool_discards_the_old_throws():
    explorer = explore()
    explorer.throw(100)
    explorer.guide.value = 1  # same pools: the throws still describe them
    assert explorer.simulated[0]
    explorer.sliders[1]["GREEN"].value = 4
    assert explorer.simulated == [{}, {}]
    assert "No throws yet" in explorer.simulation.value


# --------------------------------------------------------------------------- display


def test_repr_and_fallbacks_are_deterministic():
    explorer = explore()
    assert repr(explorer) == "OddsExplorer(Elodie=(0, 3, 0), Marion=(3, 1, 1), guide='Elodie', faces='Model A')"
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == repr(explorer)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "35/4096" in bundle["text/html"]  # spec 9.3


@pytest.mark.parametrize("pool", [(0, 0, 0), (12, 0, 0), (0, 12, 0), (0, 0, 12), (12, 12, 12)])
def test_the_plot_draws_at_the_ends_of_the_sliders(pool):
    explorer = explore()
    explorer.throw(50)
    previous = explorer.image.value
    explorer.set_pool(1, pool)
    explorer.throw(50)
    assert explorer.image.value[:8] == b"\x89PNG\r\n\x1a\n" and explorer.image.value != previous
    check_display(explorer, (0, 3, 0), pool, 0)


def test_the_plot_is_a_png_that_changes_with_the_pools():
    explorer = explore()
    before = explorer.image.value
    assert before[:8] == b"\x89PNG\r\n\x1a\n"
    explorer.sliders[0]["BROWN"].value = 5
    assert explorer.image.value != before
    assert explorer.redraw_ms  # every refresh is timed
