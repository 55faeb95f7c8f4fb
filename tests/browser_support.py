"""Helpers for the browser tests: launch rules, open a notebook in JupyterLab, wait, take screenshots.

The fixtures that start JupyterLab and Chromium live in ``conftest.py``; the launch rules they use
are here, where the deployment tests and the benches import them too (a test file's
``from conftest import`` can meet another folder's conftest when one session collects both).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from deploy_support import isolated_env

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
README_SHOTS = ROOT / "docs" / "screenshots"

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# How often the long waits (a notebook opening, its cells running) read the page: four times a second.
# Playwright's default asks at every animation frame, which keeps headless Chromium producing frames
# all the while: measured on a page of 800 cell prompts, about 3 s of the browser's CPU in a 20 s wait,
# against 0.2-0.6 s at this interval (a reader waiting for a kernel loses at most a quarter second).
POLL_MS = 250
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}


def _require_chromium() -> str:
    executable = shutil.which("chromium")
    if executable:
        return executable
    message = (
        "no Chromium found: browser tests need Debian's package "
        "(`sudo apt-get install chromium`); Playwright cannot download browsers here"
    )
    if os.environ.get("GAMELIB_REQUIRE_BROWSER") == "1":
        pytest.fail(message + " (GAMELIB_REQUIRE_BROWSER=1 makes this a failure)")
    pytest.skip(message)


@dataclass
class LabServer:
    """A running JupyterLab (start_lab): its address, token, the folder it serves, the process and its log."""

    url: str
    token: str
    root: Path
    process: subprocess.Popen | None = None
    log: IO | None = None

    def notebook_url(self, path: str) -> str:
        return f"{self.url}/lab/tree/{path}?token={self.token}&reset"

    def stop(self) -> None:
        """SIGTERM, which also shuts the server's kernels down; a kill if it has not stopped in 20 s."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.log is not None:
            self.log.close()


def start_lab(home: Path, root: Path) -> LabServer:
    """Start JupyterLab on 127.0.0.1, a free port and a random token, serving ``root``, and wait until it
    answers. Its state and settings go under ``home`` (the settings silence the news toast, turn autosave
    off and keep every cell in the DOM: LAB_SETTINGS); its log is ``home/lab.log``. The one launch of the
    browser tests (conftest's ``lab`` fixture) and of the benches, so both measure the same server."""
    settings = home / "settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(LAB_SETTINGS))
    env = isolated_env(home)  # without MPLBACKEND: the kernels would inherit it and lose their inline plots
    port, token = _free_port(), secrets.token_hex(16)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--allow-root",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        f"--LabApp.app_settings_dir={settings}",
    ]
    log = open(home / "lab.log", "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    lab = LabServer(f"http://127.0.0.1:{port}", token, root, server, log)
    try:
        _wait_for_server(lab.url, token, server, home / "lab.log")
    except BaseException:
        lab.stop()
        raise
    return lab


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SERVER_START_SECONDS = 300  # about 2.5 s idle; a minute and more on a 2-core machine at load 25


def _wait_for_server(url: str, token: str, server: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited early:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not start within {SERVER_START_SECONDS} s:\n{log_path.read_text()[-3000:]}")


def open_notebook(page, lab, path: str, through: str | None = None, only: tuple[str, ...] = ()) -> None:
    """Open ``path`` (relative to notebooks/) alone in Lab (``show_alone``), wait for its new kernel and
    run every cell; with ``through``, only the cells from the top to the first one whose source contains that text; with
    ``only``, just the first cell containing each text, in that order (the imports and one board).
    A test of one board of a lesson need not wait for the lesson's simulations: nbval runs every
    cell of every notebook anyway."""
    show_alone(page, lab, path)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.context.path.endsWith(%r)" % path.split("/")[-1],
        timeout=60_000,
        polling=POLL_MS,
    )
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }")
    if through is None and not only:
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        return
    if through is not None:
        # 'run-all-above' runs the cells above the active one, so the cell after the last is made active
        page.evaluate(
            "(next) => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = next;"
            " return window.jupyterapp.commands.execute('notebook:run-all-above'); }",
            _first_cell(lab, path, through) + 1,
        )
    run_cells(page, lab, path, *only)


# Open PATH in the tab's Lab (or JupyterLite's) as /lab/tree/PATH does (the file browser goes to its folder),
# then close every other document, each notebook's kernel shut down first, with no "save changes?" dialog
# (dispose skips it; what is served is a temporary copy). Opened first, so the main area is never empty
# (Lab would open its launcher there).
OPEN_ALONE = """async (path) => {
    const app = window.jupyterapp;
    const before = Array.from(app.shell.widgets('main'));
    const opened = await app.commands.execute('filebrowser:open-path', {path});
    for (const widget of before) {
        if (widget === opened) continue;
        if (widget.sessionContext && widget.sessionContext.session) await widget.sessionContext.shutdown();
        widget.dispose();
    }
}"""


@pytest.fixture(scope="module", name="lab_tab")
def lab_tab_fixture(browser_context, lab):
    """The session's one tab that shows Lab, lent to each file's tests in turn (tests/conftest.py
    registers it; a test asks for ``lab_tab``). Lab's page loads in it once a session, not once a
    file (about 5 s of the browser's CPU each time); each notebook still opens alone with a kernel of
    its own (``show_alone`` closes what the file before left open and shuts its kernels down). Each
    file gets it as a new tab has it: 1280 x 1000 px, the light theme, the file browser in the side panel."""
    tab = getattr(browser_context, "gamelib_lab_tab", None)
    if tab is None or tab.is_closed():
        tab = browser_context.new_page()
        browser_context.gamelib_lab_tab = tab  # hung on the session's browser: it lives and ends with it
    if tab.viewport_size != {"width": 1280, "height": 1000}:  # a file before made it taller or narrower
        tab.set_viewport_size({"width": 1280, "height": 1000})
    if tab.url.startswith(f"{lab.url}/lab") and tab.evaluate("() => !!window.jupyterapp"):
        set_theme(tab, "JupyterLab Light")
        tab.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
    return tab


def show_alone(page, lab, path: str) -> None:
    """Lab showing ``path`` and nothing else. A tab that shows this Lab already (the session's ``lab_tab``)
    opens ``path`` with a kernel of its own and closes the documents it had open, shutting their kernels
    down (OPEN_ALONE): loading Lab again in the tab would cost the browser about 5 s of CPU. Any other tab
    loads Lab at /lab/tree/PATH."""
    if page.url.startswith(f"{lab.url}/lab") and page.evaluate("() => !!window.jupyterapp"):
        page.evaluate(OPEN_ALONE, path)
    else:
        page.goto(lab.notebook_url(path))


def run_cells(page, lab, path: str, *texts: str) -> None:
    """Run the first cell of the open notebook ``path`` containing each text, in that order, and wait.

    Running a board's cell again gives a fresh board from the same seed in the same kernel, so the
    tests of one file can share one opened notebook: opening it (Lab's page, a new kernel, the
    cells above) costs about ten seconds a time, running one cell a fraction of one."""
    for text in texts:
        page.evaluate(
            "(index) => { window.jupyterapp.shell.currentWidget.content.activeCellIndex = index;"
            " return window.jupyterapp.commands.execute('notebook:run-cell'); }",
            _first_cell(lab, path, text),
        )
    wait_for_kernel_idle(page)


def _first_cell(lab, path: str, text: str) -> int:
    cells = json.loads((lab.root / path).read_text(encoding="utf-8"))["cells"]
    return next(index for index, cell in enumerate(cells) if text in "".join(cell["source"]))


def set_theme(page, name: str) -> None:
    """Switch Lab to the theme ``name`` ("JupyterLab Light" or "JupyterLab Dark") and wait until its
    style sheet applies: the body's theme attributes change first, the colours a moment later."""
    if page.evaluate("() => document.body.dataset.jpThemeName") == name:
        return
    colour = "() => getComputedStyle(document.body).getPropertyValue('--jp-layout-color0')"
    before = page.evaluate(colour)
    page.evaluate("(name) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: name})", name)
    page.wait_for_function(
        f"(before) => document.body.dataset.jpThemeName === {name!r} && ({colour})() !== before", arg=before
    )


def three_shots(page, target, name: str) -> None:
    """The target in Lab's light and dark themes, then at 900 px wide (dark kept, the harder one); the
    page is left as it was found: 1280 px wide, light theme."""
    set_theme(page, "JupyterLab Light")
    target.scroll_into_view_if_needed()
    screenshot(target, f"{name}_light")
    set_theme(page, "JupyterLab Dark")
    screenshot(target, f"{name}_dark")
    page.set_viewport_size({"width": 900, "height": 1000})
    target.scroll_into_view_if_needed()
    screenshot(page, f"{name}_900px")
    page.set_viewport_size({"width": 1280, "height": 1000})
    set_theme(page, "JupyterLab Light")


def wait_for_kernel_idle(page, timeout_ms: int = 120_000) -> None:
    """Wait until every queued cell has run (the kernel reports idle and no cell shows [*])."""
    page.wait_for_function(
        """() => {
            const widget = window.jupyterapp.shell.currentWidget;
            const kernel = widget.sessionContext.session && widget.sessionContext.session.kernel;
            const busy = [...document.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('*'));
            return kernel && kernel.status === 'idle' && !busy;
        }""",
        timeout=timeout_ms,
        polling=POLL_MS,
    )


def screenshot(target, name: str) -> Path:
    """Save a PNG of a page or locator under test-artifacts/screenshots/ (and docs/ on request)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    target.screenshot(path=str(path))
    if os.environ.get("GAMELIB_UPDATE_SCREENSHOTS") == "1":
        README_SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, README_SHOTS / path.name)
    return path
