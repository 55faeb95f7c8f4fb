"""Session 11 (playtesting with people): the figures of a class's pooled Pig playtests, and the check of a
playtest report whose numbers it recomputes from the files.

The files are read with :func:`gamelib.design.load_playtests` (every game replayed, so a figure can
only come from a game that was really played). A file's variant is the letter after the last ``_`` of
its name (``pair3_B.jsonl`` is variant B): the analyst unblinds the A/B test by the file names, the
players never saw them. People's moves are set beside **optimal play** (``gamelib.studio.solve``, exact
per variant), which tells not only *whether* they deviate but how much chance of winning each move gave away.
"""

from __future__ import annotations

import statistics
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamelib.design import load_playtests
from gamelib.exercises import Feedback
from gamelib.studio import solve

CLOSE_DECISION = 0.02
"""A decision is *close* when its two moves' chances of winning under optimal play differ by less than this."""
REPORT_FIELDS = {  # field -> (what it is, the tolerance a reported number may be off by rounding)
    "games": ("finished games", 0),
    "decisions": ("people's decisions", 0),
    "agree_optimal": ("share of people's decisions that an optimal player makes too", 0.005),
    "median_seconds": ("median seconds per decision", 0.05),
    "first_seat_wins": ("share of games the first seat won", 0.005),
    "fun": ("mean survey answer to fun (1-5)", 0.05),
    "fairness": ("mean survey answer to fairness (1-5)", 0.05),
}


def variant_of(game: Any) -> str:
    """The variant letter of a playtest game: the part of its file name after the last underscore."""
    return game.path.stem.rsplit("_", 1)[-1]


@lru_cache(maxsize=8)
def _solution(rules: Any):
    from gamelib.studio.examples import pig

    return solve(pig, rules, progress=False)


def decision_rows(playtests: Any) -> list[dict]:
    """One row per person's decision: variant, seat, turn total, seconds, the move, optimal's move, and the
    chance of winning the move gave away against optimal play (0 when it is an optimal move)."""
    rows = []
    for game in playtests.games:
        people = [decision for decision in game.decisions if decision.by == "human"]
        states = game.states if people else ()  # replayed from the game's moves, once per game
        for decision in people:
            rows.append(_decision_row(game, decision, states[decision.ply]))
    return rows


def _decision_row(game: Any, decision: Any, before: Any) -> dict:
    """The row of one person's ``decision`` in ``game``, taken in the position ``before``."""
    values = dict(_solution(before.rules).action_values(before))
    best = max(values.values())
    optimal = next(action for action, value in values.items() if value == best)
    return {
        "variant": variant_of(game),
        "seat": decision.seat,
        "turn_total": before.position.turn_total,
        "seconds": decision.seconds,
        "move": decision.action,
        "optimal": optimal,
        "given_away": best - values[decision.action],
        "close": max(values.values()) - min(values.values()) < CLOSE_DECISION,
    }


def report_figures(folder: str | Path) -> dict:
    """The report's numbers per variant, recomputed from the playtest files in ``folder``."""
    playtests = load_playtests(folder)
    rows = decision_rows(playtests)
    figures = {}
    for variant in sorted({variant_of(game) for game in playtests.games}):
        games = [game for game in playtests.games if variant_of(game) == variant]
        mine = [row for row in rows if row["variant"] == variant]
        surveys = [game.survey for game in games if game.survey]
        figures[variant] = {
            "games": len(games),
            "decisions": len(mine),
            "agree_optimal": sum(row["given_away"] == 0 for row in mine) / len(mine),
            "median_seconds": statistics.median(row["seconds"] for row in mine),
            "first_seat_wins": sum(tuple(game.final.winners) == (0,) for game in games) / len(games),
            "fun": statistics.mean(survey["fun"] for survey in surveys if survey["fun"] is not None),
            "fairness": statistics.mean(survey["fairness"] for survey in surveys if survey["fairness"] is not None),
        }
    return figures


def check_playtest_report(report: Any, folder: str | Path) -> Feedback:
    """The checked task: every number of ``report`` ({variant: {field: number}}) recomputed from the files.

    Says which numbers differ, by how much, and what each field counts, so a student can find the slip."""
    actual = report_figures(folder)
    if not isinstance(report, dict) or not report:
        return Feedback(
            f"Not yet: the report is a dict of variants ({', '.join(actual)}), each a dict of "
            f"{', '.join(REPORT_FIELDS)}.",
            False,
        )
    problems = []
    for variant in actual:
        given = report.get(variant)
        if not isinstance(given, dict):
            problems.append(f"variant {variant} is missing (the files hold {actual[variant]['games']} of its games)")
            continue
        for field, (meaning, tolerance) in REPORT_FIELDS.items():
            value = given.get(field, ...)
            if value is ... or value is None:
                problems.append(f"{variant}.{field} is not filled in ({meaning})")
                continue
            try:
                gap = float(value) - float(actual[variant][field])
            except (TypeError, ValueError):
                problems.append(f"{variant}.{field} = {value!r} is not a number ({meaning})")
                continue
            if abs(gap) > tolerance + 1e-12:
                problems.append(
                    f"{variant}.{field} = {value} is {abs(gap):.3g} too {'high' if gap > 0 else 'low'} "
                    f"({meaning}; {_hint(field)})"
                )
    unknown = sorted(set(report) - set(actual))
    if unknown:
        problems.append(f"the files hold no variant {', '.join(map(str, unknown))}")
    checked = sum(len(REPORT_FIELDS) for _ in actual)
    if not problems:
        return Feedback(f"Right: all {checked} numbers of the report agree with the files.", True)
    return Feedback(
        f"Not yet: {len(problems)} of {checked} numbers disagree with the files: " + "; ".join(problems) + ".", False
    )


def _hint(field: str) -> str:
    return {
        "games": "count finished games only: load_playtests drops unfinished ones",
        "decisions": "people's decisions only, chance outcomes are not decisions (playtests.decisions('human'))",
        "agree_optimal": "a decision agrees when it gives away no chance of winning, ties included",
        "median_seconds": "the median, not the mean: a few long hesitations pull the mean up",
        "first_seat_wins": "seat 0 is the first seat; a share from 0 to 1",
        "fun": "the mean of the answered surveys of that variant",
        "fairness": "the mean of the answered surveys of that variant",
    }[field]
