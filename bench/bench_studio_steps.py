"""The studio's step costs: every position of Pig listed through ``search_step`` and ``apply``.

Run: ``.venv/bin/python bench/bench_studio_steps.py [--goal 100] [--apply]``. It lists every position
reachable from ``pig.new_game(explicit_chance=True)`` (player positions and chance nodes, each once
by ``key()``), as a solver does, and prints the count, the CPU seconds (``time.process_time``, so a
shared machine's other work does not count) and the microseconds per step. The garbage collector is
off during the walk, as a solver building a large graph would keep it. ``--apply`` walks with the
checked ``apply`` as well, for the price of the checks.
"""

from __future__ import annotations

import argparse
import gc
import time

from gamelib.core import CHANCE, TERMINAL
from gamelib.studio.examples import pig


def walk(goal: int, checked: bool) -> tuple[int, int, float]:
    """(positions, steps, CPU seconds) of listing every position of Pig to ``goal``."""
    start = pig.new_game(seed=0, rules=pig.Rules(goal=goal), explicit_chance=True)
    seen, stack, steps = {start.key()}, [start], 0
    gc.disable()
    began = time.process_time()
    try:
        while stack:
            state = stack.pop()
            player = state.current_player
            if player == TERMINAL:
                continue
            options = [outcome for outcome, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
            for action in options:
                successor = state.apply(action) if checked else state.search_step(action)
                steps += 1
                if successor.key() not in seen:
                    seen.add(successor.key())
                    stack.append(successor)
        return len(seen), steps, time.process_time() - began
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--apply", action="store_true", help="walk with the checked apply too")
    arguments = parser.parse_args()
    for checked in [False, True] if arguments.apply else [False]:
        positions, steps, seconds = walk(arguments.goal, checked)
        step = "apply" if checked else "search_step"
        print(
            f"Pig to {arguments.goal} through {step}: {positions:,} positions, {steps:,} steps, "
            f"{seconds:.1f} s CPU ({1e6 * seconds / steps:.2f} us a step, the status of each new position included)"
        )


if __name__ == "__main__":
    main()
