"""Pig, the jeopardy dice game (Neller and Presser, "Optimal Play of the Dice Game Pig", 2004).

On your turn you roll a die as often as you like, adding each roll to your turn total. Roll a 1
and you lose the turn total and your turn; hold and the turn total is banked into your score.
The first player to reach ``goal`` points (banked plus turn total) wins at once.
"""

from fractions import Fraction
from typing import NamedTuple

from gamelib.studio import Game, Param
from gamelib.studio.bots import bots_for

DIE = {face: Fraction(1, 6) for face in range(1, 7)}


class Position(NamedTuple):
    scores: tuple  # banked points of seat 0 and seat 1
    turn_total: int  # points rolled this turn, not yet banked
    player: int  # the seat whose turn it is
    rolling: bool = False  # True while the die is in the air


class Pig(Game):
    """Two players race to ``goal`` points with one die."""

    players = 2
    goal = Param(100, 1, 1000, "points needed to win")

    def start(self):
        return Position(scores=(0, 0), turn_total=0, player=0)

    def to_move(self, position):
        return position.player

    def moves(self, position):
        # Holding with nothing rolled would only pass the turn, so the first roll is compulsory.
        return ["roll", "hold"] if position.turn_total > 0 else ["roll"]

    def chance(self, position):
        return DIE if position.rolling else None

    def play(self, position, move):
        scores, turn_total, player, _ = position
        if move == "roll":
            return Position(scores, turn_total, player, rolling=True)
        if move == "hold":
            return bank(position)
        if move == 1:  # the die shows 1: the turn total is lost, the turn passes
            return Position(scores, 0, 1 - player)
        return Position(scores, turn_total + move, player)

    def winners(self, position):
        me = position.player
        if position.scores[me] + position.turn_total >= self.goal:
            return [me]
        return None

    def scores(self, position):
        return list(position.scores)

    def show(self, position):
        first, second = position.scores
        return f"Pig to {self.goal}: seat 0 has {first}, seat 1 has {second}; turn total {position.turn_total}"


def bank(position):
    """Hold: the turn total joins the player's score and the other player rolls."""
    scores = list(position.scores)
    scores[position.player] += position.turn_total
    return Position(tuple(scores), 0, 1 - position.player)


def lead(state, player):
    """The default evaluation: the player's points (turn total included) minus the opponent's.
    One move ahead, rolling at turn total k is worth k/6 less for the 1 and (5/6) x 4 more for the rest,
    so greedy rolls below 20 and holds above 20; at exactly 20 both are worth the same (it picks at random)."""
    position = state.position
    points = list(position.scores)
    points[position.player] += position.turn_total
    return points[player] - points[1 - player]


GAME, SAVE_VERSION = Pig.name, Pig.save_version
Rules, State, new_game = Pig.Rules, Pig.State, Pig.new_game
bots = bots_for(lead)
