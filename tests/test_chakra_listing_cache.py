"""Chakra's two bounded caches (issue 27): the last listings (``actions._listing``) and the setups
(``rules._set_up``). Keyed by value, they must give what the uncached functions give, and no caller can
change what the next one gets."""

from __future__ import annotations

import random

from gamelib.chakra import Rules, new_game
from gamelib.chakra import actions, rules


def test_a_listing_is_a_new_list_each_call_and_the_uncached_listing():
    state = new_game(seed=3, players=3)
    rng = random.Random(3)
    for _ in range(60):  # early positions, then ones with energies on the boards
        first = state.legal_actions()
        first.clear()  # a caller changing its list changes nothing for the next one
        listed = state.legal_actions()
        view = actions._Listed(state.rules, state.maya, state.bag)
        assert listed == actions._list_actions(state.players[state.to_move], view) and listed
        state = state.apply(rng.choice(listed))


def test_equal_positions_built_apart_list_the_same_actions():
    """A state rebuilt from its save is another object with equal fields: the cache serves it by value."""
    state = new_game(seed=5, players=2)
    rng = random.Random(5)
    for _ in range(40):
        state = state.apply(rng.choice(state.legal_actions()))
    again = type(state).from_json(state.to_json())
    assert again is not state and again.legal_actions() == state.legal_actions()


def test_a_hand_built_state_with_lists_is_listed_without_the_cache():
    """Lists are no key (TypeError): the listing is made without the cache and is the same."""
    state = new_game(seed=1, players=2)
    odd = rules.State(**{**state.__dict__, "maya": [list(column) for column in state.maya]})
    assert odd.legal_actions() == state.legal_actions()


def test_setups_are_the_uncached_setups_and_tell_types_apart():
    for seed, players, explicit in ((0, 2, True), (7, 3, False), ("seven", 4, True)):
        made = new_game(seed=seed, players=players, explicit_chance=explicit, rules=Rules(max_rounds=10))
        assert made == rules._set_up.__wrapped__(seed, Rules(max_rounds=10), explicit, players, 0)
    assert new_game(seed=0, explicit_chance=1).explicit_chance == 1  # typed: not the True of another call
    assert new_game(seed=0, explicit_chance=True).explicit_chance is True
