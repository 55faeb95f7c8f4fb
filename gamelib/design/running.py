"""Tournaments on every core, or on any ``concurrent.futures.Executor`` (a Dask cluster too).

A tournament here is :func:`gamelib.core.tournament` (its plan: seats rotated, one seed per
deal) with a runner that sends the games to workers; each game is the core's
:func:`gamelib.core.play_seated_game` with the lead traced. A worker only ever
receives ``(deal seed, seating)`` pairs, so a game's result does not depend on which worker
played it, in which order, or how many workers there were.
"""

from __future__ import annotations

import importlib
import os
import pickle
import sys
import warnings
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Callable, Iterator, Sequence

from gamelib.core import CHANCE, Policy, play_seated_game, seatings
from gamelib.core import tournament as core_tournament
from gamelib.design.results import GameResult, Results, ended_by_rules, leader, score_lead

PARALLEL_FROM = 64
"""Below this many games to play (deals x seatings) a tournament runs in this process: starting workers
would cost more."""

LeadMeasure = Callable[[Any], Sequence[float]]


def tournament(
    game: Any,
    policies: Policy | Sequence[Policy],
    games: int,
    rules: Any = None,
    *,
    seed: int = 0,
    setup: dict | None = None,
    rotate: bool | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    chunk: int | None = None,
    lead: LeadMeasure | bool | None = None,
    completed: Callable[[Any], bool] | None = None,
    names: Sequence[str] | None = None,
    variant: str | None = None,
    progress: bool = True,
    description: str | None = None,
) -> Results:
    """Play ``games`` deals, each once per seating, and return the table of games.

    :func:`gamelib.core.tournament` with a runner that plays its plan here or on other
    processes and keeps the design fields of each game (:meth:`GameResult.from_record`).

    Args:
        game: a game module (or its ``new_game``).
        policies: one policy per seat, or one policy for every seat.
        games: the number of DEALS, as in :func:`gamelib.core.tournament`; each is played once
            per seating.
        rules: the rule set (default: the game's); ``setup`` goes to ``new_game`` too.
        seed: the master seed: the same one gives the same deals to every compared bot or rule set.
        rotate: rotate the seats (default: unless every seat holds the same policy, where a
            rotation would only replay each deal).
        executor: any ``concurrent.futures.Executor`` (a Dask ``distributed.Client`` too);
            without one, the games run across ``workers`` local processes (default: every core),
            or here when there are few (fewer than :data:`PARALLEL_FROM`) or they cannot be sent.
        chunk: the games per task sent to the executor (default: several tasks per worker).
        lead: maps a state to a value per seat for the lead trace (default: the scores;
            ``False``: no trace).
        completed: maps a final state to whether the rules ended it (default: the state's
            ``ended_by_rules``, see :func:`ended_by_rules`).
        names: label the policies; ``variant`` labels the rules in the table.
        progress, description: the progress bar and its label.

    Returns:
        A :class:`Results` table, one row per game in plan order, whatever the executor.

    Example (one policy in every seat: no rotation, so 200 games)::

        results = design.tournament(chakra, chakra.greedy_policy, 200, setup={"players": 3}, seed=1)
        design.seat_win_rates(results)
    """
    setup = dict(setup or {})
    policies = _seat_policies(game, policies, rules, setup)
    if rotate is None:
        rotate = len({id(policy) for policy in policies}) > 1
    job = _Job(
        _game_reference(game),
        tuple(policies),
        rules,
        setup,
        lead,
        completed,
        variant or ("default rules" if rules is None else str(rules)),
        tuple(names or (_policy_name(policy) for policy in policies)),
    )
    planned = games * len(seatings(len(policies), rotate))
    label = description or f"{games} deals x {planned // max(games, 1)} seatings"
    with _executor_for(executor, workers, planned, job) as chosen:
        rows = core_tournament(
            game,
            policies,
            games,
            rules=rules,
            seed=seed,
            setup=setup,
            rotate=rotate,
            progress=progress,
            description=label,
            runner=lambda plan: _run(job, plan, chosen, chunk, workers),
        )
        return Results(rows)


def players_of(game: Any, rules: Any = None, setup: dict | None = None) -> int:
    """The number of seats of a game set up with ``rules`` and ``setup`` (the length of its returns)."""
    return len(_new_game(game)(0, rules, **(setup or {})).returns())


# --------------------------------------------------------------------------- one chunk of games


class _Job:
    """What every worker needs to play its games; small and picklable."""

    def __init__(self, game_reference, policies, rules, setup, lead, completed, variant, names):
        self.game_reference, self.policies, self.rules, self.setup = game_reference, policies, rules, setup
        self.lead, self.completed, self.variant, self.names = lead, completed, variant, names


def play_chunk(job: _Job, items: Sequence[tuple[int, int, tuple[int, ...]]]) -> list[GameResult]:
    """Play the games ``(index, deal seed, seating)`` of one task (runs in a worker)."""
    game = _resolve_game(job.game_reference)
    return [play_traced_game(game, job, index, deal_seed, seating) for index, deal_seed, seating in items]


def play_traced_game(game: Any, job: _Job, index: int, deal_seed: int, seating: tuple[int, ...]) -> GameResult:
    """One game by the core's :func:`play_seated_game`, with the leader noted before every player action."""
    measure = None if job.lead is False else (job.lead if callable(job.lead) else score_lead)
    trace: list[int] = []
    first_mover: list[int] = []

    def note(state, action):
        if state.current_player != CHANCE:
            if not first_mover:
                first_mover.append(state.current_player)
            if measure is not None:
                trace.append(leader(measure(state)))

    record = play_seated_game(
        game, job.policies, seating, deal_seed, job.rules, job.setup, index, keep_final=True, on_action=note
    )
    if measure is not None:
        trace.append(leader(measure(record.final)))
    return GameResult.from_record(
        record,
        completed=(job.completed or ended_by_rules)(record.final),
        first_mover=first_mover[0] if first_mover else None,
        trace=trace,
        variant=job.variant,
        policies=job.names,
    )


# --------------------------------------------------------------------------- executors


def _run(
    job: _Job, items: list, executor: Executor | None, chunk: int | None, workers: int | None
) -> Iterator[GameResult]:
    """Play the planned ``(index, deal seed, seating)`` games here or in chunks on ``executor``, in plan order."""
    if executor is None:
        for item in items:
            yield from play_chunk(job, [item])
        return
    size = chunk or _chunk_size(len(items), workers)
    futures = [executor.submit(play_chunk, job, items[start : start + size]) for start in range(0, len(items), size)]
    for future in futures:  # in submission order, so the table is in plan order
        yield from future.result()


def _chunk_size(planned: int, workers: int | None) -> int:
    """Games per task for ``planned`` games: several tasks per worker (so a slow one does not hold the rest
    back), at most 50 games each."""
    return max(1, min(50, planned // (4 * (workers or os.cpu_count() or 1)) or 1))


@contextmanager
def _executor_for(executor: Executor | None, workers: int | None, planned: int, job: _Job):
    """The executor given, or a local process pool for ``planned`` games if enough, or none (run here)."""
    if executor is not None:
        yield executor
        return
    count = workers if workers is not None else (os.cpu_count() or 1)
    if sys.platform == "emscripten":  # Pyodide (the browser-only site) cannot start processes
        count = 1
    if count <= 1 or (workers is None and planned < PARALLEL_FROM) or not _picklable(job):
        yield None
        return
    pool = ProcessPoolExecutor(max_workers=count)
    try:
        yield pool
    finally:
        pool.shutdown(cancel_futures=True)


def _picklable(job: _Job) -> bool:
    try:
        pickle.dumps(job)
        return True
    except (pickle.PicklingError, AttributeError, TypeError) as problem:
        warnings.warn(
            f"playing in this process only: the game, policies or lead measure cannot be sent to "
            f"other processes ({problem}); define them in a module, not as lambdas",
            stacklevel=4,
        )
        return False


# --------------------------------------------------------------------------- games and policies


def _game_reference(game: Any) -> Any:
    """Modules do not pickle, so a game module travels by name and is imported in the worker."""
    return ("module", game.__name__) if isinstance(game, ModuleType) else game


def _resolve_game(reference: Any) -> Any:
    if isinstance(reference, tuple) and reference[:1] == ("module",):
        return importlib.import_module(reference[1])
    return reference


def _new_game(game: Any) -> Callable[..., Any]:
    return game.new_game if hasattr(game, "new_game") else game


def _seat_policies(game: Any, policies: Policy | Sequence[Policy], rules: Any, setup: dict) -> list[Policy]:
    if isinstance(policies, Sequence):
        return list(policies)
    return [policies] * players_of(game, rules, setup)


def _policy_name(policy: Policy) -> str:
    name = getattr(policy, "__name__", None) or type(policy).__name__
    return name.removesuffix("_policy")
