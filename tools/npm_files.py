"""Fetch a file of an npm package once, with `npm pack`, into a cache that git ignores.

The site build (Pyodide's core) and the HTML export (the widget renderers) take files from npm
packages at build time; nothing of them is committed. A tarball is fetched once per version and
reused from ``build/downloads/`` on later builds, so a rebuild works without the network.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "downloads"
# The nbgrader course's source notebooks hold the solutions: never put them on a site or a page.
UNPUBLISHED = ("course",)


def published_notebooks() -> list[Path]:
    """The lessons, the start page and the apps: every notebook a site or the HTML export carries."""
    notebooks = ROOT / "notebooks"
    return sorted(
        p
        for p in notebooks.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts and p.relative_to(notebooks).parts[0] not in UNPUBLISHED
    )


def tarball(name: str, version: str, cache: Path = CACHE) -> Path:
    """The npm tarball of ``name@version`` (fetched with `npm pack` on first use)."""
    cache.mkdir(parents=True, exist_ok=True)
    expected = cache / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not expected.exists():
        if shutil.which("npm") is None:
            raise SystemExit(f"npm is needed once to fetch {name}@{version} (apt-get install npm)")
        with tempfile.TemporaryDirectory(dir=cache) as fetching:  # whole or absent: builds may run side by side
            subprocess.run(
                ["npm", "pack", "--silent", f"{name}@{version}"], cwd=fetching, check=True, stdout=subprocess.DEVNULL
            )
            os.replace(Path(fetching) / expected.name, expected)
    return expected


def unpack(name: str, version: str, cache: Path = CACHE) -> Path:
    """The unpacked ``package/`` folder of ``name@version``."""
    folder = cache / "unpacked" / f"{name.lstrip('@').replace('/', '-')}-{version}"
    if not (folder / "package" / "package.json").exists():
        shutil.rmtree(folder, ignore_errors=True)  # what an interrupted unpacking left
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder.parent) as unpacking:  # renamed whole into place
            with tarfile.open(tarball(name, version, cache)) as archive:
                archive.extractall(unpacking, filter="data")
            try:
                os.rename(unpacking, folder)
            except OSError:  # another build unpacked the same package first
                if not (folder / "package" / "package.json").exists():
                    raise
            else:
                os.mkdir(unpacking)  # for TemporaryDirectory's clean-up
    return folder / "package"


def file_from(name: str, version: str, inside: str, cache: Path = CACHE) -> Path:
    """One file of an npm package, e.g. ``file_from("requirejs", "2.3.8", "require.js")``."""
    path = unpack(name, version, cache) / inside
    if not path.exists():
        raise SystemExit(f"{name}@{version} has no {inside}")
    return path
