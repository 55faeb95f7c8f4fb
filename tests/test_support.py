"""The shared helpers: simulation intervals, exercises, plots, the board base and packaging."""

import random
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import matplotlib
import pytest

from gamelib import Match, check_answer
from gamelib import exercises, plots, simulate
from gamelib.widgets import BoardWidget, assets
from toy_game import new_game

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ simulate


def test_wilson_interval_covers_the_truth_about_95_percent_of_the_time():
    rng = random.Random(1)
    true_rate, trials, covered = 0.3, 200, 0
    for _ in range(400):
        hits = sum(rng.random() < true_rate for _ in range(trials))
        covered += simulate.proportion(hits, trials).contains(true_rate)
    assert 0.91 <= covered / 400 <= 0.99


def test_proportion_edges_and_errors():
    none = simulate.proportion(0, 50)
    assert none.low == 0 and 0 < none.high < 0.1
    assert simulate.proportion(50, 50).high == 1
    with pytest.raises(ValueError):
        simulate.proportion(3, 2)
    with pytest.raises(ValueError):
        simulate.proportion(0, 0)


def test_mean_interval_and_text():
    estimate = simulate.mean([1, 2, 3, 4, 5])
    assert estimate.value == 3 and estimate.low < 3 < estimate.high
    assert "95% CI" in str(estimate) and "n=5" in str(estimate)


def test_run_many_is_reproducible():
    def play_one(seed):
        return random.Random(seed).random()

    assert simulate.run_many(play_one, 5, seed=3, show_progress=False) == simulate.run_many(play_one, 5, seed=3)
    assert simulate.seeds(1, 3) != simulate.seeds(2, 3)


# ------------------------------------------------------------------ exercises


def test_check_answer_right_wrong_and_unreadable(tmp_path, monkeypatch):
    sheet = {"q1": {"digest": exercises.digest(Fraction(3, 8)), "kind": "exact", "hint": "count the cases"}}
    monkeypatch.setattr(exercises, "load", lambda lesson: sheet)
    monkeypatch.setattr(exercises, "lessons", lambda: ["any"])
    right = check_answer("any", "q1", Fraction(6, 16))
    assert right and "right" in right
    wrong = check_answer("any", "q1", Fraction(1, 2))
    assert not wrong and "count the cases" in wrong and "3/8" not in wrong
    assert not check_answer("any", "q1", 0.375) and "exact fraction" in check_answer("any", "q1", 0.375)
    assert not check_answer("any", "q1", ...)
    assert "no question" in check_answer("any", "q9", 1)


def test_every_answer_sheet_is_well_formed():
    for path in (ROOT / "gamelib" / "answers").glob("*.json"):
        sheet = exercises.load(path.stem)
        for question, entry in sheet.items():
            assert set(entry) >= {"digest", "kind", "hint"}, (path.name, question)
            assert re.fullmatch(r"[0-9a-f]{64}", entry["digest"]), (path.name, question)
            assert entry["kind"] in {"exact", "integer", "text"}


# ------------------------------------------------------------------ plots


def test_house_style_figures_are_labelled():
    matplotlib.use("Agg", force=True)
    fig, ax = plots.figure()
    plots.bars(ax, {"mine": {1: 0.5, 2: 0.5}, "theirs": {1: 0.2, 2: 0.8}}, "points", "probability")
    assert ax.get_xlabel() == "points" and ax.get_ylabel() == "probability"
    assert len(ax.patches) == 4 and ax.get_legend() is not None
    fig2, ax2 = plots.figure()
    plots.steps(ax2, {"x": {0: 1.0, 1: 0.5}})
    assert ax2.get_ylabel() == "P(X ≥ k)"
    matplotlib.pyplot.close("all")


def test_step_curves_jump_at_the_whole_numbers():
    """A value of a whole number k holds from k to k + 1: the jump from 1/4 to 3/4 is drawn at k = 2
    (issue 10 point 9: Pangu 03's final-card plot had its jumps at half-integers)."""
    matplotlib.use("Agg", force=True)
    fig, ax = plots.figure()
    plots.steps(ax, {"x": {1: 0.25, 2: 0.75, 3: 1.0}})
    (line,) = ax.get_lines()
    assert line.get_drawstyle() == "steps-post"
    xs, ys = line.get_path().vertices.T  # the drawn path, steps included
    jumps = {float(x) for (x, y), (x2, y2) in zip(zip(xs, ys), zip(xs[1:], ys[1:])) if x == x2 and y != y2}
    assert jumps == {2.0, 3.0}
    matplotlib.pyplot.close("all")


# ------------------------------------------------------------------ board base


class RaceBoard(BoardWidget):
    _esm = "export default { render() {} }"

    def state_json(self, state):
        return {"scores": list(state.points), "to_move": state.to_move}

    def handle_pick(self, pick):
        self.apply(pick["throw"])
        return f"threw {pick['throw']}"


def test_board_pick_applies_the_move_and_history_steps():
    board = RaceBoard(new_game(seed=5))
    board.pick = {"throw": "ONE_DIE", "nonce": 1}
    assert board.match.length == 1 and board.message == "threw ONE_DIE"
    assert board.state["scores"][0] > 0 and board.state["to_move"] == 1
    board.pick = {"kind": "history", "to": "back", "nonce": 2}
    assert board.history == {"index": 0, "length": 1, "can_back": False, "can_forward": True}
    assert board.state["scores"] == [0, 0]
    board.pick = {"kind": "history", "to": "end", "nonce": 3}
    assert board.history["index"] == 1


def test_board_illegal_pick_shows_the_reason_and_keeps_the_game():
    board = RaceBoard(new_game(seed=5))
    board.pick = {"throw": "SIX_DICE", "nonce": 1}
    assert board.message_kind == "error" and "ONE_DIE or TWO_DICE" in board.message
    assert board.match.length == 0
    board.pick = {"kind": "history", "to": "back", "nonce": 2}
    assert board.message_kind == "error" and "start" in board.message


def test_board_follows_a_shared_match_and_has_a_stable_repr():
    match = Match(new_game(seed=1))
    first, second = RaceBoard(match), RaceBoard(match)
    match.apply("TWO_DICE")
    assert first.state == second.state and first.history["length"] == 1
    assert repr(first) == "RaceBoard(move 1 of 1)"
    assert "<pre" in first._repr_html_()


def test_assets_put_shared_helpers_first():
    js, css = assets(ROOT / "gamelib" / "widgets" / "common.js")
    assert js.startswith("// Shared helpers") and "function sendPick" in js
    assert ".gl-message" in css


# ------------------------------------------------------------------ packaging


def _requirement_names(requirements):
    return {re.split(r"[<>=!~ \[]", req, maxsplit=1)[0].strip().lower() for req in requirements}


# Where conda-forge spells a package differently from the package index.
CONDA_NAMES = {"playwright": "playwright-python"}


def _conda_environment(path):
    """(conda package names, pip items, the python line) of an environment file."""
    conda, pip_items, python = set(), [], None
    in_pip, section = False, None
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if re.match(r"^\w", line):
            section = line.split(":")[0]
        if section != "dependencies":
            continue
        if stripped.startswith("- pip:"):
            in_pip = True
            continue
        if in_pip and line.startswith("      - "):
            pip_items.append(stripped[2:])
            continue
        in_pip = False
        if line.startswith("  - "):
            name = _requirement_names([stripped[2:]]).pop()
            if name == "python":
                python = stripped[2:]
            elif name != "pip":
                conda.add(name)
    return conda, pip_items, python


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _conda_names(requirements):
    return {CONDA_NAMES.get(name, name) for name in _requirement_names(requirements)}


def _check_python_pin(python, project):
    # repo2docker reads only an exact pin (python=3.11) as the version to build; >= it ignores.
    assert re.fullmatch(r"python=3\.\d+", python or ""), f"pin Python as python=3.X, not {python!r}"
    lowest = tuple(int(part) for part in project["requires-python"].removeprefix(">=").split("."))
    assert tuple(int(part) for part in python.removeprefix("python=").split(".")) >= lowest


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = _pyproject()
    extras = project["optional-dependencies"]
    wanted = _conda_names(project["dependencies"] + extras["lab"] + extras["voila"] + extras["test"])
    conda, pip_items, python = _conda_environment(ROOT / "environment.yml")
    assert conda == wanted, f"environment.yml and pyproject.toml disagree: {conda ^ wanted}"
    assert "playwright" not in conda, "conda-forge calls Playwright's Python package playwright-python"
    assert pip_items == ["-e ."], "environment.yml must pip-install the package itself"
    _check_python_pin(python, project)


def test_binder_environment_holds_the_runtime_and_voila_only():
    project = _pyproject()
    wanted = _conda_names(project["dependencies"] + project["optional-dependencies"]["voila"])
    conda, pip_items, python = _conda_environment(ROOT / "binder" / "environment.yml")
    assert conda == wanted, f"binder/environment.yml and pyproject.toml disagree: {conda ^ wanted}"
    assert not conda & _conda_names(project["optional-dependencies"]["test"]), "no test tools on Binder"
    _check_python_pin(python, project)
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "pip install --no-deps ." in post_build, "Binder installs gamelib itself with pip"
    assert (ROOT / "binder" / "postBuild").stat().st_mode & 0o111, "postBuild must be executable"


def test_jupyterlab_is_an_extra_not_a_runtime_dependency():
    project = _pyproject()
    assert "jupyterlab" not in _requirement_names(project["dependencies"])
    assert "jupyterlab" in _requirement_names(project["optional-dependencies"]["lab"])
    assert {"jupyterlite-core", "jupyterlite-pyodide-kernel", "jupyter-server"} <= _requirement_names(
        project["optional-dependencies"]["site"]
    )


def test_makefile_targets_match_the_readme():
    makefile = (ROOT / "Makefile").read_text()
    readme = (ROOT / "README.md").read_text()
    for target in ("lab", "test", "app", "site", "html", "test-deploy"):
        assert re.search(rf"^{target}:", makefile, re.M)
        assert f"make {target}" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "make test-deploy" in ci


def test_check_answer_never_raises_on_odd_answers():
    # Issue 9, point 12: "1/0", inf for an integer question and an unknown lesson used to raise.
    questions = {
        entry["kind"]: (lesson, question)
        for lesson in exercises.lessons()
        for question, entry in exercises.load(lesson).items()
    }
    assert set(questions) == {"exact", "integer", "text"}
    for lesson, question in questions.values():
        for odd in ("1/0", float("inf"), float("nan"), [], {}, object(), "", 10**400, True):
            feedback = check_answer(lesson, question, odd)
            assert isinstance(feedback, exercises.Feedback) and not feedback
    assert "0 below the line" in check_answer(*questions["exact"], "1/0")
    assert "whole number" in check_answer(*questions["integer"], float("inf"))
    assert "no lesson" in check_answer("no_such_lesson", "q1", 1)


def test_common_mistakes_get_their_own_hint(monkeypatch):
    sheet = {
        "q1": {
            "digest": exercises.digest(7, "integer"),
            "kind": "integer",
            "hint": "count again",
            "mistakes": [{"digest": exercises.digest(6, "integer"), "hint": "Off by one: did you count both ends?"}],
        }
    }
    monkeypatch.setattr(exercises, "load", lambda lesson: sheet)
    monkeypatch.setattr(exercises, "lessons", lambda: ["any"])
    assert "both ends" in check_answer("any", "q1", 6)
    assert "count again" in check_answer("any", "q1", 5)
    assert check_answer("any", "q1", 7)
