"""`make lab` opens each user's own copy of the lessons, so Lab's autosave never rewrites the
committed notebooks (issue 10): tools/working_copy.py makes it on the first run, tops it up with
new lessons without touching the user's work, says which originals changed, and refreshes one
lesson on request while keeping the user's version aside."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("working_copy", ROOT / "tools" / "working_copy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()


def originals(tmp_path: Path) -> Path:
    folder = tmp_path / "notebooks"
    (folder / "pangu").mkdir(parents=True)
    (folder / "00_start_here.ipynb").write_text("start v1")
    (folder / "pangu" / "01.ipynb").write_text("pangu v1")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "00_start_here-checkpoint.ipynb").write_text("stale")
    return folder


def test_the_first_run_copies_every_lesson_and_no_checkpoint(tmp_path):
    source, copy = originals(tmp_path), tmp_path / "my_notebooks"
    copied, changed = TOOL.top_up(source, copy)
    assert copied == ["00_start_here.ipynb", "pangu/01.ipynb"] and changed == []
    assert (copy / "pangu" / "01.ipynb").read_text() == "pangu v1"
    assert not (copy / ".ipynb_checkpoints").exists()


def test_a_later_run_keeps_the_users_work_adds_new_lessons_and_names_changed_originals(tmp_path):
    source, copy = originals(tmp_path), tmp_path / "my_notebooks"
    TOOL.top_up(source, copy)
    (copy / "pangu" / "01.ipynb").write_text("pangu v1, with my answers")  # Lab's autosave
    (source / "pangu" / "01.ipynb").write_text("pangu v2")  # git pull
    (source / "pangu" / "02.ipynb").write_text("pangu 02 v1")  # a new lesson
    copied, changed = TOOL.top_up(source, copy)
    assert copied == ["pangu/02.ipynb"]
    assert changed == ["pangu/01.ipynb"]
    assert (copy / "pangu" / "01.ipynb").read_text() == "pangu v1, with my answers"
    assert (source / "pangu" / "01.ipynb").read_text() == "pangu v2", "the originals are never written"


def test_refresh_takes_the_original_and_keeps_the_users_copy_aside(tmp_path):
    source, copy = originals(tmp_path), tmp_path / "my_notebooks"
    TOOL.top_up(source, copy)
    (copy / "pangu" / "01.ipynb").write_text("my answers")
    (source / "pangu" / "01.ipynb").write_text("pangu v2")
    TOOL.refresh(["pangu/01.ipynb"], source, copy)
    assert (copy / "pangu" / "01.ipynb").read_text() == "pangu v2"
    kept = list((copy / TOOL.REPLACED).rglob("01.ipynb"))
    assert [p.read_text() for p in kept] == ["my answers"]
    assert TOOL.top_up(source, copy) == ([], []), "after a refresh the lesson is no longer reported as changed"


def test_lesson_names_are_accepted_with_either_folder_in_front():
    assert TOOL.relative_name("notebooks/pangu/01.ipynb") == "pangu/01.ipynb"
    assert TOOL.relative_name("my_notebooks/pangu/01.ipynb") == "pangu/01.ipynb"
    assert TOOL.relative_name("pangu/01.ipynb") == "pangu/01.ipynb"


def test_the_copy_sits_at_the_depth_of_the_originals_and_git_ignores_it():
    # The start page links to ../docs/...: the same depth keeps those links working in the copy.
    assert TOOL.COPY.parent == TOOL.ORIGINALS.parent
    ignored = subprocess.run(["git", "check-ignore", "-q", "my_notebooks/00_start_here.ipynb"], cwd=ROOT)
    assert ignored.returncode == 0
