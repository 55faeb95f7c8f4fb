"""The shipped turn-start tables of the default rules: writing, checksum and loading (pure Python + numpy).

numpy is imported only when a table is written or read, so the Pangu board imports without it (the
browser-only site serves numpy from the Pyodide CDN alone): where numpy is missing, reading the table
raises :class:`NumpyMissing` (a :class:`SolverTableError`) saying that exact values need numpy, and the
board says so.

``data/solver_default.npz`` holds, per level (3 and 6 cards placed), the sorted packed keys
``F | C << 10 | D << 20`` and the value numerators for Karma 1..10 (stored as differences along
Karma, which are small and non-negative because every row is monotone), plus the root row.
``data/solver_default.json`` holds the scales (denominators) and the file's SHA-256. Both files are
read through :mod:`gamelib.datafiles`, which checks them against the package's list of checksums,
and are then validated (scales by their formula, rows sorted, monotone and at most 1, the recorded
root equal to the table's): a damaged or edited file raises :class:`DamagedTable` naming it, never
gives a number.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
import zlib
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from pathlib import Path

from gamelib import datafiles
from gamelib.datafiles import DamagedData

DATA = Path(__file__).parent.parent / "data"  # gamelib/pangu/data, beside the deck
TABLE_PATH = DATA / "solver_default.npz"
META_PATH = DATA / "solver_default.json"
SHIPPED_LEVELS = (0, 3, 6)
TABLE_NAME, META_NAME = "pangu/data/solver_default.npz", "pangu/data/solver_default.json"  # in the manifest
KARMA = 10  # the default starting Karma: a row per turn start holds Karma 1..10
DECK = 10  # cards in the teaching deck
ROOT_KEY = (1 << DECK) - 1 << 20  # the start: nothing placed, every card unseen


class SolverTableError(RuntimeError):
    """A shipped solver table is missing or damaged, or cannot be read here (no numpy)."""


class DamagedTable(SolverTableError, DamagedData):
    """A solver data file (table, its metadata, a record of values) that is damaged or edited."""


class NumpyMissing(SolverTableError):
    """The table cannot be read in this Python: numpy is not installed (the browser-only site offline)."""


def _numpy():
    """numpy, imported on first use (see the module docstring)."""
    try:
        import numpy
    except ImportError as error:
        raise NumpyMissing(
            "exact values are not available here: reading the solver's table needs numpy, "
            "which this Python does not have"
        ) from error
    return numpy


# What a solved level depends on (paths under gamelib/pangu): the solver, the rules engine, the bots and the deck.
CHECKPOINT_SOURCES = (
    "solver/model.py",
    "solver/arrays.py",
    "solver/kernels.py",
    "solver/space.py",
    "solver/optimal.py",
    "solver/levels.py",
    "solver/greedy.py",
    "solver/lookahead.py",
    "solver/random_bot.py",
    "solver/tables.py",
    "rules.py",
    "actions.py",
    "cards.py",
    "bots.py",
    "data/deck.json",
)


def checkpoint_folder() -> Path:
    """Where the builders keep solved levels between runs (a long build resumes after an interruption).

    A folder of the per-user cache (:func:`gamelib.datafiles.cache_dir`) named after the SHA-256 of
    the code and data the levels depend on: after any change to the solver, the rules engine or the
    deck, a rerun starts afresh instead of reading levels an older code computed.
    """
    digest = hashlib.sha256()
    here = Path(__file__).parent.parent
    for name in CHECKPOINT_SOURCES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    return datafiles.cache_dir("pangu_solver", digest.hexdigest()[:16])


@contextmanager
def records_lock():
    """Hold the lock of the solver's data files while one command rewrites one of them and the checksums
    (builds of several variants may record at once); the lock file lives in the per-user cache."""
    import fcntl  # the builders run on POSIX machines (numba, hours of CPU); reading needs no lock

    with open(datafiles.cache_dir("pangu_solver") / "records.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def rules_tag(rules, centre: str) -> str:
    """A short name of a rule set and centre for a checkpoint file (the hash of their settings)."""
    return hashlib.sha256(f"{rules.to_dict()}{centre}".encode()).hexdigest()[:16]


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_tables(tables, path: Path = TABLE_PATH, meta_path: Path = META_PATH) -> None:
    """Write the levels of a solved default game (``optimal.Tables``); values must be whole."""
    np = _numpy()
    arrays, scales = {}, {}
    for level in SHIPPED_LEVELS:
        keys, rows = tables.values[level]
        whole = np.rint(rows)
        if not np.array_equal(whole, rows) or rows.max() >= 2**53:
            raise ValueError(f"level {level} holds values that are not exact whole numerators")
        numerators = whole[:, 1:].astype(np.int64)
        if (np.diff(numerators, axis=1) < 0).any():
            raise ValueError(f"level {level} has a row that is not monotone in Karma")
        order = np.argsort(keys)
        deltas = np.diff(numerators[order], axis=1, prepend=0)
        kind = np.uint32 if deltas.max() < 2**32 else np.int64
        arrays[f"keys{level}"] = keys[order].astype(np.int32)
        arrays[f"deltas{level}"] = deltas.astype(kind)
        scales[str(level)] = int(tables.scales[level])
    with records_lock():
        np.savez_compressed(path, **arrays)
        _write_meta(path, meta_path, tables, scales)
        datafiles.write_manifest()


def _write_meta(path: Path, meta_path: Path, tables, scales: dict) -> None:
    """The table's metadata: its SHA-256, the scales, the root value and the builder's counts."""
    meta = {
        "file": path.name,
        "sha256": sha256_of(path),
        "scales": scales,
        "karma": 10,
        "rules": "default",
        "root": str(tables.root()),
        "turn_start_keys": {str(level): len(tables.keys[level]) for level in tables.keys},
        "stuck_entries": {str(level): count for level, count in tables.stuck_entries.items()},
    }
    if meta_path.exists():  # keep the bots' values written by record_bot_value
        meta["bots"] = json.loads(meta_path.read_text()).get("bots", {})
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")


def expected_scale(level: int) -> int:
    """The denominator of a turn-start row at ``level`` cards placed: every hand of 3 of the cards left,
    36 rolls and 35 unblocked rolls per turn, down to the last card alone (scale 35)."""
    return 35 if level >= DECK - 1 else comb(DECK - level, 3) * 36 * 35 * expected_scale(level + 3)


class ShippedTables:
    """Lookups ``value(level, F, C, D, karma) -> Fraction`` in the verified shipped file.

    ``path``/``meta_path`` read copies standing for the shipped files (by default the package's own,
    wherever :data:`gamelib.datafiles.PACKAGE` says it is).
    """

    def __init__(self, path: Path | None = None, meta_path: Path | None = None):
        np = _numpy()
        path = datafiles.PACKAGE / TABLE_NAME if path is None else Path(path)
        meta_path = datafiles.PACKAGE / META_NAME if meta_path is None else Path(meta_path)
        meta = _checked_meta(datafiles.read_json(META_NAME, meta_path, DamagedTable), meta_path)
        data = datafiles.read_bytes(TABLE_NAME, path, DamagedTable)
        if meta["sha256"] != datafiles.expected_digests()[TABLE_NAME]:
            raise DamagedTable(f"{meta_path} gives the SHA-256 of another table than {path}")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                self.keys = {level: arrays[f"keys{level}"] for level in SHIPPED_LEVELS}
                deltas = {level: arrays[f"deltas{level}"] for level in SHIPPED_LEVELS}
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:  # forged checksums
            raise DamagedTable(f"the solver table {path} cannot be read: {error}") from error
        self.scales = {int(level): scale for level, scale in meta["scales"].items()}
        self.rows = {
            level: _checked_rows(np, level, self.keys[level], deltas[level], self.scales[level], path)
            for level in SHIPPED_LEVELS
        }
        self.karma = meta["karma"]
        start = self.keys[0].tolist() == [ROOT_KEY]
        root = Fraction(int(self.rows[0][0][KARMA - 1]), self.scales[0]) if start else None
        if Fraction(meta["root"]) != root:
            raise DamagedTable(f"the solver table {path} and {meta_path} disagree on the whole game's value")
        self.path = path

    def has(self, level: int) -> bool:
        """The tables hold the turn starts with ``level`` cards placed."""
        return level in self.keys

    def numerators(self, level: int, filled: int, colours: int, unplaced: int) -> list[int]:
        """The row for Karma 1..10 (numerators over ``scales[level]``)."""
        key = filled | colours << 10 | unplaced << 20
        keys = self.keys[level]
        at = int(keys.searchsorted(keys.dtype.type(key)))  # a Python int would cast the whole array first
        if at >= len(keys) or keys[at] != key:  # every reachable key is in a table the builder wrote
            raise DamagedTable(
                f"the solver table {self.path} has no turn-start key F={filled:#x} C={colours:#x} "
                f"D={unplaced:#x} at level {level}: it is damaged or was built for other rules"
            )
        return [int(v) for v in self.rows[level][at]]

    def value(self, level: int, filled: int, colours: int, unplaced: int, karma: int) -> Fraction:
        """The exact value of a shipped turn start at ``karma``."""
        if karma <= 0:
            return Fraction(0)
        return Fraction(self.numerators(level, filled, colours, unplaced)[karma - 1], self.scales[level])


def _checked_meta(meta, meta_path: Path) -> dict:
    """The metadata of the table, each field the loader uses checked (scales by their formula)."""

    def refuse(what: str):
        raise DamagedTable(f"the solver table's metadata {meta_path} is damaged: {what}")

    if not isinstance(meta, dict):
        refuse("it is not a JSON object")
    digest = meta.get("sha256")
    if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        refuse("it has no SHA-256 of the table")
    scales = meta.get("scales")
    if not isinstance(scales, dict) or sorted(scales) != sorted(map(str, SHIPPED_LEVELS)):
        refuse(f"its scales should be given for the levels {SHIPPED_LEVELS}")
    for level, scale in scales.items():
        if type(scale) is not int or scale != expected_scale(int(level)):
            refuse(f"the scale of level {level} is {scale!r}, not {expected_scale(int(level))}")
    if type(meta.get("karma")) is not int or meta["karma"] != KARMA:
        refuse(f"its Karma should be {KARMA}")
    if not isinstance(meta.get("root"), str) or not re.fullmatch(r"[0-9]{1,40}/0*[1-9][0-9]{0,39}", meta["root"]):
        refuse("its root value is not a fraction p/q")
    return meta


def _checked_rows(np, level: int, keys, deltas, scale: int, path: Path):
    """The numerators (Karma 1..10) of one level from their stored differences, checked: keys sorted and
    unique, one row of whole, non-negative differences per key, no value above 1."""

    def refuse(what: str):
        raise DamagedTable(f"the solver table {path} is damaged at level {level}: {what}")

    if keys.ndim != 1 or keys.dtype.kind not in "iu" or (len(keys) > 1 and not (np.diff(keys) > 0).all()):
        refuse("its keys are not a sorted list of whole numbers")
    signed = deltas.dtype.kind == "i"  # unsigned steps cannot be negative: no pass over them
    if deltas.shape != (len(keys), KARMA) or deltas.dtype.kind not in "iu" or (signed and (deltas < 0).any()):
        refuse(f"it should hold {len(keys)} rows of {KARMA} whole, non-negative steps")
    rows = np.cumsum(deltas.astype(np.int64), axis=1)
    if len(rows) and rows[:, -1].max() > scale:
        refuse("a value is above 1")
    return rows
