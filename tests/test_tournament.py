"""One tournament function and one game record (issue 26, "One vocabulary across games").

``gamelib.core.tournament`` plays every tournament: the games' presets summarise its records and
``gamelib.design.tournament`` runs its plan through a runner. These tests replay each preset's
tournament through the core function itself and check the preset reports exactly those games,
and that ``games`` counts deals everywhere.
"""

from __future__ import annotations

import ast
import doctest
from collections import Counter
from pathlib import Path

from gamelib import chakra, core, design, nagaraja, pangu
from gamelib.chakra import bots as chakra_bots
from gamelib.nagaraja import bots as nagaraja_bots
from gamelib.pangu import bots as pangu_bots

GAMELIB = Path(core.__file__).parent


def test_the_pangu_preset_summarises_the_core_tournament():
    (result,) = pangu_bots.tournament(
        {"greedy": pangu.greedy_policy}, pangu.Rules(), games=6, seed=3, show_progress=False
    )
    records = core.tournament(pangu, [pangu.greedy_policy], 6, seed=3, progress=False)
    assert len(records) == result.games == 6  # one seat: one game per deal
    assert result.wins == sum(bool(record.winners) for record in records)
    assert result.final_karma == Counter(record.scores[0] for record in records)


def test_the_chakra_preset_summarises_the_core_tournament():
    result = chakra_bots.tournament(chakra.greedy_policy, games=3, players=2, seed=4, show_progress=False)
    rules = chakra.Rules(max_rounds=chakra_bots.DEFAULT_MAX_ROUNDS)
    records = core.tournament(
        chakra, [chakra.greedy_policy] * 2, 3, rules=rules, seed=4, setup={"players": 2}, rotate=False, progress=False
    )
    assert len(records) == result.games == 3  # no rotation: one game per deal
    assert list(result.wins_by_seat) == [sum(seat in record.winners for record in records) for seat in range(2)]
    assert result.scores_by_seat == tuple(tuple(record.scores[seat] for record in records) for seat in range(2))


def test_the_nagaraja_preset_plays_each_deal_in_both_seatings():
    result = nagaraja_bots.tournament(
        nagaraja.heuristic_policy, nagaraja.random_policy, games=2, seed=1, show_progress=False
    )
    records = core.tournament(nagaraja, [nagaraja.heuristic_policy, nagaraja.random_policy], 2, seed=1, progress=False)
    assert len(records) == result.games == 4  # 2 deals x 2 seatings
    assert [record.seating for record in records] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    by_policy = [sum(record.policy_returns()[index] for record in records) for index in range(2)]
    assert list(result.wins) == by_policy  # one winner a game: the returns are 1 and 0


def test_design_rows_are_the_core_records_converted_once():
    results = design.tournament(
        chakra, [chakra.greedy_policy, chakra.random_policy], 2, seed=5, setup={"players": 2}, workers=1, progress=False
    )
    records = core.tournament(
        chakra, [chakra.greedy_policy, chakra.random_policy], 2, seed=5, setup={"players": 2}, progress=False
    )
    assert len(results) == len(records) == 4  # games counts deals here too: 2 deals x 2 seatings
    for row, record in zip(results, records):
        assert row == design.GameResult.from_record(
            record,
            completed=row.completed,
            first_mover=row.first_mover,
            trace=row.trace,
            variant=row.variant,
            policies=row.policies,
        )
        assert row.policy_returns() == record.policy_returns()


def test_games_counts_deals_in_the_plan():
    assert len(core.tournament_plan(3, 4, seed=2)) == 4 * 3
    assert len(core.tournament_plan(3, 4, seed=2, rotate=False)) == 4
    assert core.tournament_plan(2, 3, seed=2)[:4] == core.tournament_plan(2, 2, seed=2)  # longer = same start


def _functions_named(path: Path, name: str) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == name]


def _calls(node: ast.AST) -> set[str]:
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            function = call.func
            names.add(function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", ""))
    return names


def test_every_tournament_function_goes_through_the_core_one():
    """The only loop over a tournament's plan is core.tournament's: every other ``tournament`` calls it."""
    found = {}
    for path in sorted(GAMELIB.rglob("*.py")):
        for function in _functions_named(path, "tournament"):
            found[path.relative_to(GAMELIB).as_posix()] = _calls(function)
    assert set(found) == {"core.py", "design/running.py", "pangu/bots.py", "chakra/bots.py", "nagaraja/bots.py"}
    for where, calls in found.items():
        if where != "core.py":
            assert calls & {"tournament", "core_tournament"}, f"{where}'s tournament does not call core.tournament"
            assert not calls & {"tournament_plan", "seeds"}, f"{where} plans its own games"


def test_design_plans_no_games_of_its_own():
    """gamelib.design (its tournaments, sweeps and pacing traces) draws no deal seeds itself: core.tournament does."""
    for path in sorted((GAMELIB / "design").glob("*.py")):
        calls = _calls(ast.parse(path.read_text(encoding="utf-8")))
        assert not calls & {"seeds", "tournament_plan"}, f"{path.name} plans its own games"


def test_the_public_api_examples_run():
    """The runnable examples (``>>>``) in the docstrings of gamelib.core and gamelib.design give what they show."""
    from gamelib.design import compare, payoff

    for module in (core, compare, payoff):
        results = doctest.testmod(module)
        assert results.attempted >= 1 and results.failed == 0, module.__name__
