"""The design studio's plumbing (issue 22, "Writing a game"): a student's mistakes are named, the
unchecked search step agrees with ``apply``, saves replay, hidden cards stay hidden, the bots
behave as their arithmetic says, and ``gamelib.design`` measures studio games unchanged.

Beyond tests/test_contract.py, which runs the whole engine contract on the three examples.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from gamelib import core, design
from gamelib.core import CHANCE, CorruptSave, IllegalMove
from gamelib.studio import Game, GameCodeError, Param, check_game
from gamelib.studio.examples import bluff, pig, race
from studio_support import random_pig

EXAMPLES = [pig, race, bluff]


def random_walk(state, rng, steps=400):
    """Every state of one random game, chance drawn from ``rng`` when the state leaves it to us."""
    states = [state]
    while not state.is_terminal and len(states) < steps:
        if state.current_player == CHANCE:
            state = state.apply(core.sample_outcome(state.chance_outcomes(), rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


# --------------------------------------------------------------------------- a student's mistakes, named


class LoadedDie(pig.Pig):
    def chance(self, position):
        return {face: Fraction(1, 7) for face in range(1, 7)} if position.rolling else None


class FloatDie(pig.Pig):
    def chance(self, position):
        return {face: 1 / 6 for face in range(1, 7)} if position.rolling else None


class NegativeDie(pig.Pig):
    def chance(self, position):
        return {1: Fraction(1, 2), 2: Fraction(1, 2), 3: Fraction(0)} if position.rolling else None


class ListPositions(pig.Pig):
    def play(self, position, move):
        return list(super().play(position, move))


class ListInside(pig.Pig):
    def start(self):
        return pig.Position([0, 0], 0, 0)


class ForgetfulPlay(pig.Pig):
    def play(self, position, move):
        super().play(position, move)


class SetOfMoves(pig.Pig):
    def moves(self, position):
        return {"roll", "hold"}


class SeatByName(pig.Pig):
    def to_move(self, position):
        return "seat 0"


class WinnerNotList(pig.Pig):
    def winners(self, position):
        found = super().winners(position)
        return None if found is None else found[0]


class CrashingMoves(pig.Pig):
    def moves(self, position):
        return ["roll", "hold"] if 1 / position.turn_total else []


@pytest.mark.parametrize(
    "broken, words",
    [
        (LoadedDie, ["LoadedDie.chance(", "sum to 6/7, not 1"]),
        (FloatDie, ["FloatDie.chance(", "0.1666", "float", "Fraction(1, 6)"]),
        (NegativeDie, ["NegativeDie.chance(", "outcome 3", "probability 0"]),
        (ListPositions, ["ListPositions.play(", "returned [", "list", "hashable"]),
        (ListInside, ["ListInside.start()", "returned Position(scores=[0, 0]", "everything inside it", "not lists"]),
        (ForgetfulPlay, ["ForgetfulPlay.play(", "returned None", "forget to return"]),
        (SetOfMoves, ["SetOfMoves.moves(", "returned {", "list"]),
        (SeatByName, ["SeatByName.to_move(", "'seat 0'", "seat number from 0 to 1"]),
        (WinnerNotList, ["WinnerNotList.winners(", "a list of the winning seats"]),
        (CrashingMoves, ["CrashingMoves.moves(", "ZeroDivisionError"]),
    ],
)
def test_a_students_mistake_names_the_function_and_what_it_returned(broken, words):
    goal = 2 if broken is WinnerNotList else 100
    with pytest.raises(GameCodeError) as raised:
        core.play(broken.new_game(seed=1, rules=broken.Rules(goal=goal)), core.random_policy, seed=1)
    for word in words:
        assert word in str(raised.value)
    assert "gamelib" not in str(raised.value)


def test_a_students_own_exception_stays_chained_to_the_line_that_raised_it():
    with pytest.raises(GameCodeError) as raised:
        CrashingMoves.new_game(seed=1).legal_actions()
    assert isinstance(raised.value.__cause__, ZeroDivisionError)


def test_a_move_outside_the_legal_list_is_an_illegal_move_naming_the_legal_ones():
    state = pig.new_game(seed=1).apply("roll")
    before = state.to_json()
    for action in ("pass", "ROLL", 1, True, ["roll"]):
        with pytest.raises(IllegalMove) as raised:
            state.apply(action)
        assert "legal moves are: roll" in raised.value.reason or "legal moves are: roll, hold" in raised.value.reason
    assert state.to_json() == before
    explicit = pig.new_game(seed=1, explicit_chance=True).apply("roll")
    with pytest.raises(IllegalMove, match="chance decides here: 7 is not one of its outcomes"):
        explicit.apply(7)


class Endless(Game):
    """A game nobody can win: each player passes forever."""

    players = 2

    def start(self):
        return (0, 0)

    def to_move(self, position):
        return position[0]

    def moves(self, position):
        return ["pass"]

    def play(self, position, move):
        return (1 - position[0], position[1] + 1)

    def winners(self, position):
        return None


class Unequal(Endless):
    def start(self):
        return object()


class Unsaveable(pig.Pig):
    def moves(self, position):
        return [{"roll"}] if position.turn_total == 0 else ["roll", "hold"]

    def play(self, position, move):
        return super().play(position, "roll" if move == {"roll"} else move)


class SeesTooMuch(bluff.Bluff):
    def observation(self, position, player):
        return {"cards": list(position.cards), "moves": list(position.moves)}


def test_check_game_names_a_game_that_never_ends_and_other_whole_game_mistakes():
    with pytest.raises(GameCodeError, match=r"Endless did not end within 50 moves of random play \(random game 1\)"):
        check_game(Endless, games=3, max_moves=50)
    with pytest.raises(GameCodeError, match=r"Unequal.start\(\) returned two positions that are not equal"):
        check_game(Unequal)
    with pytest.raises(GameCodeError, match=r"Unsaveable.moves\(.*the move \{'roll'\}, which cannot be saved"):
        check_game(Unsaveable, games=2)
    with pytest.raises(GameCodeError, match=r"SeesTooMuch.could_be\(.*must keep everything the player sees"):
        check_game(SeesTooMuch, games=2)


class WrongTypes(pig.Pig):
    def show(self, position):
        return position.scores

    def draw(self, position):
        return 42

    def move_label(self, position, move):
        return None

    def scores(self, position):
        return [1, 2, 3]


class SeesAList(bluff.Bluff):
    def observation(self, position, player):
        return [position.cards[player]]


class SeesAFunction(bluff.Bluff):
    def observation(self, position, player):
        return {"card": print}


def test_optional_functions_returning_the_wrong_type_are_named():
    state = WrongTypes.new_game(seed=1)
    cases = [
        (lambda: str(state), r"WrongTypes.show\(.*returned \(0, 0\): return a string"),
        (state.drawing, r"WrongTypes.draw\(.*returned 42: return SVG or HTML text, or None"),
        (lambda: state.action_label("roll"), r"WrongTypes.move_label\(.*'roll'\) returned None: return a string"),
        (state.scores, r"WrongTypes.scores\(.*returned \[1, 2, 3\]: return one number per player"),
        (lambda: SeesAList.new_game(seed=1).observation(0), r"SeesAList.observation\(.*returned \[.\]: return a dict"),
        (lambda: SeesAFunction.new_game(seed=1).observation(1), r"SeesAFunction.observation\(.*not JSON data"),
    ]
    for call, words in cases:
        with pytest.raises(GameCodeError, match=words):
            call()


class NoWinners(Game):
    players = 2

    def start(self):
        return 0

    def to_move(self, position):
        return 0

    def moves(self, position):
        return ["go"]

    def play(self, position, move):
        return position + 1


class NoSeats(NoWinners):
    players = 0

    def winners(self, position):
        return None


class HidesButShowsAll(NoSeats):
    players = 2
    hides_information = True


class SpinsForever(pig.Pig):
    def play(self, position, move):
        return position._replace(rolling=True) if isinstance(move, int) else super().play(position, move)


def test_missing_functions_and_endless_chance_are_named_before_any_traceback():
    for broken, words in (
        (NoWinners, "NoWinners does not define winners(); every game needs start, to_move, moves, play and winners"),
        (NoSeats, "NoSeats.players is 0: it should be the number of seats"),
        (HidesButShowsAll, "HidesButShowsAll hides information but does not define observation"),
    ):
        with pytest.raises(GameCodeError, match=words.replace("(", r"\(").replace(")", r"\)")):
            broken.new_game(seed=1)
    with pytest.raises(GameCodeError, match=r"SpinsForever.chance\(\) asked for 1000 chance events in a row"):
        SpinsForever.new_game(seed=1).apply("roll")
    with pytest.raises(GameCodeError, match=r"SpinsForever.chance\(\) asked for 1000 chance events in a row"):
        check_game(SpinsForever, games=1)


class ComplexScores(pig.Pig):
    def start(self):
        return pig.Position((0, 0), 0, 0, rolling=0j)  # hashable, comparable, and no JSON


def test_a_position_that_cannot_be_shown_asks_for_an_observation_function():
    with pytest.raises(
        GameCodeError,
        match=r"ComplexScores.observation\(.*0j.*cannot be shown as JSON; write "
        r"observation\(position, player\)",
    ):
        ComplexScores.new_game(seed=1).observation(0)


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_worked_examples_pass_check_game(example):
    report = check_game(example, games=30, seed=1)
    assert report.games == 30 and report.longest < 1000


def test_check_game_reports_what_it_played():
    report = check_game(pig, games=20, rules=pig.Rules(goal=20), seed=4)
    assert report.games == 20 and sum(report.wins_by_seat) == 20
    assert "pig: 20 random games all ended" in str(report)


def test_declarations_and_rule_parameters_name_the_parameter():
    with pytest.raises(GameCodeError, match=r"give its lowest and highest values"):
        Param(5)
    with pytest.raises(GameCodeError, match="calls a rule parameter 'players', a name the studio uses itself"):
        type("Crowded", (pig.Pig,), {"players": Param(2, 1, 4)})
    with pytest.raises(ValueError, match="goal must be a whole number from 1 to 1000, not 0"):
        pig.Rules(goal=0)
    with pytest.raises(ValueError, match="bump must be True or False"):
        race.Rules(bump="yes")
    assert str(race.Rules(length=12, bump=False)) == "length=12, bump=False"
    assert pig.new_game(seed=1, rules={"goal": 50}).rules == pig.Rules(goal=50)


# --------------------------------------------------------------------------- the search step and keys


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.parametrize("explicit", [False, True])
def test_search_step_gives_the_states_apply_gives(example, explicit):
    rng = random.Random(7)
    for game_number in range(5):
        state = example.new_game(seed=game_number, explicit_chance=explicit)
        while not state.is_terminal:
            options = (
                [o for o, _ in state.chance_outcomes()] if state.current_player == CHANCE else state.legal_actions()
            )
            for action in options:
                checked, unchecked = state.apply(action), state.search_step(action)
                assert checked == unchecked and checked.key() == unchecked.key()  # == compares the histories too
            state = state.apply(rng.choice(options))
        assert state.to_json() == example.State.from_json(state.to_json()).to_json()


def test_keys_are_equal_for_positions_reached_in_different_orders():
    start = race.new_game(seed=1, explicit_chance=True)
    two_then_five = start.apply("roll").apply(2).apply("roll").apply(5)
    five_then_two = start.apply("roll").apply(5).apply("roll").apply(2)
    assert two_then_five.key() == five_then_two.key() and hash(two_then_five.key()) == hash(five_then_two.key())
    assert two_then_five != five_then_two  # the same position, different histories
    pig_start = pig.new_game(seed=1, explicit_chance=True)
    back = pig_start.apply("roll").apply(1).apply("roll").apply(1)  # two 1s: the first position again
    assert back.key() == pig_start.key() and back.current_player == 0


def test_states_are_immutable_and_know_their_game():
    state = pig.new_game(seed=2)
    with pytest.raises(AttributeError, match="immutable"):
        state.position = None
    assert state.players == 2 and state.rules == pig.Rules() and state.seed == 2
    assert (pig.State.hides_information, bluff.new_game(seed=1).hides_information) == (False, True)
    assert race.new_game(seed=1).apply("roll").action_label("stop").startswith("Stop (move ")
    assert state.drawing() is None


# --------------------------------------------------------------------------- saves, replay, Match


@pytest.mark.parametrize("example", EXAMPLES)
def test_saves_round_trip_in_both_chance_modes_and_replay_from_the_seed(example):
    rng = random.Random(3)
    for explicit in (False, True):
        states = random_walk(example.new_game(seed=11, explicit_chance=explicit), rng)
        for state in (states[len(states) // 2], states[-1]):
            again = example.State.from_json(state.to_json())
            assert again == state and again.to_json() == state.to_json()
        final = states[-1]
        replayed = core.Match.replay(example.new_game(seed=11, explicit_chance=explicit), final.actions())
        assert replayed.state == final


def test_bluffs_dealt_cards_are_saved_as_the_tuple_the_game_dealt():
    dealt = bluff.new_game(seed=5, explicit_chance=True).apply((3, 1))
    assert json.loads(dealt.to_json())["actions"] == [[3, 1]]
    assert bluff.State.from_json(dealt.to_json()).position.cards == (3, 1)


def test_match_undo_takes_a_move_back():
    match = core.Match(pig.new_game(seed=4))
    first = match.apply("roll")
    match.apply(match.state.legal_actions()[-1])
    assert match.undo() == first and match.state.actions() == ["roll"]


@pytest.mark.parametrize("example", EXAMPLES)
def test_states_pickle_with_their_history(example):
    """A process pool sends states by pickle: the copy is equal and saves the same game."""
    import pickle

    final = core.play(example.new_game(seed=4), core.random_policy, seed=4)
    copy = pickle.loads(pickle.dumps(final))
    assert copy == final and copy.to_json() == final.to_json()
    searching = pickle.loads(pickle.dumps(final.with_seed(1)))
    assert searching.key() == final.key() and searching.seed == 1


def test_search_states_cannot_be_saved_and_say_why():
    state = pig.new_game(seed=1)
    for search_state in (state.with_seed(9), state.with_explicit_chance(), pig.Pig.state_at(state.position)):
        with pytest.raises(ValueError, match="made for a search"):
            search_state.to_json()


def test_forged_and_corrupt_saves_are_refused_with_a_reason():
    save = json.loads(pig.new_game(seed=6).apply("roll").to_json())
    cases = [
        ({**save, "actions": ["roll", "fly"]}, "action 2 of this pig save, 'fly', is not legal"),
        ({**save, "rules": {"goal": 0}}, "the rules of this pig save are not valid: goal must be"),
        ({**save, "rules": {"goal": 100, "cheat": True}}, "unknown rule parameter"),
        ({**save, "seed": 1.5}, "seed of this pig save should be a whole number"),
        ({**save, "actions": "roll"}, "actions of this pig save should be a list"),
        ({**save, "explicit_chance": "no"}, "explicit_chance in this pig save should be true or false"),
        ({**save, "game": "dice_race"}, "a pig save of version 1 is needed"),
    ]
    for forged, words in cases:
        with pytest.raises(CorruptSave, match=words.replace("(", r"\(")):
            pig.State.from_json(json.dumps(forged))
    over = json.loads(core.play(pig.new_game(seed=6, rules=pig.Rules(goal=5)), core.random_policy, seed=1).to_json())
    with pytest.raises(CorruptSave, match="comes after the game was over"):
        pig.State.from_json(json.dumps({**over, "actions": over["actions"] + ["roll"]}))
    with pytest.raises(CorruptSave, match="not valid JSON"):
        pig.State.from_json('{"game": "pig", ')


def test_garbled_saves_give_only_corrupt_save_or_a_legal_game():
    """Seeded fuzzing: 300 saves with one value replaced by junk are read back or refused, never a crash."""
    rng = random.Random(22)
    junk = [None, -1, 2**70, "", "roll", [], {}, [[]], 1.5, True, {"goal": 3}]
    base = json.loads(core.play(race.new_game(seed=3, explicit_chance=True), core.random_policy, seed=3).to_json())
    for _ in range(300):
        forged = json.loads(json.dumps(base))
        field = rng.choice(sorted(forged))
        if field == "actions" and forged["actions"] and rng.random() < 0.7:
            forged["actions"][rng.randrange(len(forged["actions"]))] = rng.choice(junk)
        else:
            forged[field] = rng.choice(junk)
        try:
            race.State.from_json(json.dumps(forged))
        except CorruptSave as refused:
            assert str(refused)


# --------------------------------------------------------------------------- hidden information


def every_bluff_position(cards=3):
    deals = [(a, b) for a in range(1, cards + 1) for b in range(1, cards + 1) if a != b]
    histories = [(), ("check",), ("bet",), ("check", "bet")]
    return [bluff.Position(deal, history) for deal in deals for history in histories]


def test_the_other_players_card_never_changes_what_a_player_sees():
    for position in every_bluff_position(4):
        state = bluff.Bluff.state_at(position, bluff.Rules(cards=4))
        for player in range(2):
            other = 1 - player
            for card in range(1, 5):
                if card == position.cards[player]:
                    continue
                changed = list(position.cards)
                changed[other] = card
                twin = bluff.Bluff.state_at(position._replace(cards=tuple(changed)), bluff.Rules(cards=4))
                assert twin.observation(player) == state.observation(player)
            assert state.observation(player)["your_card"] == position.cards[player]
            assert "cards" not in state.observation(player)


def test_text_and_pictures_for_one_player_hide_the_other_card():
    state = bluff.Bluff.state_at(bluff.Position((3, 1), ("check",)))
    assert state.text_for(0) == "your card: 3; bets: check\nseat 1 to move"
    assert state.text_for(1) == "your card: 1; bets: check\nseat 1 to move"
    assert str(state).startswith("cards 3 and 1")  # the whole position, for a spectator or a review
    assert state.drawing(0) is None

    class Drawn(bluff.Bluff):
        def draw(self, position):
            return f"<svg><text>{position.cards}</text></svg>"

        def draw_for(self, position, player):
            return f"<svg><text>{position.cards[player]}</text></svg>"

    drawn = Drawn.state_at(bluff.Position((3, 1), ("check",)))
    assert (drawn.drawing(1), drawn.drawing()) == ("<svg><text>1</text></svg>", "<svg><text>(3, 1)</text></svg>")
    pig_state = pig.new_game(seed=1)
    assert pig_state.text_for(1) == str(pig_state)


class HiddenCoin(Game):
    """Seat 0 sees a coin flip, seat 1 guesses it: a hidden game without show_to."""

    players = 2
    hides_information = True

    def start(self):
        return (None, None)  # the coin, the guess

    def chance(self, position):
        return {"heads": Fraction(1, 2), "tails": Fraction(1, 2)} if position[0] is None else None

    def to_move(self, position):
        return 1

    def moves(self, position):
        return ["heads", "tails"]

    def play(self, position, move):
        return (move, None) if position[0] is None else (position[0], move)

    def winners(self, position):
        coin, guess = position
        return None if guess is None else [1 if guess == coin else 0]

    def observation(self, position, player):
        return {"coin": position[0] if player == 0 else "hidden", "guess": position[1]}

    def could_be(self, position, player):
        if player == 0 or position[0] is None:
            return [position]
        return [(coin, position[1]) for coin in ("heads", "tails")]


def test_a_hidden_game_without_show_to_shows_each_player_the_observation():
    state = HiddenCoin.new_game(seed=1)
    assert state.text_for(1) == 'coin: "hidden"\nguess: null\nseat 1 to move'
    assert state.text_for(0) == f'coin: "{state.position[0]}"\nguess: null\nseat 1 to move'
    assert check_game(HiddenCoin, games=20).games == 20


def test_sample_hidden_keeps_what_the_player_sees_and_redraws_the_rest():
    state = bluff.new_game(seed=8).apply("check")
    mine = state.position.cards[1]
    rng = random.Random(1)
    samples = [state.sample_hidden(1, rng) for _ in range(200)]
    assert all(sample.observation(1) == state.observation(1) for sample in samples)
    assert {sample.position.cards[0] for sample in samples} == {1, 2, 3} - {mine}
    assert all(sample.seed != state.seed for sample in samples)
    pig_state = pig.new_game(seed=8).apply("roll")
    assert pig_state.sample_hidden(0, rng).key() == pig_state.key()


def test_the_outcomes_drawn_for_a_move_are_shown_with_the_state_they_made():
    state = pig.new_game(seed=3)
    for _ in range(10):
        before = state
        state = state.apply("roll")
        (face,) = state.drawn_by_chance
        assert state.position.turn_total == (0 if face == 1 else before.position.turn_total + face)
        if state.position.player != 0:
            break
    dealt = bluff.new_game(seed=2)
    assert dealt.drawn_by_chance == (dealt.position.cards,)
    assert pig.new_game(seed=3, explicit_chance=True).apply("roll").drawn_by_chance == ()


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_seed_draws_each_chance_event_as_core_sample_outcome_draws_it(example):
    """Default mode against an explicit-chance replay whose outcomes come from core.sample_outcome with
    the game's generator for each draw (core.chance_rng(seed, draws so far)): the same outcomes, the
    same positions, the same draw counts (the studio draws with weights it works out once per die)."""
    rng = random.Random(11)
    for seed in range(20):
        state, replay, draws = example.new_game(seed), example.new_game(seed, explicit_chance=True), 0
        while True:
            drawn = []
            while replay.current_player == CHANCE:
                drawn.append(core.sample_outcome(replay.chance_outcomes(), core.chance_rng(seed, draws)))
                replay, draws = replay.apply(drawn[-1]), draws + 1
            assert (state.position, state.draws, state.drawn_by_chance) == (replay.position, draws, tuple(drawn))
            if state.is_terminal:
                break
            move = rng.choice(state.legal_actions())
            state, replay = state.apply(move), replay.apply(move)


@pytest.mark.parametrize(
    "probabilities",
    [
        [Fraction(1, 6)] * 6,
        [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)],
        [Fraction(3, 10), Fraction(7, 10)],
        [Fraction(1, 1000), Fraction(997, 1000), Fraction(1, 500)],
        [1],
        [Fraction(1, 100)] * 100,
    ],
)
def test_a_checked_distribution_draws_what_core_sample_outcome_draws(probabilities):
    """The studio's draw (weights worked out once per distribution) against core.sample_outcome, the same
    generator state before each: the same outcome and the same numbers consumed, for many generators."""

    class Spinner(pig.Pig):
        def chance(self, position):
            return dict(enumerate(probabilities)) if position.rolling else None

    outcomes = Spinner.new_game(seed=0, explicit_chance=True).apply("roll")._state_status()[2]
    assert list(outcomes) == [(face, Fraction(p)) for face, p in enumerate(probabilities)]
    for seed in range(2000):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert outcomes.draw(ours) == core.sample_outcome(outcomes, theirs)
        assert ours.getrandbits(32) == theirs.getrandbits(32)


def test_with_seed_redraws_the_future_only():
    state = pig.new_game(seed=1).apply("roll")
    futures = {state.with_seed(seed).apply("roll").position.turn_total for seed in range(30)}
    assert state.with_seed(5).key() == state.key() and len(futures) > 3


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("example", EXAMPLES)
def test_each_examples_bots_are_policies_that_finish_games(example):
    """The contract's bots check (tests/test_contract.py runs it on the three games' bots modules)."""
    import inspect

    assert example.bots.random_policy is core.random_policy
    for policy in (example.bots.random_policy, example.bots.greedy_policy):
        assert list(inspect.signature(policy).parameters)[:2] == ["state", "rng"]
        assert core.play(example.new_game(seed=1), policy, seed=1).is_terminal


class ExactlyTen(Game):
    """A solo game: roll a die until your total is exactly 10 (you win) or over it (you lose)."""

    players = 1

    def start(self):
        return (0, False)

    def to_move(self, position):
        return 0

    def moves(self, position):
        return ["roll"]

    def chance(self, position):
        return pig.DIE if position[1] else None

    def play(self, position, move):
        return (position[0], True) if move == "roll" else (position[0] + move, False)

    def winners(self, position):
        total, rolling = position
        return None if total < 10 or rolling else ([0] if total == 10 else [])


def test_a_solo_game_may_end_without_a_winner():
    finals = [core.play(ExactlyTen.new_game(seed=seed), core.random_policy, seed=seed) for seed in range(40)]
    assert {tuple(final.returns()) for final in finals} == {(1.0,), (0.0,)}
    assert all(final.winner == (0 if final.position[0] == 10 else None) for final in finals)
    assert check_game(ExactlyTen, games=20).wins_by_seat[0] <= 20


def test_greedy_pig_rolls_below_a_turn_total_of_20_and_holds_above():
    """Pig's default evaluation, one move ahead: rolling at turn total k gains (5/6) x 4 - k/6."""
    policy = pig.bots.greedy_policy
    rng = random.Random(0)

    def at(total):
        return pig.Pig.state_at(pig.Position((30, 40), total, 0))

    assert policy(at(19), rng) == "roll" and policy(at(21), rng) == "hold"
    assert {policy(at(20), rng) for _ in range(40)} == {"roll", "hold"}  # an exact tie, broken at random


def test_greedy_bluff_bets_the_high_card_and_folds_the_low_one_to_a_bet():
    policy, rng = bluff.bots.greedy_policy, random.Random(0)

    def at(cards, moves):
        return bluff.Bluff.state_at(bluff.Position(cards, moves))

    assert policy(at((3, 1), ()), rng) == "bet" and policy(at((1, 3), ()), rng) == "check"
    assert policy(at((3, 1), ("bet",)), rng) == "fold" and policy(at((3, 2), ("bet",)), rng) == "call"
    # it sees only its own card: the same choice whatever the other card is
    assert policy(at((1, 2), ("bet",)), rng) == policy(at((3, 2), ("bet",)), rng) == "call"


def test_greedy_never_reads_the_future_from_the_seed():
    state = race.new_game(seed=3).apply("roll").apply("roll")
    choices = {race.bots.greedy_policy(state.with_seed(seed), random.Random(0)) for seed in range(20)}
    assert len(choices) == 1


def test_greedy_beats_random_at_pig():
    """Hold-at-20 against random play, 30 deals in both seats: its win rate's 95% interval is above 1/2."""
    records = core.tournament(pig, [pig.bots.greedy_policy, core.random_policy], 30, seed=5, progress=False)
    assert core.win_rates(records)[0].low > 0.5


# --------------------------------------------------------------------------- gamelib.design on studio games


GOAL = 12
EXACT_WIN, EXACT_MOVES = random_pig(GOAL)  # 0.6032 and 7.998 (tests/studio_support.py, no studio code)


@pytest.fixture(scope="module")
def random_pig_results():
    return design.tournament(pig, core.random_policy, 400, pig.Rules(goal=GOAL), seed=1, workers=1, progress=False)


def test_seat_advantage_of_random_pig_matches_the_exact_value(random_pig_results):
    advantage = design.seat_advantage(random_pig_results)
    assert advantage.low <= EXACT_WIN - 0.5 <= advantage.high and advantage.low > 0  # the first roller leads
    assert design.first_mover_advantage(random_pig_results).value == advantage.value


def test_balance_of_random_pig_matches_the_exact_gap(random_pig_results):
    balance = design.balance(random_pig_results)
    exact = 1 - (EXACT_WIN - (1 - EXACT_WIN))  # 1 minus the gap between the seats' win rates: 0.794
    assert balance.low <= exact <= balance.high and balance.high < 1


def test_duration_of_random_pig_matches_the_exact_expected_length(random_pig_results):
    duration = design.duration(random_pig_results)
    assert duration.mean.low <= EXACT_MOVES <= duration.mean.high
    assert duration.shortest >= 1 and sum(duration.distribution.values()) == 400


def traced_leaders(result):
    """The leader after each player move of one game, replayed here from its seed (design's trace, by hand)."""
    leaders = []

    def note(state, action):
        if state.current_player != CHANCE:
            leaders.append(design.leader(state.scores()))

    final = core.play(
        pig.new_game(result.seed, pig.Rules(goal=GOAL)), [core.random_policy] * 2, seed=result.seed, on_action=note
    )
    return leaders + [design.leader(final.scores())], final


def test_lead_changes_and_decisiveness_agree_with_games_replayed_by_hand(random_pig_results):
    changes, moments = [], []
    for result in random_pig_results[:60]:
        leaders, final = traced_leaders(result)
        assert tuple(leaders) == result.trace and final.winners == result.winners
        named = [seat for seat in leaders if seat != design.NO_LEADER]
        changes.append(sum(a != b for a, b in zip(named, named[1:])))
        kept = len(leaders)
        while kept > 0 and leaders[kept - 1] == final.winner:
            kept -= 1
        moments.append(min(kept, result.length) / result.length)
    first = random_pig_results[:60]
    assert design.lead_changes(first).value == pytest.approx(sum(changes) / 60)
    assert design.decisiveness(first).value == pytest.approx(sum(moments) / 60)
    assert 0 < design.lead_changes(random_pig_results).value and 0 < design.decisiveness(random_pig_results).value < 1


def test_a_sweep_over_pigs_goal_matches_the_exact_first_player_win_rates():
    goals = [3, 6, 10]
    swept = design.sweep(pig, "goal", goals, core.random_policy, 300, seed=2, workers=1, progress=False)
    for goal, estimate in zip(goals, swept.estimates):
        assert estimate.low <= random_pig(goal)[0] <= estimate.high
    assert swept.estimates[0].value > swept.estimates[-1].value  # a longer race dilutes the first roll


def test_find_target_finds_the_goal_whose_first_player_win_rate_is_nearest():
    """Under random play seat 0 wins 0.699 at goal 5 and 0.604 at goal 12 (exact, tests/studio_support.py)."""
    found = design.find_target(
        pig, "goal", 5, 12, core.random_policy, 300, target=0.64, seed=3, workers=1, progress=False
    )
    assert 5 <= found.value <= 12 and found.estimate.low <= random_pig(found.value)[0] <= found.estimate.high
    assert abs(random_pig(found.value)[0] - 0.64) < 0.03


# --------------------------------------------------------------------------- the studio page


def test_the_studio_pages_code_runs_and_its_error_message_is_the_real_one(capsys):
    """docs/studio.md's Python blocks, run in order, and its quoted GameCodeError, produced for real."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "studio.md").read_text(encoding="utf-8")
    namespace = {"__name__": "studio_page"}
    for block in re.findall(r"```python\n(.*?)```", page, flags=re.DOTALL):
        exec(compile(block, "docs/studio.md", "exec"), namespace)
    assert "pig: 50 random games all ended" in capsys.readouterr().out

    class LoadedDie(namespace["Pig"]):
        def chance(self, position):
            return {face: Fraction(1, 7) for face in range(1, 7)} if position.rolling else None

    quoted = re.search(r"```text\nGameCodeError: (.*?)```", page, flags=re.DOTALL).group(1).replace("\n", " ").strip()
    with pytest.raises(GameCodeError) as raised:
        LoadedDie.new_game(seed=1).apply("roll")
    assert str(raised.value) == quoted
