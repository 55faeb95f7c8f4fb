"""Commitment analysis and cursed-relic risk against brute-force enumeration (spec 8.3, 9.3, 10)."""

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from gamelib.nagaraja import analysis
from gamelib.nagaraja.bots import random_policy
from nagaraja_support import play_game
from gamelib.nagaraja.edition import default_edition

ED = default_edition()


def only_unseen(*cards):
    """`seen` that leaves exactly these cards possible for the opponent."""
    return [c for c in ED.cards if c not in cards]


def test_two_brown_against_two_brown():  # spec 9.3: 93/256, 35/128, 93/256 (the first-guide throw)
    seen = only_unseen("REL-05")  # the opponent can only hold BB
    as_guide = analysis.commitment_table(["STK-05"], 1, True, seen=seen)
    as_other = analysis.commitment_table(["STK-05"], 1, False, seen=seen)
    assert as_other[0].p_win == Fraction(93, 256) and as_other[0].p_tie == Fraction(35, 128)
    assert as_guide[0].p_win == Fraction(93, 256) + Fraction(35, 128)
    assert analysis.tie_rule_value(["STK-05"], 1, seen=seen) == {("STK-05",): Fraction(35, 128)}


def test_rules_text_raw_throw():  # spec 9.3: 3 white vs 3B+1W+1G, guide 35/4096, non-guide 71/32768
    seen = only_unseen("REL-02", "REL-05")  # two cards of one symbol giving 3B + 1W + 1G
    assert analysis.opponent_pools(2, analysis.unseen_cards(ED, ["STK-03"], seen)) == {(3, 1, 1): 1}
    assert analysis.commitment_table(["STK-03"], 2, True, seen=seen)[0].p_win == Fraction(35, 4096)
    assert analysis.commitment_table(["STK-03"], 2, False, seen=seen)[0].p_win == Fraction(71, 32768)


def test_opponent_model_counts_one_symbol_sets():
    unseen = analysis.unseen_cards(ED, ["STK-01", "STK-02", "REL-03"])
    pools = analysis.opponent_pools(2, unseen)
    assert sum(pools.values()) == comb(10, 2) + comb(11, 2) + 2 * comb(12, 2)
    assert sum(analysis.opponent_pools(1, unseen).values()) == 45


@pytest.mark.parametrize(
    "hand, count, guide, left",
    [
        (["STK-09", "STK-11", "REL-12"], 1, False, None),
        (["STK-09", "STK-11", "REL-12"], 1, True, None),
        (["CRD-07", "CRD-12", "STK-03"], 2, True, ("REL-07", "REL-12", "REL-09", "ROM-11", "ROM-05", "ROM-09")),
    ],
)
def test_commitment_table_matches_brute_force(hand, count, guide, left):
    seen = only_unseen(*left) if left else ()
    table = analysis.commitment_table(hand, count, guide, seen=seen)
    assert len(table) == len({row.cards for row in table})
    for row in table:
        assert row.p_win == analysis.brute_force_win(row.cards, count, guide, hand, seen=seen), row


def test_naive_method_agrees():
    hand = ["STK-01", "STK-05", "REL-03", "REL-11", "CRD-09"]
    fast = {row.cards: row.p_win for row in analysis.commitment_table(hand, 2, True)}
    assert fast == analysis.naive_commitment_table(hand, 2, True)
    assert max(fast, key=fast.get) == ("STK-01", "STK-05")  # 4 brown + 1 white is the strongest set


def cursed_oracle(obs, owner, spots=None):
    """Enumerate every placement of the unknown cursed relics over the unknown spots (equally likely)."""
    relics = obs["players"][owner]["temple"]["relics"]
    unknown = [s for s, r in relics.items() if r["vp"] is None]
    cursed_left = 3 - sum(1 for r in relics.values() if r["vp"] is not None and r["cursed"])
    patterns = list(combinations(unknown, cursed_left))
    if spots is None:
        return {
            s: (
                Fraction(int(r["cursed"]))
                if r["vp"] is not None
                else Fraction(sum(s in p for p in patterns), len(patterns))
            )
            for s, r in relics.items()
            if not r["face_up"]
        }
    losing = 0
    for pattern in patterns:
        cursed_up = sum(
            1
            for s in set(spots) | {s for s, r in relics.items() if r["face_up"]}
            if (relics[s]["vp"] is not None and relics[s]["cursed"]) or s in pattern
        )
        losing += cursed_up >= 3
    return Fraction(losing, len(patterns))


def test_cursed_chances_match_enumeration():
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in rng.sample(states, min(6, len(states))):
            for viewer in (0, 1):
                obs = state.observation(viewer)
                for owner in (0, 1):
                    assert analysis.cursed_chance(obs, owner) == cursed_oracle(obs, owner)
                    down = [s for s, r in obs["players"][owner]["temple"]["relics"].items() if not r["face_up"]]
                    for size in (1, 2, 3):
                        for spots in list(combinations(down, size))[:4]:
                            assert analysis.cursed_loss_chance(obs, spots, owner) == cursed_oracle(obs, owner, spots)
                            checked += 1
    assert checked > 100


def test_fresh_temple_cursed_chance_is_one_third():  # 3 cursed among 9 hidden relics
    obs = play_game((random_policy, random_policy), 0, on_state=lambda s: None).observation(0)
    fresh = {
        **obs,
        "players": [
            {
                **p,
                "temple": {
                    **p["temple"],
                    "relics": {
                        s: {"face_up": False, "known": False, "vp": None, "cursed": None} for s in p["temple"]["relics"]
                    },
                },
            }
            for p in obs["players"]
        ],
    }
    assert set(analysis.cursed_chance(fresh, 0).values()) == {Fraction(1, 3)}
    assert analysis.cursed_loss_chance(fresh, ["LEFT_0", "LEFT_1", "LEFT_2"], 0) == Fraction(1, comb(9, 3))
