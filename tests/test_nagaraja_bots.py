"""Bots use only what their seat may see; tournaments report rates with intervals; rule variants."""

import random

import pytest

from gamelib import CHANCE
from gamelib.core import replace_fields as replace
from gamelib.nagaraja import Rules, new_game
from gamelib.nagaraja.bots import heuristic_policy, random_policy, tournament
from gamelib.nagaraja.position import set_player
from nagaraja_support import play_game


def hidden_variant(state):
    """The same position as the player to act sees it, with different hidden facts."""
    seat, other = state.current_player, 1 - state.current_player
    me = state.players[seat]
    unknown = [s for s in me.temple.face_down_spots() if (seat, me.temple.relic_at(s)) not in me.knowledge]
    if len(unknown) >= 2:  # two relics the player has never seen trade places
        state = set_player(state, seat, temple=me.temple.swap_relics(unknown[0], unknown[1]))
    them = state.players[other]
    secret = [c for c in them.hand if c not in them.public_hand]
    if secret and state.draw_pile:  # an unseen card of the opponent's hand trades places with the draw pile
        card, fresh = secret[0], state.draw_pile[0]
        hand = tuple(sorted([c for c in them.hand if c != card] + [fresh]))
        state = set_player(state, other, hand=hand)
        state = replace(state, draw_pile=tuple(sorted([c for c in state.draw_pile if c != fresh] + [card])))
    return state


def test_heuristic_decides_from_the_observation_only():
    compared = 0
    for seed in range(6):
        states = []
        play_game((heuristic_policy, random_policy), seed, on_state=states.append)
        for state in states:
            if state.current_player == CHANCE:
                continue
            twin = hidden_variant(state)
            if twin.to_json() == state.to_json():
                continue
            seat = state.current_player
            assert twin.observation(seat) == state.observation(seat)
            assert heuristic_policy(twin, random.Random(0)) == heuristic_policy(state, random.Random(0))
            compared += 1
    assert compared > 50


def test_tournament_reports_rates_reasons_length_and_guide_advantage():
    result = tournament(heuristic_policy, random_policy, games=15, seed=1, show_progress=False)  # 15 deals, 30 games
    assert result.wins[0] + result.wins[1] == 30
    assert result.win_rate(0).low > 0.5  # the heuristic bot clearly beats random play
    assert sum(share.value for share in result.reason_shares().values()) == pytest.approx(1)
    assert 5 < result.game_length().value < 17 and result.rooms >= 30 * 5
    assert 0 < result.guide_room_rate().value < 1
    assert "95% CI" in result.summary()


def test_rules_are_validated_and_variants_change_the_game():
    with pytest.raises(ValueError, match="win_score"):
        Rules(win_score=0)
    with pytest.raises(ValueError, match="deal_keep"):
        Rules(deal_keep=4)
    assert len(new_game(seed=2, rules=Rules(starting_hand=3)).players[0].hand) == 3
    reasons = []
    for seed in range(10):  # a lower target makes REACHED_25 (the "reach the target" ending) the usual one
        state, rng = new_game(seed=seed, rules=Rules(win_score=8)), random.Random(seed)
        while not state.is_terminal:
            state = state.apply(random_policy(state, rng))
        reasons.append(state.result.reason)
        if state.result.reason == "REACHED_25":
            assert state.result.scores[state.winner] >= 8
    assert reasons.count("REACHED_25") >= 6


def test_first_guide_is_picked_at_random_after_too_many_ties():  # spec 5.2 MAY
    state = new_game(seed=1, explicit_chance=True, rules=Rules(max_first_guide_ties=1))
    while state.queue[0].kind == "RELIC":
        state = state.apply(state.chance_outcomes()[0][0])
    state = state.apply(((3, 0), (3, 0))).apply(((3, 0), (3, 0)))
    assert state.queue[0].kind == "GUIDE_PICK" and [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    assert state.apply(1).guide == 1
