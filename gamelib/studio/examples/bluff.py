"""Bluff: a three-card betting game with hidden cards (Kuhn poker, H. W. Kuhn, 1950).

Each player puts 1 chip in the pot and is dealt one card from ``cards`` cards numbered 1 up;
you see only your own. Seat 0 checks or bets 1 chip. After a check, seat 1 checks (showdown)
or bets. After a bet, the other player calls (showdown) or folds (the bettor takes the pot).
At a showdown the higher card takes the pot. The winner is whoever takes the pot; ``scores``
are the chips won or lost. Optimal play is known: the first player loses 1/18 chip per game.
"""

from fractions import Fraction
from itertools import permutations
from typing import NamedTuple

from gamelib.studio import Game, Param
from gamelib.studio.bots import bots_for

SHOWDOWNS = [("check", "check"), ("bet", "call"), ("check", "bet", "call")]


class Position(NamedTuple):
    cards: tuple = ()  # seat 0's card and seat 1's card; () before the deal
    moves: tuple = ()  # the bets so far, e.g. ("check", "bet")


class Bluff(Game):
    """Kuhn poker: one card each, one round of betting, the higher card or the braver bet wins."""

    players = 2
    hides_information = True
    cards = Param(3, 3, 13, "cards in the deck, numbered 1 up")

    def start(self):
        return Position()

    def chance(self, position):
        if position.cards:
            return None
        deals = list(permutations(range(1, self.cards + 1), 2))
        return {deal: Fraction(1, len(deals)) for deal in deals}

    def to_move(self, position):
        return len(position.moves) % 2

    def moves(self, position):
        return ["fold", "call"] if "bet" in position.moves else ["check", "bet"]

    def play(self, position, move):
        if not position.cards:
            return Position(cards=move)
        return Position(position.cards, position.moves + (move,))

    def winners(self, position):
        if position.moves in SHOWDOWNS:
            return [0 if position.cards[0] > position.cards[1] else 1]
        if position.moves[-1:] == ("fold",):
            return [len(position.moves) % 2]  # the player after the folder, that is, the bettor
        return None

    def scores(self, position):
        pot = 2 + 2 * ("call" in position.moves)
        winners = self.winners(position)
        if winners is None:
            return [0, 0]
        return [pot // 2 if seat == winners[0] else -(pot // 2) for seat in range(2)]

    def observation(self, position, player):
        seen = {"your_card": position.cards[player] if position.cards else None, "moves": list(position.moves)}
        if position.moves in SHOWDOWNS:
            seen["cards"] = list(position.cards)  # a showdown shows both cards
        return seen

    def could_be(self, position, player):
        if not position.cards:
            return [position]
        mine = position.cards[player]
        others = [card for card in range(1, self.cards + 1) if card != mine]
        return [
            Position(tuple(mine if seat == player else other for seat in range(2)), position.moves) for other in others
        ]

    def show(self, position):
        cards = " and ".join(map(str, position.cards)) or "not dealt yet"
        return f"cards {cards}; bets: {' '.join(position.moves) or 'none yet'}"

    def show_to(self, position, player):
        seen = self.observation(position, player)
        shown = f"; cards shown: {seen['cards'][0]} and {seen['cards'][1]}" if "cards" in seen else ""
        return f"your card: {seen['your_card']}; bets: {' '.join(seen['moves']) or 'none yet'}{shown}"


def expected_chips(state, player):
    """The default evaluation, from what the player sees only: after a fold, the chip won or lost;
    else the player's chips in the pot, won or lost by the chance that the other card is lower."""
    seen = state.observation(player)
    moves, card = seen["moves"], seen["your_card"]
    if moves[-1:] == ["fold"]:
        return -1 if (len(moves) - 1) % 2 == player else 1
    stake = 1 + sum(move in ("bet", "call") for turn, move in enumerate(moves) if turn % 2 == player)
    higher = Fraction(card - 1, state.rules.cards - 1)
    return (2 * higher - 1) * stake


GAME, SAVE_VERSION = Bluff.name, Bluff.save_version
Rules, State, new_game = Bluff.Rules, Bluff.State, Bluff.new_game
bots = bots_for(expected_chips)
