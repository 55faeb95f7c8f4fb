"""The shipped turn-start tables of the default rules: writing, checksum and loading (pure Python + numpy).

numpy is imported only when a table is written or read, so the Pangu board imports without it (the
browser-only site serves numpy from the Pyodide CDN alone): where numpy is missing, reading the table
raises :class:`NumpyMissing` (a :class:`SolverTableError`) saying that exact values need numpy, and the
board says so.

``data/solver_default.npz`` holds, per level (3 and 6 cards placed), the sorted packed keys
``F | C << 10 | D << 20`` and the value numerators for Karma 1..10 (stored as differences along
Karma, which are small and non-negative because every row is monotone), plus the root row.
``data/solver_default.json`` holds the scales (denominators) and the file's SHA-256; a file
whose checksum differs is refused with an error naming it, never read.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

DATA = Path(__file__).with_name("data")
TABLE_PATH = DATA / "solver_default.npz"
META_PATH = DATA / "solver_default.json"
SHIPPED_LEVELS = (0, 3, 6)


class SolverTableError(RuntimeError):
    """A shipped solver table is missing or damaged, or cannot be read here (no numpy)."""


class NumpyMissing(SolverTableError):
    """The table cannot be read in this Python: numpy is not installed (the browser-only site offline)."""


def _numpy():
    """numpy, imported on first use (see the module docstring)."""
    try:
        import numpy
    except ImportError as error:
        raise NumpyMissing("exact values are not available here: reading the solver's table needs numpy, "
                               "which this Python does not have") from error
    return numpy


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_tables(tables, path: Path = TABLE_PATH, meta_path: Path = META_PATH) -> None:
    """Write the levels of a solved default game (``solver_build.Tables``); values must be whole."""
    np = _numpy()
    arrays, scales = {}, {}
    for level in SHIPPED_LEVELS:
        keys, rows = tables.values[level]
        whole = np.rint(rows)
        if not np.array_equal(whole, rows) or rows.max() >= 2 ** 53:
            raise ValueError(f"level {level} holds values that are not exact whole numerators")
        numerators = whole[:, 1:].astype(np.int64)
        if (np.diff(numerators, axis=1) < 0).any():
            raise ValueError(f"level {level} has a row that is not monotone in Karma")
        order = np.argsort(keys)
        deltas = np.diff(numerators[order], axis=1, prepend=0)
        kind = np.uint32 if deltas.max() < 2 ** 32 else np.int64
        arrays[f"keys{level}"] = keys[order].astype(np.int32)
        arrays[f"deltas{level}"] = deltas.astype(kind)
        scales[str(level)] = int(tables.scales[level])
    np.savez_compressed(path, **arrays)
    meta = {"file": path.name, "sha256": sha256_of(path), "scales": scales, "karma": 10,
            "rules": "default", "root": str(tables.root()),
            "turn_start_keys": {str(level): len(tables.keys[level]) for level in tables.keys},
            "stuck_entries": {str(level): count for level, count in tables.stuck_entries.items()}}
    if meta_path.exists():  # keep the bots' values written by record_bot_value
        meta["bots"] = json.loads(meta_path.read_text()).get("bots", {})
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")


class ShippedTables:
    """Lookups ``value(level, F, C, D, karma) -> Fraction`` in the verified shipped file."""

    def __init__(self, path: Path = TABLE_PATH, meta_path: Path = META_PATH):
        np = _numpy()
        if not path.exists() or not meta_path.exists():
            raise SolverTableError(f"the solver table {path} (or its checksum file {meta_path.name}) is missing")
        meta = json.loads(meta_path.read_text())
        actual = sha256_of(path)
        if actual != meta["sha256"]:
            raise SolverTableError(f"the solver table {path} is damaged: its SHA-256 is {actual[:16]}..., "
                                   f"expected {meta['sha256'][:16]}... (reinstall the package or rebuild it with "
                                   f"python -m gamelib.pangu.solver_build --write)")
        try:
            with np.load(path) as data:
                self.keys = {level: data[f"keys{level}"] for level in SHIPPED_LEVELS}
                self.rows = {level: np.cumsum(data[f"deltas{level}"].astype(np.int64), axis=1)
                             for level in SHIPPED_LEVELS}
        except (OSError, KeyError, ValueError) as error:
            raise SolverTableError(f"the solver table {path} cannot be read: {error}") from error
        self.scales = {int(level): scale for level, scale in meta["scales"].items()}
        self.karma = meta["karma"]
        self.bot_values = {name: Fraction(value) for name, value in meta.get("bots", {}).items()}
        self.path = path

    def has(self, level: int) -> bool:
        return level in self.keys

    def numerators(self, level: int, filled: int, colours: int, unplaced: int) -> list[int]:
        """The row for Karma 1..10 (numerators over ``scales[level]``)."""
        key = filled | colours << 10 | unplaced << 20
        keys = self.keys[level]
        at = int(keys.searchsorted(keys.dtype.type(key)))  # a Python int would cast the whole array first
        if at >= len(keys) or keys[at] != key:
            raise KeyError(f"no turn-start key F={filled:#x} C={colours:#x} D={unplaced:#x} at level {level}")
        return [int(v) for v in self.rows[level][at]]

    def value(self, level: int, filled: int, colours: int, unplaced: int, karma: int) -> Fraction:
        if karma <= 0:
            return Fraction(0)
        return Fraction(self.numerators(level, filled, colours, unplaced)[karma - 1], self.scales[level])


def record_bot_value(name: str, value: Fraction, meta_path: Path = META_PATH) -> None:
    """Store a bot's exact whole-game value under the default rules next to the tables."""
    meta = json.loads(meta_path.read_text())
    meta.setdefault("bots", {})[name] = str(value)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
