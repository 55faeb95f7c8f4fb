"""Exact equilibria of two-player zero-sum matrix games (course session 08: payoff matrices).

A payoff matrix ``A`` lists what the row player gains (and the column player loses) for each pair of
pure choices. An *equilibrium* is a pair of mixed strategies (probabilities over the rows and over the
columns) from which neither player gains by deviating alone; in a zero-sum game its payoff, the
*value*, is unique.

:func:`solve_zero_sum` finds one by **support enumeration** in exact Fractions: by the Shapley-Snow
theorem every finite zero-sum game has an optimal pair whose supports are equally large and whose
square submatrix gives the strategies by solving two small linear systems, so trying every pair of
equal-sized supports, smallest first, finds one. That is exponential in the size of the matrix, fine
for the 7 x 7 matrices of a Call of Fate and meant for teaching, not for large games.
:func:`deviation_gains` is the brute-force oracle: the best a player gains by switching to any pure
choice, which is 0 for both players exactly at an equilibrium.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from gamelib.dist import solve_linear

Matrix = Sequence[Sequence[Fraction]]


@dataclass(frozen=True)
class Equilibrium:
    """Mixed strategies of the row and column player and the value of the game to the row player."""

    rows: tuple[Fraction, ...]
    columns: tuple[Fraction, ...]
    value: Fraction

    def row_support(self) -> list[int]:
        return [index for index, weight in enumerate(self.rows) if weight > 0]

    def column_support(self) -> list[int]:
        return [index for index, weight in enumerate(self.columns) if weight > 0]


def as_matrix(matrix) -> list[list[Fraction]]:
    """The matrix as exact Fractions; a ragged or empty matrix is refused with a clear message."""
    rows = [[Fraction(entry) for entry in row] for row in matrix]
    if not rows or not rows[0]:
        raise ValueError("a payoff matrix needs at least one row and one column")
    if any(len(row) != len(rows[0]) for row in rows):
        raise ValueError("every row of a payoff matrix must have as many entries as the first")
    return rows


def solve_zero_sum(matrix) -> Equilibrium:
    """One exact equilibrium of a zero-sum game (supports tried smallest first).

    Args:
        matrix: the row player's payoffs, a list of rows of numbers.

    Returns:
        An :class:`Equilibrium`: both players' mixed strategies and the game's value, as Fractions.

    Raises:
        ValueError: the matrix is empty or ragged.

    >>> solve_zero_sum([[1, -1], [-1, 1]]).value
    Fraction(0, 1)
    """
    a = as_matrix(matrix)
    m, n = len(a), len(a[0])
    for size in range(1, min(m, n) + 1):
        for row_set in combinations(range(m), size):
            for column_set in combinations(range(n), size):
                found = _try_supports(a, row_set, column_set)
                if found is not None:
                    return found
    raise ArithmeticError("no equilibrium found: this cannot happen for a finite zero-sum game")


def _try_supports(a, row_set, column_set) -> Equilibrium | None:
    # the column player's mix q on column_set makes every row of row_set earn the value v
    q = _solve([[a[i][j] for j in column_set] for i in row_set])
    p = _solve([[a[i][j] for i in row_set] for j in column_set])
    if q is None or p is None:
        return None
    *q_weights, value = q
    *p_weights, value_p = p
    if value != value_p or min(q_weights) < 0 or min(p_weights) < 0:
        return None
    rows = [Fraction(0)] * len(a)
    columns = [Fraction(0)] * len(a[0])
    for index, weight in zip(row_set, p_weights):
        rows[index] = weight
    for index, weight in zip(column_set, q_weights):
        columns[index] = weight
    candidate = Equilibrium(tuple(rows), tuple(columns), value)
    row_gain, column_gain = deviation_gains(a, candidate.rows, candidate.columns)
    return candidate if row_gain == 0 and column_gain == 0 else None


def _solve(block) -> list[Fraction] | None:
    """Weights w (summing to 1) and v with ``block @ w = v`` for every row; None if singular."""
    size = len(block)
    # unknowns w_1..w_k, v: rows  sum_j block[i][j] w_j - v = 0, and sum_j w_j = 1
    system = [list(row) + [Fraction(-1), Fraction(0)] for row in block]
    system.append([Fraction(1)] * size + [Fraction(0), Fraction(1)])
    return solve_linear(system)


def expected_payoff(matrix, rows, columns) -> Fraction:
    """The row player's expected payoff when both mix as given."""
    a = as_matrix(matrix)
    return sum(p * q * a[i][j] for i, p in enumerate(rows) for j, q in enumerate(columns))


def deviation_gains(matrix, rows, columns) -> tuple[Fraction, Fraction]:
    """Brute force: how much the row player, and the column player, would gain by the best pure deviation.

    Both are 0 exactly when ``(rows, columns)`` is an equilibrium (both are never negative)."""
    a = as_matrix(matrix)
    value = expected_payoff(a, rows, columns)
    best_row = max(sum(q * a[i][j] for j, q in enumerate(columns)) for i in range(len(a)))
    best_column = min(sum(p * a[i][j] for i, p in enumerate(rows)) for j in range(len(a[0])))
    return best_row - value, value - best_column


def pure_saddle_points(matrix) -> list[tuple[int, int]]:
    """Cells that are the lowest of their row and the highest of their column: pure equilibria."""
    a = as_matrix(matrix)
    return [
        (i, j)
        for i, row in enumerate(a)
        for j, entry in enumerate(row)
        if entry == min(row) and entry == max(a[k][j] for k in range(len(a)))
    ]


ROCK_PAPER_SCISSORS = ((0, -1, 1), (1, 0, -1), (-1, 1, 0))
"""Rows and columns rock, paper, scissors; +1 when the row wins. The classic intransitive game."""
