"""The fast paths of issue 8 against the plain ones: whole greedy games, the search's tables, the listing.

The greedy bot values Channel actions inside its own search over level codes (``bots._scored_search``)
instead of applying each action; these tests play whole seeded games with it and with the plain
greedy rule (every legal action valued by ``action_value``, which simulates the action step by step)
and require identical games, and check every table the search reads against the tuple operation
it stands for.
"""

import random
from itertools import combinations_with_replacement

from chakra_support import plain_greedy_policy
from gamelib import core
from gamelib.chakra import Rules, new_game
from gamelib.chakra import actions, bots
from gamelib.chakra.bots import expected_plenitude, greedy_policy, random_policy
from gamelib.simulate import seeds


def test_whole_greedy_games_are_those_of_the_plain_greedy_rule():
    """Same deals, same generator: the fast bot and the plain rule play identical games to the end
    (every action recorded in the save, and the final position), for 2, 3 and 4 players."""
    rules = Rules(max_rounds=60)
    compared_actions = 0
    for players, count in ((2, 4), (3, 2), (4, 2)):
        for seed in seeds(800 + players, count):
            fast = core.play(new_game(seed=seed, rules=rules, players=players), greedy_policy, seed=seed)
            plain = core.play(new_game(seed=seed, rules=rules, players=players), plain_greedy_policy, seed=seed)
            assert fast.log == plain.log and fast.to_json() == plain.to_json() and fast == plain
            compared_actions += len(fast.log)
    assert compared_actions > 500


def test_the_level_code_tables_match_the_tuple_operations():
    """Each of the 165 possible level contents (sorted tuples of at most 3 colour ids) and every colour."""
    everything = [c for size in range(4) for c in combinations_with_replacement(range(8), size)]
    assert sorted(bots._CONTENTS) == sorted(everything) and len(bots._CONTENTS) == 165
    for code, contents in enumerate(bots._CONTENTS):
        assert bots._CODE[contents] == code and bots._SIZE[code] == len(contents)
        assert bots._COLOURS_OF[code] == tuple(sorted(set(contents)))
        assert bots._HAS_BLACK[code] == (0 in contents)
        for colour in range(8):
            assert bots._COUNT[code * 8 + colour] == contents.count(colour)
            without = bots._WITHOUT_CODE[code * 8 + colour]
            if colour in contents:
                rest = list(contents)
                rest.remove(colour)
                assert bots._CONTENTS[without] == tuple(rest)
            else:
                assert without == -1
            more = bots._WITH_CODE[code * 8 + colour]
            assert (bots._CONTENTS[more] == tuple(sorted(contents + (colour,)))) if len(contents) < 3 else more == -1
    for level in range(9):
        harmonized = bots._HARMONY_CODE[level]
        assert (bots._CONTENTS[harmonized] == (level,) * 3) if 1 <= level <= 7 else harmonized == -1


def test_the_score_table_is_the_level_score():
    """``_score_table(worth)[level * 165 + code]`` is ``_level_score`` for every level, contents and a few worths."""
    for known in ({}, {1: 4, 2: 1}, {3: 1, 4: 3, 5: 2, 6: 4, 7: 1}):
        worth = expected_plenitude(known)
        table = bots._score_table(worth)
        for level in range(1, 9):
            for code, contents in enumerate(bots._CONTENTS):
                assert table[level * bots._CODES + code] == bots._level_score(level, contents, worth)


def test_a_listing_belongs_to_its_own_state():
    """The last listing is kept beside the state it was made for: another state (even an equal one built
    anew) lists its own actions, and changing the returned list changes nothing."""
    rng = random.Random(3)
    state = new_game(seed=3, players=3)
    previous = state
    for _ in range(120):
        if state.is_terminal:
            break
        listed = state.legal_actions()
        assert listed == actions.legal_actions(state)
        assert previous.legal_actions() == actions.legal_actions(previous)  # another state in between
        listed.clear()
        assert state.legal_actions() == actions.legal_actions(state)
        previous, state = state, state.apply(random_policy(state, rng))
