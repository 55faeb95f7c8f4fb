"""Move nbval's comment markers out of the teaching text into cell tags.

nbval reads ``# NBVAL_CHECK_OUTPUT`` (and its other markers) either as a comment in the
cell or as a cell tag (``nbval-check-output``). A student should not read test plumbing,
so the lessons use tags. Run ``python tools/nbval_tags.py notebooks`` after writing cells
with the comment form; ``tests/test_notebooks_clean.py`` checks that none is left.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

MARKER = re.compile(r"^\s*#\s*(NBVAL_[A-Z_]+)\s*$")


def tag_of(marker: str) -> str:
    return marker.lower().replace("_", "-")


def move_markers(notebook: dict) -> int:
    """Replace marker comment lines of every code cell by tags; return how many moved."""
    moved = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]).split("\n")
        kept = [line for line in source if not MARKER.match(line)]
        markers = [MARKER.match(line).group(1) for line in source if MARKER.match(line)]
        if not markers:
            continue
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        for marker in markers:
            if tag_of(marker) not in tags:
                tags.append(tag_of(marker))
        text = "\n".join(kept)
        cell["source"] = [line + "\n" for line in text.split("\n")[:-1]] + [text.split("\n")[-1]]
        cell["source"] = [part for part in cell["source"] if part]
        moved += len(markers)
    return moved


def main(folders: list[str]) -> None:
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.ipynb")):
            if ".ipynb_checkpoints" in path.parts:
                continue
            notebook = json.loads(path.read_text(encoding="utf-8"))
            moved = move_markers(notebook)
            if moved:
                path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
                print(f"{path}: {moved} marker(s) moved to tags")


if __name__ == "__main__":
    main(sys.argv[1:] or ["notebooks"])
