"""The engine contract (gamelib.core) on the toy two-dice race of tests/toy_game.py."""

import dataclasses
import random
import typing
from fractions import Fraction

import pytest

from gamelib import CHANCE, IllegalMove, Match, play, random_policy, sample_outcome
from gamelib.core import CorruptSave, Draft, chance_rng, check_distribution
from toy_game import RaceState, new_game


def always(action):
    return lambda state, rng: action


def test_same_seed_same_game():
    first = play(new_game(seed=7), random_policy, seed=3)
    second = play(new_game(seed=7), random_policy, seed=3)
    assert first == second and first.is_terminal


def test_different_seeds_differ():
    finals = {play(new_game(seed=s), always("TWO_DICE"), seed=0).points for s in range(20)}
    assert len(finals) > 5


def test_explicit_chance_stops_at_chance_nodes():
    state = new_game(explicit_chance=True).apply("TWO_DICE")
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36
    check_distribution(outcomes)
    assert state.apply((3, 4)).points == (7, 0)
    assert state.apply((1, 1)).points == (0, 0)


def test_play_samples_explicit_chance():
    final = play(new_game(explicit_chance=True), [always("ONE_DIE"), always("TWO_DICE")], seed=1)
    assert final.is_terminal and final.winner in (0, 1)


def test_sample_outcome_is_exact_in_the_long_run():
    outcomes = [("a", Fraction(1, 3)), ("b", Fraction(2, 3))]
    rng = random.Random(0)
    draws = [sample_outcome(outcomes, rng) for _ in range(30_000)]
    share = draws.count("a") / len(draws)
    assert abs(share - 1 / 3) < 4 * (1 / 3 * 2 / 3 / len(draws)) ** 0.5


def test_sample_outcome_rejects_bad_distributions():
    with pytest.raises(ValueError):
        sample_outcome([("a", Fraction(1, 2))], random.Random(0))
    with pytest.raises(ValueError):
        check_distribution([("a", Fraction(1, 2)), ("b", Fraction(0))])


def test_sample_outcome_draws_the_same_by_either_path():
    """Equally likely outcomes sharing one Fraction take a shortcut (one weight); equal Fractions that are
    separate objects take the general loop: the same seeds must draw the same outcomes (and use the same
    random bits) by both paths."""
    for count in (1, 2, 3, 7, 12):
        shared = Fraction(1, count)
        one_object = [(k, shared) for k in range(count)]
        separate = [(k, Fraction(1, count)) for k in range(count)]
        for seed in range(200):
            draws = []
            for outcomes in (one_object, separate):
                rng = random.Random(seed)
                draws.append((sample_outcome(outcomes, rng), rng.random()))
            assert draws[0] == draws[1]


def test_sample_outcome_checks_equally_likely_outcomes_too():
    third = Fraction(1, 3)
    with pytest.raises(ValueError, match="sum to 2/3"):
        sample_outcome([("a", third), ("b", third)], random.Random(0))


def test_chance_rng_is_reproducible_and_independent():
    assert chance_rng(5, 1).random() == chance_rng(5, 1).random()
    assert chance_rng(5, 1).random() != chance_rng(5, 2).random()
    assert chance_rng(5, 1).random() != chance_rng(6, 1).random()


def test_illegal_action_raises_and_changes_nothing():
    state = new_game(seed=1)
    before = state.to_json()
    with pytest.raises(IllegalMove, match="ONE_DIE or TWO_DICE"):
        state.apply("THREE_DICE")
    assert state.to_json() == before
    assert isinstance(IllegalMove("x"), ValueError)


def test_json_round_trip_and_corrupt_save():
    state = new_game(seed=9).apply("TWO_DICE").apply("ONE_DIE")
    assert RaceState.from_json(state.to_json()) == state
    with pytest.raises(CorruptSave, match="not valid JSON"):
        RaceState.from_json("{not json")
    with pytest.raises(CorruptSave, match="missing rules, points"):
        RaceState.from_json('{"game": "race", "version": 1, "to_move": 0}')


def test_match_history_back_forward_jump_undo():
    match = Match(new_game(seed=2))
    seen = []
    match.observe(lambda m: seen.append(m.index))
    for _ in range(4):
        match.apply("ONE_DIE")
    assert match.index == 4 and match.length == 4
    after_four = match.state
    match.step_back()
    match.step_back()
    assert match.index == 2 and match.can_step_forward
    match.step_forward()
    assert match.index == 3
    match.to_end()
    assert match.state == after_four
    match.jump(0)
    assert match.state == new_game(seed=2)
    with pytest.raises(IllegalMove):
        match.step_back()
    with pytest.raises(IllegalMove, match="does not exist"):
        match.jump(9)
    match.to_end()
    match.undo()
    assert match.length == 3 and not match.can_step_forward
    assert seen == [1, 2, 3, 4, 3, 2, 3, 4, 0, 4, 3]


def test_match_new_action_from_the_past_replaces_the_future():
    match = Match(new_game(seed=2))
    match.apply("ONE_DIE")
    match.apply("ONE_DIE")
    match.step_back()
    match.apply("TWO_DICE")
    assert match.length == 2 and match.actions == ["ONE_DIE", "TWO_DICE"]


def test_match_illegal_action_keeps_history():
    match = Match(new_game(seed=2))
    match.apply("ONE_DIE")
    with pytest.raises(IllegalMove):
        match.apply("FIVE")
    assert match.length == 1 and match.index == 1


def test_replay_rebuilds_the_same_states():
    match = Match(new_game(seed=4))
    for action in ["TWO_DICE", "ONE_DIE", "TWO_DICE"]:
        match.apply(action)
    again = Match.replay(new_game(seed=4), match.actions)
    assert again.states == match.states


def test_play_gives_up_on_endless_games():
    class Forever:
        is_terminal = False
        current_player = 0

        def apply(self, action):
            return self

    with pytest.raises(RuntimeError, match="did not end"):
        play(Forever(), always(None), max_actions=10)


def test_read_json_file_names_the_problem(tmp_path):
    from gamelib.core import read_json_file

    good = tmp_path / "good.json"
    good.write_text('{"a": [1, 2]}')
    assert read_json_file(good, "the test file") == {"a": [1, 2]}
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(CorruptSave, match=r"the test file .*bad.json is not valid JSON"):
        read_json_file(bad, "the test file")
    with pytest.raises(ValueError, match="cannot read the test file"):
        read_json_file(tmp_path / "missing.json", "the test file", ValueError)


# --------------------------------------------------------------------------- the builder, for slotted states


@dataclasses.dataclass(frozen=True, slots=True)
class _SlottedPoint:
    x: int
    y: tuple


class _Private:
    """A slotted state with a private (name-mangled) slot, refusing edits as a frozen state does."""

    __slots__ = ("__secret", "shown")

    def __setattr__(self, name, value):
        raise AttributeError(f"frozen: {name}")


def test_draft_of_a_slotted_state_copies_edits_and_freezes():
    state = _SlottedPoint(1, ("a",))
    draft_class = Draft.for_class(_SlottedPoint)
    assert draft_class is Draft.for_class(_SlottedPoint)  # made once per class
    draft = draft_class(state)
    draft.x = 2
    frozen = draft.freeze()
    assert type(frozen) is _SlottedPoint and frozen == _SlottedPoint(2, ("a",))
    assert state == _SlottedPoint(1, ("a",))  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.x = 3  # the draft became the frozen state: a later edit is refused
    blank = draft_class.blank()
    blank.x, blank.y = 5, ()
    assert blank.freeze() == _SlottedPoint(5, ())


def test_draft_of_a_slotted_state_copies_private_slots():
    state = object.__new__(_Private)
    object.__setattr__(state, "_Private__secret", 7)
    object.__setattr__(state, "shown", 1)
    draft = Draft.for_class(_Private)(state)
    draft.shown = 2
    frozen = draft.freeze()
    assert (type(frozen), frozen._Private__secret, frozen.shown, state.shown) == (_Private, 7, 2, 1)


def test_draft_for_a_dict_state_is_draft_and_a_slotted_state_is_refused_by_draft():
    assert Draft.for_class(type(new_game(seed=1))) is Draft
    with pytest.raises(TypeError, match=r"Draft.for_class\(_SlottedPoint\)"):
        Draft(_SlottedPoint(1, ()))
    with pytest.raises(TypeError, match="neither in a __dict__ nor in slots"):
        Draft.for_class(typing.NamedTuple("Pair", [("a", int)]))
