"""A small table of rows for printing in a notebook (text and HTML), without pandas."""

from __future__ import annotations

import html
from typing import Any, Sequence


class Table:
    """Rows of named values; ``str`` aligns them, a notebook shows them as an HTML table."""

    def __init__(self, rows: Sequence[dict], columns: Sequence[str] | None = None):
        self.rows = [dict(row) for row in rows]
        self.columns = list(columns or (self.rows[0] if self.rows else []))

    def column(self, name: str) -> list:
        return [row[name] for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def _cells(self) -> list[list[str]]:
        return [[_format(row.get(column, "")) for column in self.columns] for row in self.rows]

    def __str__(self) -> str:
        cells = [list(self.columns)] + self._cells()
        widths = [max(len(line[i]) for line in cells) for i in range(len(self.columns))]
        return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in cells)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(column)}</th>" for column in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in line) + "</tr>" for line in self._cells()
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _format(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
