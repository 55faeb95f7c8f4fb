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
    "36 sticks a side, free mode (Elodie's white 12 down to 1 and back)": "explore(free=True, pools=((12, 12, 12), (12, 12, 12)))",
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


# Every kernel websocket frame, timestamped on the page's clock: where the round trip goes.
WEBSOCKET_MARKS = """
(() => {
  const Original = window.WebSocket;
  window.__frames = [];
  const size = (d) => d.byteLength ?? d.size ?? d.length ?? 0;
  class Marked extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => window.__frames.push(['in', performance.now(), size(e.data)]));
    }
    send(d) { window.__frames.push(['out', performance.now(), size(d)]); return super.send(d); }
  }
  window.WebSocket = Marked;
})();
"""

KERNEL_MS = """async () => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let text = '';
  const future = kernel.requestExecute({ code: 'print(explorer.kernel_ms)', silent: false, store_history: false });
  future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
  await future.done;
  return text;
}"""

MARKS = """() => {
  const root = document.querySelector('.gx-root');
  const key = window.__keyAt, frames = window.__frames.filter(([, t]) => t >= key);
  const sent = frames.find(([way]) => way === 'out');
  const received = +root.dataset.receivedAt;
  const before = frames.filter(([way, t]) => way === 'in' && t <= received);
  return { sent: sent ? sent[1] - key : NaN, firstIn: before.length ? before[0][1] - key : NaN,
           dataIn: before.length ? before[before.length - 1][1] - key : NaN, framesIn: before.length,
           received: received - key, panels: JSON.parse(root.dataset.panelMs || '{}'), drawn: received + +root.dataset.drawMs - key, painted: +root.dataset.drawnAt - key };
}"""


def key_to_paint(page, url: str, token: str, path: str, presses: int):
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
    top = int(float(handle.get_attribute("aria-valuemax")))  # the supply may cap the slider
    direction = 1 if value < 6 else -1  # 12 + 12 + 12 goes down first: pools of at most 36 sticks
    for _ in range(presses):
        if not 0 <= value + direction <= top:
            direction = -direction
        revision = int(page.locator(".gx-root").get_attribute("data-revision"))
        handle.press("ArrowRight" if direction > 0 else "ArrowLeft")
        value += direction
        page.wait_for_function("(r) => +document.querySelector('.gx-root').dataset.revision > r", arg=revision,
                               timeout=30_000)
        marks = page.evaluate(MARKS)
        times.append(marks["painted"])
        drawing.append(marks)
    kernel = json.loads(page.evaluate(KERNEL_MS).strip())[-presses:]
    return times, drawing, kernel


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
            page.add_init_script(WEBSOCKET_MARKS)
            for i, (name, _) in enumerate(CASES.items()):
                times, marks, kernel = key_to_paint(page, url, token, f"case{i}.ipynb", presses)
                med = lambda key: statistics.median(m[key] for m in marks)  # noqa: E731
                print(f"{name}: key press to repainted plot, median {statistics.median(times):.0f} ms, "
                      f"max {max(times):.0f} ms ({len(times)} presses; target median < 100 ms)")
                print(f"  medians after the key press: message sent {med('sent'):.1f} ms, first reply frame "
                      f"{med('firstIn'):.1f}, last frame before the plot data handled {med('dataIn'):.1f} "
                      f"({statistics.median(m['framesIn'] for m in marks):.0f} frames in), data handled "
                      f"{med('received'):.1f}, drawn {med('drawn'):.1f}, painted {med('painted'):.1f}; "
                      f"kernel refresh() CPU {statistics.median(kernel):.2f} ms")
                print("  drawing medians by panel: " + ", ".join(
                    f"{panel} {statistics.median(m['panels'][panel] for m in marks):.1f} ms" for panel in marks[0]["panels"]))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
