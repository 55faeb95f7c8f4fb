"""From a key press on a slider to the repainted plot, in JupyterLab in headless Chromium (issue 12).

Opens a one-cell notebook with the odds explorer, focuses Elodie's white slider handle
and presses the arrow keys, one step at a time. For each press the page records the
keydown time (a capturing listener) and the explorer's front end records the frame in
which it has drawn the new counts (``data-drawn-at``, set in requestAnimationFrame after
the SVG is rebuilt); the difference is the key-to-paint time, in milliseconds of the
page's clock. The time the front end spent rebuilding the SVG (``data-draw-ms``) is
printed beside it; the rest is the widget round trip and the kernel. Printed: median and max, for the rulebook's pools and for 36 sticks a
side (free mode). Target: median under 100 ms. This is a figure, not a timed test.

Run: .venv/bin/python bench/bench_explorer_browser.py [presses per case, default 30]
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import CHROMIUM_FLAGS, LAB_SETTINGS, _free_port, _require_chromium, _wait_for_server  # noqa: E402

CASES = {
    "rulebook pools (0,3,0) v (3,1,1)": "explore()",
    "36 sticks a side, free mode": "explore(free=True, pools=((12, 12, 12), (12, 12, 12)))",
}


def notebook(code: str) -> dict:
    source = f"from gamelib.nagaraja.explorer import explore\nexplorer = {code}\nexplorer"
    return {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": source}],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def start_lab(home: Path):
    root = home / "notebooks"
    root.mkdir()
    for i, code in enumerate(CASES.values()):
        (root / f"case{i}.ipynb").write_text(json.dumps(notebook(code)))
    settings = home / "settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(LAB_SETTINGS))
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                 "MPLCONFIGDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
        (home / name.lower()).mkdir()
        env[name] = str(home / name.lower())
    port, token = _free_port(), secrets.token_hex(16)
    log = open(home / "lab.log", "w")
    server = subprocess.Popen([
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", "--allow-root",
        "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly", f"--LabApp.app_settings_dir={settings}",
    ], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    _wait_for_server(url, token, server, home / "lab.log")
    return server, log, url, token


def key_to_paint(page, url: str, token: str, path: str, presses: int) -> list[float]:
    page.goto(f"{url}/lab/tree/{path}?token={token}&reset")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=60_000)
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".gx-root[data-revision]", timeout=120_000)
    page.evaluate("() => document.addEventListener('keydown', () => { window.__keyAt = performance.now(); }, true)")
    handle = page.locator(".gl-slider-0-white .noUi-handle")
    handle.focus()
    times, drawing, value = [], [], int(page.locator(".gl-slider-0-white .widget-readout").inner_text())
    direction, top = 1, int(float(handle.get_attribute("aria-valuemax")))  # the supply may cap the slider
    for _ in range(presses):
        if not 0 <= value + direction <= top:
            direction = -direction
        revision = int(page.locator(".gx-root").get_attribute("data-revision"))
        handle.press("ArrowRight" if direction > 0 else "ArrowLeft")
        value += direction
        page.wait_for_function("(r) => +document.querySelector('.gx-root').dataset.revision > r", arg=revision,
                               timeout=30_000)
        times.append(page.evaluate("() => +document.querySelector('.gx-root').dataset.drawnAt - window.__keyAt"))
        drawing.append(float(page.locator(".gx-root").get_attribute("data-draw-ms")))
    return times, drawing


def main() -> None:
    presses = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    executable = _require_chromium()
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="bench-explorer-"))
    server, log, url, token = start_lab(home)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            for i, (name, _) in enumerate(CASES.items()):
                times, drawing = key_to_paint(page, url, token, f"case{i}.ipynb", presses)
                print(f"{name}: key press to repainted plot, median {statistics.median(times):.0f} ms, "
                      f"max {max(times):.0f} ms ({len(times)} presses; target median < 100 ms); of which the "
                      f"SVG drawing median {statistics.median(drawing):.0f} ms")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
