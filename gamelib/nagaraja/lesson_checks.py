"""Richer exercises for the Nagaraja lessons, each checked by computation, never looked up.

Lesson 02, a design target: lay given tiles so that as many relics as possible turn face up. The check lays the student's placements in an empty temple with the engine's own rules and
compares the relics face up with the best any order, cell and rotation of the same tiles can do,
found by trying them all (a few hundred thousand temples, under a second). Any layout that
reaches the best is right.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import Callable

from gamelib.core import IllegalMove
from gamelib.exercises import Feedback
from gamelib.nagaraja import sticks
from gamelib.nagaraja.odds_view import readable
from gamelib.nagaraja.rules import TIE_RULES
from gamelib.nagaraja.temple import Temple


@cache
def best_face_up(tiles: tuple[str, ...]) -> int:
    """The most relics face up after laying all of ``tiles`` in an empty temple (every order, cell, rotation)."""

    def best(temple: Temple, left: tuple[str, ...]) -> int:
        if not left:
            return len(temple.face_up_spots())
        return max(
            best(temple.place(cell, tile, rotation), left[:i] + left[i + 1 :])
            for i, tile in enumerate(left)
            for cell in temple.legal_cells()
            for rotation in range(4)
        )

    return best(Temple(), tuple(tiles))


def lay(placements) -> Temple:
    """The temple left by ``placements``, a list of (tile, cell, rotation) laid in order from an empty temple."""
    temple = Temple()
    for placement in placements:
        tile, cell, rotation = placement
        temple = temple.place(tuple(cell), tile, rotation)
    return temple


def check_relic_design(tiles, placements) -> Feedback:
    """Right when ``placements`` lays each of ``tiles`` once and leaves the most relics face up that these tiles can."""
    tiles = tuple(tiles)
    try:
        placements = [tuple(p) for p in placements]
        laid = sorted(p[0] for p in placements)
    except (TypeError, IndexError):
        return Feedback('Not yet: give a list of (tile, cell, rotation), e.g. [("R13", (2, 1), 0)].', False)
    if laid != sorted(tiles):
        return Feedback(f"Not yet: lay each of the tiles {', '.join(tiles)} exactly once (you laid {laid}).", False)
    try:
        temple = lay(placements)
    except (IllegalMove, ValueError, TypeError) as error:
        return Feedback(f"Not yet: one placement is not legal: {error}.", False)
    face_up, target = temple.face_up_spots(), best_face_up(tiles)
    if len(face_up) >= target:
        return Feedback(
            f"Right: {len(face_up)} relics face up ({', '.join(face_up)}), the most these tiles can reach.", True
        )
    hint = (
        "a tile that touches a wall only helps if a path also joins it to an entrance"
        if face_up
        else "start from the entrance row and make each tile continue a path"
    )
    return Feedback(
        f"Not yet: {len(face_up)} relic(s) face up ({', '.join(face_up) or 'none'}); these tiles can turn up "
        f"{target}. Hint: {hint}.",
        False,
    )


# --------------------------------------------------------------------------- lesson 03: who wins a tied room

# Every pool of one to three sticks (the teaching edition's cards print two or three), as (brown, white, green).
ROOM_POOLS = tuple(
    sticks.as_pool("".join(letters)) for size in (1, 2, 3) for letters in combinations_with_replacement("BWG", size)
)
ROOM_CASES = tuple(
    (mine, theirs, guide, rule)
    for mine in ROOM_POOLS
    for theirs in ROOM_POOLS
    for guide in (True, False)
    for rule in TIE_RULES
)


def wins_ties(i_am_guide: bool, tie_rule: str) -> bool:
    """Whether a tied room is mine: the guide's under ``"guide"``, the other player's under ``"opponent"``
    (nagaraja.md#winning-the-room)."""
    return i_am_guide == (tie_rule == "guide")


def engine_room_chance(mine, theirs, i_am_guide: bool, tie_rule: str) -> Fraction:
    """The engine's chance that ``mine`` wins the room on the raw throw under ``tie_rule``."""
    return sticks.win_probability(mine, theirs, wins_ties(i_am_guide, tie_rule))


# the common wrong functions, each with the hint aimed at it; a function that matches one of them
# on every case gets that hint
def _ties_to_nobody(mine, theirs, guide, rule):
    return sticks.compare(mine, theirs)[0]


def _ties_always_mine(mine, theirs, guide, rule):
    greater, tie, _ = sticks.compare(mine, theirs)
    return greater + tie


def _rule_ignored(mine, theirs, guide, rule):
    return sticks.win_probability(mine, theirs, guide)


def _their_chance(mine, theirs, guide, rule):
    return 1 - engine_room_chance(mine, theirs, guide, rule)


ROOM_MISTAKES = (
    (
        _rule_ignored,
        'the ties follow the tie rule, not always the guide: under tie_rule="opponent" they go to '
        "the player who is not the guide.",
    ),
    (_ties_to_nobody, "a tied room is not lost by both players: the tie rule gives it to one of them."),
    (
        _ties_always_mine,
        'a tie is yours only when the rule gives ties to your role (the guide\'s under "guide", '
        'the other player\'s under "opponent").',
    ),
    (_their_chance, "that is the other player's chance: count the throws in which *your* points win."),
)


def check_room_chance(function: Callable) -> Feedback:
    """``function(mine, theirs, i_am_guide, tie_rule)`` must return, as an exact Fraction, the chance that
    the pool ``mine`` wins the room against ``theirs`` on the raw throw; checked on every pair of pools
    of one to three sticks, in both roles, under both tie rules."""
    answers = []
    for case in ROOM_CASES:
        try:
            answers.append(function(*case))
        except Exception as error:  # a student's function may fail in any way: say where
            return Feedback(
                f"Not yet: for mine={case[0]}, theirs={case[1]}, i_am_guide={case[2]}, "
                f"tie_rule={case[3]!r} your function raised {type(error).__name__}: {error}.",
                False,
            )
    expected = [engine_room_chance(*case) for case in ROOM_CASES]
    if answers == expected and not any(isinstance(answer, float) for answer in answers):
        return Feedback(f"Right: your function agrees with the engine on all {len(ROOM_CASES):,} cases.", True)
    if any(answer is None for answer in answers):
        return Feedback(
            "Not yet: your function returns None; replace the ... with code that returns a Fraction.", False
        )
    if any(isinstance(answer, float) for answer in answers):
        return Feedback(
            "Not yet: your function returns a decimal; return the exact Fraction (add the Dists' "
            "Fractions and do not convert them with float).",
            False,
        )
    for mistake, hint in ROOM_MISTAKES:
        if all(answer == mistake(*case) for answer, case in zip(answers, ROOM_CASES)):
            return Feedback(f"Not yet: {hint}", False)
    answer, case = next((answer, case) for answer, case, right in zip(answers, ROOM_CASES, expected) if answer != right)
    return Feedback(
        f"Not yet: for mine={case[0]}, theirs={case[1]}, i_am_guide={case[2]}, tie_rule={case[3]!r} your "
        f"function returns {answer}, which is not the engine's chance. Hint: add "
        "P(my points = a) x P(their points = b) over the pairs (a, b) that I win.",
        False,
    )


# Lesson 01, a design target on the odds explorer: a 50% contest laid from a dealt hand.


def check_contest(
    hand, laid, opponent, mine_is_guide: bool, low=Fraction(9, 20), high=Fraction(11, 20), faces="A"
) -> Feedback:
    """Check a design target: lay cards of ``hand`` (one symbol) so that P(win) against the
    ``opponent`` pool lies between ``low`` and ``high`` (45% to 55%: "a 50% contest").

    Any answer that meets the target is right; the verdict is computed, never looked up."""
    from gamelib.nagaraja import default_edition

    cards = default_edition().cards  # the packaged cards (nagaraja.md#card-list)
    laid = list(laid)
    if not laid:
        return Feedback("Not yet: lay at least one card (rules page: Call of fate).", False)
    if not set(laid) <= set(hand) or len(set(laid)) != len(laid):
        return Feedback(f"Not yet: lay cards from the hand {sorted(hand)}, each at most once.", False)
    if len({cards[c].symbol for c in laid}) > 1:
        return Feedback("Not yet: cards laid together must share one symbol (rules page: Call of fate).", False)
    pool = sticks.as_pool([cards[c].sticks for c in laid])
    chance = sticks.win_probability(pool, opponent, mine_is_guide, faces)
    if low <= chance <= high:
        return Feedback(f"Right: {' + '.join(laid)} throws {pool} and wins {readable(chance)} of the time.", True)
    hint = "more or stronger sticks" if chance < low else "fewer sticks"
    return Feedback(f"Not yet: {' + '.join(laid)} wins {readable(chance)} of the time. Hint: try {hint}.", False)
