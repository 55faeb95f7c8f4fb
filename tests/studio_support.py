"""Exact answers for the studio tests, computed without the studio: Pig under random play.

The random policy rolls when the turn total is 0 (the only move) and otherwise rolls or holds
with probability 1/2 each. Positions are Neller and Presser's (mover's score i, other's score j,
turn total k); a roll of 1 twice in a row brings a position back, so the values are found by
iterating the equations to a fixed point (floats, change below 1e-14).
"""

from __future__ import annotations


def random_pig(goal: int) -> tuple[float, float]:
    """(P(the first player wins), expected number of player moves) when both play at random."""
    positions = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    wins = dict.fromkeys(positions, 0.5)
    moves = dict.fromkeys(positions, 0.0)
    while True:
        change = 0.0
        for i, j, k in positions:
            win_roll, moves_roll = 1 - wins[j, i, 0], moves[j, i, 0]  # a 1: the turn passes with nothing
            for face in range(2, 7):
                if i + k + face >= goal:
                    win_roll += 1
                else:
                    win_roll += wins[i, j, k + face]
                    moves_roll += moves[i, j, k + face]
            win_roll, moves_roll = win_roll / 6, 1 + moves_roll / 6
            if k == 0:
                win, length = win_roll, moves_roll
            else:
                win = (win_roll + 1 - wins[j, i + k, 0]) / 2
                length = (moves_roll + 1 + moves[j, i + k, 0]) / 2
            change = max(change, abs(win - wins[i, j, k]), abs(length - moves[i, j, k]))
            wins[i, j, k], moves[i, j, k] = win, length
        if change < 1e-14:
            return wins[0, 0, 0], moves[0, 0, 0]
