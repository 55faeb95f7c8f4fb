"""Without make: the README's plain-pip route, in a fresh venv, outside the repository.

The package is installed non-editable (as a teacher on Windows or macOS does with
``pip install ".[lab]"``), then one lesson runs top to bottom from a copy of the notebooks in a
folder that has nothing to do with the checkout, so only the installed package can serve it.
The test installs the kernel and the notebook runner (ipykernel, nbclient) beside gamelib instead
of the whole `lab` extra: JupyterLab adds nothing a lesson's cells use, and takes minutes to
install on a busy machine.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import venv

from deploy_support import ROOT, isolated_env, record_timing

LESSON = "chakra/02_scoring.ipynb"  # a lesson with a board, exact fractions and no long simulation


def test_a_fresh_venv_with_a_plain_install_runs_a_lesson_from_a_copy(tmp_path):
    environment = tmp_path / "venv"
    started = time.monotonic()
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-compile",  # not every installed module byte-compiled: Python compiles those the lesson imports
            str(ROOT),
            "ipykernel",
            "nbclient",
        ],
        check=True,
        cwd=tmp_path,
        stderr=subprocess.DEVNULL,
    )
    record_timing("pip", "fresh_venv", "install_s", round(time.monotonic() - started, 1))

    where = subprocess.run(
        [str(python), "-c", "import gamelib; print(gamelib.__file__)"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert where.startswith(str(environment)), f"gamelib came from {where}, not the fresh venv"

    lessons = tmp_path / "my lessons"
    shutil.copytree(ROOT / "notebooks", lessons, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    notebook = lessons / LESSON
    started = time.monotonic()
    run_lesson = (
        "import sys, nbformat, nbclient\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        "nbclient.NotebookClient(nb, kernel_name='python3', timeout=600,\n"
        "                        resources={'metadata': {'path': sys.argv[3]}}).execute()\n"
        "nbformat.write(nb, sys.argv[2])\n"
    )
    subprocess.run(
        [str(python), "-c", run_lesson, str(notebook), str(notebook.parent / "ran.ipynb"), str(notebook.parent)],
        check=True,
        cwd=tmp_path,
        env=isolated_env(tmp_path),
        capture_output=True,
    )
    record_timing("pip", "fresh_venv", "lesson_s", round(time.monotonic() - started, 1))
    cells = json.loads((notebook.parent / "ran.ipynb").read_text())["cells"]
    errors = [o for c in cells if c["cell_type"] == "code" for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert errors == []
    board_views = [
        o
        for c in cells
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert board_views, "the lesson's board should have been displayed"
    assert sys.prefix != str(environment)
