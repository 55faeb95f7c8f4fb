"""The breadth-first planner (fewest actions to harmonize a chakra) against brute force."""

import pytest

from gamelib.chakra import GREEN, RED, YELLOW, Channel, Meditate, position
from gamelib.chakra.planning import fewest_actions, replay, solo_successors


def brute_force_length(state, chakra, limit):
    """Iterative deepening over *every* action sequence (no merging of repeated positions)."""
    board, bag = state.players[0], state.bag

    def reachable(board, bag, depth):
        if board.harmonized(chakra):
            return True
        if depth == 0:
            return False
        return any(reachable(b, g, depth - 1) for _, b, g in solo_successors(board, bag, state.rules))

    for depth in range(limit + 1):
        if reachable(board, bag, depth):
            return depth
    return None


PUZZLES = [  # (board of the player to act, chakra)
    ({"YELLOW": "Y Y Y"}, YELLOW),  # already harmonized: 0 actions
    ({"GREEN": "Y", "YELLOW": "Y Y"}, YELLOW),  # one step down
    ({"PURPLE": "Y", "GREEN": "Y Y"}, YELLOW),  # D3 then D1x3 (C3-like: all three move together)
    ({"ORANGE": "R R", "BHAGYA": "R"}, RED),
    ({"YELLOW": "G G", "GREEN": "K", "LIGHT_BLUE": "G"}, GREEN),
    ({"GREEN": "G G", "BHAGYA": "K", "SPACES": ["D3", "D1x3", "D2_D1", "U2"]}, GREEN),  # no third green: impossible
    ({"BHAGYA": "G", "PURPLE": "G K", "YELLOW": "G", "SPACES": ["D3"]}, GREEN),
]


@pytest.mark.parametrize("board, chakra", PUZZLES)
def test_bfs_plan_is_shortest_and_works(board, chakra):
    state = position([board])
    plan = fewest_actions(state, chakra, max_actions=3)
    expected = brute_force_length(state, chakra, 3)
    if expected is None:
        assert plan is None
    else:
        assert plan is not None and len(plan) == expected
        assert replay(state, plan).players[0].harmonized(chakra)  # every action legal, goal reached


def test_plan_with_a_meditate_when_tokens_run_out():
    state = position([{"GREEN": "Y", "YELLOW": "Y Y", "RESERVE": 0}])  # every token on a channel space
    plan = fewest_actions(state, YELLOW)
    assert len(plan) == 2 and isinstance(plan[0], Meditate) and isinstance(plan[1], Channel)
    assert replay(state, plan).players[0].harmonized(YELLOW)


def test_known_plan_lengths():
    assert fewest_actions(position([{"PURPLE": "Y", "GREEN": "Y Y"}]), YELLOW) is not None
    assert len(fewest_actions(position([{"PURPLE": "Y", "GREEN": "Y Y"}]), YELLOW)) == 2
    assert fewest_actions(position([{"GREEN": "Y Y"}]), YELLOW) is None  # only two yellows
