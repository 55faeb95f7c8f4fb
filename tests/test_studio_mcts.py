"""Monte Carlo tree search (gamelib.studio.mcts) and the determinised copies it simulates from.

What must hold: MCTS plays every contract game (the three and the studio's), beats random play
clearly, finds a forced win, and never peeks: its choice depends on what the player to move
sees only, not on the state's seed (which fixes the future chance) nor on the hidden part.
"""

import dataclasses
import random

import pytest

from gamelib import chakra, nagaraja, pangu
from gamelib.core import CHANCE, play, random_policy, replace_fields, tournament
from gamelib.studio.determinise import determinised
from gamelib.studio.examples import bluff, pig
from gamelib.studio.mcts import mcts_policy, score_lead

from studio_solve_support import dash, sticks


def _mcts_share(game, rules, budget, deals, seed=7):
    records = tournament(game, [mcts_policy(budget), random_policy], deals, rules=rules, seed=seed, progress=False)
    return sum(record.policy_returns()[0] for record in records) / len(records)


def test_mcts_beats_random_clearly_in_pig():
    """40 games of Pig to 20 (20 deals, seats swapped). Pig to 20 is short and lucky: even the
    solver's optimal player wins only 78.5% against random play (300 deals, measured while
    writing this test); MCTS with 60 simulations won 77.5% of these 40 (seeded, so the same every
    run). A search that read the wrong seat's return would win less than half."""
    assert _mcts_share(pig, pig.Rules(goal=20), 60, 20) >= 0.7


def test_mcts_beats_random_clearly_in_a_small_race():
    assert _mcts_share(dash, dash.Rules(7), 60, 10) >= 0.75


@pytest.mark.parametrize("count, winning_take", [(4, 1), (5, 2), (7, 1)])
def test_mcts_finds_the_forced_win_in_sticks(count, winning_take):
    """Take 1 or 2, the last stick wins: leave the opponent a multiple of 3 (the solver agrees)."""
    state = sticks.new_game(rules=sticks.Rules(count))
    bot = mcts_policy(300)
    assert [bot(state, random.Random(seed)) for seed in range(5)] == [winning_take] * 5


# --------------------------------------------------------------------------- no peeking


def _same_choices(first, second, bot, seeds=range(4)):
    return [bot(first, random.Random(seed)) for seed in seeds] == [bot(second, random.Random(seed)) for seed in seeds]


def test_pig_choices_do_not_depend_on_the_seed():
    """Two Pig states at one position with different seeds (so different future rolls)."""
    state = pig.new_game(seed=1, rules=pig.Rules(goal=30))
    state = state.apply("roll")
    while state.current_player != 0 or state.position.turn_total == 0:
        state = pig.new_game(seed=state.seed + 1, rules=pig.Rules(goal=30)).apply("roll")
    other = state.with_seed(12345)
    assert other.key() == state.key() and other.seed != state.seed
    assert _same_choices(state, other, mcts_policy(40))


def test_bluff_choices_do_not_depend_on_the_hidden_card():
    """Seat 0 holds the 2; seat 1 holds the 1 or the 3: seat 0's choice must not tell them apart."""
    game = bluff.Bluff.for_rules(bluff.Rules())
    low = bluff.Bluff.state_at(bluff.Position(cards=(2, 1)), bluff.Rules(), seed=5)
    high = bluff.Bluff.state_at(bluff.Position(cards=(2, 3)), bluff.Rules(), seed=9)
    assert low.observation(0) == high.observation(0) and game.players == 2
    assert _same_choices(low, high, mcts_policy(60))


def _chakra_twin(state, player, rng):
    """The same Chakra table with the plenitude values ``player`` does not know dealt otherwise, and a new seed."""
    known = state.known_plenitude(player)
    unknown = [level for level in range(1, 8) if level not in known]
    values = [state.plenitude[level - 1] for level in unknown] + [state.unused_plenitude]
    while True:
        shuffled = values[:]
        rng.shuffle(shuffled)
        if shuffled != values:
            break
    plenitude = list(state.plenitude)
    for level, value in zip(unknown, shuffled):
        plenitude[level - 1] = value
    return replace_fields(state, plenitude=tuple(plenitude), unused_plenitude=shuffled[-1], seed=state.seed + 1)


def test_chakra_choices_do_not_depend_on_hidden_plenitude_or_the_seed():
    state = chakra.new_game(seed=3)
    for _ in range(6):
        state = state.apply(chakra.bots.greedy_policy(state, random.Random(0)))
    twin = _chakra_twin(state, state.current_player, random.Random(1))
    assert twin.observation(state.current_player) == state.observation(state.current_player)
    assert twin.plenitude != state.plenitude
    assert _same_choices(state, twin, mcts_policy(12, rollout_limit=4), seeds=range(2))


def test_nagaraja_choices_do_not_depend_on_the_opponents_hand_or_the_seed():
    state = nagaraja.new_game(seed=4)
    me = state.current_player
    them = state.players[1 - me]
    hidden = sorted(set(them.hand) - them.public_hand)
    swap_in = state.draw_pile[0]
    hand = tuple(sorted([card for card in them.hand if card != hidden[0]] + [swap_in]))
    pile = tuple(sorted([card for card in state.draw_pile if card != swap_in] + [hidden[0]]))
    players = list(state.players)
    players[1 - me] = dataclasses.replace(them, hand=hand)
    twin = replace_fields(state, players=tuple(players), draw_pile=pile, seed=state.seed + 1)
    assert twin.observation(me)["players"] == state.observation(me)["players"]
    assert _same_choices(state, twin, mcts_policy(12, rollout_limit=6), seeds=range(2))


def test_pangu_choices_do_not_depend_on_the_deck_order():
    state = pangu.new_game(seed=5)
    twin = dataclasses.replace(state, deck=tuple(reversed(state.deck)), seed=6)
    assert twin.observation(0) == state.observation(0) and twin.deck != state.deck
    assert _same_choices(state, twin, mcts_policy(30))


# --------------------------------------------------------------------------- determinised copies


@pytest.mark.parametrize("seed", range(3))
def test_a_determinised_chakra_table_shows_the_player_the_same(seed):
    state = chakra.new_game(seed=seed, players=3)
    for player in range(3):
        copy = determinised(state, player, random.Random(seed))
        assert copy.observation(player) == state.observation(player)
        assert copy.seed != state.seed


@pytest.mark.parametrize("seed", range(3))
def test_a_determinised_nagaraja_duel_shows_the_player_the_same_and_plays_on(seed):
    rng = random.Random(seed)
    state = nagaraja.new_game(seed=seed)
    for _ in range(40):
        if state.is_terminal:
            break
        player = state.current_player
        copy = determinised(state, player, rng)
        seen, seen_in_copy = state.observation(player), copy.observation(player)
        seen.pop("events"), seen_in_copy.pop("events")  # the copy keeps no log (search speed)
        assert seen_in_copy == seen
        nagaraja.check_invariants(copy)
        play(copy, random_policy, seed=seed, max_actions=5000)  # the copy is a playable game
        state = state.apply(rng.choice(state.legal_actions()))


def test_mcts_plays_chakra_with_three_players_and_each_seat_for_itself():
    state = chakra.new_game(seed=2, players=3)
    bot = mcts_policy(6, rollout_limit=3)
    for _ in range(4):
        action = bot(state, random.Random(0))
        assert action in state.legal_actions()
        state = state.apply(action)


def test_score_lead_shares_the_win_between_leaders():
    state = chakra.new_game(seed=1, players=3)
    values = score_lead(state)
    assert sum(values) == pytest.approx(1) and len(values) == 3


def test_mcts_refuses_a_chance_node_and_a_bad_budget():
    with pytest.raises(ValueError, match="simulations must be a whole number"):
        mcts_policy(0)
    at_chance = pig.new_game(seed=1, explicit_chance=True).apply("roll")
    assert at_chance.current_player == CHANCE
    with pytest.raises(ValueError, match="chance node"):
        mcts_policy(5)(at_chance, random.Random(0))
