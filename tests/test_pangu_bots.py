"""Pangu bots (spec 12): greedy's definition, the lookahead's exact expectation against a
brute-force expectimax written here from the engine contract alone, play and tournaments."""

import random
from fractions import Fraction

import pytest

from gamelib import CHANCE, core
from gamelib.pangu import Action, Rules, greedy_policy, lookahead_policy, lookahead_values, new_game, random_policy
from gamelib.pangu import SINGLE_VARIANTS
from gamelib.pangu.actions import best_recovery, legal_cell_indices, recovery, search_chance, search_successor
from gamelib.pangu.cards import LAYOUTS
from gamelib.pangu.bots import TurnPlanner, search_position, tournament
from pangu_support import S1_DECK


def play(policy, seed, rules=None):
    return core.play(new_game(seed=seed, rules=rules), policy, seed=seed)


def brute_force(state, turn, stuck_depth):
    """(low, high) bounds of the expected end-of-turn Karma (lost = 0) by plain enumeration.

    Every legal action (both dice) and every one of the 36 rolls of chance_outcomes(). A roll
    that blocks every revealed card leads to another roll node; after ``stuck_depth`` of those
    in a row the branch is cut and bounded by the worst and best possible values (0 and the
    starting Karma), so the exact value lies between the two bounds.
    """
    if state.is_terminal or state.pending == "draw" or state.turn != turn:
        value = Fraction(0 if state.status == "LOST" else state.karma)
        return value, value
    if state.current_player == CHANCE:
        low = high = Fraction(0)
        for roll, probability in state.chance_outcomes():
            child = state.apply(roll)
            stuck = child.pending == "roll" and child.roll_reason == "stuck"
            if stuck and stuck_depth == 0:
                child_low, child_high = Fraction(0), Fraction(state.rules.starting_karma)
            else:
                child_low, child_high = brute_force(child, turn, stuck_depth - 1 if stuck else stuck_depth)
            low += probability * child_low
            high += probability * child_high
        return low, high
    bounds = [brute_force(state.apply(action), turn, stuck_depth) for action in state.legal_actions()]
    return max(b[0] for b in bounds), max(b[1] for b in bounds)


def positions(rules, seeds, placements_into_turn):
    """Decision points part-way through a turn, reached with greedy play."""
    found = []
    for seed in seeds:
        state = new_game(seed=seed, rules=rules)
        while not state.is_terminal:
            in_turn = 3 - len(state.revealed) if state.turn < 4 else 0
            if state.turn >= 2 and in_turn == placements_into_turn:
                found.append(state)
                break
            state = state.apply(greedy_policy(state))
    return found


def stuck_position(rules):
    """Turn 3 of game S1 after A9 and A4: only A8 (6,1) is left, so the roll (6,1) blocks it."""
    state = new_game(seed=0, deck=S1_DECK, rolls=[(3, 5), (2, 2), (6, 1), (6, 1)], rules=rules)
    for move in [
        ("A6", "BLUE", (0, 1)),
        ("A3", "BLUE", (1, 0)),
        ("A5", "WHITE", (2, 1)),
        ("A1", "BLUE", (0, 0)),
        ("A2", "WHITE", (0, 2)),
        ("A10", "BLUE", (2, 0)),
        ("A9", "BLUE", (1, 3)),
    ]:
        state = state.apply(Action(*move))
    return state  # A4 and A8 revealed; placing A4 leaves A8 blocked: the plan crosses a stuck reroll


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(stuck_rule="reroll_penalty_1"),
        Rules(cap_rule="before_turn"),
        Rules(defeat_check="after_recovery", starting_karma=7),
    ],
    ids=str,
)
def test_lookahead_expectation_crossing_a_stuck_reroll(rules):
    state = stuck_position(rules)
    values = dict(lookahead_values(state))
    explicit = state.with_explicit_chance()
    for action, value in values.items():
        low, high = brute_force(explicit.apply(action), state.turn, stuck_depth=4)
        assert low <= value <= high and high - low < Fraction(1, 10**5)
    a4_first = [v for a, v in values.items() if a.card == "A4"]
    assert any(v.denominator > 1 for v in a4_first)  # a real expectation over the reroll


@pytest.mark.parametrize(
    "rules",
    [Rules(roll_timing="per_placement"), Rules(roll_timing="per_placement", stuck_rule="reroll_penalty_1")],
    ids=str,
)
def test_lookahead_expectation_over_fresh_rolls(rules):  # every placement crosses a roll
    for state in positions(rules, range(3), placements_into_turn=1):
        explicit = state.with_explicit_chance()
        for action, value in lookahead_values(state):
            low, high = brute_force(explicit.apply(action), state.turn, stuck_depth=2)
            assert low <= value <= high and high - low < Fraction(1, 10**3)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(allow_rotation=True),
        Rules(cap_rule="before_placement"),
        Rules(centre_match_counts_as_circle=True),
        Rules(grid="4x3"),
    ],
    ids=str,
)
def test_fast_planner_equals_the_naive_one(rules):  # memo + dominance pruning change nothing
    for state in positions(rules, range(6), placements_into_turn=1)[:2]:
        fast, naive = TurnPlanner(), TurnPlanner(naive=True)
        naive_values = naive.action_values(state)
        assert fast.action_values(state) == naive_values
        top = max(v for _, v in naive_values)
        assert dict(naive_values)[fast.best_action(state)] == top


def test_lookahead_policy_picks_the_first_best_action():
    state = stuck_position(Rules())
    values = lookahead_values(state)
    top = max(v for _, v in values)
    chosen = lookahead_policy(state, random.Random(0))
    assert dict(values)[chosen] == top
    # the first best action in spec 8 order among those using the card's cheaper die
    assert chosen == next(a for a, v in values if v == top and a.die == state.cheapest_die(a.card)[0])


def test_greedy_follows_its_definition():  # spec 12: cheapest die, max rec - cost, first in spec 8 order
    rng = random.Random(5)
    for seed in range(60):
        state = new_game(seed=seed, rules=Rules(allow_rotation=seed % 2 == 1))
        while not state.is_terminal:
            candidates = [a for a in state.legal_actions() if state.cheapest_die(a.card)[0] == a.die]
            scores = [state.recovery(a.card, a.cell, a.orientation) - state.cost(a.card, a.die) for a in candidates]
            expected = candidates[scores.index(max(scores))]
            assert greedy_policy(state) == expected
            state = state.apply(random_policy(state, rng))


def test_play_returns_the_finished_game_with_its_log():
    final = play(greedy_policy, seed=12)
    assert final.is_terminal and final.log[-1].kind == "game_end"
    assert play(greedy_policy, seed=12) == final  # seeded
    assert play(random_policy, seed=3, rules=Rules(grid="4x3")).rules.grid == "4x3"


def test_tournament_reports_rates_with_intervals():
    results = tournament(
        {"random": random_policy, "greedy": greedy_policy},
        {"defaults": Rules(), "per_placement": Rules(roll_timing="per_placement")},
        games=200,
        seed=1,
        show_progress=False,
    )
    assert [(r.policy, r.rules.roll_timing) for r in results] == [
        ("random", "per_turn"),
        ("greedy", "per_turn"),
        ("random", "per_placement"),
        ("greedy", "per_placement"),
    ]
    for result in results:
        assert sum(result.final_karma.values()) == 200 == result.games
        assert result.win_rate.low <= result.wins / 200 <= result.win_rate.high
        assert result.wins == sum(n for karma, n in result.final_karma.items() if karma > 0)
    random_default, greedy_default, _, greedy_per_placement = results
    assert random_default.win_rate.high < greedy_default.win_rate.low  # spec 12: ~3% against ~61%
    assert greedy_default.win_rate.high < greedy_per_placement.win_rate.low  # spec 12: ~61% against ~88%
    again = tournament({"greedy": greedy_policy}, Rules(), games=50, seed=1, show_progress=False)[0]
    assert (
        again.final_karma
        == tournament({"greedy": greedy_policy}, Rules(), games=50, seed=1, show_progress=False)[0].final_karma
    )


def test_lookahead_memo_does_not_leak_between_rule_sets():
    for rules in (Rules(), Rules(cap_rule="before_turn"), Rules(centre_match_counts_as_circle=True)):
        for state in positions(rules, range(4), placements_into_turn=0):
            assert lookahead_policy(state, None) == TurnPlanner().best_action(state)


def position(state):
    """Every field of a state but its log (search positions carry none)."""
    return {name: value for name, value in vars(state).items() if name != "log"}


@pytest.mark.parametrize("rules", list(SINGLE_VARIANTS.values()), ids=str)
def test_search_fast_path_reaches_the_positions_of_the_public_apply(rules):
    """The planner's unvalidated successors (actions.search_successor, search_chance) against the
    public, validated apply: from every decision of a few random games, every legal action and then
    every outcome of the chance node it leads to must give the same position."""
    rng = random.Random(11)
    for seed in range(3):
        state = new_game(seed=seed, rules=rules)
        while not state.is_terminal:
            root = search_position(state)
            cells = legal_cell_indices(state.grid, LAYOUTS[rules.grid])
            for card in map(state.cards.__getitem__, state.revealed):  # the last card's shortcut, by brute force
                assert best_recovery(state, card, cells) == max(
                    recovery(state, card, index, o)
                    for index in cells
                    for o in ((0, 180) if rules.allow_rotation else (0,))
                )
            assert root.log == () and position(root) == position(state.with_explicit_chance())
            for action in state.legal_actions():
                index = state.geometry.index(action.cell)
                fast = search_successor(root, state.cards[action.card], action.die, index, action.orientation)
                assert fast.log == () and position(fast) == position(root.apply(action)), action
                for outcome, _ in fast.chance_outcomes():
                    assert position(search_chance(fast, outcome)) == position(fast.apply(outcome)), outcome
            state = state.apply(random_policy(state, rng))
