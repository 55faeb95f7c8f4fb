"""gamelib.design's tournaments: paired seeding, the same results on any executor (serial, 2 local
processes, a local Dask cluster), progress counts, lead traces, the completion protocol, CSV and
games played by people on a Match."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import toy_game
from design_support import capped_new_game, few_throws, one_die, two_dice
from gamelib import Match, core, design
from gamelib.design import Results

ROOT = Path(__file__).resolve().parent.parent
POLICIES = [two_dice, one_die]


def small(**options):
    return design.tournament(toy_game, POLICIES, 40, seed=5, progress=False, **options)


# ------------------------------------------------------------------ pairing


def test_every_deal_is_played_in_every_seating_with_its_own_seed():
    results = small(workers=1)
    assert len(results) == 80 and [row.index for row in results] == list(range(80))
    deals = {}
    for row in results:
        deals.setdefault(row.seed, []).append(row.seating)
    assert len(deals) == 40 and all(sorted(seatings) == [(0, 1), (1, 0)] for seatings in deals.values())
    assert [(row.seed, row.seating) for row in results] == core.tournament_plan(2, 40, 5)


def test_the_same_seed_deals_the_same_game_for_every_seating_and_variant():
    plain = small(workers=1)
    longer = design.tournament(toy_game, POLICIES, 40, toy_game.Rules(target=30), seed=5, workers=1, progress=False)
    assert [row.deal for row in plain] == [row.deal for row in longer]
    assert longer[0].variant == "target=30" and plain[0].variant == "default rules"
    for row in plain:
        # the deal: the same first throw whoever sits down and whatever the target
        first = [
            toy_game.new_game(row.seed, rules).apply("TWO_DICE").points for rules in (None, toy_game.Rules(target=30))
        ]
        assert first[0] == first[1]
        # and the same game as the core's own play_seated_game
        record = core.play_seated_game(toy_game, POLICIES, row.seating, row.seed)
        assert (record.winners, record.scores, record.length) == (row.winners, row.scores, row.length)


def test_design_tournament_plays_the_core_tournaments_games():
    ours = small(workers=1)
    cores = core.tournament(toy_game, POLICIES, 40, seed=5, progress=False)
    assert [(r.seed, r.seating, r.winners, r.scores, r.length) for r in ours] == [
        (r.seed, r.seating, r.winners, r.scores, r.length) for r in cores
    ]


# ------------------------------------------------------------------ executors


def test_serial_two_processes_and_a_local_dask_cluster_give_identical_results():
    from distributed import Client, LocalCluster

    serial = small(workers=1)
    two_processes = small(workers=2)
    odd_chunks = small(workers=2, chunk=7)
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = small(executor=client)
    assert serial == two_processes == odd_chunks == on_dask
    assert len({row.seed for row in serial}) == 40


def test_a_given_executor_is_used_and_left_open():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        first = small(executor=pool, chunk=3)
        second = small(executor=pool)
    assert first == second == small(workers=1)


def test_unpicklable_policies_fall_back_to_this_process_with_a_warning():
    def lazy(state, rng):
        return "ONE_DIE"

    with pytest.warns(UserWarning, match="cannot be sent"):
        results = design.tournament(toy_game, [lazy, one_die], 40, seed=5, workers=2, progress=False)
    assert [row.winners for row in results] == [
        row.winners
        for row in design.tournament(toy_game, [one_die, one_die], 40, seed=5, rotate=True, workers=1, progress=False)
    ]


def test_the_progress_bar_counts_games(capsys):
    design.tournament(toy_game, POLICIES, 10, seed=1, workers=1, description="race")
    err = capsys.readouterr().err
    assert "race" in err and "20/20" in err


# ------------------------------------------------------------------ traces and completion


def test_a_value_function_replaces_the_scores_as_lead_measure():
    def behind(state):
        return [-points for points in state.points]  # "leading" = being behind

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = design.tournament(toy_game, POLICIES, 5, seed=3, lead=behind, workers=1, progress=False)
    plain = design.tournament(toy_game, POLICIES, 5, seed=3, workers=1, progress=False)
    for mine, theirs in zip(results, plain):
        flipped = tuple(design.NO_LEADER if seat == design.NO_LEADER else 1 - seat for seat in theirs.trace)
        assert mine.trace == flipped
    untraced = design.tournament(toy_game, POLICIES, 5, seed=3, lead=False, workers=1, progress=False)
    assert all(row.trace == () for row in untraced)


def test_the_lead_trace_follows_the_game_move_by_move():
    row = small(workers=1)[0]
    state, rng, expected = toy_game.new_game(row.seed), None, []
    policies = [POLICIES[i] for i in row.seating]
    while not state.is_terminal:
        expected.append(design.leader(state.points))
        state = state.apply(policies[state.to_move](state, rng))
    expected.append(design.leader(state.points))
    assert row.trace == tuple(expected) and row.first_mover == 0


def test_games_report_a_safeguard_through_ended_by_rules():
    results = design.tournament(capped_new_game, POLICIES, 30, seed=4, workers=1, progress=False)
    # CappedRace counts a game of 4 or more throws as cut short; one throw = one player action here
    assert [row.completed for row in results] == [row.length < 4 for row in results]
    assert design.completion(results).value == sum(row.length < 4 for row in results) / 60
    # a caller can say it instead, for a game whose states lack the attribute
    short = design.tournament(toy_game, POLICIES, 30, seed=4, completed=few_throws, workers=2, progress=False)
    assert [row.completed for row in short] == [row.completed for row in results]
    assert design.ended_by_rules(object()) is True
    assert design.ended_by_rules(type("S", (), {"ended_by_rules": lambda self: False})()) is False


def test_one_policy_for_every_seat_and_players_from_the_game():
    assert design.players_of(toy_game) == 2
    results = design.tournament(toy_game, one_die, 6, seed=1, workers=1, progress=False)
    assert len(results) == 6 and results[0].policies == ("one_die", "one_die")


# ------------------------------------------------------------------ CSV and games played by people


def test_csv_round_trip_and_pooling(tmp_path):
    first = small(workers=1)
    second = design.tournament(toy_game, POLICIES, 10, toy_game.Rules(target=20), seed=6, workers=1, progress=False)
    first.to_csv(tmp_path / "a.csv")
    design.save_csv(second, tmp_path / "b.csv")
    assert Results.from_csv(tmp_path / "a.csv") == first
    pooled = design.load_csv(tmp_path / "a.csv", tmp_path / "b.csv")
    assert pooled == first + second and pooled.variants == ["default rules", "target=20"]
    assert pooled.variant("target=20") == second


def test_csv_with_a_missing_column_or_a_bad_line_is_refused_by_name(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("variant,index,seed\nx,0,1\n")
    with pytest.raises(ValueError, match="missing the column"):
        design.load_csv(path)
    small(workers=1)[:1].to_csv(path)
    header, line = path.read_text().splitlines()
    fields = line.split(",")
    fields[1] = "zero"  # the index column
    path.write_text(f"{header}\n{','.join(fields)}\n")
    with pytest.raises(ValueError, match="line 2"):
        design.load_csv(path)


def test_a_game_played_on_a_match_becomes_a_row_like_the_tournaments():
    row = small(workers=1)[0]
    match = Match(toy_game.new_game(row.seed))
    policies = [POLICIES[i] for i in row.seating]
    while not match.state.is_terminal:
        match.apply(policies[match.state.to_move](match.state, None))
    mine = design.result_from_match(match, policies=row.policies, variant=row.variant)
    assert mine == row
    match.step_back()
    with pytest.raises(ValueError, match="finished game"):
        design.result_from_match(match)


def test_the_module_works_without_matplotlib():
    code = "import sys; import gamelib.design; print('matplotlib' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert output.stdout.strip() == "False"


# ------------------------------------------------------------------ every game on the contract

GAMES_ON_THE_CONTRACT = ["toy_game", "gamelib.pangu", "gamelib.chakra", "gamelib.nagaraja"]


@pytest.mark.parametrize("name", GAMES_ON_THE_CONTRACT)
def test_design_runs_every_game_on_the_contract(name, tmp_path):
    import importlib

    game = importlib.import_module(name)
    players = design.players_of(game)
    results = design.tournament(game, [core.random_policy] * players, 2, seed=7, rotate=True, workers=1, progress=False)
    assert len(results) == 2 * players and results.players == players
    for row in results:
        record = core.play_seated_game(game, [core.random_policy] * players, row.seating, row.seed)
        assert (record.winners, record.scores, record.length) == (row.winners, row.scores, row.length)
        assert len(row.trace) == row.length + 1 and row.first_mover in range(players)
    assert design.summary(results).column("metric")[0] == "first seat win rate"
    results.to_csv(tmp_path / "games.csv")
    assert design.load_csv(tmp_path / "games.csv") == results
