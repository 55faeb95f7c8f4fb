"""Helpers for the deployment tests (apps in Voila, the JupyterLite site, the HTML export, plain pip)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMINGS = ROOT / "test-artifacts" / "timings"
STATE_VARIABLES = ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                   "MPLCONFIGDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")


def isolated_env(home: Path) -> dict:
    """The environment with every Jupyter, IPython and matplotlib state folder inside ``home``."""
    env = dict(os.environ)
    for name in STATE_VARIABLES:
        path = home / name.lower()
        path.mkdir(exist_ok=True)
        env[name] = str(path)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("MPLBACKEND", None)
    return env


def wait_for_http(url: str, server: subprocess.Popen, log_path: Path, seconds: float = 90) -> None:
    """Wait until ``url`` answers 200, or fail with the end of the server's log."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {seconds} s:\n{log_path.read_text()[-3000:]}")


def record_timing(group: str, item: str, key: str, value) -> None:
    """Add one measured figure to test-artifacts/timings/GROUP.json (for the notes, never asserted)."""
    TIMINGS.mkdir(parents=True, exist_ok=True)
    path = TIMINGS / f"{group}.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault(item, {})[key] = value
    path.write_text(json.dumps(data, indent=1, sort_keys=True))
