"""The odds lesson in a real browser: JupyterLab runs the notebook, Chromium moves the explorer's controls.

The expected numbers are computed here with ``sticks``; the page can only show them if the
browser's slider move reached the kernel, the kernel's counts came back, and the explorer's
own front end (explorer.js) drew them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from browser_support import open_notebook, screenshot, set_theme, wait_for_kernel_idle
from gamelib.nagaraja import sticks

NOTEBOOK = "nagaraja/01_fate_sticks.ipynb"
ELODIE, MARION = (0, 3, 0), (3, 1, 1)  # the explorer starts on the rulebook's example (spec 2.7)

DRAWN_BARS = """(svg) => [...svg.querySelectorAll('rect.gx-bar-0')].map(bar => ({
    points: +bar.dataset.points, exact: bar.dataset.exact, height: +bar.getAttribute('height'),
    ymax: +svg.dataset.ymax, plot: +svg.dataset.plotHeight}))"""


def check_drawn_bars(svg, pool) -> None:
    """Every drawn bar of Elodie's is one exact probability of her pool, and its height in pixels says so."""
    bars = svg.evaluate(DRAWN_BARS)
    expected = dict(sticks.points(pool).items())
    assert {bar["points"]: Fraction(bar["exact"]) for bar in bars} == expected
    for bar in bars:
        assert bar["height"] / bar["plot"] * bar["ymax"] == pytest.approx(float(expected[bar["points"]]), rel=1e-6)


@pytest.fixture(scope="module")
def odds_lesson(lab_tab, lab):
    """Nagaraja 01 run once, in a tall window (the whole explorer in view for its screenshot)."""
    lab_tab.set_viewport_size({"width": 1280, "height": 2600})
    open_notebook(lab_tab, lab, NOTEBOOK)
    wait_for_kernel_idle(lab_tab)
    return lab_tab


@pytest.mark.browser
def test_the_explorer_answers_a_slider_the_throw_button_the_effects_and_the_face_editor(odds_lesson):
    from playwright.sync_api import expect

    page = odds_lesson
    explorer = page.locator(".gl-explorer")
    pwin = explorer.locator(".gl-pwin .gl-exact")
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability(ELODIE, MARION, True)))  # 35/4096
    bars = explorer.locator("svg.gx-bars")
    expect(bars.locator("rect.gx-bar-0")).to_have_count(len(sticks.points(ELODIE)))
    check_drawn_bars(bars, ELODIE)

    # Keyboard on Elodie's white slider handle: one step right, released at once.
    white = explorer.locator(".gl-slider-0-white")
    white.locator(".noUi-handle").focus()
    white.locator(".noUi-handle").press("ArrowRight")
    expect(white.locator(".widget-readout")).to_have_text("4")
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 4, 0), MARION, True)))
    expect(bars.locator("rect.gx-bar-0")).to_have_count(len(sticks.points((0, 4, 0))))  # 0..12 points: 13 bars
    check_drawn_bars(bars, (0, 4, 0))
    current = explorer.locator("svg.gx-sweep-A .gx-sweep-current")
    expect(current).to_have_attribute("data-count", "4")
    expect(current).to_have_attribute("data-exact", str(sticks.win_probability((0, 4, 0), MARION, True)))

    # The guide toggle: Marion becomes guide, so Elodie no longer wins ties.
    explorer.locator(".gl-guide").get_by_role("button", name="Marion").click()
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 4, 0), MARION, False)))
    expect(explorer.locator(".gl-ptie .gl-exact")).to_have_attribute(
        "data-value", str(sticks.compare((0, 4, 0), MARION)[1])
    )

    # A stick effect: Elodie's DISCARD2 on Marion (the default target).
    explorer.locator(".gl-effect-choice select").select_option(label="DISCARD2: discard two sticks")
    expect(explorer.locator(".gl-effect .gl-exact")).to_have_attribute(
        "data-value", str(sticks.win_probability_after((0, 4, 0), MARION, False, "DISCARD2", "theirs"))
    )

    # The heat map follows the button over it (drawn in the page from the joint counts).
    explorer.get_by_role("button", name="Marion's throw").click()
    expect(explorer.locator("svg.gx-heat")).to_have_attribute("data-player", "1")
    heat = explorer.locator("svg.gx-heat")
    expect(heat).to_have_attribute("data-cells", str(len(sticks.joint(MARION))))  # cells painted on its canvas
    # Pointing at a cell shows its exact chance: the cell at (points, Nagas) = (0, 0) of Marion's throw.
    (p0, n0), p_cell = next(iter(sticks.joint(MARION).items()))
    heat.scroll_into_view_if_needed()  # the pointer reaches only what is in the window
    box = heat.locator("image.gx-cells").bounding_box()
    columns = max(p for p, _ in sticks.joint(MARION)) - p0 + 1
    rows = max(n for _, n in sticks.joint(MARION)) + 1
    page.mouse.move(box["x"] + box["width"] / columns / 2, box["y"] + box["height"] * (rows - n0 - 0.5) / rows)
    expect(heat.locator(".gx-heat-readout")).to_have_attribute("data-exact", str(p_cell))

    explorer.locator(".gl-throw").click()
    explorer.locator(".gl-throw").click()
    expect(explorer.locator(".gl-sim")).to_contain_text("After 400 throws")
    expect(bars.locator("circle.gx-dot[data-player='0']").first).to_be_visible()
    explorer.scroll_into_view_if_needed()
    screenshot(explorer, "nagaraja_odds_explorer")

    # A malformed face table: the error shows in the explorer and the odds stay as they were.
    brown = explorer.locator(".gl-faces-brown input")
    brown.fill("0,100000000")  # issue 9.10: this raised MemoryError out of the observer
    brown.press("Enter")
    expect(explorer.locator(".gl-error")).to_contain_text("cannot be used")
    expect(explorer.locator(".gl-error")).to_contain_text("at most 100 points")
    brown.fill("2,3,x,4")
    brown.press("Enter")
    expect(explorer.locator(".gl-error")).to_contain_text("'x'")
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 4, 0), MARION, False)))
    screenshot(explorer.locator(".gl-error").locator(".."), "nagaraja_odds_face_error")

    # A good table of one's own changes the odds (Model B's brown typed by hand).
    brown.fill("1,2,3,4")
    brown.press("Enter")
    custom = {**sticks.load_faces("A"), "BROWN": ((1, 0), (2, 0), (3, 0), (4, 0))}
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 4, 0), MARION, False, faces=custom)))
    expect(explorer.locator(".gl-error")).not_to_contain_text("cannot be used")

    # Dark theme: the same plots must stay readable.
    set_theme(page, "JupyterLab Dark")
    explorer.locator("svg.gx-bars").scroll_into_view_if_needed()
    screenshot(explorer.locator(".gx-root"), "nagaraja_odds_plots_dark")
    set_theme(page, "JupyterLab Light")
    screenshot(explorer.locator(".gx-root"), "nagaraja_odds_plots_light")


@pytest.mark.browser
def test_the_lesson_figures_render(odds_lesson):
    """The lesson's outputs after the explorer test has moved its controls (they move only the explorer)."""
    from playwright.sync_api import expect

    page = odds_lesson
    figures = page.locator(".jp-OutputArea-output img")
    expect(figures.first).to_be_visible()
    expect(figures).to_have_count(6)  # the lesson's static figures; the explorer draws SVG, not a picture
    expect(page.locator(".gl-explorer svg.gx-plot")).to_have_count(5)  # bars, tails, heat map, two sweeps
    screenshot(figures.first, "nagaraja_sticks_picture")
    exercises = page.locator(".jp-Cell").filter(has_text='check_answer("nagaraja_01", "q1"')
    expect(exercises.locator(".jp-OutputArea-output")).to_contain_text("not answered yet")
    exercises.scroll_into_view_if_needed()
    screenshot(exercises, "nagaraja_odds_exercise_q1")
    design = page.locator(".jp-Cell").filter(has_text="check_contest(HAND")
    expect(design.locator(".jp-OutputArea-output")).to_contain_text("lay at least one card")
    heat_map = page.locator(".jp-Cell").filter(has_text="write_values=True").locator(".jp-OutputArea-output img")
    heat_map.scroll_into_view_if_needed()
    screenshot(heat_map, "nagaraja_joint_heat_map")
