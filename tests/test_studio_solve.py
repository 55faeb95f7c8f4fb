"""The exact solver (gamelib.studio.solve) against plain oracles and the published values of Pig.

Oracles (tests/studio_solve_support.py): plain recursive expectimax for the games whose positions
never repeat, plain Gauss-Seidel value iteration over a dict for those where they do.
"""

import os
from dataclasses import dataclass
from fractions import Fraction

import pytest

from gamelib.studio.examples import bluff, pig, race
from gamelib.studio.solve import TooManyPositions, evaluate_policies, optimal_sweep, solve

from studio_solve_support import dash, expectimax, hold_at, pig as tiny_pig, sticks, target, value_iteration_oracle

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"


def _every_position_agrees(solution, oracle: dict, tolerance: float) -> None:
    assert set(oracle) == set(solution._graph.index)
    for key, expected in oracle.items():
        assert abs(float(solution._values[solution._graph.index[key]]) - expected) <= tolerance, key


# --------------------------------------------------------------------------- no position repeats: exact


@pytest.mark.parametrize(
    "game, rules",
    [(dash, dash.Rules(length)) for length in (3, 5, 7)]
    + [(sticks, sticks.Rules(count)) for count in (4, 5, 6, 9)]
    + [(target, target.Rules(goal)) for goal in (3, 5, 8)],
)
def test_acyclic_games_are_solved_exactly_as_plain_expectimax(game, rules):
    solution = solve(game, rules, progress=False)
    assert solution.exact and solution.residual == 0
    memo: dict = {}
    assert solution.start_value[0] == expectimax(game.new_game(rules=rules, explicit_chance=True), memo)
    for key, node in solution._graph.index.items():
        assert solution._values[node] == memo[key], key  # Fractions, equal exactly


def test_the_forced_win_in_sticks_is_found():
    """Take 1 or 2, the last stick wins: from 4 sticks taking 1 leaves 3, a lost position (3 = 0 mod 3)."""
    solution = solve(sticks, sticks.Rules(4), progress=False)
    start = sticks.new_game(rules=sticks.Rules(4))
    assert solution.value(start) == (1, 0)
    assert solution.best_action(start) == 1
    assert dict(solution.action_values(start)) == {1: 1, 2: 0}
    assert solution.value(start.apply(1)) == (1, 0)  # seat 1 to move from 3: lost whatever it takes


def test_a_solo_games_value_is_its_chance_of_winning():
    """Stop on exactly 3 with a three-sided die: roll from 0; from 1 or 2 compare stopping (0) with rolling."""
    solution = solve(target, target.Rules(3), progress=False)
    assert solution.players == 1
    # from 2: rolling wins only by a 1 (1/3); from 1: a 2 wins at once, a 1 leads to 2 (1/3): 1/3 + 1/9
    # from 0: a 3 wins, a 2 leads to 2 (1/3), a 1 leads to 1 (4/9): (1 + 1/3 + 4/9) / 3 = 16/27
    assert solution.start_value == (Fraction(16, 27),)


# --------------------------------------------------------------------------- positions repeat: a fixed point


@pytest.mark.parametrize("goal", [6, 10])
def test_pig_small_goals_match_plain_value_iteration(goal):
    rules = tiny_pig.Rules(goal=goal)
    solution = solve(tiny_pig, rules, progress=False)
    assert not solution.exact and solution.residual <= 1e-12 and solution.sweeps >= 1
    _every_position_agrees(
        solution, value_iteration_oracle(tiny_pig.new_game(rules=rules, explicit_chance=True)), 1e-11
    )


@pytest.mark.parametrize("goal", [8, 12])
def test_the_studio_pig_example_matches_plain_value_iteration(goal):
    rules = pig.Rules(goal=goal)
    solution = solve(pig, rules, progress=False)
    assert solution.residual <= 1e-12
    _every_position_agrees(solution, value_iteration_oracle(pig.new_game(rules=rules, explicit_chance=True)), 1e-11)
    start = pig.new_game(rules=rules)
    assert solution.best_action(start) == "roll"  # the only move with nothing rolled
    assert sum(solution.value(start)) == pytest.approx(1)


@pytest.mark.parametrize("length, bump", [(6, True), (9, False)])
def test_the_race_example_matches_plain_value_iteration(length, bump):
    rules = race.Rules(length=length, bump=bump)
    solution = solve(race, rules, progress=False)
    assert solution.residual <= 1e-12
    _every_position_agrees(solution, value_iteration_oracle(race.new_game(rules=rules, explicit_chance=True)), 1e-11)


def test_fixed_policies_are_evaluated_exactly():
    """Both players holding at 4 in Pig to 12: the solver's evaluation against the plain oracle's."""
    rules = tiny_pig.Rules(goal=12)
    policies = {0: hold_at(4), 1: hold_at(4)}
    solution = evaluate_policies(tiny_pig, [policies[0], policies[1]], rules, progress=False)
    assert solution.fixed == (0, 1)
    oracle = value_iteration_oracle(tiny_pig.new_game(rules=rules, explicit_chance=True), policies=policies)
    _every_position_agrees(solution, oracle, 1e-11)


def test_the_best_reply_to_a_fixed_policy_beats_optimal_play_against_it():
    """Against hold-at-4 the best reply wins at least as often as against an optimal opponent."""
    rules = tiny_pig.Rules(goal=12)
    reply = solve(tiny_pig, rules, fixed={1: hold_at(4)}, progress=False)
    optimal = solve(tiny_pig, rules, progress=False)
    assert reply.start_value[0] >= optimal.start_value[0] + 0.01


# --------------------------------------------------------------------------- refusals


def test_a_game_that_hides_information_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="hides information.*what they believe"):
        solve(bluff, progress=False)


@dataclass(frozen=True)
class _ThreeSticksState(sticks.State):
    players = 3

    def _move(self, take):
        return type(self)(
            rules=self.rules,
            left=self.left - take,
            to_move=(self.to_move + 1) % 3,
            last_taker=self.to_move,
            seed=self.seed,
            explicit_chance=self.explicit_chance,
        )


def _three_sticks(seed=None, rules=None, *, explicit_chance=False):
    return _ThreeSticksState(rules=sticks.Rules(5), left=5, explicit_chance=explicit_chance)


def test_three_players_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="3 players.*solo and two-player"):
        solve(_three_sticks, progress=False)


def test_a_too_large_game_is_refused_naming_the_positions_reached():
    with pytest.raises(TooManyPositions, match=r"more than 5,000 reachable positions.*listing 5,001") as refusal:
        solve(pig, pig.Rules(goal=100), max_positions=5000, progress=False)
    assert refusal.value.reached == 5001 and refusal.value.limit == 5000


def test_a_position_outside_the_solved_game_is_named():
    solution = solve(pig, pig.Rules(goal=8), progress=False)
    with pytest.raises(ValueError, match="under goal=9, but the solution is for goal=8"):
        solution.value(pig.new_game(rules=pig.Rules(goal=9)).apply("roll"))
    unreachable = pig.Pig.state_at(pig.Position(scores=(50, 0), turn_total=0, player=0), pig.Rules(goal=8))
    with pytest.raises(KeyError, match="not reachable"):
        solution.value(unreachable)


def test_the_solution_reads_well():
    solution = solve(pig, pig.Rules(goal=8), progress=False)
    text = repr(solution)
    assert "positions" in text and "residual" in text and "seat 0" in text
    table = solution.table(limit=5)
    assert len(table) == 5 and table.columns[-1] == "best move"


def test_the_first_players_edge_in_pig_shrinks_as_the_goal_grows():
    """The sweep's values are the solver's start values minus 1/2, and the edge falls with the goal
    (0.709 at 10, 0.616 at 20, 0.545 at 40 and 0.5306 at 100 in this Pig, the last as published)."""
    sweep = optimal_sweep(pig, "goal", [6, 12, 18], progress=False)
    edges = [estimate.value for estimate in sweep.estimates]
    assert edges == sorted(edges, reverse=True) and edges[-1] > 0
    assert edges[1] == pytest.approx(float(solve(pig, pig.Rules(goal=12), progress=False).start_value[0]) - 0.5)
    assert all(estimate.low == estimate.value == estimate.high for estimate in sweep.estimates)
    assert sweep.table().columns[:2] == ["goal", "seat 0 advantage (optimal play, exact)"]
