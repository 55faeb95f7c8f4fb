"""The solver's command line (numba, the ``solver`` extra)::

    python -m gamelib.pangu.solver optimal                          # default rules; prints the root value
    python -m gamelib.pangu.solver optimal --variant NAME           # a SINGLE_VARIANTS entry
    python -m gamelib.pangu.solver optimal --write                  # rewrite the shipped default tables
    python -m gamelib.pangu.solver optimal --variant NAME --record  # also into data/solver_variants.json
    python -m gamelib.pangu.solver bot --policy greedy              # a bot's exact whole-game value
    python -m gamelib.pangu.solver bot --policy lookahead --variant NAME --record   # into data/solver_bots.json
    python -m gamelib.pangu.solver bot --policy random --primes 2   # the random bot, first primes only (timing)

Each run prints the value, its wall and processor seconds and the threads; ``--record`` stores them
in the shipped records and rewrites the package's checksums.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numba

from gamelib.pangu.rules import SINGLE_VARIANTS
from gamelib.pangu.solver import optimal, random_bot, records
from gamelib.pangu.solver.greedy import solve_greedy
from gamelib.pangu.solver.lookahead import LOOKAHEAD_THREADS, solve_lookahead
from gamelib.pangu.solver.tables import write_tables

BOT_SOLVERS = {"greedy": solve_greedy, "lookahead": solve_lookahead, "random": random_bot.solve_random}


def run_optimal(variant: str, write: bool, record: bool) -> int:
    """Solve one variant's whole game (``--write``: the defaults' shipped tables too)."""
    if variant in optimal.OUT_OF_REACH:
        print(f"{variant} is out of reach of this builder: {optimal.OUT_OF_REACH[variant]}")
        return 1
    rules = SINGLE_VARIANTS[variant]
    cpu = time.process_time()
    if write:
        tables = optimal.solve(rules, checkpoint=optimal.checkpoint_folder())
        write_tables(tables)
        value, seconds, exact, solved = tables.root(), tables.seconds, tables.exact, [tables]
    else:
        value, seconds, solved = optimal.root_value(rules)
        exact = all(tables.exact for tables in solved)
    cpu = time.process_time() - cpu
    print(
        f"{variant}: P(WON) = {value} ≈ {float(value):.10f}{'' if exact else ' (approximate)'}; "
        f"{seconds:.1f} s wall, {cpu:.1f} s CPU, {numba.get_num_threads()} threads, load {os.getloadavg()[0]:.1f}"
    )
    if record:
        samples = optimal.turn_three_samples(solved[-1]) if exact else None
        optimal.record_variant(variant, value, seconds, cpu, exact, samples)
    return 0


def run_random_primes(variant: str, count: int) -> int:
    """The random bot's root residue modulo the first ``count`` primes, each timed (no value rebuilt)."""
    rules = SINGLE_VARIANTS[variant]
    model = random_bot.build_model(rules, None if rules.centre_config != "RANDOM" else "YIN_LEFT")
    evaluator = random_bot.RandomSolver(model)
    for p in random_bot.primes_for(random_bot.denominator_bound(model))[:count]:
        t0, c0 = time.perf_counter(), time.process_time()
        print(
            p,
            evaluator.root_residue(p, verbose=True),
            f"{time.perf_counter() - t0:.1f} s wall",
            f"{time.process_time() - c0:.1f} s CPU",
            flush=True,
        )
    return 0


def run_bot(policy: str, variant: str, record: bool) -> int:
    """One bot's exact whole-game value under one variant (``--record``: stored, or why it is missing)."""
    rules = SINGLE_VARIANTS[variant]
    started, cpu = time.perf_counter(), time.process_time()
    try:
        value = BOT_SOLVERS[policy](rules)
    except ValueError as error:  # rules this evaluator does not cover
        print(error)
        if record:
            records.record_bot_missing(variant, policy, str(error))
        return 1
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    threads = LOOKAHEAD_THREADS if policy == "lookahead" else numba.get_num_threads()
    print(
        f"{policy} under {variant}: P(WON) = {value} ≈ {float(value):.10f}; {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU, {threads} threads"
    )
    if record:
        command = f"python -m gamelib.pangu.solver bot --policy {policy} --variant {variant} --record"
        records.record_bot(variant, policy, value, wall, cpu, command, threads)
    return 0


def main(argv=None) -> int:
    """Parse the command line and run one subcommand; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m gamelib.pangu.solver", description=__doc__.split("::")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    best = commands.add_parser("optimal", help="the whole game's optimal value (the turn-start tables)")
    best.add_argument("--variant", default="defaults", choices=sorted(SINGLE_VARIANTS))
    best.add_argument("--write", action="store_true", help="rewrite the shipped default tables")
    best.add_argument("--record", action="store_true", help="record the value and time in data/solver_variants.json")
    bot = commands.add_parser("bot", help="a bot's exact whole-game value")
    bot.add_argument("--policy", default="greedy", choices=sorted(BOT_SOLVERS))
    bot.add_argument("--variant", default="defaults", choices=sorted(SINGLE_VARIANTS))
    bot.add_argument("--record", action="store_true", help="record the value and time in data/solver_bots.json")
    bot.add_argument("--primes", type=int, default=0, help="random bot only: the first N primes' residues, timed")
    args = parser.parse_args(argv)
    if args.command == "optimal":
        return run_optimal(args.variant, args.write, args.record)
    if args.policy == "random":  # the machine is shared: the random bot's passes run on at most THREADS
        numba.set_num_threads(min(random_bot.THREADS, numba.config.NUMBA_NUM_THREADS))
        if args.primes:
            return run_random_primes(args.variant, args.primes)
    return run_bot(args.policy, args.variant, args.record)


if __name__ == "__main__":
    sys.exit(main())
