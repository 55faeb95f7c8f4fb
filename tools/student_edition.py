"""The student edition of the repository, and the check that a student route holds no answers (issue 25).

    python3 tools/student_edition.py [--output build/student]   # `make student-edition`
    python3 tools/student_edition.py --check FOLDER             # list any answer found in FOLDER

This repository is the instructor's: it holds the solved notebooks (docs/teaching/solutions/), the
nbgrader sources with their solutions and hidden tests (notebooks/course/assignments/), the
instructor guide with its rubrics (docs/teaching/) and the tests, which contain graded answers.
What students clone, download or open is drawn only from the student edition's files: the
student edition itself (a copy of the committed files without ``INSTRUCTOR_ONLY``, which a teacher
publishes as the students' repository, and which Binder builds), `make lab`'s working copy, the
browser-only site, the saved HTML pages and the apps (tools/working_copy.py, tools/npm_files.py).

Why an edition built by a command rather than an instructor bundle moved out: the solutions are
generated from the student notebooks and tested against them (tools/make_solutions.py,
tests/test_course_solutions.py), and the nbgrader sources are graded in the tests; keeping them
beside the lessons keeps that one source of truth and its tests, and the edition is a filter that
cannot drift from the lessons (a test builds it and scans it with :func:`answers_in`).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Path prefixes (relative, POSIX) that only the instructor takes.
INSTRUCTOR_ONLY = (
    "docs/teaching/",  # solved notebooks, rubrics, session notes, the grading workflow
    "notebooks/course/assignments/",  # nbgrader sources: solutions and hidden tests
    "tests/",  # the grading tests hold correct and wrong answers
    "bench/",
    ".ci/",
    "tools/make_solutions.py",
)
# Written in two parts, so that this file (which the edition carries) does not hold them itself.
MARKERS = ("BEGIN " + "SOLUTION", "BEGIN " + "HIDDEN TESTS")
SOLVED_BANNER = "Instructor's copy: " + "solutions filled in"  # tools/make_solutions.py's BANNER
STUDENT_GUIDE_STUB = """# The instructor guide is not part of the student edition

This is the **student edition** of gamelib: the lessons, the apps, the rules pages and the package.
The instructor guide (syllabus, session plans, grading with nbgrader, rubrics and the solved
notebooks) stays in the instructor's repository, from which this edition was built with
`make student-edition`. The rules of the three games are in [../rules/](../rules/README.md).
"""
LOCAL_ONLY = {
    ".git",
    ".venv",
    "build",
    "my_notebooks",
    "__pycache__",
    ".ipynb_checkpoints",
    ".pytest_cache",
    "test-artifacts",
    ".hypothesis",
    ".jupyter-test-home",
}


def student_safe(relative: str) -> bool:
    """Whether a file of the repository (POSIX path relative to its root) may reach a student."""
    return not relative.startswith(INSTRUCTOR_ONLY)


def committed_files(root: Path = ROOT) -> list[str]:
    """The repository's files: what git tracks, or every file outside local folders when not a checkout."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        return sorted(name for name in listed.stdout.decode().split("\0") if name and (root / name).is_file())
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not LOCAL_ONLY & set(p.relative_to(root).parts)
    )


def build(output: Path, root: Path = ROOT) -> list[str]:
    """Write the student edition into ``output`` (replaced); return the files copied."""
    if output.exists():
        shutil.rmtree(output)
    copied = [name for name in committed_files(root) if student_safe(name)]
    for name in copied:
        (output / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, output / name)
    # The start page links the instructor guide and each session its notes: in the edition, each
    # page of the guide is a note saying where the guide is, so no link is broken.
    for name in committed_files(root):
        if name.startswith("docs/teaching/") and name.endswith(".md") and "/solutions/" not in name:
            stub = output / name
            stub.parent.mkdir(parents=True, exist_ok=True)
            stub.write_text(
                STUDENT_GUIDE_STUB.replace("](../rules/", "](" + "../" * (name.count("/") - 1) + "rules/"),
                encoding="utf-8",
            )
    return copied


# ----------------------------------------------------------------------------- the check


def _normal(code: str) -> str:
    return re.sub(r"\s+", " ", code).strip()


def solution_snippets(root: Path = ROOT) -> list[str]:
    """What only a solved copy contains: each answer line and each solved cell of the solution files."""
    snippets = []
    for source in sorted((root / "docs" / "teaching" / "solutions" / "source").glob("*.json")):
        spec = json.loads(source.read_text(encoding="utf-8"))
        for code in spec.get("solutions", {}).values():
            snippets += [_normal(line) for line in code.splitlines() if re.match(r"answer\w* = ", line)]
        snippets += [_normal(cell) for cell in spec.get("cells", {}).values()]
    return snippets


def _readable_text(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None
    if path.suffix == ".ipynb":
        try:
            cells = json.loads(text)["cells"]
        except (ValueError, KeyError, TypeError):
            return text
        return text + "\n" + "\n".join(_normal("".join(c.get("source", ""))) for c in cells)
    return text


def answers_in(folder: Path, root: Path = ROOT) -> list[str]:
    """Every place in ``folder`` that holds an nbgrader marker, a solved copy or a solution's code."""
    snippets = solution_snippets(root)
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        if path.suffix in {".whl", ".zip"}:
            found += _answers_in_archive(path, name)
            continue
        text = _readable_text(path)
        if text is None:
            continue
        found += _answers_in_text(text, name, snippets)
    return found


def _answers_in_text(text: str, name: str, snippets: list[str]) -> list[str]:
    found = [f"{name}: {marker}" for marker in MARKERS if marker in text]
    if SOLVED_BANNER in text:
        found.append(f"{name}: a solved notebook (its banner)")
    normal = _normal(text)
    found += [f"{name}: the solution {snippet[:60]!r}" for snippet in snippets if snippet in normal]
    return found


def _answers_in_archive(path: Path, name: str) -> list[str]:
    import zipfile

    with zipfile.ZipFile(path) as archive:
        members = archive.namelist()
        found = [f"{name}!{member}" for member in members if "solutions/" in member or "assignments/" in member]
        for member in members:
            if member.endswith((".py", ".ipynb", ".json", ".md")):
                text = archive.read(member).decode("utf-8", "replace")
                found += [f"{name}!{member}: {marker}" for marker in MARKERS if marker in text]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "student")
    parser.add_argument("--check", type=Path, metavar="FOLDER", help="list the answers found in FOLDER")
    arguments = parser.parse_args()
    if arguments.check:
        found = answers_in(arguments.check)
        print("\n".join(found) if found else f"{arguments.check}: no solution, hidden test or solved notebook")
        sys.exit(1 if found else 0)
    copied = build(arguments.output)
    found = answers_in(arguments.output)
    if found:
        raise SystemExit("the student edition would hold answers:\n" + "\n".join(found))
    print(
        f"student edition: {arguments.output} ({len(copied)} files, no solution, hidden test or solved "
        f"notebook); publish this folder to students, e.g. as its own git repository"
    )


if __name__ == "__main__":
    main()
