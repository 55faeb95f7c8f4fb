"""The Pangu board where numpy is missing (the browser-only site offline, issue 15): it imports and
plays; before turn 3 its evaluation bar says plainly that the exact chance needs numpy here, and from
turn 3 the solver answers exactly without the table. Run in a fresh Python whose ``import numpy`` fails."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = textwrap.dedent("""
    import json, sys
    from gamelib.pangu import new_game
    from gamelib.pangu.board import NO_NUMPY_NOTE, PanguBoard
    from gamelib.pangu.bots import greedy_policy
    from gamelib.pangu.guide import first_deal_the_hints_win
    from gamelib.pangu.solver.tables import NumpyMissing, ShippedTables

    board = PanguBoard(new_game(seed=first_deal_the_hints_win(2024)), label="app", hints=True)  # the app
    first = board.evaluation()
    state, rng = board.match.state, __import__("random").Random(0)
    while state.turn < 3:
        state = state.apply(greedy_policy(state, rng))
    third = board.evaluate(state)
    try:
        ShippedTables()
        refused = ""
    except NumpyMissing as error:
        refused = str(error)
    print(json.dumps({"numpy_loaded": "numpy" in sys.modules, "first_note": first.note, "first_win": first.win,
                      "expected_note": NO_NUMPY_NOTE, "third_exact": third.win is not None, "refused": refused}))
""")


def test_the_board_plays_without_numpy_and_says_why_exact_values_are_missing(tmp_path):
    blocker = tmp_path / "numpy"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('No module named numpy (blocked by the test)')\n")
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert not seen["numpy_loaded"]
    assert seen["first_win"] is None and seen["first_note"] == seen["expected_note"]
    assert "needs numpy" in seen["first_note"] and "turn 3" in seen["first_note"]
    assert seen["third_exact"]  # from turn 3 the solver needs no table
    assert "numpy" in seen["refused"]
