"""Dice race: a push-your-luck race where every roll makes the next one riskier.

Two runners start before square 1 of a track of ``length`` squares. On your turn you roll a die
as often as you like; each roll adds its number to your run. Roll a number you already rolled
this turn and you bust: the run is lost and the turn passes. Stop and your runner moves on by the
run; with ``bump`` on, landing exactly on the other runner sends it back to the start. The first
runner to reach the finish (its square plus its run) wins at once. After k different numbers the
next roll busts with probability k/6, so the risk grows with the run, unlike Pig's steady 1/6.
"""

from fractions import Fraction
from typing import NamedTuple

from gamelib.studio import Game, Param
from gamelib.studio.bots import bots_for

DIE = {face: Fraction(1, 6) for face in range(1, 7)}


class Position(NamedTuple):
    squares: tuple  # where seat 0 and seat 1 stand (0 = the start)
    rolled: tuple = ()  # the numbers rolled this turn, in increasing order
    player: int = 0  # the seat whose turn it is
    rolling: bool = False  # True while the die is in the air

    @property
    def run(self):
        return sum(self.rolled)


class DiceRace(Game):
    """Two runners, one die, and a run that busts on a repeated number."""

    name = "dice_race"
    players = 2
    length = Param(30, 2, 200, "squares from the start to the finish")
    bump = Param(True, doc="landing on the other runner sends it back to the start")

    def start(self):
        return Position(squares=(0, 0))

    def to_move(self, position):
        return position.player

    def moves(self, position):
        return ["roll", "stop"] if position.rolled else ["roll"]

    def chance(self, position):
        return DIE if position.rolling else None

    def play(self, position, move):
        squares, rolled, player, _ = position
        if move == "roll":
            return Position(squares, rolled, player, rolling=True)
        if move == "stop":
            return self.advance(position)
        if move in rolled:  # a repeated number: bust
            return Position(squares, (), 1 - player)
        return Position(squares, tuple(sorted(rolled + (move,))), player)

    def advance(self, position):
        squares = list(position.squares)
        me, other = position.player, 1 - position.player
        squares[me] += position.run
        if self.bump and squares[me] == squares[other]:
            squares[other] = 0
        return Position(tuple(squares), (), other)

    def winners(self, position):
        me = position.player
        return [me] if position.squares[me] + position.run >= self.length else None

    def scores(self, position):
        return list(position.squares)

    def show(self, position):
        lines = [
            f"seat {seat}: {'.' * square}{seat}{'.' * (self.length - square)}|"
            for seat, square in enumerate(position.squares)
        ]
        rolled = ", ".join(map(str, position.rolled)) or "nothing yet"
        return "\n".join(lines + [f"rolled this turn: {rolled} (run {position.run})"])

    def move_label(self, position, move):
        return {"roll": "Roll", "stop": f"Stop (move {position.run})"}.get(move, str(move))


def progress(state, player):
    """The default evaluation: how far ahead the player is, counting the run in hand."""
    position = state.position
    reached = list(position.squares)
    reached[position.player] += position.run
    return reached[player] - reached[1 - player]


GAME, SAVE_VERSION = DiceRace.name, DiceRace.save_version
Rules, State, new_game = DiceRace.Rules, DiceRace.State, DiceRace.new_game
bots = bots_for(progress)
