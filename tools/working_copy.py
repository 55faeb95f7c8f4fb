"""Each user's own working copy of the lessons, for `make lab` (issue 10).

    .venv/bin/python tools/working_copy.py                 # make or top up my_notebooks/
    .venv/bin/python tools/working_copy.py --refresh PATH  # take the original of one lesson again
    .venv/bin/python tools/working_copy.py --refresh-all   # take every original again

JupyterLab saves a notebook as soon as it is opened and run, so a student working in
`notebooks/` rewrites the committed files and the next `git pull` conflicts. `make lab` opens
`my_notebooks/` instead: a copy of `notebooks/` made on the first run and ignored by git, at the
same folder depth so the lessons' relative links (to docs/) still work. Later runs copy in only
lessons that are new upstream and never overwrite the student's work; they list the lessons whose
original changed since it was copied, with the command that takes the new version. A refresh
keeps the student's old copy under my_notebooks/.replaced/<time>/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORIGINALS = ROOT / "notebooks"
COPY = ROOT / "my_notebooks"
# What each copied file's original looked like when it was copied: tells "changed upstream" apart.
MANIFEST = ".copied_from.json"
REPLACED = ".replaced"
SKIP = {".ipynb_checkpoints", "__pycache__"}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def original_files(originals: Path) -> list[Path]:
    """Every file under ``originals`` (relative), checkpoints and caches left out."""
    return sorted(p.relative_to(originals) for p in originals.rglob("*")
                  if p.is_file() and not SKIP & set(p.relative_to(originals).parts))


def read_manifest(copy: Path) -> dict[str, str]:
    path = copy / MANIFEST
    return json.loads(path.read_text()) if path.exists() else {}


def write_manifest(copy: Path, manifest: dict[str, str]) -> None:
    (copy / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def take(originals: Path, copy: Path, name: Path, manifest: dict[str, str]) -> None:
    target = copy / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(originals / name, target)
    manifest[name.as_posix()] = digest(originals / name)


def top_up(originals: Path = ORIGINALS, copy: Path = COPY) -> tuple[list[str], list[str]]:
    """Copy every original the working copy lacks; return (copied, changed upstream since copied)."""
    manifest = read_manifest(copy)
    copied, changed = [], []
    for name in original_files(originals):
        key = name.as_posix()
        if not (copy / name).exists():
            take(originals, copy, name, manifest)
            copied.append(key)
        elif key in manifest and manifest[key] != digest(originals / name):
            changed.append(key)
    write_manifest(copy, manifest)
    return copied, changed


def refresh(names: list[str], originals: Path = ORIGINALS, copy: Path = COPY) -> list[str]:
    """Replace these files of the working copy by their originals, keeping the old ones aside."""
    manifest = read_manifest(copy)
    aside = copy / REPLACED / time.strftime("%Y%m%d-%H%M%S")
    for key in names:
        name = Path(key)
        if not (originals / name).is_file():
            raise SystemExit(f"no original notebooks/{key} to refresh from")
        if (copy / name).exists():
            (aside / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(copy / name), aside / name)
        take(originals, copy, name, manifest)
    write_manifest(copy, manifest)
    return names


def relative_name(argument: str) -> str:
    """Accept `pangu/01_x.ipynb`, `notebooks/pangu/01_x.ipynb` or `my_notebooks/pangu/01_x.ipynb`."""
    parts = Path(argument).parts
    if parts and parts[0] in (ORIGINALS.name, COPY.name):
        parts = parts[1:]
    return Path(*parts).as_posix()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", nargs="+", metavar="PATH", help="take these lessons from notebooks/ again")
    parser.add_argument("--refresh-all", action="store_true", help="take every lesson from notebooks/ again")
    arguments = parser.parse_args()
    if arguments.refresh or arguments.refresh_all:
        names = ([p.as_posix() for p in original_files(ORIGINALS)] if arguments.refresh_all
                 else [relative_name(a) for a in arguments.refresh])
        refresh(names)
        print(f"my_notebooks: {len(names)} file(s) taken from notebooks/ again; "
              f"the old ones are under my_notebooks/{REPLACED}/")
        return
    copied, changed = top_up()
    if copied:
        print(f"my_notebooks: copied {len(copied)} file(s) from notebooks/ (your own copy, ignored by git)")
    for key in changed:
        print(f"my_notebooks: notebooks/{key} changed since you copied it; to take the new version "
              f"(yours is kept aside): make lab-refresh LESSON={key}")


if __name__ == "__main__":
    main()
