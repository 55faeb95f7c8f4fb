"""Every solution in the solved notebooks makes its check say right, from a fresh kernel (issue 14).

A solved copy is its student notebook with the exercise cells filled in (tools/make_solutions.py;
test_course_solutions.py checks that each copy is a fresh generation, so every other cell is the
student's, byte for byte). nbval runs every cell of the student notebooks in `make test`; what only
the solved copy can show is that each solution says right. So each copy runs only the cells its
exercises depend on (tools/solution_slice.py: the exercise cells, every cell that binds or may
change a name they read, followed back to the start, and every cell that reads what a solution
binds; every import statement runs in its place), in one fresh kernel, in order. The slice's rules
are tested on small notebooks in test_course_solutions_slice.py. This file runs in `make test-long`.
"""

from __future__ import annotations

import importlib.util

import nbformat
import pytest
from nbclient import NotebookClient
from test_course_solutions import RIGHT, ROOT, SOURCES, TOOL, shown_text

_SPEC = importlib.util.spec_from_file_location("solution_slice", ROOT / "tools" / "solution_slice.py")
SLICE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(SLICE)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_every_solution_makes_its_check_say_right(source):
    notebook, student = TOOL.solved(source)
    # the solved copy has the banner cell first, so each exercise sits one cell further down
    exercises = [
        (index + 1, question, variable)
        for index, question, variable in TOOL.exercise_cells(nbformat.read(ROOT / student, as_version=4))
    ]
    tagged = TOOL.tagged_cells(notebook)
    assert exercises or tagged
    sliced, _ = SLICE.slice_for_exercises(notebook, [index for index, _, _ in exercises] + [i for i, _ in tagged])
    NotebookClient(
        sliced, timeout=600, kernel_name="python3", resources={"metadata": {"path": str((ROOT / student).parent)}}
    ).execute()
    for index, question, _ in exercises:
        shown = shown_text(sliced.cells[index])
        assert f"{question}: right!" in shown, f"{source.stem} {question}: {shown!r}"
    for index, exercise_id in tagged:
        verdicts = [
            line
            for line in shown_text(sliced.cells[index]).splitlines()
            if line.startswith(("✅", "❌", "Right", "Found it", "Not yet"))
        ]
        assert verdicts and all(RIGHT.match(line) for line in verdicts), f"{source.stem} {exercise_id}: {verdicts!r}"
