"""Issue 25 in a real browser: free play's bar names chance, and the duel speaks the cards' words.

JupyterLab in headless Chromium; the page only reports clicks, Python decides and sends the state
back, so each assertion on the DOM below needs the round trip. Every expected text is computed in
this process from the same seed and moves. Screenshots (light, dark, 900 px) land in
test-artifacts/screenshots/. The guided game's "why not the best move" check of issue 25 is in
test_pangu_browser.py, on the Pangu lesson that file opens once for its guided board.
"""

from __future__ import annotations

import pytest
from browser_support import open_notebook, three_shots

from gamelib.nagaraja.words import CODES
from gamelib.pangu import new_game
from gamelib.pangu.board import PanguBoard
from gamelib.pangu.guide import first_deal_the_hints_win

pytestmark = pytest.mark.browser

FREE_PLAY = "apps/pangu_free_play.ipynb"  # the deal first_deal_the_hints_win(2024) = 2025
DUEL = "apps/nagaraja_duel.ipynb"  # NagarajaBoard(seed=2026) against the heuristic bot
COMMIT = ("ROM-03", "ROM-04", "ROM-07")  # the duel's first commitment here (all three room cards of the hand)
# after it (measured headlessly with the same seed): a white Naga, the committed cards in play, and STK-11
# in hand with one single way to use it
NAGA, SINGLE_WAY_CARD = "WHITE", "STK-11"


def test_free_play_bar_says_the_new_roll_not_the_player_changed_the_chance(lab_tab, lab):
    from playwright.sync_api import expect

    page = lab_tab  # the session's Lab tab: each test opens its app alone in it

    open_notebook(page, lab, FREE_PLAY)
    board = page.locator('.pangu-board[data-board="app"]')
    expect(board.locator(".pangu-eval")).to_have_attribute("data-win", "94.0%")
    model = PanguBoard(new_game(seed=first_deal_the_hints_win(2024)), hints=True)
    for _ in range(3):  # the three best moves of turn 1, clicked: card, die, cell
        best = model.evaluation().best
        board.locator(f'.pangu-revealed[data-card="{best.card}"]').click()
        if not board.locator(f'.pangu-die-selected[data-die="{best.die}"]').count():
            board.locator(f'[data-key="die:{best.die}"]').click()
        expect(board.locator(f'.pangu-die-selected[data-die="{best.die}"]')).to_have_count(1)
        board.locator(f'.pangu-cell[data-cell="{best.cell[0]},{best.cell[1]}"]').click()
        model.apply(best)
        expect(board.locator(f'.pangu-placed[data-card="{best.card}"]')).to_have_count(1)
    change = model.state["evaluation"]["change"]
    assert change["chance"] == "the cards and roll of turn 2" and change["after_chance"] == "74.5%"
    expect(board.locator(".pangu-eval-change")).to_have_text(change["text"])
    expect(board.locator(".pangu-eval-change")).to_have_attribute("data-chance", "yes")
    expect(board.locator(".pangu-eval")).to_have_attribute("data-win", "74.5%")
    three_shots(page, board.locator(".pangu-eval"), "pangu_eval_change")


def test_duel_messages_in_the_cards_words_and_silent_clicks_explained(lab_tab, lab):
    from playwright.sync_api import expect

    page = lab_tab  # the session's Lab tab: each test opens its app alone in it

    open_notebook(page, lab, DUEL)
    board = page.locator(".nj-board").first
    expect(board).to_have_attribute("data-phase", "CALL_OF_FATE")
    me = board.locator(".nj-player-me")
    for card in COMMIT:
        me.locator(f'.nj-card[data-card="{card}"]').click()
    board.locator(".nj-commit").click()
    expect(board).to_have_attribute("data-phase", "CONFRONTATION")
    expect(board.locator(".nj-status")).to_have_class("nj-status nj-your-turn")

    # a Naga chosen, then a card already in play: the click says why it does nothing
    mine = board.locator(f'.nj-throw[data-seat="{board.get_attribute("data-viewer")}"]')
    mine.locator(f'.nj-stick[data-colour="{NAGA}"][data-face="naga"]').first.click()
    expect(board.locator(".nj-hint").first).to_contain_text("now click the card to activate")
    mine.locator(f'.nj-played-card[data-card="{COMMIT[0]}"]').click()
    message = board.locator(".gl-message")
    expect(message).to_have_text(
        f"{COMMIT[0]} is already in play (it was committed this round): a Naga activates a card still in your hand"
    )
    expect(message).to_have_attribute("data-kind", "error")
    three_shots(page, board, "nagaraja_card_in_play_explained")

    # a card with one way to use it is used at once: no "choose how" (the Naga is still chosen)
    if not mine.locator(".nj-stick-selected").count():
        mine.locator(f'.nj-stick[data-colour="{NAGA}"][data-face="naga"]').first.click()
    me.locator(f'.nj-card[data-card="{SINGLE_WAY_CARD}"]').click()
    expect(board.locator(".nj-event-list")).to_contain_text(f"uses a white Naga on {SINGLE_WAY_CARD}")
    expect(board).not_to_contain_text("choose how")
    expect(message).not_to_have_attribute("data-kind", "error")
    text = board.inner_text()
    assert not CODES.search(text), CODES.search(text)
    three_shots(page, board, "nagaraja_single_way_naga")
