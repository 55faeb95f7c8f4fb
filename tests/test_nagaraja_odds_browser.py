"""The odds lesson in a real browser: JupyterLab runs the notebook, Chromium moves the explorer's controls.

The expected numbers are computed here with ``sticks``; the page can only show them if the
browser's slider move reached the kernel and the kernel's answer came back to the page.
"""

from __future__ import annotations

import pytest

from browser_support import open_notebook, screenshot, wait_for_kernel_idle
from gamelib.nagaraja import sticks

NOTEBOOK = "nagaraja/01_fate_sticks.ipynb"
ELODIE, MARION = (0, 3, 0), (3, 1, 1)  # the explorer starts on the rulebook's example (spec 2.7)


@pytest.mark.browser
def test_the_explorer_answers_a_slider_the_throw_button_and_the_face_editor(page, lab):
    from playwright.sync_api import expect

    open_notebook(page, lab, NOTEBOOK)
    wait_for_kernel_idle(page)
    explorer = page.locator(".gl-explorer")
    pwin = explorer.locator(".gl-pwin .gl-exact")
    expect(pwin).to_have_text(str(sticks.win_probability(ELODIE, MARION, True)))  # spec 9.3: 35/4096

    # Keyboard on Elodie's white slider handle: one step right, released at once.
    white = explorer.locator(".gl-slider-0-white")
    white.locator(".noUi-handle").focus()
    white.locator(".noUi-handle").press("ArrowRight")
    expect(white.locator(".widget-readout")).to_have_text("4")
    expect(pwin).to_have_text(str(sticks.win_probability((0, 4, 0), MARION, True)))

    # The guide toggle: Marion becomes guide, so Elodie no longer wins ties.
    explorer.locator(".gl-guide").get_by_role("button", name="Marion").click()
    expect(pwin).to_have_text(str(sticks.win_probability((0, 4, 0), MARION, False)))
    expect(explorer.locator(".gl-ptie .gl-exact")).to_have_text(str(sticks.compare((0, 4, 0), MARION)[1]))

    explorer.locator(".gl-throw").click()
    explorer.locator(".gl-throw").click()
    expect(explorer.locator(".gl-sim")).to_contain_text("After 400 throws")
    explorer.scroll_into_view_if_needed()
    screenshot(explorer, "nagaraja_odds_explorer")

    # A malformed face table: the error shows in the explorer and the odds stay as they were.
    brown = explorer.locator(".gl-faces-brown input")
    brown.fill("2,3,x,4")
    brown.press("Enter")
    expect(explorer.locator(".gl-error")).to_contain_text("cannot be used")
    expect(explorer.locator(".gl-error")).to_contain_text("'x'")
    expect(pwin).to_have_text(str(sticks.win_probability((0, 4, 0), MARION, False)))
    screenshot(explorer.locator(".gl-error").locator(".."), "nagaraja_odds_face_error")

    # A good table of one's own changes the odds (Model B's brown typed by hand).
    brown.fill("1,2,3,4")
    brown.press("Enter")
    custom = {**sticks.load_faces("A"), "BROWN": ((1, 0), (2, 0), (3, 0), (4, 0))}
    expect(pwin).to_have_text(str(sticks.win_probability((0, 4, 0), MARION, False, faces=custom)))
    expect(explorer.locator(".gl-error")).not_to_contain_text("cannot be used")


@pytest.mark.browser
def test_the_lesson_figures_render(page, lab):
    from playwright.sync_api import expect

    open_notebook(page, lab, NOTEBOOK)
    wait_for_kernel_idle(page)
    figures = page.locator(".jp-OutputArea-output img")
    expect(figures.first).to_be_visible()
    expect(figures).to_have_count(7)  # 6 lesson figures and the explorer's plot
    screenshot(figures.first, "nagaraja_sticks_picture")
    exercises = page.locator(".jp-Cell").filter(has_text='check_answer("nagaraja_01", "q1"')
    expect(exercises.locator(".jp-OutputArea-output")).to_contain_text("not answered yet")
    exercises.scroll_into_view_if_needed()
    screenshot(exercises, "nagaraja_odds_exercise_q1")
    heat_map = page.locator(".jp-Cell").filter(has_text="write_values=True").locator(".jp-OutputArea-output img")
    heat_map.scroll_into_view_if_needed()
    screenshot(heat_map, "nagaraja_joint_heat_map")
