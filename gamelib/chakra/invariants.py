"""The invariants of chakra.md#programmers, as a list of readable violations (empty = all hold).

Used by the random-play tests after every action and by ``from_json`` to reject damaged saves.
"""

from __future__ import annotations

from gamelib.chakra.components import BHAGYA, BLACK, CAPACITY, COLOUR_NAMES, ENERGIES_PER_COLOUR_PER_PLAYER, LEVEL_NAMES

_TRACK = range(1, BHAGYA + 1)  # the chakras and the Bhagya: the levels that hold energies


def invariant_violations(state, previous=None) -> list[str]:
    """Check chakra.md#programmers on ``state`` (and chakra.md#programmers against ``previous``, the state before the last action)."""
    problems = []
    rules = state.rules
    n = state.num_players
    totals = list(state.bag)
    for column in state.maya:
        for c in column:
            totals[c] += 1
    totals[BLACK] += state.removed_blacks
    for seat, board in enumerate(state.players):
        _check_board(seat, board, rules, totals, problems)
        # 5. harmonized chakras stay harmonized and unchanged; a board the action left alone is the
        # previous state's own object (the next state shares it), so there is nothing to compare
        if previous is not None and previous.players[seat] is not board:
            before = previous.players[seat]
            for level in before.harmonized_levels():
                if board.levels[level] != before.levels[level]:
                    problems.append(f"player {seat}'s harmonized {LEVEL_NAMES[level]} changed")
    # 2. energies are conserved
    for c, total in enumerate(totals):
        if total != ENERGIES_PER_COLOUR_PER_PLAYER * n:
            problems.append(f"there are {total} {COLOUR_NAMES[c]} energies in the game, not {3 * n}")
    if min(state.bag) < 0:
        problems.append("the bag has a negative count")
    return problems


def _check_board(seat: int, board, rules, totals: list, problems: list) -> None:
    """Invariants 1, 3 and 4 and the notches' rule on one player's board; adds its energies to ``totals``."""
    # 1. tokens are conserved
    if board.reserve + len(board.spaces) + len(board.notches) != rules.inspiration_tokens:
        problems.append(
            f"player {seat} has {board.reserve} + {len(board.spaces)} + {len(board.notches)} "
            f"tokens, not {rules.inspiration_tokens}"
        )
    # 3. capacity (the Earth holds only black by construction: it is a count of blacks)
    levels = board.levels
    if max(map(len, levels)) > CAPACITY:
        for level in _TRACK:
            if len(levels[level]) > CAPACITY:
                problems.append(f"player {seat}'s {LEVEL_NAMES[level]} holds {len(levels[level])} energies")
    if levels[0]:
        problems.append(f"player {seat}'s level 0 holds energies outside the Earth count")
    if board.earth < 0:
        problems.append(f"player {seat}'s Earth count is negative")
    counts = board.colour_counts()
    for c in range(8):
        totals[c] += counts[c]
    totals[BLACK] += board.earth
    # 4. colour cap
    cap = rules.colour_cap
    if cap is not None and max(counts[1:]) > cap:
        for c in range(1, 8):
            if counts[c] > cap:
                problems.append(f"player {seat} holds {counts[c]} {COLOUR_NAMES[c]} energies")
    # notches and harmonized chakras: a harmonized chakra never keeps a notch token (chakra.md#harmonization)
    for level in board.notches:
        if board.harmonized(level):
            problems.append(f"player {seat}'s harmonized {LEVEL_NAMES[level]} still has a notch token")
