"""The invariants of chakra.md#programmers, as a list of readable violations (empty = all hold).

Used by the random-play tests after every action and by ``from_json`` to reject damaged saves.
Written from the rules page, not from the engine: it reads the state's raw fields and counts for itself
(no engine helper decides whether a chakra is harmonized or how many energies a board holds).
"""

from __future__ import annotations

from functools import lru_cache
from operator import add

from gamelib.chakra.components import BHAGYA, BLACK, CAPACITY, COLOUR_NAMES, ENERGIES_PER_COLOUR_PER_PLAYER, LEVEL_NAMES

_TRACK = range(1, BHAGYA + 1)  # the chakras and the Bhagya: the levels that hold energies
_CHAKRAS = range(1, BHAGYA)


def invariant_violations(state, previous=None) -> list[str]:
    """Check chakra.md#programmers on ``state`` (and chakra.md#programmers against ``previous``, the state before the last action)."""
    problems = []
    rules = state.rules
    tokens, cap = rules.inspiration_tokens, rules.colour_cap
    n = state.num_players
    totals = list(state.bag)
    for column in state.maya:
        for c in column:
            totals[c] += 1
    totals[BLACK] += state.removed_blacks
    for seat, board in enumerate(state.players):
        try:
            faults, energies = _board_verdict(board, tokens, cap)
        except TypeError:  # a board built by hand with lists in it: not a key, so checked without the cache
            faults, energies = _board_verdict.__wrapped__(board, tokens, cap)
        if faults:
            problems += [f"player {seat}{fault}" for fault in faults]
        totals = list(map(add, totals, energies))
        # 5. harmonized chakras stay harmonized and unchanged; a board the action left alone is the
        # previous state's own object (the next state shares it), so there is nothing to compare
        if previous is not None and previous.players[seat] is not board:
            before = previous.players[seat].levels
            for level in _CHAKRAS:
                if _harmonized(before[level], level) and board.levels[level] != before[level]:
                    problems.append(f"player {seat}'s harmonized {LEVEL_NAMES[level]} changed")
    # 2. energies are conserved
    for c, total in enumerate(totals):
        if total != ENERGIES_PER_COLOUR_PER_PLAYER * n:
            problems.append(f"there are {total} {COLOUR_NAMES[c]} energies in the game, not {3 * n}")
    if min(state.bag) < 0:
        problems.append("the bag has a negative count")
    return problems


# Verdicts kept by _board_verdict: an action changes one board, so the others are checked again unchanged
# after every action; a few boards of each seat are enough.
BOARD_VERDICTS_KEPT = 32


@lru_cache(maxsize=BOARD_VERDICTS_KEPT)
def _board_verdict(board, tokens: int, cap: int | None) -> tuple:
    """Invariants 1, 3 and 4 and the notches' rule on one board under the rules' ``inspiration_tokens`` and
    ``colour_cap``, as ``(faults, energies)``: each fault the end of a sentence that starts with the seat
    ("player 2" + "'s Earth count is negative"), ``energies`` the board's energies by colour, the Earth's blacks
    included (for the conservation check).

    A bounded standard-library cache keyed by value (the board is a frozen dataclass of tuples and numbers): the
    verdict depends on nothing else, so an equal board under the same two rules gets the same verdict."""
    faults = []
    # 1. tokens are conserved
    if board.reserve + len(board.spaces) + len(board.notches) != tokens:
        faults.append(f" has {board.reserve} + {len(board.spaces)} + {len(board.notches)} tokens, not {tokens}")
    # 3. capacity (the Earth holds only black by construction: it is a count of blacks)
    levels = board.levels
    for level in _TRACK:
        if len(levels[level]) > CAPACITY:
            faults.append(f"'s {LEVEL_NAMES[level]} holds {len(levels[level])} energies")
    if levels[0]:
        faults.append("'s level 0 holds energies outside the Earth count")
    if board.earth < 0:
        faults.append("'s Earth count is negative")
    counts = [0] * 8
    for contents in levels:
        for c in contents:
            counts[c] += 1
    # 4. colour cap
    if cap is not None:
        for c in range(1, 8):
            if counts[c] > cap:
                faults.append(f" holds {counts[c]} {COLOUR_NAMES[c]} energies")
    # notches and harmonized chakras: a harmonized chakra never keeps a notch token (chakra.md#harmonization)
    for level in board.notches:
        if 1 <= level <= 7 and _harmonized(levels[level], level):
            faults.append(f"'s harmonized {LEVEL_NAMES[level]} still has a notch token")
    counts[BLACK] += board.earth
    return tuple(faults), tuple(counts)


def _harmonized(contents, level: int) -> bool:
    """Three energies, all of the chakra's own colour (chakra.md#harmonization)."""
    return len(contents) == CAPACITY and contents.count(level) == CAPACITY
