"""The student-facing rules pages (docs/rules/) keep up with the engines and the spec map.

* every anchor that docs/rules/spec_sections.md names exists on its page, and every link
  between the pages lands on a heading that exists;
* every rule parameter of each game's ``Rules`` (read with ``dataclasses.fields``) is named on
  that game's page, so a new parameter without a page entry fails here;
* no heading anchor is used twice on a page, so links stay unambiguous.

Anchors are GitHub's heading slugs: lower case, punctuation dropped, spaces as hyphens.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = ("pangu", "chakra", "nagaraja")
LINK = re.compile(r"\]\((?P<page>[a-z_]+\.md)?#(?P<anchor>[a-z0-9-]+)\)")


def slug(heading: str) -> str:
    """The anchor GitHub (and most Markdown viewers) give a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(page: Path) -> list[str]:
    lines, in_code = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            lines.append(line.lstrip("#"))
    return lines


def anchors(page: Path) -> set[str]:
    return {slug(text) for text in headings(page)}


def test_slug_matches_github_for_the_headings_used():
    assert slug(" Karma ceiling") == "karma-ceiling"
    assert slug(" Call of fate") == "call-of-fate"
    assert slug(" Pangu: the rules") == "pangu-the-rules"


def spec_map_links() -> list[tuple[str, str]]:
    text = (RULES_DIR / "spec_sections.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and ".md#" in line]
    return [(match["page"], match["anchor"]) for row in rows for match in LINK.finditer(row)]


def test_spec_map_covers_every_game():
    pages = {page for page, _ in spec_map_links()}
    assert pages == {f"{game}.md" for game in GAMES}


def test_spec_map_anchors_exist():
    missing = [f"{page}#{anchor}" for page, anchor in spec_map_links() if anchor not in anchors(RULES_DIR / page)]
    assert not missing, f"spec_sections.md names anchors that no heading gives: {missing}"


@pytest.mark.parametrize("name", [*GAMES, "README"])
def test_links_between_pages_land(name):
    page = RULES_DIR / f"{name}.md"
    broken = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = RULES_DIR / (match["page"] or page.name)
        if match["anchor"] not in anchors(target):
            broken.append(f"{target.name}#{match['anchor']}")
    assert not broken, f"{page.name} links to missing anchors: {broken}"


@pytest.mark.parametrize("game", GAMES)
def test_anchors_are_unique(game):
    slugs = [slug(text) for text in headings(RULES_DIR / f"{game}.md")]
    repeated = sorted({s for s in slugs if slugs.count(s) > 1})
    assert not repeated, f"{game}.md has headings with the same anchor: {repeated}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_parameter_is_on_its_page(game):
    rules = importlib.import_module(f"gamelib.{game}").Rules
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    names = [field.name for field in dataclasses.fields(rules)]
    assert names, f"{game}.Rules has no fields"
    missing = [name for name in names if f"`{name}`" not in text]
    assert not missing, f"docs/rules/{game}.md does not explain these {game} rule parameters: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_parameter_is_in_the_parameter_table(game):
    """The page's Parameters table has one row per parameter, starting with its name."""
    rules = importlib.import_module(f"gamelib.{game}").Rules
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    table = text.split("\n## Parameters\n", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")}
    assert rows == {field.name for field in dataclasses.fields(rules)}


# ------------------------------------------------------------------ the lessons cite the pages, not the spec

NOTEBOOKS = RULES_DIR.parents[1] / "notebooks"
RULES_LINK = re.compile(r"\]\((?P<path>[./]*docs/rules/(?P<page>[a-z_]+\.md))(?:#(?P<anchor>[a-z0-9-]+))?\)")
SPEC_CITATION = re.compile(r"§|\bspec\b|\btest vectors?\b", re.IGNORECASE)


def lessons() -> list[Path]:
    return sorted(path for path in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts)


def cell_sources(notebook: Path) -> list[str]:
    import json

    return ["".join(cell["source"]) for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]]


def spec_citations(notebook: Path) -> list[str]:
    return [
        line.strip() for source in cell_sources(notebook) for line in source.splitlines() if SPEC_CITATION.search(line)
    ]


def test_the_spec_citation_pattern():
    """It catches the forms the lessons used and spares ordinary words."""
    for cited in ("(spec §3)", "(§7.3, vector C3)", "spec 9.5, case 5", "the rules spec", "(spec test vector T4)"):
        assert SPEC_CITATION.search(cited), cited
    for word in ("special location", "inspect the state", "a specimen", "respect the cap"):
        assert not SPEC_CITATION.search(word), word


@pytest.mark.parametrize("notebook", lessons(), ids=lambda path: str(path.relative_to(NOTEBOOKS)))
def test_lessons_cite_the_rules_pages_not_the_spec(notebook):
    """Students never see the spec: a lesson points to docs/rules/ instead (issue 10)."""
    found = spec_citations(notebook)
    assert not found, f"{notebook.name} cites the spec, which students do not have; link docs/rules/ instead: {found}"


@pytest.mark.parametrize("notebook", lessons(), ids=lambda path: str(path.relative_to(NOTEBOOKS)))
def test_lesson_links_to_the_rules_pages_land(notebook):
    broken = []
    for source in cell_sources(notebook):
        for match in RULES_LINK.finditer(source):
            target = (notebook.parent / match["path"]).resolve()
            if not target.is_file() or target.parent != RULES_DIR:
                broken.append(match["path"])
            elif match["anchor"] and match["anchor"] not in anchors(target):
                broken.append(f"{match['path']}#{match['anchor']}")
    assert not broken, f"{notebook.name} links to rules sections that do not exist: {broken}"


def student_visible_strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module that is not a docstring: messages, labels, HTML (f-string parts too)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_messages_students_see_name_the_rules_pages_not_the_spec():
    """Error messages, hints and widget text in gamelib cite no spec section (issue 10)."""
    package = RULES_DIR.parents[1] / "gamelib"
    found = [
        f"{path.relative_to(package)}:{line}: {text.strip()[:80]!r}"
        for path in sorted(package.rglob("*.py"))
        for line, text in student_visible_strings(path)
        if SPEC_CITATION.search(text)
    ]
    assert not found, f"strings a student can see cite the spec: {found}"


def test_the_message_scan_sees_messages_and_skips_docstrings(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        '"""Cites spec 3."""\n\ndef f():\n    """Also spec 4."""\n    raise ValueError(f"a card (spec {2}.5)")\n',
        encoding="utf-8",
    )
    assert [text for _, text in student_visible_strings(module)] == ["a card (spec ", ".5)"]


# A citation of the spec in a comment or docstring ("spec 5.3", "§7.5", "spec section 9", "the spec's
# default"), not the word as a name (positions.py builds boards from a ``spec`` dict).
CODE_SPEC_CITATION = re.compile(r"§|\bspec(?:'s)?\s+(?:§|\d|sections?\b)|\bthe (?:rules )?spec\b", re.IGNORECASE)


def test_code_comments_and_docstrings_link_the_rules_pages_not_the_spec():
    """Docstrings and comments name a rules-page section (``chakra.md#movement``), not the spec (issue 10)."""
    package = RULES_DIR.parents[1] / "gamelib"
    found = [
        f"{path.relative_to(package)}:{number}: {line.strip()[:80]!r}"
        for path in sorted(package.rglob("*"))
        if path.suffix in {".py", ".js", ".css", ".json"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CODE_SPEC_CITATION.search(line)
    ]
    assert not found, f"gamelib cites the spec, which is not in the repository: {found}"


def test_the_code_citation_pattern():
    for cited in ("(spec 5.3)", "§7.5", "spec section 9", "the spec's default", "(spec sections 3.4, 8 and 10)"):
        assert CODE_SPEC_CITATION.search(cited), cited
    for name in ("_board_from_spec(spec, rules)", "for key, value in spec.items():", "kernelspec"):
        assert not CODE_SPEC_CITATION.search(name), name
