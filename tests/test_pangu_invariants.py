"""Invariants I1-I6 of spec 10 over many seeded random and greedy games, under the defaults,
each one-parameter variant of spec 9, and random combinations of parameters."""

import os
import random

import pytest

from gamelib.pangu import SINGLE_VARIANTS, Rules, greedy_policy, new_game, random_policy
from gamelib.pangu.odds import layout_score
from gamelib.pangu.rules import CHOICES, SWITCHES
from pangu_support import play_checked

# Per rule set and policy. `make test` plays the first 200 seeds of each; GAMELIB_LONG_TESTS=1
# plays all 1,000 (2,000 games under each rule set, as first written) and 100 per combination.
LONG_TESTS = os.environ.get("GAMELIB_LONG_TESTS") == "1"
GAMES_PER_POLICY = 1000 if LONG_TESTS else 200
GAMES_PER_COMBINATION = 100 if LONG_TESTS else 25
REPLAY_EVERY = 10  # I6 replays one game in ten


def check_final(state, rules: Rules):
    placements = state.placements()
    placed = [e for e in placements if e.placed]
    # I3: total rec = matching edges of the final layout, scored independently of placement order
    layout = {e.cell: (e.card, e.orientation) for e in placed}
    assert sum(e.rec for e in placements) == layout_score(layout, rules, state.cards, state.centre), "I3"
    # I4: Karma accounting
    penalties = sum(1 for e in state.log if e.kind == "stuck_penalty")
    total_cost = sum(e.cost for e in placements)
    total_gain = sum(e.gain for e in placements)
    assert state.karma == rules.starting_karma - total_cost - penalties + total_gain, "I4"
    assert sum(e.wasted for e in placements) == sum(e.rec for e in placements) - total_gain, "I4"
    # I5: turn sizes 3, 3, 3, 1 (a prefix of them for a lost game); a won game has exactly 10 placements
    sizes = [len(e.revealed) for e in state.log if e.kind == "turn_start"]
    assert sizes == [3, 3, 3, 1][: len(sizes)], "I5"
    if state.status == "WON":
        assert len(placed) == 10 == len(placements) and state.karma >= 1, "I5"
    else:
        assert state.status == "LOST" and state.karma <= 0
    assert state.log[-1].kind == "game_end" and state.log[-1].status == state.status


def check_replay(seed: int, rules: Rules, actions, final):
    state = new_game(seed=seed, rules=rules)  # I6: same seed, parameters and actions
    for action in actions:
        state = state.apply(action)
    assert state.log == final.log and state == final, "I6"


def run_invariants(rules: Rules, games: int, master_seed: int):
    outcomes = {}
    for name, policy in (("random", random_policy), ("greedy", greedy_policy)):
        wins = 0
        for game in range(games):
            seed = master_seed * 100_000 + game
            final, actions = play_checked(seed, rules, policy)
            check_final(final, rules)
            if game % REPLAY_EVERY == 0:
                check_replay(seed, rules, actions, final)
            wins += final.status == "WON"
        outcomes[name] = wins / games
    return outcomes


@pytest.mark.parametrize("name", list(SINGLE_VARIANTS))
def test_invariants_under_defaults_and_each_variant(name):  # spec 10, I1-I6
    outcomes = run_invariants(SINGLE_VARIANTS[name], GAMES_PER_POLICY, master_seed=len(name))
    assert outcomes["greedy"] > outcomes["random"]  # the games are not all decided by one trivial path


def random_rules(rng: random.Random) -> Rules:
    values = {name: rng.choice(allowed) for name, allowed in CHOICES.items()}
    values.update({name: rng.random() < 0.5 for name in SWITCHES})
    values["starting_karma"] = rng.choice([1, 3, 10, 14])
    return Rules(**values)


def test_invariants_under_random_combinations():  # spec 9: every combination MUST be supported
    rng = random.Random(2024)
    for index in range(40):
        run_invariants(random_rules(rng), GAMES_PER_COMBINATION, master_seed=1000 + index)


def test_tiny_starting_karma_loses_at_the_first_payment():  # spec 7 step 2 with starting_karma = 1
    final, _ = play_checked(5, Rules(starting_karma=1), greedy_policy)
    assert final.status == "LOST" and len(final.placements()) == 1
