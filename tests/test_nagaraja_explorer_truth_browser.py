"""Every screen of the odds explorer tells the truth (issue 25), checked in JupyterLab with Chromium.

The app notebook (notebooks/apps/odds_explorer.ipynb) runs; the keyboard and the mode buttons move the
explorer as a student would, and the DOM must show the numbers of the sliders' own pools, computed
here with ``sticks``, or visibly nothing.
"""

from __future__ import annotations

import re

import pytest

from browser_support import open_notebook, screenshot, set_theme, wait_for_kernel_idle
from gamelib.nagaraja import sticks

NOTEBOOK = "apps/odds_explorer.ipynb"
MARION = (3, 1, 1)  # the explorer starts on the rulebook's example (spec 2.7)


DRAWN_PATH = """(svg) => ({d: svg.querySelector('path.gx-bar-path-0').getAttribute('d'), ymax: +svg.dataset.ymax,
    plot: +svg.dataset.plotHeight, first: +svg.querySelector('path.gx-bar-path-0').dataset.first})"""


def check_bar_path(svg, pool) -> None:
    """Elodie's bars drawn as one path: one rectangle per points value, in order, each as tall as its chance."""
    drawn = svg.evaluate(DRAWN_PATH)
    bars = [(float(base) - float(top)) for base, top in re.findall(r"M[-\d.]+ ([-\d.]+)V([-\d.]+)h", drawn["d"])]
    expected = sorted(sticks.points(pool).items())
    assert len(bars) == len(expected) and drawn["first"] == expected[0][0]
    for height, (_, chance) in zip(bars, expected):  # the path's coordinates are written to 0.01 px
        assert height == pytest.approx(float(chance) * drawn["plot"] / drawn["ymax"], abs=0.011)


@pytest.fixture(scope="module")
def explorer_app(lab_tab, lab):
    lab_tab.set_viewport_size({"width": 1280, "height": 2400})
    open_notebook(lab_tab, lab, NOTEBOOK)
    wait_for_kernel_idle(lab_tab)
    return lab_tab


def press(explorer, player: int, colour: str, key: str, expected: str) -> None:
    from playwright.sync_api import expect

    slider = explorer.locator(f".gl-slider-{player}-{colour}")
    slider.locator(".noUi-handle").focus()
    slider.locator(".noUi-handle").press(key)
    expect(slider.locator(".widget-readout")).to_have_text(expected)


@pytest.mark.browser
def test_free_mode_end_keys_mode_note_and_now_marker(explorer_app):
    from playwright.sync_api import expect

    page = explorer_app
    explorer = page.locator(".gl-explorer")
    pwin = explorer.locator(".gl-pwin .gl-exact")
    explorer.locator(".gl-mode").get_by_role("button", name="free: no supply limit").click()

    # End and Home on a handle: the slider's ends (before: End did nothing).
    press(explorer, 0, "white", "End", "36")
    press(explorer, 0, "white", "Home", "0")
    press(explorer, 0, "white", "End", "36")
    press(explorer, 0, "brown", "End", "36")
    press(explorer, 0, "green", "End", "28")  # a side stops at 100 sticks, where exact odds stop
    mine = (36, 36, 28)
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability(mine, MARION, True)))
    expect(explorer.locator(".gl-odds-error")).to_have_text("")
    expect(explorer.locator(".gx-absent")).to_have_count(0)
    # Past 2**64 outcomes a player's bars are one path, a rectangle per points value (issue 25: speed).
    path = explorer.locator("svg.gx-bars path.gx-bar-path-0")
    expect(path).to_have_attribute("data-bars", str(len(sticks.points(mine))))
    check_bar_path(explorer.locator("svg.gx-bars"), mine)
    expect(explorer.locator(".gl-moments")).to_contain_text(f"Elodie: mean {sticks.moments(*mine)['mean_points']} ")

    # The sweep's "now" marker at the right edge of Elodie's white sweep stays inside its plot.
    for model in sticks.MODELS:
        svg = explorer.locator(f"svg.gx-sweep-{model}")
        expect(svg.locator(".gx-sweep-current")).to_have_attribute("data-count", "36")
        now, frame = svg.locator(".gx-now").bounding_box(), svg.bounding_box()
        assert frame["x"] <= now["x"] and now["x"] + now["width"] <= frame["x"] + frame["width"]
    explorer.locator("svg.gx-sweep-A").scroll_into_view_if_needed()
    screenshot(explorer.locator(".gx-root"), "nagaraja_explorer_free_100_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(explorer.locator(".gx-root"), "nagaraja_explorer_free_100_dark")
    set_theme(page, "JupyterLab Light")

    # Back to game mode: the supply moves the sliders, and the explorer says so where it happens.
    press(explorer, 1, "brown", "End", "36")
    explorer.locator(".gl-mode").get_by_role("button", name="game: 12 of each colour in all").click()
    note = explorer.locator(".gl-supply .gl-mode-note")
    expect(note).to_contain_text("Marion's brown 36 → 0")
    expect(note).to_contain_text("Elodie's white 36 → 12")
    game = ((12, 12, 12), (0, 0, 0))
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability(*game, True)))
    page.set_viewport_size({"width": 900, "height": 1600})
    note.scroll_into_view_if_needed()
    screenshot(explorer, "nagaraja_explorer_game_note_900")
    page.set_viewport_size({"width": 1280, "height": 2400})


@pytest.mark.browser
def test_a_pool_that_cannot_be_computed_shows_no_number_or_plot(explorer_app):
    from playwright.sync_api import expect

    page = explorer_app
    explorer = page.locator(".gl-explorer")
    explorer.locator(".gl-mode").get_by_role("button", name="free: no supply limit").click()
    brown = explorer.locator(".gl-faces-brown input")
    brown.fill("100,100,100,100")
    brown.press("Enter")
    press(explorer, 0, "brown", "End", "36")  # 3600 points: beyond the exact method's range
    expect(explorer.locator(".gx-absent")).to_contain_text("Cannot compute")
    expect(explorer.locator("svg.gx-plot")).to_have_count(0)
    expect(explorer.locator(".gl-odds .gl-exact")).to_have_count(0)
    expect(explorer.locator(".gl-pwin")).to_contain_text("not computed for these pools")
    expect(explorer.locator(".gl-edition-ranges")).to_contain_text("Elodie's 36 brown + 12 white + 12 green")
    explorer.locator(".gl-odds").scroll_into_view_if_needed()
    screenshot(explorer, "nagaraja_explorer_absent_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(explorer, "nagaraja_explorer_absent_dark")
    set_theme(page, "JupyterLab Light")
    press(explorer, 0, "brown", "Home", "0")
    expect(explorer.locator(".gx-absent")).to_have_count(0)
    expect(explorer.locator("svg.gx-plot")).to_have_count(5)


@pytest.mark.browser
def test_the_published_ranges_show_the_teaching_edition_inside(explorer_app):
    from playwright.sync_api import expect

    from gamelib.nagaraja import published

    page = explorer_app
    explorer = page.locator(".gl-explorer")
    explorer.locator(".gl-faces-brown input").fill("2,3,3,4")  # back to Model A's brown (the test above edited it)
    explorer.locator(".gl-faces-brown input").press("Enter")
    press(explorer, 0, "brown", "Home", "0")
    press(explorer, 0, "white", "Home", "0")
    ranges = explorer.locator(".gl-edition-ranges")
    expect(ranges).to_contain_text(f"over all {len(published.consistent_tables())} stick tables")
    pwin = published.headline_ranges()["pwin"]
    row = ranges.locator(".range-pwin")
    expect(row).to_have_attribute("data-teaching", str(pwin["teaching"]))
    expect(row).to_have_attribute("data-low", str(pwin["low"]))
    # the mark sits inside its bar
    bar, mark = row.locator(".gl-range-bar").bounding_box(), row.locator(".gl-range-mark").bounding_box()
    assert bar["x"] - mark["width"] <= mark["x"] <= bar["x"] + bar["width"]
    ranges.scroll_into_view_if_needed()
    screenshot(ranges, "nagaraja_explorer_ranges_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(ranges, "nagaraja_explorer_ranges_dark")
    set_theme(page, "JupyterLab Light")
    page.set_viewport_size({"width": 900, "height": 1600})
    ranges.scroll_into_view_if_needed()
    screenshot(ranges, "nagaraja_explorer_ranges_900")
    page.set_viewport_size({"width": 1280, "height": 2400})
