"""The instructors' solved notebooks are generated from the student notebooks and are right (issue 14).

tools/make_solutions.py fills each exercise cell of a student notebook with the solution code of
docs/teaching/solutions/source/<name>.json. Here every solved notebook must match a fresh
generation (so it never drifts from the student version), every exercise must have a solution
(and every solution an exercise), and running the solved notebook from a fresh kernel must make
every check_answer cell say right.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("make_solutions", ROOT / "tools" / "make_solutions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()
SOURCES = TOOL.solution_files()


def test_every_course_session_has_a_solution_file():
    sessions = {path.stem for path in (ROOT / "notebooks" / "course").glob("0[1-8]_*.ipynb")} - {"08_capstone_report_template"}
    assert {f"course_{name}" for name in sessions} <= {source.stem for source in SOURCES}
    assert len(sessions) == 8


def test_session_exercise_cells_are_tagged():
    for path in (ROOT / "notebooks" / "course").glob("0[1-8]_*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        for index, _, _ in TOOL.exercise_cells(notebook):
            assert "exercise" in notebook.cells[index].metadata.get("tags", []), (path.name, index)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_committed_solution_is_a_fresh_generation(source):
    notebook, _ = TOOL.solved(source)
    committed = nbformat.read(TOOL.output_path(source), as_version=4)
    assert nbformat.writes(committed) == nbformat.writes(notebook), f"run tools/make_solutions.py ({source.stem})"


def test_a_solution_for_a_missing_question_is_refused(tmp_path, monkeypatch):
    import json

    source = tmp_path / "course_01_expected_value.json"
    spec = json.loads((TOOL.SOURCES / source.name).read_text(encoding="utf-8"))
    spec["solutions"]["q9"] = "answer_q9 = 1"
    source.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(TOOL.SolutionError, match="q9"):
        TOOL.solved(source)


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_solved_notebook_runs_and_every_check_says_right(source):
    notebook, student = TOOL.solved(source)
    # the solved copy has the banner cell first, so each exercise sits one cell further down
    exercises = [(index + 1, question, variable)
                 for index, question, variable in TOOL.exercise_cells(nbformat.read(ROOT / student, as_version=4))]
    assert exercises
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str((ROOT / student).parent)}}).execute()
    for index, question, _ in exercises:
        shown = "".join(output.get("data", {}).get("text/plain", "") + output.get("text", "")
                        for output in notebook.cells[index].outputs)
        assert f"{question}: right!" in shown, f"{source.stem} {question}: {shown!r}"
