"""Every solution in the solved notebooks makes its check say right, in a kernel reset between copies (issue 14).

A solved copy is its student notebook with the exercise cells filled in (tools/make_solutions.py;
test_course_solutions.py checks that each copy is a fresh generation, so every other cell is the
student's, byte for byte). nbval runs every cell of the student notebooks in `make test`; what only
the solved copy can show is that each solution says right. So each copy runs only the cells its
exercises depend on (tools/solution_slice.py: the exercise cells, every cell that binds or may
change a name they read, followed back to the start, and every cell that reads what a solution
binds; every import statement runs in its place), in order. The slice's rules are tested on small
notebooks in test_course_solutions_slice.py. This file runs in `make test-long`.

The copies share one kernel (issue 26: a kernel start and the imports of gamelib and matplotlib cost
about 2.4 CPU-seconds, more than most slices). Before each copy the kernel is brought back to what a
fresh one holds, as far as a solution could read it: its namespace wiped (``%reset -f``, checked
empty), its folder the copy's own, its figures closed, and the global
random streams seeded from the operating system. Modules stay imported: gamelib keeps no mutable state
at module level (README, "one way to build a state"), so an earlier copy leaves nothing a solution reads.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from test_course_solutions import RIGHT, ROOT, SOURCES, TOOL, shown_text

_SPEC = importlib.util.spec_from_file_location("solution_slice", ROOT / "tools" / "solution_slice.py")
SLICE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(SLICE)


# run first in each copy's kernel turn: what a fresh kernel would hold, as far as a solution could read it
FRESH = """\
%reset -f
import os as _os
_os.chdir({folder!r})
import matplotlib.pyplot as _plt
_plt.close("all")
import random as _random
import numpy as _numpy
_random.seed()
_numpy.random.seed()
_left = [name for name in get_ipython().user_ns if not name.startswith("_") and name not in get_ipython().user_ns_hidden]
assert not _left, f"names left by an earlier notebook: {{_left}}"
del _os, _plt, _random, _numpy, _left
"""


@pytest.fixture(scope="module")
def shared_kernel():
    """One kernel for every solved copy of the file; each copy runs after :data:`FRESH`."""
    client = NotebookClient(nbformat.v4.new_notebook(), timeout=600, kernel_name="python3")
    client.execute(cleanup_kc=False)  # starts the kernel and keeps it
    yield client
    run_sync(client._async_cleanup_kernel)()


def run_in(client: NotebookClient, notebook, folder: Path):
    """Executes ``notebook`` in the shared kernel after the reset cell; returns it without that cell."""
    notebook.cells.insert(0, nbformat.v4.new_code_cell(FRESH.format(folder=str(folder))))
    client.nb = notebook
    try:
        client.execute(cleanup_kc=False)
    finally:
        reset = notebook.cells.pop(0)
    assert not [output for output in reset.outputs if output.output_type == "error"], reset.outputs
    return notebook


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_every_solution_makes_its_check_say_right(source, shared_kernel):
    notebook, student = TOOL.solved(source)
    # the solved copy has the banner cell first, so each exercise sits one cell further down
    exercises = [
        (index + 1, question, variable)
        for index, question, variable in TOOL.exercise_cells(nbformat.read(ROOT / student, as_version=4))
    ]
    tagged = TOOL.tagged_cells(notebook)
    assert exercises or tagged
    sliced, _ = SLICE.slice_for_exercises(notebook, [index for index, _, _ in exercises] + [i for i, _ in tagged])
    run_in(shared_kernel, sliced, (ROOT / student).parent)
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
