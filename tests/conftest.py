"""Shared fixtures, above all the real-browser tier.

Browser tests (mark them ``@pytest.mark.browser``) get:

* ``lab`` -- a JupyterLab server on 127.0.0.1, a free port and a random token, serving a
  temporary *copy* of ``notebooks/`` (Lab would otherwise autosave over the committed
  outputs). One server for the whole session; its kernels stop with it.
* ``page`` -- a fresh tab of headless Chromium (Debian's ``chromium`` driven by
  Playwright; one browser for the session, with a fresh user-data folder). Web-first
  assertions wait up to 30 s. ``module_page`` is one tab shared by a file's tests.
* in ``browser_support``: ``open_notebook(page, lab, "nagaraja/01_fate_sticks.ipynb")`` -- opens a notebook,
  waits for its kernel and runs all cells.
* ``screenshot(page_or_locator, "name")`` -- saves ``test-artifacts/screenshots/name.png``
  (and, with ``GAMELIB_UPDATE_SCREENSHOTS=1``, a copy in ``docs/screenshots/`` for the README).

Without Chromium the browser tests are skipped with a message saying how to enable them;
with ``GAMELIB_REQUIRE_BROWSER=1`` (as CI sets) a missing browser is a failure.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parent.parent

from browser_support import (  # noqa: E402  (after the path above; tests import them from browser_support)
    CHROMIUM_FLAGS,
    _require_chromium,
    lab_tab_fixture,  # noqa: F401  (registers the lab_tab fixture: the session's one Lab tab, lent to each file)
    start_lab,
)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    _require_chromium()
    home = tmp_path_factory.mktemp("lab-home")
    root = home / "notebooks"
    # the lessons as a clone has them: not the playtests a board records when nbval runs its notebook (git ignores them)
    shutil.copytree(ROOT / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "playtests"))
    server = start_lab(home, root)  # browser_support: the launch the benches use too
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory):
    executable = _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    user_data = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(user_data),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 1000},
        )
        context.set_default_timeout(30_000)
        yield context
        context.close()


@pytest.fixture
def page(browser_context):
    tab = browser_context.new_page()
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def module_page(browser_context):
    """One tab for all the tests of a file that share one opened notebook (a module fixture)."""
    tab = browser_context.new_page()
    yield tab
    tab.close()


# --------------------------------------------------------------------------- scheduling

# `make test` hands whole files to two xdist workers (--dist loadfile) in collection order
# (--no-loadscope-reorder; xdist would otherwise start the files with the most tests first).
# With two workers the file that starts last bounds the wall time, so the longest files start
# first and the short ones fill in behind them. The order comes from tests/durations.json, the
# seconds each file took in a measured run, written by `make test-durations`. A file the record
# does not know yet (a new one) starts among the long ones, so a long new file cannot end last.
# `make test-long` and CI's `make test-deploy-long` (GAMELIB_LONG_TESTS=1) start their files the same
# way from their own record, tests/durations_long.json (`make test-long-durations`): the long sweeps
# take other times than the same files in `make test`.
DURATIONS_PATH = ROOT / "tests" / ("durations_long.json" if os.environ.get("GAMELIB_LONG_TESTS") else "durations.json")
UNMEASURED_SECONDS = 60.0
# Files whose tests share no fixture beyond one test and so may run on both workers at once (each test
# is its own unit of work): a long file of independent chunks would otherwise keep one worker busy
# alone at the end of the run.
SPLIT_ACROSS_WORKERS = frozenset({"tests/test_frameworks_sweep.py", "tests/test_frameworks.py"})


def _measured_durations() -> dict[str, float]:
    if not DURATIONS_PATH.exists():
        return {}
    return {path: float(seconds) for path, seconds in json.loads(DURATIONS_PATH.read_text()).items()}


def _unit(nodeid: str) -> str:
    """The unit of work a test belongs to, and its key in the record: its file, or itself in a split file."""
    path = nodeid.split("::", 1)[0]
    return nodeid if path in SPLIT_ACROSS_WORKERS else path


def pytest_collection_modifyitems(session, config, items):
    """Longest unit first. A test of a split file counts its own recorded seconds, so the short ones start after
    the long files and fill in at the end of the run (longest processing time first). Where the record has only
    the split file's total (recorded before its tests were timed one by one), its tests start with that total,
    early, as a file would: a chunk of unknown length is not left to the end. A unit the record does not know
    (a new file or test) starts among the long ones."""
    durations = _measured_durations()

    def seconds(item) -> float:
        unit = _unit(item.nodeid)
        return durations.get(unit, durations.get(item.nodeid.split("::", 1)[0], UNMEASURED_SECONDS))

    items.sort(key=lambda item: -seconds(item))  # stable: a file's tests stay in their order


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, except that each test of SPLIT_ACROSS_WORKERS is a unit of its own."""
    if config.getvalue("dist") != "loadfile":
        return None  # xdist's own scheduler for the other modes
    from xdist.scheduler import LoadFileScheduling

    class SplitLoadFileScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    return SplitLoadFileScheduling(config, log)


# Python's cycle collector, for the test processes (never the kernels or the code under test): a
# young-generation collection every GC_YOUNGEST allocations instead of CPython's 700, and everything alive once
# the tests are collected (the imported libraries, the collected items) frozen out of every later traversal. The
# games and oracles allocate millions of short-lived objects and keep large trees alive (an OpenSpiel state
# holds every gamelib state of its game), which the default collector traversed again and again. Nothing a test
# checks depends on when Python looks for cycles; the memory tests measure with tracemalloc, unaffected.
# Instructions (cachegrind) with and without: test_chakra_play's random and greedy cases -4.6%, the Pangu fuzz
# -1.9%; random Nagaraja through OpenSpiel 15-20% less CPU a game.
GC_YOUNGEST = 10_000


def pytest_configure(config):
    gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()


_recorded_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """With GAMELIB_RECORD_DURATIONS set, add up each unit's seconds (setup, call and teardown): a file's, or a
    split file's test's."""
    if os.environ.get("GAMELIB_RECORD_DURATIONS"):
        unit = _unit(report.nodeid)
        _recorded_seconds[unit] = _recorded_seconds.get(unit, 0.0) + report.duration


def pytest_sessionfinish(session):
    """Write the record once, from the controller (xdist workers send it their reports)."""
    if os.environ.get("GAMELIB_RECORD_DURATIONS") and not hasattr(session.config, "workerinput"):
        ordered = dict(sorted(((p, round(s, 1)) for p, s in _recorded_seconds.items()), key=lambda kv: -kv[1]))
        DURATIONS_PATH.write_text(json.dumps(ordered, indent=1) + "\n")
