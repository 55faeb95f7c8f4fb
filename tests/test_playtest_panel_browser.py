"""The three games' boards record playtests in a real browser (issue 22): each board's page mounts the
shared playtest panel (one line in its board.js); on Pangu a person plays the last move of a game by
clicking, answers the survey on the board, and the file is read back with ``load_playtests``."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from browser_support import open_notebook, screenshot, set_theme, wait_for_kernel_idle
from gamelib import design
from gamelib.pangu import new_game
from gamelib.pangu.bots import greedy_policy

pytestmark = pytest.mark.browser

SETUP = """import random
from gamelib.chakra.board import ChakraBoard
from gamelib.nagaraja.board import NagarajaBoard
from gamelib.pangu import new_game
from gamelib.pangu.board import PanguBoard
from gamelib.pangu.bots import greedy_policy

def one_move_before_the_end(seed):
    state = new_game(seed=seed)
    while not state.apply(greedy_policy(state, random.Random(0))).is_terminal:
        state = state.apply(greedy_policy(state, random.Random(0)))
    return state

pangu = PanguBoard(one_move_before_the_end(5), label="recorded")
pangu.record("panel_pangu.jsonl", seats=["Ana"])"""


def cell(source: str, index: int) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": f"panel-{index}",
        "metadata": {},
        "outputs": [],
        "source": source,
    }


NOTEBOOK = {
    "cells": [
        cell(SETUP, 0),
        cell("pangu", 1),
        cell('chakra = ChakraBoard(seed=3, label="chakra recorded")\nchakra.record("panel_chakra.jsonl")\nchakra', 2),
        cell(
            'nagaraja = NagarajaBoard(seed=3, label="nagaraja recorded")\nnagaraja.record("panel_nagaraja.jsonl")\n'
            "nagaraja",
            3,
        ),
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def last_move():
    """The move the test clicks: the last of the game, with the die the board preselects (the cheaper)."""
    state = new_game(seed=5)
    while not state.apply(greedy_policy(state, random.Random(0))).is_terminal:
        state = state.apply(greedy_policy(state, random.Random(0)))
    for action in state.legal_actions():
        if (
            state.cheapest_die(action.card)[0] == action.die
            and action.orientation == 0
            and state.apply(action).is_terminal
        ):
            return state, action
    raise AssertionError("no last move with the cheaper die: pick another seed")


def test_each_board_shows_the_panel_and_a_pangu_game_is_surveyed_and_read_back(lab_tab, lab):
    page = lab_tab  # the session's Lab tab (browser_support.lab_tab)
    (lab.root / "playtest_panels.ipynb").write_text(json.dumps(NOTEBOOK))
    open_notebook(page, lab, "playtest_panels.ipynb")
    wait_for_kernel_idle(page)
    for board_class, name in ((".ck-board", "panel_chakra.jsonl"), (".nj-board", "panel_nagaraja.jsonl")):
        panel = page.locator(f"{board_class} .gl-playtest-status")
        expect(panel).to_contain_text(f"Recording playtest: {name} · game 1 · 0 finished")

    board = page.locator('.pangu-board[data-board="recorded"]')
    expect(board.locator(".gl-playtest-status")).to_have_text(
        "● Recording playtest: panel_pangu.jsonl · game 1 · 0 finished · seats: Ana"
    )
    state, action = last_move()
    board.locator(f'.pangu-revealed[data-card="{action.card}"]').click()
    board.locator(f'.pangu-cell[data-cell="{action.cell[0]},{action.cell[1]}"]').click()
    survey = board.locator(".gl-survey")
    expect(survey).to_be_visible()
    expect(board.locator(".gl-playtest-status")).to_contain_text("1 finished")
    survey.locator('input[data-question="fun"][value="2"]').check()
    survey.locator('input[data-question="clarity"][value="5"]').focus()
    page.keyboard.press("Space")  # the radio buttons answer the keyboard
    board.scroll_into_view_if_needed()
    screenshot(board.locator(".gl-playtest"), "playtest_panel_pangu_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(board.locator(".gl-playtest"), "playtest_panel_pangu_dark")
    for board_class in (".ck-board", ".nj-board"):
        other = page.locator(board_class)
        other.scroll_into_view_if_needed()
        screenshot(other.locator(".gl-playtest"), f"playtest_panel_{board_class[1:3]}_dark")
    set_theme(page, "JupyterLab Light")
    survey.locator(".gl-survey-comment").fill("the last card was easy")
    survey.locator(".gl-survey-save").click()
    expect(board.locator(".gl-message")).to_have_text("Thank you: the survey is saved in panel_pangu.jsonl.")

    results = design.load_playtests(lab.root / "panel_pangu.jsonl")
    assert len(results) == 1 and results.games[0].final.to_json() == state.apply(action).to_json()
    [decision] = results.games[0].decisions
    assert decision.action == action and decision.by == "human" and decision.player == "Ana" and decision.seconds > 0
    assert results.games[0].survey == {
        "fun": 2,
        "tension": None,
        "fairness": None,
        "clarity": 5,
        "comment": "the last card was easy",
    }
