"""Planning puzzles: the fewest actions that harmonize a chakra, found by breadth-first search.

The player plays alone (the others are frozen) with Channel actions, SWAP and Meditate;
Receive is left out because what the Maya shows next is chance. Breadth-first search
visits positions in order of the number of actions taken, so the first position that
harmonizes the chakra is reached by a shortest plan. A position reached twice (two orders
of the same moves, say) is explored once: that is what keeps the search small. The cost
still grows quickly with the number of energies on the board and with ``max_actions``,
so puzzles use small boards.
"""

from __future__ import annotations

from collections import deque

from gamelib.core import replace_fields as replace
from gamelib.chakra.actions import Channel, channel_board, meditate_actions, space_actions, swap_colours
from gamelib.chakra.components import BHAGYA, BLACK, SPACES, level_id


def solo_successors(board, bag: tuple, rules) -> list:
    """(action, next board, next bag) for every Channel action and one Meditate of a player who keeps the turn."""
    found = []
    if board.reserve >= 1:
        for space in SPACES[:-1]:
            if space not in board.spaces:
                found += [(action, channel_board(board, action), bag) for action in space_actions(board.levels, space)]
        if "SWAP" not in board.spaces:
            for colour in swap_colours(_Table(bag, rules), board):
                found.append((Channel("SWAP", (), colour),) + _swap(board, bag, colour, rules))
    if board.spaces:  # every Meditate colour brings the same tokens back: one is enough for planning
        meditate = meditate_actions(_Table(bag, rules), board)[0]
        meditation = (
            board.meditation if meditate.colour is None else tuple(sorted(board.meditation + (meditate.colour,)))
        )
        found.append(
            (
                meditate,
                replace(board, reserve=board.reserve + len(board.spaces), spaces=frozenset(), meditation=meditation),
                bag,
            )
        )
    return found


class _Table:
    """The two things ``swap_colours`` reads from a state."""

    def __init__(self, bag, rules):
        self.bag, self.rules = bag, rules


def _swap(board, bag, colour, rules):
    new_bag = list(bag)
    if rules.swap_discard_to_bag:
        new_bag[BLACK] += 1
    new_bag[colour] -= 1
    levels = list(board.levels)
    levels[BHAGYA] = tuple(sorted(levels[BHAGYA] + (colour,)))
    return replace(
        board, levels=tuple(levels), earth=board.earth - 1, reserve=board.reserve - 1, spaces=board.spaces | {"SWAP"}
    ), tuple(new_bag)


def fewest_actions(state, chakra, player: int | None = None, max_actions: int = 6) -> list | None:
    """A shortest list of actions after which ``player`` (default: the player to act) has
    harmonized ``chakra``; ``[]`` if it already is, ``None`` if no plan of at most
    ``max_actions`` actions exists. (Where a plan meditates, the first colour the player
    lacks is named; any other would do as well.)"""
    chakra = level_id(chakra)
    player = state.to_move if player is None else player
    start = (state.players[player], state.bag)
    if start[0].harmonized(chakra):
        return []
    seen = {start}
    frontier = deque([(start, ())])
    while frontier:
        (board, bag), plan = frontier.popleft()
        if len(plan) >= max_actions:
            continue
        for action, next_board, next_bag in solo_successors(board, bag, state.rules):
            if next_board.harmonized(chakra):
                return list(plan + (action,))
            key = (next_board, next_bag)
            if key not in seen:
                seen.add(key)
                frontier.append((key, plan + (action,)))
    return None


def _as_player(state, player: int):
    """The same position with ``player`` to act and the game running (planning ignores turns)."""
    if state.to_move == player and not state.finished and not state.refill_pending:
        return state
    return replace(state, to_move=player, finished=False, refill_pending=False, log=None)  # not a real game


def replay(state, plan, player: int | None = None):
    """The position after ``player`` plays ``plan`` alone (each action checked by ``apply``)."""
    player = state.to_move if player is None else player
    for action in plan:
        state = _as_player(_as_player(state, player).apply(action), player)
    return state
