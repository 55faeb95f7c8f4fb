"""The fast paths of ``State.apply`` (issue 8) against the plain ones, over whole seeded games.

An action that is one of the very objects ``legal_actions()`` just listed skips the check of its
shape (it is canonical already) and, for a UseNaga, the second check of its parameters against
every option; an equal copy of it takes the fully checked path. Both must give the same positions.

``State.apply`` edits one fresh copy of the state in place through the whole turn (copy-on-write)
instead of copying the state at every edit; switched off, every edit copies, as before. Both must
give the same games, and no state may change once ``apply`` or ``new_game`` has returned it.
"""

from dataclasses import replace as copy_of

from nagaraja_support import play_game
from gamelib import IllegalMove
from gamelib.nagaraja import new_game, position, rules
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


def copying_at_every_edit(draft, build):
    """``rules._built`` switched off: the turn's edits each copy the state (``core.replace_fields``)."""
    return build()


def test_editing_in_place_gives_the_games_of_copying_at_every_edit(monkeypatch):
    """The same seeded games (random, and the heuristic bot, which reads hypothetical positions)
    with the turn's edits made in place and with a copy at every edit: identical saves."""
    games = [((random_policy, random_policy), seed) for seed in range(25)]
    games += [((heuristic_policy, random_policy), seed) for seed in range(8)]
    in_place = [play_game(policies, seed).to_json() for policies, seed in games]
    monkeypatch.setattr(rules, "_built", copying_at_every_edit)
    copied = [play_game(policies, seed).to_json() for policies, seed in games]
    assert in_place == copied


def test_no_state_changes_once_returned():
    """Every state of 10 games keeps its save after later turns were played from it, and a turn that
    raises IllegalMove (an action of the wrong seat, listed for the other seat) changes nothing either."""
    seen = []
    refused = 0
    for seed in range(10):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        seen += [(state, state.to_json()) for state in states]
        for state in states[::7]:
            if state.current_player in (0, 1) and state.legal_actions():
                wrong = copy_of(state.legal_actions()[0], player=1 - state.current_player)
                try:
                    state.apply(wrong)
                except IllegalMove:
                    refused += 1
                assert position.EDITING == [None]  # the refused turn's copy is let go
    assert refused > 50
    for state, save in seen:
        assert state.to_json() == save
