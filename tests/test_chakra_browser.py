"""The Chakra board in a real browser: JupyterLab in headless Chromium, clicks, screenshots.

The page only reports clicks; Python applies them with the engine and sends the new state
back. So each assertion below checks a round trip: the expected contents are computed here
with the engine from the notebook's own seed, never read back from the page.
"""

from __future__ import annotations

import re

import pytest

from browser_support import open_notebook, run_cells, screenshot, wait_for_kernel_idle
from gamelib.chakra import BHAGYA, LETTERS, Receive, new_game, next_steps, position

NOTEBOOK = "chakra/01_rules_step_by_step.ipynb"
SEED = 9  # the first board of the notebook: new_game(players=2, seed=9)

pytestmark = pytest.mark.browser


def letters(colours) -> str:
    return " ".join(LETTERS[c] for c in colours)


@pytest.fixture(scope="module")
def rules_lesson(lab_tab, lab):
    """Chakra 01 opened once for the tests of its boards."""
    open_notebook(lab_tab, lab, NOTEBOOK)
    wait_for_kernel_idle(lab_tab)
    return lab_tab


@pytest.fixture
def first_board(rules_lesson, lab):
    from playwright.sync_api import expect

    run_cells(rules_lesson, lab, NOTEBOOK, "ChakraBoard(game)")  # a fresh board: the test before may have played on it
    board = rules_lesson.locator(".ck-board").first
    expect(board).to_be_visible()
    board.scroll_into_view_if_needed()
    return board


def test_receive_by_clicking_shows_the_engines_new_state(first_board):
    from playwright.sync_api import expect

    board = first_board
    game = new_game(players=2, seed=SEED)
    assert game.maya[0][0] == 0, "the lesson's first column should start with a black"
    column = board.locator(".ck-maya-column[data-column='0']")
    expect(column).to_have_attribute("data-contents", letters(game.maya[0]))
    screenshot(board, "chakra_board_start")

    # pick the black and the next energy of column 0, then the Bhagya of seat 0
    column.locator(".ck-maya-energy[data-slot='0']").click()
    column.locator(".ck-maya-energy[data-slot='1']").click()
    expect(board).to_have_attribute("data-mode", "receive")
    expect(column.locator(".ck-maya-energy.ck-selected")).to_have_count(2)
    bhagya = board.locator(".ck-player[data-seat='0'] .ck-bhagya")
    expect(bhagya).to_have_class(re.compile(r"\bck-target\b"))
    screenshot(board, "chakra_board_receive_selected")
    bhagya.click()

    after = game.apply(Receive(0, set(game.maya[0][:2]), "BHAGYA"))
    expect(bhagya).to_have_attribute("data-contents", letters(after.players[0].levels[BHAGYA]))
    expect(column).to_have_attribute("data-contents", letters(after.maya[0]))  # refilled from the seed
    expect(board).to_have_attribute("data-to-move", "1")
    expect(board.locator(".gl-history-where")).to_have_text("move 1 of 1")
    expect(board.locator(".ck-last")).to_contain_text("receive black and green from Maya column 0 onto the Bhagya")
    screenshot(board, "chakra_board_after_receive")

    # an illegal pick: the green of column 2 without its black, onto the Bhagya of seat 1
    column2 = board.locator(".ck-maya-column[data-column='2']")
    expect(column2).to_have_attribute("data-contents", letters(after.maya[2]))
    black_shown = after.maya[2][0] == 0
    column2.locator(".ck-maya-energy[data-slot='1']").click()
    board.locator(".ck-player[data-seat='1'] .ck-bhagya").click()
    message = board.locator(".gl-message")
    if black_shown:
        expect(message).to_have_text("this column shows a black energy: you must take one")
    expect(message).to_have_attribute("data-kind", "error")
    expect(board.locator(".gl-history-where")).to_have_text("move 1 of 1")
    screenshot(board, "chakra_board_illegal_pick")

    # step back: the page shows the start again
    board.locator(".gl-history-back").click()
    expect(column).to_have_attribute("data-contents", letters(game.maya[0]))
    expect(bhagya).to_have_attribute("data-contents", "")


def test_channel_by_clicking_in_the_c3_position(rules_lesson, lab):
    """Spec 15.4 C3 on the lesson's live board: Y down 1 harmonizes yellow, then K skips it to red."""
    from playwright.sync_api import expect

    run_cells(rules_lesson, lab, NOTEBOOK, "c3 = position(")
    board = rules_lesson.locator(".ck-board").nth(2)  # the C3 position of section 3
    board.scroll_into_view_if_needed()
    seat0 = board.locator(".ck-player[data-seat='0']")
    seat0.locator(".ck-space[data-space='D2_D1']").click()
    expect(board).to_have_attribute("data-mode", "channel")
    c3 = position(
        [{"GREEN": "Y K", "YELLOW": "Y Y", "EARTH": 1, "notches": ["YELLOW"]}], maya=["K R Y", "G G L", "O P D"]
    )  # as in the notebook
    expect(board.locator(".ck-step")).to_have_count(len(next_steps(c3, "D2_D1")))
    seat0.locator(".ck-chakra[data-level='GREEN'] .ck-energy[data-colour='Y']").click()
    seat0.locator(".ck-chakra[data-level='YELLOW']").click()
    expect(seat0.locator(".ck-chakra[data-level='YELLOW']")).to_have_attribute("data-contents", "Y Y Y")
    screenshot(board, "chakra_board_channel_midway")
    seat0.locator(".ck-chakra[data-level='GREEN'] .ck-energy[data-colour='K']").click()
    expect(seat0.locator(".ck-chakra[data-level='RED']")).to_have_attribute("data-contents", "K")
    expect(seat0.locator(".ck-chakra[data-level='YELLOW']")).to_have_class(re.compile(r"ck-harmonized"))
    expect(seat0).to_have_attribute("data-reserve", "4")
    screenshot(board, "chakra_board_after_channel")


def test_bot_answers_a_clicked_meditation(lab_tab, lab):
    """Lesson 3's first board: seat 0 meditates by clicking, the greedy bot (seat 1) answers at once.
    Opened alone in the file's tab, after the tests of lesson 1 (which it closes)."""
    from playwright.sync_api import expect

    page = lab_tab
    open_notebook(page, lab, "chakra/03_play_and_plan.ipynb", through="bots={1: greedy_policy})")  # its first board
    wait_for_kernel_idle(page)
    board = page.locator(".ck-board").first
    board.scroll_into_view_if_needed()
    start = new_game(players=2, seed=2024)  # as in the notebook
    colour = next(c for c in range(1, 8) if c not in start.players[0].meditation)
    board.locator(f".ck-meditate-colour[data-colour='{LETTERS[colour]}']").click()
    expect(board.locator(".gl-history-where")).to_have_text("move 2 of 2")
    expect(board).to_have_attribute("data-to-move", "0")
    expect(board.locator(".ck-player[data-seat='0'] .ck-meditation")).to_have_attribute(
        "data-meditation", " ".join(LETTERS[c] for c in sorted(start.players[0].meditation + (colour,)))
    )
    expect(board.locator(".ck-last")).to_contain_text("Seat 1 (bot)")
    screenshot(board, "chakra_board_bot_answered")


def test_final_scoring_board_shows_every_token(lab_tab, lab):
    """Lesson 2's end position (spec 15.1): all seven values face up, scores 14 and 12, seat 0 wins.
    Opened alone in the file's tab."""
    from playwright.sync_api import expect

    page = lab_tab
    open_notebook(page, lab, "chakra/02_scoring.ipynb")
    wait_for_kernel_idle(page)
    board = page.locator(".ck-board").first
    board.scroll_into_view_if_needed()
    expect(board).to_have_attribute("data-phase", "over")
    expect(board.locator(".ck-plenitude.ck-known")).to_have_count(7)
    expect(board.locator(".ck-plenitude[data-colour='DARK_BLUE']")).to_have_attribute("data-value", "4")
    expect(board.locator(".ck-status")).to_have_text("Game over · scores 14 – 12")
    expect(board.locator(".ck-player[data-seat='0'] .ck-winner")).to_be_visible()
    screenshot(board, "chakra_board_final_scoring")
