"""The Call of Fate as a two-player matrix game (course session 08: intransitive mechanics).

At the Call of Fate the guide commits cards first, face down, and the opponent commits without seeing
which (only how many); then both throw. Strip the round to that choice: each player picks a non-empty
set of cards of one symbol from a known hand, and the payoff is exact, from the stick odds
(:func:`gamelib.nagaraja.sticks.win_probability`). A committed card is gone, so sticks have a price:
each player's gain is ``room_value`` times their chance to win the room minus ``card_value`` per card
committed. The guide's payoff in the matrix is the guide's gain minus the opponent's (a zero-sum game),
so every entry is ``room_value * (2 P - 1) - card_value * (guide cards - opponent cards)`` with ``P``
the guide's chance to win the room under the tie rule in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from gamelib.design import payoff
from gamelib.exercises import Feedback
from gamelib.nagaraja import sticks

ROOM_VALUE = Fraction(3)
CARD_VALUE = Fraction(1)
GUIDE_HAND = ("BBW", "WW", "GGG")
OPPONENT_HAND = ("BW", "WWW", "BG")


def commitments(hand) -> list[tuple[str, ...]]:
    """Every non-empty set of cards of the hand (the hand's cards share one symbol here), smallest first."""
    return [combo for size in range(1, len(hand) + 1) for combo in combinations(hand, size)]


def pool(cards) -> str:
    return "".join(cards)


def room_chance(guide_cards, opponent_cards, tie_rule: str = "guide", faces=None) -> Fraction:
    """Exact chance that the guide wins the room; ties go to the guide, or to the opponent with ``tie_rule="opponent"``."""
    greater, tie, _ = sticks.compare(pool(guide_cards), pool(opponent_cards), faces)
    return greater + tie if tie_rule == "guide" else greater


@dataclass(frozen=True)
class FateGame:
    """The matrix game: the options of each side, the guide's payoffs, and its exact equilibrium."""

    guide_options: list
    opponent_options: list
    matrix: list
    equilibrium: payoff.Equilibrium


def fate_game(
    guide_hand=GUIDE_HAND,
    opponent_hand=OPPONENT_HAND,
    room_value=ROOM_VALUE,
    card_value=CARD_VALUE,
    tie_rule: str = "guide",
    faces=None,
) -> FateGame:
    """The Call of Fate matrix (rows: the guide's commitments, columns: the opponent's) and its equilibrium."""
    if tie_rule not in ("guide", "opponent"):
        raise ValueError('tie_rule is "guide" (the rules) or "opponent"')
    room_value, card_value = Fraction(room_value), Fraction(card_value)
    rows, columns = commitments(guide_hand), commitments(opponent_hand)
    matrix = [
        [room_value * (2 * room_chance(g, o, tie_rule, faces) - 1) - card_value * (len(g) - len(o)) for o in columns]
        for g in rows
    ]
    return FateGame(rows, columns, matrix, payoff.solve_zero_sum(matrix))


def label(cards) -> str:
    return "+".join(cards)


def check_mixed_call(room_value, card_value, tie_rule="guide", minimum_weight=Fraction(1, 4)) -> Feedback:
    """The design target of session 08: choose the room value, the card value and the tie rule so that the
    guide's equilibrium strategy (hands as in the session) mixes at least two commitments, each played with
    probability at least ``minimum_weight``. The verdict shows the equilibrium and says what is missing."""
    try:
        room, card = Fraction(room_value), Fraction(card_value)
    except (TypeError, ValueError, ZeroDivisionError):
        return Feedback("Not yet: give the room value and the card value as numbers, e.g. 3 and Fraction(1, 2).", False)
    if room <= 0 or card < 0:
        return Feedback("Not yet: a room must be worth more than 0 and a card at least 0.", False)
    if tie_rule not in ("guide", "opponent"):
        return Feedback('Not yet: the tie rule is "guide" (the rules) or "opponent".', False)
    game = fate_game(room_value=room, card_value=card, tie_rule=tie_rule)
    weights = [
        (weight, label(option)) for weight, option in zip(game.equilibrium.rows, game.guide_options) if weight > 0
    ]
    shown = ", ".join(f"{name} {float(weight):.0%}" for weight, name in sorted(weights, reverse=True))
    strong = [name for weight, name in weights if weight >= minimum_weight]
    if len(strong) >= 2:
        return Feedback(
            f"Right: the guide's equilibrium mixes {shown}: {len(strong)} commitments at least "
            f"{float(minimum_weight):.0%} each; no single call is best, so the opponent cannot read it.",
            True,
        )
    if len(weights) == 1:
        why = (
            f"the guide's equilibrium is pure: {weights[0][1]} always, and the opponent's best reply cannot punish it. "
            "Cheap cards make big calls best; dear cards make small calls best: look for the price in between"
        )
    else:
        why = (
            f"the guide mixes {shown}, but only {len(strong)} commitment reaches {float(minimum_weight):.0%}; "
            "move the card value a little towards where the rare option was the pure best"
        )
    return Feedback(f"Not yet: {why}.", False)


def regret_of(game: FateGame, guide_call) -> Fraction:
    """How much the pure call ``guide_call`` (a tuple of the guide's cards) earns less than the game's value
    against the opponent's equilibrium mix (0 for every call in the equilibrium's support)."""
    wanted = tuple(sorted(guide_call))
    index = next((i for i, option in enumerate(game.guide_options) if tuple(sorted(option)) == wanted), None)
    if index is None:
        raise ValueError(f"{label(guide_call)} is not a call from the guide's hand {label(game.guide_options[-1])}")
    earns = sum(weight * entry for weight, entry in zip(game.equilibrium.columns, game.matrix[index]))
    return game.equilibrium.value - earns


def bot_commit_sizes(policy, games: int, seed: int = 0, rules=None) -> dict[str, dict[int, int]]:
    """How many cards ``policy`` commits at the Call of Fate as guide and as opponent, over ``games``
    self-play games (seeded): ``{"guide": {cards: times}, "opponent": {...}}``."""
    from gamelib.core import play_seated_game
    from gamelib.nagaraja import rules as game_rules
    from gamelib.nagaraja.actions import Commit
    from gamelib.simulate import seeds

    counts: dict[str, dict[int, int]] = {"guide": {}, "opponent": {}}

    def note(state, action):
        if isinstance(action, Commit) and action.cards:
            role = "guide" if action.player == state.guide else "opponent"
            counts[role][len(action.cards)] = counts[role].get(len(action.cards), 0) + 1

    for index, deal in enumerate(seeds(seed, games)):
        play_seated_game(game_rules.new_game, [policy, policy], (0, 1), deal, rules, None, index, on_action=note)
    return {role: dict(sorted(sizes.items())) for role, sizes in counts.items()}
