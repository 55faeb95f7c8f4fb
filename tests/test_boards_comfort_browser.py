"""Every board comfortable to use (issue 10): readable in JupyterLab's light and dark themes,
usable in a narrow window, and honest after a kernel restart.

One notebook holds one of each board (Pangu with its hints, Chakra with a bot, the Nagaraja
duel with its analysis overlay, the temple sandbox, the fate-stick explorer). The contrast of
every piece of text and every button is computed in the page from computed styles: the
text's colour (``color``, or ``fill`` for SVG text) against what is painted under its centre
(``document.elementsFromPoint``: HTML backgrounds and SVG shape fills, composited down to
the page), with the WCAG 2 formula; each must reach 4.5:1 (level AA for normal text).
Screenshots of each board in both themes go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import json

import pytest

from browser_support import ARTIFACTS, open_notebook, screenshot, set_theme, wait_for_kernel_idle

pytestmark = pytest.mark.browser

AA = 4.5  # WCAG 2.x level AA, normal text
SMALLEST_TEXT_PX = 8.0  # the boards' smallest fonts are 8-9 px at full size; none may be drawn smaller

CELLS = [
    "from gamelib.pangu.board import PanguBoard\n"
    "from gamelib.chakra import new_game as chakra_game\n"
    "from gamelib.chakra.board import ChakraBoard\n"
    "from gamelib.chakra.bots import greedy_policy\n"
    "from gamelib.nagaraja.board import NagarajaBoard, TempleBoard, sandbox\n"
    "from gamelib.nagaraja.explorer import explore",
    "pangu = PanguBoard(seed=2024, hints=True, label='comfort')\npangu",
    "chakra = ChakraBoard(chakra_game(players=2, seed=2024), bots={1: greedy_policy})\nchakra",
    "duel = NagarajaBoard(seed=2026)\nduel.show_analysis = True\nduel",
    "temple = TempleBoard(sandbox(tiles=('R16', 'R14', 'R10'), seed=2))\ntemple",
    "explorer = explore()\nexplorer",
]
NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"comfort-{i}",
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
BOARDS = {
    "pangu": ".pangu-board",
    "chakra": ".ck-board",
    "duel": ".nj-board >> nth=0",
    "temple": ".nj-board >> nth=1",
    "explorer": ".gl-explorer",
}

# For each text-bearing element and button of a board: its colour, what is painted behind its
# centre, and the WCAG contrast ratio of the two. Disabled controls are exempt (WCAG 1.4.3).
CONTRAST = """(root) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, bottom) => {  // top composited over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const luminance = ([r, g, b]) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (x, y) => { const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const opacity = (el) => { let o = 1; for (let n = el; n && n.nodeType === 1; n = n.parentElement) o *= +getComputedStyle(n).opacity; return o; };
  const SHAPES = new Set(["rect", "circle", "ellipse", "path", "polygon"]);
  const painted = (el) => {  // the colour of one layer, null when transparent, "unknown" for images
    const style = getComputedStyle(el);
    if (el instanceof SVGElement && el.tagName !== "svg") {
      if (el.tagName === "image") return "unknown";
      if (!SHAPES.has(el.tagName)) return null;
      if (style.fill.startsWith("url")) return "unknown";
      const fill = parse(style.fill);
      if (!fill || style.fill === "none") return null;
      fill[3] *= +style.fillOpacity * opacity(el);
      return fill[3] > 0 ? fill : null;
    }
    if (style.backgroundImage !== "none") return "unknown";
    const bg = parse(style.backgroundColor);
    return bg && bg[3] > 0 ? bg : null;
  };
  const backdrop = (el, x, y) => {
    const layers = [];
    // An HTML element's own background is behind its text; an SVG text's fill is the text itself.
    const stack = document.elementsFromPoint(x, y).filter((under) => !el.contains(under) || under === el);
    for (const under of stack) {
      if (under === el && el instanceof SVGElement) continue;
      const layer = painted(under);
      if (layer === "unknown") return null;
      if (layer) layers.push(layer);
      if (layer && layer[3] >= 1) break;
    }
    let colour = [255, 255, 255, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const hasText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const candidates = [...root.querySelectorAll("*")].filter((el) =>
    (hasText(el) || el.tagName === "BUTTON") && !el.closest("title, style, script, option, select")
  );
  const results = [];
  for (const el of candidates) {
    if (el.closest("button:disabled, [aria-disabled='true'], input:disabled")) continue;
    let box = el.getBoundingClientRect();
    const view = root.getBoundingClientRect();
    const middle = [box.left + box.width / 2, box.top + box.height / 2];
    if (middle[0] < Math.max(view.left, 0) || middle[0] > Math.min(view.right, innerWidth) || middle[1] < 0 || middle[1] > innerHeight) {
      el.scrollIntoView({ block: "nearest", inline: "nearest" });  // reachable by scrolling: measure it there
      box = el.getBoundingClientRect();
    }
    if (box.width < 1 || box.height < 1 || getComputedStyle(el).visibility === "hidden") continue;
    if (opacity(el) < 0.1) continue;  // not shown (a hover preview, for example)
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const style = getComputedStyle(el);
    const ink = parse(el instanceof SVGElement ? style.fill : style.color);
    if (!ink) continue;
    const bg = backdrop(el, x, y);
    if (!bg) continue;
    ink[3] *= opacity(el);
    const shown = over(ink, bg);
    results.push({ text: (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 40),
                   tag: el.tagName, cls: String(el.className.baseVal ?? el.className).slice(0, 60),
                   ratio: Math.round(ratio(shown, bg) * 100) / 100,
                   ink: style[el instanceof SVGElement ? "fill" : "color"], bg: `rgb(${bg.slice(0, 3).map(Math.round)})` });
  }
  return results;
}"""


MEASURED: dict = {}  # every ratio measured, saved beside the screenshots for a reader


@pytest.fixture(scope="module")
def boards(lab_tab, lab):
    """The notebook of boards, run once for this file's three tests, in a window tall enough to
    check each board in view. The tests run in the file's order: the themes (which ends back in
    the light theme), then the narrow window, then the kernel restart, which runs the cells again
    at its end."""
    from playwright.sync_api import expect

    page = lab_tab
    (lab.root / "comfort_boards.ipynb").write_text(json.dumps(NOTEBOOK))
    page.set_viewport_size({"width": 1280, "height": 1400})
    open_notebook(page, lab, "comfort_boards.ipynb")
    wait_for_kernel_idle(page)
    for selector in BOARDS.values():
        expect(page.locator(selector).first).to_be_visible()
    return page


# The board under the middle of its own box: the contrast script reads each text's backdrop from the
# elements at its point, which are the notebook's while Lab is still laying the page out again.
BOARD_IN_PLACE = """(el) => { const box = el.getBoundingClientRect();
  const under = document.elementFromPoint(box.left + box.width / 2, Math.min(box.top + box.height / 2, innerHeight - 1));
  return !!under && el.contains(under); }"""


def measured(page, board) -> list:
    """The contrast of every text of ``board``, once the board is in place; measured a second time
    if any is too low: a real fault stays, a page caught between two layouts does not."""
    results = []
    for _ in range(2):
        page.evaluate("(el) => el.scrollIntoView({block: 'start'})", board.element_handle())
        page.wait_for_function(BOARD_IN_PLACE, arg=board.element_handle())
        results = board.evaluate(CONTRAST)
        if all(r["ratio"] >= AA for r in results):
            break
    return results


def check_contrast(page, theme: str) -> list[str]:
    failures = []
    for name, selector in BOARDS.items():
        board = page.locator(selector).first
        board.scroll_into_view_if_needed()
        results = measured(page, board)
        assert len(results) >= 5, f"{name}: too few text elements measured ({len(results)}): is the board drawn?"
        MEASURED.setdefault(theme, {})[name] = results
        failures += [
            f"{theme} {name}: {r['ratio']}:1 for {r['tag']}.{r['cls']} {r['text']!r} ({r['ink']} on {r['bg']})"
            for r in results
            if r["ratio"] < AA
        ]
        screenshot(board, f"comfort_{name}_{'light' if theme.endswith('Light') else 'dark'}")
    return failures


def test_every_board_is_readable_in_the_light_and_dark_themes(boards):
    page = boards
    failures = []
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        set_theme(page, theme)
        failures += check_contrast(page, theme)
    set_theme(page, "JupyterLab Light")
    (ARTIFACTS.parent / "contrast.json").write_text(json.dumps(MEASURED, indent=1))
    (ARTIFACTS.parent / "contrast-failures.txt").write_text("\n".join(failures))
    assert not failures, f"{len(failures)} text or button contrasts below {AA}:1:\n" + "\n".join(failures)


# --------------------------------------------------------------------------- a narrow window

# In a board: every control that is laid out has a width; every text is at least SMALLEST_TEXT_PX
# tall as drawn (SVG text scaled by its drawing's transform); nothing is cut off by a box that
# hides its overflow (a box that scrolls is fine: what it holds stays reachable).
NARROW = """([smallest]) => (root) => {
  const problems = [];
  const describe = (el) => `${el.tagName}.${String(el.className.baseVal ?? el.className).slice(0, 50)} ${JSON.stringify((el.textContent || '').trim().slice(0, 30))}`;
  const laidOut = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const controls = root.querySelectorAll("button, input, select, textarea, [role=button], .widget-readout, .widget-toggle-buttons, .widget-slider");
  for (const el of controls) {
    if (!laidOut(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) problems.push(`zero size ${Math.round(box.width)}x${Math.round(box.height)}: ${describe(el)}`);
  }
  const hasText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  for (const el of root.querySelectorAll("*")) {
    if (!hasText(el) || !laidOut(el) || el.closest("title, style, script, option")) continue;
    const style = getComputedStyle(el);
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < smallest - 0.01) problems.push(`text drawn ${size.toFixed(1)} px: ${describe(el)}`);
    const box = el.getBoundingClientRect();
    if (box.width < 1) { problems.push(`text with no width: ${describe(el)}`); continue; }
    if (!(el instanceof SVGElement) && (style.overflowX === "hidden" || style.overflowX === "clip")
        && el.scrollWidth > el.clientWidth + 1) problems.push(`text cut inside its box (${el.scrollWidth} > ${el.clientWidth}): ${describe(el)}`);
    // Walk up: a box that scrolls keeps what it holds reachable, so from there on only the
    // scrolling box itself must be in view; a box that hides its overflow must hold the text.
    let at = { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const s = getComputedStyle(up);
      const hides = (v) => v === "hidden" || v === "clip";
      const scrolls = (v) => v === "auto" || v === "scroll";
      const outer = up.getBoundingClientRect();
      if (scrolls(s.overflowX)) { at.left = Math.max(at.left, outer.left); at.right = Math.min(at.right, outer.right); }
      if (scrolls(s.overflowY)) { at.top = Math.max(at.top, outer.top); at.bottom = Math.min(at.bottom, outer.bottom); }
      if (!hides(s.overflowX) && !hides(s.overflowY)) continue;
      const box = at;
      if ((hides(s.overflowX) && (box.left < outer.left - 1 || box.right > outer.right + 1))
          || (hides(s.overflowY) && (box.top < outer.top - 1 || box.bottom > outer.bottom + 1))) {
        problems.push(`clipped by ${up.tagName}.${String(up.className).slice(0, 40)}: ${describe(el)}`);
        break;
      }
      if (up.classList.contains("jp-Cell")) break;
    }
  }
  return problems;
}"""


# Issue 25: at 900 px in Lab's default layout (the file browser open) a board fits its place or
# reflows; a board that only scrolls sideways hides its fourth column, its dice and its Karma track
# until the reader finds a scrollbar far below. Whatever scrolls inside a board (a long list) may.
FITS = """(root) => {
  const problems = [];
  const place = root.closest('.jp-OutputArea-output') || root.parentElement;
  const right = Math.min(place.getBoundingClientRect().right, innerWidth);
  if (root.scrollWidth > root.clientWidth + 1) problems.push(`scrolls sideways: ${root.scrollWidth} px of content in ${root.clientWidth} px`);
  if (place.scrollWidth > place.clientWidth + 1) problems.push(`its output scrolls sideways: ${place.scrollWidth} > ${place.clientWidth} px`);
  for (const el of root.querySelectorAll('svg, button, input, .widget-slider, .widget-toggle-buttons')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > right + 1) problems.push(`${el.tagName}.${String(el.className.baseVal ?? el.className).slice(0, 40)} ends at ${Math.round(box.right)} px, past the visible ${Math.round(right)} px`);
  }
  return problems;
}"""


# Lab has laid its panels out again after a resize: the notebook sits right of the file browser, inside
# the window, and its box is the same two animation frames running (Playwright polls once a frame).
LAID_OUT_BESIDE_THE_FILE_BROWSER = """() => {
  const notebook = window.jupyterapp.shell.currentWidget.node.getBoundingClientRect();
  const files = document.querySelector('.jp-FileBrowser').getBoundingClientRect();
  const now = [notebook.left, notebook.right, notebook.top, files.right].join();
  const still = window.gamelibLastLayout === now;
  window.gamelibLastLayout = now;
  return still && notebook.left >= files.right - 1 && notebook.right <= innerWidth + 1;
}"""


def test_boards_stay_usable_in_a_900_px_window_with_the_file_browser_open(boards):
    from playwright.sync_api import expect

    page = boards
    page.set_viewport_size({"width": 900, "height": 1400})
    page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
    expect(page.locator(".jp-FileBrowser")).to_be_visible()
    assert page.locator(".jp-FileBrowser").bounding_box()["width"] > 150  # the file browser takes its share
    page.wait_for_function(LAID_OUT_BESIDE_THE_FILE_BROWSER)  # Lab lays the panels out again after the resize
    problems = []
    for name, selector in BOARDS.items():
        board = page.locator(selector).first
        page.evaluate("(el) => el.scrollIntoView({block: 'start'})", board.element_handle())
        problems += [
            f"{name}: {p}"
            for p in board.evaluate(NARROW.replace("([smallest]) => ", "").replace("smallest", str(SMALLEST_TEXT_PX)))
        ]
        problems += [f"{name}: {p}" for p in board.evaluate(FITS)]
        screenshot(board, f"comfort_{name}_900px")
    screenshot(page, "comfort_page_900px")
    assert not problems, f"{len(problems)} problems at 900 px:\n" + "\n".join(problems[:60])


# --------------------------------------------------------------------------- after a kernel restart


def test_a_board_left_from_before_a_kernel_restart_says_the_kernel_is_gone(boards):
    from playwright.sync_api import expect

    page = boards
    page.set_viewport_size({"width": 1280, "height": 1400})  # the full width again, after the narrow-window test
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    page.evaluate(
        "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart(); }"
    )
    wait_for_kernel_idle(page)
    pangu = page.locator(BOARDS["pangu"]).first
    pangu.scroll_into_view_if_needed()
    pangu.locator(".pangu-revealed").first.click()
    notice = pangu.locator(".gl-kernel-gone")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("kernel")
    expect(notice).to_contain_text("Run this cell again")
    expect(pangu.locator(".pangu-selected")).to_have_count(0)  # nothing pretended to work
    screenshot(pangu, "comfort_pangu_after_restart")

    chakra = page.locator(BOARDS["chakra"]).first
    chakra.locator(".ck-bot").click()
    expect(chakra.locator(".gl-kernel-gone")).to_be_visible()

    explorer = page.locator(BOARDS["explorer"]).first
    handle = explorer.locator(".gl-slider-0-white .noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    expect(explorer.locator(".gl-kernel-gone")).to_contain_text("Run this cell again")
    expect(explorer.locator(".gl-slider-0-white .widget-readout")).to_have_text("3")  # the slider did not move
    screenshot(explorer.locator(".gl-kernel-gone"), "comfort_explorer_after_restart")

    # Running the cells again gives live boards: a click answers.
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    wait_for_kernel_idle(page)
    pangu = page.locator(BOARDS["pangu"]).first
    expect(pangu.locator(".gl-kernel-gone")).to_have_count(0)
    pangu.locator(".pangu-revealed").first.click()
    expect(pangu.locator(".pangu-selected")).to_have_count(1)
