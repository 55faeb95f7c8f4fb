"""Where a lesson's cells stand (issue 23): a cell that announces a table must be followed by that table,
and a check must sit in the section it checks. Read from the committed notebooks, no kernel needed."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cells_of(notebook: str) -> list[dict]:
    cells = json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
    return [{**cell, "text": "".join(cell["source"])} for cell in cells]


def section_of(cells: list[dict], index: int) -> str:
    """The last level-2 heading at or above cell ``index``."""
    for cell in reversed(cells[: index + 1]):
        if cell["cell_type"] == "markdown":
            headings = [line for line in cell["text"].splitlines() if line.startswith("## ")]
            if headings:
                return headings[-1]
    return ""


def test_pangu03_correlation_table_follows_its_announcement():
    cells = cells_of("notebooks/pangu/03_karma_odds.ipynb")
    announced = [i for i, cell in enumerate(cells) if cell["text"].rstrip().endswith("Exactly, with the stuck rule:")]
    assert len(announced) == 1
    following = cells[announced[0] + 1]
    assert following["cell_type"] == "code" and "odds.correlation" in following["text"]


def test_pangu03_last_card_solver_check_sits_in_the_last_card_section():
    cells = cells_of("notebooks/pangu/03_karma_odds.ipynb")
    check = next(i for i, cell in enumerate(cells) if "def before_the_final_roll" in cell["text"])
    assert section_of(cells, check).startswith("## 3. The last card")


def test_chakra02_tie_example_is_a_tied_run_with_two_bonuses():
    import re

    cells = cells_of("notebooks/chakra/02_scoring.ipynb")
    announced = next(i for i, cell in enumerate(cells) if "tie for the longest **run**" in cell["text"])
    printed = "".join("".join(output.get("text", "")) for output in cells[announced + 1]["outputs"])
    runs = re.findall(r"run (\d+)", printed)
    bonuses = re.findall(r"bonus (\d+)", printed)
    assert len(runs) == 2 and runs[0] == runs[1] != "0", printed
    assert bonuses == ["2", "2"], printed
