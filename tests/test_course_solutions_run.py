"""Every solved notebook runs from a fresh kernel and every check in it says right (issue 14).

The solved copies repeat their student notebook's cells, which nbval already runs in `make test`, so
running them costs as much again: they run in `make test-long` (CI runs it after `make test`). The
checks that the copies are fresh generations, and that every exercise has its solution, stay in
test_course_solutions.py, in `make test`.
"""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient
from test_course_solutions import RIGHT, ROOT, SOURCES, TOOL, shown_text


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_solved_notebook_runs_and_every_check_says_right(source):
    notebook, student = TOOL.solved(source)
    # the solved copy has the banner cell first, so each exercise sits one cell further down
    exercises = [
        (index + 1, question, variable)
        for index, question, variable in TOOL.exercise_cells(nbformat.read(ROOT / student, as_version=4))
    ]
    assert exercises or TOOL.tagged_cells(notebook)
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str((ROOT / student).parent)}}
    ).execute()
    for index, question, _ in exercises:
        shown = shown_text(notebook.cells[index])
        assert f"{question}: right!" in shown, f"{source.stem} {question}: {shown!r}"
    for index, exercise_id in TOOL.tagged_cells(notebook):
        verdicts = [
            line
            for line in shown_text(notebook.cells[index]).splitlines()
            if line.startswith(("✅", "❌", "Right", "Found it", "Not yet"))
        ]
        assert verdicts and all(RIGHT.match(line) for line in verdicts), f"{source.stem} {exercise_id}: {verdicts!r}"
