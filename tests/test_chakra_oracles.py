"""Fast code against slow, obvious oracles: the move generator and the bots' lookahead."""

import random

from gamelib.chakra import Rules, new_game, position
from gamelib.chakra.bots import action_value, board_value, expected_plenitude, greedy_policy, random_policy
from gamelib.chakra.moves import action_order_key, brute_force_legal_actions
from gamelib.simulate import seeds


def sample_positions(players, count, seed):
    """Positions from seeded games mixing greedy and random play (varied, mid-game boards)."""
    found = []
    for game_seed in seeds(seed, count):
        state = new_game(players, seed=game_seed, rules=Rules(max_rounds=25))
        rng = random.Random(game_seed)
        while not state.is_terminal:
            if rng.random() < 0.15:
                found.append(state)
            policy = greedy_policy if rng.random() < 0.6 else random_policy
            state = state.apply(policy(state, rng))
    return found


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
    r6 = position([{"BHAGYA": "R K", "ORANGE": "O O K", "YELLOW": "Y Y Y", "GREEN": "G K", "RESERVE": 1,
                    "NOTCHES": ["GREEN"]}], maya=["K Y G", "R R K", "P D L"])
    for state in (c3, r6):
        assert state.legal_actions() == brute_force_legal_actions(state)


def test_greedy_lookahead_equals_applying_the_action():
    """The bot's cheap ``after_action`` board equals the board ``apply`` really produces."""
    for state in sample_positions(3, 2, 3)[:25]:
        player = state.current_player
        view = state.observation(player)
        worth = expected_plenitude(view.known_plenitude(player))
        for action in view.legal_actions():
            real = view.apply(action).players[player]
            expected = board_value(real.levels, real.earth, real.reserve, len(real.spaces), len(real.notches), worth)
            value = action_value(view, player, action, worth)
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
        view = state.observation(player)
        worth = expected_plenitude(view.known_plenitude(player))
        fast = lookahead_values(view, player)
        assert [action for action, _ in fast] == state.legal_actions()
        for action, value in fast:
            assert abs(value - action_value(view, player, action, worth)) < 1e-9, str(action)
