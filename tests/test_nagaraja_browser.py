"""The Nagaraja board in a real browser: JupyterLab, headless Chromium, a click, the engine's answer.

The page only reports the click; Python applies it through the engine and sends the new
state back, so the assertions on the DOM below can only pass if the round trip worked.
"""

from __future__ import annotations

import re

import pytest

from browser_support import open_notebook, run_cells, screenshot, set_theme, wait_for_kernel_idle
from gamelib.nagaraja.words import plain

pytestmark = pytest.mark.browser

NOTEBOOK = "nagaraja/03_the_duel.ipynb"
THROUGH = "NagarajaBoard(replay"  # its boards come first; the balance simulations after them need not run here
LIVE_GAME = "game = NagarajaBoard(seed=2026)"  # the lesson's first board: a game against the bot
POSITION = "position = NagarajaBoard(first_room_won_by("  # you have just won a room


@pytest.fixture(scope="module")
def duel(lab_tab, lab):
    """Nagaraja 03 opened once, through its boards, for the tests of the lesson's boards."""
    open_notebook(lab_tab, lab, NOTEBOOK, through=THROUGH)
    wait_for_kernel_idle(lab_tab)
    return lab_tab


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


def test_placing_a_won_tile_by_clicking_shows_the_engines_new_state(duel, lab):
    from playwright.sync_api import expect

    page = duel
    run_cells(page, lab, NOTEBOOK, POSITION)  # a fresh board: the test before may have played on it
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


def test_an_illegal_click_shows_the_engines_reason_on_the_board(duel, lab):
    from playwright.sync_api import expect

    page = duel
    run_cells(page, lab, NOTEBOOK, POSITION)  # a fresh board: the test before may have played on it
    board = position_board(page)
    far = board.locator(".nj-temple-mine .nj-cell[data-content='empty']:not(.nj-cell-legal)").first
    far.click()
    message = board.locator(".gl-message")
    expect(message).to_have_attribute("data-kind", "error")
    expect(message).to_contain_text("touches no placed tile")
    expect(board).to_have_attribute("data-phase", "EXPLORATION")
    screenshot(board, "nagaraja_board_illegal_click")


# ----------------------------------------------------------------------------- a round by clicking

DUEL_SEED = 2026  # the notebook's live game: `NagarajaBoard(seed=2026)`, you (P0) are the guide


def play_as_the_board_does(state, action, bot_rng):
    """The human's action, then the bot's replies until the human is to act (NagarajaBoard.play_bots)."""
    from gamelib.nagaraja.bots import heuristic_policy

    state = state.apply(action)
    while not state.is_terminal and state.to_act == 1:
        state = state.apply(heuristic_policy(state, bot_rng))
    return state


def expect_board_shows(board, state):
    """Every part of P0's view the page draws from the engine: events, phase, hands, sticks, totals."""
    from playwright.sync_api import expect

    from gamelib.nagaraja.board import EVENTS_SHOWN

    obs = state.observation(0)
    # the event log first: it changes with every move, so the checks below see the final state
    expect(board.locator(".nj-event-list li")).to_have_text([plain(e) for e in obs["events"][-EVENTS_SHOWN:]])
    expect(board).to_have_attribute("data-phase", obs["phase"])
    expect(board).to_have_attribute("data-to-act", str(obs["to_act"]))
    expect(board.locator(".gl-message")).not_to_have_attribute("data-kind", "error")
    expect(board.locator(".nj-room")).to_have_attribute("data-tile", obs["current_room"]["tile"])
    me, them = obs["players"]
    expect(board.locator(".nj-player-me .nj-hand .nj-card-id")).to_have_text([c["id"] for c in me["hand"]])
    expect(board.locator(".nj-player-them .nj-hand")).to_have_attribute("data-count", str(them["hand_size"]))
    expect(board.locator(".nj-player-me .nj-score")).to_have_attribute("data-score", str(me["score"]))
    for seat, player in enumerate(obs["players"]):
        throw = board.locator(f".nj-throw[data-seat='{seat}']")
        expect(throw.locator(".nj-stick-id")).to_have_text([s["id"] for s in player["sticks"]])
        for stick in player["sticks"]:
            drawn = throw.locator(f".nj-stick[data-stick='{stick['id']}']")
            expect(drawn).to_have_attribute("data-face", "naga" if stick["naga"] else str(stick["points"]))
            gone = expect(drawn).to_have_class if stick.get("discarded") else expect(drawn).not_to_have_class
            gone(re.compile(r"\bnj-stick-gone\b"))
        shown_total = str(player["total"]) if player["sticks"] or player["modifier"] else ""
        expect(throw.locator(".nj-total")).to_have_attribute("data-total", shown_total)
        in_play = [c["id"] for c in player.get("committed") or []] + [c["id"] for c in player["activated"]]
        if player["sticks"]:  # before the throw the cards lie face down, counted only
            played = throw.locator(".nj-played-card")
            expect(played).to_have_count(len(in_play))
            for index, card in enumerate(in_play):
                expect(played.nth(index)).to_have_attribute("data-card", card)


def pick_parameters(board, label, count):
    """Choose the effect's parameters as a player does: a button when few, the list and 'do it' when many."""
    if count <= 8:
        board.locator(".nj-options .nj-option", has_text=label).click()
    else:
        board.locator(".nj-option-select").select_option(label=label)
        board.locator(".nj-options .nj-option").click()


def test_a_call_of_fate_and_confrontation_played_by_clicking_show_the_engines_states(duel, lab):
    """Commit two cards of one symbol, use the Naga thrown on a card with parameters, pass.

    After each click the page must show the state the engine reaches from the same seed
    and actions, with the notebook's bot (heuristic_policy, seeded like the board) replying.
    """
    import random

    from playwright.sync_api import expect

    from gamelib import nagaraja

    state, bot_rng = nagaraja.new_game(seed=DUEL_SEED), random.Random(DUEL_SEED)
    assert state.phase == "CALL_OF_FATE" and state.to_act == 0 and state.guide == 0
    page = duel
    run_cells(page, lab, NOTEBOOK, LIVE_GAME)  # a fresh board: the test before may have played on it
    board = page.locator(".nj-board").first  # the live game is the notebook's first board
    board.scroll_into_view_if_needed()
    expect_board_shows(board, state)

    # Call of Fate: select two rooms cards (spec 5.3: cards of one symbol), then commit them
    chosen = ("ROM-03", "ROM-04")
    for count, card in enumerate(chosen, start=1):
        drawn = board.locator(f".nj-player-me .nj-card[data-card='{card}']")
        if count == 1:
            drawn.click()
        else:  # by keyboard: the redraw it causes must leave the focus on the same card (issue 8)
            drawn.focus()
            page.keyboard.press("Enter")
        expect(drawn).to_have_class(re.compile(r"\bnj-card-selected\b"))
        if count > 1:
            expect(drawn).to_be_focused()
        expect(board.locator(".nj-commit")).to_have_text(f"commit {count} card{'s' if count > 1 else ''}")
        expect_board_shows(board, state)  # selecting is the page's business: the engine has not moved
    screenshot(board, "nagaraja_board_selected")
    board.locator(".nj-commit").click()
    state = play_as_the_board_does(state, nagaraja.Commit(0, chosen), bot_rng)
    assert state.phase == "CONFRONTATION" and state.to_act == 0, "the seeded throw leaves P0 to act"
    expect_board_shows(board, state)
    screenshot(board, "nagaraja_board_committed")

    # Confrontation (spec 5.4): the seeded throw gives P0 a Naga; use it on STK-04, RETHROW2 (spec 3.4)
    options = [a for a in state.legal_actions() if isinstance(a, nagaraja.UseNaga) and a.card == "STK-04"]
    naga = next(a for a in options if str(a.params) == "B01, W02 of P0")
    stick = board.locator(f".nj-throw[data-seat='0'] .nj-stick[data-colour='{naga.source}'][data-face='naga']")
    stick.click()
    expect(stick).to_have_class(re.compile(r"\bnj-stick-selected\b"))
    expect(board.locator(".nj-naga-panel .nj-hint")).to_contain_text("now click the card to activate")
    board.locator(".nj-player-me .nj-card[data-card='STK-04']").click()
    expect(board.locator(".nj-options")).to_have_attribute("data-count", str(len(options)))
    screenshot(board, "nagaraja_board_naga_options")
    pick_parameters(board, str(naga.params), len(options))
    state = play_as_the_board_does(state, naga, bot_rng)
    assert state.phase == "CONFRONTATION" and state.to_act == 0, "after the rethrow P0 acts again"
    expect_board_shows(board, state)
    screenshot(board, "nagaraja_board_naga_used")

    # then pass: the bot passes too, and the room goes to the higher total (spec 5.5)
    board.locator(".nj-pass").click()
    state = play_as_the_board_does(state, nagaraja.Pass(0), bot_rng)
    assert state.phase == "EXPLORATION"
    expect_board_shows(board, state)
    screenshot(board, "nagaraja_board_passed")


# ----------------------------------------------------------------------------- the analysis overlay


def test_the_analysis_overlay_switched_on_shows_the_librarys_exact_odds(duel, lab):
    """Tick "show the odds": at the Call of Fate each commitment's P(win) appears (issue 12), equal to
    ``analysis.call_of_fate_odds`` of P0's observation; after committing, the Confrontation's moves get theirs."""
    import random

    from playwright.sync_api import expect

    from gamelib import nagaraja
    from gamelib.nagaraja import analysis
    from gamelib.nagaraja.explorer import readable

    state, bot_rng = nagaraja.new_game(seed=DUEL_SEED), random.Random(DUEL_SEED)
    odds = analysis.call_of_fate_odds(state.observation(0))
    chosen = ("ROM-03", "ROM-04")
    expected = next(values for cards, _, values in odds.rows if cards == chosen)
    page = duel
    run_cells(page, lab, NOTEBOOK, LIVE_GAME)  # a fresh board: the test before may have played on it
    board = page.locator(".nj-board").first
    board.scroll_into_view_if_needed()
    panel = board.locator(".nj-analysis")
    expect(panel).to_have_attribute("data-on", "false")
    board.locator(".nj-analysis-toggle input").check()
    expect(panel).to_have_attribute("data-on", "true")
    expect(panel).to_have_attribute("data-phase", "CALL_OF_FATE")
    row = panel.locator(f".nj-analysis-row[data-label='{' + '.join(chosen)}']")
    cells = row.locator(".nj-analysis-value")
    expect(cells).to_have_count(len(odds.counts))
    for index, value in enumerate(expected):
        expect(cells.nth(index)).to_have_attribute("data-p", str(value))
        expect(cells.nth(index)).to_contain_text(readable(value))
    screenshot(board, "nagaraja_board_analysis_call_of_fate")
    set_theme(page, "JupyterLab Dark")
    screenshot(board, "nagaraja_board_analysis_call_of_fate_dark")
    set_theme(page, "JupyterLab Light")

    # commit the two rooms cards: the overlay follows to the Confrontation's moves
    for card in chosen:
        board.locator(f".nj-player-me .nj-card[data-card='{card}']").click()
    board.locator(".nj-commit").click()
    state = play_as_the_board_does(state, nagaraja.Commit(0, chosen), bot_rng)
    assert state.phase == "CONFRONTATION" and state.to_act == 0
    moves = analysis.confrontation_odds(state.observation(0), state.legal_actions())
    expect(panel).to_have_attribute("data-phase", "CONFRONTATION")
    expect(panel.locator(".nj-analysis-row")).to_have_count(len(moves))
    rows = panel.locator(".nj-analysis-row")
    uncertain = [i for i, (_, value) in enumerate(moves) if 0 < value < 1]  # a re-throw's chance
    for index in [0, len(moves) - 1] + uncertain[:1]:
        action, value = moves[index]
        expect(rows.nth(index)).to_have_attribute("data-label", plain(str(action)))
        expect(rows.nth(index).locator(".nj-analysis-value")).to_have_attribute("data-p", str(value))
    screenshot(board, "nagaraja_board_analysis_confrontation")

    # switched off, the overlay disappears
    board.locator(".nj-analysis-toggle input").uncheck()
    expect(panel).to_have_attribute("data-on", "false")
    expect(panel).to_be_hidden()


def test_temple_lesson_sandbox_reveals_left_2_when_clicked_as_in_spec_9_5_case_5(lab_tab, lab):
    """Last in the file: lesson 2 opened alone in the tab of the duel lesson's tests (which it closes)."""
    from playwright.sync_api import expect

    page = lab_tab
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
