"""The one way to build a state (issue 26; README, "Package map"), checked in Pangu, Chakra and a
studio game:

* the unchecked ``search_step`` builds the same states as the checked ``apply`` over every legal
  action of seeded random games (field by field, log included);
* an illegal move raises ``IllegalMove`` and leaves the state as it was;
* games on two threads give the results they give one after the other (no module state to share);
* ``check_end`` is the rule that ends each engine's game.

``GAMELIB_LONG_TESTS=1`` plays more games.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest

from gamelib import chakra, core, pangu
from gamelib.chakra import actions as chakra_actions
from gamelib.chakra import rules as chakra_rules
from gamelib.core import CHANCE, IllegalMove
from gamelib.pangu import actions as pangu_actions
from gamelib.studio import Game, GameCodeError
from gamelib.studio.examples import pig

GAMES = 12 if os.environ.get("GAMELIB_LONG_TESTS") == "1" else 3


def fields(state) -> dict:
    """Every field of a state, the log included (``==`` on a Chakra state leaves the log out); a
    studio state keeps its fields in slots."""
    if hasattr(state, "__dict__"):
        return dict(vars(state))
    return {name: getattr(state, name) for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())}


def options(state) -> list:
    return (
        [outcome for outcome, _ in state.chance_outcomes()] if state.current_player == CHANCE else state.legal_actions()
    )


def assert_search_step_is_apply(state, search_step, rng, most=40) -> None:
    """``search_step`` and ``apply`` agree on (a sample of) every option of ``state``."""
    choices = options(state)
    for action in choices if len(choices) <= most else rng.sample(choices, most):
        assert fields(search_step(state, action)) == fields(state.apply(action)), action


# --------------------------------------------------------------------------- search_step = apply


@pytest.mark.parametrize("explicit", [False, True])
def test_pangu_search_step_builds_the_states_apply_builds(explicit):
    rng = random.Random(26)
    for seed in range(GAMES * 4):
        state = pangu.new_game(seed, explicit_chance=explicit)
        while not state.is_terminal:
            assert_search_step_is_apply(state, pangu_actions.search_step, rng)
            state = state.apply(rng.choice(options(state)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_chakra_search_step_builds_the_states_apply_builds(players):
    rng = random.Random(players)
    for seed in range(GAMES):
        state = chakra.new_game(seed, chakra.Rules(max_rounds=6), players=players, explicit_chance=seed % 2 == 1)
        while not state.is_terminal:
            assert_search_step_is_apply(state, chakra_actions.search_step, rng, most=15)
            state = state.apply(rng.choice(options(state)))


def test_a_studio_game_search_step_builds_the_states_apply_builds():
    rng = random.Random(5)
    for seed in range(GAMES * 3):
        state = pig.new_game(seed=seed, rules=pig.Rules(goal=20))
        while not state.is_terminal:
            assert_search_step_is_apply(state, pig.State.search_step, rng)
            state = state.apply(rng.choice(options(state)))


# --------------------------------------------------------------------------- an illegal move changes nothing


def assert_refused_and_unchanged(state, action) -> None:
    before, text = fields(state), state.to_json()
    with pytest.raises(IllegalMove):
        state.apply(action)
    assert fields(state) == before and state.to_json() == text


def test_pangu_illegal_moves_leave_the_state_unchanged():
    state = pangu.new_game(3)
    legal = state.legal_actions()[0]
    assert_refused_and_unchanged(state, legal._replace(cell=(0, 0)))  # a cell that touches nothing
    assert_refused_and_unchanged(state, legal._replace(die="RED"))
    assert_refused_and_unchanged(state, "not a move")
    assert_refused_and_unchanged(pangu.new_game(3, explicit_chance=True), (7, 7))  # no such roll


def test_chakra_illegal_moves_leave_the_state_unchanged():
    state = chakra.new_game(4)
    assert_refused_and_unchanged(state, chakra.Meditate(None))  # only for a player holding all 7 colours
    assert_refused_and_unchanged(state, chakra.Receive(0, ["RED", "ORANGE", "YELLOW"], "EARTH"))
    assert_refused_and_unchanged(state, "not a move")
    refill = chakra.new_game(4, explicit_chance=True)
    refill = refill.apply(next(a for a in refill.legal_actions() if isinstance(a, chakra.Receive)))
    assert refill.current_player == CHANCE
    assert_refused_and_unchanged(refill, 99)


def test_a_studio_game_illegal_move_leaves_the_state_unchanged():
    state = pig.new_game(seed=1)
    assert_refused_and_unchanged(state, "jump")


# --------------------------------------------------------------------------- two threads, no shared state


def play_mixed(seed: int) -> tuple:
    """One greedy game of each engine and a random Pig game, their final saves."""
    return (
        core.play(pangu.new_game(seed), pangu.greedy_policy, seed=seed).to_json(),
        core.play(
            chakra.new_game(seed, chakra.Rules(max_rounds=8), players=3), chakra.greedy_policy, seed=seed
        ).to_json(),
        core.play(chakra.new_game(seed, chakra.Rules(max_rounds=8)), chakra.random_policy, seed=seed).to_json(),
        core.play(pig.new_game(seed=seed), core.random_policy, seed=seed).to_json(),
    )


def test_games_on_two_threads_give_the_results_they_give_one_after_the_other():
    seeds = list(range(GAMES + 1))
    alone = [play_mixed(seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(play_mixed, seeds))
    assert together == alone


# --------------------------------------------------------------------------- where the game ends


def test_pangu_check_end_loses_out_of_karma_and_wins_when_every_card_is_placed():
    state = pangu.new_game(1)
    draft = pangu_actions.Draft(state)
    assert pangu_actions.check_end(draft) is False and draft.status == pangu_actions.ONGOING
    draft.karma = 0  # pangu.md#karma: Karma at 0 loses
    assert pangu_actions.check_end(draft) is True and draft.status == pangu_actions.LOST
    assert draft.freeze().log[-1] == pangu_actions.GameEnd(pangu_actions.LOST, 0)
    draft = pangu_actions.Draft(state)
    draft.revealed, draft.deck, draft.to_reveal = (), (), 0  # every card placed
    assert pangu_actions.check_end(draft) is True and draft.status == pangu_actions.WON
    assert state.status == pangu_actions.ONGOING  # the draft never touched the state


def test_chakra_check_end_ends_the_game_when_the_triggered_round_closes():
    state = chakra.new_game(2, chakra.Rules(end_trigger_harmonized=1))
    boards = list(state.players)
    boards[0] = core.replace_fields(boards[0], levels=((), (1, 1, 1)) + ((),) * 7)  # RED harmonized (chakra.md#end)
    state = core.replace_fields(state, players=tuple(boards))
    draft = chakra_actions.TurnDraft(state)
    chakra_actions.check_end(draft)  # seat 0's turn: triggered, but the round is not closed
    assert draft.end_triggered and not draft.finished
    draft.to_move = 1  # the last seat's turn closes the round
    chakra_actions.check_end(draft)
    assert draft.finished and not state.end_triggered


# --------------------------------------------------------------------------- one vocabulary


def test_chakra_keeps_no_listing_cache_and_its_names_where_the_other_games_keep_theirs():
    assert not hasattr(chakra_rules, "_LISTED")
    assert (chakra.saving.GAME, chakra.saving.SAVE_VERSION) == (chakra.GAME, chakra.SAVE_VERSION) == ("chakra", 3)
    final = core.play(chakra.new_game(8), chakra.greedy_policy, seed=8)
    assert type(final.scores()) is tuple and type(pangu.new_game(8).scores()) is tuple


def _coin(chance_of):
    """A one-seat studio game whose chance nodes return ``chance_of(position)``."""

    class Coin(Game):
        def start(self):
            return (0, False)

        def to_move(self, position):
            return 0

        def moves(self, position):
            return ["flip"]

        def play(self, position, move):
            return (position[0] + 1, move == "flip")

        def chance(self, position):
            return chance_of(position)

        def winners(self, position):
            return [0] if position[0] >= 4 else None

    return Coin


def test_a_checked_distribution_is_found_by_its_exact_content():
    """The studio keeps checked chance distributions by content, never by id(): a distribution equal
    to one already checked but with float probabilities is still refused."""

    def chance_of(position):
        if not position[1]:
            return None
        return {1: Fraction(1, 2), 2: Fraction(1, 2)} if position[0] < 2 else {1: 0.5, 2: 0.5}

    Coin = _coin(chance_of)
    state = Coin.new_game(seed=0, explicit_chance=True).apply("flip")
    assert state.chance_outcomes() == [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    later = Coin.state_at((2, True), explicit_chance=True)
    with pytest.raises(GameCodeError, match="a float"):
        later.chance_outcomes()


def test_the_same_dict_changed_in_place_is_checked_again():
    """A game that returns one dict at every chance node (a DIE constant) has its check reused only
    while that dict holds the very same outcome and probability objects: changed in place, it is
    checked again (a float probability put into it is refused)."""
    die = {1: Fraction(1, 2), 2: Fraction(1, 2)}
    Coin = _coin(lambda position: die if position[1] else None)
    first = Coin.state_at((0, True), explicit_chance=True)
    assert first.chance_outcomes() == [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    assert Coin.state_at((1, True), explicit_chance=True).chance_outcomes() == first.chance_outcomes()
    die[2] = 0.5
    with pytest.raises(GameCodeError, match="a float"):
        Coin.state_at((2, True), explicit_chance=True).chance_outcomes()
    die[2] = Fraction(1, 4)
    with pytest.raises(GameCodeError):  # no longer sums to 1
        Coin.state_at((3, True), explicit_chance=True).chance_outcomes()


# --------------------------------------------------------------------------- the studio builds on the core's builder


def test_studio_states_are_built_by_the_core_builder():
    """Every way a studio game makes a state (a new game, ``apply``, ``search_step``, the seed's dice,
    the copies made for a search, a save replayed, a pickle) freezes a draft of the core's builder:
    the game's draft class is ``core.Draft.for_class(State)``, and a subclass of it that records its
    freezes sees every state the game hands out."""
    assert pig.State._draft_class is core.Draft.for_class(pig.State)

    class CountedPig(pig.Pig):  # a game of its own, so the recording draft reaches no other test
        pass

    frozen = []

    class Recording(core.Draft.for_class(CountedPig.State)):
        __slots__ = ()

        def freeze(self, state_class=None):
            state = super().freeze(state_class)
            frozen.append(state)
            return state

    CountedPig.State._draft_class = Recording
    rules = {"goal": 15}
    state = CountedPig.new_game(seed=5, rules=rules)
    assert state is frozen[-1]
    rng = random.Random(26)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
        assert state is frozen[-1] and type(state) is CountedPig.State
    rebuild, arguments = state.__reduce__()
    searched = CountedPig.new_game(seed=6, rules=rules, explicit_chance=True)
    while not searched.is_terminal:
        searched = searched.search_step(rng.choice(options(searched)))
        assert searched is frozen[-1]
    for make in (
        lambda: state.with_seed(1),
        state.with_explicit_chance,
        lambda: state.sample_hidden(0, rng),
        lambda: CountedPig.state_at(state.position, rules),
        lambda: CountedPig.State.from_json(state.to_json()),
        lambda: rebuild(*arguments),  # what a pickle's load calls
    ):
        made = make()
        assert made is frozen[-1] and type(made) is CountedPig.State
    assert CountedPig.State.from_json(state.to_json()) == state == rebuild(*arguments)
    with pytest.raises(AttributeError, match="immutable"):
        state.position = None  # the frozen state refuses edits, though it was the draft


def test_no_module_level_table_filled_as_it_runs_in_the_core_the_studio_or_pangu():
    """Caches are the standard library's (``functools``) or hung on the object they belong to: no
    module of these starts an empty dict, list or set at module level (nor a table of empty ones)
    to fill as it runs."""
    import ast
    import pathlib

    root = pathlib.Path(core.__file__).parent
    files = [root / "core.py", *sorted((root / "studio").glob("*.py")), *sorted((root / "pangu").glob("*.py"))]
    empty = (ast.Dict, ast.List, ast.Set)
    found = []
    for path in files:
        for node in ast.parse(path.read_text()).body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if (isinstance(value, empty) and not getattr(value, "keys", getattr(value, "elts", None))) or (
                isinstance(value, ast.Call)
                and getattr(value.func, "id", None) in ("dict", "list", "set")
                and not (value.args or value.keywords)
            ):
                found.append(f"{path.name}:{node.lineno}")
            if isinstance(value, ast.DictComp) and isinstance(value.value, (ast.Dict, ast.List)):
                found.append(f"{path.name}:{node.lineno}")  # one empty table a key, filled later
    assert found == []
