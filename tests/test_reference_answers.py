"""The instructor's reference answers page (docs/teaching/reference_answers.md, issue 23) is what
tools/reference_answers.py writes: a short run of the same function gives the same page layout, and the
committed page holds one row per player count with the tool's game counts."""

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("reference_answers", ROOT / "tools" / "reference_answers.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def table_rows(text: str) -> list[list[str]]:
    lines = [line for line in text.splitlines() if re.match(r"\| \d ", line)]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_committed_page_has_a_row_per_player_count_with_the_tools_games():
    rows = table_rows(tool.PAGE.read_text(encoding="utf-8"))
    assert [(int(r[0]), int(r[1])) for r in rows] == list(tool.GAMES.items())
    for players, _, first, interval, fair, _, inside in rows:
        low, high = (float(x.rstrip("%")) for x in interval.split(" to "))
        assert low <= float(first.rstrip("%")) <= high
        assert fair == f"{100 / int(players):.1f}%"
        assert inside == ("yes" if low <= 100 / int(players) <= high else "no")


def test_a_short_run_writes_the_same_layout():
    rows = tool.chakra_first_seat_rows({2: 2, 3: 1}, workers=1)
    text = tool.page(rows, "test")
    assert [r[:2] for r in table_rows(text)] == [["2", "2"], ["3", "1"]]
    committed = tool.PAGE.read_text(encoding="utf-8")
    assert text.splitlines()[5:12] == committed.splitlines()[5:12]  # the heading, the method and the table header
