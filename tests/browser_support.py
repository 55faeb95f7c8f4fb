"""Helpers for the browser tests: open a notebook in JupyterLab, wait, take screenshots.

The fixtures that start JupyterLab and Chromium live in ``conftest.py``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
README_SHOTS = ROOT / "docs" / "screenshots"


def open_notebook(page, lab, path: str) -> None:
    """Open ``path`` (relative to notebooks/) in Lab, wait for its kernel and run every cell."""
    page.goto(lab.notebook_url(path))
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        " && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.context.path.endsWith(%r)" % path.split("/")[-1],
        timeout=60_000,
    )
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }")
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")


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
