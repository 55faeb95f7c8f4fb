"""The graded assignments survive nbgrader's round trip (issues 14 and 23).

For every assignment in notebooks/course/assignments/source, in a temporary copy of the
course folder: nbgrader makes the student release; three submissions are autograded, each as
its own student id (so each gets the variant its id draws, as a class would):

- the correct one, as student ``student``: the instructor's source, solutions included: full marks,
  and no cell of it raises. ``student`` is the id a notebook falls back to outside nbgrader
  (``student_id()`` in each assignment), so this is the variant nbval runs the sources with, and
  the autograded copy holds every cell's output of that same run;
- ``wrong``: the release with the sample mistakes of tests/data/course/wrong_answers.json;
- ``oneliner``: the release with the library one-liners and typed-in numbers of
  tests/data/course/one_liner_answers.json (such a submission scored 20/20 on two assignments
  before the hidden tests ran the functions on other faces, decks and goals).

The gradebook must give the correct one full marks and the other two, per grade cell, exactly
the points written beside their code with the reason (the rubric's points per sub-check in
docs/teaching/grading.md). The released notebook must hold no solution and no hidden test.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "notebooks" / "course" / "assignments"
SAMPLES = {
    name: json.loads((ROOT / "tests" / "data" / "course" / f"{file}.json").read_text(encoding="utf-8"))
    for name, file in (("wrong", "wrong_answers"), ("oneliner", "one_liner_answers"))
}
WRONG = SAMPLES["wrong"]
# the correct submission's student id: the fallback of each assignment's student_id(), so it draws the
# variant nbval's run of the source draws
CORRECT = "student"
STUDENTS = (CORRECT, *SAMPLES)
ASSIGNMENTS = sorted(path.name for path in (COURSE / "source").iterdir() if path.is_dir())
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)


def nbgrader(course: Path, *arguments: str) -> None:
    environment = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    environment.pop("STUDENT_SEED", None)  # each submission's variant comes from its student id
    result = subprocess.run(
        [sys.executable, "-m", "nbgrader", *arguments],
        cwd=course,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    # The exit code is the verdict: ipykernel may log a harmless error while a grading kernel shuts
    # down (a ZMQError on a closed socket), and whether each notebook really ran is judged by the
    # scores in the gradebook below, which a failed execution cannot fake.
    assert result.returncode == 0, result.stderr[-3000:]


def submit(course: Path, assignment: str, student: str) -> None:
    """The student's folder as they hand it in: the release's files (data beside the notebook) and their notebook."""
    folder = course / "submitted" / student / assignment
    shutil.copytree(course / "release" / assignment, folder)
    for notebook in folder.glob("*.ipynb"):
        if student == CORRECT:
            shutil.copy(course / "source" / assignment / notebook.name, notebook)
            continue
        released = nbformat.read(notebook, as_version=4)
        for cell in released.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in SAMPLES[student][assignment]["cells"]:
                cell.source = SAMPLES[student][assignment]["cells"][grade_id]
        nbformat.write(released, notebook)


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory):
    """One round trip for every assignment: one `generate_assignment` and one `autograde` call.

    nbgrader takes the assignment id as a file glob, so "*" releases (and adds to the gradebook)
    every assignment in source/ at once, and autograde grades every submission of the three students
    (whom it adds itself) in one process: two interpreter starts. Each submitted notebook still runs
    in its own fresh kernel, as nbgrader grades it for a class.
    """
    course = tmp_path_factory.mktemp("course")
    shutil.copytree(COURSE / "source", course / "source")
    shutil.copy(COURSE / "nbgrader_config.py", course / "nbgrader_config.py")
    nbgrader(course, "generate_assignment", "*", "--force")
    for assignment in ASSIGNMENTS:
        for student in STUDENTS:
            submit(course, assignment, student)
    nbgrader(course, "autograde", "*", "--force")
    return course


def grade_cells(assignment: str) -> dict[str, float]:
    """The grade cells of an assignment's source and their points."""
    notebook = nbformat.read(COURSE / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    return {
        cell.metadata["nbgrader"]["grade_id"]: cell.metadata["nbgrader"]["points"]
        for cell in notebook.cells
        if cell.metadata.get("nbgrader", {}).get("grade")
    }


def test_the_round_trip_released_and_graded_every_assignment_for_every_student(graded_course):
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        assert sorted(assignment.name for assignment in gradebook.assignments) == ASSIGNMENTS
        assert sorted(student.id for student in gradebook.students) == sorted(STUDENTS)
    for assignment in ASSIGNMENTS:
        assert sorted(path.name for path in (graded_course / "release" / assignment).glob("*.ipynb"))
        for student in STUDENTS:
            assert sorted((graded_course / "autograded" / student / assignment).glob("*.ipynb"))


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_assignment_has_a_sample_that_names_every_grade_cell(sample):
    assert set(ASSIGNMENTS) == set(SAMPLES[sample]) - {"_about"}
    for assignment in ASSIGNMENTS:
        spec = SAMPLES[sample][assignment]
        cells = grade_cells(assignment)
        assert set(spec["points"]) == set(cells), assignment
        assert all(0 <= points <= cells[cell] and reason for cell, (points, reason) in spec["points"].items())
        assert spec["score"] == sum(points for points, _ in spec["points"].values()) < sum(cells.values())


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_points_per_sub_check_a_variant_and_no_bare_assert(assignment):
    notebook = nbformat.read(COURSE / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    assert len(grade_cells(assignment)) >= 5, f"{assignment}: points per sub-check, not one cell per part"
    assert "STUDENT_SEED" in notebook.cells[1].source, f"{assignment} draws no per-student variant"
    assert f'or "{CORRECT}"' in notebook.cells[1].source, f"{assignment}: student_id() falls back to {CORRECT!r}"
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            bare = [
                node.lineno
                for node in ast.walk(ast.parse(cell.source))
                if isinstance(node, ast.Assert) and node.msg is None
            ]
            assert not bare, (
                f"{assignment} {cell.metadata['nbgrader']['grade_id']}: assert without a message, line {bare}"
            )
            assert "### BEGIN HIDDEN TESTS" in cell.source, (
                f"{cell.metadata['nbgrader']['grade_id']} has no hidden test"
            )


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_hides_solutions_and_hidden_tests(graded_course, assignment):
    source = nbformat.read(COURSE / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    hidden_lines = {
        line.strip()
        for cell in source.cells
        for block in HIDDEN.findall(cell.source)
        for line in block.splitlines()
        if len(line.strip()) > 30
    }
    for notebook in (graded_course / "release" / assignment).glob("*.ipynb"):
        text = notebook.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
        assert "raise NotImplementedError()" in text
        released = "\n".join(cell.source for cell in nbformat.read(notebook, as_version=4).cells)
        assert hidden_lines and not [line for line in hidden_lines if line in released]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_ships_the_files_beside_the_notebook(graded_course, assignment):
    # a6's playtest files (data/) go out with the notebook, so the student's code and the autograder read them
    source = {
        p.relative_to(COURSE / "source" / assignment)
        for p in (COURSE / "source" / assignment).rglob("*")
        if p.is_file()
    }
    released = {
        p.relative_to(graded_course / "release" / assignment)
        for p in (graded_course / "release" / assignment).rglob("*")
        if p.is_file()
    }
    assert source == released


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_autograder_gives_the_correct_submission_full_marks(graded_course, assignment):
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        correct = gradebook.find_submission(assignment, CORRECT)
        assert correct.max_score == sum(grade_cells(assignment).values()) > 0
        assert correct.score == correct.max_score


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_correct_submission_runs_every_cell_without_an_error(graded_course, assignment):
    # nbgrader runs on after an error (a failed grade cell scores 0); an error outside a grade cell
    # would not show in the marks, so every cell's outputs are read
    notebooks = sorted((graded_course / "autograded" / CORRECT / assignment).glob("*.ipynb"))
    assert notebooks
    for path in notebooks:
        cells = [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
        assert cells, path.name
        errors = [
            (index, output.get("ename"), output.get("evalue"))
            for index, cell in enumerate(cells)
            for output in cell.outputs
            if output.output_type == "error"
        ]
        assert errors == [], f"{path.name}: {errors}"


@pytest.mark.parametrize("student", sorted(SAMPLES))
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_autograder_scores_each_check_of_the_sample_submissions(graded_course, assignment, student):
    expected = SAMPLES[student][assignment]
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(assignment, student)
        scores = {grade.name: grade.score for notebook in submission.notebooks for grade in notebook.grades}
        assert scores == {cell: points for cell, (points, _) in expected["points"].items()}, expected["points"]
        assert submission.score == expected["score"] < submission.max_score


def test_the_playtest_report_ships_the_class_files_of_session_11():
    # a6's data/ is a copy of the files session 11 analyses: if those are regenerated, copy them again
    shipped = COURSE / "source" / "a6_playtest_report" / "data"
    session = ROOT / "notebooks" / "course" / "data" / "playtests"
    assert sorted(p.name for p in shipped.glob("*.jsonl")) == sorted(p.name for p in session.glob("*.jsonl"))
    assert all((shipped / p.name).read_bytes() == p.read_bytes() for p in session.glob("*.jsonl"))
