"""What a student reads in a lesson holds no test plumbing (issue 10): nbval's markers are cell tags."""

import json
import re
from pathlib import Path

MARKER = re.compile(r"^\s*#\s*NBVAL_[A-Z_]+\s*$")  # the comment form nbval also reads

ROOT = Path(__file__).resolve().parents[1]


def test_no_lesson_carries_nbval_comments_in_its_cells():
    offending = []
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "code" and any(MARKER.match(line) for line in "".join(cell["source"]).split("\n")):
                offending.append(f"{path.relative_to(ROOT)} cell {index}")
    assert not offending, "run python tools/nbval_tags.py notebooks: " + ", ".join(offending)


def test_tagged_cells_are_compared_by_nbval():
    tagged = sum(
        "nbval-check-output" in cell.get("metadata", {}).get("tags", [])
        for path in (ROOT / "notebooks").rglob("*.ipynb")
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
    )
    assert tagged >= 98  # the 98 comment markers of issue 10, now tags, plus newer ones
