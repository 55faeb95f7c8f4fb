"""Pangu saves: to_json/from_json round trips of random mid-game states, and clear errors for
damaged or hand-edited files (the design's engine contract)."""

import json
import random

import pytest

from gamelib import CorruptSave, IllegalMove
from gamelib.pangu import (
    SINGLE_VARIANTS,
    Action,
    Rules,
    State,
    greedy_policy,
    new_game,
    random_policy,
)
from pangu_support import S1_DECK, S1_ROLLS


def random_midgame(rng: random.Random, rules: Rules, explicit: bool = False) -> State:
    state = new_game(seed=rng.getrandbits(32), rules=rules, explicit_chance=explicit)
    for _ in range(rng.randrange(0, 14)):
        if state.is_terminal:
            break
        if state.pending:
            outcomes = state.chance_outcomes()
            state = state.apply(rng.choice(outcomes)[0])
        else:
            state = state.apply((random_policy if rng.random() < 0.5 else greedy_policy)(state, rng))
    return state


def test_round_trips_of_random_midgame_states():
    rng = random.Random(1)
    count = 0
    for rules in SINGLE_VARIANTS.values():
        for explicit in (False, True):
            for _ in range(15):
                state = random_midgame(rng, rules, explicit)
                restored = State.from_json(state.to_json())
                assert restored == state
                assert restored.to_json() == state.to_json()
                if not state.is_terminal and not state.pending:  # it plays on identically
                    action = greedy_policy(state)
                    assert restored.apply(action) == state.apply(action)
                count += 1
    assert count == len(SINGLE_VARIANTS) * 30


def test_round_trip_of_scripted_and_finished_games():
    state = new_game(seed=0, deck=S1_DECK, rolls=S1_ROLLS[:2])
    state = state.apply(Action("A6", "BLUE", (0, 1)))
    assert State.from_json(state.to_json()) == state
    finished = new_game(seed=4)
    while not finished.is_terminal:
        finished = finished.apply(greedy_policy(finished))
    assert State.from_json(finished.to_json()) == finished


def saved(seed=3, moves=4):
    state = new_game(seed=seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state = state.apply(greedy_policy(state))
    return state, json.loads(state.to_json())


def edited(edit):
    _, data = saved()
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(karma=10 if d["karma"] != 10 else 9), "saved karma"),
        (lambda d: d.pop("karma"), "missing karma"),
        (lambda d: d.update(karma="ten"), "'karma' should be a whole number"),
        (lambda d: d.update(status="PAUSED"), "'status' should be one of"),
        (lambda d: d.update(game="chess"), "save of game 'chess'.*pangu"),
        (lambda d: d["rules"].update(cap_rule="generous"), "saved rules are invalid"),
        (lambda d: d["cards"]["cards"][0].update(blue=9), "saved deck is invalid"),
        (lambda d: d.update(deck=d["deck"] + [d["revealed"][0]]), "appears 2 times"),
        (lambda d: d["grid"].__setitem__(0, ["A1", 90]), r"cell \(0, 0\) should be empty"),
        (lambda d: d.update(roll=[0, 7]), r"'roll' should be a \[blue, white\] pair"),
        (lambda d: d["log"].pop(), "not what its own moves produce|does not match"),
        (lambda d: d["log"][3].update(cost=1, karma=99), "log"),
        (lambda d: d["log"].append({"kind": "teleport"}), "unknown event"),
        (lambda d: d["log"][2].update(blue="x"), "log"),
    ],
)
def test_hand_edited_saves_are_refused_clearly(edit, message):
    with pytest.raises(CorruptSave, match=message):
        State.from_json(edited(edit))


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "null", '{"format": "gamelib.pangu/1"}'])
def test_garbage_is_refused_clearly(text):
    with pytest.raises(CorruptSave):
        State.from_json(text)


def test_random_damage_only_ever_raises_corrupt_save():
    """Fuzz: delete a field or replace a value anywhere; reading gives the state back or CorruptSave."""
    rng = random.Random(7)
    junk = [None, -1, 0, 3, 99, "A1", "YIN", [], {}, [1, 2], ["A1", 0], True, 2.5]
    for _ in range(400):
        _, data = saved(seed=rng.randrange(50), moves=rng.randrange(0, 9))
        target, key = _random_place(rng, data)
        if rng.random() < 0.3 and isinstance(target, dict):
            del target[key]
        else:
            target[key] = rng.choice(junk)
        try:
            State.from_json(json.dumps(data))
        except CorruptSave as error:
            assert str(error)
        except IllegalMove as error:  # pragma: no cover - would mean a replay error escaped
            pytest.fail(f"IllegalMove escaped from from_json: {error}")


def _random_place(rng, data):
    target = data
    key = rng.choice(list(target))
    while isinstance(target[key], (dict, list)) and target[key] and rng.random() < 0.6:
        target = target[key]
        key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
    return target, key
