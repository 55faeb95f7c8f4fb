"""Pangu solved: the exact optimal chance of winning of any position, of every move in it, and of each bot.

Public contract::

    from gamelib.pangu import solver
    solver.win_probability(state)      # Fraction; at a chance node the expectation over its outcomes
    solver.action_values(state)        # {action: Fraction} for every legal action, then optimal play
    solver.evaluate_policy(policy, rules=None, state=None)   # a bot's exact chance of winning
    solver.bot_values(rules=None)      # {bot: Fraction}: the recorded whole-game values of the bots
    solver.variant_values()            # {variant: Fraction or why not}: perfect play in each single variant

Modules (docs/pangu_solver.md explains the method):

* ``model``: the compact position ``(F, C, D)`` plus Karma, pure Python;
* ``exact``: the pure-Python expectimax behind the contract above;
* ``tables``, ``records``: the shipped data (turn-start tables, recorded values), checked when read;
* ``arrays``, ``kernels``, ``space``: the model as numpy arrays, the numba kernels every evaluator
  shares, and the listing of the reachable turn-start keys;
* ``optimal``: the whole game's optimal tables (numba);
* ``levels``, ``greedy``, ``lookahead``, ``random_bot``: each bot's exact whole-game evaluator (numba);
* ``cli``: the command line, ``python -m gamelib.pangu.solver``.

Importing this package needs neither numpy nor numba: the tables are read with numpy when a position
needs them, and the numba modules are imported only by the command line and the tests.
"""

from gamelib.pangu.solver.exact import (
    OutOfReach,
    Solver,
    action_values,
    default_tables,
    evaluate_policy,
    forget_solvers,
    model_for,
    position_of,
    solver_of,
    win_probability,
)
from gamelib.pangu.solver.records import (
    BOT_NAMES,
    BOTS_PATH,
    VARIANTS_PATH,
    bot_values,
    bot_values_missing,
    records,
    variant_values,
)
from gamelib.pangu.solver.tables import DamagedTable, NumpyMissing, ShippedTables, SolverTableError

__all__ = [
    "BOTS_PATH",
    "BOT_NAMES",
    "VARIANTS_PATH",
    "DamagedTable",
    "NumpyMissing",
    "OutOfReach",
    "ShippedTables",
    "Solver",
    "SolverTableError",
    "action_values",
    "bot_values",
    "bot_values_missing",
    "default_tables",
    "evaluate_policy",
    "forget_solvers",
    "model_for",
    "position_of",
    "records",
    "solver_of",
    "variant_values",
    "win_probability",
]
