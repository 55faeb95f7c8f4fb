"""The syllabus points each outcome to lessons that hold its material (issue 23: O6 and O7 pointed to
lessons without it). Read from docs/teaching/syllabus.md and the committed lesson notebooks."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYLLABUS = (ROOT / "docs" / "teaching" / "syllabus.md").read_text(encoding="utf-8")
LESSONS = {"00 start here": ROOT / "notebooks" / "00_start_here.ipynb"}
for path in (ROOT / "notebooks").glob("*/0*.ipynb"):
    if path.parent.name in ("pangu", "chakra", "nagaraja"):
        LESSONS[f"{path.parent.name} {path.name[:2]}"] = path
# What each outcome's lessons must contain (code the lesson runs), by outcome.
MATERIAL = {
    "O6": ("design.sweep", "design.find_target"),
    "O7": ("design.duration", "design.lead_changes", "design.decisiveness"),
}


def outcome_lessons(outcome: str) -> list[str]:
    row = next(line for line in SYLLABUS.splitlines() if line.startswith(f"| {outcome} |"))
    cell = row.split("|")[4]
    names = []
    for part in cell.split(","):
        part = part.strip()
        match = re.fullmatch(r"(pangu|chakra|nagaraja) (\d\d)(?:-(\d\d))?", part)
        if match:
            first, last = int(match[2]), int(match[3] or match[2])
            names += [f"{match[1]} {n:02d}" for n in range(first, last + 1)]
        elif part != "all":
            names.append(part)
    return names


@pytest.mark.parametrize("outcome", [f"O{n}" for n in range(1, 10)])
def test_every_lesson_named_by_an_outcome_exists(outcome):
    for name in outcome_lessons(outcome):
        assert name in LESSONS, f"{outcome} names {name!r}, which is no lesson"


@pytest.mark.parametrize("outcome", sorted(MATERIAL))
def test_outcome_lessons_hold_the_material(outcome):
    for name in outcome_lessons(outcome):
        text = LESSONS[name].read_text(encoding="utf-8")
        assert any(word in text for word in MATERIAL[outcome]), f"{outcome}: {name} uses none of {MATERIAL[outcome]}"
