"""The invariants of chakra.md#programmers, as a list of readable violations (empty = all hold).

Used by the random-play tests after every action and by ``from_json`` to reject damaged saves.
"""

from __future__ import annotations

from gamelib.chakra.components import BHAGYA, BLACK, CAPACITY, COLOUR_NAMES, ENERGIES_PER_COLOUR_PER_PLAYER, LEVEL_NAMES


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
        # 1. tokens are conserved
        if board.reserve + len(board.spaces) + len(board.notches) != rules.inspiration_tokens:
            problems.append(
                f"player {seat} has {board.reserve} + {len(board.spaces)} + {len(board.notches)} "
                f"tokens, not {rules.inspiration_tokens}"
            )
        # 3. capacity (the Earth holds only black by construction: it is a count of blacks)
        for level in range(1, BHAGYA + 1):
            if len(board.levels[level]) > CAPACITY:
                problems.append(f"player {seat}'s {LEVEL_NAMES[level]} holds {len(board.levels[level])} energies")
        if board.levels[0]:
            problems.append(f"player {seat}'s level 0 holds energies outside the Earth count")
        if board.earth < 0:
            problems.append(f"player {seat}'s Earth count is negative")
        counts = board.colour_counts()
        for c in range(8):
            totals[c] += counts[c]
        totals[BLACK] += board.earth
        # 4. colour cap
        if rules.colour_cap is not None:
            for c in range(1, 8):
                if counts[c] > rules.colour_cap:
                    problems.append(f"player {seat} holds {counts[c]} {COLOUR_NAMES[c]} energies")
        # notches and harmonized chakras: a harmonized chakra never keeps a notch token (chakra.md#harmonization)
        for level in board.notches:
            if board.harmonized(level):
                problems.append(f"player {seat}'s harmonized {LEVEL_NAMES[level]} still has a notch token")
        # 5. harmonized chakras stay harmonized and unchanged
        if previous is not None:
            for level in previous.players[seat].harmonized_levels():
                if board.levels[level] != previous.players[seat].levels[level]:
                    problems.append(f"player {seat}'s harmonized {LEVEL_NAMES[level]} changed")
    # 2. energies are conserved
    for c, total in enumerate(totals):
        if total != ENERGIES_PER_COLOUR_PER_PLAYER * n:
            problems.append(f"there are {total} {COLOUR_NAMES[c]} energies in the game, not {3 * n}")
    if min(state.bag) < 0:
        problems.append("the bag has a negative count")
    return problems
