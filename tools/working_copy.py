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

Lab serves only my_notebooks/, so a link from a lesson to ../docs/ would leave what it serves (a
404, issue 25): the copy also holds the rules pages and the teaching guide (docs/rules/,
docs/teaching/ without the solved notebooks) under my_notebooks/docs/, and each copied notebook's
links into docs/ climb one folder less. Only student-safe files are copied (tools/student_edition.py):
never the nbgrader sources, which hold solutions and hidden tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from student_edition import student_safe  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ORIGINALS = ROOT / "notebooks"
COPY = ROOT / "my_notebooks"
# What each copied file's original looked like when it was copied: tells "changed upstream" apart.
MANIFEST = ".copied_from.json"
REPLACED = ".replaced"
SKIP = {".ipynb_checkpoints", "__pycache__"}
# The pages the lessons link to, copied beside them (the solved notebooks never).
DOCS = ("docs/rules", "docs/teaching")
NOT_COPIED = ("docs/teaching/solutions/",)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def original_files(originals: Path) -> list[Path]:
    """Every student-safe file under ``originals`` (relative), checkpoints and caches left out."""
    return sorted(
        p.relative_to(originals)
        for p in originals.rglob("*")
        if p.is_file()
        and not SKIP & set(p.relative_to(originals).parts)
        and student_safe(f"notebooks/{p.relative_to(originals).as_posix()}")
    )


def doc_files(originals: Path) -> list[Path]:
    """The pages under docs/ that the lessons link to (relative to the repository), for the copy."""
    root = originals.parent
    found = [
        p.relative_to(root)
        for folder in DOCS
        if (root / folder).is_dir()
        for p in (root / folder).rglob("*")
        if p.is_file() and not SKIP & set(p.parts)
    ]
    return sorted(p for p in found if not p.as_posix().startswith(NOT_COPIED))


def source_of(originals: Path, name: Path) -> Path:
    """Where a working-copy file comes from: docs/... from the repository, the rest from notebooks/."""
    return originals.parent / name if name.parts[0] == "docs" else originals / name


def with_docs_links_inside(text: str, name: Path) -> str:
    """A notebook's links to the repository's docs/, pointed at the copy's docs/ (one folder less up)."""
    depth = len(name.parts) - 1
    return text.replace("](" + "../" * (depth + 1) + "docs/", "](" + "../" * depth + "docs/")


def read_manifest(copy: Path) -> dict[str, str]:
    path = copy / MANIFEST
    return json.loads(path.read_text()) if path.exists() else {}


def write_manifest(copy: Path, manifest: dict[str, str]) -> None:
    (copy / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def take(originals: Path, copy: Path, name: Path, manifest: dict[str, str]) -> None:
    target, source = copy / name, source_of(originals, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)
    if name.suffix == ".ipynb" and name.parts[0] != "docs":
        target.write_text(with_docs_links_inside(source.read_text(encoding="utf-8"), name), encoding="utf-8")
    manifest[name.as_posix()] = digest(source)


def top_up(originals: Path = ORIGINALS, copy: Path = COPY) -> tuple[list[str], list[str]]:
    """Copy every original the working copy lacks; return (copied, changed upstream since copied)."""
    manifest = read_manifest(copy)
    copied, changed = [], []
    for name in original_files(originals) + doc_files(originals):
        key = name.as_posix()
        if not (copy / name).exists():
            take(originals, copy, name, manifest)
            copied.append(key)
        elif key in manifest and manifest[key] != digest(source_of(originals, name)):
            changed.append(key)
    write_manifest(copy, manifest)
    return copied, changed


def refresh(names: list[str], originals: Path = ORIGINALS, copy: Path = COPY) -> list[str]:
    """Replace these files of the working copy by their originals, keeping the old ones aside."""
    manifest = read_manifest(copy)
    aside = copy / REPLACED / time.strftime("%Y%m%d-%H%M%S")
    for key in names:
        name = Path(key)
        if not source_of(originals, name).is_file():
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
        names = (
            [p.as_posix() for p in original_files(ORIGINALS) + doc_files(ORIGINALS)]
            if arguments.refresh_all
            else [relative_name(a) for a in arguments.refresh]
        )
        refresh(names)
        print(
            f"my_notebooks: {len(names)} file(s) taken from notebooks/ again; "
            f"the old ones are under my_notebooks/{REPLACED}/"
        )
        return
    copied, changed = top_up()
    if copied:
        print(f"my_notebooks: copied {len(copied)} file(s) from notebooks/ (your own copy, ignored by git)")
    for key in changed:
        print(
            f"my_notebooks: {'' if key.startswith('docs/') else 'notebooks/'}{key} changed since you copied it; to take the new version "
            f"(yours is kept aside): make lab-refresh LESSON={key}"
        )


if __name__ == "__main__":
    main()
