"""A design target for the Nagaraja temple lesson: lay given tiles so that as many relics as possible turn face up.

The check lays the student's placements in an empty temple with the engine's own rules and
compares the relics face up with the best any order, cell and rotation of the same tiles can do,
found by trying them all (a few hundred thousand temples, under a second). Any layout that
reaches the best is right.
"""

from __future__ import annotations

from functools import cache

from gamelib.core import IllegalMove
from gamelib.exercises import Feedback
from gamelib.nagaraja.temple import Temple


@cache
def best_face_up(tiles: tuple[str, ...]) -> int:
    """The most relics face up after laying all of ``tiles`` in an empty temple (every order, cell, rotation)."""

    def best(temple: Temple, left: tuple[str, ...]) -> int:
        if not left:
            return len(temple.face_up_spots())
        return max(best(temple.place(cell, tile, rotation), left[:i] + left[i + 1:])
                   for i, tile in enumerate(left) for cell in temple.legal_cells() for rotation in range(4))

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
        return Feedback("Not yet: give a list of (tile, cell, rotation), e.g. [(\"R13\", (2, 1), 0)].", False)
    if laid != sorted(tiles):
        return Feedback(f"Not yet: lay each of the tiles {', '.join(tiles)} exactly once (you laid {laid}).", False)
    try:
        temple = lay(placements)
    except (IllegalMove, ValueError, TypeError) as error:
        return Feedback(f"Not yet: one placement is not legal: {error}.", False)
    face_up, target = temple.face_up_spots(), best_face_up(tiles)
    if len(face_up) >= target:
        return Feedback(f"Right: {len(face_up)} relics face up ({', '.join(face_up)}), the most these tiles can reach.", True)
    hint = ("a tile that touches a wall only helps if a path also joins it to an entrance"
            if face_up else "start from the entrance row and make each tile continue a path")
    return Feedback(f"Not yet: {len(face_up)} relic(s) face up ({', '.join(face_up) or 'none'}); these tiles can turn up "
                    f"{target}. Hint: {hint}.", False)
