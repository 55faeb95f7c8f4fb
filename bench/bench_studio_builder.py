"""The studio's steps on the core's builder against the slotted builder the studio had before.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_studio_builder.py [--runs 7] [--goal 40]``.

A studio state is now built by ``gamelib.core.Draft.for_class(State)``: a draft copying the state's
slots, edited, then frozen. Before, the studio had a builder of its own (``_StateBuilder``: a blank
object of the state's slots, every field set, its class then changed). That builder and the three
methods that used it (``apply``, ``search_step``, ``_resolve_chance``, as of commit ed3ee47) are kept
below, verbatim but for the class names, on a subclass of Pig's state, so both run in this process
on the same games. Three workloads, each timed in CPU seconds (``time.process_time``, so a shared
machine's other jobs do not count), the two builders alternating run by run:

* listing every position of Pig to ``--goal`` through the unchecked ``search_step`` (a solver's walk);
* the same walk through the checked ``apply``;
* seeded random games of Pig, the race and the bluffing game in default chance mode (``apply``, then
  the seed's dice drawn by ``_resolve_chance``), every game's final save compared between builders.

Printed: each side's median microseconds a step and the median of the run-by-run ratios
(core draft time / old builder time: below 1 means the core's builder is faster).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from gamelib.core import CHANCE, TERMINAL, IllegalMove, chance_rng, sample_outcome
from gamelib.studio.examples import bluff, pig, race
from gamelib.studio.game import (
    _NONE,
    _PLAIN,
    MAX_CHANCE_CHAIN,
    GameCodeError,
    _call,
    _check_saveable,
    _matching,
    _set_drawn,
    _short,
    _StateSlots,
    _Where,
)


class _StateBuilder(_StateSlots):
    """The studio's own builder before it used the core's (commit ed3ee47)."""

    __slots__ = ()


def old_builder_state_class(state_class: type) -> type:
    """A subclass of a studio game's ``State`` that builds its states the old way."""

    class OldBuilderState(state_class):
        __slots__ = ()

        @classmethod
        def _make(cls, game, position, seed, draws, explicit_chance, history):
            state = _StateBuilder()
            state._game, state.position, state.seed, state.draws = game, position, seed, draws
            state.explicit_chance, state._history, state._status, state._drawn = explicit_chance, history, None, ()
            state.__class__ = cls
            return state

        def apply(self, action):
            player, _, outcomes = self._state_status()
            game = self._game
            if player == TERMINAL:
                raise IllegalMove(f"the game is over ({self._result_text()}): no more moves", action)
            if player == CHANCE:
                chosen = _matching(action, [outcome for outcome, _ in outcomes])
                if chosen is _NONE:
                    shown = ", ".join(_short(outcome) for outcome, _ in outcomes[:12])
                    raise IllegalMove(
                        f"chance decides here: {_short(action)} is not one of its outcomes ({shown})", action
                    )
            else:
                moves = self.legal_actions()
                chosen = _matching(action, moves)
                if chosen is _NONE:
                    shown = ", ".join(self.action_label(move) for move in moves[:12])
                    raise IllegalMove(
                        f"{_short(action)} is not a legal move for seat {player} here; the legal moves are: {shown}",
                        action,
                    )
                if type(chosen) not in _PLAIN:
                    _check_saveable(game, chosen, _Where(game, "moves", self.position), "move")
            position = game._checked_position(_call(game, "play", self.position, chosen), "play", self.position, chosen)
            state = type(self)._make(
                game,
                position,
                self.seed,
                self.draws,
                self.explicit_chance,
                None if self._history is None else (self._history, chosen),
            )
            return state if self.explicit_chance else state._resolve_chance()

        def search_step(self, action):
            game = self._game
            history = self._history
            state = type(self)._make(
                game,
                game.play(self.position, action),
                self.seed,
                self.draws,
                self.explicit_chance,
                None if history is None else (history, action),
            )
            return state if self.explicit_chance else state._resolve_chance()

        def _resolve_chance(self):
            state, drawn = self, []
            for _ in range(MAX_CHANCE_CHAIN):
                player, _, outcomes = state._state_status()
                if player != CHANCE:
                    if drawn:
                        _set_drawn(state, tuple(drawn))
                    return state
                outcome = sample_outcome(outcomes, chance_rng(state.seed, state.draws))
                drawn.append(outcome)
                game = state._game
                position = game._checked_position(
                    _call(game, "play", state.position, outcome), "play", state.position, outcome
                )
                state = type(state)._make(game, position, state.seed, state.draws + 1, False, state._history)
            raise GameCodeError("too many chance events in a row")

    return OldBuilderState


def walk(start, checked: bool) -> tuple[int, float]:
    """(steps, CPU seconds) of listing every position reachable from ``start`` (each once by key)."""
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
        return steps, time.process_time() - began
    finally:
        gc.enable()


def random_games(starts: list) -> tuple[int, float, list[str]]:
    """(steps, CPU seconds, final saves) of playing each start to its end with seeded random moves."""
    steps, ends = 0, []
    began = time.process_time()
    for number, state in enumerate(starts):
        rng = random.Random(number)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_actions()))
            steps += 1
        ends.append(state)
    seconds = time.process_time() - began
    return steps, seconds, [state.to_json() for state in ends]


def same_game_old_way(state, old_class: type):
    """``state`` (a new game, no move yet) as a state of the old builder's class."""
    return old_class._make(state._game, state.position, state.seed, state.draws, state.explicit_chance, state._history)


def compare(name: str, runs: int, run_new, run_old) -> None:
    """Time the two builders ``runs`` times each, alternating, and print the medians and the ratio."""
    new_times, old_times, ratios = [], [], []
    for number in range(runs):
        order = [(run_new, new_times), (run_old, old_times)]
        for run, times in order if number % 2 == 0 else reversed(order):
            steps, seconds = run()
            times.append(1e6 * seconds / steps)
        ratios.append(new_times[-1] / old_times[-1])
    print(
        f"{name}: core draft {statistics.median(new_times):.2f} us a step, old builder "
        f"{statistics.median(old_times):.2f} us; ratio {statistics.median(ratios):.3f} "
        f"(runs {min(ratios):.3f}-{max(ratios):.3f}, {runs} pairs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--goal", type=int, default=40, help="Pig's goal for the position walks")
    parser.add_argument("--games", type=int, default=300, help="random games of each example")
    arguments = parser.parse_args()
    old_pig = old_builder_state_class(pig.State)
    start = pig.new_game(seed=0, rules=pig.Rules(goal=arguments.goal), explicit_chance=True)
    old_start = same_game_old_way(start, old_pig)
    for checked in (False, True):
        compare(
            f"Pig to {arguments.goal}, every position through {'apply' if checked else 'search_step'}",
            arguments.runs,
            lambda: walk(start, checked),
            lambda: walk(old_start, checked),
        )
    for module in (pig, race, bluff):
        starts = [module.new_game(seed=seed) for seed in range(arguments.games)]
        old_starts = [same_game_old_way(state, old_builder_state_class(module.State)) for state in starts]
        assert random_games(starts[:20])[2] == random_games(old_starts[:20])[2], "the builders played differently"
        compare(
            f"{arguments.games} random games of {module.__name__.rsplit('.', 1)[-1]} (apply, seeded dice)",
            arguments.runs,
            lambda: random_games(starts)[:2],
            lambda: random_games(old_starts)[:2],
        )


if __name__ == "__main__":
    main()
