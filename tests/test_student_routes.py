"""Students never get the answers (issue 25): every route a student takes is drawn from student-safe files.

The routes: the student edition (`make student-edition`, what a teacher publishes for students to
clone, and what Binder builds), `make lab`'s working copy made in it, the browser-only site's
contents and the HTML export (both drawn from ``published_notebooks``), and the apps. Each is built
here and scanned by ``tools/student_edition.py``'s ``answers_in`` for nbgrader's solution and
hidden-test markers, a solved notebook's banner and the code of every solution in
docs/teaching/solutions/source/. The built site and HTML pages are scanned again where the
deployment tests build them (tests/test_deploy_site.py, tests/test_deploy_html.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402
import make_apps  # noqa: E402
import student_edition  # noqa: E402
import working_copy  # noqa: E402
from npm_files import published_notebooks  # noqa: E402


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    output = tmp_path_factory.mktemp("edition") / "student"
    student_edition.build(output)
    return output


def test_the_check_finds_a_marker_a_solved_copy_and_a_solution(tmp_path):
    # The scan below must be able to fail: plant one of each kind of answer and find all three.
    source = json.loads((ROOT / "docs/teaching/solutions/source/pangu_03_karma_odds.json").read_text())
    (tmp_path / "a.ipynb").write_text(
        json.dumps({"cells": [{"cell_type": "code", "source": source["solutions"]["q1"]}]})
    )
    (tmp_path / "b.md").write_text("### BEGIN " + "HIDDEN TESTS\n")
    (tmp_path / "c.ipynb").write_text("**Instructor's copy: " + "solutions filled in.**")
    found = student_edition.answers_in(tmp_path)
    assert [line.split(":")[0] for line in found] == ["a.ipynb", "b.md", "c.ipynb"], found


def test_the_repository_itself_holds_the_answers_the_edition_leaves_out():
    found = student_edition.answers_in(ROOT / "notebooks") + student_edition.answers_in(ROOT / "docs")
    assert any("course/assignments/source" in line for line in found)
    assert any("teaching/solutions/" in line for line in found)


def test_the_student_edition_holds_no_answers(edition):
    assert student_edition.answers_in(edition) == []
    files = {p.relative_to(edition).as_posix() for p in edition.rglob("*") if p.is_file()}
    stubs = {name for name in files if name.startswith("docs/teaching/")}
    assert {"docs/teaching/README.md", "docs/teaching/sessions.md"} <= stubs
    assert all("not part of the student edition" in (edition / name).read_text() for name in stubs)
    assert not [name for name in files if name.startswith(student_edition.INSTRUCTOR_ONLY) and name not in stubs]
    assert {
        "Makefile",
        "pyproject.toml",
        "binder/environment.yml",
        "binder/postBuild",
        "notebooks/00_start_here.ipynb",
        "tools/working_copy.py",
        "tools/student_edition.py",
        "docs/rules/pangu.md",
    } <= files
    assert "instructor's repository" in (edition / "docs/teaching/README.md").read_text()


def test_binder_builds_the_edition_and_its_links_point_into_it(edition):
    # Binder builds the repository a teacher publishes (the edition): the README's launch links must land in it.
    readme = (ROOT / "README.md").read_text()
    targets = set(re.findall(r"urlpath=(?:lab/tree|voila/render)/([\w/.]+\.ipynb)", readme))
    assert "notebooks/00_start_here.ipynb" in targets and "notebooks/apps/pangu_free_play.ipynb" in targets
    assert all((edition / target).is_file() for target in targets)


def markdown_links(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", text) if "://" not in target]


def test_make_lab_in_the_edition_copies_no_answers_and_its_links_resolve(edition):
    subprocess.run([sys.executable, "tools/working_copy.py"], cwd=edition, check=True, capture_output=True)
    copy = edition / "my_notebooks"
    assert student_edition.answers_in(copy) == []
    assert not (copy / "course" / "assignments").exists()
    # Lab serves only my_notebooks/: every relative link of every copied notebook must stay inside and exist,
    # the start page's link to the instructor guide among them.
    assert "docs/teaching/README.md" in markdown_links(copy / "00_start_here.ipynb")
    broken = []
    for notebook in copy.rglob("*.ipynb"):
        for target in markdown_links(notebook):
            resolved = (notebook.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(copy.resolve()) or not resolved.exists():
                broken.append(f"{notebook.relative_to(copy)} -> {target}")
    assert broken == []
    subprocess.run(["rm", "-rf", str(copy)], check=True)


def test_the_repositorys_own_working_copy_takes_no_nbgrader_source_and_no_solved_notebook(tmp_path):
    copy = tmp_path / "my_notebooks"
    working_copy.top_up(ROOT / "notebooks", copy)
    assert not (copy / "course" / "assignments").exists()
    assert not (copy / "docs" / "teaching" / "solutions").exists()
    # The instructor's own copy keeps the guide (grading.md explains nbgrader's markers); nothing else may hold one.
    assert [line for line in student_edition.answers_in(copy) if not line.startswith("docs/teaching/")] == []


def test_the_site_and_the_html_pages_draw_only_student_safe_notebooks(tmp_path):
    notebooks = published_notebooks()
    assert all(student_edition.student_safe(p.relative_to(ROOT).as_posix()) for p in notebooks)
    contents = build_site.copy_contents(tmp_path)
    assert student_edition.answers_in(contents) == []
    assert student_edition.answers_in(ROOT / "notebooks" / "apps") == []


def test_the_site_build_takes_nbgrader_out(tmp_path):
    # The build copies every Lab extension of the environment; nbgrader's must not reach students.
    (tmp_path / "extensions" / "@jupyter" / "nbgrader").mkdir(parents=True)
    (tmp_path / "build" / "schemas").mkdir(parents=True)
    (tmp_path / "build" / "schemas" / "all_federated.json").write_text(
        json.dumps([{"id": "@jupyter/nbgrader:create-assignment"}, {"id": "anywidget:plugin"}])
    )
    (tmp_path / "jupyter-lite.json").write_text(
        json.dumps(
            {"jupyter-config-data": {"federated_extensions": [{"name": "@jupyter/nbgrader"}, {"name": "anywidget"}]}}
        )
    )
    build_site.without_instructor_extensions(tmp_path)
    data = json.loads((tmp_path / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert data["federated_extensions"] == [{"name": "anywidget"}]
    assert data["disabledExtensions"] == ["@jupyter/nbgrader"]
    assert not (tmp_path / "extensions" / "@jupyter" / "nbgrader").exists()
    assert json.loads((tmp_path / "build/schemas/all_federated.json").read_text()) == [{"id": "anywidget:plugin"}]


def requirement_names(distribution: str, extras: set[str] = frozenset()) -> set[str]:
    names = set()
    for requirement in metadata.requires(distribution) or []:
        name, _, marker = requirement.partition(";")
        wanted = re.findall(r"""extra\s*==\s*["']([^"']+)["']""", marker)
        if wanted and not set(wanted) & set(extras):
            continue
        names.add(re.split(r"[ <>=!~\[(]", name.strip(), maxsplit=1)[0].lower().replace("_", "-"))
    return names


def test_the_student_setup_installs_no_test_grading_browser_or_site_tool():
    # What `pip install -e .[lab]` (make lab, make setup-student) brings, walked through the installed
    # packages' own requirements: no nbgrader (so no nbgrader menu), no test runner, browser driver or site builder.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [
        re.split(r"[ <>=!~\[(;]", line, maxsplit=1)[0].lower()
        for line in project["dependencies"] + project["optional-dependencies"]["lab"]
    ]
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            todo += requirement_names(name)
        except metadata.PackageNotFoundError:
            pass  # a requirement for another platform or Python
    assert "jupyterlab" in seen and "anywidget" in seen and "matplotlib" in seen
    tools = {
        "nbgrader",
        "pytest",
        "playwright",
        "nbval",
        "hypothesis",
        "jupyterlite-core",
        "voila",
        "numba",
        "distributed",
    }
    assert seen & tools == set()


@pytest.mark.parametrize(
    "target, extras",
    [
        ("setup-student", "lab"),
        ("lab", "lab"),
        ("app", "lab,voila"),
        ("site", "lab,site"),
        ("setup-instructor", "lab,course"),
        ("test", "test,lab,voila,site"),
    ],
)
def test_each_make_target_installs_its_own_extras(target, extras):
    plan = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", target], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert f'-e ".[{extras}]"' in plan
    assert plan.count(' -e ".[') == 1  # one install of the project (make test's venv may first bring in uv)


def test_a_lesson_that_needs_the_internet_stops_at_its_first_cell_with_one_sentence(tmp_path):
    offline = ["00_start_here.ipynb", "pangu/01_rules_step_by_step.ipynb"]
    source = build_site.offline_check_cell(offline)["source"]
    runner = (
        "import sys\nsys.modules['numpy'] = None  # as in the site's kernel offline: the import fails\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "InteractiveShell.instance().run_cell(sys.stdin.read())\n"
    )
    shown = subprocess.run([sys.executable, "-c", runner], input=source, capture_output=True, text=True).stdout
    assert shown.startswith("This lesson needs the internet on this site")
    assert "ModuleNotFoundError" not in shown and "Traceback" not in shown
    assert "every app runs" in shown and "pangu/01_rules_step_by_step.ipynb" in shown
    online = subprocess.run(
        [sys.executable, "-c", runner.replace("sys.modules['numpy'] = None", "pass")],
        input=source,
        capture_output=True,
        text=True,
    ).stdout
    assert online == ""


def test_the_site_marks_and_guards_every_lesson_that_needs_the_internet(tmp_path):
    contents = build_site.copy_contents(tmp_path)
    heavy = build_site.needs_cdn(published_notebooks())
    start = (contents / "00_start_here.ipynb").read_text()
    for name, needs in heavy.items():
        first = json.loads((contents / name).read_text())["cells"][0]
        assert (build_site.OFFLINE_CHECK_TAG in first["metadata"].get("tags", [])) == needs, name
        if not name.startswith("apps/") and name != "00_start_here.ipynb":
            assert (f"]({name}){build_site.INTERNET_MARK}" in start) == needs, name


def heading_anchors(page: Path) -> set[str]:
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in page.read_text().splitlines()
        if line.startswith("#")
    }


@pytest.mark.parametrize("app", sorted(make_apps.APP_CELLS))
def test_each_app_explains_itself_before_its_board(app):
    cells = json.loads((ROOT / "notebooks" / "apps" / f"{app}.ipynb").read_text())["cells"]
    assert [c["cell_type"] for c in cells] == ["markdown", "code"], "the introduction comes before the board"
    intro = "".join(cells[0]["source"])
    title = make_apps.APP_CELLS[app][0]
    assert intro.startswith(f"# {title}\n")
    assert re.search(r"\*\*Your goal\*\*: \w", intro)
    how = intro.split("**How to play**")[1].split("\n\n")[1]
    assert len([line for line in how.splitlines() if line.startswith("- ")]) == 2
    [link] = re.findall(r"\]\((\.\./\.\./docs/rules/[^)]+)\)", intro)
    page, _, anchor = link.partition("#")
    path = (ROOT / "notebooks" / "apps" / page).resolve()
    assert path.is_file()
    assert not anchor or anchor in heading_anchors(path)
