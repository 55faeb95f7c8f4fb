"""The duel board fits a 900 px window with Lab's file browser open in EVERY phase (issue 25).

The comfort test (test_boards_comfort_browser.py) looks at the board as it opens, at the Call of
Fate; the arena changes with the phase (the room tile at stake, both throws, the kept cards, the
tile to place, the result), so a seeded game is driven through the phases here and, in each, every
visible element's right edge is measured against the board's own right edge (not only whether the
board scrolls sideways: a box that clips its content shows no scroll bar). The game is played in the
kernel (the first legal move of each decision; the bot answers), and the page redraws it.
Screenshots of each phase, light and dark, at 900 px land in test-artifacts/screenshots/.
"""

from __future__ import annotations

import json

import pytest
from browser_support import open_notebook, screenshot, set_theme, wait_for_kernel_idle

pytestmark = pytest.mark.browser

SEED = 2026  # the duel app's seed; first legal moves reach every phase (to_phase returns True, asserted)
PHASES = ("CALL_OF_FATE", "CONFRONTATION", "NEW_DEAL", "EXPLORATION", "GAME_OVER")
CELLS = [
    (
        "from gamelib.nagaraja.board import NagarajaBoard\n"
        f"duel = NagarajaBoard(seed={SEED})\n"
        "duel.show_analysis = True  # the odds overlay too: the widest thing the board can show\n"
        "duel"
    ),
    (
        "def to_phase(board, phase, limit=600):\n"
        "    '''Play the first legal move of each decision (the bot answers) until the board shows phase.'''\n"
        "    for _ in range(limit):\n"
        "        if board.state['phase'] == phase:\n"
        "            return True\n"
        "        state = board.match.state\n"
        "        if state.is_terminal:\n"
        "            return False\n"
        "        board.apply(state.legal_actions()[0])\n"
        "        board.play_bots()\n"
        "    return False"
    ),
]
NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"phases-{i}",
            "metadata": {},
            "outputs": [],
            "source": source,
        }
        for i, source in enumerate(CELLS)
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

# Every laid-out element of the board (SVG drawings as a whole: their insides are clipped by the
# drawing) must end inside the board's box, and the board inside its output area. An element inside
# a box that scrolls (the list of all moves) is measured by that box instead: it stays reachable.
OVERFLOW = """(root) => {
  const board = root.getBoundingClientRect();
  const place = (root.closest('.jp-OutputArea-output') || root.parentElement).getBoundingClientRect();
  const problems = [];
  const name = (el) => `${el.tagName.toLowerCase()}.${String(el.className.baseVal ?? el.className).split(' ')[0]}`
    + ` ${JSON.stringify((el.textContent || '').trim().slice(0, 24))}`;
  if (board.right > place.right + 0.5) problems.push(`the board ends at ${board.right}, past its output at ${place.right}`);
  const scrolls = (el) => { const s = getComputedStyle(el); return ['auto', 'scroll'].includes(s.overflowX); };
  for (const el of root.querySelectorAll('*')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const style = getComputedStyle(el);
    if (!el.getClientRects().length || style.visibility === 'hidden') continue;
    let scroller = el.parentElement;
    while (scroller && scroller !== root && !scrolls(scroller)) scroller = scroller.parentElement;
    if (scroller && scroller !== root) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    if (box.right > board.right + 0.5) problems.push(`${name(el)} ends at ${box.right.toFixed(1)} px, past the board's ${board.right.toFixed(1)}`);
    if (box.left < board.left - 0.5) problems.push(`${name(el)} starts at ${box.left.toFixed(1)} px, before the board's ${board.left.toFixed(1)}`);
  }
  return problems;
}"""

RUN = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let text = '';
  const future = kernel.requestExecute({ code, silent: false, store_history: false });
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') text += msg.content.text;
    if (msg.header.msg_type === 'error') text += msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return text;
}"""


def test_the_duel_board_fits_900_px_in_every_phase(lab_tab, lab):
    from playwright.sync_api import expect

    page = lab_tab  # the session's Lab tab (browser_support.lab_tab)
    (lab.root / "duel_phases.ipynb").write_text(json.dumps(NOTEBOOK))
    page.set_viewport_size({"width": 900, "height": 2600})  # 900 px wide; tall, so one screenshot holds the board
    open_notebook(page, lab, "duel_phases.ipynb")
    wait_for_kernel_idle(page)
    page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser")).to_be_visible()
    assert page.locator(".jp-FileBrowser").bounding_box()["width"] > 150  # Lab's default layout
    board = page.locator(".nj-board").first
    problems, reached = [], []
    for phase in PHASES:
        answer = page.evaluate(RUN, f"print(to_phase(duel, {phase!r}))").strip()
        assert answer == "True", f"the seeded game did not reach {phase}: {answer}"
        expect(board).to_have_attribute("data-phase", phase)
        wait_for_kernel_idle(page)
        reached.append(phase)
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            set_theme(page, theme)
            page.evaluate("(el) => el.scrollIntoView({block: 'start'})", board.element_handle())
            problems += [f"{phase}, {theme}: {p}" for p in board.evaluate(OVERFLOW)]
            screenshot(board, f"nagaraja_duel_900px_{phase.lower()}_{theme.split()[-1].lower()}")
        set_theme(page, "JupyterLab Light")
    assert reached == list(PHASES)
    assert not problems, f"{len(problems)} elements past the board's right edge at 900 px:\n" + "\n".join(problems[:40])
