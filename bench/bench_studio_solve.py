"""How long gamelib.studio.solve takes to solve Pig to 100, beside a plain value iteration written for Pig.

    PYTHONPATH=$PWD python bench/bench_studio_solve.py            # 3 runs of each (about 15-25 minutes)
    PYTHONPATH=$PWD python bench/bench_studio_solve.py --runs 1 --goal 60

The solver lists every position of the studio's Pig example through the game's own functions
(about 2 million positions and chance nodes at goal 100) and solves them by components; the
reference below knows Pig's structure and computes Neller and Presser's P(i, j, k) directly in
plain Python (Gauss-Seidel on each pair of banked scores, from the highest sums down), to the
same tolerance. Both use the studio example's rules: the first roll of a turn is compulsory and
a player wins as soon as banked points plus the turn total reach the goal. The ratio of the
medians says what the generality costs; the machine is shared, so runs alternate.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gamelib.studio.examples import pig
from gamelib.studio.solve import solve

TOLERANCE = 1e-12


def reference_pig(goal: int, tolerance: float = TOLERANCE) -> float:
    """The first player's chance of winning Pig to ``goal`` under optimal play, by plain value iteration.

    ``value[i][j][k]``: the chance that the player to move wins with ``i`` banked, the opponent ``j``,
    and turn total ``k`` (``i + k < goal``). Pairs of banked scores are solved from the highest sum
    down: holding leads to a higher sum (already solved), a 1 to the same pair swapped (iterated)."""
    value = [[[0.0] * (goal - i) for _ in range(goal)] for i in range(goal)]

    def after_roll(i, j, k):
        total = (1 - value[j][i][0]) / 6  # a 1: the turn passes
        for face in range(2, 7):
            total += (1.0 if i + k + face >= goal else value[i][j][k + face]) / 6
        return total

    def update(i, j):
        change = 0.0
        row = value[i][j]
        for k in range(goal - i - 1, -1, -1):
            best = after_roll(i, j, k)
            if k > 0:  # holding is allowed once something is rolled
                best = max(best, 1 - value[j][i + k][0])
            change = max(change, abs(best - row[k]))
            row[k] = best
        return change

    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            j = total - i
            if i > j:
                continue
            while max(update(i, j), update(j, i)) > tolerance / 10:
                pass
    return value[0][0][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--goal", type=int, default=100)
    arguments = parser.parse_args()
    rules = pig.Rules(goal=arguments.goal)
    solver_times, reference_times = [], []
    for run in range(arguments.runs):
        started = time.perf_counter()
        solution = solve(pig, rules, progress=False)
        solver_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        reference = reference_pig(arguments.goal)
        reference_times.append(time.perf_counter() - started)
        print(
            f"run {run + 1}: solver {solver_times[-1]:.1f} s ({', '.join(f'{k} {v:.1f} s' for k, v in solution.timings.items())}); "
            f"plain reference {reference_times[-1]:.1f} s",
            flush=True,
        )
    print(solution)
    print(
        f"first player's chance under optimal play: solver {float(solution.start_value[0]):.12f}, "
        f"reference {reference:.12f}, difference {abs(float(solution.start_value[0]) - reference):.1e}"
    )
    solver, plain = statistics.median(solver_times), statistics.median(reference_times)
    print(
        f"Pig to {arguments.goal}: solver median {solver:.1f} s over {arguments.runs} run(s) "
        f"({solution.positions:,} positions); plain reference median {plain:.1f} s; ratio solver/reference "
        f"{solver / plain:.2f}; target: at most 180 s"
    )


if __name__ == "__main__":
    main()
