"""No session prints an assignment's solution word for word (issue 23: a4's McNemar test was written out
in session 12). Every line of a solution region of the instructor's assignments, whitespace aside, must be
absent from the course's session notebooks and their solved copies' sources."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENTS = sorted((ROOT / "notebooks" / "course" / "assignments" / "source").glob("a*/a*.ipynb"))
SESSIONS = sorted((ROOT / "notebooks" / "course").glob("[01][0-9]_*.ipynb"))
TRIVIAL = 25  # shorter lines (a return, a counter) are common code, not a solution


def code_lines(notebook: Path) -> set[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return {
        re.sub(r"\s+", "", line)
        for cell in cells
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
    }


def solution_lines(notebook: Path) -> list[str]:
    lines = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        text = "".join(cell["source"])
        for region in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", text, re.DOTALL):
            lines += [line for line in region.splitlines() if len(re.sub(r"\s+", "", line)) >= TRIVIAL]
    return lines


@pytest.mark.parametrize("assignment", ASSIGNMENTS, ids=lambda path: path.stem)
def test_no_session_holds_a_solution_line_of_the_assignment(assignment):
    lines = solution_lines(assignment)
    assert lines, f"{assignment.name} has no solution region"
    for session in SESSIONS:
        shared = code_lines(session) & {re.sub(r"\s+", "", line) for line in lines}
        assert not shared, f"{session.name} prints a line of {assignment.stem}'s solution: {min(shared)}"


def functions_to_write(notebook: Path) -> set[str]:
    """The functions whose body is a solution region (the student writes them)."""
    names = set()
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        text = "".join(cell["source"])
        names |= set(re.findall(r"def (\w+)\(.*\n\s*### BEGIN SOLUTION", text))
    return names


@pytest.mark.parametrize("assignment", ASSIGNMENTS, ids=lambda path: path.stem)
def test_no_session_writes_out_a_function_the_assignment_asks_for(assignment):
    for name in functions_to_write(assignment):
        for session in SESSIONS:
            text = session.read_text(encoding="utf-8")
            assert f"def {name}(" not in text, f"{session.name} writes out {name}, which {assignment.stem} asks for"
