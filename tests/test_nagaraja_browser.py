"""The Nagaraja board in a real browser: JupyterLab, headless Chromium, a click, the engine's answer.

The page only reports the click; Python applies it through the engine and sends the new
state back, so the assertions on the DOM below can only pass if the round trip worked.
"""

from __future__ import annotations

import pytest

from browser_support import open_notebook, screenshot, wait_for_kernel_idle

pytestmark = pytest.mark.browser

NOTEBOOK = "nagaraja/03_the_duel.ipynb"


def position_board(page):
    """The lesson's position board (you have just won a room), pinned by its place on the page.

    It is found by its phase once, then held by index: after the click its phase changes.
    """
    from playwright.sync_api import expect

    expect(page.locator(".nj-board[data-phase='EXPLORATION']").first).to_be_visible()
    boards = page.locator(".nj-board")
    index = next(i for i in range(boards.count()) if boards.nth(i).get_attribute("data-phase") == "EXPLORATION")
    board = boards.nth(index)
    board.scroll_into_view_if_needed()
    return board


def test_placing_a_won_tile_by_clicking_shows_the_engines_new_state(page, lab):
    from playwright.sync_api import expect

    open_notebook(page, lab, NOTEBOOK)
    wait_for_kernel_idle(page)
    board = position_board(page)
    expect(board.locator(".nj-status")).to_contain_text("place the room tile")
    room = board.locator(".nj-room").get_attribute("data-tile")
    assert room, "the board should show the room tile at stake"
    screenshot(board, "nagaraja_board_before_placing")

    # turn the tile twice, then click the first legal cell of our temple
    rotate = board.locator(".nj-rotate")
    rotate.click()
    expect(board.locator(".nj-rotate")).to_have_attribute("data-rotation", "1")
    board.locator(".nj-rotate").click()
    expect(board.locator(".nj-rotate")).to_have_attribute("data-rotation", "2")
    target = board.locator(".nj-temple-mine .nj-cell-legal").first
    cell = target.get_attribute("data-cell")
    target.hover()
    screenshot(board, "nagaraja_board_preview")
    target.click()

    # the engine placed it: our temple now draws that tile, turned twice, and the phase moved on
    placed = board.locator(f".nj-temple-mine .nj-cell[data-cell='{cell}']")
    expect(placed).to_have_attribute("data-content", room)
    expect(placed).to_have_attribute("data-rotation", "2")
    expect(board).not_to_have_attribute("data-phase", "EXPLORATION")
    expect(board.locator(".gl-message")).not_to_have_attribute("data-kind", "error")
    screenshot(board, "nagaraja_board_after_placing")


def test_an_illegal_click_shows_the_engines_reason_on_the_board(page, lab):
    from playwright.sync_api import expect

    open_notebook(page, lab, NOTEBOOK)
    wait_for_kernel_idle(page)
    board = position_board(page)
    far = board.locator(".nj-temple-mine .nj-cell[data-content='empty']:not(.nj-cell-legal)").first
    far.click()
    message = board.locator(".gl-message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("touches no placed tile")
    expect(board).to_have_attribute("data-phase", "EXPLORATION")
    screenshot(board, "nagaraja_board_illegal_click")


def test_temple_lesson_sandbox_reveals_left_2_when_clicked_as_in_spec_9_5_case_5(page, lab):
    from playwright.sync_api import expect

    open_notebook(page, lab, "nagaraja/02_temple_paths.ipynb")
    wait_for_kernel_idle(page)
    board = page.locator(".nj-board").first
    board.scroll_into_view_if_needed()
    expect(board.locator(".nj-room")).to_have_attribute("data-tile", "R16")
    board.locator(".nj-rotate").click()
    board.locator(".nj-rotate").click()
    expect(board.locator(".nj-rotate")).to_have_attribute("data-rotation", "2")
    board.locator(".nj-temple-mine .nj-cell[data-cell='2,0']").click()
    # spec 9.5 case 5: corner + chamber at (2,0), rotation 2 turns LEFT_2 up and leaves the amulet
    expect(board.locator(".nj-relic[data-spot='LEFT_2']")).to_have_attribute("data-face", "up")
    expect(board.locator(".nj-cell[data-cell='2,0'] .nj-amulet-token")).to_have_count(1)
    expect(board.locator(".nj-room")).to_have_attribute("data-tile", "R14")
    screenshot(board, "nagaraja_temple_sandbox")
