"""Build the browser-only site (`make site`): JupyterLite with the lessons, the apps and gamelib.

    .venv/bin/python tools/build_site.py [--output build/site]

Everything comes from the package registries at build time: JupyterLite from the package index,
Pyodide's core from the npm package ``pyodide``, gamelib's own wheel built here, and the
pure-Python wheels the kernel and gamelib need from the package index. The Pyodide core ships
a lock file naming ~350 packages but none of their wheels; this script puts the pure-Python ones
that the kernel and gamelib need next to the core (their hashes rewritten, since the index's
wheels are not byte for byte Pyodide's) and adds lock entries for gamelib and the widget
packages, so ``import gamelib`` in a cell loads them with no network at all.

The compiled packages (numpy, matplotlib and what they pull in) are built for Pyodide only and
live only on the Pyodide CDN: their lock entries point there, so on a published site with
internet the lessons that import them work, and offline they alone fail.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from email.parser import Parser
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from npm_files import CACHE, ROOT, UNPUBLISHED, published_notebooks, unpack  # noqa: E402
from working_copy import with_docs_links_inside  # noqa: E402

from jupyterlite_pyodide_kernel.constants import PYODIDE_CDN_URL, PYODIDE_PYTHON_VERSION, PYODIDE_VERSION  # noqa: E402

# What the Pyodide kernel installs before it runs a cell (its initKernel), plus micropip and piplite.
KERNEL_PACKAGES = ["micropip", "ipython", "jedi", "comm", "ipykernel"]
# gamelib's pure-Python runtime requirements; numpy and matplotlib come from the CDN when imported.
CDN_ONLY = {"numpy", "matplotlib"}
PURE_WHEEL = re.compile(r"-(py3|py2\.py3)-none-any\.whl$")
# gamelib modules that reach numpy when they are *called*, through a lazy import: the Pangu solver
# reads its shipped table (gamelib/pangu/solver/tables.py) for positions before turn 3. The boards
# catch the refusal and say on the evaluation bar that exact values are unavailable, so a notebook
# that only shows a board runs offline; a notebook whose own cells import the solver asks it for
# those values and needs the CDN.
CALLS_NUMPY = {"gamelib.pangu.solver"}
# Packages the kernel provides itself (shims in its piplite index): never fetched.
KERNEL_SHIMS = {"ipykernel", "widgetsnbextension", "pyodide-kernel", "piplite"}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def run(command: list[str], **kwargs) -> None:
    subprocess.run(command, check=True, **kwargs)


# ----------------------------------------------------------------------------- wheels


def gamelib_wheel(into: Path) -> Path:
    """gamelib's own wheel, built from this checkout.

    Where this environment has the build backend (the ``site`` extra brings hatchling), pip builds in
    it; otherwise pip first installs hatchling into a new isolated environment, about 5 s of CPU more.
    """
    for old in into.glob("gamelib-*.whl"):
        old.unlink()
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            *isolation,
            "-w",
            str(into),
            str(ROOT),
        ]
    )
    return next(into.glob("gamelib-*.whl"))


def cached_wheel(name: str, version: str | None, into: Path) -> Path | None:
    prefix = normal(f"{name}-{version}-" if version else f"{name}-")
    found = sorted(p for p in into.glob("*.whl") if normal(p.name).startswith(prefix) and PURE_WHEEL.search(p.name))
    return found[-1] if found else None


def fetch_pure_wheels(specs: dict[str, str | None], into: Path) -> dict[str, Path]:
    """The pure-Python wheels of ``{name: version or None}`` from the package index (one pip call)."""
    missing = [f"{n}=={v}" if v else n for n, v in specs.items() if cached_wheel(n, v, into) is None]
    if missing:
        # Pyodide's own Python (3.14) decides which versions fit; "any" keeps out compiled wheels.
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary=:all:",
                "--platform",
                "any",
                "--python-version",
                PYODIDE_PYTHON_VERSION,
                "--implementation",
                "py",
                "--abi",
                "none",
                "-d",
                str(into),
                *missing,
            ],
            stderr=subprocess.DEVNULL,
        )
    wheels = {n: cached_wheel(n, v, into) for n, v in specs.items()}
    absent = [n for n, w in wheels.items() if w is None]
    if absent:
        raise SystemExit(f"no pure-Python wheel on the package index for {absent}")
    return wheels


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str], list[str]]:
    """(name, version, requirements without extras or markers, top-level import names)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta_path = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(archive.read(meta_path).decode())
        top_file = next((n for n in names if n.endswith(".dist-info/top_level.txt")), None)
        tops = (
            archive.read(top_file).decode().split()
            if top_file
            else sorted(
                {
                    n.split("/")[0].removesuffix(".py")
                    for n in names
                    if not n.split("/")[0].endswith((".dist-info", ".data")) and (n.endswith(".py") or "/" in n)
                }
            )
        )
    requirements = []
    for line in meta.get_all("Requires-Dist") or []:
        if ";" in line and "extra" in line.split(";", 1)[1]:
            continue
        if ";" in line and "python_version <" in line.split(";", 1)[1]:
            continue
        requirements.append(normal(re.split(r"[ ;<>=!~\[(]", line.strip(), maxsplit=1)[0]))
    return meta["Name"], meta["Version"], requirements, tops


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----------------------------------------------------------------------------- the lock


def add_local_packages(lock: dict, pyodide_dir: Path, wheels: Path, roots: list[str]) -> list[str]:
    """Make every package reachable from ``roots`` loadable from ``pyodide_dir``; return their names.

    A package already in the lock keeps its entry, with the index's wheel of the same version
    beside the core and its hash rewritten; a package the lock lacks gets a new entry. The walk
    goes level by level so that each level's wheels come in one pip call.
    """
    packages = lock["packages"]
    frontier, seen, local = {normal(r) for r in roots}, set(), []
    while frontier:
        seen |= frontier
        wanted = {}
        for name in sorted(frontier - KERNEL_SHIMS - CDN_ONLY):
            entry = packages.get(name)
            if entry is not None and not PURE_WHEEL.search(entry["file_name"]):
                continue  # compiled for Pyodide: only on the CDN
            wanted[name] = entry["version"] if entry else None
        fetched = fetch_pure_wheels(wanted, wheels)
        next_frontier = set()
        for name, wheel in fetched.items():
            shutil.copy(wheel, pyodide_dir / wheel.name)
            _, version, requirements, tops = wheel_metadata(wheel)
            entry = packages.setdefault(
                name,
                {
                    "name": name,
                    "version": version,
                    "imports": tops,
                    "install_dir": "site",
                    "package_type": "package",
                    "unvendored_tests": False,
                    "shared_library": False,
                    "depends": [r for r in requirements if r not in KERNEL_SHIMS],
                },
            )
            entry.update(file_name=wheel.name, sha256=sha256(wheel))
            local.append(name)
            next_frontier |= {normal(d) for d in entry["depends"]}
        for name in frontier - CDN_ONLY:  # what a CDN-only package pulls in comes from the CDN with it
            entry = packages.get(name)
            if entry is not None and name not in fetched:
                next_frontier |= {normal(d) for d in entry["depends"]}
        frontier = next_frontier - seen
    return local


def point_the_rest_at_the_cdn(lock: dict, pyodide_dir: Path) -> None:
    """Lock entries whose wheel is not beside the core load from the Pyodide CDN (needs internet)."""
    for entry in lock["packages"].values():
        if not (pyodide_dir / entry["file_name"]).exists() and "://" not in entry["file_name"]:
            entry["file_name"] = f"{PYODIDE_CDN_URL}/{entry['file_name']}"


def gamelib_entry(lock: dict, wheel: Path, pyodide_dir: Path) -> None:
    shutil.copy(wheel, pyodide_dir / wheel.name)
    name, version, requirements, _ = wheel_metadata(wheel)
    lock["packages"]["gamelib"] = {
        "name": "gamelib",
        "version": version,
        "file_name": wheel.name,
        "sha256": sha256(wheel),
        "imports": ["gamelib"],
        "install_dir": "site",
        "package_type": "package",
        "unvendored_tests": False,
        "shared_library": False,
        # numpy and matplotlib stay listed: the kernel loads a package when a cell's own import
        # names it, and the Pangu board reaches numpy only through gamelib, when it reads the
        # solver's table (a lazy import in solver/tables.py). Listed here, numpy arrives with gamelib
        # on a site with internet, so the board's exact values work there; without internet the
        # fetch fails and is logged, the board says exact values are unavailable, and only the
        # notebooks that really import numpy or matplotlib (or call the solver, CALLS_NUMPY) stop.
        "depends": requirements,
    }


# ----------------------------------------------------------------------------- which lessons need the CDN


def imported_modules(notebook: Path) -> set[str]:
    """The modules a notebook's code cells import (top-level import statements)."""
    import ast

    names = set()
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "\n".join(
            line for line in "".join(cell["source"]).splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)  # `from gamelib import design` imports gamelib.design too:
                names |= {f"{node.module}.{alias.name}" for alias in node.names}  # a submodule, if it is one
    return names


def import_time_imports(path: Path, module: str) -> set[str]:
    """The modules a gamelib module imports when it is itself imported.

    Imports inside a function body run only when the function is called, so they are left out:
    the explorer draws its lesson figures with matplotlib through such a lazy import, and its
    widget (all the odds explorer app uses) never calls it. The site's browser tests run every
    notebook this analysis calls offline, so a lazy import that did run would fail there.
    """
    import ast

    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(statements) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{anchor}.{base}" if base else anchor
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)  # a submodule, if it is one
            for field in ("body", "orelse", "finalbody", "handlers"):  # if/try/with/class bodies run now
                visit(getattr(node, field, []))

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def gamelib_import_graph() -> dict[str, set[str]]:
    """gamelib's modules, each with what it imports at import time (parent packages included)."""
    graph = {}
    for path in sorted((ROOT / "gamelib").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[module] = import_time_imports(path, module)
    return graph


def cells_needing_numpy_unloaded(notebook: Path) -> list[int]:
    """Code cells that reach numpy or matplotlib through gamelib before any cell imports them itself.

    In the site's kernel a package loads when a cell's own import names it; gamelib's wheel does
    not pull numpy or matplotlib in. Such a cell would fail with ModuleNotFoundError in the site.
    """
    cells = json.loads(notebook.read_text())["cells"]
    late, loaded = [], False
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        with tempfile.TemporaryDirectory() as scratch:
            one = Path(scratch) / "cell.ipynb"
            one.write_text(json.dumps({"cells": [cell]}))
            modules = imported_modules(one)
        loaded = loaded or any(m.split(".")[0] in CDN_ONLY for m in modules)
        if not loaded and any(_reaches_cdn_only(m, _graph()) for m in modules):
            late.append(index)
    return late


@lru_cache(maxsize=1)
def _graph() -> dict[str, set[str]]:
    return gamelib_import_graph()


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _reaches_cdn_only(start: str, graph: dict[str, set[str]]) -> bool:
    seen, todo = set(), _with_parents(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        if module.split(".")[0] in CDN_ONLY:
            return True
        for imported in graph.get(module, ()):
            todo.extend(_with_parents(imported))
    return False


def needs_cdn(notebooks: list[Path]) -> dict[str, bool]:
    """For each notebook: does anything it imports, directly or through gamelib, need numpy or matplotlib
    (at import time, or when called, for the modules in ``CALLS_NUMPY``)?"""
    graph = _graph()

    def heavy(module: str) -> bool:
        return module in CALLS_NUMPY or _reaches_cdn_only(module, graph)

    return {str(nb.relative_to(ROOT / "notebooks")): any(heavy(m) for m in imported_modules(nb)) for nb in notebooks}


def lesson_notebooks() -> list[Path]:
    return published_notebooks()


# ----------------------------------------------------------------------------- the site


# Lab extensions the Python environment has that students must not see on the site: nbgrader's
# menu and its "Create Assignment" panel are the instructor's (issue 25).
INSTRUCTOR_EXTENSIONS = ("@jupyter/nbgrader",)
# Where a lesson that needs numpy or matplotlib stops offline, and what it says (issue 25).
OFFLINE_CHECK_TAG = "site-needs-internet"
OFFLINE_CHECK = '''# On this browser-only site, numpy and matplotlib come from the internet (the Pyodide CDN).
class LessonNeedsTheInternet(Exception):
    """Shown as its sentence alone (IPython prints what _render_traceback_ returns)."""

    def _render_traceback_(self):
        return [str(self)]


try:
    import numpy, matplotlib  # noqa: F401,E401
except ImportError:
    raise LessonNeedsTheInternet(
        "This lesson needs the internet on this site: it uses numpy or matplotlib, which the site "
        "loads from the internet, and this computer could not reach it. Connect to the internet and "
        "run the lesson again (Kernel > Restart Kernel and Run All Cells). Without the internet, "
        "every app runs, and so do these lessons: {offline}.") from None
'''
INTERNET_MARK = " (needs the internet on this site)"


def offline_check_cell(offline: list[str]) -> dict:
    """The first cell of a lesson that needs the CDN: stops the run with one plain sentence offline."""
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": OFFLINE_CHECK_TAG,
        "metadata": {"tags": [OFFLINE_CHECK_TAG], "jupyter": {"source_hidden": True}},
        "outputs": [],
        "source": OFFLINE_CHECK.format(offline=", ".join(offline)),
    }


def mark_lessons_needing_the_internet(start_page: Path, needing: list[str]) -> None:
    """The site's index (the start page's map of lessons) marks each lesson that needs the internet."""
    notebook = json.loads(start_page.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        source = "".join(cell["source"])
        for name in needing:
            source = source.replace(f"]({name})", f"]({name}){INTERNET_MARK}")
        cell["source"] = source
    start_page.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def copy_contents(into: Path) -> Path:
    """The lessons and the apps, as committed (with their saved outputs), and the rules pages.

    Only student-safe notebooks (``published_notebooks``); the rules pages sit in docs/rules/ with
    each notebook's links to them one folder less up, as in `make lab`'s working copy. A lesson that
    needs numpy or matplotlib opens with :func:`offline_check_cell`, and the start page marks it.
    """
    contents = into / "contents"
    contents.mkdir(parents=True)
    heavy = needs_cdn(published_notebooks())
    offline = sorted(name for name, needs in heavy.items() if not needs and not name.startswith("apps/"))
    for notebook in published_notebooks():
        name = notebook.relative_to(ROOT / "notebooks")
        target = contents / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = with_docs_links_inside(notebook.read_text(encoding="utf-8"), name)
        if heavy[name.as_posix()]:
            lesson = json.loads(text)
            lesson["cells"].insert(0, offline_check_cell(offline))
            text = json.dumps(lesson, indent=1, ensure_ascii=False) + "\n"
        target.write_text(text, encoding="utf-8")
    mark_lessons_needing_the_internet(
        contents / "00_start_here.ipynb", sorted(name for name, needs in heavy.items() if needs)
    )
    shutil.copytree(ROOT / "docs" / "rules", contents / "docs" / "rules")
    for folder in UNPUBLISHED:
        assert not (contents / folder).exists()
    return contents


def without_instructor_extensions(output: Path) -> None:
    """Take nbgrader's Lab extension out of the built site, and disable it should it come back."""
    config_path = output / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    data = config["jupyter-config-data"]
    data["federated_extensions"] = [
        extension
        for extension in data.get("federated_extensions", [])
        if extension["name"] not in INSTRUCTOR_EXTENSIONS
    ]
    data["disabledExtensions"] = sorted(set(data.get("disabledExtensions", [])) | set(INSTRUCTOR_EXTENSIONS))
    config_path.write_text(json.dumps(config, indent=2))
    for name in INSTRUCTOR_EXTENSIONS:
        shutil.rmtree(output / "extensions" / name, ignore_errors=True)
    schemas = output / "build" / "schemas" / "all_federated.json"
    if schemas.exists():  # the settings of every extension's plugins, listed by plugin id
        plugins = json.loads(schemas.read_text())
        kept = [plugin for plugin in plugins if not plugin["id"].startswith(("nbgrader", *INSTRUCTOR_EXTENSIONS))]
        schemas.write_text(json.dumps(kept))


def build(output: Path, cache: Path = CACHE, expose_app: bool = False) -> dict:
    started = time.monotonic()
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gamelib-site-") as scratch:
        lite_dir = Path(scratch)
        pyodide_dir = lite_dir / "static" / "pyodide"
        shutil.copytree(
            unpack("pyodide", PYODIDE_VERSION, cache),
            pyodide_dir,
            ignore=shutil.ignore_patterns("*.map", "*.d.ts", "*.html", "README.md"),
        )
        lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
        wheel = gamelib_wheel(wheels)
        _, _, requirements, _ = wheel_metadata(wheel)
        local = add_local_packages(lock, pyodide_dir, wheels, KERNEL_PACKAGES + requirements)
        gamelib_entry(lock, wheel, pyodide_dir)
        point_the_rest_at_the_cdn(lock, pyodide_dir)
        (pyodide_dir / "pyodide-lock.json").write_text(json.dumps(lock))
        contents = copy_contents(lite_dir)
        # exposeAppInBrowser gives the browser tests window.jupyterapp, as in the Lab tests.
        config = {"jupyter-config-data": {"exposeAppInBrowser": expose_app}}
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(config))
        if output.exists():
            shutil.rmtree(output)
        run(
            [
                sys.executable,
                "-m",
                "jupyterlite_core",
                "build",
                "--lite-dir",
                str(lite_dir),
                "--output-dir",
                str(output.resolve()),
                "--contents",
                str(contents),
                "--no-sourcemaps",
                "--apps",
                "lab",
                "--apps",
                "notebooks",
                "--apps",
                "tree",
                "--piplite-wheels",
                str(wheel),
            ],
            cwd=lite_dir,
            stdout=subprocess.DEVNULL,
        )
    without_instructor_extensions(output)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    return {"seconds": time.monotonic() - started, "bytes": size, "local_packages": sorted(local)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--list-cdn-lessons", action="store_true", help="which notebooks need numpy/matplotlib")
    parser.add_argument("--expose-app", action="store_true", help="window.jupyterapp for tests")
    args = parser.parse_args()
    if args.list_cdn_lessons:
        for name, heavy in needs_cdn(lesson_notebooks()).items():
            print(
                ("needs the Pyodide CDN (numpy/matplotlib)  " if heavy else "runs offline                             ")
                + name
            )
        return
    facts = build(args.output, expose_app=args.expose_app)
    print(
        f"site: {args.output} ({facts['bytes'] / 1e6:.1f} MB, built in {facts['seconds']:.0f} s); "
        f"serve it with `python -m http.server -d {args.output}` and open /lab/index.html"
    )


if __name__ == "__main__":
    main()
