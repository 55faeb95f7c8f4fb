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

from browser_support import open_notebook, screenshot, wait_for_kernel_idle

pytestmark = pytest.mark.browser

AA = 4.5  # WCAG 2.x level AA, normal text
SMALLEST_TEXT_PX = 9.0  # the smallest font the boards' style sheets use (9 px labels) at full size

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
    "cells": [{"cell_type": "code", "execution_count": None, "id": f"comfort-{i}", "metadata": {}, "outputs": [],
               "source": source} for i, source in enumerate(CELLS)],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}
BOARDS = {"pangu": ".pangu-board", "chakra": ".ck-board", "duel": ".nj-board:not(.nj-temple-board)",
          "temple": ".nj-temple-board", "explorer": ".gl-explorer"}

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
    if (el instanceof SVGElement) {
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
    for (const under of document.elementsFromPoint(x, y)) {
      if (under === el || el.contains(under)) continue;
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
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1 || getComputedStyle(el).visibility === "hidden") continue;
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


def set_theme(page, name: str) -> None:
    from playwright.sync_api import expect

    page.evaluate(f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})")
    expect(page.locator("body")).to_have_attribute("data-jp-theme-light", "true" if "Light" in name else "false")
    page.wait_for_timeout(300)  # the theme's style sheet swaps in after the attribute


@pytest.fixture
def boards(page, lab):
    """The notebook of boards, run, in a window tall enough to check each board in view."""
    from playwright.sync_api import expect

    (lab.root / "comfort_boards.ipynb").write_text(json.dumps(NOTEBOOK))
    page.set_viewport_size({"width": 1280, "height": 1400})
    open_notebook(page, lab, "comfort_boards.ipynb")
    wait_for_kernel_idle(page)
    for selector in BOARDS.values():
        expect(page.locator(selector).first).to_be_visible()
    return page


def check_contrast(page, theme: str) -> list[str]:
    failures = []
    for name, selector in BOARDS.items():
        board = page.locator(selector).first
        board.scroll_into_view_if_needed()
        page.evaluate("(el) => el.scrollIntoView({block: 'start'})", board.element_handle())
        results = board.evaluate(CONTRAST)
        assert len(results) >= 5, f"{name}: too few text elements measured ({len(results)}): is the board drawn?"
        failures += [f"{theme} {name}: {r['ratio']}:1 for {r['tag']}.{r['cls']} {r['text']!r} ({r['ink']} on {r['bg']})"
                     for r in results if r["ratio"] < AA]
        screenshot(board, f"comfort_{name}_{'light' if theme.endswith('Light') else 'dark'}")
    return failures


def test_every_board_is_readable_in_the_light_and_dark_themes(boards):
    page = boards
    failures = []
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        set_theme(page, theme)
        failures += check_contrast(page, theme)
    set_theme(page, "JupyterLab Light")
    assert not failures, f"{len(failures)} text or button contrasts below {AA}:1:\n" + "\n".join(failures)
