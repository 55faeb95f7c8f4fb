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


@pytest.mark.parametrize("outcome", [f"O{n}" for n in range(1, 15)])
def test_every_lesson_named_by_an_outcome_exists(outcome):
    for name in outcome_lessons(outcome):
        assert name in LESSONS, f"{outcome} names {name!r}, which is no lesson"


@pytest.mark.parametrize("outcome", sorted(MATERIAL))
def test_outcome_lessons_hold_the_material(outcome):
    for name in outcome_lessons(outcome):
        text = LESSONS[name].read_text(encoding="utf-8")
        assert any(word in text for word in MATERIAL[outcome]), f"{outcome}: {name} uses none of {MATERIAL[outcome]}"


# ---------------------------------------------------------------- the twelve sessions (issue 23)

COURSE = {
    int(path.name[:2]): path
    for path in (ROOT / "notebooks" / "course").glob("[01][0-9]_*.ipynb")
    if not path.stem.endswith("_template")
}
# Code each outcome's sessions must run (not only mention), by outcome.
SESSION_MATERIAL = {
    "O1": ("variance",),
    "O2": ("win_probability",),
    "O3": ("greedy_policy",),
    "O4": ("proportion", "games_to_see"),
    "O5": ("paired_comparison", "mcnemar"),
    "O6": ("design.sweep",),
    "O7": ("design.lead_changes",),
    "O8": ("load_playtests", "lookahead_values"),
    "O9": ("mcnemar",),
    "O10": ("gamelib.studio",),
    "O11": ("cost_curve",),
    "O12": ("payoff",),
    "O13": ("pacing",),
    "O14": ("streaks",),
}
# Ian Schreiber's Game Balance Concepts topics the course must cover (issue 23), as the weekly plan names them.
TOPICS = (
    "probability",
    "metrics",
    "cost curves",
    "transitive balance",
    "intransitive mechanics",
    "payoff matrices",
    "numeric relationships",
    "pacing",
    "feedback loops",
    "perceiving randomness",
    "playtesting",
)


def outcome_sessions(outcome: str) -> list[int]:
    row = next(line for line in SYLLABUS.splitlines() if line.startswith(f"| {outcome} |"))
    return [int(part) for part in row.split("|")[3].split(",")]


def weekly_rows() -> list[list[str]]:
    plan = SYLLABUS.split("## Weekly plan")[1].split("\n## ")[0]
    return [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in plan.splitlines()
        if re.match(r"\| \d+ \| \d+\. ", line)
    ]


def code_of(path: Path) -> str:
    import nbformat

    return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")


def test_the_course_has_twelve_sessions_numbered_in_order():
    assert sorted(COURSE) == list(range(1, 13)), sorted(path.name for path in COURSE.values())


def test_the_weekly_plan_lists_the_twelve_sessions_in_order_with_their_notebooks():
    rows = weekly_rows()
    assert [int(row[1].split(".")[0]) for row in rows] == list(range(1, 13))
    for row in rows:
        number = int(row[1].split(".")[0])
        assert f"`notebooks/course/{COURSE[number].name}`" in row[2], (row[1], row[2])
        assert row[3], f"session {number} names no Game Balance Concepts topic"


def test_every_game_balance_concepts_topic_is_taught_in_some_session():
    topics = " ".join(row[3] for row in weekly_rows()).lower()
    assert not [topic for topic in TOPICS if topic not in topics]


def test_the_outcome_table_lists_every_outcome_with_session_material():
    listed = re.findall(r"(?m)^\| (O\d+) \|", SYLLABUS)
    assert listed == sorted(SESSION_MATERIAL, key=lambda name: int(name[1:]))


@pytest.mark.parametrize("outcome", sorted(SESSION_MATERIAL))
def test_outcome_sessions_run_the_material(outcome):
    for number in outcome_sessions(outcome):
        assert number in COURSE, f"{outcome} names session {number}, which has no notebook"
        code = code_of(COURSE[number])
        assert any(word in code for word in SESSION_MATERIAL[outcome]), (
            f"{outcome}: session {number} ({COURSE[number].name}) runs none of {SESSION_MATERIAL[outcome]}"
        )
