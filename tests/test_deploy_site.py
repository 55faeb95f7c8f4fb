"""`make site`: the JupyterLite site built offline from registry packages, served on 127.0.0.1,
run in Chromium with every request to another host refused.

The site is built once for the module (npm and wheel downloads are cached under build/downloads/).
In the page the kernel is Pyodide: Python compiled to WebAssembly, running gamelib from its wheel.
The module's notebooks open one after the other in one tab of the site's Lab (``lite``), each alone:
Lab's scripts and Pyodide's WebAssembly are loaded once. Each lesson runs top to bottom in a fresh
kernel of its own; the apps and the check of a lesson that needs numpy share one kernel, started by the
first app (a Pyodide boot costs the browser about 25 s of CPU).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

import pytest

from browser_support import screenshot
from browser_support import OPEN_ALONE, POLL_MS, _free_port, _require_chromium
from deploy_support import (
    ROOT,
    commit_two_cards_and_check,
    move_a_slider_and_check,
    place_a_card_and_check,
    record_timing,
    wait_for_http,
)

sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402

pytestmark = pytest.mark.browser

# Every lesson that imports neither numpy nor matplotlib (README's list is the complement).
OFFLINE_LESSONS = sorted(
    name
    for name, heavy in build_site.needs_cdn(build_site.lesson_notebooks()).items()
    if not heavy and not name.startswith("apps/")
)


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    _require_chromium()
    output = tmp_path_factory.mktemp("site") / "site"
    started = time.process_time()
    facts = build_site.build(output, expose_app=True)
    record_timing("site", "build", "wall_s", round(facts["seconds"], 1))
    record_timing("site", "build", "cpu_s_of_this_process", round(time.process_time() - started, 1))
    record_timing("site", "build", "bytes", facts["bytes"])
    return output


@pytest.fixture(scope="module")
def site(built_site):
    """The built site served on 127.0.0.1 for the module's tests (their one Lab is ``lite``)."""
    port = _free_port()
    log_path = built_site.parent / f"http-{port}.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(built_site), str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/lab/index.html", server, log_path)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=20)


def go_offline(page, site: str):
    """Empty the site's storage (Lite's contents, settings and open tabs, its service worker), as a new
    visitor has it, and refuse (and list in ``page.refused``) every request to another host."""
    session = page.context.new_cdp_session(page)
    session.send(
        "Storage.clearDataForOrigin",
        {"origin": site, "storageTypes": "local_storage,indexeddb,service_workers,cache_storage,file_systems,websql"},
    )
    session.detach()
    refused = []

    def only_this_site(route):
        if route.request.url.startswith(site):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_site)
    page.refused = refused
    return page


@pytest.fixture(scope="module")
def lite(browser_context, site):
    """The site's Lab in one tab for the module's notebooks, as a new visitor opens it: an empty storage,
    every request to another host refused and listed in ``lite.refused`` from the first request on.
    Lab and Pyodide's WebAssembly load once; a test's notebook runs in a fresh Pyodide kernel of its own
    (``open_alone`` closes the notebook before and shuts its kernel down) or, where it says so, on the
    kernel the notebook before left running."""
    page = go_offline(browser_context.new_page(), site)
    page.goto(f"{site}/lab/index.html")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=120_000, polling=POLL_MS)
    page.evaluate("async () => { await window.jupyterapp.restored; }")
    yield page
    page.close()


def only_pyodide_cdn(refused: list[str]) -> bool:
    """Every refused request went to the Pyodide CDN (gamelib's lock entry names numpy and matplotlib,
    whose failed fetch is logged and harmless where nothing imports them)."""
    return all(url.startswith(build_site.PYODIDE_CDN_URL) for url in refused)


# Open PATH in the tab's Lab as OPEN_ALONE does (the file browser in its folder), but on the kernel of the
# notebook open now, and close that notebook without shutting its session down: in Lite a session's
# shutdown stops its kernel, even one that another session shares. Gives the kernel's id, or null when no
# notebook with a kernel is open (the caller then starts a fresh kernel).
OPEN_ON_RUNNING_KERNEL = """async (path) => {
    const app = window.jupyterapp;
    const before = Array.from(app.shell.widgets('main'));
    const running = before.find((w) => w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel);
    if (!running) return null;
    const kernel = running.sessionContext.session.kernel;
    await app.commands.execute('filebrowser:go-to-path', {path});
    const opened = await app.commands.execute('docmanager:open', {path, kernel: {id: kernel.id, name: kernel.name}});
    for (const widget of before) if (widget !== opened) widget.dispose();
    return kernel.id;
}"""
# Lite's sessions other than the open notebook's, shut down (a notebook closed on a shared kernel leaves one).
END_OTHER_SESSIONS = """async () => {
    const app = window.jupyterapp, open = app.shell.currentWidget.sessionContext.session;
    for (const model of Array.from(app.serviceManager.sessions.running()))
        if (model.id !== open.id) await app.serviceManager.sessions.shutdown(model.id);
}"""


def open_alone(page, notebook: str, kernel: str = "fresh") -> None:
    """Open a notebook in the tab's Lab as ``?path=`` does (the file browser in its folder), alone: the
    notebooks opened before are closed. With ``kernel="fresh"`` their kernels are shut down and the notebook
    waits for a new kernel of its own (a Pyodide boot, about 25 s of CPU); with ``kernel="running"`` it
    joins the kernel of the notebook open before (asserted), or starts a fresh one if none is open."""
    joined = page.evaluate(OPEN_ON_RUNNING_KERNEL, notebook) if kernel == "running" else None
    if joined is None:
        page.evaluate(OPEN_ALONE, notebook)
    page.wait_for_function(
        "(path) => window.jupyterapp.shell.currentWidget && window.jupyterapp.shell.currentWidget.sessionContext"
        " && window.jupyterapp.shell.currentWidget.context.path.endsWith(path)",
        arg=notebook,
        timeout=120_000,
        polling=POLL_MS,
    )
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.isReady", timeout=120_000, polling=POLL_MS
    )
    if joined is not None:
        now = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id")
        assert now == joined, f"{notebook} was to join kernel {joined}, and runs on {now}"
    else:  # the sessions of notebooks closed on a shared kernel, stopped with it: ended, as a closed tab's are
        page.evaluate(END_OTHER_SESSIONS)


def open_and_run(page, notebook: str, kernel: str = "fresh") -> float:
    """Open a notebook alone in the tab's Lab (``open_alone``), run every cell, wait until done; return the
    seconds it took."""
    started = time.monotonic()
    open_alone(page, notebook, kernel)
    # Start the run without awaiting the command's promise (no timeout applies to an evaluate): the
    # wait below, which has one, reads the cells' execution counts instead.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    # Read the notebook's model, not the page: Lite draws only the cells near the viewport.
    page.wait_for_function(
        """() => {
            const widget = window.jupyterapp.shell.currentWidget;
            const kernel = widget.sessionContext.session && widget.sessionContext.session.kernel;
            const cells = widget.content.model.cells;
            for (let i = 0; i < cells.length; i++) {
                const cell = cells.get(i);
                if (cell.type === 'code' && !cell.executionCount) return false;
            }
            return kernel && kernel.status === 'idle';
        }""",
        timeout=300_000,
        polling=POLL_MS,
    )
    return time.monotonic() - started


def cell_errors(page) -> list[str]:
    """The error outputs of the open notebook (from its model)."""
    return page.evaluate("""() => {
        const cells = window.jupyterapp.shell.currentWidget.content.model.cells, errors = [];
        for (let i = 0; i < cells.length; i++) {
            const cell = cells.get(i);
            if (cell.type !== 'code') continue;
            for (let j = 0; j < cell.outputs.length; j++) {
                const output = cell.outputs.get(j).toJSON();
                if (output.output_type === 'error') errors.push(output.ename + ': ' + output.evalue);
                if (output.name === 'stderr') errors.push(output.text);
            }
        }
        return errors;
    }""")


def test_the_site_holds_the_lessons_the_apps_and_gamelib(site):
    import urllib.request

    with urllib.request.urlopen(f"{site}/api/contents/all.json") as answer:
        top = {item["name"] for item in json.load(answer)["content"]}
    assert {"00_start_here.ipynb", "apps", "pangu", "chakra", "nagaraja"} <= top
    assert "course" not in top, "the graded course's sources hold solutions: never published"
    with urllib.request.urlopen(f"{site}/static/pyodide/pyodide-lock.json") as answer:
        lock = json.load(answer)["packages"]
    assert lock["gamelib"]["file_name"].startswith("gamelib-")
    assert "://" in lock["numpy"]["file_name"], "numpy exists for Pyodide only on its CDN"


def test_the_pangu_app_plays_offline_and_says_exact_values_need_numpy(lite):
    # The Pangu board imports the solver, whose table reader imports numpy only when it reads the
    # table (gamelib/pangu/solver/tables.py). Offline numpy never arrives: the board plays, and the
    # evaluation bar of turn 1 says plainly that the exact chance needs numpy here.
    from playwright.sync_api import expect

    page = lite
    seconds = open_and_run(page, "apps/pangu_free_play.ipynb")
    record_timing("site", "pangu_free_play", "open_and_run_s", round(seconds, 1))
    board = page.locator('.jp-OutputArea .pangu-board[data-board="app"]').last
    expect(board).to_be_visible()
    bar = board.locator(".pangu-eval")
    expect(bar).to_have_attribute("data-exact", "no")
    expect(bar.locator(".pangu-eval-note")).to_contain_text("needs numpy")
    place_a_card_and_check(board, seed=2024)  # the app's default seed (tools/make_apps.py)
    screenshot(board, "site_pangu_free_play_offline")
    assert cell_errors(page) == []
    assert only_pyodide_cdn(page.refused), "the Pangu app asked another host for something"


def test_the_nagaraja_duel_app_plays_offline(lite):
    from playwright.sync_api import expect

    page = lite
    seconds = open_and_run(page, "apps/nagaraja_duel.ipynb", kernel="running")
    record_timing("site", "nagaraja_duel", "open_and_run_s", round(seconds, 1))
    board = page.locator(".jp-OutputArea .nj-board").last
    expect(board).to_be_visible()
    commit_two_cards_and_check(board, seed=2026)  # the app's default seed (tools/make_apps.py)
    screenshot(board, "site_nagaraja_duel_after_commit")
    assert cell_errors(page) == []
    assert only_pyodide_cdn(page.refused), "the duel app asked another host for something"


@pytest.fixture(scope="class")
def odds_explorer_app(lite):
    """The app opened and run once for the class's two tests."""
    lite.opened_in = open_and_run(lite, "apps/odds_explorer.ipynb", kernel="running")
    return lite


class TestTheOddsExplorerApp:
    """Two tests read one opened app: opening and running an app costs the browser seconds of CPU."""

    def test_the_odds_explorer_app_answers_a_slider_offline(self, odds_explorer_app):
        from playwright.sync_api import expect

        page = odds_explorer_app
        record_timing("site", "odds_explorer", "open_and_run_s", round(page.opened_in, 1))
        explorer = page.locator(".jp-OutputArea .gl-explorer").last
        expect(explorer).to_be_visible()
        move_a_slider_and_check(explorer)
        screenshot(explorer, "site_odds_explorer_after_slider")
        assert cell_errors(page) == []
        assert only_pyodide_cdn(page.refused), "the explorer app asked another host for something"

    def test_students_see_no_nbgrader_menu_and_each_app_explains_itself(self, odds_explorer_app):
        from playwright.sync_api import expect

        page = odds_explorer_app
        plugins = page.evaluate("() => window.jupyterapp.listPlugins().filter((id) => id.includes('nbgrader'))")
        assert plugins == []
        expect(page.locator("#jp-menu-panel, .lm-MenuBar-content").first).to_be_visible()
        assert page.get_by_role("menuitem", name=re.compile("nbgrader", re.I)).count() == 0
        intro = page.locator(".jp-MarkdownCell").first
        expect(intro.locator("h1")).to_contain_text("Nagaraja: the fate-stick odds explorer")
        expect(intro).to_contain_text("Your goal")
        expect(intro.locator("a[href*='docs/rules/nagaraja.md']")).to_have_count(1)
        screenshot(page, "site_odds_explorer_app_intro")


# The apps and this check share one Pyodide kernel (the Pangu app's, the first opened): each opens on the
# kernel the notebook before left running, which spares three boots (about 25 s of CPU each). A lesson's
# run top to bottom is the one check that needs a fresh kernel of its own (test_a_lesson_without_numpy_...).
def test_a_lesson_needing_numpy_stops_offline_with_one_sentence(lite):
    from playwright.sync_api import expect

    page = lite
    open_alone(page, "nagaraja/01_fate_sticks.ipynb", kernel="running")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    first = page.locator(".jp-CodeCell").first.locator(".jp-OutputArea-output")
    expect(first).to_contain_text("This lesson needs the internet on this site", timeout=300_000)
    assert "ModuleNotFoundError" not in first.inner_text()
    errors = cell_errors(page)
    # The kernel names the error by its class (Pyodide's: "<class '__main__.LessonNeedsTheInternet'>").
    assert len(errors) == 1 and "LessonNeedsTheInternet" in errors[0].partition(": This lesson")[0], errors
    screenshot(page, "site_lesson_needs_the_internet")


def test_every_app_runs_offline():
    apps = {
        name: heavy
        for name, heavy in build_site.needs_cdn(build_site.lesson_notebooks()).items()
        if name.startswith("apps/")
    }
    # The Pangu board reaches numpy only when it reads the solver's table (a lazy import).
    assert apps == {
        "apps/chakra_table.ipynb": False,
        "apps/nagaraja_duel.ipynb": False,
        "apps/odds_explorer.ipynb": False,
        "apps/pangu_free_play.ipynb": False,
    }


def test_a_lazy_import_does_not_count_and_an_import_time_one_does(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "import json\nif True:\n    from gamelib import dist\n"
        "def figure():\n    import matplotlib\nclass A:\n    import numpy\n"
    )
    assert build_site.import_time_imports(module, "gamelib.m") == {"json", "gamelib", "gamelib.dist", "numpy"}


def test_the_offline_lessons_are_the_expected_ones():
    assert OFFLINE_LESSONS == [
        "00_start_here.ipynb",
        "chakra/01_rules_step_by_step.ipynb",
        "chakra/02_scoring.ipynb",
        "pangu/01_rules_step_by_step.ipynb",
    ]


@pytest.mark.parametrize("lesson", OFFLINE_LESSONS)
def test_a_lesson_without_numpy_runs_top_to_bottom(lite, lesson):
    from playwright.sync_api import expect

    page = lite
    seconds = open_and_run(page, lesson)
    record_timing("site", lesson, "open_and_run_s", round(seconds, 1))
    assert cell_errors(page) == []
    boards = page.evaluate("""() => { const cells = window.jupyterapp.shell.currentWidget.content.model.cells; let views = 0;
        for (let i = 0; i < cells.length; i++) { const cell = cells.get(i); if (cell.type !== 'code') continue;
            for (let j = 0; j < cell.outputs.length; j++)
                if (cell.outputs.get(j).data['application/vnd.jupyter.widget-view+json']) views++; }
        return views; }""")
    if lesson != "00_start_here.ipynb":  # the start page has no board
        assert boards > 0, "the lesson's boards should be displayed by the browser's kernel"
        expect(page.locator(".jp-OutputArea .pangu-board, .jp-OutputArea .ck-board").last).to_be_visible()
    screenshot(page, "site_" + lesson.replace("/", "_").removesuffix(".ipynb"))


def test_readme_names_the_lessons_that_need_the_pyodide_cdn():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("Lessons that need the Pyodide CDN")[1].split("\n\n")[1]
    needing = sorted(name for name, heavy in build_site.needs_cdn(build_site.lesson_notebooks()).items() if heavy)
    listed = sorted(line.strip("-` ").split("`")[0] for line in section.splitlines() if line.startswith("- "))
    assert listed == needing


# ----------------------------------------------------------------------------- issue 25: what students see


def test_the_built_site_holds_no_answers_and_no_nbgrader(built_site):
    import student_edition

    assert student_edition.answers_in(built_site) == []
    config = json.loads((built_site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert [e["name"] for e in config["federated_extensions"] if "nbgrader" in e["name"]] == []
    assert not (built_site / "extensions" / "@jupyter" / "nbgrader").exists()
