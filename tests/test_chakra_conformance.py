"""Conformance check of the Chakra engine against spec §1-14, written as a second implementer would.

The first half is a small reference implementation of Receive (§6.2-6.3) and Channel (§7.3-7.7,
§8) written from the spec's wording, not from the engine: energies carry identities so that
"each step moves an energy not yet moved" (§7.3.4) is checked literally, and the walk of §7.5
is followed level by level. On many random boards the engine's legal actions, their order
(§14.3) and their results must equal the reference's. The second half pins single spec points
(setup §2/§4, refill §6.4, SWAP §7.7, Meditate §10, end §11, scoring §12, parameters §13,
observation §14.6, text §14.7) with small scripted positions. Section numbers are the spec's.
"""

import dataclasses
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest

from gamelib import CHANCE, IllegalMove
from gamelib.chakra import (
    BHAGYA,
    BLACK,
    COLOUR_NAMES,
    EARTH,
    GREEN,
    LIGHT_BLUE,
    PURPLE,
    RED,
    YELLOW,
    Channel,
    Meditate,
    Receive,
    Rules,
    Step,
    new_game,
    position,
)

K, R, O, Y, G, L, D, P = range(8)  # noqa: E741 - the colour letters of chakra.md (O is orange)
LETTER = "KROYGLDP"
LEVEL = ["EARTH", "RED", "ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE", "PURPLE", "BHAGYA"]
SPACE_ORDER = ["D3", "D1x3", "D2_D1", "U2", "U1x2", "D1_U1", "U1_or_D1", "SWAP"]
DOWN_, UP_ = -1, 1
PATTERNS = {  # §7.1, copied from the spec's table
    "D3": [[(DOWN_, 3)]],
    "D1x3": [[(DOWN_, 1)] * 3],
    "D2_D1": [[(DOWN_, 2), (DOWN_, 1)], [(DOWN_, 1), (DOWN_, 2)]],
    "U2": [[(UP_, 2)]],
    "U1x2": [[(UP_, 1), (UP_, 1)]],
    "D1_U1": [[(DOWN_, 1), (UP_, 1)], [(UP_, 1), (DOWN_, 1)]],
    "U1_or_D1": [[(UP_, 1)], [(DOWN_, 1)]],
}


# =========================================================================== reference implementation


def ref_harmonized(level_contents, level):
    """§3: chakra L holds 3 energies, all of colour L (levels 1-7 only)."""
    return 1 <= level <= 7 and len(level_contents) == 3 and all(c == level for c, _ in level_contents)


def ref_walk(levels, origin, colour, direction, distance):
    """§7.5.2, literally: the landing level or None."""
    pos, left = origin, distance
    while True:
        pos += direction
        if pos >= BHAGYA or pos < EARTH:
            return None  # nothing moves into or through the Bhagya
        if pos == EARTH:
            if colour != BLACK:
                return None
            left -= 1
            return EARTH if left == 0 else None
        if ref_harmonized(levels[pos], pos):
            continue
        if len(levels[pos]) == 3:
            return None
        left -= 1
        if left == 0:
            return pos


def ref_board(board):
    """A board as lists of (colour, energy id) per level; ids make every energy distinct."""
    ids = iter(range(1000))
    return [[(c, next(ids)) for c in board.levels[level]] for level in range(9)]


def ref_channel(board, space, steps):
    """The board after a non-SWAP Channel action as (levels, earth, reserve, notches), or None if illegal."""
    if board.reserve < 1 or space in board.spaces:
        return None
    if [(s.direction, s.distance) for s in steps] not in PATTERNS[space]:
        return None
    levels = ref_board(board)
    earth, reserve, notches, moved = board.earth, board.reserve - 1, set(board.notches), set()
    for step in steps:
        origin = step.level
        if not 1 <= origin <= BHAGYA or ref_harmonized(levels[origin], origin):
            return None  # §7.5.1: Earth and harmonized chakras are locked
        unmoved = [e for e in levels[origin] if e[0] == step.colour and e[1] not in moved]
        if not unmoved:
            return None  # §7.3.4
        landing = ref_walk(levels, origin, step.colour, step.direction, step.distance)
        if landing is None:
            return None
        energy = unmoved[0]
        levels[origin].remove(energy)
        moved.add(energy[1])
        if landing == EARTH:
            earth += 1  # §7.6
            continue
        levels[landing].append(energy)
        if ref_harmonized(levels[landing], landing) and landing in notches:
            notches.discard(landing)  # §8: the notch token returns at once
            reserve += 1
    return ([tuple(sorted(c for c, _ in contents)) for contents in levels[1:]], earth, reserve, frozenset(notches))


def ref_channel_actions(state):
    """Every legal non-SWAP Channel action, by trying every step sequence over (level, colour) pairs
    present at the start, including the Earth (which must be refused)."""
    board = state.players[state.to_move]
    pairs = sorted(
        {(level, c) for level in range(1, 9) for c in board.levels[level]}
        | ({(EARTH, BLACK)} if board.earth else set())
    )
    legal = []
    for space, patterns in PATTERNS.items():
        for pattern in patterns:
            options = [[Step(level, c, d, n) for level, c in pairs] for d, n in pattern]
            for steps in product(*options):
                if ref_channel(board, space, steps) is not None:
                    legal.append(Channel(space, steps))
    return legal


def ref_swap_actions(state):
    """§7.7."""
    board, rules = state.players[state.to_move], state.rules
    if board.reserve < 1 or "SWAP" in board.spaces or board.earth < 1 or len(board.levels[BHAGYA]) >= 3:
        return []
    bag = list(state.bag)
    if rules.swap_discard_to_bag:
        bag[BLACK] += 1
    return [
        Channel("SWAP", (), c)
        for c in range(8)
        if bag[c] >= 1 and (c == BLACK or rules.colour_cap is None or board.count(c) < rules.colour_cap)
    ]


def ref_receive_actions(state):
    """§6.2 over every subset of every column and every level 0-8."""
    board, cap = state.players[state.to_move], state.rules.colour_cap
    legal = []
    for column, shown in enumerate(state.maya):
        for size in (1, 2, 3):
            for colours in combinations(range(8), size):
                if not set(colours) <= set(shown):
                    continue
                if (BLACK in colours) != (BLACK in shown):
                    continue
                if any(c != BLACK and cap is not None and board.count(c) >= cap for c in colours):
                    continue
                for dest in range(9):
                    free = 3 - len(board.levels[dest])
                    if dest == BHAGYA:
                        ok = free >= size
                    elif 1 <= dest <= 7:
                        ok = board.reserve >= 1 and dest not in board.notches and free >= size
                    else:
                        ok = False
                    if ok:
                        legal.append(Receive(column, colours, dest))
    return legal


def ref_meditate_actions(state):
    """§10.1."""
    held = state.players[state.to_move].meditation
    if state.rules.allow_repeat_meditation:
        return [Meditate(c) for c in range(1, 8)]
    missing = [c for c in range(1, 8) if c not in held]
    return [Meditate(c) for c in missing] if missing else [Meditate(None)]


DEST_ORDER = [BHAGYA, 7, 6, 5, 4, 3, 2, 1]


def spec_order(action):
    """§14.3 as a sort key."""
    if isinstance(action, Receive):
        ids = tuple(sorted(action.colours))
        return (0, action.column, len(ids), ids, DEST_ORDER.index(action.destination))
    if isinstance(action, Channel):
        steps = tuple((s.level, s.colour, s.direction, s.distance) for s in action.steps)
        return (1, SPACE_ORDER.index(action.space), steps, -1 if action.bag_colour is None else action.bag_colour)
    return (2, 8 if action.colour is None else action.colour)


def ref_legal_actions(state):
    actions = (
        ref_receive_actions(state) + ref_channel_actions(state) + ref_swap_actions(state) + ref_meditate_actions(state)
    )
    return sorted(actions, key=spec_order)


# =========================================================================== random boards


def random_state(rng, rules=None):
    """A random 4-player position (12 energies per colour) seen from seat 0: random levels with
    some harmonized chakras, random tokens on spaces and notches, random Maya and Earth."""
    pool = Counter({c: 12 for c in range(8)})

    def take(c):
        if pool[c] == 0:
            return None
        pool[c] -= 1
        return LETTER[c]

    spec = {}
    for level in range(1, 9):
        roll = rng.random()
        if 1 <= level <= 7 and roll < 0.2:
            spec[LEVEL[level]] = " ".join(take(level) for _ in range(3))
        elif roll < 0.75:
            n = rng.choice([1, 1, 2, 2, 3])
            colours = [take(rng.choice([0, 0, level % 8, rng.randrange(8), rng.randrange(8)])) for _ in range(n)]
            spec[LEVEL[level]] = " ".join(c for c in colours if c)
    spec["EARTH"] = min(pool[BLACK], rng.choice([0, 0, 1, 2]))
    pool[BLACK] -= spec["EARTH"]
    notches = [
        LEVEL[level]
        for level in range(1, 8)
        if rng.random() < 0.15 and spec.get(LEVEL[level], "").split() != [LETTER[level]] * 3
    ]
    out = rng.randint(0, 5 - len(notches)) if len(notches) < 5 else 0
    spec["NOTCHES"] = notches
    spec["SPACES"] = rng.sample(SPACE_ORDER, out)
    spec["MEDITATION"] = rng.sample(range(1, 8), rng.choice([1, 2, 7]))
    maya = [
        " ".join(c for c in (take(rng.choice([0, rng.randrange(8)])) for _ in range(rng.choice([0, 2, 3, 3]))) if c)
        for _ in range(3)
    ]
    return position([spec], num_players=4, maya=maya, rules=rules)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(colour_cap=None),
        Rules(swap_discard_to_bag=True),
        Rules(allow_repeat_meditation=True),
        Rules(colour_cap=1),
    ],
)
def test_14_1_legal_actions_equal_an_independent_reference_in_spec_order(rules):
    """§6.2, §7.3-7.7, §10.1 and the order of §14.3, on 150 random boards per rule set."""
    rng = random.Random(2024)
    for _ in range(150):
        state = random_state(rng, rules)
        assert state.legal_actions() == ref_legal_actions(state), str(state)


def test_7_4_channel_results_equal_the_reference():
    """Every legal Channel action's result (levels, Earth, reserve, notches, spaces) as §7.4-7.6 and §8."""
    rng = random.Random(7)
    checked = 0
    for _ in range(120):
        state = random_state(rng)
        board = state.players[0]
        for action in state.legal_actions():
            if not isinstance(action, Channel) or action.space == "SWAP":
                continue
            after = state.apply(action).players[0]
            levels, earth, reserve, notches = ref_channel(board, action.space, action.steps)
            assert ([tuple(sorted(c)) for c in after.levels[1:]], after.earth, after.reserve, after.notches) == (
                levels,
                earth,
                reserve,
                notches,
            ), str(action)
            assert after.spaces == board.spaces | {action.space}
            checked += 1
    assert checked > 1000


def test_7_5_apply_accepts_exactly_the_reference_channel_actions():
    """§7.3-7.5 through ``apply`` (not the move generator): every step sequence over the pairs
    present, on every space and pattern, is accepted exactly when the reference accepts it."""
    rng = random.Random(11)
    tried = 0
    for _ in range(25):
        state = random_state(rng)
        board = state.players[0]
        pairs = sorted({(level, c) for level in range(1, 9) for c in board.levels[level]} | {(EARTH, BLACK)})
        for space, patterns in PATTERNS.items():
            for pattern in patterns:
                for steps in product(*[[Step(lv, c, d, n) for lv, c in pairs] for d, n in pattern]):
                    expected = ref_channel(board, space, steps) is not None
                    try:
                        state.apply(Channel(space, steps))
                        accepted = True
                    except IllegalMove:
                        accepted = False
                    assert accepted == expected, (space, [str(s) for s in steps], str(state))
                    tried += 1
    assert tried > 10000


def test_6_3_receive_results_equal_the_reference():
    """§6.3: energies leave the column and land on the destination; a chakra costs a notch token
    unless the placement harmonizes it (then the token returns at once)."""
    rng = random.Random(8)
    harmonizing = 0
    for _ in range(150):
        state = dataclasses.replace(random_state(rng), explicit_chance=True)  # stop before the refill
        board = state.players[0]
        for action in [a for a in state.legal_actions() if isinstance(a, Receive)]:
            after = state.apply(action)
            new = after.players[0]
            dest = list(board.levels[action.destination]) + list(action.colours)
            assert Counter(new.levels[action.destination]) == Counter(dest)
            completes = 1 <= action.destination <= 7 and sorted(dest) == [action.destination] * 3
            harmonizing += completes
            pays = 1 <= action.destination <= 7 and not completes
            assert new.reserve == board.reserve - pays
            assert new.notches == board.notches | ({action.destination} if pays else set())
            assert Counter(after.maya[action.column]) == Counter(state.maya[action.column]) - Counter(action.colours)
            assert after.current_player == (CHANCE if sum(state.bag) else 1)  # refill pending (§6.4)
    assert harmonizing > 0


# =========================================================================== §2, §4 setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_2_and_4_setup_component_counts(players):
    for seed in range(20):
        state = new_game(players=players, seed=seed)
        on_table = Counter(c for column in state.maya for c in column)
        for c in range(8):  # §2: 3 per colour per player, black included; §4.3: 9 in the Maya
            assert state.bag[c] + on_table[c] == 3 * players
        assert [len(column) for column in state.maya] == [3, 3, 3]
        assert Counter(state.plenitude) + Counter([state.unused_plenitude]) == Counter([1, 1, 2, 2, 3, 3, 4, 4])
        assert len(state.plenitude) == 7 and state.removed_blacks == 0 and not state.end_triggered
        for board in state.players:  # §4.5
            assert board.reserve == 5 and board.earth == 0 and not board.spaces and not board.notches
            assert all(not contents for contents in board.levels)
            assert len(board.meditation) == 1 and 1 <= board.meditation[0] <= 7
        assert state.turns == (0,) * players


def test_4_4_starting_meditation_tokens_drawn_without_replacement():
    # §4.4 / §13: from 28 tokens (4 per colour) the second player matches the first with
    # probability 3/27 = 1/9; with replacement it would be 1/7.
    same = sum(len(set(b.meditation[0] for b in new_game(players=2, seed=s).players)) == 1 for s in range(4000))
    expected, sd = 4000 / 9, (4000 * (1 / 9) * (8 / 9)) ** 0.5
    assert abs(same - expected) < 4 * sd
    assert abs(same - 4000 / 7) > 4 * sd


@pytest.mark.parametrize("players", [2, 3, 4])
def test_4_6_first_player_moves_first(players):
    for first in range(players):
        state = new_game(players=players, seed=3, first_player=first)
        assert state.current_player == first and state.first_player == first


# =========================================================================== §6.2 Receive legality


def test_6_2_receive_destinations_and_capacity():
    # §6.2.4-5: BHAGYA needs free bubbles, a chakra also a reserve token and a free notch
    state = position([{"BHAGYA": "R", "GREEN": "G G", "YELLOW": "K", "NOTCHES": ["ORANGE"]}], maya=["L D P", "", ""])
    dests = Counter(a.destination for a in state.legal_actions() if isinstance(a, Receive) and len(a.colours) == 3)
    assert set(dests) == {RED, LIGHT_BLUE, 6, PURPLE}  # not BHAGYA (2 free), GREEN (1), YELLOW (2), ORANGE (notch)
    pairs = {a.destination for a in state.legal_actions() if isinstance(a, Receive) and len(a.colours) == 2}
    assert pairs == {BHAGYA, RED, YELLOW, LIGHT_BLUE, 6, PURPLE}
    singles = {a.destination for a in state.legal_actions() if isinstance(a, Receive) and len(a.colours) == 1}
    assert EARTH not in singles and GREEN in singles  # nothing is received into the Earth


def test_6_2_3_colour_cap_counts_bhagya_and_chakras_not_earth():
    # §3 count(c) excludes the Earth; the cap of 3 counts the Bhagya and the chakras together
    state = position([{"BHAGYA": "Y", "RED": "Y", "PURPLE": "Y", "EARTH": 2}], maya=["Y G", "K", ""])
    sets = {tuple(sorted(a.colours)) for a in state.legal_actions() if isinstance(a, Receive)}
    assert sets == {(G,), (K,)}
    # blacks are exempt: 4 blacks on the board, one more can still be taken (§6.2.3)
    state = position([{"BHAGYA": "K", "RED": "K K", "PURPLE": "K"}], maya=["K", "", ""])
    assert Receive(0, {K}, BHAGYA) in state.legal_actions()


# =========================================================================== §6.4 refill


def test_6_4_refill_weights_are_the_bag_counts():
    state = position([{}], maya=["R O Y", "G L D", "P K R"], bag={"R": 3, "K": 1, "P": 2}, explicit_chance=True)
    state = state.apply(Receive(0, {R}, BHAGYA))
    assert state.current_player == CHANCE  # §6.4: a chance node with weight bag[c]
    assert state.chance_outcomes() == [(K, Fraction(1, 6)), (R, Fraction(3, 6)), (P, Fraction(2, 6))]


def test_6_4_empty_bag_leaves_the_column_short_and_no_chance_node():
    for explicit in (True, False):
        state = position([{}], maya=["R O Y", "G L D", "P K R"], bag={}, explicit_chance=explicit)
        after = state.apply(Receive(0, {R, O}, BHAGYA))
        assert after.current_player == 1 and after.maya[0] == (Y,) and after.bag == (0,) * 8
        after = after.apply(Meditate(RED)).apply(Receive(0, {Y}, BHAGYA))
        assert after.maya[0] == ()  # an empty column stays empty ...
        assert not any(isinstance(a, Receive) and a.column == 0 for a in after.legal_actions())  # ... offers nothing
        with pytest.raises(IllegalMove):
            after.apply(Receive(0, {Y}, BHAGYA))


def test_6_4_refill_fills_columns_in_order_0_1_2():
    # Column 0 was left empty by an empty bag; a SWAP under swap_discard_to_bag puts a black back
    # into the bag (and takes a red out); the next refill serves column 0 first (§6.4).
    rules = Rules(swap_discard_to_bag=True)
    state = position([{"EARTH": 1}, {}], maya=["", "G L D", "P K R"], bag={"R": 1}, rules=rules, explicit_chance=True)
    state = state.apply(Channel("SWAP", (), "R"))
    assert state.bag[BLACK] == 1 and state.bag[R] == 0
    state = state.apply(Receive(1, {G}, BHAGYA))
    assert state.current_player == CHANCE and state.chance_outcomes() == [(K, Fraction(1))]
    state = state.apply(K)
    assert state.maya == ((K,), (L, D), (K, R, P)) and state.current_player == 0


# =========================================================================== §7 single points


def test_7_5_skip_counts_only_unharmonized_levels_both_directions():
    # up: from RED with ORANGE and YELLOW harmonized, up 1 lands on GREEN, up 2 on LIGHT_BLUE
    state = position([{"RED": "K", "ORANGE": "O O O", "YELLOW": "Y Y Y"}])
    ups = {a.steps for a in state.legal_actions() if isinstance(a, Channel) and a.space in ("U2", "U1_or_D1")}
    after = state.apply(Channel("U1_or_D1", [Step(RED, K, 1, 1)]))
    assert after.players[0].levels[GREEN] == (K,)
    after = state.apply(Channel("U2", [Step(RED, K, 1, 2)]))
    assert after.players[0].levels[LIGHT_BLUE] == (K,)
    assert len(ups) == 3  # up 1, down 1 (into the Earth), up 2


def test_7_5_black_down_into_earth_skipping_harmonized_red():
    # ORANGE K down 1 with RED harmonized: RED is skipped, the black lands exactly in the Earth
    state = position([{"ORANGE": "K", "RED": "R R R"}])
    after = state.apply(Channel("U1_or_D1", [Step(2, K, -1, 1)]))
    assert after.players[0].earth == 1 and after.players[0].levels[2] == ()
    with pytest.raises(IllegalMove, match="overshoot"):
        state.apply(Channel("D2_D1", [Step(2, K, -1, 2), Step(2, K, -1, 1)]))


def test_7_5_harmonized_by_an_earlier_step_is_skipped_and_locked():
    # §7.5: U1x2, GREEN L up 1 harmonizes LIGHT_BLUE; the later GREEN K up 1 skips it and lands
    # on DARK_BLUE, and a later step may not move an L out of it (locked at once)
    state = position([{"GREEN": "L K", "LIGHT_BLUE": "L L"}])
    after = state.apply(Channel("U1x2", [Step(GREEN, L, 1, 1), Step(GREEN, K, 1, 1)]))
    assert after.players[0].levels[LIGHT_BLUE] == (L, L, L) and after.players[0].levels[6] == (K,)
    with pytest.raises(IllegalMove, match="harmonized"):
        state.apply(Channel("U1x2", [Step(GREEN, L, 1, 1), Step(LIGHT_BLUE, L, 1, 1)]))


def test_8_notch_token_returns_only_to_the_harmonized_chakra_and_only_once():
    # Tokens in GREEN's and LIGHT_BLUE's notches; harmonizing LIGHT_BLUE returns exactly that one
    state = position(
        [
            {
                "GREEN": "L",
                "LIGHT_BLUE": "L L",
                "NOTCHES": ["GREEN", "LIGHT_BLUE"],
                "RESERVE": 1,
                "SPACES": ["D3", "D1x3"],
            }
        ]
    )
    after = state.apply(Channel("U1_or_D1", [Step(GREEN, L, 1, 1)])).players[0]
    assert after.notches == frozenset({GREEN}) and after.reserve == 1  # -1 for the space, +1 from the notch
    assert "U1_or_D1" in after.spaces


def test_8_harmonizing_without_a_notch_token_returns_nothing():
    state = position([{"GREEN": "L", "LIGHT_BLUE": "L L"}])
    after = state.apply(Channel("U1_or_D1", [Step(GREEN, L, 1, 1)])).players[0]
    assert after.reserve == 4 and after.harmonized(LIGHT_BLUE)


@pytest.mark.parametrize("to_bag", [False, True])
def test_7_7_swap_both_discard_rules(to_bag):
    rules = Rules(swap_discard_to_bag=to_bag)
    state = position([{"EARTH": 2, "BHAGYA": "R"}], bag={"R": 1, "G": 2, "K": 0}, rules=rules)
    colours = [a.bag_colour for a in state.legal_actions() if isinstance(a, Channel) and a.space == "SWAP"]
    assert colours == ([K, R, G] if to_bag else [R, G])  # the discarded black is choosable only when it goes back
    after = state.apply(Channel("SWAP", (), "G"))
    board = after.players[0]
    assert board.earth == 1 and board.levels[BHAGYA] == (R, G) and "SWAP" in board.spaces and board.reserve == 4
    assert after.bag[G] == 1
    assert (after.bag[K], after.removed_blacks) == ((1, 0) if to_bag else (0, 1))
    if to_bag:
        back = state.apply(Channel("SWAP", (), "K")).players[0]
        assert back.levels[BHAGYA] == (K, R) and back.earth == 1


def test_7_7_swap_colour_cap_and_uncapped():
    state = position([{"EARTH": 1, "RED": "G G G"}], bag={"G": 3})
    assert not [a for a in state.legal_actions() if isinstance(a, Channel) and a.space == "SWAP"]
    free = position([{"EARTH": 1, "RED": "G G G"}], bag={"G": 3}, rules=Rules(colour_cap=None))
    assert [a.bag_colour for a in free.legal_actions() if isinstance(a, Channel) and a.space == "SWAP"] == [G]


def test_7_3_1_channel_needs_a_token_and_a_free_space():
    state = position([{"GREEN": "R", "RESERVE": 0}])
    assert not [a for a in state.legal_actions() if isinstance(a, Channel)]
    state = position([{"GREEN": "R", "SPACES": ["U1_or_D1", "U2"]}])
    spaces = {a.space for a in state.legal_actions() if isinstance(a, Channel)}
    assert spaces == {"D3"}


# =========================================================================== §10 Meditate


def test_10_meditate_is_legal_without_tokens_on_spaces_and_keeps_notches():
    state = position([{"RED": "R", "NOTCHES": ["RED"], "MEDITATION": ["GREEN"]}])
    after = state.apply(Meditate(RED)).players[0]
    assert after.reserve == 4 and after.notches == frozenset({RED}) and after.meditation == (RED, GREEN)


def test_10_2_meditate_returns_every_space_token_and_no_notch_token():
    state = position(
        [{"RED": "R", "NOTCHES": ["RED", "GREEN"], "SPACES": ["D3", "SWAP", "U1x2"], "MEDITATION": ["GREEN"]}]
    )
    assert state.players[0].reserve == 0
    after = state.apply(Meditate(RED)).players[0]
    assert after.reserve == 3 and after.spaces == frozenset() and after.notches == frozenset({RED, GREEN})


def test_10_1_none_and_repeat_meditation():
    all7 = position([{"MEDITATION": list(range(1, 8))}])
    assert [a for a in all7.legal_actions() if isinstance(a, Meditate)] == [Meditate(None)]
    assert all7.apply(Meditate(None)).players[0].meditation == tuple(range(1, 8))
    with pytest.raises(IllegalMove):
        all7.apply(Meditate(RED))
    repeat = position([{"MEDITATION": list(range(1, 8))}], rules=Rules(allow_repeat_meditation=True))
    assert [a for a in repeat.legal_actions() if isinstance(a, Meditate)] == [Meditate(c) for c in range(1, 8)]
    with pytest.raises(IllegalMove):
        repeat.apply(Meditate(None))
    again = repeat.apply(Meditate(RED)).players[0].meditation
    assert Counter(again)[RED] == 2  # a multiset under the variant (§3)
    with pytest.raises(IllegalMove):
        position([{}]).apply(Meditate(BLACK))  # there is no black Meditation token


# =========================================================================== §11 end and equal turns


def trigger_position(players, first, trigger_seat):
    """``trigger_seat`` holds 4 harmonized chakras and LIGHT_BLUE: L L; column 0 offers an L."""
    specs = [{} for _ in range(players)]
    specs[trigger_seat] = {"RED": "R R R", "ORANGE": "O O O", "YELLOW": "Y Y Y", "GREEN": "G G G", "LIGHT_BLUE": "L L"}
    return position(specs, num_players=players, maya=["L P", "D D", "P"], first_player=first, to_move=first)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_11_equal_turns_for_every_first_player_and_trigger_seat(players):
    for first in range(players):
        for trigger in range(players):
            state = trigger_position(players, first, trigger)
            seats_played = []
            for _ in range(3 * players):
                if state.is_terminal:
                    break
                seat = state.current_player
                seats_played.append(seat)
                if seat == trigger and not state.end_triggered:
                    state = state.apply(Receive(0, {L}, LIGHT_BLUE))
                    assert state.end_triggered  # §11.1
                else:
                    state = state.apply(next(a for a in state.legal_actions() if isinstance(a, Meditate)))
            assert state.is_terminal
            last = (first - 1) % players
            assert seats_played[-1] == last  # §11.2: the round closes with the seat before the first player
            assert len(set(state.turns)) == 1, (first, trigger, state.turns)
            assert seats_played == [(first + i) % players for i in range(len(seats_played))]
            assert len(seats_played) == players  # the trigger happens in round 1, which is played out


def test_11_trigger_needs_the_active_players_count():
    # end_trigger_harmonized=2: a player with 1 harmonized chakra meditating does not trigger
    state = position([{"RED": "R R R"}, {}], rules=Rules(end_trigger_harmonized=2))
    assert not state.apply(Meditate(RED)).end_triggered
    one = position([{"RED": "R R R"}, {}], rules=Rules(end_trigger_harmonized=1))
    assert one.apply(Meditate(RED)).end_triggered


def test_11_4_max_rounds_counts_complete_rounds_with_any_first_player():
    rules = Rules(max_rounds=2)
    for first in (0, 1, 2):
        state = position([{}, {}, {}], rules=rules, first_player=first, to_move=first)
        moves = 0
        while not state.is_terminal:
            state = state.apply(next(a for a in state.legal_actions() if isinstance(a, Meditate)))
            moves += 1
        assert moves == 6 and state.turns == (2, 2, 2)


# =========================================================================== §12 scoring


def finished(boards, rules=None, plenitude=(1, 2, 3, 1, 2, 4, 3)):
    return position(boards, num_players=len(boards), plenitude=plenitude, rules=rules, finished=True)


def test_12_bonus_min_run_0_and_1():
    # nobody has RED: no bonus by default, everybody +2 with bonus_min_run 0 (§12, §13)
    boards = [{"ORANGE": "O O O"}, {"EARTH": 1}]
    assert finished(boards).scores() == (2, 1)
    assert finished(boards, Rules(bonus_min_run=0)).scores() == (4, 3)
    # with a best run of 1 and bonus_min_run 0 only that player gets it
    boards = [{"RED": "R R R"}, {"ORANGE": "O O O"}]
    assert finished(boards, Rules(bonus_min_run=0)).scores() == (1 + 2, 2)
    assert finished(boards).scores() == (3, 2)
    # bonus_min_run 2: a best run of 1 earns nothing
    assert finished(boards, Rules(bonus_min_run=2)).scores() == (1, 2)


def test_12_ties_share_the_victory_without_tie_breaker():
    # P0: RED ORANGE (1+2+2 bonus) = 5; P1: DARK_BLUE (4) + 1 black = 5; P2: GREEN (1) + 4 blacks = 5
    boards = [{"RED": "R R R", "ORANGE": "O O O"}, {"DARK_BLUE": "D D D", "EARTH": 1}, {"GREEN": "G G G", "EARTH": 4}]
    state = finished(boards)
    assert state.scores() == (5, 5, 5) and state.winners == (0, 1, 2) and state.winner is None
    assert state.returns() == [1 / 3, 1 / 3, 1 / 3]  # the victory shared three ways (contract: 1/k each)


def test_12_bonus_value_and_block_not_from_red():
    boards = [{"RED": "R R R", "ORANGE": "O O O"}, {"ORANGE": "O O O", "YELLOW": "Y Y Y", "GREEN": "G G G"}]
    assert finished(boards, Rules(harmonization_bonus=5)).scores() == (1 + 2 + 5, 2 + 3 + 1)


def test_12_returns_zero_before_the_end_and_winner_none():
    state = position([{"RED": "R R R"}])
    assert state.winners == () and state.winner is None and state.returns() == [0.0, 0.0]


# =========================================================================== §13 parameters


def test_13_inspiration_tokens_limit_actions():
    state = new_game(players=2, seed=1, rules=Rules(inspiration_tokens=1))
    assert state.players[0].reserve == 1
    action = next(a for a in state.legal_actions() if isinstance(a, Receive) and a.destination == RED)
    after = state.apply(action)
    if not after.players[0].harmonized(RED):
        assert after.players[0].reserve == 0


def test_13_rules_defaults_are_the_spec():
    assert Rules() == Rules(
        swap_discard_to_bag=False,
        allow_repeat_meditation=False,
        colour_cap=3,
        bonus_min_run=1,
        inspiration_tokens=5,
        end_trigger_harmonized=5,
        harmonization_bonus=2,
        max_rounds=200,
    )  # spec: None (see Rules)


# =========================================================================== §14.6 observation, §14.7 text


def test_14_6_observation_hides_exactly_the_unknown_values():
    state = position(
        [{"MEDITATION": ["RED", "GREEN"]}, {"MEDITATION": ["PURPLE"]}],
        plenitude=(1, 2, 3, 1, 2, 4, 3),
        unused_plenitude=4,
        maya=["K R", "", ""],
    )
    view = state.observation(0)
    assert list(view["plenitude"].values()) == [1, None, None, 1, None, None, None] and view["unused_plenitude"] is None
    other = state.observation(1)
    assert list(other["plenitude"].values()) == [None] * 6 + [3]
    assert other["players"] == [board.to_dict() for board in state.players]
    assert other["bag"] == {"BLACK": state.bag[0], **{name: n for name, n in zip(COLOUR_NAMES[1:], state.bag[1:])}}
    assert other["maya"] == [[COLOUR_NAMES[c] for c in column] for column in state.maya]
    assert view["plenitude"]["YELLOW"] is None and "seed" not in view and "draws" not in view
    done = position([{}], plenitude=(1, 2, 3, 1, 2, 4, 3), unused_plenitude=4, finished=True).observation(1)
    assert list(done["plenitude"].values()) == [1, 2, 3, 1, 2, 4, 3] and done["unused_plenitude"] == 4


def test_14_7_text_of_actions_exactly_as_the_spec():
    assert str(Receive(0, {K, R}, BHAGYA)) == "Receive c0 {K,R} -> BHAGYA"
    assert (
        str(Channel("D2_D1", [Step(GREEN, Y, -1, 1), Step(GREEN, K, -1, 2)]))
        == "Channel D2_D1: GREEN Y down 1; GREEN K down 2"
    )
    assert str(Channel("SWAP", (), Y)) == "Channel SWAP: take Y"
    assert str(Meditate(PURPLE)) == "Meditate PURPLE"


def test_14_5_illegal_apply_leaves_the_state_unchanged_on_random_boards():
    """§14.5: a random non-listed candidate raises IllegalMove and the state compares equal after."""
    rng = random.Random(5)
    for _ in range(40):
        state = random_state(rng)
        legal = set(state.legal_actions())
        saved = state.to_json()
        for candidate in [Receive(rng.randrange(3), {rng.randrange(8)}, rng.randrange(9)) for _ in range(10)]:
            if candidate not in legal:
                with pytest.raises(IllegalMove):
                    state.apply(candidate)
        assert state.to_json() == saved


def test_14_4_next_steps_are_the_completable_prefixes_of_the_reference():
    from gamelib.chakra import next_steps

    rng = random.Random(13)
    for _ in range(40):
        state = random_state(rng)
        reference = ref_channel_actions(state)
        for space in PATTERNS:
            mine = [a.steps for a in reference if a.space == space]
            assert next_steps(state, space) == sorted({steps[0] for steps in mine})
            for first in {steps[0] for steps in mine}:
                following = sorted({steps[1] for steps in mine if steps[0] == first and len(steps) > 1})
                assert next_steps(state, space, [first]) == following
