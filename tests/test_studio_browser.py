"""The studio board in a real browser (issue 22, "Done when"): JupyterLab in headless Chromium, real clicks.

notebooks/studio/01_play_pig.ipynb is opened once; two people play Pig hot-seat (some moves by mouse,
some by keyboard), answer the survey, and the playtest file the board wrote is loaded back, in the
notebook and here; then a person plays Bluff (hidden cards) against the notebook's MCTS bot, and the
hot-seat Bluff board asks to pass the screen. The page only reports clicks: each step is computed in
this process on a board built the same way (same seed, same moves) and the test waits for the page to
show what that board says. Screenshots land in test-artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_support import open_notebook, run_cells, screenshot, set_theme, wait_for_kernel_idle
from test_boards_comfort_browser import AA, measured
from gamelib import design
from gamelib.studio.board import Board
from gamelib.studio.examples import bluff, pig
from gamelib.studio.mcts import mcts_policy

pytestmark = pytest.mark.browser
NOTEBOOK = "studio/01_play_pig.ipynb"
IMPORTS = "from gamelib import design"
PIG_CELL = "pig_board = Board(pig"
BLUFF_CELL = "bluff_board = Board(bluff"
HOT_SEAT_CELL = 'label="bluff-hot-seat"'
POOL_CELL = 'files = [Path("data/pig_playtests_sample.jsonl")'
SAMPLE_GAMES = 6  # notebooks/studio/data/pig_playtests_sample.jsonl (tools/make_playtest_sample.py)


def assert_readable(page, board, where: str) -> None:
    """Every text and button of the board at WCAG AA (4.5:1) against what is painted under it, measured
    in the page as tests/test_boards_comfort_browser.py measures the three games' boards."""
    # the log scrolls inside its box: its clipped lines would be measured against the page behind the box
    board.evaluate("(el) => el.querySelectorAll('.studio-log').forEach((log) => { log.style.maxHeight = 'none'; })")
    results = measured(page, board)
    board.evaluate(
        "(el) => el.querySelectorAll('.studio-log').forEach((log) => {"
        " log.style.maxHeight = ''; log.scrollTop = log.scrollHeight; })"
    )  # as the board leaves it
    assert len(results) >= 8, f"{where}: only {len(results)} texts measured"
    low = [
        f"{r['ratio']}:1 {r['tag']}.{r['cls']} {r['text']!r} ({r['ink']} on {r['bg']})"
        for r in results
        if r["ratio"] < AA
    ]
    assert not low, f"{where}: " + "; ".join(low)


def notebook_bot():
    """The bot of the notebook's Bluff board (its cell names it BOT): MCTS, seeded by the board per move."""
    return mcts_policy(simulations=200)


def press(local: Board, label: str) -> None:
    index = [move["label"] for move in local.state["moves"]].index(label)
    local.pick = {"kind": "move", "index": index, "ply": local.state["ply"]}


def pig_choice(local: Board) -> str:
    """Each person rolls until the turn total reaches 6, then holds."""
    labels = [move["label"] for move in local.state["moves"]]
    return "hold" if "hold" in labels and local.match.state.position.turn_total >= 6 else "roll"


@pytest.fixture(scope="module")
def studio(lab_tab, lab):
    open_notebook(lab_tab, lab, NOTEBOOK, only=(IMPORTS, PIG_CELL, BLUFF_CELL, HOT_SEAT_CELL))
    wait_for_kernel_idle(lab_tab)
    return lab_tab


def test_two_people_play_pig_hot_seat_and_the_playtest_is_read_back(studio, lab):
    page = studio
    board = page.locator('.studio-board[data-board="pig"]')
    local = Board(pig, seed=7, rules=pig.Rules(goal=20), names=["Player A", "Player B"])
    expect(board.locator(".studio-status")).to_have_text("Player A to move")
    expect(board.locator(".gl-playtest-status")).to_contain_text("Recording playtest")
    board.scroll_into_view_if_needed()
    screenshot(board, "studio_pig_start_light")

    # Undo: a move taken back, decided by Python
    board.locator('.studio-move[data-label="roll"]').click()
    expect(board).to_have_attribute("data-ply", "2")  # the roll and chance's answer
    board.locator(".studio-undo").click()
    expect(board).to_have_attribute("data-ply", "0")
    expect(board.locator(".gl-message")).to_have_text("Took back Player A's move.")

    seats = set()
    turn = 0
    while not local.match.state.is_terminal:
        label = pig_choice(local)
        seats.add(local.match.state.current_player)
        button = board.locator(f'.studio-move[data-label="{label}"]')
        if turn % 3 == 2:  # every third move by keyboard: the buttons take focus and Enter
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        press(local, label)
        expect(board).to_have_attribute("data-ply", str(local.state["ply"]))
        expect(board.locator(".studio-status")).to_have_text(local.state["status"])
        if turn == 6:
            expect(board.locator(".studio-text")).to_have_text(local.state["text"])
            expect(board.locator(".studio-log li")).to_have_count(len(local.state["log"]))
            screenshot(board, "studio_pig_hot_seat_light")
            assert_readable(page, board, "Pig, light")
            set_theme(page, "JupyterLab Dark")
            screenshot(board, "studio_pig_hot_seat_dark")
            assert_readable(page, board, "Pig, dark")
            set_theme(page, "JupyterLab Light")
        turn += 1
    assert seats == {0, 1}
    expect(board).to_have_attribute("data-terminal", "yes")
    expect(board.locator(".studio-log li").last).to_have_text(
        f"{local.state['log'][-1]['who']}: {local.state['log'][-1]['text']}"
    )

    # the survey appears when the game ends; the answers go to Python, which saves them
    survey = board.locator(".gl-survey")
    expect(survey).to_be_visible()
    for question, value in (("fun", 4), ("tension", 5), ("fairness", 3), ("clarity", 4)):
        survey.locator(f'input[data-question="{question}"][value="{value}"]').check()
    survey.locator(".gl-survey-comment").fill("browser test: a close race")
    screenshot(board, "studio_pig_survey_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(board, "studio_pig_survey_dark")
    assert_readable(page, board, "Pig's survey, dark")
    set_theme(page, "JupyterLab Light")
    page.set_viewport_size({"width": 900, "height": 1000})
    board.scroll_into_view_if_needed()
    screenshot(board, "studio_pig_survey_900px")
    page.set_viewport_size({"width": 1280, "height": 1000})
    survey.locator(".gl-survey-save").click()
    expect(board.locator(".gl-message")).to_have_text(f"Thank you: the survey is saved in {playtest_file(lab).name}.")
    expect(survey).to_have_count(0)

    # read back in the notebook, pooled with the sample session
    run_cells(page, lab, NOTEBOOK, POOL_CELL)
    pooled = page.locator(".jp-OutputArea-output").filter(has_text="finished games from")
    expect(pooled).to_contain_text(f"{SAMPLE_GAMES + 1} finished games")
    expect(page.locator(".jp-OutputArea-output").filter(has_text="browser test: a close race")).to_have_count(1)

    # and here: the same game, the people's decisions, their seconds, the seats and the survey
    results = design.load_playtests(playtest_file(lab))
    assert len(results) == 1 and results.games[0].final.to_json() == local.match.state.to_json()
    game = results.games[0]
    assert results[0].policies == ("Player A", "Player B") and game.undone == 1
    assert [d.label for d in game.decisions] == [
        entry["text"] for entry in local.state["log"] if entry["kind"] == "human"
    ]
    assert all(d.by == "human" and d.seconds > 0 for d in game.decisions)
    assert game.survey == {"fun": 4, "tension": 5, "fairness": 3, "clarity": 4, "comment": "browser test: a close race"}
    table = design.compare_with_bot(results, pig.bots.greedy_policy)
    assert len(table) == len(game.decisions)
    assert design.seat_win_rates(results)[local.match.state.winner].value == 1


def playtest_file(lab):
    files = sorted((lab.root / "studio" / "playtests").glob("pig-*.jsonl"))
    assert len(files) == 1, files
    return files[0]


def test_a_person_plays_bluff_against_the_bot_and_sees_only_their_card(studio, lab):
    page = studio
    board = page.locator('.studio-board[data-board="bluff"]')
    local = Board(bluff, seed=11, names=["You", "Bot"], bots={1: notebook_bot()})
    board.scroll_into_view_if_needed()
    expect(board.locator(".studio-text")).to_have_text(local.state["text"])
    expect(board.locator(".studio-log li").first).to_have_text("Chance: (hidden from you)")
    screenshot(board, "studio_bluff_bot_light")
    while not local.match.state.is_terminal:
        label = "bet" if "bet" in [m["label"] for m in local.state["moves"]] else "call"
        board.locator(f'.studio-move[data-label="{label}"]').click()
        press(local, label)
        expect(board).to_have_attribute("data-ply", str(local.state["ply"]))
    expect(board.locator(".studio-status")).to_have_text(local.state["status"])
    expect(board.locator(".studio-text")).to_have_text(local.state["text"])
    expect(board.locator(".studio-log li")).to_have_text([f"{e['who']}: {e['text']}" for e in local.state["log"]])
    set_theme(page, "JupyterLab Dark")
    screenshot(board, "studio_bluff_bot_dark")
    screenshot(page, "studio_page_dark")  # the board inside the dark notebook around it
    set_theme(page, "JupyterLab Light")


def test_hot_seat_bluff_asks_to_pass_the_screen(studio, lab):
    page = studio
    run_cells(page, lab, NOTEBOOK, HOT_SEAT_CELL)  # a fresh board
    board = page.locator('.studio-board[data-board="bluff-hot-seat"]').last
    local = Board(bluff, seed=12, names=["Player A", "Player B"])
    expect(board.locator(".studio-cover")).to_contain_text("Pass the screen to Player A")
    expect(board.locator(".studio-text")).to_have_count(0)
    board.scroll_into_view_if_needed()
    screenshot(board, "studio_bluff_cover_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(board, "studio_bluff_cover_dark")
    assert_readable(page, board, "Bluff's cover, dark")
    set_theme(page, "JupyterLab Light")
    board.locator(".studio-reveal").focus()
    page.keyboard.press("Enter")
    local.pick = {"kind": "reveal"}
    expect(board.locator(".studio-text")).to_have_text(local.state["text"])
    expect(board.locator(".studio-move").first).to_be_focused()  # the keyboard lands on the first move
    board.locator('.studio-move[data-label="bet"]').click()
    press(local, "bet")
    expect(board.locator(".studio-cover")).to_contain_text("Pass the screen to Player B")
    board.locator(".studio-reveal").click()
    local.pick = {"kind": "reveal"}
    expect(board.locator(".studio-text")).to_have_text(local.state["text"])
    screenshot(board, "studio_bluff_player_b_light")
