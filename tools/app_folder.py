"""The folder `make app` serves with Voila: the apps and the rules pages their introductions link to.

    .venv/bin/python tools/app_folder.py [--serve | --mark-rules-in-place]

The apps (notebooks/apps/) open with a link to their rules page, ``../../docs/rules/<page>``
(tools/make_apps.py), which works in Lab, on the site, in the HTML pages and on a code host. Voila
serving only notebooks/apps had no page there (a 404, issue 25). So `make app` serves
``build/app/``, a copy keeping the repository's layout (``notebooks/apps/`` and ``docs/rules/``):
an app is at ``/voila/render/notebooks/apps/<app>.ipynb``, its rules link resolves to
``/voila/render/docs/rules/<page>``, which Voila sends on to ``/voila/files/docs/rules/<page>``,
served because the repository's ``voila.json`` (read from the working directory, by `make app` and
by Binder's Voila, which serves the repository itself) allows the rules pages besides images.
Only the apps and the rules are copied: no lesson, solution or instructor page is served.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "build" / "app"
PARTS = ("notebooks/apps", "docs/rules")  # the apps, and the rules pages they link to
VOILA_FLAGS = ("--strip_sources=True", "--Voila.ip=127.0.0.1")  # `make app`'s flags (no code shown)
UTF8_MARK = b"\xef\xbb\xbf"


def build(folder: Path = FOLDER, root: Path = ROOT) -> Path:
    """Copy the apps and the rules pages into ``folder`` (emptied first); returns it."""
    shutil.rmtree(folder, ignore_errors=True)
    for part in PARTS:
        shutil.copytree(root / part, folder / part, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    mark_utf8(folder)
    return folder


def mark_utf8(root: Path) -> None:
    """Start every rules page under ``root`` with a UTF-8 byte order mark (idempotent).

    Voila sends a page as text/markdown with no charset, and the browser then reads it as Latin-1
    ("KrleÅ¾a", "Â·"): the mark tells it the encoding. `make app` marks its copies; Binder, whose
    Voila serves the repository itself, marks the repository's pages in its image (binder/postBuild).
    """
    for page in (root / "docs" / "rules").glob("*.md"):
        page.write_bytes(UTF8_MARK + page.read_bytes().removeprefix(UTF8_MARK))


def app_path(name: str) -> str:
    """Where Voila renders the app ``name`` (a notebook of notebooks/apps/) in the served folder."""
    return f"voila/render/notebooks/apps/{name}.ipynb"


def main() -> None:
    if "--mark-rules-in-place" in sys.argv[1:]:  # Binder's postBuild: its clone is the served folder
        mark_utf8(ROOT)
        return
    folder = build()
    print(f"built {folder.relative_to(ROOT)}: the apps are at /voila/tree/notebooks/apps")
    if "--serve" in sys.argv[1:]:
        os.chdir(ROOT)  # Voila reads voila.json (the rules pages' allowlist) from the working directory
        os.execv(sys.executable, [sys.executable, "-m", "voila", str(folder), *VOILA_FLAGS])


if __name__ == "__main__":
    main()
