"""The instructors' solved notebooks are generated from the student notebooks and are right (issue 14).

tools/make_solutions.py fills each exercise cell of a student notebook with the solution code of
docs/teaching/solutions/source/<name>.json. Here every solved notebook must match a fresh
generation (so it never drifts from the student version), every exercise must have a solution
(and every solution an exercise), and every richer check registered in test_lesson_checks.RICHER
must be a cell tagged ``exercise:<id>``, filled whole from the data file's ``"cells"``. That every
check in them says right is test_course_solutions_run.py's (`make test-long`).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import nbformat
import pytest
from test_lesson_checks import RICHER

ROOT = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("make_solutions", ROOT / "tools" / "make_solutions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()
SOURCES = TOOL.solution_files()
# the verdicts of gamelib.exercises.Feedback that mean right: check_answer's, the functions' and
# design targets' "Right:", the bug hunts' "Found it:"
RIGHT = re.compile(r"^(✅ \w+: right!|Right:|Found it:)")


def shown_text(cell) -> str:
    return "".join(output.get("data", {}).get("text/plain", "") + output.get("text", "") for output in cell.outputs)


def source_for(lesson: str) -> Path:
    """The solution data file of a lesson (``notebooks/<lesson>``)."""
    found = [
        source
        for source in SOURCES
        if json.loads(source.read_text(encoding="utf-8"))["notebook"] == f"notebooks/{lesson}"
    ]
    assert len(found) == 1, f"{lesson} has {len(found)} solution files"
    return found[0]


def test_every_course_session_has_a_solution_file():
    sessions = {path.stem for path in (ROOT / "notebooks" / "course").glob("[01][0-9]_*.ipynb")} - {
        "12_capstone_report_template"
    }
    assert {f"course_{name}" for name in sessions} <= {source.stem for source in SOURCES}
    assert len(sessions) == 12


def test_session_exercise_cells_are_tagged():
    for path in (ROOT / "notebooks" / "course").glob("[01][0-9]_*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        for index, _, _ in TOOL.exercise_cells(notebook):
            assert "exercise" in notebook.cells[index].metadata.get("tags", []), (path.name, index)


@pytest.mark.parametrize("lesson", sorted(RICHER))
def test_every_richer_check_is_a_tagged_exercise_with_a_solved_cell(lesson):
    notebook = nbformat.read(ROOT / "notebooks" / lesson, as_version=4)
    tagged = dict(TOOL.tagged_cells(notebook))
    calling = [
        index for index, cell in enumerate(notebook.cells) if cell.cell_type == "code" and RICHER[lesson] in cell.source
    ]
    assert calling and all(index in tagged for index in calling), (
        f"{lesson}: tag the {RICHER[lesson]}...) cell exercise:<id>"
    )
    cells = json.loads(source_for(lesson).read_text(encoding="utf-8")).get("cells", {})
    for index in calling:
        assert RICHER[lesson] in cells.get(tagged[index], ""), f"{lesson}: no solved cell for {tagged[index]}"


def test_a_tag_without_a_solved_cell_is_refused(tmp_path):
    spec = json.loads((TOOL.SOURCES / "chakra_02_scoring.json").read_text(encoding="utf-8"))
    del spec["cells"]
    source = tmp_path / "chakra_02_scoring.json"
    source.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(TOOL.SolutionError, match="chakra02_scoring_bug"):
        TOOL.solved(source)


def test_a_solved_cell_without_a_tag_is_refused(tmp_path):
    spec = json.loads((TOOL.SOURCES / "chakra_02_scoring.json").read_text(encoding="utf-8"))
    spec["cells"]["chakra02_no_such_exercise"] = "print('solved')"
    source = tmp_path / "chakra_02_scoring.json"
    source.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(TOOL.SolutionError, match="chakra02_no_such_exercise"):
        TOOL.solved(source)


def test_a_tagged_cell_is_replaced_whole():
    notebook, _ = TOOL.solved(TOOL.SOURCES / "chakra_02_scoring.json")
    cells = json.loads((TOOL.SOURCES / "chakra_02_scoring.json").read_text(encoding="utf-8"))["cells"]
    ((index, exercise_id),) = TOOL.tagged_cells(notebook)
    assert notebook.cells[index].source == cells[exercise_id]


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
