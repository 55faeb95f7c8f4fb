"""The slice of a solved notebook that its exercises depend on (tools/solution_slice.py, issue 26).

test_course_solutions_run.py runs only these cells of each solved copy (nbval runs every cell of the
student notebooks). Each case here is a small notebook whose last cell is the exercise; the oracle is
Python itself: the exercise's value after running every cell must equal its value after running the
slice (skipped cells reduced to their imports), and the case's cell that changes that value, if
skipped, must be kept. The expensive cell that does not matter must be dropped, or the slice saves
nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = importlib.util.spec_from_file_location("solution_slice", ROOT / "tools" / "solution_slice.py")
SLICE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(SLICE)

UNRELATED = "expensive = sum(range(10))"
# (case, cells; the last is the exercise and binds `answer`; the index of the cell that must be kept)
CASES = [
    ("a binding read by the exercise", ["import math", UNRELATED, "base = 4", "answer = math.sqrt(base)"], 2),
    ("a later rebinding comes before", ["base = 4", UNRELATED, "base = 9", "answer = base"], 2),
    ("a method call changes the object", ["hand = [1]", UNRELATED, "hand.append(2)", "answer = list(hand)"], 2),
    ("a second name for the object", ["hand = [1]", "other = hand", UNRELATED, "other.append(2)", "answer = hand"], 3),
    ("an item stored into it", ["board = [0, 0]", UNRELATED, "board[0] = 5", "answer = tuple(board)"], 2),
    (
        "a seeded stream drawn from",
        ["import random\nrng = random.Random(1)", UNRELATED, "rng.random()", "answer = rng.random()"],
        2,
    ),
    (
        "a function that changes what it reads",
        ["log = []", "def note(x):\n    log.append(x)", UNRELATED, "note(3)", "answer = list(log)"],
        3,
    ),
    ("a function bound twice", ["def f():\n    return 1", UNRELATED, "def f():\n    return 2", "answer = f()"], 2),
    (
        "a class attribute changed",
        ["class Tally:\n    count = 0", UNRELATED, "Tally.count += 1", "answer = Tally.count"],
        2,
    ),
    (
        "a module attribute set",
        ["import math\nmath.extra = 0", UNRELATED, "import math\nmath.extra = 3", "answer = math.extra"],
        2,
    ),
    ("a name imported only in a skipped cell", [UNRELATED + "\nfrom math import tau", "answer = tau"], None),
    ("a pair of constants bound again", ["A, B = 1, 2", UNRELATED, "A, B = 3, 4", "answer = A + B"], 2),
]


def answer(cells: list[str]):
    """The exercise's ``answer`` after running the cells in one namespace, or the error it meets."""
    namespace = {}
    try:
        for source in cells:
            exec(compile(source, "<cell>", "exec"), namespace)
    except NameError as error:
        return error.name
    return namespace["answer"]


def notebook_of(cells: list[str]):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])


@pytest.mark.parametrize(("case", "cells", "needed"), CASES, ids=[case for case, _, _ in CASES])
def test_the_slice_gives_the_exercise_the_value_the_full_notebook_gives(case, cells, needed):
    exercise = len(cells) - 1
    sliced, kept = SLICE.slice_for_exercises(notebook_of(cells), [exercise])
    assert answer([cell.source for cell in sliced.cells]) == answer(cells), case
    if needed is not None:
        assert needed in kept, case
        without = [source if index != needed else "" for index, source in enumerate(cells)]
        assert answer(without) != answer(cells), f"{case}: the case does not need cell {needed}"
    assert cells.index(UNRELATED) not in kept if UNRELATED in cells else kept == [exercise], case


def test_a_cell_reading_a_solution_is_kept_and_unrelated_cells_are_not():
    cells = ["values = [1, 2]", UNRELATED, "answer = sum(values)", "shown = answer * 2", "other = 1"]
    _, kept = SLICE.slice_for_exercises(notebook_of(cells), [2])
    assert kept == [0, 2, 3]


def test_a_literal_constant_read_does_not_keep_a_cell():
    cells = ["GAMES = 40", "spent = [GAMES] * 3", "answer = GAMES + 1"]
    assert SLICE.kept_cells(notebook_of(cells), [2]) == [0, 2]


def test_constants_unpacked_from_literals_do_not_keep_a_cell():
    # course 06: ``Z_ALPHA, Z_POWER = 1.96, 0.84`` once, read by a function the exercises call
    cells = [
        "Z, W = 1.96, 0.84",
        "def spread(p):\n    return Z * p + W",
        "spent = [spread(1)] * 3",
        "answer = spread(2)",
    ]
    assert SLICE.kept_cells(notebook_of(cells), [3]) == [0, 1, 3]


@pytest.mark.parametrize(
    "binding", ["HAND, N = [1], 2", "HAND, *N = [1], 2", "HAND = N = [1]", "(HAND, N), M = ([1], 2), 3"]
)
def test_a_mutable_or_starred_unpacking_keeps_the_cells_that_read_it(binding):
    cells = [binding, "spent = sorted(HAND)", "answer = HAND[0]"]
    assert SLICE.kept_cells(notebook_of(cells), [2]) == [0, 1, 2]


def test_a_skipped_cell_keeps_its_imports_in_place():
    sliced, kept = SLICE.slice_for_exercises(notebook_of(["import math\nwaste = math.factorial(9)", "answer = 1"]), [1])
    assert kept == [1]
    assert sliced.cells[0].source == "import math"


@pytest.mark.parametrize(
    "hidden",
    ["random.seed(3)", "x = random.choice([1, 2])", "import numpy as np\nnp.random.seed(1)", "%time x = 1"],
)
def test_state_no_name_shows_keeps_every_cell(hidden):
    cells = ["x = 1", hidden, UNRELATED, "answer = x"]
    assert SLICE.kept_cells(notebook_of(cells), [3]) == [0, 1, 2, 3]


def test_a_global_declaration_keeps_every_cell():
    cells = ["x = 1", "def bump():\n    global x\n    x += 1", "bump()", "answer = x"]
    assert SLICE.kept_cells(notebook_of(cells), [3]) == [0, 1, 2, 3]
