"""`make html`: every lesson exported, then opened from file:// in Chromium with the network blocked.

The boards are drawn by their own JavaScript from the widget state saved in the notebook, so
each check below compares what the page draws with the saved state of that board.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from browser_support import screenshot
from deploy_support import ROOT, record_timing

sys.path.insert(0, str(ROOT / "tools"))
import export_html  # noqa: E402

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    output = tmp_path_factory.mktemp("html")
    started = time.process_time()
    facts = export_html.export_all(output)
    record_timing("html", "export", "cpu_s", round(time.process_time() - started, 2))
    record_timing("html", "export", "bytes", facts["bytes"])
    return output


@pytest.fixture
def offline_page(page):
    """The page with every request that is not a file:// one refused (and remembered)."""
    refused = []

    def only_files(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_files)
    page.on("requestfailed", lambda request: refused.append(request.url) if request.url.startswith("file://") else None)
    page.refused = refused  # refused network requests and missing files alike
    return page


def saved_states(notebook: Path, model_name: str) -> list[dict]:
    """The saved state of every widget of one class in a notebook, in the order they were made."""
    widgets = json.loads(notebook.read_text())["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    return [
        m["state"] for m in widgets["state"].values() if m["state"].get("_anywidget_id", "").endswith("." + model_name)
    ]


def test_every_lesson_and_app_is_exported_with_the_renderer_files(exported):
    notebooks = sorted(
        p.relative_to(ROOT / "notebooks").with_suffix(".html")
        for p in (ROOT / "notebooks").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts and p.relative_to(ROOT / "notebooks").parts[0] != "course"
    )  # solutions stay unpublished
    assert sorted(p.relative_to(exported) for p in exported.rglob("*.html") if p.name != "index.html") == notebooks
    for name in ("require.js", "embed-amd.js", "anywidget.js"):
        assert (exported / "_static" / name).stat().st_size > 1000
    page = (exported / "pangu" / "01_rules_step_by_step.html").read_text()
    assert 'src="../_static/require.js"' in page and "'../_static/embed-amd.js'" in page
    assert "latest.js?config=TeX" not in page, "the MathJax loader (a CDN script) must be gone"


def test_a_lesson_opened_from_disk_offline_shows_its_saved_boards(exported, offline_page):
    from playwright.sync_api import expect

    page = offline_page
    page.goto((exported / "pangu" / "01_rules_step_by_step.html").as_uri())
    boards = page.locator(".pangu-board")
    saved = saved_states(ROOT / "notebooks" / "pangu" / "01_rules_step_by_step.ipynb", "PanguBoard")
    assert saved, "the lesson should be committed with its boards' state"
    expect(boards).to_have_count(len(saved))
    expect(boards.locator(".pangu-karma")).to_have_count(len(saved))
    drawn = sorted(
        (boards.nth(i).get_attribute("data-board"), boards.nth(i).locator(".pangu-karma").get_attribute("data-karma"))
        for i in range(len(saved))
    )
    assert drawn == sorted((state["label"], str(state["state"]["karma"])) for state in saved)
    boards.first.scroll_into_view_if_needed()
    screenshot(boards.first, "html_offline_pangu_board")
    assert page.refused == [], f"the page tried the network: {page.refused}"


def test_the_odds_explorer_and_plots_show_offline(exported, offline_page):
    from playwright.sync_api import expect

    page = offline_page
    page.goto((exported / "nagaraja" / "01_fate_sticks.html").as_uri())
    explorer = page.locator(".gl-explorer")
    expect(explorer.locator(".gl-pwin .gl-exact")).to_have_attribute(
        "data-value", "35/4096"
    )  # the saved start, spec 9.3
    cells = json.loads((ROOT / "notebooks" / "nagaraja" / "01_fate_sticks.ipynb").read_text())["cells"]
    figures = sum("image/png" in output.get("data", {}) for cell in cells for output in cell.get("outputs", []))
    expect(page.locator(".jp-OutputArea-output img")).to_have_count(figures)  # every saved figure
    explorer.scroll_into_view_if_needed()
    screenshot(explorer, "html_offline_odds_explorer")
    assert page.refused == [], f"the page tried the network: {page.refused}"


def test_the_pages_hold_no_answers_and_their_rules_links_resolve(exported):
    # Issue 25: the saved pages are a student route; the apps' and lessons' links to the rules pages land
    # on the copies beside them.
    import re

    import student_edition

    assert student_edition.answers_in(exported) == []
    page = exported / "apps" / "pangu_free_play.html"
    links = re.findall(r'href="([^"#]*docs/rules/[^"#]+)', page.read_text())
    assert links and all((page.parent / link).is_file() for link in links)
