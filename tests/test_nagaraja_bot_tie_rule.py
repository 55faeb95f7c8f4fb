"""The heuristic bot plays the tie rule of the game it is in (issue 13): ``Rules.tie_rule``."""

import random

from gamelib.nagaraja import Rules
from gamelib.nagaraja.actions import Pass, UseNaga
from gamelib.nagaraja.bots import heuristic_policy
from nagaraja_support import make_state

OPPONENT_TIES = Rules(tie_rule="opponent")


def tied_confrontation(**changes):
    """P0 is the guide and acts; 3 points each (brown 3 + a white Naga against brown 3); P0 holds
    STK-01, whose Naga effect PLUS2 adds 2 points (nagaraja.md#winning-the-room: the guide wins ties)."""
    return make_state(
        guide=0,
        to_act=0,
        hands=(("STK-01",), ()),
        held_sticks=([("B01", 3, 0), ("W01", 0, 1)], [("B02", 3, 0)]),
        **changes,
    )


def test_a_guide_that_wins_ties_keeps_its_naga_on_a_tie():
    state = tied_confrontation()
    assert state.total(0) == state.total(1) == 3
    assert heuristic_policy(state, random.Random(0)) == Pass(0)  # the tie already wins: PLUS2 would be wasted


def test_a_guide_that_loses_ties_spends_its_naga_to_break_the_tie():
    state = tied_confrontation(rules=OPPONENT_TIES)
    choice = heuristic_policy(state, random.Random(0))
    assert isinstance(choice, UseNaga) and choice.card == "STK-01"
    after = state.apply(choice)
    assert after.room_winner == 0  # 5 beats 3: the room is won under either rule


HAND = ("STK-02", "ROM-02", "STK-06", "CRD-11", "STK-09")
OTHER_HAND = ("ROM-09", "REL-03", "CRD-01", "REL-01", "ROM-11")


def call_of_fate(**changes):
    """P0 is the guide and commits first; the bot assumes the other player answers with 2 cards."""
    return make_state(phase="CALL_OF_FATE", to_act=0, guide=0, hands=(HAND, OTHER_HAND), **changes)


def test_the_guide_commits_by_the_chance_the_tie_rule_gives_it():
    from gamelib.nagaraja.actions import Commit
    from gamelib.nagaraja.analysis import commitment_table
    from gamelib.nagaraja.bots import WIN_TARGET

    with_ties = commitment_table(HAND, 2, True, seen=call_of_fate().discard_pile)
    without = commitment_table(HAND, 2, False, seen=call_of_fate().discard_pile)
    # the bot's rule: the fewest cards reaching WIN_TARGET, else its weakest single card
    reaching = [row for row in with_ties if row.p_win >= WIN_TARGET]
    assert reaching and not [row for row in without if row.p_win >= WIN_TARGET]
    cheapest = min(reaching, key=lambda row: (len(row.cards), -row.p_win)).cards
    assert heuristic_policy(call_of_fate(), random.Random(0)) == Commit(0, cheapest)
    thrown = heuristic_policy(call_of_fate(rules=OPPONENT_TIES), random.Random(0))
    assert isinstance(thrown, Commit) and len(thrown.cards) == 1 and thrown.cards != cheapest
