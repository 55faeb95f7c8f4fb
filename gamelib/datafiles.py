"""The package's shipped data files, each read only after its SHA-256 is checked, and the per-user cache.

Every data file under ``gamelib/`` (decks, the Nagaraja edition, the Pangu solver's tables and
records, the lessons' answer sheets) is listed with its SHA-256 in ``gamelib/shipped_data.sha256``
(the ``sha256sum`` format, so ``cd gamelib && sha256sum -c shipped_data.sha256`` checks them too).
:func:`read_bytes` and :func:`read_json` are the one way the games read them: a file that differs
from its listed sum, is missing or unlisted raises :class:`DamagedData` naming the file, so an
edited value (a doubled scale, a forged bot value) is never used as if it were the computed one.
A file is hashed once per process while it stays the same (its device, inode, size, modified and
changed times, once they are a few seconds old); any write gives it other times, so it is checked again.
The commands that rewrite a data file (the solver's ``--write`` and ``--record``) call
:func:`write_manifest` after writing; ``python -m gamelib.datafiles --write`` does the same by hand.

:func:`cache_dir` is where long computations keep their checkpoints: per user, as platformdirs
places caches (``$XDG_CACHE_HOME/gamelib``, else ``~/.cache/gamelib``; the LOCALAPPDATA and
~/Library/Caches folders on Windows and macOS).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).parent
MANIFEST = PACKAGE / "shipped_data.sha256"
CODE_SUFFIXES = (".py", ".pyc", ".js", ".css")  # everything else the package holds is data
_LINE = re.compile(r"(?P<digest>[0-9a-f]{64})  (?P<name>[A-Za-z0-9_./-]+)")


class DamagedData(RuntimeError):
    """A shipped data file that is missing, unlisted or not the file the package was built with."""


SETTLED_SECONDS = 2
"""A file whose status last changed this long ago has its checksum computed once per process."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> tuple[bytes, tuple | None]:
    """The bytes of ``path`` and its stamp (device, inode, size, modified and changed times), or None for the
    stamp when the file changed while it was read."""
    with open(path, "rb") as file:
        before = _stamp(os.fstat(file.fileno()))
        data = file.read()
        after = _stamp(os.fstat(file.fileno()))
    return data, before if before == after else None


def _stamp(status: os.stat_result) -> tuple:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _settled(stamp: tuple | None) -> bool:
    """Whether any later change of the file must give it another stamp: it was modified and its status
    changed (ctime, which every write and every touch of its times sets to now on POSIX) long enough ago
    that a change now falls later."""
    return stamp is not None and time.time_ns() - max(stamp[3], stamp[4]) > SETTLED_SECONDS * 1_000_000_000


@functools.lru_cache(maxsize=256)
def _settled_digest(path: str, stamp: tuple) -> str:
    """The SHA-256 of the file at ``path`` as it is under ``stamp``, computed once per process.

    A file written again has another stamp, so it is hashed again; a file that no longer has ``stamp``
    raises (and nothing is remembered)."""
    data, now = _read(Path(path))
    if now != stamp:
        raise FileExistsError(f"{path} changed while it was checked")
    return _digest(data)


def _checked_digest(path: Path, data: bytes, stamp: tuple | None) -> str:
    """The SHA-256 of ``data``, just read from ``path`` under ``stamp``: from the per-process record when the
    file has not changed since it was hashed, else computed."""
    if _settled(stamp):
        try:
            return _settled_digest(str(path), stamp)
        except OSError:
            pass
    return _digest(data)


def shipped_names() -> list[str]:
    """Every data file the package holds (any file but code and the manifest), as a path relative to
    ``gamelib/``: the manifest's names."""
    return sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and path.suffix not in CODE_SUFFIXES
        and path.name != MANIFEST.name
        and not path.name.endswith(".new")
        and not {"__pycache__", ".ipynb_checkpoints"} & set(path.parts)
    )


def expected_digests(manifest: Path | None = None) -> dict[str, str]:
    """``{name: sha256}`` from the manifest; a damaged manifest raises :class:`DamagedData` naming it."""
    manifest = MANIFEST if manifest is None else manifest
    try:
        data, stamp = _read(manifest)
        text = data.decode("ascii")
    except (OSError, UnicodeDecodeError) as problem:
        raise DamagedData(
            f"the list of the data files' checksums {manifest} cannot be read ({problem}): reinstall the package"
        ) from None
    if _settled(stamp):
        try:
            return dict(_settled_digests(str(manifest), stamp))
        except (OSError, UnicodeDecodeError):
            pass  # changed since it was read: parse the text read
    return _parsed_manifest(manifest, text)


@functools.lru_cache(maxsize=16)
def _settled_digests(path: str, stamp: tuple) -> tuple:
    """The manifest at ``path`` as it is under ``stamp``, parsed once per process (see :func:`_settled_digest`)."""
    data, now = _read(Path(path))
    if now != stamp:
        raise FileExistsError(f"{path} changed while it was read")
    return tuple(_parsed_manifest(Path(path), data.decode("ascii")).items())


def _parsed_manifest(manifest: Path, text: str) -> dict[str, str]:
    digests = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _LINE.fullmatch(line)
        if match is None or match["name"] in digests:
            raise DamagedData(
                f"the list of the data files' checksums {manifest} is damaged at line {number}: reinstall the package"
            )
        digests[match["name"]] = match["digest"]
    return digests


def read_bytes(name: str, path: str | Path | None = None, error: type[DamagedData] = DamagedData) -> bytes:
    """The bytes of the shipped data file ``name`` (e.g. ``"pangu/data/deck.json"``), checked against the manifest.

    ``path`` reads a copy standing for that file instead (by default the package's own). Anything but
    the listed bytes raises ``error`` (a :class:`DamagedData`) naming the file read.
    """
    path = PACKAGE / name if path is None else Path(path)
    expected = expected_digests().get(name)
    if expected is None:
        raise error(f"{path} is not one of the package's data files listed in {MANIFEST.name}: reinstall the package")
    try:
        data, stamp = _read(path)
    except OSError as problem:
        raise error(
            f"the data file {path} cannot be read ({problem.strerror or problem}): reinstall the package"
        ) from None
    actual = _checked_digest(path, data, stamp)
    if actual != expected:
        raise error(
            f"the data file {path} is damaged or edited: its SHA-256 is {actual[:16]}..., the package was "
            f"built with {expected[:16]}... (reinstall the package; after rebuilding it on purpose, "
            "run python -m gamelib.datafiles --write)"
        )
    return data


def read_json(name: str, path: str | Path | None = None, error: type[DamagedData] = DamagedData) -> Any:
    """The parsed JSON of the shipped data file ``name`` (see :func:`read_bytes`)."""
    data = read_bytes(name, path, error)
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as problem:  # only if the manifest itself lists a broken file
        raise error(f"the data file {PACKAGE / name if path is None else path} is not valid JSON ({problem})") from None


def write_manifest(manifest: Path | None = None) -> dict[str, str]:
    """List every data file's SHA-256 in the manifest (after a data file was rebuilt on purpose)."""
    digests = {name: _digest((PACKAGE / name).read_bytes()) for name in shipped_names()}
    target = MANIFEST if manifest is None else manifest
    temporary = target.with_name(target.name + ".new")
    temporary.write_text("".join(f"{digest}  {name}\n" for name, digest in digests.items()), encoding="ascii")
    temporary.replace(target)  # a reader never sees half a manifest
    return digests


# --------------------------------------------------------------------------- the per-user cache


def cache_dir(*parts: str) -> Path:
    """A per-user cache folder ``gamelib/<parts>`` (created, private), as platformdirs places caches."""
    if os.environ.get("XDG_CACHE_HOME"):
        base = Path(os.environ["XDG_CACHE_HOME"])
    elif sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path.home() / ".cache"
    folder = base.joinpath("gamelib", *parts)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        digests = write_manifest()
        print(f"{MANIFEST}: {len(digests)} data files listed")
        return 0
    bad = []
    for name in shipped_names():
        try:
            read_bytes(name)
        except DamagedData as problem:
            bad.append(str(problem))
    print("\n".join(bad) or f"all {len(shipped_names())} data files match {MANIFEST.name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
