"""The richer exercises' checks (issue 10) accept right answers and refuse wrong ones.

Each check is run with a correct solution written here from the rules (not from the engine), and
with the wrong solutions a student typically writes; a check that accepted a wrong one, or
refused a right one, fails here.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from gamelib.chakra import DOWN, UP, Step
from gamelib import lesson_checks as start_checks
from gamelib.chakra import lesson_checks as chakra_checks
from gamelib.nagaraja import lesson_checks as nagaraja_checks
from gamelib.pangu import lesson_checks as pangu_checks
from gamelib.pangu import solver
from gamelib.pangu.bots import greedy_policy

ROLLS = list(product(range(1, 7), repeat=2))


# ------------------------------------------------------------------ Pangu 01: the cheaper legal die


def blank(*arguments):  # the notebook's template: a body of `...` returns None
    ...


def cheapest_cost(numbers, roll):  # the rules page: a die equal to its number is forbidden; pay the cheaper
    costs = [abs(die - number) for die, number in zip(roll, numbers) if die != number]
    return min(costs) if costs else None


def test_pangu_cost_check_accepts_the_rule():
    assert pangu_checks.check_cheapest_cost(cheapest_cost)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda numbers, roll: min(abs(d - n) for d, n in zip(roll, numbers)), "forbidden"),  # the ban forgotten
        (
            lambda numbers, roll: max(abs(d - n) for d, n in zip(roll, numbers) if d != n) if numbers != roll else None,
            "cheaper",
        ),
        (blank, "does not block"),
        (
            lambda numbers, roll: cheapest_cost(numbers, roll[::-1]),
            "blocked",
        ),  # dice crossed: wrong first on a blocked roll
    ],
)
def test_pangu_cost_check_refuses_mistakes_with_their_hint(wrong, hint):
    feedback = pangu_checks.check_cheapest_cost(wrong)
    assert not feedback and hint in feedback


def test_pangu_cost_check_survives_a_crashing_function():
    feedback = pangu_checks.check_cheapest_cost(lambda numbers, roll: 1 / 0)
    assert not feedback and "ZeroDivisionError" in feedback


# ------------------------------------------------------------------ Pangu 03: the final card


def final_card_chance(numbers, karma):  # rerolled when blocked, so 35 rolls; wins iff cost < Karma
    costs = [cost for roll in ROLLS if (cost := cheapest_cost(numbers, roll)) is not None]
    return Fraction(sum(cost < karma for cost in costs), len(costs))


def test_pangu_final_card_check_accepts_the_rule():
    assert pangu_checks.check_final_card_chance(final_card_chance)


def test_pangu_final_card_check_knows_a_value_of_the_lesson():
    assert final_card_chance((2, 5), 3) == Fraction(27, 35)  # lesson 03's table, row (2, 5), Karma 3


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda n, k: Fraction(sum(c <= k for r in ROLLS if (c := cheapest_cost(n, r)) is not None), 35), "less"),
        (lambda n, k: Fraction(sum(c < k for r in ROLLS if (c := cheapest_cost(n, r)) is not None), 36), "35"),
        (lambda n, k: float(final_card_chance(n, k)), "exact Fraction"),
        (blank, "list the 36 rolls"),
    ],
)
def test_pangu_final_card_check_refuses_mistakes_with_their_hint(wrong, hint):
    feedback = pangu_checks.check_final_card_chance(wrong)
    assert not feedback and hint in feedback


# ------------------------------------------------------------------ Pangu 02: a move's cost in chance of winning


def cost_in_chance(state, action):  # issue 11: the best move's chance minus this move's, both with perfect play after
    after = state.with_explicit_chance().apply(action)  # a chance node: the solver's expectation over what follows
    return solver.win_probability(state) - solver.win_probability(after)


def test_pangu_cost_in_chance_check_accepts_the_definition():
    assert pangu_checks.check_cost_in_chance(cost_in_chance)


def test_pangu_cost_in_chance_positions_are_late_and_include_costly_moves():
    cases = pangu_checks._cost_cases()
    assert all(state.turn >= 3 for state, _, _ in cases)
    assert any(cost_in_chance(state, action) > 0 for state, action, _ in cases)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda state, action: -cost_in_chance(state, action), "never negative"),
        (lambda state, action: solver.action_values(state)[action], "chance of winning after the move"),
        (lambda state, action: 100 * cost_in_chance(state, action), "percentage points"),
        (lambda state, action: float(cost_in_chance(state, action)), "exact Fraction"),
        (lambda state, action: Fraction(0), "costs something"),
        (
            lambda state, action: solver.action_values(state)[action] - min(solver.action_values(state).values()),
            "not the worst",
        ),
        (blank, "solver.action_values"),
    ],
)
def test_pangu_cost_in_chance_check_refuses_mistakes_with_their_hint(wrong, hint):
    feedback = pangu_checks.check_cost_in_chance(wrong)
    assert not feedback and hint in feedback


# ------------------------------------------------------------------ Pangu 04: a bot that beats greedy


def pay_dear_cards_while_full(state, rng=None):  # Pangu 02's lesson: keep the most Karma, pay the dear card first
    options = [a for a in state.legal_actions() if state.cost(a.card, a.die) == state.cheapest_die(a.card)[1]]
    return max(options, key=lambda a: (lambda after: (after["karma"], after["cost"]))(state.preview(a)))


def test_pangu_beat_greedy_check_accepts_a_better_policy_exactly():
    feedback = pangu_checks.check_beats_greedy(pay_dear_cards_while_full)
    assert feedback and "69.20%" in feedback and "greedy 68.83%" in feedback  # exact, over the 4 positions


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (greedy_policy, "same choices"),
        (lambda state, rng=None: state.legal_actions()[-1], "dearer die"),
        (lambda state, rng=None: "A1", "not one of state.legal_actions()"),
        (lambda state, rng=None: 1 / 0, "ZeroDivisionError"),
        (lambda state, rng=None: max(state.legal_actions(), key=lambda action: ...), "replace the ..."),  # the template
    ],
)
def test_pangu_beat_greedy_check_refuses_mistakes_with_their_hint(wrong, hint):
    feedback = pangu_checks.check_beats_greedy(wrong)
    assert not feedback and hint in feedback


# ------------------------------------------------------------------ Chakra 01 and 02: bug hunts


def test_chakra_walk_bug_is_found_by_an_overshooting_black():
    assert chakra_checks.check_walk_bug({"RED": "K"}, Step("RED", "K", DOWN, 2))  # the rules page: no overshoot


@pytest.mark.parametrize(
    "board, step",
    [
        ({"RED": "K"}, Step("RED", "K", DOWN, 1)),  # a black reaching the Earth exactly: both agree
        ({"GREEN": "K", "YELLOW": "Y Y Y"}, Step("GREEN", "K", DOWN, 1)),  # the lesson's skip: both agree
        ({"YELLOW": "Y"}, Step("YELLOW", "Y", UP, 2)),
    ],
)
def test_chakra_walk_bug_check_refuses_cases_where_both_agree(board, step):
    assert not chakra_checks.check_walk_bug(board, step)


def test_chakra_walk_bug_check_refuses_a_missing_energy():
    feedback = chakra_checks.check_walk_bug({"RED": "R"}, Step("GREEN", "K", DOWN, 1))
    assert not feedback and "cannot be tried" in feedback


PLENITUDE = {"RED": 1, "ORANGE": 2, "YELLOW": 3, "GREEN": 1, "LIGHT_BLUE": 2, "DARK_BLUE": 4, "PURPLE": 3}


def test_chakra_scoring_bug_is_found_when_nobody_has_red():
    nobody_red = [{"harmonized": {"ORANGE"}, "earth": 0}, {"harmonized": set(), "earth": 1}]
    assert chakra_checks.check_scoring_bug(PLENITUDE, nobody_red)


@pytest.mark.parametrize(
    "players",
    [
        [{"harmonized": {"RED"}, "earth": 0}, {"harmonized": set(), "earth": 1}],
        [{"harmonized": {"RED", "ORANGE"}, "earth": 0}, {"harmonized": {"RED", "ORANGE"}, "earth": 2}],  # a tie
    ],
)
def test_chakra_scoring_bug_check_refuses_tables_where_both_agree(players):
    assert not chakra_checks.check_scoring_bug(PLENITUDE, players)


def test_chakra_scoring_bug_check_refuses_a_table_it_cannot_score():
    assert not chakra_checks.check_scoring_bug({}, [{"harmonized": {"RED"}, "earth": 0}])


# ------------------------------------------------------------------ Nagaraja 02: a design target

TILES = ("R13", "R02", "R10")
THREE_UP = [("R13", (2, 0), 0), ("R02", (1, 0), 0), ("R10", (0, 0), 3)]  # LEFT_0, LEFT_2, TOP_0 face up


def test_nagaraja_best_is_three_for_the_lesson_tiles():
    assert nagaraja_checks.best_face_up(TILES) == 3
    assert len(nagaraja_checks.lay(THREE_UP).face_up_spots()) == 3


def test_nagaraja_design_check_accepts_a_best_layout():
    assert nagaraja_checks.check_relic_design(TILES, THREE_UP)


@pytest.mark.parametrize(
    "placements, says",
    [
        ([], "exactly once"),
        ([("R13", (2, 1), 0), ("R02", (1, 1), 0), ("R10", (0, 1), 0)], "can turn up 3"),  # legal, but 0 up
        ([("R13", (0, 0), 0), ("R02", (1, 0), 0), ("R10", (2, 0), 0)], "not legal"),  # not from the entrance row
        ([("R13", (2, 0), 0), ("R13", (1, 0), 0), ("R10", (0, 0), 3)], "exactly once"),
    ],
)
def test_nagaraja_design_check_refuses_wrong_layouts(placements, says):
    feedback = nagaraja_checks.check_relic_design(TILES, placements)
    assert not feedback and says in feedback


# ------------------------------------------------------------------ Chakra 03: a bug hunt in the planner

MAYA = ["R O Y", "G L D", "P K K"]  # lesson 03's Maya


def test_chakra_planner_bug_is_found_where_the_plan_must_meditate():
    from gamelib.chakra import YELLOW, position

    one_token = position([{"LIGHT_BLUE": "Y", "GREEN": "Y", "YELLOW": "Y K", "reserve": 1}, {}], maya=MAYA)
    # lesson 03, "Tokens are the clock": Channel, Meditate, Channel; the suspect cannot tell the
    # board after Meditate from the one before, so it finds no plan at all
    assert len(chakra_checks.engine_plan(one_token, YELLOW)) == 3
    assert chakra_checks.suspect_plan(one_token, YELLOW) is None
    assert chakra_checks.check_planner_bug(one_token, YELLOW)


@pytest.mark.parametrize(
    "board, chakra, says",
    [
        ({"LIGHT_BLUE": "Y", "GREEN": "Y", "YELLOW": "Y K"}, "YELLOW", "both planners find a plan of 2"),  # puzzle A
        ({"YELLOW": "Y Y Y"}, "YELLOW", "already harmonized"),
        ({"BHAGYA": "R"}, "RED", "neither planner"),  # eight levels down, at most 3 a move: out of reach in 6
        ({"RED": "R"}, "EARTH", "cannot be tried"),
        ("RED", "RED", "cannot be tried"),
    ],
)
def test_chakra_planner_bug_check_refuses_puzzles_that_hide_it(board, chakra, says):
    from gamelib.chakra import position

    feedback = chakra_checks.check_planner_bug(
        position([board, {}], maya=MAYA) if isinstance(board, dict) else board, chakra
    )
    assert not feedback and says in feedback


# ------------------------------------------------------------------ Nagaraja 03: who wins a tied room


def listed_points(pool):  # every face of every stick listed (nagaraja.md#odds): {total: throws}
    from collections import Counter

    from gamelib.nagaraja.edition import default_edition

    faces = default_edition().faces
    colours = [colour for colour, n in zip(("BROWN", "WHITE", "GREEN"), pool) for _ in range(n)]
    return Counter(sum(points for points, _ in throw) for throw in product(*(faces[c] for c in colours)))


def room_chance(mine, theirs, i_am_guide, tie_rule):  # the rules page: a tie goes to the guide, or to the other
    ties_are_mine = i_am_guide == (tie_rule == "guide")
    a, b = listed_points(mine), listed_points(theirs)
    wins = sum(m * t for x, m in a.items() for y, t in b.items() if x > y or (x == y and ties_are_mine))
    return Fraction(wins, sum(a.values()) * sum(b.values()))


def test_nagaraja_room_chance_check_accepts_the_rule():
    assert nagaraja_checks.check_room_chance(room_chance)


def test_nagaraja_room_chance_knows_the_rules_pages_example():
    assert room_chance((1, 0, 0), (0, 1, 0), False, "guide") == Fraction(3, 4)  # Odds: brown against white
    assert room_chance((1, 0, 0), (0, 1, 0), True, "guide") == Fraction(15, 16)
    assert room_chance((1, 0, 0), (0, 1, 0), True, "opponent") == Fraction(3, 4)


def test_nagaraja_room_chance_ties_follow_the_engines_room_rule():
    # a tied Confrontation (3 points each) played out by the engine: the room goes as wins_ties says
    from gamelib.nagaraja import Rules
    from gamelib.nagaraja.actions import Pass
    from nagaraja_support import make_state

    for rule in ("guide", "opponent"):
        state = make_state(
            guide=0, to_act=0, held_sticks=([("B01", 3, 0)], [("B02", 3, 0)]), rules=Rules(tie_rule=rule)
        )
        while state.phase == "CONFRONTATION":  # nobody holds a Naga: the passes end it at once
            state = state.apply(Pass(state.to_act))
        assert (state.room_winner == 0) == nagaraja_checks.wins_ties(True, rule)


def blank_room(mine, theirs, i_am_guide, tie_rule):  # the notebook's template
    ...


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda m, t, g, r: room_chance(m, t, g, "guide"), "follow the tie rule"),  # the tie rule ignored
        (lambda m, t, g, r: room_chance(m, t, True, "opponent"), "lost by both"),  # ties to nobody
        (lambda m, t, g, r: room_chance(m, t, True, "guide"), "only when the rule"),  # ties always mine
        (lambda m, t, g, r: 1 - room_chance(m, t, g, r), "other player's chance"),
        (lambda m, t, g, r: float(room_chance(m, t, g, r)), "exact Fraction"),
        (blank_room, "returns None"),
        (lambda m, t, g, r: room_chance(m, t, g, r) if sum(m) < 3 else Fraction(0), "not the engine's chance"),
    ],
)
def test_nagaraja_room_chance_check_refuses_mistakes_with_their_hint(wrong, hint):
    feedback = nagaraja_checks.check_room_chance(wrong)
    assert not feedback and hint in feedback


def test_nagaraja_room_chance_check_survives_a_crashing_function():
    feedback = nagaraja_checks.check_room_chance(lambda m, t, g, r: 1 / 0)
    assert not feedback and "ZeroDivisionError" in feedback


# ------------------------------------------------------------------ every lesson has one

# --------------------------------------------------------------------------- the start page: two strange dice


def ordinary_sum_counts() -> list[int]:
    return [sum(a + b == total for a in range(1, 7) for b in range(1, 7)) for total in range(13)]


def partner_die(die_a: tuple[int, ...]) -> tuple[int, ...] | None:
    """The die whose sums with ``die_a`` count like two ordinary dice, by dividing the sums' counting
    polynomial by die_a's (schoolbook division); None where no die with faces of at least 1 divides it."""
    counts_a = [die_a.count(face) for face in range(max(die_a) + 1)]
    remainder = ordinary_sum_counts()
    quotient = [0] * (len(remainder) - len(counts_a) + 1)
    for shift in range(len(quotient) - 1, -1, -1):
        quotient[shift], left = divmod(remainder[shift + len(counts_a) - 1], counts_a[-1])
        if left:
            return None
        for i, c in enumerate(counts_a):
            remainder[shift + i] -= quotient[shift] * c
    if any(remainder) or min(quotient) < 0 or quotient[0] or sum(quotient) != 6:
        return None
    return tuple(face for face, times in enumerate(quotient) for _ in range(times))


def test_start_page_dice_check_accepts_the_only_other_pair_and_the_claim_holds():
    # brute force over every die with faces 1-11 (a face of 12 or more would make a sum above 12): the
    # check's "no other pair" is true, the pair found is the one the check accepts
    from itertools import combinations_with_replacement

    found = {
        tuple(sorted((die, partner_die(die))))
        for die in combinations_with_replacement(range(1, 12), 6)
        if partner_die(die)
    }
    assert found == {((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)), ((1, 2, 2, 3, 3, 4), (1, 3, 4, 5, 6, 8))}
    assert start_checks.check_same_sums([1, 3, 4, 5, 6, 8], [1, 2, 2, 3, 3, 4])
    assert start_checks.check_same_sums((4, 3, 3, 2, 2, 1), (8, 6, 5, 4, 3, 1))


@pytest.mark.parametrize(
    "die_a, die_b, hint",
    [
        ([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], "ordinary dice"),
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6], "has 5 faces"),
        ([0, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7], "below 1"),
        ([1, 2, 3, 4, 5, 6.5], [1, 2, 3, 4, 5, 6], "whole-number"),
        ("123456", [1, 2, 3, 4, 5, 6], "list of six faces"),
        ([2, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], "both dice need a 1"),
        ([1, 2, 2, 3, 3, 4], [1, 3, 4, 5, 6, 9], "add up to 43"),
        ([1, 1, 3, 4, 6, 6], [1, 2, 3, 4, 5, 6], "comes up with chance"),
    ],
)
def test_start_page_dice_check_refuses_mistakes_with_their_hint(die_a, die_b, hint):
    feedback = start_checks.check_same_sums(die_a, die_b)
    assert not feedback and hint in feedback


RICHER = {  # lesson -> the check its richer exercise calls
    "00_start_here.ipynb": "check_same_sums(",
    "pangu/01_rules_step_by_step.ipynb": "check_cheapest_cost(",
    "pangu/02_guided_game.ipynb": "check_cost_in_chance(",
    "pangu/03_karma_odds.ipynb": "check_final_card_chance(",
    "pangu/04_strategy_lab.ipynb": "check_beats_greedy(",
    "chakra/01_rules_step_by_step.ipynb": "check_walk_bug(",
    "chakra/02_scoring.ipynb": "check_scoring_bug(",
    "nagaraja/01_fate_sticks.ipynb": "check_contest(",
    "nagaraja/02_temple_paths.ipynb": "check_relic_design(",
    "chakra/03_play_and_plan.ipynb": "check_planner_bug(",
    "nagaraja/03_the_duel.ipynb": "check_room_chance(",
}


@pytest.mark.parametrize("lesson", sorted(RICHER))
def test_each_lesson_has_a_richer_exercise(lesson):
    import json
    from pathlib import Path

    notebook = Path(__file__).resolve().parents[1] / "notebooks" / lesson
    code = [
        "".join(cell["source"])
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
    ]
    assert any(RICHER[lesson] in source for source in code), f"{lesson} lost its richer exercise"


def test_a_function_check_names_the_case_but_never_the_engines_value():
    """Issue 23: a richer check gives hints, never the answer; the engine's value of a failing case
    (for the final card, a self-check's answer) is not printed."""
    import re

    from gamelib.pangu import odds

    def off_by_a_little(numbers, karma):
        return odds.final_card_win_probability(numbers, karma) + Fraction(1, 1000)

    feedback = pangu_checks.check_final_card_chance(off_by_a_little)
    assert not feedback and "not the engine's chance" in feedback
    blue, white, karma = map(int, re.search(r"blue (\d), white (\d) and Karma (-?\d+)", feedback).groups())
    right = odds.final_card_win_probability((blue, white), karma)
    assert f"returns {right + Fraction(1, 1000)}," in feedback and f" {right}." not in feedback
