"""Export every lesson and app (not the graded course's sources) to HTML that opens from disk with no network (`make html`).

    .venv/bin/python tools/export_html.py [--output build/html]

The pages come from the committed notebooks and their saved outputs (nothing is run), so each
board, explorer and plot shows its saved position. nbconvert's default page loads the widget
renderer and require.js from CDNs, which a classroom without internet cannot reach; here the
three renderer files come from their npm packages at build time (cached, never committed) and
are copied beside the pages:

- ``requirejs``: ``require.js``, the AMD loader the renderer uses;
- ``@jupyter-widgets/html-manager``: ``dist/embed-amd.js``, which draws saved widget state;
- ``anywidget``: ``dist/index.js``, the AMD module that runs each board's own JavaScript.

Without a kernel the boards do not answer clicks: they are pictures of the saved position.
"""

from __future__ import annotations

import argparse
import functools
import html
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from npm_files import CACHE, ROOT, file_from, published_notebooks  # noqa: E402
from working_copy import with_docs_links_inside  # noqa: E402

import anywidget  # noqa: E402
import nbformat  # noqa: E402
from nbconvert import HTMLExporter  # noqa: E402
from traitlets.config import Config  # noqa: E402

REQUIREJS = ("requirejs", "2.3.8", "require.js")
HTML_MANAGER = ("@jupyter-widgets/html-manager", "1.0.15", "dist/embed-amd.js")  # the one for ipywidgets 8.1
ANYWIDGET = ("anywidget", anywidget.__version__, "dist/index.js")  # the same version as the Python side
STATIC = "_static"


def renderer_files(into: Path, cache: Path = CACHE) -> None:
    """Copy require.js, embed-amd.js and anywidget.js into ``into`` (fetched from npm once)."""
    into.mkdir(parents=True, exist_ok=True)
    for (name, version, inside), target in zip(
        (REQUIREJS, HTML_MANAGER, ANYWIDGET), ("require.js", "embed-amd.js", "anywidget.js")
    ):
        shutil.copy(file_from(name, version, inside, cache), into / target)


def renderer_fonts(page_folder: Path, cache: Path = CACHE) -> None:
    """The icon fonts of the renderer's style sheet, where it asks for them: relative to the page."""
    dist = file_from(*HTML_MANAGER, cache).parent
    for where in (page_folder / "@jupyter-widgets", page_folder / "@jupyter-widgets" / "html-manager" / "dist"):
        where.mkdir(parents=True, exist_ok=True)
        for font in dist.glob("*.woff2"):  # browsers that read woff2 ask for nothing else
            shutil.copy(font, where / font.name)


@functools.lru_cache(maxsize=None)
def exporter(static_url: str) -> HTMLExporter:
    """The page exporter for pages that reach the renderer files at ``static_url``: one per folder depth,
    reused for every page at that depth (each new one compiles nbconvert's templates again)."""
    config = Config()
    config.HTMLExporter.require_js_url = f"{static_url}/require.js"
    config.HTMLExporter.widget_renderer_url = f"{static_url}/embed-amd.js"
    return HTMLExporter(config=config)


def tell_requirejs_where_anywidget_is(page: str, static_url: str) -> str:
    """The renderer asks require.js for the module "anywidget"; point it at the local copy, not a CDN."""
    loader = f'<script src="{static_url}/require.js"></script>'
    mapping = f'<script>require.config({{paths: {{anywidget: "{static_url}/anywidget"}}}});</script>'
    if loader not in page:
        raise SystemExit("nbconvert's page no longer loads require.js where expected: check the template")
    return page.replace(loader, loader + mapping, 1)


def without_mathjax(page: str) -> str:
    """Drop the MathJax loader (a CDN script): the lessons hold one formula, readable as plain TeX."""
    start, end = page.find("<!-- Load mathjax -->"), page.find("<!-- End of mathjax configuration -->")
    if start < 0 or end < 0:
        raise SystemExit("nbconvert's page no longer marks its MathJax block: check the template")
    return page[:start] + page[end + len("<!-- End of mathjax configuration -->") :]


def export_notebook(notebook: Path, output: Path) -> Path:
    relative = notebook.relative_to(ROOT / "notebooks")
    target = output / relative.with_suffix(".html")
    target.parent.mkdir(parents=True, exist_ok=True)
    static_url = os.path.relpath(output / STATIC, target.parent).replace(os.sep, "/")
    # The rules pages sit in docs/rules/ beside the pages (export_all), one folder less up than in the repository.
    text = with_docs_links_inside(notebook.read_text(encoding="utf-8"), relative)
    body, _ = exporter(static_url).from_notebook_node(nbformat.reads(text, as_version=4))
    target.write_text(without_mathjax(tell_requirejs_where_anywidget_is(body, static_url)), encoding="utf-8")
    return target


def index_page(pages: list[Path], output: Path) -> None:
    items = "\n".join(
        f'<li><a href="{html.escape(p.relative_to(output).as_posix())}">{html.escape(p.relative_to(output).as_posix())}</a></li>'
        for p in pages
    )
    (output / "index.html").write_text(
        "<!doctype html><meta charset='utf-8'><title>gamelib lessons</title>"
        "<h1>gamelib lessons (saved pages, no kernel)</h1>"
        "<p>Each page shows the lesson as it was last run: the boards show their saved position.</p>"
        f"<ul>\n{items}\n</ul>\n",
        encoding="utf-8",
    )


def export_all(output: Path, cache: Path = CACHE) -> dict:
    started = time.monotonic()
    if output.exists():
        shutil.rmtree(output)
    renderer_files(output / STATIC, cache)
    pages = [export_notebook(notebook, output) for notebook in published_notebooks()]
    for folder in sorted({page.parent for page in pages}):
        renderer_fonts(folder, cache)
    index_page(pages, output)
    shutil.copytree(ROOT / "docs" / "rules", output / "docs" / "rules")
    return {
        "seconds": time.monotonic() - started,
        "pages": len(pages),
        "bytes": sum(p.stat().st_size for p in output.rglob("*") if p.is_file()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "html")
    args = parser.parse_args()
    facts = export_all(args.output)
    print(
        f"html: {facts['pages']} pages in {args.output} ({facts['bytes'] / 1e6:.1f} MB, "
        f"{facts['seconds']:.1f} s); open {args.output / 'index.html'} in a browser"
    )


if __name__ == "__main__":
    main()
