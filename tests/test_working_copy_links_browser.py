"""Under `make lab`, Lab serves only the working copy: the start page's link to the instructor guide and a
course session's link to its notes open the page, not a 404 (issue 25).

The working copy is made with tools/working_copy.py inside the Lab tier's served folder, so every link
that climbs out of it would fail here as it does under `make lab`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from browser_support import screenshot, show_alone

ROOT = Path(__file__).resolve().parents[1]  # not `from conftest`: beside notebooks/ another conftest may hold that name

sys.path.insert(0, str(ROOT / "tools"))
import working_copy  # noqa: E402

pytestmark = pytest.mark.browser


def open_and_follow(page, lab, notebook: str, link_text: str) -> str:
    """Open ``notebook`` alone (no cells run), click the rendered link ``link_text``; return the path Lab
    opened. The second notebook opens in the tab's Lab already loaded (``show_alone``)."""
    from playwright.sync_api import expect

    show_alone(page, lab, notebook)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
        f" && window.jupyterapp.shell.currentWidget.context.path.endsWith({notebook.split('/')[-1]!r})",
        timeout=60_000,
    )
    link = page.locator(".jp-RenderedMarkdown a", has_text=link_text).first
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
    link.click()
    page.wait_for_function(
        "(name) => window.jupyterapp.shell.currentWidget.context"
        " && !window.jupyterapp.shell.currentWidget.context.path.endsWith(name)",
        arg=notebook.split("/")[-1],
        timeout=30_000,
    )
    expect(page.locator(".jp-Dialog")).to_have_count(0)  # Lab's "Cannot open" dialog for a missing file
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.context.path")


def test_the_start_page_and_a_session_open_the_guide_in_the_working_copy(lab_tab, lab):
    from playwright.sync_api import expect

    page = lab_tab  # the session's Lab tab (browser_support.lab_tab)
    working_copy.top_up(ROOT / "notebooks", lab.root / "my_notebooks")
    opened = open_and_follow(page, lab, "my_notebooks/00_start_here.ipynb", "docs/teaching/README.md")
    assert opened == "my_notebooks/docs/teaching/README.md"
    expect(page.locator(".jp-MainAreaWidget:visible")).to_contain_text("Teaching the game-design course")
    screenshot(page, "make_lab_instructor_guide_link")
    opened = open_and_follow(
        page, lab, "my_notebooks/course/05_skill_and_luck.ipynb", "session 5 in docs/teaching/sessions.md"
    )
    assert opened == "my_notebooks/docs/teaching/sessions.md"
    expect(page.locator(".jp-MainAreaWidget:visible")).to_contain_text("Skill and luck")
