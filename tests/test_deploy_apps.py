"""The apps (notebooks/apps/) served by Voila, as `make app` does, played in headless Chromium.

Each test opens one app, waits for its board, makes one move by clicking and checks that the
page shows what the engine computes here from the app's own seed (the page only reports the
click; Python decides). The time from opening the page to the first board is written to
test-artifacts/timings/apps.json (a record for the notes, not a limit).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

from browser_support import screenshot
from conftest import ROOT, _free_port, _require_chromium  # the Lab tier's launch rules
from deploy_support import (commit_two_cards_and_check, isolated_env, move_a_slider_and_check,
                            place_a_card_and_check, record_timing, wait_for_http)

pytestmark = pytest.mark.browser

sys.path.insert(0, str(ROOT / "tools"))
import make_apps  # noqa: E402

APP_SEEDS = {"pangu_free_play": 2024, "nagaraja_duel": 2026, "chakra_table": 2024}  # tools/make_apps.py


class Voila:
    def __init__(self, url: str):
        self.url = url

    def app_url(self, name: str) -> str:
        return f"{self.url}/voila/render/{name}.ipynb"


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """Voila on 127.0.0.1 and a free port, serving a copy of notebooks/apps/ with `make app`'s flags."""
    _require_chromium()
    home = tmp_path_factory.mktemp("voila-home")
    apps = home / "apps"
    shutil.copytree(ROOT / "notebooks" / "apps", apps, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port = _free_port()
    log = open(home / "voila.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(apps), "--no-browser", "--strip_sources=True",
         "--Voila.ip=127.0.0.1", f"--port={port}"],
        env=isolated_env(home), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/", server, home / "voila.log")
        yield Voila(url)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def open_app(page, voila, name: str, board_selector: str):
    """Open an app and return its board once drawn; record the time to the first board."""
    from playwright.sync_api import expect

    started = time.monotonic()
    page.goto(voila.app_url(name))
    board = page.locator(board_selector).first
    expect(board).to_be_visible(timeout=120_000)
    record_timing("apps", name, "first_board_s", round(time.monotonic() - started, 2))
    # No code; above the board, the app's introduction (issue 25): its title, the player's goal, two
    # lines on how to play and a link to the rules page (tools/make_apps.py).
    expect(page.locator(".jp-CodeCell .jp-InputArea")).to_have_count(0)
    intro = page.locator(".jp-MarkdownCell")
    expect(intro).to_have_count(1)
    expect(intro.locator("h1")).to_contain_text(make_apps.APP_CELLS[name][0])
    expect(intro).to_contain_text("Your goal")
    expect(intro.locator("li")).to_have_count(2)
    expect(intro.locator("a[href*='docs/rules/']")).to_have_count(1)
    assert intro.bounding_box()["y"] + intro.bounding_box()["height"] <= board.bounding_box()["y"] + 1
    return board


def test_pangu_free_play_deals_a_deal_the_hints_win_with_the_evaluation_bar(page, voila):
    from playwright.sync_api import expect

    from gamelib.pangu.guide import first_deal_the_hints_win, hint_line_wins

    assert not hint_line_wins(APP_SEEDS["pangu_free_play"])  # the link's default deal is lost by the hints,
    assert hint_line_wins(first_deal_the_hints_win(APP_SEEDS["pangu_free_play"]))  # so the app deals the next won one
    board = open_app(page, voila, "pangu_free_play", '.pangu-board[data-board="app"]')
    bar = board.locator(".pangu-eval")
    expect(bar).to_be_visible()  # hints=True: the bar with the chance of winning, exact from turn 1 with numpy
    expect(bar).to_have_attribute("data-exact", "yes")
    place_a_card_and_check(board, APP_SEEDS["pangu_free_play"])
    screenshot(page, "app_pangu_free_play")


def test_nagaraja_duel_commits_two_cards_and_the_bot_answers(page, voila):
    board = open_app(page, voila, "nagaraja_duel", ".nj-board")
    commit_two_cards_and_check(board, APP_SEEDS["nagaraja_duel"])
    screenshot(page, "app_nagaraja_duel")


def test_chakra_table_receives_and_the_bots_play_on(page, voila):
    from playwright.sync_api import expect

    from gamelib.chakra import BHAGYA, LETTERS, Receive, new_game

    board = open_app(page, voila, "chakra_table", ".ck-board")
    game = new_game(players=3, seed=APP_SEEDS["chakra_table"])
    column = next(c for c, energies in enumerate(game.maya) if energies and energies[0] != 0)
    colour = game.maya[column][0]
    board.locator(f".ck-maya-column[data-column='{column}'] .ck-maya-energy[data-slot='0']").click()
    bhagya = board.locator(".ck-player[data-seat='0'] .ck-bhagya")
    bhagya.click()
    after = game.apply(Receive(column, {colour}, "BHAGYA"))
    # Seat 0's Bhagya is changed only by seat 0: it must hold what the engine put there.
    expect(bhagya).to_have_attribute("data-contents", " ".join(LETTERS[c] for c in after.players[0].levels[BHAGYA]))
    # The two bots have moved: seat 0 is to move again, three moves into the game.
    expect(board).to_have_attribute("data-to-move", "0")
    expect(board.locator(".gl-history-where")).to_have_text("move 3 of 3")
    screenshot(page, "app_chakra_table")


def test_odds_explorer_answers_a_slider(page, voila):
    explorer = open_app(page, voila, "odds_explorer", ".gl-explorer")
    move_a_slider_and_check(explorer)
    screenshot(page, "app_odds_explorer")
