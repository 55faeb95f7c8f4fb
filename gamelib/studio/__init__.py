"""The design studio: games students write in plain Python, as full contract games.

>>> from gamelib.studio import Game, Param, check_game
>>> from gamelib.studio.examples import pig
>>> state = pig.new_game(seed=1)

:class:`Game` turns a student's rules into ``Rules``, ``State`` and ``new_game``;
:func:`check_game` plays random games and names the student's function behind any mistake;
:mod:`gamelib.studio.bots` has random and greedy bots for any game. The worked examples are
under :mod:`gamelib.studio.examples`.
"""

from gamelib.studio.bots import greedy, random_policy, win_share
from gamelib.studio.checking import CheckReport, check_game
from gamelib.studio.game import Game, GameCodeError, GameState, Param

__all__ = [
    "Game",
    "Param",
    "GameState",
    "GameCodeError",
    "check_game",
    "CheckReport",
    "greedy",
    "random_policy",
    "win_share",
]

# Bots and the exact solver for any contract game (studio-solve).
from gamelib.studio.mcts import mcts_policy  # noqa: E402
from gamelib.studio.solve import Solution, TooManyPositions, evaluate_policies, optimal_sweep, solve  # noqa: E402

__all__ += ["mcts_policy", "solve", "evaluate_policies", "optimal_sweep", "Solution", "TooManyPositions"]


def __getattr__(name):
    """``studio.Board``, imported on first use: the board needs anywidget, the rules and bots do not."""
    if name == "Board":
        from gamelib.studio.board import Board

        return Board
    raise AttributeError(f"module 'gamelib.studio' has no attribute {name!r}")
