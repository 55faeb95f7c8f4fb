"""The apps (notebooks/apps/) served by Voila, as `make app` does, played in headless Chromium.

Each test opens one app, waits for its board, makes one move by clicking and checks that the
page shows what the engine computes here from the app's own seed (the page only reports the
click; Python decides). The time from opening the page to the first board is written to
test-artifacts/timings/apps.json (a record for the notes, not a limit).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from browser_support import screenshot
from browser_support import ROOT, _free_port, _require_chromium  # the Lab tier's launch rules
from deploy_support import (
    commit_two_cards_and_check,
    isolated_env,
    move_a_slider_and_check,
    place_a_card_and_check,
    record_timing,
    wait_for_http,
)

pytestmark = pytest.mark.browser

sys.path.insert(0, str(ROOT / "tools"))
import app_folder  # noqa: E402
import make_apps  # noqa: E402

APP_SEEDS = {"pangu_free_play": 2024, "nagaraja_duel": 2026, "chakra_table": 2024}  # tools/make_apps.py


class Voila:
    def __init__(self, url: str):
        self.url = url

    def app_url(self, name: str) -> str:
        return f"{self.url}/{app_folder.app_path(name)}"


@pytest.fixture(scope="module")
def voila(tmp_path_factory):
    """Voila on 127.0.0.1 and a free port, as `make app` runs it: the folder tools/app_folder.py builds
    (the apps and the rules pages), its flags, and the repository's voila.json read from the working
    directory."""
    _require_chromium()
    home = tmp_path_factory.mktemp("voila-home")
    apps = app_folder.build(home / "app")
    port = _free_port()
    log = open(home / "voila.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "voila", str(apps), "--no-browser", *app_folder.VOILA_FLAGS, f"--port={port}"],
        env=isolated_env(home),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
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
    check_rules_link(page, name)
    return board


def check_rules_link(page, name: str):
    """Issue 25: the introduction's rules link of the app Voila shows, resolved as the browser does, answers
    200 with the rules page (Voila serves notebooks only from its folder; the rules pages sit beside the apps
    in build/app/ and voila.json allows them). Checked on every app's page as its test opens it (open_app),
    so no app is run again only for its link. Returns the link and the rules page's file name."""
    from playwright.sync_api import expect

    link = page.locator(".jp-MarkdownCell a[href*='docs/rules/']")
    expect(link).to_have_count(1)
    target = page.evaluate("(a) => a.href", link.element_handle())  # resolved as the browser does
    page_file = make_apps.APP_INTROS[name][2].split("#")[0]
    response = page.request.get(target)
    assert response.status == 200, f"{name}: {target} answered {response.status}"
    assert response.url.endswith(f"/voila/files/docs/rules/{page_file}"), response.url
    assert response.body() == app_folder.UTF8_MARK + (ROOT / "docs" / "rules" / page_file).read_bytes()
    return link, page_file


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


@pytest.fixture(scope="module")
def last_app_tab(browser_context):
    """A tab the last app's test leaves its app open in, for the rules-link test after it: Voila runs that
    app (a kernel, the notebook, the page) once for both tests, not twice."""
    tab = browser_context.new_page()
    yield tab
    tab.close()


def test_chakra_table_receives_and_the_bots_play_on(last_app_tab, voila):
    from playwright.sync_api import expect

    from gamelib.chakra import BHAGYA, LETTERS, Receive, new_game

    page = last_app_tab
    assert list(make_apps.APP_CELLS)[-1] == "chakra_table"  # the app the rules-link test follows a link of
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


def test_every_apps_rules_link_loads_under_voila(last_app_tab, voila):
    """Issue 25: the introduction's rules link, followed from the app Voila shows, answers 200 with the
    rules page. Each app's test checks its own link (open_app calls check_rules_link on every app as it is
    opened); here the last app's link is clicked, and the browser follows Voila's redirect to the page.
    The last app is the one its own test left open in this tab (opened here only when run alone)."""
    from playwright.sync_api import expect

    assert set(APP_SEEDS) | {"odds_explorer"} == set(make_apps.APP_CELLS)  # every app has its test (open_app)
    name = list(make_apps.APP_CELLS)[-1]
    page = last_app_tab
    if page.url != voila.app_url(name):
        page.goto(voila.app_url(name))
    link, page_file = check_rules_link(page, name)
    with page.expect_response(lambda r: r.url.endswith(f"/voila/files/docs/rules/{page_file}")) as answer:
        link.click()  # the last app's link, clicked: the browser follows Voila's redirect to the page
    assert answer.value.status == 200
    text = (ROOT / "docs" / "rules" / page_file).read_text(encoding="utf-8")
    expect(page.locator("body")).to_contain_text(text.splitlines()[0])
    accented = [line for line in text.splitlines() if any(ord(c) > 127 for c in line)][0]
    expect(page.locator("body")).to_contain_text(accented.strip())  # read as UTF-8, not Latin-1
    screenshot(page, "app_rules_link_under_voila")


def test_voila_serves_the_rules_pages_and_nothing_else_beside_the_apps():
    """The allowlist (voila.json) opens the rules pages only; the app folder holds the apps and the rules."""
    import json
    import re

    allowed = json.loads((ROOT / "voila.json").read_text())["VoilaConfiguration"]["file_allowlist"]

    def served(path: str) -> bool:  # as Voila's file handler matches
        return any(re.fullmatch(rule, path, re.IGNORECASE) for rule in allowed)

    for page_file in {intro[2].split("#")[0] for intro in make_apps.APP_INTROS.values()}:
        assert served(f"docs/rules/{page_file}")
    assert not served("notebooks/apps/odds_explorer.ipynb") and not served("docs/teaching/README.md")
    assert app_folder.PARTS == ("notebooks/apps", "docs/rules")


def test_binders_voila_serves_the_rules_link_as_utf8(page, tmp_path):
    """Issue 25: on Binder, Voila runs inside the Jupyter server started at the repository's root and
    serves the repository itself, not build/app/. Here a copy of what it serves (the apps, the rules
    pages, voila.json and tools/) gets binder/postBuild's marking step, a Jupyter server starts at its
    root as Binder starts it, and an app's rules link must answer with the page read as UTF-8."""
    import shutil

    from playwright.sync_api import expect

    _require_chromium()
    clone = tmp_path / "repo"
    for part in ("notebooks/apps", "docs/rules", "tools"):
        shutil.copytree(ROOT / part, clone / part)
    shutil.copy(ROOT / "voila.json", clone)
    post_build = (ROOT / "binder" / "postBuild").read_text().splitlines()
    marking = [line for line in post_build if "app_folder" in line and not line.startswith("#")]
    assert marking == ["python tools/app_folder.py --mark-rules-in-place"], marking
    subprocess.run([sys.executable, "tools/app_folder.py", "--mark-rules-in-place"], cwd=clone, check=True)
    port = _free_port()
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "server", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1"]
        + ["--IdentityProvider.token=", "--ServerApp.allow_root=True"],
        env=isolated_env(tmp_path),
        cwd=clone,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/api", server, tmp_path / "server.log")
        app_folder_url = f"{url}/{app_folder.app_path('x').rsplit('/', 1)[0]}"
        for rules_link in {intro[2] for intro in make_apps.APP_INTROS.values()}:  # each app's href
            page_file = rules_link.split("#")[0]
            response = page.request.get(f"{app_folder_url}/../../docs/rules/{rules_link}")
            assert response.status == 200, f"{rules_link} answered {response.status}"
            assert response.url.split("#")[0].endswith(f"/voila/files/docs/rules/{page_file}"), response.url
            assert response.body() == app_folder.UTF8_MARK + (ROOT / "docs" / "rules" / page_file).read_bytes()
            page.goto(response.url)
            text = (ROOT / "docs" / "rules" / page_file).read_text(encoding="utf-8")
            accented = [line for line in text.splitlines() if any(ord(c) > 127 for c in line)][0]
            expect(page.locator("body")).to_contain_text(accented.strip())  # read as UTF-8, not Latin-1
        screenshot(page, "binder_rules_link")
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
