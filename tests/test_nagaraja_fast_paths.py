"""The listed fast path of ``State.apply`` (issue 8) against the checked one, over whole seeded games.

An action that is one of the very objects ``legal_actions()`` just listed skips the check of its
shape (it is canonical already) and, for a UseNaga, the second check of its parameters against
every option; an equal copy of it takes the fully checked path. Both must give the same positions.
"""

from dataclasses import replace as copy_of

from nagaraja_support import play_game
from gamelib.nagaraja import new_game
from gamelib.nagaraja.bots import heuristic_policy, random_policy


def test_every_listed_action_gives_the_position_of_its_checked_copy():
    """At every decision of 15 random games, up to 8 listed actions of every kind, applied as listed
    and as a fresh copy: equal states and equal saves."""
    compared, kinds = 0, set()
    for seed in range(15):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in states:
            for action in state.legal_actions()[:8]:
                checked = state.apply(copy_of(action))  # a new object: not the listed one
                state.legal_actions()  # list again, so the next apply sees the listed object
                listed = state.apply(action)
                assert listed == checked and listed.to_json() == checked.to_json()
                compared += 1
                kinds.add(type(action).__name__)
    assert compared > 2000
    assert {"Commit", "UseNaga", "Pass", "PlaceTile", "Keep"} <= kinds


def copying(policy):
    """``policy``, but the action it returns is handed to ``apply`` as an equal copy (the checked path)."""
    return lambda state, rng: copy_of(policy(state, rng))


def test_whole_games_through_the_checked_path_are_the_same_games():
    """The same seeded games played with listed actions and with copies of them: identical saves."""
    for seed in range(20):
        for policies in ((random_policy, random_policy), (heuristic_policy, random_policy)):
            fast = play_game(policies, seed)
            checked = play_game(tuple(copying(p) for p in policies), seed)
            assert fast.to_json() == checked.to_json() and fast == checked


def test_a_listing_is_not_served_to_another_state():
    """Two states listed in turn each get their own actions (the listing is kept by identity)."""
    a, b = new_game(seed=1), new_game(seed=2)
    first_a, first_b = a.legal_actions(), b.legal_actions()
    assert a.legal_actions() == first_a and b.legal_actions() == first_b
    assert first_a != first_b  # different hands, so different commitments
