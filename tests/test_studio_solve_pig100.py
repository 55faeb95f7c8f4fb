"""Pig to 100 solved by gamelib.studio.solve, against the published values (make test-long only: a few minutes).

Sources:
* Todd W. Neller and Clifton G.M. Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal
  25(1) (2004) 25-47: under optimal play the first player wins 53.06% of games (P(0,0,0), given
  there to four figures).
* Todd W. Neller, "Pig: First-Player Advantage", Nifty Assignments (SIGCSE 2010),
  http://nifty.stanford.edu/2010/neller-pig/advantage.html: with both players holding at 20 or
  the goal, "the actual value is approximately .5347" for the first player.

The studio's Pig makes the first roll of a turn compulsory and ends the game as soon as banked
points plus the turn total reach the goal; neither changes these two values (holding with
nothing rolled only passes the turn, and a player who can reach the goal holds and wins).
"""

from gamelib.studio.examples import pig
from gamelib.studio.solve import evaluate_policies, solve

RULES = pig.Rules(goal=100)


def hold_at_20(state, rng=None):
    """Roll until the turn total reaches 20 (reaching the goal wins at once in this Pig)."""
    return "hold" if state.position.turn_total >= 20 else "roll"


def test_optimal_first_player_chance_matches_neller_and_presser():
    solution = solve(pig, RULES, progress=False)
    assert solution.residual <= 1e-12
    assert abs(float(solution.start_value[0]) - 0.5306) <= 0.00005  # published to four figures


def test_hold_at_20_first_player_chance_matches_the_published_value():
    solution = evaluate_policies(pig, [hold_at_20, hold_at_20], RULES, progress=False)
    assert abs(float(solution.start_value[0]) - 0.5347) <= 0.00005  # "approximately .5347"
