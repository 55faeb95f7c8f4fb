"""Chakra under bad input (issue 9): rule bounds, forged and damaged saves, malformed actions and
chance outcomes, odd board picks, and a seeded fuzzing sweep of all of them.

Each numbered test reproduces one defect of issue 9 (its number in the test name) and failed on the
code before the fix. The sweep at the end is the reproducible form of the issue's audit: random play
under every rule variant with save round trips and log replays, garbage actions, corrupted saves and
random board picks. ``make test`` runs a small sample (a few seconds of CPU); ``GAMELIB_LONG_TESTS=1``
runs ten times more. Each sweep prints what it tried (``pytest -s``).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelib.core import CorruptSave, IllegalMove, sample_outcome
from gamelib.chakra import (
    BHAGYA,
    GREEN,
    RED,
    Channel,
    Meditate,
    Receive,
    Rules,
    State,
    Step,
    greedy_policy,
    new_game,
    position,
    random_policy,
)
from gamelib.chakra.board import ChakraBoard
from gamelib.chakra.rules import MAX_ROUNDS
from tests.chakra_support import LONG_TESTS

SCALE = 10 if LONG_TESTS else 1


def played(seed=4, players=3, actions=30, explicit_chance=False, rules=None):
    """A game after ``actions`` seeded moves (random and greedy), refills drawn from the seed."""
    state = new_game(seed=seed, players=players, explicit_chance=explicit_chance, rules=rules)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_terminal:
            break
        state = step(state, rng)
    return state


def step(state, rng):
    """One move: a chance outcome at a refill, else a random or greedy action."""
    if state.refill_pending:
        return state.apply(sample_outcome(state.chance_outcomes(), rng))
    policy = greedy_policy if rng.random() < 0.5 else random_policy
    return state.apply(policy(state, rng))


def edited(state, mutate) -> str:
    data = json.loads(state.to_json())
    mutate(data)
    return json.dumps(data)


def canonical(text) -> str:
    """A save document in one spelling, so 1, 1.0 and true stay different (json, not ==)."""
    return json.dumps(json.loads(text), sort_keys=True)


# --------------------------------------------------------------------------- 2. rule bounds

# The largest value of each parameter: spec §13 gives the meaning, the bound is what the pieces allow
# (§1: 3 energies of a colour per player, 4 players; 7 chakras; 8 spaces + 7 notches for tokens) or,
# for the two design knobs without a physical limit, a value far past any sensible design.
UPPER_BOUNDS = {
    "colour_cap": 12,
    "bonus_min_run": 7,
    "inspiration_tokens": 15,
    "end_trigger_harmonized": 7,
    "harmonization_bonus": 100,
    "max_rounds": MAX_ROUNDS,
}


def test_2_every_number_rule_has_an_upper_bound_in_rules_itself():
    numeric = [f.name for f in dataclasses.fields(Rules) if type(getattr(Rules(), f.name)) in (int, type(None))]
    assert sorted(numeric) == sorted(UPPER_BOUNDS)  # every parameter that is not a switch is listed here
    for name, bound in UPPER_BOUNDS.items():
        assert getattr(Rules(**{name: bound}), name) == bound
        for value in (bound + 1, 10**9):
            with pytest.raises(ValueError, match=name):
                Rules(**{name: value})
    assert MAX_ROUNDS == 1000  # five times the default safeguard of 200 rounds (§11.4)


def test_2_a_save_cannot_carry_a_rule_past_its_bound():
    for name in UPPER_BOUNDS:
        with pytest.raises(CorruptSave, match=name):
            State.from_json(edited(new_game(seed=1), lambda d: d["rules"].update({name: 10**9})))


# --------------------------------------------------------------------------- 4. forged saves


def swap_plenitude(plenitude: dict) -> None:
    """Swap RED's hidden value with the first chakra whose value differs."""
    other = next(colour for colour, value in plenitude.items() if value != plenitude["RED"])
    plenitude["RED"], plenitude[other] = plenitude[other], plenitude["RED"]


FORGERIES = {
    "refill pending with a full Maya": lambda d: d.update(refill_pending=True),
    "finished at move 0": lambda d: d.update(finished=True),
    "turns 9 and 0": lambda d: d.update(turns=[9, 0]),
    "another seat to move": lambda d: d.update(to_move=1),
    "another first player": lambda d: d.update(first_player=1),
    "another first player and seat to move": lambda d: d.update(first_player=1, to_move=1),
    "an empty meditation": lambda d: d["players"][0].update(meditation=[]),
    "a duplicated meditation": lambda d: d["players"][0].update(meditation=d["players"][0]["meditation"] * 2),
    "a second meditation token": lambda d: d["players"][0].update(
        meditation=sorted({"RED", "PURPLE"} - set(d["players"][0]["meditation"]))[:1] + d["players"][0]["meditation"]
    ),
    "end triggered with no trigger": lambda d: d.update(end_triggered=True),
    "plenitude 1.0": lambda d: d["plenitude"].update(RED=1.0),
    "plenitude true": lambda d: d["plenitude"].update(RED=True),
    "plenitude values swapped": lambda d: swap_plenitude(d["plenitude"]),
    "a list as the seed": lambda d: d.update(seed=[1]),
    "another seed": lambda d: d.update(seed=d["seed"] + 1),
    "a huge seed": lambda d: d.update(seed=10**200),
    "draws": lambda d: d.update(draws=d["draws"] + 1),
    "Maya reordered": lambda d: d.update(maya=d["maya"][::-1]),
    "no log (a hand-made position)": lambda d: d.update(log=None),
    "log as text": lambda d: d.update(log="Receive"),
}


@pytest.mark.parametrize("forgery", FORGERIES, ids=list(FORGERIES))
def test_4_forged_fields_of_a_new_game_are_refused(forgery):
    state = new_game(seed=5, players=2)
    if forgery == "Maya reordered" and len(set(map(tuple, json.loads(state.to_json())["maya"]))) == 1:
        pytest.fail("seed 5 should show different Maya columns")
    with pytest.raises(CorruptSave):
        State.from_json(edited(state, FORGERIES[forgery]))


def test_4_a_pending_refill_loads_only_where_a_refill_is_due():
    state = new_game(seed=2, players=2, explicit_chance=True)
    pending = state.apply(next(a for a in state.legal_actions() if isinstance(a, Receive)))
    assert pending.refill_pending
    assert State.from_json(pending.to_json()).chance_outcomes() == pending.chance_outcomes()
    with pytest.raises(CorruptSave, match="refill_pending"):  # the old loader took this; the next draw crashed
        State.from_json(edited(pending.apply(pending.chance_outcomes()[0][0]), lambda d: d.update(refill_pending=True)))


def test_4_edits_of_the_log_or_of_a_played_position_are_refused():
    state = played(seed=8, players=3, actions=25)
    data = json.loads(state.to_json())
    assert len(data["log"]) == 25
    edits = [
        lambda d: d["log"].pop(),
        lambda d: d["log"].pop(0),
        lambda d: d["log"].append(d["log"][-1]),
        lambda d: d["players"][1].update(earth=d["players"][1]["earth"] + 1),
        lambda d: d["players"][0]["levels"].update(BHAGYA=[]),
        lambda d: d["bag"].update(RED=d["bag"]["RED"] - 1, GREEN=d["bag"]["GREEN"] + 1),
        lambda d: d.update(turns=[t + 1 for t in d["turns"]]),
        lambda d: d.update(explicit_chance=True),
    ]  # the log then lacks the refill outcomes
    for edit in edits:
        with pytest.raises(CorruptSave):
            State.from_json(edited(state, edit))


def test_4_a_hand_made_position_is_not_a_save():
    with pytest.raises(CorruptSave, match="built by hand"):
        State.from_json(position([{"GREEN": "R"}, {}], finished=True).to_json())


def test_4_loaded_games_continue_exactly_as_the_original():
    for explicit in (False, True):
        state = played(seed=11, players=4, actions=40, explicit_chance=explicit)
        loaded = State.from_json(state.to_json())
        assert loaded == state and loaded.to_json() == state.to_json() and loaded.log == state.log
        rng_a, rng_b = random.Random(3), random.Random(3)
        for _ in range(20):
            if state.is_terminal:
                break
            state, loaded = step(state, rng_a), step(loaded, rng_b)
            assert loaded.to_json() == state.to_json()


# --------------------------------------------------------------------------- 6. malformed input


MALFORMED = {
    "deep list": "[" * 100_000 + "]" * 100_000,
    "deep object": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "deep inside a field": edited(new_game(seed=1), lambda d: d.update(rules="@")).replace(
        '"@"', "[" * 50_000 + "]" * 50_000
    ),
    "NaN": edited(new_game(seed=1), lambda d: d.update(draws="@")).replace('"@"', "NaN"),
    "1e999": edited(new_game(seed=1), lambda d: d.update(draws="@")).replace('"@"', "1e999"),
    "a 5000-digit number": edited(new_game(seed=1), lambda d: d.update(draws="@")).replace('"@"', "9" * 5000),
    "a 5 MB string": json.dumps({"game": "chakra", "version": 3, "seed": "x" * 5_000_000}),
    "a 100 kB game name": json.dumps({"game": "RED" * 33_000, "version": 3}),
    "not text": 12,
    "bytes not UTF-8": b"\xff\xfe{}",
    "empty": "",
    "a list": "[]",
    "null": "null",
}


@pytest.mark.parametrize("name", MALFORMED, ids=list(MALFORMED))
def test_6_any_malformed_input_is_a_corrupt_save_with_a_short_reason(name):
    with pytest.raises(CorruptSave) as error:
        State.from_json(MALFORMED[name])
    assert 10 < len(str(error.value)) < 400


def test_6_reasons_quote_bad_values_briefly():
    with pytest.raises(CorruptSave) as error:
        State.from_json(edited(new_game(seed=1), lambda d: d["maya"][0].append("Z" * 100_000)))
    assert len(str(error.value)) < 400


# --------------------------------------------------------------------------- 7. malformed actions


MALFORMED_ACTIONS = {
    "Receive(0, None, 'BHAGYA')": lambda: Receive(0, None, "BHAGYA"),
    "Channel(['D3'])": lambda: Channel(["D3"]),
    "Channel('D3', 5)": lambda: Channel("D3", 5),
    "Channel('D3', [5])": lambda: Channel("D3", [5]),
    "Channel({'D3': 1})": lambda: Channel({"D3": 1}),
    "Receive(1.0, 'R', 'BHAGYA')": lambda: Receive(1.0, "R", "BHAGYA"),
    "Receive(True, 'R', 'BHAGYA')": lambda: Receive(True, "R", "BHAGYA"),
    "Receive(0, [[1]], 8)": lambda: Receive(0, [[1]], 8),
    "Step(GREEN, 'Y', 1.0, 1)": lambda: Step(GREEN, "Y", 1.0, 1),
    "Step(GREEN, 'Y', True, 1)": lambda: Step(GREEN, "Y", True, 1),
    "Step(GREEN, 'Y', -1, 4)": lambda: Step(GREEN, "Y", -1, 4),
    "Step(GREEN, 'Y', -1, 1.0)": lambda: Step(GREEN, "Y", -1, 1.0),
    "Meditate([RED])": lambda: Meditate([RED]),
    "Meditate(1.0)": lambda: Meditate(1.0),
}


@pytest.mark.parametrize("name", MALFORMED_ACTIONS, ids=list(MALFORMED_ACTIONS))
def test_7_malformed_actions_raise_illegal_move_when_built(name):
    with pytest.raises(IllegalMove):
        MALFORMED_ACTIONS[name]()


def bypassing_actions(state):
    """Actions built around the checking constructors (NamedTuple's _make/_replace, tuple.__new__)."""
    legal = state.legal_actions()
    receive = next(a for a in legal if isinstance(a, Receive))
    yield receive._replace(column=float(receive.column))
    yield receive._replace(column=True)
    yield receive._replace(colours=tuple(receive.colours))
    yield receive._replace(colours=frozenset({float(c) for c in receive.colours}))
    yield receive._replace(destination=float(receive.destination))
    yield receive._replace(destination=None)
    yield Receive._make((0, None, BHAGYA))
    yield tuple.__new__(Receive, (0,))
    yield Meditate._make((3.0,))
    yield Meditate._make((True,))
    yield Meditate._make((99,))
    yield Channel._make(("D3", ((GREEN, 0, -1.0, 3),), None))
    yield Channel._make(("D3", (Step._make((GREEN, 0, True, 3)),), None))
    yield Channel._make(("D3", (Step._make((GREEN, 0, -1, 3.0)),), None))
    yield Channel._make((["D3"], (), None))
    yield Channel._make(("SWAP", (), 1.0))
    yield Channel._make(("SWAP", (), "RED"))
    yield Channel._make(("D3", 5, None))
    yield (0, frozenset({0}), BHAGYA)
    yield "Meditate RED"
    yield None


def test_7_actions_built_around_the_constructors_are_refused_on_apply():
    state = played(seed=6, players=2, actions=6)
    before = state.to_json()
    for action in bypassing_actions(state):
        with pytest.raises(IllegalMove):
            state.apply(action)
    assert state.to_json() == before


def test_7_malformed_chance_outcomes_are_refused():
    state = new_game(seed=2, players=2, explicit_chance=True)
    pending = state.apply(next(a for a in state.legal_actions() if isinstance(a, Receive)))
    colour = pending.chance_outcomes()[0][0]
    for outcome in (float(colour), True, str(colour), None, [colour], (colour, 1), -1, 8, 10**40):
        with pytest.raises(IllegalMove):
            pending.apply(outcome)
    assert State.from_json(pending.apply(colour).to_json()) == pending.apply(colour)


def test_7_actions_given_in_other_spellings_are_stored_canonically_and_round_trip():
    state = new_game(seed=3, players=2)
    legal = set(state.legal_actions())
    receive = next(a for a in state.legal_actions() if isinstance(a, Receive))
    spelled = Receive(
        receive.column,
        [("KROYGLDP"[c]) for c in receive.colours],
        "BHAGYA" if receive.destination == BHAGYA else receive.destination,
    )
    assert spelled == receive and spelled in legal
    after = state.apply(spelled)
    assert State.from_json(after.to_json()).to_json() == after.to_json()


# --------------------------------------------------------------------------- 8. board picks


def test_8_the_picks_of_the_issue_show_a_reason():
    for pick in (
        {"kind": "maya", "column": 5},
        {"kind": "maya", "column": 5, "colour": "R"},
        {"kind": "space", "space": "nonsense"},
        {"kind": "space", "space": ["D3"]},
        {"kind": "viewer", "seat": "x"},
        {"kind": "viewer", "seat": 9},
        {"kind": "history", "to": []},
        {"kind": []},
        {"kind": "step", "index": "x"},
        {"kind": "level"},
        {"kind": "energy", "level": {}},
        {"kind": "meditate", "colour": [1]},
        {"kind": "swap", "colour": 2.5},
    ):
        board = ChakraBoard(new_game(seed=1))
        before = board.match.state
        board.pick = pick
        assert board.message_kind == "error" and board.message, pick
        assert board.match.state is before


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.integers()
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "D3",
            "SWAP",
            "help:3",
            "GREEN",
            "BHAGYA",
            "EARTH",
            "K",
            "R",
            "Y",
            "NONE",
            "all",
            "auto",
            "back",
            "start",
            "forward",
            "end",
            "nonsense",
            "",
        ]
    )
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5,
)
KINDS = (
    st.sampled_from(
        ["maya", "level", "space", "energy", "step", "swap", "meditate", "cancel", "viewer", "bot", "history"]
    )
    | JSON_VALUES
)
FIELDS = ("column", "colour", "level", "space", "index", "seat", "to")
PICKS = st.builds(
    lambda kind, extra: {"kind": kind, **extra},
    KINDS,
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=3),
)
BOARD_STATES = [
    played(seed=seed, players=players, actions=actions)
    for seed, players, actions in ((1, 2, 0), (2, 3, 17), (3, 4, 40), (4, 2, 70))
]
picks_tried = Counter()


@pytest.fixture(scope="module", autouse=True)
def report_picks():
    yield
    if picks_tried:
        print(f"\nboard picks: {picks_tried['picks']} sent, {picks_tried['reasons']} answered with a reason")


@settings(
    max_examples=150 * SCALE,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(range(len(BOARD_STATES))), st.lists(PICKS, min_size=1, max_size=6))
def test_8_random_picks_end_in_a_position_or_a_reason(start, picks):
    """Whatever a pick holds, the board either moves to a new position or shows a reason (no exception)."""
    board = ChakraBoard(BOARD_STATES[start], bots={1: random_policy} if start == 3 else None)
    for nonce, pick in enumerate(picks):
        before = board.match.state
        board.pick = {**pick, "nonce": nonce}
        picks_tried["picks"] += 1
        if board.message_kind == "error":
            picks_tried["reasons"] += 1
            assert board.message and board.match.state is before
        assert board.state["phase"] in ("play", "chance", "over")


# --------------------------------------------------------------------------- the sweep

VARIANTS = [
    Rules(),
    Rules(swap_discard_to_bag=True),
    Rules(allow_repeat_meditation=True),
    Rules(colour_cap=None),
    Rules(bonus_min_run=0),
    Rules(inspiration_tokens=2),
    Rules(inspiration_tokens=15),
    Rules(end_trigger_harmonized=1),
    Rules(harmonization_bonus=0),
    Rules(max_rounds=1),
    Rules(colour_cap=1),
]


def sweep_games():
    """(rules, players, explicit chance, seed) for every variant: 2-4 players, both chance modes."""
    for index, rules in enumerate(VARIANTS):
        for game in range(2 * SCALE):
            yield (
                dataclasses.replace(rules, max_rounds=min(rules.max_rounds or 12, 12)),
                2 + (index + game) % 3,
                game % 2 == 1,
                1000 * index + game,
            )


def test_sweep_random_play_round_trips_and_replays_under_every_variant():
    counts = Counter()
    for rules, players, explicit, seed in sweep_games():
        state = new_game(seed=seed, rules=rules, players=players, explicit_chance=explicit)
        rng = random.Random(seed)
        while not state.is_terminal:
            state = step(state, rng)
            counts["actions"] += 1
            if rng.random() < 0.2 or state.is_terminal:
                text = state.to_json()
                loaded = State.from_json(text)
                assert loaded == state and loaded.to_json() == text
                assert loaded.legal_actions() == state.legal_actions()
                counts["saves"] += 1
        replay = new_game(seed=seed, rules=rules, players=players, explicit_chance=explicit)
        for entry in state.log:
            replay = replay.apply(entry)
        assert replay.to_json() == state.to_json()
        counts["games"] += 1
    print(f"\nsweep: {counts['games']} games, {counts['actions']} actions, {counts['saves']} saves round-tripped")


def garbage(rng, state):
    """A random malformed or illegal action, built in many ways."""
    values = [
        None,
        True,
        False,
        0,
        1,
        2,
        3,
        -1,
        8,
        9,
        1.0,
        2.5,
        10**30,
        "",
        "R",
        "K",
        "GREEN",
        "BHAGYA",
        "D3",
        "SWAP",
        "x",
        [],
        [1],
        (1, 2),
        {},
        {"a": 1},
        frozenset({1}),
        frozenset({1.0}),
        b"R",
    ]
    pick = rng.choice
    makers = [
        lambda: Receive(pick(values), pick(values), pick(values)),
        lambda: Receive(
            rng.randrange(-1, 4), frozenset(rng.sample(range(8), rng.randrange(0, 5))), rng.randrange(-1, 10)
        ),
        lambda: Channel(pick(values), pick(values), pick(values)),
        lambda: Channel(
            pick(["D3", "D1x3", "U2", "D1_U1", "SWAP"]),
            [
                Step(rng.randrange(9), rng.randrange(8), pick((-1, 1)), rng.randrange(1, 4))
                for _ in range(rng.randrange(4))
            ],
            pick([None, 0, 3]),
        ),
        lambda: Step(pick(values), pick(values), pick(values), pick(values)),
        lambda: Meditate(pick(values)),
        lambda: Receive._make((pick(values), pick(values), pick(values))),
        lambda: Channel._make((pick(values), pick(values), pick(values))),
        lambda: Meditate._make((pick(values),)),
        lambda: pick(values),
        lambda: replaced(pick(state.legal_actions() or [Meditate(RED)]), pick(values)),
    ]
    return pick(makers)()


def replaced(action, value):
    """A legal action with one field replaced by ``value`` through NamedTuple's ``_replace`` (no checks)."""
    field = {Receive: "column", Channel: "bag_colour", Meditate: "colour"}[type(action)]
    return action._replace(**{field: value})


def test_sweep_garbage_actions_raise_illegal_move_and_change_nothing():
    counts = Counter()
    rng = random.Random(9)
    for seed in range(6 * SCALE):
        state = played(seed=seed, players=2 + seed % 3, actions=rng.randrange(60), explicit_chance=seed % 2 == 1)
        before = state.to_json()
        for _ in range(150):
            counts["tried"] += 1
            try:
                action = garbage(rng, state)
                after = state.apply(action)
            except IllegalMove:
                counts["refused"] += 1
                continue
            counts["accepted"] += 1  # an accepted action is a legal one, and its result saves and loads
            assert State.from_json(after.to_json()).to_json() == after.to_json()
        assert state.to_json() == before
    print(f"\ngarbage actions: {counts['tried']} tried, {counts['refused']} refused, {counts['accepted']} legal")


def damaged(text: str, rng) -> str | bytes:
    """The save with one random kind of damage."""
    kind = rng.randrange(5)
    if kind == 0:  # truncation
        return text[: rng.randrange(len(text))]
    if kind == 1:  # byte flips
        data = bytearray(text.encode())
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    data = json.loads(text)
    container, key = random_node(data, rng)
    old = container[key]
    if kind == 2:  # wrong types, huge numbers, deep nesting
        container[key] = rng.choice(
            [None, True, 1.5, -1, 10**40, -(10**40), "x", [], {}, [[[[[]]]]], "RED" * 1000, [old, old], {"old": old}]
        )
    elif kind == 3:  # forged values of the right type
        container[key] = forged(old, rng)
    else:  # a key removed or added
        if isinstance(container, dict):
            container.pop(key) if rng.random() < 0.5 else container.update(extra=1)
        else:
            container.append(old)
    text = json.dumps(data)
    if kind == 2 and rng.random() < 0.1:
        text = text.replace("[]", "[" * 5000 + "]" * 5000, 1)
    return text


def same_game(loaded, original) -> bool:
    """A damaged save that loads is the original game (spelled differently: whitespace, the order of a
    set), or the same moves under a setup the moves so far cannot show: a rule change (max_rounds 200 ->
    201 at round 3) or explicit chance switched before the first Receive."""
    setup_aside = [
        {**json.loads(state.to_json()), "rules": None, "explicit_chance": None} for state in (loaded, original)
    ]
    return setup_aside[0] == setup_aside[1]


def random_node(data, rng):
    """A random (container, key) inside the document, reached by a random walk."""
    container, key = data, rng.choice(list(data))
    while isinstance(container[key], (dict, list)) and container[key] and rng.random() < 0.7:
        container = container[key]
        key = rng.choice(list(container)) if isinstance(container, dict) else rng.randrange(len(container))
    return container, key


def forged(value, rng):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 2])
    if isinstance(value, str):
        return rng.choice(["RED", "ORANGE", "BLACK", "BHAGYA", "D3", "SWAP", "down", "up", value + "x"])
    if isinstance(value, list) and value:
        return value[::-1] if rng.random() < 0.5 else value[1:]
    return rng.choice([None, 0, "RED"])


def test_sweep_damaged_saves_are_refused_or_load_exactly_what_they_say():
    """Damage never gets through: a damaged save is refused with CorruptSave, or loads the original game."""
    counts = Counter()
    rng = random.Random(21)
    for seed in range(8 * SCALE):
        state = played(
            seed=seed,
            players=2 + seed % 3,
            actions=rng.randrange(80),
            explicit_chance=seed % 2 == 0,
            rules=rng.choice(VARIANTS),
        )
        text = state.to_json()
        for _ in range(60):
            bad = damaged(text, rng)
            counts["tried"] += 1
            try:
                loaded = State.from_json(bad)
            except CorruptSave as error:
                assert str(error) and len(str(error)) < 500
                counts["refused"] += 1
                continue
            counts["loaded"] += 1
            assert same_game(loaded, state)
    print(f"\ndamaged saves: {counts['tried']} tried, {counts['refused']} refused, {counts['loaded']} harmless")
