"""The check of the start page's exercise (notebooks/00_start_here.ipynb), on ``Dist`` alone.

The design target: two six-sided dice with whole faces of at least 1, not the ordinary ones, whose
sum has exactly the distribution of the sum of two ordinary dice. The check computes both
distributions and, when they differ, says where, with hints aimed at the usual first attempts.
"""

from __future__ import annotations

from gamelib.dist import Dist
from gamelib.exercises import Feedback

ORDINARY = (1, 2, 3, 4, 5, 6)
MAX_FACE = 100  # a face above 31 cannot sum to 42 with eleven faces of at least 1; typos stop here


def check_same_sums(die_a, die_b) -> Feedback:
    """Right when ``die_a + die_b`` sums exactly like two ordinary dice and the dice are not ordinary."""
    for name, die in (("die_a", die_a), ("die_b", die_b)):
        problem = _face_problem(die)
        if problem:
            return Feedback(f"Not yet: {name} {problem}.", False)
    if tuple(sorted(die_a)) == ORDINARY and tuple(sorted(die_b)) == ORDINARY:
        return Feedback(
            "Not yet: those are the ordinary dice. Change the faces of both: one die alone cannot "
            "do it (try it: the other must then be ordinary too).",
            False,
        )
    ordinary = Dist.uniform(ORDINARY) + Dist.uniform(ORDINARY)
    yours = Dist.uniform(list(die_a)) + Dist.uniform(list(die_b))
    if yours.probability(2) == 0:
        return Feedback(
            "Not yet: the sum 2 is impossible with your dice, but ordinary dice throw it 1 time in 36: "
            "both dice need a 1.",
            False,
        )
    if sum(die_a) + sum(die_b) != 42:
        return Feedback(
            f"Not yet: the faces add up to {sum(die_a) + sum(die_b)}. Two ordinary dice average 7, so "
            "the twelve faces together must add up to 6 x 7 = 42.",
            False,
        )
    differ = [
        total
        for total in range(2, 13 + max(max(die_a), max(die_b)))
        if yours.probability(total) != ordinary.probability(total)
    ]
    if differ:
        total = differ[0]
        return Feedback(
            f"Not yet: the sum {total} comes up with chance {yours.probability(total)} with your dice, "
            f"but {ordinary.probability(total)} with ordinary ones ({len(differ)} sums differ). "
            "Count how many ways each sum can be made: ordinary dice make 2 one way, 3 two ways, "
            "4 three ways...",
            False,
        )
    return Feedback(
        f"Right: {sorted(die_a)} and {sorted(die_b)} throw every sum from 2 to 12 exactly as often as "
        "ordinary dice (they are called Sicherman dice, and no other pair with faces of at least 1 "
        "does it).",
        True,
    )


def _face_problem(die) -> str:
    """What is wrong with a die's faces, or "" if nothing."""
    if isinstance(die, (str, bytes)) or not hasattr(die, "__len__"):
        return "should be a list of six faces, like [1, 2, 3, 4, 5, 6]"
    if len(die) != 6:
        return f"has {len(die)} faces; a die here has six"
    if not all(isinstance(face, int) and not isinstance(face, bool) for face in die):
        return "should have whole-number faces (no decimals or text)"
    if min(die) < 1:
        return "has a face below 1; every face must be at least 1"
    if max(die) > MAX_FACE:
        return f"has a face above {MAX_FACE}; twelve faces of at least 1 adding up to 42 never need one"
    return ""
