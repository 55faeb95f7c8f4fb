"""The one engine contract (issue 8), checked point by point for the toy race and all three games.

Each game package exposes the same names: ``GAME`` (the save's game name), ``SAVE_VERSION``,
``Rules``, ``State``, ``new_game``, and modules ``bots`` (``random_policy``, ``greedy_policy``)
and ``board`` (one board class named in ``BOARD``). The expected facts come from the contract
in ``shared/design.md`` ("The engine contract") and issue 8's list.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import random

import pytest

from gamelib import core
from gamelib.core import CHANCE, TERMINAL, CorruptSave, IllegalMove

ENGINES = ["gamelib.pangu", "gamelib.chakra", "gamelib.nagaraja"]
GAMES = ["toy_game", *ENGINES]
# issue 22: the games students write (the studio's worked examples) keep the same contract
GAMES += ["gamelib.studio.examples.pig", "gamelib.studio.examples.race", "gamelib.studio.examples.bluff"]
BOARDS = {"gamelib.pangu": "PanguBoard", "gamelib.chakra": "ChakraBoard", "gamelib.nagaraja": "NagarajaBoard"}


@pytest.fixture(params=GAMES)
def game(request):
    return importlib.import_module(request.param)


@pytest.fixture(params=ENGINES)
def engine(request):
    return importlib.import_module(request.param)


def finished(game, seed=3):
    return core.play(game.new_game(seed=seed), core.random_policy, seed=seed)


def test_new_game_signature(game):
    parameters = inspect.signature(game.new_game).parameters
    names = list(parameters)
    assert names[:2] == ["seed", "rules"]
    assert parameters["seed"].default is None and parameters["rules"].default is None
    assert parameters["explicit_chance"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["explicit_chance"].default is False
    for name in names[2:]:
        assert parameters[name].kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD), name


def test_seed_none_draws_a_fresh_recorded_seed(game):
    first, second = game.new_game(), game.new_game()
    assert first.seed != second.seed
    assert game.new_game(seed=first.seed).to_json() == first.to_json()
    assert game.new_game(seed=41).seed == 41


def test_rules_are_a_validated_frozen_dataclass(game):
    rules = game.Rules()
    assert dataclasses.is_dataclass(rules) and isinstance(rules, core.RulesBase)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rules, dataclasses.fields(rules)[0].name, None)
    assert game.Rules.from_dict(rules.to_dict()) == rules
    assert rules.changes() == {} and str(rules) == "default rules"
    for field in dataclasses.fields(rules):
        with pytest.raises(ValueError, match=field.name):
            game.Rules(**{field.name: object()})
    with pytest.raises(ValueError, match="unknown rule parameter"):
        game.Rules.from_dict({"no_such_rule": 1})


def one_changed_rule(rules_class):
    """The first parameter that can be changed alone by flipping a switch or adding one."""
    for field in dataclasses.fields(rules_class):
        default = getattr(rules_class(), field.name)
        candidates = (
            [not default] if type(default) is bool else [default + 1, default - 1] if type(default) is int else []
        )
        for value in candidates:
            try:
                return field.name, value, rules_class(**{field.name: value})
            except ValueError:
                continue
    raise AssertionError("no rule parameter is a switch or a number")


def test_rules_changes_and_str_name_the_variant(game):
    name, value, variant = one_changed_rule(game.Rules)
    assert variant.changes() == {name: value}
    assert name in str(variant) and variant != game.Rules()


def test_state_contract_through_a_whole_game(game):
    state = game.new_game(seed=5)
    rng = random.Random(5)
    policy = core.random_policy
    players = len(state.returns())
    while not state.is_terminal:
        assert state.winners == () and state.winner is None
        assert state.returns() == [0.0] * players
        assert state.current_player in range(players)
        for player in range(players):
            json.dumps(state.observation(player))
            assert isinstance(state.observation(player), dict)
        assert isinstance(str(state), str) and str(state)
        actions = state.legal_actions()
        assert actions
        state = state.apply(policy(state, rng))
    assert state.current_player == TERMINAL and state.legal_actions() == []
    assert isinstance(state.winners, tuple)
    check_final_returns(state.winners, state.returns(), players)
    assert state.winner == (state.winners[0] if len(state.winners) == 1 else None)


def check_final_returns(winners, returns, players):
    """1/k to each of k winners, 0 to the others, so the returns sum to 1; a lost solo game (Pangu)
    is the one finished game without a winner, and its returns are all 0."""
    if players == 1 and not winners:
        assert list(returns) == [0.0]
        return
    assert winners and sum(returns) == pytest.approx(1.0)
    share = 1 / len(winners)
    assert list(returns) == [share if seat in winners else 0.0 for seat in range(players)]


def test_explicit_chance_nodes_are_exact(game):
    state = game.new_game(seed=2, explicit_chance=True)
    rng = random.Random(2)
    seen = 0
    for _ in range(300):
        if state.is_terminal:
            break
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            core.check_distribution(outcomes)
            seen += 1
            state = state.apply(core.sample_outcome(outcomes, rng))
        else:
            assert state.chance_outcomes() == []
            state = state.apply(rng.choice(state.legal_actions()))
    assert seen > 0


def test_illegal_move_raises_and_changes_nothing(game):
    state = game.new_game(seed=8)
    before = state.to_json()
    with pytest.raises(IllegalMove) as raised:
        state.apply("not an action")
    assert raised.value.reason
    assert state.to_json() == before


def test_saves_round_trip_with_a_checked_header(game):
    state = finished(game)
    middle = game.new_game(seed=4)
    for saved in (state, middle):
        text = saved.to_json()
        data = json.loads(text)
        assert data["game"] == game.GAME and data["version"] == game.SAVE_VERSION
        again = game.State.from_json(text)
        assert again.to_json() == text
    data = json.loads(middle.to_json())
    for forged, words in (
        ({"game": "othello"}, ["othello", game.GAME]),
        ({"version": game.SAVE_VERSION + 1}, [str(game.SAVE_VERSION + 1), game.GAME]),
        ({"version": None}, [game.GAME]),
    ):
        with pytest.raises(CorruptSave) as raised:
            game.State.from_json(json.dumps({**data, **forged}))
        for word in words:
            assert word in str(raised.value)
    without = {key: value for key, value in data.items() if key != "version"}
    with pytest.raises(CorruptSave):
        game.State.from_json(json.dumps(without))


def test_bots_and_the_core_driver(engine):
    bots = importlib.import_module(engine.__name__ + ".bots")
    assert bots.random_policy is core.random_policy or bots.random_policy.__module__ == "gamelib.core"
    for policy in (bots.random_policy, bots.greedy_policy):
        assert list(inspect.signature(policy).parameters)[:2] == ["state", "rng"]
        final = core.play(engine.new_game(seed=1), policy, seed=1)
        assert final.is_terminal


def test_each_package_exports_its_bots(engine):
    bots = importlib.import_module(engine.__name__ + ".bots")
    assert engine.random_policy is bots.random_policy and engine.greedy_policy is bots.greedy_policy


@pytest.mark.parametrize("wrong", [{}, {"seed": 1}, "defaults", 3, []])
def test_a_wrong_rules_argument_is_the_same_type_error_in_every_engine(engine, wrong):
    with pytest.raises(TypeError, match=rf"rules must be a {engine.__name__}\.Rules value, not {type(wrong).__name__}"):
        engine.new_game(seed=1, rules=wrong)


def test_core_tournament_rotates_seats_and_pairs_deals(game):
    state = game.new_game(seed=1)
    players = len(state.returns())
    policies = [core.random_policy] * players
    records = core.tournament(game, policies, 2, seed=9, progress=False)
    assert len(records) == 2 * players
    assert {record.seating for record in records} == set(core.seatings(players))
    assert len({record.seed for record in records}) == 2
    for record in records:
        check_final_returns(record.winners, record.returns, players)
    again = core.tournament(game, policies, 2, seed=9, progress=False)
    assert again == records


def test_board_constructor_shape(engine):
    board_class = getattr(importlib.import_module(engine.__name__ + ".board"), BOARDS[engine.__name__])
    parameters = inspect.signature(board_class.__init__).parameters
    assert list(parameters)[1] == "game_or_match" and parameters["game_or_match"].default is None
    for keyword in ("seed", "rules", "viewer", "bots", "label"):
        assert parameters[keyword].kind is inspect.Parameter.KEYWORD_ONLY, keyword
    board = board_class(seed=3)
    assert board.match.state.seed == 3
    assert repr(board) == repr(board_class(seed=3))  # no memory address for nbval


def test_games_on_several_threads_at_once_are_the_games_played_alone(game):
    """A thread pool or a Dask worker's threads play several games at once (``design.tournament`` takes any
    executor): no engine may let one game's turn or listing leak into another's. 12 seeded random games on 4
    threads switching every microsecond give the final saves of the same games played one by one. Every engine
    builds a turn on its own local draft (``core.Draft``) with no module-level state, so this holds by
    construction; the test is the outside check of it."""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    def final_save(seed):
        return finished(game, seed).to_json()

    seeds = range(40, 52)
    alone = [final_save(seed) for seed in seeds]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(final_save, seeds))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


def test_scores_are_a_tuple_by_seat_in_every_game(game):
    """issue 26: ``scores()`` has one type in every game, a tuple with one score per seat (Chakra gave a
    list), at the start, in the middle and at the end of a game."""
    state = game.new_game(seed=5)
    players = len(state.returns())
    rng = random.Random(5)
    seen = 0
    while True:
        scores = state.scores()
        assert type(scores) is tuple and len(scores) == players, (type(scores).__name__, scores)
        seen += 1
        if state.is_terminal:
            break
        state = state.apply(
            core.random_policy(state, rng) if state.current_player != CHANCE else state.chance_outcomes()[0][0]
        )
    assert seen >= 2
