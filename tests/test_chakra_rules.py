"""Chakra rules: every test vector of spec §15, citing it, plus setup, turns and the §14 contract."""

import json
from collections import Counter
from fractions import Fraction

import pytest

from gamelib import CHANCE, IllegalMove
from gamelib.chakra import (
    BHAGYA,
    BLACK,
    COLOUR_NAMES,
    DARK_BLUE,
    DOWN,
    EARTH,
    GREEN,
    LIGHT_BLUE,
    ORANGE,
    PURPLE,
    RED,
    UP,
    YELLOW,
    Channel,
    Meditate,
    Receive,
    Rules,
    Step,
    final_scores,
    new_game,
    position,
    run_length,
    winners,
)
from gamelib.chakra.actions import walk

K, R, O, Y, G, L, D, P = range(8)  # noqa: E741 - the colour letters of chakra.md (O is orange)
WORKED_PLENITUDE = {"RED": 1, "ORANGE": 2, "YELLOW": 3, "GREEN": 1, "LIGHT_BLUE": 2, "DARK_BLUE": 4, "PURPLE": 3}


def by_space(actions):
    return Counter(a.space for a in actions if isinstance(a, Channel))


def receives(state):
    return [a for a in state.legal_actions() if isinstance(a, Receive)]


def colour_sets(state, column):
    return {tuple(sorted(a.colours)) for a in receives(state) if a.column == column}


# --------------------------------------------------------------------------- §15.1 worked example


def test_15_1_worked_example_scores_14_to_12():
    players = [
        {"harmonized": {"ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE"}, "earth": 2},
        {"harmonized": {"RED", "ORANGE", "YELLOW", "DARK_BLUE"}, "earth": 0},
    ]
    assert final_scores(WORKED_PLENITUDE, players) == [14, 12]  # §15.1
    assert final_scores({**WORKED_PLENITUDE, "PURPLE": 4}, players) == [14, 12]  # PURPLE's token does not matter
    assert winners([14, 12]) == (0,)


def test_15_1_from_a_finished_state_and_blacks_outside_the_earth_score_nothing():
    p1 = {
        "ORANGE": "O O O",
        "YELLOW": "Y Y Y",
        "GREEN": "G G G",
        "LIGHT_BLUE": "L L L",
        "DARK_BLUE": "D D D",
        "EARTH": 2,
    }
    p2 = {"RED": "R R R", "ORANGE": "O O O", "YELLOW": "Y Y Y", "DARK_BLUE": "D D D", "GREEN": "G G K"}
    state = position([p1, p2], plenitude=(1, 2, 3, 1, 2, 4, 3), finished=True)
    assert state.scores() == (14, 12)  # §15.1, with P2's GREEN: G G K (blacks off the Earth score 0)
    assert state.winners == (0,) and state.winner == 0
    assert state.scores() == (14, 12) and state.returns() == [1.0, 0.0]
    assert [board.run() for board in state.players] == [0, 3]


# --------------------------------------------------------------------------- §15.2 runs, bonus, ties


def test_15_2_runs():
    assert run_length({"RED", "ORANGE", "GREEN"}) == 2
    assert run_length({"ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE"}) == 0
    assert run_length(set(WORKED_PLENITUDE)) == 7


def test_15_2_bonus_to_every_player_with_the_best_run():
    three = {"RED", "ORANGE", "YELLOW"}
    players = [
        {"harmonized": three, "earth": 0},
        {"harmonized": three, "earth": 0},
        {"harmonized": {"RED"}, "earth": 0},
    ]
    assert final_scores(WORKED_PLENITUDE, players) == [6 + 2, 6 + 2, 1]  # §15.2 runs (3, 3, 1)


def test_15_2_no_bonus_when_nobody_has_red_unless_bonus_min_run_is_0():
    players = [{"harmonized": {"ORANGE"}, "earth": 0}, {"harmonized": set(), "earth": 1}]
    assert final_scores(WORKED_PLENITUDE, players) == [2, 1]  # §15.2 runs (0, 0): nobody
    assert final_scores(WORKED_PLENITUDE, players, Rules(bonus_min_run=0)) == [4, 3]  # literal reading: both


def test_15_2_tie_at_5_both_win():
    players = [{"harmonized": {"RED", "ORANGE"}, "earth": 0}, {"harmonized": {"DARK_BLUE"}, "earth": 1}]
    scores = final_scores(WORKED_PLENITUDE, players)
    assert scores == [5, 5]  # §15.2: 1+2+2 and 4+1
    assert winners(scores) == (0, 1)


def test_12_bonus_value_is_a_parameter():
    players = [{"harmonized": {"RED"}, "earth": 0}, {"harmonized": set(), "earth": 0}]
    assert final_scores(WORKED_PLENITUDE, players, Rules(harmonization_bonus=5)) == [6, 0]


# --------------------------------------------------------------------------- §15.3 single steps


def land(board, level, colour, direction, distance):
    state = position([board])
    return walk(state.players[0].levels, level, colour, direction, distance)


@pytest.mark.parametrize(
    "board, step, expected",
    [
        ({"YELLOW": "Y Y Y", "GREEN": "K"}, (GREEN, K, DOWN, 1), ORANGE),  # M1: YELLOW skipped
        ({"YELLOW": "Y Y Y", "GREEN": "K"}, (GREEN, K, DOWN, 2), RED),  # M2
        ({"YELLOW": "Y Y Y", "GREEN": "K"}, (GREEN, K, DOWN, 3), EARTH),  # M2
        ({"RED": "K"}, (RED, K, DOWN, 1), EARTH),  # M3
        ({"ORANGE": "K"}, (ORANGE, K, DOWN, 2), EARTH),  # M4
        ({"LIGHT_BLUE": "R", "DARK_BLUE": "D D D"}, (LIGHT_BLUE, R, UP, 1), PURPLE),  # M10
        ({"BHAGYA": "R"}, (BHAGYA, R, DOWN, 1), PURPLE),  # M11
        ({"BHAGYA": "R", "PURPLE": "P P P"}, (BHAGYA, R, DOWN, 1), DARK_BLUE),  # M12
    ],
)
def test_15_3_legal_single_steps(board, step, expected):
    assert land(board, *step) == (expected, None)


@pytest.mark.parametrize(
    "board, step, reason",
    [
        ({"RED": "K"}, (RED, K, DOWN, 2), "the black energy would overshoot the Earth"),  # M3
        ({"ORANGE": "K"}, (ORANGE, K, DOWN, 3), "the black energy would overshoot the Earth"),  # M4
        ({"ORANGE": "K", "RED": "R G K"}, (ORANGE, K, DOWN, 2), "the red chakra is full"),  # M5
        ({"RED": "R"}, (RED, R, DOWN, 1), "only black energy can enter the Earth"),  # M6
        ({"ORANGE": "G", "RED": "R R R"}, (ORANGE, G, DOWN, 1), "only black energy can enter the Earth"),  # M7
        ({"GREEN": "R", "YELLOW": "R K Y"}, (GREEN, R, DOWN, 1), "the yellow chakra is full"),  # M8 reached
        ({"GREEN": "R", "YELLOW": "R K Y"}, (GREEN, R, DOWN, 2), "the yellow chakra is full"),  # M8 crossed
        ({"PURPLE": "R", "DARK_BLUE": "G"}, (PURPLE, R, UP, 1), "nothing can move into the Bhagya"),  # M9
        ({"PURPLE": "R", "DARK_BLUE": "G"}, (DARK_BLUE, G, UP, 2), "nothing can move into the Bhagya"),  # M9
        ({"LIGHT_BLUE": "R", "DARK_BLUE": "D D D"}, (LIGHT_BLUE, R, UP, 2), "nothing can move into the Bhagya"),  # M10
        ({"BHAGYA": "R"}, (BHAGYA, R, UP, 1), "nothing can move into the Bhagya"),  # M11
    ],
)
def test_15_3_illegal_single_steps(board, step, reason):
    assert land(board, *step) == (-1, reason)


def test_15_3_single_steps_through_apply():
    # M1 through a real action: U1_or_D1 moves one energy down 1
    state = position([{"YELLOW": "Y Y Y", "GREEN": "K"}])
    after = state.apply(Channel("U1_or_D1", [Step(GREEN, K, DOWN, 1)]))
    assert after.players[0].levels[ORANGE] == (K,) and after.players[0].levels[GREEN] == ()
    # M2 down 3 with D3: into the Earth, alleviated (§7.6)
    after = state.apply(Channel("D3", [Step(GREEN, K, DOWN, 3)]))
    assert after.players[0].earth == 1
    # M4: D3 cannot use ORANGE K (overshoot)
    state = position([{"ORANGE": "K"}])
    assert not any(a.space == "D3" for a in state.legal_actions() if isinstance(a, Channel))
    with pytest.raises(IllegalMove, match="overshoot"):
        state.apply(Channel("D3", [Step(ORANGE, K, DOWN, 3)]))


def test_15_3_m13_locked_energies():
    state = position([{"YELLOW": "Y Y Y", "EARTH": 1}])
    with pytest.raises(IllegalMove, match="energies of a harmonized chakra cannot move"):
        state.apply(Channel("U1_or_D1", [Step(YELLOW, Y, DOWN, 1)]))
    with pytest.raises(IllegalMove, match="energies in the Earth cannot move"):
        state.apply(Channel("U1_or_D1", [Step(EARTH, K, UP, 1)]))
    moving = [a for a in state.legal_actions() if isinstance(a, Channel) and a.steps]
    assert moving == []  # M13: nothing on this board may move; only SWAP remains among Channel actions


# --------------------------------------------------------------------------- §15.4 Channel actions


def test_15_4_c1_counts_by_space():
    state = position([{"GREEN": "R", "YELLOW": "O", "EARTH": 2}])
    assert all(state.bag)  # every colour in the bag
    counts = by_space(state.legal_actions())
    expected = {"D3": 1, "D2_D1": 4, "U2": 2, "U1x2": 2, "D1_U1": 4, "U1_or_D1": 4, "SWAP": 8}  # §15.4 C1
    assert dict(counts) == expected
    assert sum(counts.values()) == 25
    (d3,) = [a for a in state.legal_actions() if isinstance(a, Channel) and a.space == "D3"]
    assert d3.steps == (Step(GREEN, R, DOWN, 3),)  # lands on RED; YELLOW O down 3 would enter the Earth


def test_15_4_c2_one_energy():
    state = position([{"GREEN": "R"}])
    channel = [a for a in state.legal_actions() if isinstance(a, Channel)]
    assert dict(by_space(channel)) == {"D3": 1, "U2": 1, "U1_or_D1": 2}  # §15.4 C2
    after = {a.space + str(a.steps[0].direction): state.apply(a).players[0] for a in channel}
    assert after["D3-1"].levels[RED] == (R,)
    assert after["U21"].levels[DARK_BLUE] == (R,)
    assert after["U1_or_D11"].levels[LIGHT_BLUE] == (R,) and after["U1_or_D1-1"].levels[YELLOW] == (R,)


def test_15_4_c3_order_and_mid_action_harmonization():
    state = position([{"GREEN": "Y K", "YELLOW": "Y Y", "NOTCHES": ["YELLOW"]}])
    reserve = state.players[0].reserve
    first = state.apply(Channel("D2_D1", [Step(GREEN, Y, DOWN, 1), Step(GREEN, K, DOWN, 2)])).players[0]
    assert first.harmonized(YELLOW) and first.levels[RED] == (K,)  # K skips YELLOW, lands on RED
    assert first.reserve == reserve and YELLOW not in first.notches  # notch token back at once
    second = state.apply(Channel("D2_D1", [Step(GREEN, K, DOWN, 2), Step(GREEN, Y, DOWN, 1)])).players[0]
    assert second.levels[ORANGE] == (K,) and second.harmonized(YELLOW)  # K crosses YELLOW (one space free)
    with pytest.raises(IllegalMove, match="the yellow chakra is full"):
        state.apply(Channel("D2_D1", [Step(GREEN, K, DOWN, 1), Step(GREEN, Y, DOWN, 2)]))
    assert by_space(state.legal_actions())["D2_D1"] == 12  # §15.4 C3


def test_15_4_c4_swap():
    board = {"BHAGYA": "R K", "YELLOW": "Y Y Y", "EARTH": 1}
    state = position([board], bag={"Y": 2, "K": 1})
    swaps = [a for a in state.legal_actions() if isinstance(a, Channel) and a.space == "SWAP"]
    assert swaps == [Channel("SWAP", (), BLACK)]  # yellow is capped
    after = state.apply(swaps[0])
    assert after.players[0].earth == 0
    assert sorted(after.players[0].levels[BHAGYA]) == [K, K, R]
    assert after.bag[Y] == 2 and after.bag[K] == 0 and after.removed_blacks == 1
    variant = Rules(swap_discard_to_bag=True)
    after = position([board], bag={"Y": 2, "K": 1}, rules=variant).apply(Channel("SWAP", (), "K"))
    assert after.bag[K] == 1 and after.bag[Y] == 2 and after.removed_blacks == 0  # {Y:2, K:2} at the choice
    only_yellow = position([board], bag={"Y": 2})
    assert not [a for a in only_yellow.legal_actions() if getattr(a, "space", None) == "SWAP"]
    with_variant = position([board], bag={"Y": 2}, rules=variant)
    assert [a for a in with_variant.legal_actions() if getattr(a, "space", None) == "SWAP"] == [
        Channel("SWAP", (), "K")
    ]
    no_earth = position([{**board, "EARTH": 0}], bag={"Y": 2, "K": 1})
    full_bhagya = position([{**board, "BHAGYA": "R K G"}], bag={"Y": 2, "K": 1})
    for state in (no_earth, full_bhagya):
        assert not [a for a in state.legal_actions() if getattr(a, "space", None) == "SWAP"]


# --------------------------------------------------------------------------- §15.5 Receive


def test_15_5_r1_to_r3_colour_sets():
    assert colour_sets(position([{}], maya=["K R K", "", ""]), 0) == {(K,), (K, R)}  # R1
    assert colour_sets(position([{}], maya=["K R Y", "", ""]), 0) == {(K,), (K, R), (K, Y), (K, R, Y)}  # R2
    assert colour_sets(position([{}], maya=["R R Y", "", ""]), 0) == {(R,), (Y,), (R, Y)}  # R3


def test_15_5_r4_colour_cap_and_black_exemption():
    state = position([{"YELLOW": "Y Y Y"}], maya=["K Y G", "Y Y Y", ""], num_players=3)
    assert colour_sets(state, 0) == {(K,), (K, G)} and colour_sets(state, 1) == set()  # R4
    many_blacks = position([{"BHAGYA": "K K", "RED": "K K"}], maya=["K", "", ""])
    assert colour_sets(many_blacks, 0) == {(K,)}
    many_blacks.apply(Receive(0, {K}, BHAGYA))  # 4 blacks on the board: still allowed


def test_15_5_r4_uncapped_variant():
    state = position([{"YELLOW": "Y Y Y"}], maya=["K Y G", "", ""], rules=Rules(colour_cap=None))
    assert colour_sets(state, 0) == {(K,), (K, Y), (K, G), (K, Y, G)}


def test_15_5_r5_fresh_game_118_actions():
    state = position([{"MEDITATION": ["RED"]}, {}], maya=["K R Y", "G G L", "O P D"])
    actions = state.legal_actions()
    kinds = Counter(type(a).__name__ for a in actions)
    assert kinds == {"Receive": 112, "Meditate": 6}  # §15.5 R5: 14 sets x 8 destinations, 0 Channel
    assert len(actions) == 118


def test_15_5_r6_49_receives():
    board = {"BHAGYA": "R K", "ORANGE": "O O K", "YELLOW": "Y Y Y", "GREEN": "G K", "RESERVE": 1, "NOTCHES": ["GREEN"]}
    state = position([board], maya=["K Y G", "R R K", "P D L"])
    by_column = Counter(a.column for a in receives(state))
    assert by_column == {0: 9, 1: 9, 2: 31}  # §15.5 R6
    assert sum(by_column.values()) == 49
    column0 = {(tuple(sorted(a.colours)), a.destination) for a in receives(state) if a.column == 0}
    assert column0 == {((K,), d) for d in (BHAGYA, RED, LIGHT_BLUE, DARK_BLUE, PURPLE)} | {
        ((K, G), d) for d in (RED, LIGHT_BLUE, DARK_BLUE, PURPLE)
    }


def test_15_5_r7_direct_harmonization_costs_no_token_but_needs_one():
    state = position([{"YELLOW": "Y Y", "RESERVE": 1}], maya=["Y", "", ""])
    after = state.apply(Receive(0, {Y}, YELLOW)).players[0]
    assert after.harmonized(YELLOW) and after.reserve == 1 and not after.notches  # §15.5 R7
    broke = position([{"YELLOW": "Y Y", "RESERVE": 0}], maya=["Y", "", ""])
    with pytest.raises(IllegalMove, match="no Inspiration token in reserve"):
        broke.apply(Receive(0, {Y}, YELLOW))


def test_15_5_r8_refill_with_an_almost_empty_bag():
    state = position([{}], maya=["R O Y", "G L D", "P K R"], bag={"Y": 1})
    after = state.apply(Receive(1, {G, L}, BHAGYA))
    assert [len(c) for c in after.maya] == [3, 2, 3] and sum(after.bag) == 0  # §15.5 R8
    # later a column emptied by a take stays empty and offers no Receive
    later = after.apply(Meditate(RED))
    later = later.apply(Receive(1, set(later.maya[1]), PURPLE))
    assert later.maya[1] == ()
    for state in (later, later.apply(Meditate(ORANGE))):  # seat 1, then seat 0 again
        assert not [a for a in receives(state) if a.column == 1]
        with pytest.raises(IllegalMove, match="Maya column 1 is empty"):
            state.apply(Receive(1, {R}, RED))


# --------------------------------------------------------------------------- §15.6 Meditate, turns, end


def test_15_6_t1_meditate_returns_space_tokens_only():
    state = position([{"SPACES": ["D3", "U2", "SWAP"], "NOTCHES": ["GREEN", "RED"]}])
    assert state.players[0].reserve == 0
    after = state.apply(Meditate(PURPLE)).players[0]
    assert after.reserve == 3 and not after.spaces and after.notches == {GREEN, RED}  # §15.6 T1
    assert PURPLE in after.meditation


def test_15_6_t2_meditate_choices():
    def meditations(state):
        return [a for a in state.legal_actions() if isinstance(a, Meditate)]

    assert len(meditations(position([{"MEDITATION": ["RED"]}]))) == 6  # §15.6 T2
    assert len(meditations(position([{"MEDITATION": ["RED"]}], rules=Rules(allow_repeat_meditation=True)))) == 7
    everything = position([{"MEDITATION": ["RED", "ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE", "PURPLE"]}])
    assert meditations(everything) == [Meditate(None)]


FOUR_HARMONIZED = {
    "RED": "R R R",
    "ORANGE": "O O O",
    "YELLOW": "Y Y Y",
    "GREEN": "G G G",
    "LIGHT_BLUE": "L L",
    "DARK_BLUE": "L",
}
FIFTH = Channel("U1_or_D1", [Step(DARK_BLUE, L, DOWN, 1)])


def test_15_6_t3_seat_1_triggers_seat_2_still_plays():
    state = position([{}, FOUR_HARMONIZED, {}], to_move=1, turns=(6, 5, 5))
    state = state.apply(FIFTH)  # seat 1 ends its 6th turn with 5 harmonized chakras
    assert state.end_triggered and not state.is_terminal and state.current_player == 2
    state = state.apply(Meditate(RED))
    assert state.is_terminal and state.turns == (6, 6, 6)  # §15.6 T3: 6 turns each


def test_15_6_t3_last_seat_triggers_game_ends_at_once():
    state = position([{}, {}, FOUR_HARMONIZED], to_move=2, turns=(6, 6, 5)).apply(FIFTH)
    assert state.is_terminal and state.turns == (6, 6, 6)


def test_15_6_t3_first_seat_triggers_the_others_still_play():
    state = position([FOUR_HARMONIZED, {}, {}], to_move=0, turns=(5, 5, 5)).apply(FIFTH)
    assert state.end_triggered and state.current_player == 1
    state = state.apply(Meditate(RED))
    assert not state.is_terminal and state.current_player == 2
    state = state.apply(Meditate(RED))
    assert state.is_terminal and state.turns == (6, 6, 6)


def test_11_end_trigger_never_clears_and_first_player_defines_the_round():
    # first player 1 in 3 players: the round closes with seat 0
    state = position([{}, FOUR_HARMONIZED, {}], to_move=1, first_player=1, turns=(5, 5, 5)).apply(FIFTH)
    for seat in (2, 0):
        assert state.end_triggered and state.current_player == seat
        state = state.apply(Meditate(RED))
    assert state.is_terminal and state.turns == (6, 6, 6)


def test_11_4_max_rounds_safeguard():
    state = new_game(players=2, seed=3, rules=Rules(max_rounds=2))
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[-1])  # always Meditate
    assert state.turns == (2, 2) and not state.end_triggered
    assert len(state.scores()) == 2


def test_15_6_t4_only_meditate_when_bhagya_full_and_no_token():
    state = position([{"BHAGYA": "R O Y", "GREEN": "K", "RESERVE": 0}], maya=["K R", "G", "P"])
    actions = state.legal_actions()
    assert actions and all(isinstance(a, Meditate) for a in actions)  # §15.6 T4
    assert len(actions) == 7


# --------------------------------------------------------------------------- setup (§4) and chance (§6.4)


def test_4_setup():
    for players in (2, 3, 4):
        state = new_game(players=players, seed=11)
        assert sum(state.bag) + sum(len(c) for c in state.maya) == 24 * players  # §2: 3 per colour per player
        assert all(len(c) == 3 for c in state.maya)
        assert sorted(state.plenitude + (state.unused_plenitude,)) == [1, 1, 2, 2, 3, 3, 4, 4]
        for board in state.players:
            assert board.reserve == 5 and len(board.meditation) == 1 and board.meditation[0] in range(1, 8)
            assert not board.spaces and not board.notches and board.earth == 0
        assert state.current_player == 0


def test_4_same_seed_same_game_and_seeds_differ():
    a, b = new_game(players=3, seed=42), new_game(players=3, seed=42)
    assert a == b
    for _ in range(12):
        action = a.legal_actions()[len(a.legal_actions()) // 3]
        a, b = a.apply(action), b.apply(action)
    assert a == b
    setups = {(s.plenitude, s.maya) for s in (new_game(players=2, seed=i) for i in range(20))}
    assert len(setups) == 20


def test_4_first_player_argument_and_validation():
    state = new_game(players=4, seed=1, first_player=2)
    assert state.current_player == 2 and state.last_seat == 1
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(players=5)
    with pytest.raises(ValueError, match="first_player"):
        new_game(players=2, first_player=2)


def test_4_plenitude_draws_are_uniform_over_token_orders():
    # every setup draw has weight proportional to the counts left (§4): over many seeds each value
    # lands on RED with frequency 1/4 (exactly 2 of 8 tokens carry each value)
    counts = Counter(new_game(players=2, seed=s).plenitude[0] for s in range(2000))
    for value in (1, 2, 3, 4):
        assert 400 < counts[value] < 600


def test_6_4_refill_chance_nodes_have_exact_weights():
    state = new_game(players=2, seed=5, explicit_chance=True)
    bag_before = state.bag
    state = state.apply(Receive(0, set(state.maya[0]) if 0 not in state.maya[0] else {0}, BHAGYA))
    assert state.current_player == CHANCE and state.legal_actions() == []
    # brute force: one outcome per energy in the bag, each equally likely
    energies = [c for c, n in enumerate(state.bag) for _ in range(n)]
    brute = {c: Fraction(energies.count(c), len(energies)) for c in set(energies)}
    assert dict(state.chance_outcomes()) == brute
    assert state.bag == bag_before
    while state.current_player == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    assert all(len(c) == 3 for c in state.maya) and state.current_player == 1


def test_6_4_refill_outcome_must_be_in_the_bag():
    state = position([{}], maya=["R O Y", "G L D", "P K R"], bag={"Y": 1}, explicit_chance=True)
    state = state.apply(Receive(0, {R}, BHAGYA))
    assert state.chance_outcomes() == [(Y, Fraction(1))]
    with pytest.raises(IllegalMove, match="refill is pending"):
        state.apply(R)
    with pytest.raises(IllegalMove, match="refill is pending"):
        state.apply(Meditate(RED))
    assert state.apply(Y).maya[0] == (O, Y, Y)


def test_6_4_two_draw_refill_matches_brute_force_over_ordered_draws():
    """The chance tree of a two-energy refill gives each resulting column the probability of
    drawing that pair from the bag without replacement (brute force over ordered pairs)."""
    from itertools import permutations

    bag = {"R": 2, "Y": 1, "K": 3}
    state = position([{}], maya=["R O Y", "G L D", "P K R"], bag=bag, explicit_chance=True)
    state = state.apply(Receive(0, {R, O}, BHAGYA))
    tree = Counter()

    def explore(node, probability):
        if node.current_player != CHANCE:
            tree[node.maya[0]] += probability
            return
        for colour, p in node.chance_outcomes():
            explore(node.apply(colour), probability * p)

    explore(state, Fraction(1))
    energies = [R, R, Y, K, K, K]
    pairs = list(permutations(range(len(energies)), 2))
    brute = Counter()
    for i, j in pairs:
        brute[tuple(sorted((Y, energies[i], energies[j])))] += Fraction(1, len(pairs))
    assert tree == brute and sum(tree.values()) == 1


# --------------------------------------------------------------------------- §14 contract


def test_14_3_order_is_deterministic_and_as_specified():
    state = position(
        [{"GREEN": "R", "YELLOW": "O", "EARTH": 2, "MEDITATION": ["GREEN"]}], maya=["K R Y", "G G L", "O P D"]
    )
    actions = state.legal_actions()
    assert len(actions) == len(set(actions))  # §14.1 each exactly once
    kinds = [type(a).__name__ for a in actions]
    assert kinds == sorted(kinds, key=["Receive", "Channel", "Meditate"].index)
    rec = [a for a in actions if isinstance(a, Receive)]
    order = [BHAGYA, 7, 6, 5, 4, 3, 2, 1]
    keys = [(a.column, len(a.colours), tuple(sorted(a.colours)), order.index(a.destination)) for a in rec]
    assert keys == sorted(keys)
    chan = [a for a in actions if isinstance(a, Channel)]
    spaces = ["D3", "D1x3", "D2_D1", "U2", "U1x2", "D1_U1", "U1_or_D1", "SWAP"]
    keys = [(spaces.index(a.space), a.steps, -1 if a.bag_colour is None else a.bag_colour) for a in chan]
    assert keys == sorted(keys)
    med = [a.colour for a in actions if isinstance(a, Meditate)]
    assert med == [1, 2, 3, 5, 6, 7]


def test_14_4_next_steps_and_completions():
    from gamelib.chakra import completions, next_steps

    state = position([{"GREEN": "Y K", "YELLOW": "Y Y", "NOTCHES": ["YELLOW"]}])
    first = next_steps(state, "D2_D1")
    assert first == sorted({a.steps[0] for a in completions(state, "D2_D1")}) and Step(GREEN, K, DOWN, 1) in first
    # after GREEN K down 1 the only completions never move GREEN Y down 2 (YELLOW is then full, §15.4 C3)
    after_k = next_steps(state, "D2_D1", [Step(GREEN, K, DOWN, 1)])
    assert Step(GREEN, Y, DOWN, 2) not in after_k
    after_y = next_steps(state, "D2_D1", [Step(GREEN, Y, DOWN, 1)])
    assert Step(GREEN, K, DOWN, 2) in after_y
    assert all(state.apply(a) for a in completions(state, "D2_D1"))
    assert len(completions(state, "D2_D1")) == 12
    assert next_steps(state, "bga:3") == first  # BGA's number 3 is D2_D1 (§7.1)
    assert completions(state, "D2_D1", [Step(GREEN, Y, DOWN, 1), Step(GREEN, K, DOWN, 2)]) == [
        Channel("D2_D1", [Step(GREEN, Y, DOWN, 1), Step(GREEN, K, DOWN, 2)])
    ]


def test_7_1_space_aliases():
    from gamelib.chakra import space_id

    assert space_id("help:3") == space_id("bga:1") == "D3"
    assert space_id("help:1") == space_id("bga:2") == "D1x3"
    assert space_id("help:2") == space_id("bga:3") == "D2_D1"
    assert Channel("bga:8", (), "K") == Channel("SWAP", (), BLACK)
    with pytest.raises(IllegalMove, match="no channel space"):
        space_id("3")  # bare numbers are ambiguous between the two numberings


def test_14_7_text_of_actions():
    assert str(Receive(0, {"K", "R"}, "BHAGYA")) == "Receive c0 {K,R} -> BHAGYA"
    assert (
        str(Channel("D2_D1", [Step(GREEN, Y, DOWN, 1), Step(GREEN, K, DOWN, 2)]))
        == "Channel D2_D1: GREEN Y down 1; GREEN K down 2"
    )
    assert str(Channel("SWAP", (), "Y")) == "Channel SWAP: take Y"
    assert str(Meditate(PURPLE)) == "Meditate PURPLE"


def test_14_6_observation_hides_unknown_plenitude():
    state = new_game(players=3, seed=8)
    for seat in range(3):
        view = state.observation(seat)
        known = set(state.players[seat].meditation)
        for level in range(1, 8):
            assert view["plenitude"][COLOUR_NAMES[level]] == (state.plenitude[level - 1] if level in known else None)
        assert view["unused_plenitude"] is None and "seed" not in view
        assert view["players"] == [board.to_dict() for board in state.players]
        text = json.dumps(view)
        assert str(state.unused_plenitude) not in text.split('"unused_plenitude":')[1][:6]
    finished = position([{}, {}], finished=True)
    assert tuple(finished.observation(0)["plenitude"].values()) == finished.plenitude  # all shown at the end


def test_text_board_mentions_the_track():
    text = str(position([{"GREEN": "Y K", "EARTH": 2, "NOTCHES": ["GREEN"]}], maya=["K R Y", "", ""]))
    assert "GREEN      Y K ." in text.replace("K Y .", "Y K .") or "GREEN      K Y ." in text
    assert "EARTH      2" in text and "notch token" in text and "column 0 [K R Y]" in text
