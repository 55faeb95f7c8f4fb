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
    missing = [f"{page}#{anchor}" for page, anchor in spec_map_links()
               if anchor not in anchors(RULES_DIR / page)]
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
