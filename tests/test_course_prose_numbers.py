"""Every number in a course session's prose is computed by the notebook (issue 23): a result the outputs print
(a decimal, a percentage with decimals, an exact fraction with a denominator of 10 or more) is never typed again
into a Markdown cell, where it would go stale when the computation changes. Cells that interpret results render
them from the computed values (IPython Markdown) or point to the output line."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = sorted((ROOT / "notebooks" / "course").glob("[01][0-9]_*.ipynb"))
RESULT = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d+(?:e-?\d+)?%?|\d+/\d{2,})(?!\w)")


def printed(cells) -> str:
    texts = []
    for cell in cells:
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            texts.append("".join(output.get("text", "")))
            for kind in ("text/plain", "text/markdown"):
                texts.append("".join(output.get("data", {}).get(kind, "")))
    return " ".join(texts)


def typed_results(cells) -> list[tuple[int, str]]:
    shown = printed(cells)
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            prose = re.sub(r"`[^`]*`", "", "".join(cell["source"]))  # code spans name things, they state no result
            found += [(index, token) for token in RESULT.findall(prose) if token.lstrip("+") in shown]
    return found


@pytest.mark.parametrize("session", SESSIONS, ids=lambda path: path.stem)
def test_no_printed_result_is_typed_into_the_prose(session):
    cells = json.loads(session.read_text(encoding="utf-8"))["cells"]
    assert typed_results(cells) == []


def test_the_scan_finds_a_typed_result():
    # the capstone's old interpretation paragraph (26.0% typed beside the output that prints it) is caught
    cells = [
        {"cell_type": "code", "source": "", "outputs": [{"output_type": "stream", "text": "variant 26.0% (n=300)"}]},
        {"cell_type": "markdown", "source": "The variant's win rate is 26.0% on 300 deals, 9/256 of them."},
    ]
    assert typed_results(cells) == [(1, "26.0%")]
