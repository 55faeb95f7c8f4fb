"""The graded assignments survive nbgrader's round trip (issue 14).

For every assignment in notebooks/course/assignments/source, in a temporary copy of the
course folder: nbgrader makes the student release, a correct submission (the instructor's
source, solutions included) and a wrong one (the release with the sample wrong code of
tests/data/course/wrong_answers.json) are autograded, and the gradebook must give the correct
one full marks and the wrong one exactly the score written beside its code. The released
notebook must not contain any solution or hidden test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "notebooks" / "course" / "assignments"
WRONG = json.loads((ROOT / "tests" / "data" / "course" / "wrong_answers.json").read_text(encoding="utf-8"))
ASSIGNMENTS = sorted(path.name for path in (COURSE / "source").iterdir() if path.is_dir())


def nbgrader(course: Path, *arguments: str) -> None:
    environment = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    result = subprocess.run([sys.executable, "-m", "nbgrader", *arguments], cwd=course, env=environment,
                            capture_output=True, text=True)
    # The exit code is the verdict: ipykernel may log a harmless error while a grading kernel shuts
    # down (a ZMQError on a closed socket), and whether each notebook really ran is judged by the
    # scores in the gradebook below, which a failed execution cannot fake.
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.fixture(scope="module")
def graded_course(tmp_path_factory):
    """One round trip for every assignment: one `generate_assignment` and one `autograde` call.

    nbgrader takes the assignment id as a file glob, so "*" releases (and adds to the gradebook)
    every assignment in source/ at once, and autograde grades every submission of both students
    (whom it adds itself) in one process: two interpreter starts instead of fourteen. Each
    submitted notebook still runs in its own fresh kernel, as nbgrader grades it for a class.
    """
    course = tmp_path_factory.mktemp("course")
    shutil.copytree(COURSE / "source", course / "source")
    shutil.copy(COURSE / "nbgrader_config.py", course / "nbgrader_config.py")
    nbgrader(course, "generate_assignment", "*", "--force")
    for assignment in ASSIGNMENTS:
        for notebook in (course / "release" / assignment).glob("*.ipynb"):
            correct = course / "submitted" / "correct" / assignment
            wrong = course / "submitted" / "wrong" / assignment
            correct.mkdir(parents=True, exist_ok=True)
            wrong.mkdir(parents=True, exist_ok=True)
            shutil.copy(course / "source" / assignment / notebook.name, correct / notebook.name)
            released = nbformat.read(notebook, as_version=4)
            for cell in released.cells:
                grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
                if grade_id in WRONG[assignment]["cells"]:
                    cell.source = WRONG[assignment]["cells"][grade_id]
            nbformat.write(released, wrong / notebook.name)
    nbgrader(course, "autograde", "*", "--force")
    return course


def test_the_round_trip_released_and_graded_every_assignment_for_both_students(graded_course):
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        assert sorted(assignment.name for assignment in gradebook.assignments) == ASSIGNMENTS
        assert sorted(student.id for student in gradebook.students) == ["correct", "wrong"]
    for assignment in ASSIGNMENTS:
        assert sorted(path.name for path in (graded_course / "release" / assignment).glob("*.ipynb"))
        for student in ("correct", "wrong"):
            assert sorted((graded_course / "autograded" / student / assignment).glob("*.ipynb"))


def test_every_assignment_has_a_wrong_sample():
    assert ASSIGNMENTS and set(ASSIGNMENTS) <= set(WRONG)


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_hides_solutions_and_hidden_tests(graded_course, assignment):
    for notebook in (graded_course / "release" / assignment).glob("*.ipynb"):
        text = notebook.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
        assert "raise NotImplementedError()" in text


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_autograder_scores_correct_and_wrong_submissions(graded_course, assignment):
    with Gradebook(f"sqlite:///{graded_course / 'gradebook.db'}") as gradebook:
        correct = gradebook.find_submission(assignment, "correct")
        wrong = gradebook.find_submission(assignment, "wrong")
        assert correct.max_score > 0 and correct.score == correct.max_score
        assert wrong.score == WRONG[assignment]["score"] < wrong.max_score
