"""How long a click on the Pangu board takes with the evaluation shown (CPU time, medians).

For each position of the guided game's line (seed 29) a board is built cold (a fresh solver:
the first time a player reaches the position) and refreshed again (a selection click on the
same position: the board's per-position cache). The naive method rebuilds every value at each
refresh, as a board without any cache would. Run:
``.venv/bin/python bench/bench_pangu_board.py``.
"""

from __future__ import annotations

import statistics
import time

from gamelib import Match
from gamelib.pangu import new_game, solver
from gamelib.pangu.board import Evaluator, PanguBoard
from gamelib.pangu.guide import line_of


def cpu(call) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def main() -> None:
    start = new_game(seed=29)
    line = line_of(start)
    states = Match.replay(start, line).states
    rows = []
    for index, state in enumerate(states[:-1]):
        if state.turn == 2:
            continue  # seconds without the shipped tables: the lesson solves these in advance (Evaluator.warm)

        def fresh_board():
            solver.forget_solvers()  # a new solver: nothing of this deal memoised yet
            return PanguBoard(state, hints=True, evaluator=Evaluator())

        cold = statistics.median(cpu(fresh_board) for _ in range(3))
        board = fresh_board()
        again = statistics.median(cpu(board.refresh) for _ in range(7))

        def uncached_refresh():  # what a refresh costs when nothing is cached: the board, cold, every click
            solver.forget_solvers()
            board.evaluate = Evaluator()
            board.refresh()

        naive = statistics.median(cpu(uncached_refresh) for _ in range(3))
        exact = board.state["evaluation"]["exact"]
        rows.append((index, state.turn, cold, again, naive, exact))
        print(
            f"position {index:2} (turn {state.turn}): first display {cold * 1000:7.1f} ms, "
            f"cached refresh {again * 1000:6.1f} ms, uncached refresh {naive * 1000:6.1f} ms, exact: {exact}"
        )
    colds = [row[2] for row in rows]
    agains = [row[3] for row in rows]
    print(
        f"median first display {statistics.median(colds) * 1000:.1f} ms (max {max(colds) * 1000:.1f} ms), "
        f"median cached refresh {statistics.median(agains) * 1000:.1f} ms"
    )
    late = [row for row in rows if row[1] >= 3]
    ratio = statistics.median(r[4] for r in late) / statistics.median(r[3] for r in late)
    print(f"from turn 3: an uncached refresh takes {ratio:.1f}x the time of a cached one")


if __name__ == "__main__":
    main()
