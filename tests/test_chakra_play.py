"""Chakra under seeded random and greedy play: the invariants of spec §3 after every action.

Random players practically never trigger the end (they soon lock their tokens in the
notches of unfinished chakras), so their games end by the ``max_rounds`` safeguard (§11.4);
greedy games are checked to end mostly by the rule of §11.
"""

import random

import pytest

from chakra_support import SWEEP_GAMES as GAMES, play_checked
from gamelib import IllegalMove
from gamelib.chakra import Rules, State, new_game
from gamelib.chakra.bots import greedy_policy, random_policy
from gamelib.chakra.invariants import invariant_violations
from gamelib.simulate import seeds

RANDOM_RULES = Rules(max_rounds=30)  # safeguard only: random play does not trigger the end
GREEDY_RULES = Rules(max_rounds=80)  # safeguard: greedy games end by §11 in about 30 rounds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_random_play(players):
    for seed in seeds(100 + players, GAMES):
        final = play_checked(players, random_policy, seed, RANDOM_RULES)
        assert final.is_terminal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_greedy_play(players):
    natural = 0
    for seed in seeds(200 + players, GAMES):
        final = play_checked(players, greedy_policy, seed, GREEDY_RULES)
        natural += final.end_triggered
    assert natural >= 0.8 * GAMES  # the rules, not the safeguard, end most greedy games


@pytest.mark.parametrize("players", [2, 4])
def test_every_listed_action_applies_and_saves_round_trip(players):
    """In a few games, apply *every* legal action of every position and round-trip each state."""
    for seed in seeds(300 + players, 6):
        state = new_game(players=players, seed=seed, rules=Rules(max_rounds=12))
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            for action in legal:
                after = state.apply(action)  # never raises
                assert not invariant_violations(after, state)
            assert State.from_json(state.to_json()) == state
            state = state.apply(rng.choice(legal) if rng.random() < 0.5 else greedy_policy(state, rng))


def test_illegal_variants_of_legal_actions_raise():
    """Perturbed legal actions that are not in the list must raise, never slip through."""
    from gamelib.chakra import Channel, Receive, Step

    for seed in seeds(400, 5):
        state = new_game(players=2, seed=seed, rules=Rules(max_rounds=15))
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = set(state.legal_actions())
            for action in list(legal)[:40]:
                if isinstance(action, Receive):
                    variants = [Receive(action.column, action.colours, d) for d in range(9)]
                elif isinstance(action, Channel) and action.steps:
                    first = action.steps[0]
                    variants = [
                        Channel(action.space, (Step(first.level, first.colour, first.direction, n),) + action.steps[1:])
                        for n in range(1, 4)
                    ]
                else:
                    continue
                for variant in variants:
                    if variant not in legal:
                        with pytest.raises(IllegalMove):
                            state.apply(variant)
            state = state.apply(greedy_policy(state, rng))


@pytest.mark.parametrize(
    "variant",
    [
        {"swap_discard_to_bag": True},
        {"allow_repeat_meditation": True},
        {"colour_cap": None},
        {"colour_cap": 2},
        {"bonus_min_run": 0},
        {"inspiration_tokens": 3},
        {"end_trigger_harmonized": 2},
        {"harmonization_bonus": 5},
    ],
)
def test_variants_keep_the_invariants(variant):
    """Every rule parameter of §13 under random and greedy play (the invariants adapt to the rules)."""
    natural = 0
    for index, seed in enumerate(seeds(500, 16)):
        policy = greedy_policy if index % 2 else random_policy
        final = play_checked(2 + index % 3, policy, seed, Rules(max_rounds=40, **variant))
        natural += final.end_triggered
    if variant.get("end_trigger_harmonized") == 2:
        assert natural >= 8  # every greedy game reaches 2 harmonized chakras
