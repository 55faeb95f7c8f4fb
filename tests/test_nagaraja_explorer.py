"""The odds explorer, driven headless: move its widgets as a user would and read what it shows.

Expected values come from ``sticks`` (tested against brute force elsewhere) or from the
spec's own tables (section 9.3), never from the explorer itself.
"""

from __future__ import annotations

import base64
import html
import json
import re
import struct
from fractions import Fraction

import pytest

from gamelib.nagaraja import default_edition, sticks
from gamelib.nagaraja.explorer import (
    OddsExplorer,
    check_contest,
    explore,
    faces_to_text,
    parse_faces,
    percent,
    pool_words,
    readable,
)

COLOURS = sticks.COLOURS
EXACT = re.compile(r'class="gl-exact"[^>]*data-value="([^"]+)"[^>]*>([^<]+)<')
# Starting points for the sweep: empty pools, small mixed pools, and the full supply.
BASES = [((0, 0, 0), (0, 0, 0)), ((1, 2, 1), (3, 1, 1)), ((12, 12, 12), (0, 0, 0)), ((6, 6, 5), (6, 6, 7))]


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
    explorer = explore(plot=False)  # the numbers only; the plot data is checked below
    explorer.guide.value = guide
    explorer.set_pool(1, (0, 0, 0))
    explorer.set_pool(0, base_mine)
    explorer.set_pool(1, base_theirs)
    bases = [list(base_mine), list(base_theirs)]
    for player in (0, 1):
        for index, colour in enumerate(COLOURS):
            slider = explorer.sliders[player][colour]
            # spec 3.2: 12 sticks of each colour in all, so a slider reaches what the other player left
            assert (slider.min, slider.max) == (0, 12 - bases[1 - player][index])
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


def test_numbers_stay_short_and_honest():
    assert readable(Fraction(35, 4096)) == "0.85%"
    assert readable(Fraction(1, 2)) == "50.00%"
    assert readable(Fraction(0)) == "0%" and readable(Fraction(1)) == "100%"
    assert readable(Fraction(1, 10**6)) == "1.0 × 10⁻⁶"
    # issue 12: 17179868691/17179869184 showed as "≈ 100.00%"; 1 minus it is 493/2**34 ≈ 2.9e-8
    assert readable(Fraction(17179868691, 17179869184)) == "1 − 2.9 × 10⁻⁸"
    assert readable(Fraction(9999, 10000)) == "99.99%"
    assert percent is readable
    for p in (Fraction(1, 3), Fraction(2, 3 * 10**5), 1 - Fraction(1, 7 * 10**9), Fraction(1, 10**40)):
        text = readable(p)
        assert text not in ("0%", "100%", "0.00%", "100.00%") and len(text) <= 16


def test_a_big_pool_shows_a_short_decimal_and_the_fraction_only_on_demand():
    explorer = explore(free=True)
    explorer.set_pool(0, (12, 12, 12))
    explorer.set_pool(1, (0, 0, 1))
    box = explorer.numbers["pwin"].value
    exact = sticks.win_probability((12, 12, 12), (0, 0, 1), True)
    assert explorer.shown("pwin") == exact
    assert "<details>" in box and "<summary>exact" in box  # the fraction sits behind a click
    decimal = re.search(r'class="gl-decimal">([^<]+)<', box).group(1)
    assert decimal == readable(exact) and len(decimal) < 20


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
        ("BROWN", "2,3,4", ["BROWN", "3 faces", "four", "free design"]),
        ("BROWN", "0,100000000", ["BROWN", "at most 100 points"]),  # issue 9.10: was a MemoryError
        ("GREEN", "1," * 40 + "1", ["GREEN", "at most 16"]),
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


def test_the_free_design_switch_allows_other_sticks():
    explorer = explore()
    explorer.set_pool(0, (1, 0, 0))
    explorer.set_pool(1, (1, 0, 0))
    explorer.face_texts["BROWN"].value = "1,2,3,4,5,6"  # a six-sided stick
    assert "four" in explorer.face_message.value
    explorer.free_design.value = True
    assert explorer.face_message.value == ""
    six = {**sticks.load_faces("A"), "BROWN": tuple((p, 0) for p in range(1, 7))}
    check_display(explorer, (1, 0, 0), (1, 0, 0), 0, faces=six)
    assert displayed(explorer, "ptie") == Fraction(1, 6)  # two fair six-sided dice tie 6 times in 36


def test_faces_too_big_for_the_pool_show_an_error_instead_of_raising():
    explorer = explore(free=True)
    explorer.face_texts["BROWN"].value = "100,100,100,100"
    before = displayed(explorer, "pwin")
    explorer.set_pool(0, (11, 3, 0))  # up to 1100 points: beyond the exact method's quick range
    assert "Cannot compute" in explorer.odds_error.value and "at most 1000" in explorer.odds_error.value
    # Nothing of the previous pool stays on screen (issue 25): every box and the plots say "not computed".
    assert before is not None
    for box in (*explorer.numbers.values(), explorer.effect_result):
        assert "gl-exact" not in box.value and "not computed for these pools" in box.value
    assert explorer.shown("pwin") is None
    content = explorer.plots.content
    assert content == {"absent": content["absent"], "pools": [[11, 3, 0], [3, 1, 1]], "page": content["page"]}
    assert content["page"]["numbers"] == explorer.number_boxes.value and "gl-exact" not in content["page"]["numbers"]
    assert "at most 1000" in explorer.plots.content["absent"]
    assert "Elodie&#x27;s 11 brown + 3 white: mean points" in explorer.edition_ranges.value  # the sliders' pool
    explorer.sliders[0]["BROWN"].value = 9
    assert explorer.odds_error.value == ""
    check_display(explorer, (9, 3, 0), (3, 1, 1), 0, faces=explorer.faces)


# --------------------------------------------------------------------------- moments


@pytest.mark.parametrize("pool", [(0, 0, 0), (0, 3, 0), (1, 1, 1), (3, 1, 1), (12, 0, 5), (12, 12, 12)])
@pytest.mark.parametrize("model", ["A", "B"])
def test_mean_spread_and_nagas_are_the_library_values(pool, model):
    explorer = explore(faces=model, free=True)
    explorer.set_pool(0, pool)
    summary = sticks.summary(pool, faces=model)  # from the full joint table, an independent route
    text = explorer.numbers["moments"].value
    assert f"mean {summary['mean_points']} " in text
    assert (
        f"standard deviation ≈ {float(summary['variance_points']) ** 0.5:.2f} (variance {summary['variance_points']})"
        in text
    )
    assert f"Elodie {summary['mean_nagas']} " in explorer.numbers["nagas"].value
    assert sticks.moments(pool, faces=model) == {k: summary[k] for k in sticks.moments(pool, faces=model)}


# --------------------------------------------------------------------------- plot data


def plot_fractions(entry, key="points"):
    total = int(entry["total"], 16)
    return {tuple(row[:-1]) if key == "heat" else row[0]: Fraction(int(row[-1], 16), total) for row in entry[key]}


def check_plot(entry, expected, key="points") -> None:
    """Exact counts up to 2**64 outcomes (33 sticks of 4 faces); past that each chance as a float
    (explorer.EXACT_TOTAL): the page writes those as "≈" only."""
    if sum(entry["pool"]) <= 32:
        assert entry["total"] is not None
        assert plot_fractions(entry, key) == expected
        return
    assert entry["total"] is None
    if key == "heat":
        got = dense_heat_chances(entry["heat"])
        assert got.keys() == expected.keys()
        for outcome, value in got.items():  # the correctly rounded float of each exact chance
            assert value == float(expected[outcome])
        return
    got = {row[0]: row[-1] for row in entry[key]}
    assert got.keys() == expected.keys()
    for outcome, value in got.items():
        assert value == pytest.approx(float(expected[outcome]), rel=1e-4)


def dense_heat_chances(heat) -> dict:
    """The (points, nagas) -> chance of explorer._dense_heat's rows, read as the page reads them."""
    values = struct.unpack(f"<{len(heat['f64']) * 3 // 32}d", base64.b64decode(heat["f64"]))
    chances, at = {}, 0
    for nagas, first, length in heat["rows"]:
        for k in range(length):
            if values[at] > 0:
                chances[first + k, nagas] = values[at]
            at += 1
    assert at == len(values)
    return chances


@pytest.mark.parametrize(
    "mine, theirs",
    [((0, 3, 0), (3, 1, 1)), ((12, 12, 12), (12, 12, 12)), ((0, 0, 0), (2, 0, 9)), ((12, 12, 8), (11, 11, 10))],
)
@pytest.mark.parametrize("model", ["A", "B"])
def test_the_plot_data_is_the_exact_library_tables(mine, theirs, model):
    explorer = explore(faces=model, free=True)
    explorer.set_pool(0, mine)
    explorer.set_pool(1, theirs)
    for heat_player in (0, 1):
        explorer.plots.heat_player = heat_player  # the page's heat-map buttons set this trait
        data = explorer.plots.content
        for player, pool in enumerate((mine, theirs)):
            entry = data["players"][player]
            assert entry["pool"] == list(pool)
            check_plot(entry, dict(sticks.points(pool, faces=model).items()))
        check_plot(data["players"][heat_player], sticks.joint((mine, theirs)[heat_player], faces=model), "heat")
    assert len(explorer.plots.data) < 60_000  # kilobytes, not a picture


@pytest.mark.parametrize("owner, colour", [(0, "WHITE"), (1, "BROWN"), (1, "GREEN")])
@pytest.mark.parametrize("guide", [0, 1])
def test_the_sweep_panels_are_exact_for_both_models(owner, colour, guide):
    explorer = explore()
    explorer.guide.value = guide
    explorer.sweep_choice.value = (owner, colour)
    sweep = explorer.plots.content["sweep"]
    index = COLOURS.index(colour)
    assert sweep["current"] == explorer.pools[owner][index]
    assert [m["name"] for m in sweep["models"]] == ["A", "B"]
    for model in sweep["models"]:
        for count, numerator, denominator in model["values"]:
            pools = [list(p) for p in explorer.pools]
            pools[owner][index] = count
            expected = sticks.win_probability(tuple(pools[0]), tuple(pools[1]), guide == 0, faces=model["name"])
            assert Fraction(int(numerator, 16), int(denominator, 16)) == expected
        # game mode: up to what the supply leaves beside the other player's sticks of that colour
        assert model["values"][-1][0] == 12 - explorer.pools[1 - owner][index]


def test_simulated_dots_are_sent_with_the_bars():
    explorer = explore(seed=3)
    explorer.throw(500)
    data = explorer.plots.content
    for player in (0, 1):
        assert {p: f for p, f in data["players"][player]["sim"]} == explorer.simulated[player]


# --------------------------------------------------------------------------- stick effects


@pytest.mark.parametrize("effect", sticks.EFFECTS)
@pytest.mark.parametrize("target", [0, 1])
@pytest.mark.parametrize("chooser", [0, 1])
@pytest.mark.parametrize("pools", [((0, 3, 0), (3, 1, 1)), ((2, 1, 0), (0, 2, 2)), ((0, 0, 0), (1, 1, 0))])
def test_the_effect_box_shows_the_exact_chance_after_the_effect(effect, target, chooser, pools):
    explorer = explore()
    explorer.set_pool(0, pools[0])
    explorer.set_pool(1, pools[1])
    explorer.effect.value = effect
    explorer.effect_target.value = target
    explorer.effect_chooser.value = chooser
    words = ("mine", "theirs")
    by = words[chooser] if effect == "RETHROW2" else None
    expected = sticks.win_probability_after(*pools, True, effect, words[target], by)
    assert explorer.shown("effect") == expected
    if sum(pools[0]) + sum(pools[1]) <= 6:  # the slow, obvious oracle agrees
        assert expected == sticks.brute_force_win_after(*pools, True, effect, words[target], by)


def test_the_rulebook_discard_gives_elodie_the_room_most_of_the_time():
    explorer = explore()
    explorer.effect.value = "DISCARD2"
    explorer.effect_target.value = 1  # on Marion, chosen by Elodie (spec 2.7)
    # Whatever Marion threw, losing her two best sticks; Elodie (guide) keeps her throw.
    assert explorer.shown("effect") == sticks.brute_force_win_after((0, 3, 0), (3, 1, 1), True, "DISCARD2", "theirs")
    assert explorer.shown("effect") == Fraction(307, 512)


# --------------------------------------------------------------------------- cards and the supply


def test_laying_cards_moves_the_sliders_to_their_sticks():
    explorer = explore()
    cards = default_edition().cards
    for player in (0, 1):
        hand = explorer.hands[player]
        assert len(hand) == 5 and len(set(explorer.hands[0]) | set(explorer.hands[1])) == 10
        symbol = cards[hand[0]].symbol
        same = [c for c in hand if cards[c].symbol == symbol]
        explorer.lay(player, same)
        assert explorer.laid(player) == same
        assert explorer.pools[player] == sticks.as_pool([cards[c].sticks for c in same])
    check_display(explorer, *explorer.pools, 0)


def test_cards_of_two_symbols_are_refused():
    explorer = explore(seed=5)
    cards = default_edition().cards
    hand = explorer.hands[0]
    first = hand[0]
    other = next(c for c in hand if cards[c].symbol != cards[first].symbol)
    explorer.lay(0, [first])
    pool = explorer.pools[0]
    explorer.card_buttons[0][hand.index(other)].value = True
    assert explorer.laid(0) == [first] and explorer.pools[0] == pool
    assert "share one symbol" in explorer.card_message.value


def test_the_supply_is_shared_in_game_mode_and_lifted_in_free_mode():
    explorer = explore()
    explorer.set_pool(1, (0, 0, 0))
    explorer.set_pool(0, (10, 0, 0))
    assert explorer.sliders[1]["BROWN"].max == 2  # 12 brown sticks in all (spec 3.2)
    with pytest.raises(ValueError, match="12 brown"):
        explorer.set_pool(1, (3, 0, 0))
    explorer.mode.value = "free"
    explorer.set_pool(1, (36, 0, 0))
    check_display(explorer, (10, 0, 0), (36, 0, 0), 0)
    explorer.mode.value = "game"  # the guide (Elodie) takes first; Marion keeps what is left
    assert explorer.pools == ((10, 0, 0), (2, 0, 0))
    check_display(explorer, (10, 0, 0), (2, 0, 0), 0)


def test_cards_beyond_the_supply_give_the_guide_first():
    explorer = explore()
    cards = default_edition().cards
    # two brown-heavy hands, given instead of dealt
    explorer.hands = [
        ["STK-01", "STK-05", "STK-10", "STK-07", "STK-04"],
        ["REL-01", "REL-05", "REL-10", "REL-07", "REL-04"],
    ]
    for player, hand in enumerate(explorer.hands):
        for button, card_id in zip(explorer.card_buttons[player], hand):
            button.description = f"{cards[card_id].sticks} · {card_id}"
    explorer.lay(0, explorer.hands[0])  # BBW + BB + BBG + BW + BGG: 8 brown
    explorer.lay(1, explorer.hands[1])  # the same sticks: 8 brown wanted, 4 left
    assert explorer.pools[0] == (8, 2, 3) and explorer.pools[1] == (4, 2, 3)
    assert "only 4 are left" in explorer.supply_message.value
    explorer.mode.value = "free"
    explorer.lay(1, [])
    explorer.lay(1, explorer.hands[1])
    assert explorer.pools[1] == (8, 2, 3)


# --------------------------------------------------------------------------- the design exercise


def test_the_contest_check_computes_its_verdict():
    hand = ["STK-03", "STK-11", "STK-07", "REL-05"]
    for laid in (["STK-03"], ["STK-11"], ["STK-07"], ["REL-05"], ["STK-03", "STK-11"], ["STK-03", "STK-07"]):
        pool = sticks.as_pool([default_edition().cards[c].sticks for c in laid])
        chance = sticks.win_probability(pool, (2, 0, 0), False)
        assert bool(check_contest(hand, laid, (2, 0, 0), False)) == (Fraction(9, 20) <= chance <= Fraction(11, 20))
    assert not check_contest(hand, ["STK-03", "REL-05"], (2, 0, 0), False)  # two symbols
    assert not check_contest(hand, ["CRD-01"], (2, 0, 0), False)  # not in the hand
    assert not check_contest(hand, [], (2, 0, 0), False)


# --------------------------------------------------------------------------- display


def test_repr_and_fallbacks_are_deterministic():
    explorer = explore()
    assert repr(explorer) == "OddsExplorer(Elodie=(0, 3, 0), Marion=(3, 1, 1), guide='Elodie', faces='Model A')"
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == repr(explorer)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "35/4096" in bundle["text/html"]  # spec 9.3
    assert repr(explorer.plots) == "StickPlots()"


def test_the_explorer_needs_neither_matplotlib_nor_numpy():
    import subprocess
    import sys

    code = (
        "import sys; import gamelib.nagaraja.explorer as e; x = e.explore(); x.throw(10); "
        "x.set_pool(0, (1, 2, 3)); "
        "print('ran')"
    )  # an import of either would raise ImportError
    blocked = "import sys; sys.modules['matplotlib'] = None; sys.modules['numpy'] = None; "
    out = subprocess.run([sys.executable, "-c", blocked + code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ran"


# --------------------------------------------------------------------------- every screen tells the truth (issue 25)


def test_free_mode_sliders_stop_where_exact_odds_stop():
    """Each slider goes to 36, but a side's three stop together at sticks.MAX_POOL_STICKS (100):
    every pool the sliders allow is computed, so no number ever belongs to another pool."""
    explorer = explore(free=True)
    explorer.set_pool(0, (36, 36, 28))
    explorer.set_pool(1, (36, 36, 28))
    assert [explorer.sliders[0][c].max for c in COLOURS] == [36, 36, 28]
    check_display(explorer, (36, 36, 28), (36, 36, 28), 0)
    assert explorer.odds_error.value == ""
    with pytest.raises(ValueError, match="at most 100 sticks a side"):
        explorer.set_pool(0, (36, 36, 36))
    explorer.set_pool(0, (10, 36, 36))  # lower counts move first: each step stays within 100
    assert explorer.pools[0] == (10, 36, 36)
    assert [explorer.sliders[0][c].max for c in COLOURS] == [28, 36, 36]
    for player in (0, 1):  # whatever the sliders allow sums to at most 100 a side
        for colour in COLOURS:
            others = sum(explorer.sliders[player][c].value for c in COLOURS if c != colour)
            assert explorer.sliders[player][colour].max + others <= sticks.MAX_POOL_STICKS


def test_back_to_game_mode_says_which_sliders_the_supply_moved():
    explorer = explore(free=True)
    explorer.set_pool(0, (20, 3, 0))
    explorer.set_pool(1, (5, 1, 14))
    explorer.mode.value = "game"  # Elodie guides: she takes 12 brown first, Marion keeps none
    assert explorer.pools == ((12, 3, 0), (0, 1, 12))
    note = explorer.supply_message.value
    assert "gl-mode-note" in note and "takes first" in note
    for change in ("Elodie's brown 20 → 12", "Marion's brown 5 → 0", "Marion's green 14 → 12"):
        assert change in html.unescape(note)
    check_display(explorer, (12, 3, 0), (0, 1, 12), 0)
    explorer.mode.value = "free"
    assert explorer.supply_message.value == ""
    explorer.mode.value = "game"  # nothing moved this time: nothing to say
    assert explorer.supply_message.value == ""


@pytest.mark.parametrize("free", [False, True])
def test_home_and_end_move_a_slider_to_its_ends(free):
    explorer = explore(free=free)
    top = 36 if free else 12 - 1  # game mode: Marion holds one white stick of the 12
    explorer.plots.slider_key = "0-white:End:1"  # what explorer.js sends for End on Elodie's white handle
    assert explorer.pools[0] == (0, top, 0)
    check_display(explorer, (0, top, 0), (3, 1, 1), 0)
    explorer.plots.slider_key = "0-white:Home:2"
    assert explorer.pools[0] == (0, 0, 0)
    explorer.plots.slider_key = "garbage"  # not a message of ours: nothing moves
    assert explorer.pools == ((0, 0, 0), (3, 1, 1))


RANGE = re.compile(r'class="gl-range ([\w-]+)" data-low="([^"]+)" data-high="([^"]+)" data-teaching="([^"]+)"')


def shown_ranges(explorer) -> dict:
    return {css: tuple(map(Fraction, values)) for css, *values in RANGE.findall(explorer.edition_ranges.value)}


def test_the_explorer_shows_each_headline_range_over_the_published_tables():
    from gamelib.nagaraja import published

    explorer = explore()
    explorer.set_pool(0, (2, 1, 4))
    ranges = shown_ranges(explorer)
    for player, pool in enumerate(explorer.pools):
        expected = published.pool_ranges(pool)
        assert ranges[f"range-mean-{player}"][:2] == expected["mean"]
        assert ranges[f"range-naga-{player}"][:2] == expected["naga"]
        assert ranges[f"range-mean-{player}"][2] == sticks.moments(pool, faces="A")["mean_points"]
    assert ranges["range-pwin"] == (Fraction(1, 32768), Fraction(9443, 32768), Fraction(35, 4096))
    assert ranges["range-edge"][2] == Fraction(209, 32768)  # spec 9.3, P(tie) of the example under Model A
    for low, high, teaching in ranges.values():
        assert low <= teaching <= high
    assert "906 stick" in explorer.edition_ranges.value


# --------------------------------------------------------------------------- one state message (issue 25)


def synced_changes(explorer, move) -> list[str]:
    """The synced traits of every widget in the explorer's page that change while ``move()`` runs: each
    change is one message from the kernel to the page (ipywidgets sends a synced trait when it changes)."""
    seen, changed = [], []

    def walk(widget):
        if not any(widget is other for other in seen):
            seen.append(widget)
            for child in getattr(widget, "children", ()):
                walk(child)

    walk(explorer.widget)
    for widget in seen:
        label = next((c for c in widget._dom_classes if c.startswith("gl-")), type(widget).__name__)
        widget.observe(
            lambda change, label=label: changed.append(f"{label}.{change['name']}"),
            names=[name for name in widget.keys if name not in ("layout", "style", "children")],
        )
    move()
    return changed


@pytest.mark.parametrize("pools", [((0, 3, 0), (3, 1, 1)), ((12, 12, 12), (12, 12, 12)), ((36, 36, 28), (36, 36, 28))])
def test_a_slider_step_sends_one_state_message_holding_everything_repainted(pools):
    """Issue 25: per change the page gets one state message (the plots widget's data), holding the number
    boxes, the effect's result, the ranges and the plot data; besides it only the moved slider and, where
    a side's total moved, a neighbour's upper end change."""
    explorer = explore(free=True, pools=pools)
    explorer.effect.value = "PLUS2"
    slider = explorer.sliders[0]["WHITE"]
    changed = synced_changes(explorer, lambda: setattr(slider, "value", slider.value - 1))
    assert changed.count("gl-plot.data") == 1, changed
    others = [c for c in changed if c not in ("gl-plot.data", "gl-slider-0-white.value")]
    assert all(c.endswith(".max") and c.startswith("gl-slider-0-") for c in others), changed
    page = explorer.plots.content["page"]
    assert page == {
        "numbers": explorer.number_boxes.value,
        "error": "",
        "effect": explorer.effect_result.value,
        "ranges": explorer.edition_ranges.value,
    }
    mine = (pools[0][0], pools[0][1] - 1, pools[0][2])
    assert Fraction(EXACT.search(page["numbers"]).group(1)) == sticks.win_probability(mine, pools[1], True)
    assert f"Elodie&#x27;s {html.escape(pool_words(mine))}" in page["ranges"]
    assert "gl-effect-value" in page["effect"]


def test_a_slider_step_at_100_a_side_sends_the_heat_map_as_dense_rows():
    """Issue 25: at 100 sticks a side the heat map's 8,093 cells go as dense rows of float64 in base64
    (explorer._dense_heat), 8 bytes a cell; as ``[p,n,1.2345e-12]`` triples the message was 151 kB
    (bench/bench_explorer_browser.py before this change), which this bound fails."""
    explorer = explore(free=True, pools=((36, 36, 28), (36, 36, 28)))
    slider = explorer.sliders[0]["WHITE"]
    slider.value -= 1
    data = explorer.plots.content
    heat = data["players"][0]["heat"]
    assert set(heat) == {"rows", "f64"}
    cells = sum(length for _, _, length in heat["rows"])
    assert len(heat["f64"]) == 4 * -(-8 * cells // 3)  # base64 of 8 bytes a cell, nothing else
    check_plot(data["players"][0], sticks.joint((36, 35, 28)), "heat")
    assert len(explorer.plots.data) < 125_000


def test_the_text_and_the_lesson_check_live_beside_the_other_games():
    """Issue 26: explorer.py keeps the widget; its words are in odds_view and its lesson check in
    lesson_checks (as in Pangu and Chakra), still importable from explorer for the lessons."""
    import inspect

    from gamelib.nagaraja import explorer, lesson_checks, odds_view

    assert explorer.check_contest is lesson_checks.check_contest
    for name in ("readable", "percent", "faces_to_text", "parse_faces", "pool_words"):
        assert getattr(explorer, name) is getattr(odds_view, name)
    defined = {
        name
        for name, value in vars(explorer).items()
        if inspect.isfunction(value) and value.__module__ == explorer.__name__
    }
    assert not defined & {"readable", "check_contest", "parse_faces", "faces_to_text", "pool_words", "_number"}
    source = inspect.getsource(odds_view)
    assert "import ipywidgets" not in source and "import anywidget" not in source  # text only, no widget


@pytest.mark.parametrize("model", ["A", "B"])
def test_a_stepped_heat_map_is_read_by_naga_rows_as_from_the_cells(model):
    """Issue 25 (speed): a heat map stepped from the one on screen is read straight from its packed grid
    by Naga rows (sticks.joint_columns); the message must be the very one built from the table's cells
    (_dense_heat), whose chances test_the_plot_data_is_the_exact_library_tables checks."""
    from gamelib.nagaraja.explorer import _dense_heat, _heat_json

    key = sticks._faces_key(model)
    step = sticks.joint_step((36, 36, 28), key)
    for pool in [(36, 35, 28), (35, 35, 28), (35, 35, 27), (35, 36, 27), (35, 36, 28)]:  # every colour, both ways
        step = sticks.joint_step(pool, key, step)
        assert sticks.joint_columns(step) is not None  # made by a step
        outcomes, counts, total = step[2][0]
        assert (outcomes, counts, total) == sticks.joint_table(pool, model)
        assert _heat_json(step) == json.dumps(_dense_heat(outcomes, counts, total), separators=(",", ":"))
