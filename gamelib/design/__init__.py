"""Design analysis for any game on the engine contract: tournaments, balance metrics, rule sweeps.

The questions a game-design class asks of every game, in one vocabulary (Ludii's metrics):

>>> from gamelib import design
>>> results = design.tournament(game, [bot_a, bot_b], 500, seed=1)   # seats rotated, deals paired
>>> design.seat_advantage(results), design.balance(results), design.duration(results)
>>> design.paired_comparison(results, design.tournament(game, [bot_a, bot_b], 500, variant_rules, seed=1))
>>> design.sweep(game, "starting_karma", range(6, 15), greedy, 300).plot()
>>> results.to_csv("my_run.csv"); design.load_csv("my_run.csv", "yours.csv")

Games run across the machine's cores by default; any ``concurrent.futures.Executor`` (a Dask
``distributed.Client`` for a cluster) can be passed as ``executor=``, with identical results.
A game that can be cut short by a safeguard reports it through ``state.ended_by_rules``
(see :func:`ended_by_rules`). Everything here uses the core contract only.
"""

from gamelib.design.compare import (
    PairedComparison,
    first_mover_won,
    games_needed,
    mcnemar_p_value,
    paired_comparison,
    paired_games_needed,
    policy_won,
    seat_won,
    paired_outcomes,
    two_sample_games_needed,
)
from gamelib.design.metrics import (
    METRICS,
    Check,
    Duration,
    balance,
    beside_exact,
    compare_to_exact,
    completion,
    decisive_moment,
    decisiveness,
    draw_rate,
    duration,
    first_mover_advantage,
    first_mover_win_rate,
    lead_changes,
    lead_changes_in,
    policy_win_rates,
    seat_advantage,
    seat_win_rates,
    share_estimate,
    skill_trace,
    summary,
)
from gamelib.design.results import (
    NO_LEADER,
    BadResultsFile,
    BadRow,
    GameResult,
    Results,
    ended_by_rules,
    leader,
    load_csv,
    result_from_match,
    result_from_states,
    save_csv,
    score_lead,
)
from gamelib.design.playtests import PlaytestError, PlaytestProblems, PlaytestResults, compare_with_bot, load_playtests
from gamelib.design.running import play_traced_game, players_of, tournament
from gamelib.design.sweeps import Sweep, TargetSearch, find_target, first_seat_win_rate, sweep
from gamelib.design.tables import Table

__all__ = [
    "tournament",
    "players_of",
    "play_traced_game",
    "GameResult",
    "Results",
    "NO_LEADER",
    "leader",
    "score_lead",
    "ended_by_rules",
    "save_csv",
    "load_csv",
    "BadResultsFile",
    "BadRow",
    "result_from_match",
    "result_from_states",
    "seat_win_rates",
    "policy_win_rates",
    "seat_advantage",
    "first_mover_win_rate",
    "first_mover_advantage",
    "balance",
    "draw_rate",
    "completion",
    "Duration",
    "duration",
    "decisive_moment",
    "decisiveness",
    "lead_changes_in",
    "lead_changes",
    "skill_trace",
    "share_estimate",
    "Check",
    "beside_exact",
    "compare_to_exact",
    "METRICS",
    "summary",
    "PairedComparison",
    "paired_comparison",
    "paired_outcomes",
    "mcnemar_p_value",
    "policy_won",
    "seat_won",
    "first_mover_won",
    "games_needed",
    "paired_games_needed",
    "two_sample_games_needed",
    "Sweep",
    "sweep",
    "TargetSearch",
    "find_target",
    "first_seat_win_rate",
    "Table",
    "load_playtests",
    "compare_with_bot",
    "PlaytestResults",
    "PlaytestError",
    "PlaytestProblems",
]
