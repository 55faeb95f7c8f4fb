"""Fast code against slow, obvious oracles: the move generator and the bots' lookahead."""

from chakra_support import plain_greedy_policy, sample_positions
from gamelib.chakra import position
from gamelib.chakra.bots import action_value, board_value, expected_plenitude, greedy_policy
from gamelib.chakra.actions import action_order_key, brute_force_legal_actions


def test_legal_actions_equal_brute_force_in_the_same_order():
    """§14.1-14.3: every candidate that apply accepts is listed, exactly once, in the specified order."""
    positions = sample_positions(2, 4, 1) + sample_positions(4, 2, 2)
    assert len(positions) > 30
    for state in positions:
        fast = state.legal_actions()
        assert fast == brute_force_legal_actions(state)
        assert fast == sorted(fast, key=action_order_key)


def test_brute_force_on_the_spec_positions():
    c3 = position([{"GREEN": "Y K", "YELLOW": "Y Y", "NOTCHES": ["YELLOW"]}], maya=["K R Y", "G G L", "O P D"])
    r6 = position(
        [{"BHAGYA": "R K", "ORANGE": "O O K", "YELLOW": "Y Y Y", "GREEN": "G K", "RESERVE": 1, "NOTCHES": ["GREEN"]}],
        maya=["K Y G", "R R K", "P D L"],
    )
    for state in (c3, r6):
        assert state.legal_actions() == brute_force_legal_actions(state)


def test_greedy_lookahead_equals_applying_the_action():
    """The bot's cheap ``after_action`` board equals the board ``apply`` really produces."""
    for state in sample_positions(3, 2, 3)[:25]:
        player = state.current_player
        worth = expected_plenitude(state.known_plenitude(player))
        for action in state.legal_actions():
            real = state.apply(action).players[player]
            expected = board_value(real.levels, real.earth, real.reserve, len(real.spaces), len(real.notches), worth)
            value = action_value(state, player, action, worth)
            extra = value - expected  # only Meditate adds its own terms
            assert abs(extra) < 1e-9 or type(action).__name__ == "Meditate"


def test_expected_plenitude_uses_what_is_known():
    assert expected_plenitude({}) == {level: 2.5 for level in range(1, 8)}
    known = expected_plenitude({1: 4, 2: 4})
    assert known[1] == 4 and known[3] == (1 + 1 + 2 + 2 + 3 + 3) / 6


def test_fast_lookahead_values_equal_the_plain_lookahead():
    """``lookahead_values`` (scored during move generation) against ``action_value`` (apply-like
    simulation then a full board evaluation), and its action list against ``legal_actions``."""
    from gamelib.chakra.bots import lookahead_values

    for state in sample_positions(2, 3, 5) + sample_positions(4, 1, 6):
        player = state.current_player
        worth = expected_plenitude(state.known_plenitude(player))
        fast = lookahead_values(state, player)
        assert [action for action, _ in fast] == state.legal_actions()
        for action, value in fast:
            assert abs(value - action_value(state, player, action, worth)) < 1e-9, str(action)


def test_greedy_policy_chooses_as_the_plain_greedy_rule():
    """The bot's search keeps only the actions near the best: its choice is the plain rule's, same rng."""
    import random

    for index, state in enumerate(sample_positions(2, 3, 7) + sample_positions(4, 1, 8)):
        assert greedy_policy(state, random.Random(index)) == plain_greedy_policy(state, random.Random(index))


def test_greedy_policy_reads_no_hidden_plenitude():
    """§14.6: changing the values the player to act does not know changes nothing in its choice."""
    import dataclasses
    import random

    for index, state in enumerate(sample_positions(3, 2, 9)[:20]):
        known = state.known_plenitude(state.current_player)
        shuffled = tuple(value if level in known else 5 - value for level, value in enumerate(state.plenitude, 1))
        other = dataclasses.replace(state, plenitude=shuffled)
        assert greedy_policy(state, random.Random(index)) == greedy_policy(other, random.Random(index))
