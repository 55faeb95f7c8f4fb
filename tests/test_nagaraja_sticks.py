"""Fate-stick odds: every test vector of spec 9.1-9.4, and brute-force oracles (spec 8)."""

import itertools
import random
import warnings
from collections import Counter
from fractions import Fraction as F

import pytest

from gamelib import Dist
from gamelib.nagaraja import sticks
from gamelib.nagaraja.sticks import FaceTableError


# --------------------------------------------------------------------------- spec 9.1


@pytest.mark.parametrize(
    "model, colour, distribution, mean, variance, p_naga",
    [
        ("A", "BROWN", {2: F(1, 4), 3: F(1, 2), 4: F(1, 4)}, F(3), F(1, 2), F(0)),
        ("A", "WHITE", {0: F(1, 4), 1: F(1, 4), 2: F(1, 4), 3: F(1, 4)}, F(3, 2), F(5, 4), F(1, 4)),
        ("A", "GREEN", {0: F(1, 2), 1: F(1, 2)}, F(1, 2), F(1, 4), F(1, 2)),
        ("B", "BROWN", {1: F(1, 4), 2: F(1, 4), 3: F(1, 4), 4: F(1, 4)}, F(5, 2), F(5, 4), F(0)),
        ("B", "WHITE", {0: F(1, 4), 2: F(1, 2), 3: F(1, 4)}, F(7, 4), F(19, 16), F(1, 4)),
        ("B", "GREEN", {0: F(1, 2), 1: F(1, 2)}, F(1, 2), F(1, 4), F(1, 2)),
    ],
)
def test_single_sticks_spec_9_1(model, colour, distribution, mean, variance, p_naga):
    one = sticks.stick(colour, faces=model)
    # spec 9.1 lists a Naga face as "Naga"; it scores 0 points (spec 8.4)
    assert one.to_dict() == distribution
    assert one.mean() == mean and one.variance() == variance
    pool = sticks.as_pool(colour[0])
    assert sticks.nagas(pool, faces=model).at_least(1) == p_naga


# --------------------------------------------------------------------------- spec 9.2


def test_three_white_joint_spec_9_2():
    expected = {
        (0, 3): F(1, 64),
        (1, 2): F(3, 64),
        (2, 1): F(3, 64),
        (2, 2): F(3, 64),
        (3, 0): F(1, 64),
        (3, 1): F(3, 32),
        (3, 2): F(3, 64),
        (4, 0): F(3, 64),
        (4, 1): F(9, 64),
        (5, 0): F(3, 32),
        (5, 1): F(3, 32),
        (6, 0): F(7, 64),
        (6, 1): F(3, 64),
        (7, 0): F(3, 32),
        (8, 0): F(3, 64),
        (9, 0): F(1, 64),
    }
    assert sticks.joint(0, 3, 0) == expected
    assert sum(expected.values()) == 1


def test_three_white_marginals_moments_and_tails_spec_9_2():
    p = sticks.points(0, 3, 0)
    n = sticks.nagas(0, 3, 0)
    assert p.to_dict() == {
        0: F(1, 64),
        1: F(3, 64),
        2: F(3, 32),
        3: F(5, 32),
        4: F(3, 16),
        5: F(3, 16),
        6: F(5, 32),
        7: F(3, 32),
        8: F(3, 64),
        9: F(1, 64),
    }
    assert n.to_dict() == {0: F(27, 64), 1: F(27, 64), 2: F(9, 64), 3: F(1, 64)}
    stats = sticks.summary(0, 3, 0)
    assert stats == {
        "mean_points": F(9, 2),
        "variance_points": F(15, 4),
        "mean_nagas": F(3, 4),
        "variance_nagas": F(9, 16),
        "covariance": F(-9, 8),
    }
    tails = [F(63, 64), F(15, 16), F(27, 32), F(11, 16), F(1, 2), F(5, 16), F(5, 32), F(1, 16), F(1, 64)]
    assert [p.at_least(k) for k in range(1, 10)] == tails
    assert [p.at_least_table()[k] for k in range(1, 10)] == tails


def test_five_points_one_naga_spec_9_2():
    assert sticks.joint(0, 3, 0)[(5, 1)] == F(3, 32)
    assert sticks.joint(0, 3, 0, faces="B")[(5, 1)] == F(3, 16)


def test_one_of_each_spec_9_2():
    assert sticks.summary(1, 1, 1) == {
        "mean_points": F(5),
        "variance_points": F(2),
        "mean_nagas": F(3, 4),
        "variance_nagas": F(7, 16),
        "covariance": F(-5, 8),
    }
    assert sticks.nagas(1, 1, 1).to_dict() == {0: F(3, 8), 1: F(1, 2), 2: F(1, 8)}
    p = sticks.points(1, 1, 1)
    assert [p.at_least(k) for k in range(0, 3)] == [1, 1, 1]
    assert [p.at_least(k) for k in range(3, 9)] == [F(31, 32), F(27, 32), F(5, 8), F(3, 8), F(5, 32), F(1, 32)]


def test_two_brown_spec_9_2():
    assert sticks.points(2, 0, 0).to_dict() == {4: F(1, 16), 5: F(1, 4), 6: F(3, 8), 7: F(1, 4), 8: F(1, 16)}


@pytest.mark.parametrize(
    "pool, chance",
    [((0, 1, 0), F(1, 4)), ((0, 3, 0), F(37, 64)), ((0, 0, 2), F(3, 4)), ((0, 0, 3), F(7, 8)), ((1, 1, 1), F(5, 8))],
)
def test_at_least_one_naga_spec_9_2(pool, chance):
    assert sticks.nagas(pool).at_least(1) == chance


# --------------------------------------------------------------------------- spec 9.3


@pytest.mark.parametrize(
    "mine, theirs, model, expected, as_guide, as_non_guide",
    [
        ((1, 0, 0), (0, 1, 0), "A", (F(3, 4), F(3, 16), F(1, 16)), F(15, 16), F(3, 4)),
        ((1, 0, 0), (0, 1, 0), "B", (F(9, 16), F(3, 16), F(1, 4)), F(3, 4), F(9, 16)),
        ((0, 0, 1), (0, 0, 1), "A", (F(1, 4), F(1, 2), F(1, 4)), F(3, 4), F(1, 4)),
        ((0, 0, 1), (0, 0, 1), "B", (F(1, 4), F(1, 2), F(1, 4)), F(3, 4), F(1, 4)),
        ((0, 0, 0), (0, 0, 0), "A", (F(0), F(1), F(0)), F(1), F(0)),
        ((0, 0, 0), (0, 0, 0), "B", (F(0), F(1), F(0)), F(1), F(0)),
        ((0, 3, 0), (3, 1, 1), "A", (F(71, 32768), F(209, 32768), F(4061, 4096)), F(35, 4096), F(71, 32768)),
    ],
)
def test_two_pools_and_guide_rule_spec_9_3(mine, theirs, model, expected, as_guide, as_non_guide):
    assert sticks.compare(mine, theirs, faces=model) == expected
    assert sum(expected) == 1
    assert sticks.win_probability(mine, theirs, mine_is_guide=True, faces=model) == as_guide
    assert sticks.win_probability(mine, theirs, mine_is_guide=False, faces=model) == as_non_guide


@pytest.mark.parametrize(
    "model, expected", [("A", (F(93, 256), F(35, 128), F(93, 256))), ("B", (F(53, 128), F(11, 64), F(53, 128)))]
)
def test_first_guide_throw_spec_9_3(model, expected):
    assert sticks.compare((2, 0, 0), (2, 0, 0), faces=model) == expected


# --------------------------------------------------------------------------- spec 9.4 and 8.1


def test_worked_example_is_possible_spec_9_4():
    # Elodie: 1 card WWW; Marion: 2 cards BB + BWG (spec 2.7); cards as stick sets (spec 8.1)
    assert sticks.joint(["WWW"]) == sticks.joint(0, 3, 0)
    assert sticks.as_pool(["BB", "BWG"]) == (3, 1, 1)
    assert sticks.joint(["WWW"])[(5, 1)] == F(3, 32)
    assert sticks.joint(["WWW"], faces="B")[(5, 1)] == F(3, 16)
    assert sticks.joint(["BB", "BWG"])[(11, 1)] == F(65, 512)
    assert sticks.joint(["BB", "BWG"], faces="B")[(11, 1)] == F(19, 256)


@pytest.mark.parametrize("model, expected, count", [("A", F(9, 128), 72), ("B", F(21, 512), 42)])
def test_discard_two_leaves_four_spec_9_4(model, expected, count):
    """11 points + 1 Naga where two Naga-free brown sticks sum to 7 (so 4 points remain)."""
    faces = sticks.load_faces(model)
    hits = 0
    outcomes = list(itertools.product(faces["BROWN"], faces["BROWN"], faces["BROWN"], faces["WHITE"], faces["GREEN"]))
    for throw in outcomes:
        total = sum(p for p, _ in throw)
        naga_count = sum(n for _, n in throw)
        browns = [p for p, _ in throw[:3]]
        if total == 11 and naga_count == 1 and any(a + b == 7 for a, b in itertools.combinations(browns, 2)):
            hits += 1
    assert len(outcomes) == 1024 and hits == count
    assert F(hits, len(outcomes)) == expected


# --------------------------------------------------------------------------- oracles


def small_pools(limit=6):
    return [
        (b, w, g) for b in range(limit + 1) for w in range(limit + 1) for g in range(limit + 1) if b + w + g <= limit
    ]


@pytest.mark.parametrize("model", ["A", "B"])
def test_joint_matches_brute_force_for_every_pool_up_to_six(model):
    for pool in small_pools():
        assert sticks.joint(*pool, faces=model) == sticks.brute_force_joint(pool, faces=model), pool


def random_table(rng):
    table = {}
    for colour in sticks.COLOURS:
        faces = []
        for _ in range(rng.randint(1, 6)):
            naga = rng.random() < 0.3
            faces.append((0 if naga else rng.randint(0, 7), int(naga)))
        table[colour] = faces
    return table


def test_joint_matches_brute_force_on_random_tables():
    rng = random.Random(2024)
    for _ in range(25):
        table = random_table(rng)
        for pool in rng.sample(small_pools(5), 12):
            assert sticks.joint(*pool, faces=table) == sticks.brute_force_joint(pool, faces=table), (table, pool)


def test_compare_matches_brute_force_pairs():
    rng = random.Random(7)
    for _ in range(30):
        table = random_table(rng)
        a, b = rng.sample(small_pools(3), 2)
        ja, jb = sticks.brute_force_joint(a, table), sticks.brute_force_joint(b, table)
        gt = sum(pa * pb for (x, _), pa in ja.items() for (y, _), pb in jb.items() if x > y)
        tie = sum(pa * pb for (x, _), pa in ja.items() for (y, _), pb in jb.items() if x == y)
        assert sticks.compare(a, b, faces=table) == (gt, tie, 1 - gt - tie)


def test_big_pools_are_exact_and_sum_to_one():
    # The maths is not limited by the 0-12 slider range (issue 2): 33 sticks of each colour.
    table = sticks.joint(33, 33, 33)
    assert sum(table.values()) == 1
    assert min(p for p, _ in table) == 66 and max(p for p, _ in table) == 33 * 4 + 33 * 3 + 33
    # mean points are additive: 33 * (3 + 3/2 + 1/2) (spec 9.1 means)
    assert sticks.points(33, 33, 33).mean() == 165


def test_user_table_with_points_and_naga_on_one_face_warns_but_computes():
    table = {"BROWN": [(1, 1), (2, 0)], "WHITE": [(1, 0)], "GREEN": [(0, 1)]}
    with pytest.warns(UserWarning, match="both points and a Naga"):
        result = sticks.joint(1, 0, 0, faces=table)
    assert result == {(1, 1): F(1, 2), (2, 0): F(1, 2)}


def test_repeated_faces_and_uneven_face_counts():
    table = {"brown": [(5, 0)], "white": [(1, 0), (1, 0), (2, 0)], "green": [(0, 1), (3, 0)]}
    assert sticks.points(0, 1, 0, faces=table).to_dict() == {1: F(2, 3), 2: F(1, 3)}
    assert sticks.joint(1, 1, 1, faces=table) == sticks.brute_force_joint((1, 1, 1), faces=table)


# --------------------------------------------------------------------------- oracles for both counting methods, any table

SCORING_NAGA = "ignore:.*both points and a Naga:UserWarning"


def convolution_counts(pool, table):
    """Independent oracle for big pools: add one stick at a time to a dictionary of integer counts."""
    counts = Counter({(0, 0): 1})
    for colour, count in zip(sticks.COLOURS, pool):
        faces = Counter(tuple(face) for face in table[colour])
        for _ in range(count):
            counts = sum_counts(counts, faces)
    return counts


def sum_counts(counts, faces):
    result = Counter()
    for (points, nagas), n in counts.items():
        for (face_points, naga), m in faces.items():
            result[points + face_points, nagas + naga] += n * m
    return result


def convolution_joint(pool, table):
    total = 1
    for colour, count in zip(sticks.COLOURS, pool):
        total *= len(table[colour]) ** count
    return {outcome: F(n, total) for outcome, n in convolution_counts(pool, table).items()}


def wild_table(rng):
    """Any valid table: 1 to 7 faces, repeats, Nagas with points (more or fewer than plain faces), all-Naga sticks."""
    table = {}
    for colour in sticks.COLOURS:
        kind = rng.choice(["mixed", "mixed", "one face", "all naga", "no naga", "repeated"])
        size = 1 if kind == "one face" else rng.randint(2, 7)
        naga_share = {"all naga": 1.0, "no naga": 0.0}.get(kind, 0.4)
        faces = [(rng.choice([0, 0, 1, 2, 3, 5, 9]), int(rng.random() < naga_share)) for _ in range(size)]
        table[colour] = [faces[0]] * size if kind == "repeated" else faces
    return table


def by_method(method, pool, table):
    """joint() computed by one of the two counting methods, whatever the pool size."""
    outcomes, counts, total = sticks._sorted_counts(pool, sticks.validate_faces(table), method)
    return {outcome: F(count, total) for outcome, count in zip(outcomes, counts)}


METHODS = [sticks._by_rows, sticks._by_powers]


@pytest.mark.filterwarnings(SCORING_NAGA)
@pytest.mark.parametrize("method", METHODS)
def test_both_methods_match_brute_force_on_any_valid_table(method):
    rng = random.Random(36)
    for _ in range(60):
        table = wild_table(rng)
        for pool in rng.sample(small_pools(4), 6):
            assert by_method(method, pool, table) == sticks.brute_force_joint(pool, faces=table), (table, pool)


@pytest.mark.parametrize("model", ["A", "B"])
def test_row_method_matches_brute_force_for_every_pool_up_to_six(model):
    # joint() itself takes the direct powers on pools this small (FEW_STICKS)
    for pool in small_pools():
        assert by_method(sticks._by_rows, pool, sticks.load_faces(model)) == sticks.brute_force_joint(pool, model), pool


@pytest.mark.filterwarnings(SCORING_NAGA)
def test_both_methods_agree_on_pools_either_side_of_the_switch():
    rng = random.Random(12)
    for _ in range(40):
        table = rng.choice(["A", "B", wild_table(rng)])
        table = sticks.load_faces(table) if isinstance(table, str) else table
        size = rng.randint(sticks.FEW_STICKS - 4, sticks.FEW_STICKS + 8)
        brown = rng.randint(0, size)
        white = rng.randint(0, size - brown)
        pool = (brown, white, size - brown - white)
        assert by_method(sticks._by_rows, pool, table) == by_method(sticks._by_powers, pool, table), (table, pool)


EXTREME_POOLS = [(36, 0, 0), (0, 36, 0), (0, 0, 36), (1, 35, 0), (0, 35, 1), (0, 30, 6), (12, 12, 12), (7, 29, 0)]


@pytest.mark.parametrize("model", ["A", "B"])
def test_joint_matches_convolution_on_the_extreme_36_stick_pools(model):
    table = sticks.load_faces(model)
    for pool in EXTREME_POOLS:
        assert sticks.joint(*pool, faces=model) == convolution_joint(pool, table), pool


@pytest.mark.filterwarnings(SCORING_NAGA)
def test_joint_matches_convolution_on_big_pools_and_any_table():
    rng = random.Random(2036)
    for _ in range(12):
        table = wild_table(rng)
        size = rng.randint(20, 36)
        brown = rng.randint(0, size)
        white = rng.randint(0, size - brown)
        pool = (brown, white, size - brown - white)
        result = sticks.joint(*pool, faces=table)
        assert result == convolution_joint(pool, table), (table, pool)
        assert sum(result.values()) == 1


def test_a_naga_that_scores_more_than_plain_faces():
    # Nagas worth more than the plain faces shear the (points, nagas) grid the other way;
    # (10, 12, 14) is past FEW_STICKS, so it takes the row method
    table = {"BROWN": [(0, 0), (1, 0), (4, 1)], "WHITE": [(2, 0), (6, 1), (7, 1)], "GREEN": [(0, 0), (5, 1)]}
    with pytest.warns(UserWarning, match="both points and a Naga"):
        for pool in [(3, 2, 1), (0, 5, 0), (2, 0, 4)]:
            assert sticks.joint(*pool, faces=table) == sticks.brute_force_joint(pool, faces=table), pool
        assert sticks.joint(10, 12, 14, faces=table) == convolution_joint((10, 12, 14), table)


def test_counts_wider_than_128_bits_are_read_whole():
    # 16 faces per stick and 36 sticks: 2**144 equally likely throws, counts take three 64-bit words
    table = {
        "BROWN": [(1, 0)] * 9 + [(2, 0)] * 7,
        "WHITE": [(0, 1)] * 5 + [(1, 0)] * 11,
        "GREEN": [(0, 1)] * 3 + [(3, 0)] * 13,
    }
    counts, total = sticks.joint_counts((12, 12, 12), sticks.validate_faces(table))
    assert total == 2**144 and max(counts.values()) >= 2**128
    assert counts == convolution_counts((12, 12, 12), table)


def test_a_certain_outcome_with_a_scoring_naga():
    # every throw is 12 x (3 points, Naga) + 20 x (1 point) + 4 x Naga: (56 points, 16 Nagas)
    table = {"BROWN": [(3, 1)] * 2, "WHITE": [(1, 0)], "GREEN": [(0, 1)] * 3}
    with pytest.warns(UserWarning, match="both points and a Naga"):
        assert sticks.joint(12, 20, 4, faces=table) == {(56, 16): F(1)}


def test_row_by_row_multiplication_equals_the_big_integer_product():
    rng = random.Random(9)
    for field in (8, 72, 136):
        for _ in range(20):
            product = rng.getrandbits(field * rng.randint(1, 300))
            rows = [
                (slot, rng.getrandbits(field * rng.randint(1, 5) - 1))
                for slot in rng.sample(range(400), rng.randint(1, 30))
            ]
            whole = sum(row << field * slot for slot, row in rows)
            assert sticks._multiply(product, rows, field) == product * whole


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "table, message",
    [
        ({"BROWN": [(2, 0)], "WHITE": [(1, 0)]}, "no GREEN stick"),
        ({"BROWN": [(2, 0)], "WHITE": [(1, 0)], "GREEN": []}, "GREEN has no faces"),
        ({"BROWN": [(-1, 0)], "WHITE": [(1, 0)], "GREEN": [(1, 0)]}, r"BROWN face 1 \(\(-1, 0\)\): points"),
        ({"BROWN": [(2, 0)], "WHITE": [(1, 0), (1, 2)], "GREEN": [(1, 0)]}, r"WHITE face 2 .*naga must be 0 or 1"),
        ({"BROWN": [(2, 0)], "WHITE": [(1.5, 0)], "GREEN": [(1, 0)]}, "WHITE face 1 .*whole number"),
        ({"BROWN": [(2,)], "WHITE": [(1, 0)], "GREEN": [(1, 0)]}, "BROWN face 1 .*pair"),
        ({"BROWN": [(2, 0)], "WHITE": [(1, 0)], "GREEN": [(1, 0)], "RED": [(1, 0)]}, "unknown stick colour 'RED'"),
        ({"BROWN": "2,3", "WHITE": [(1, 0)], "GREEN": [(1, 0)]}, "BROWN should be a list"),
        ([1, 2, 3], "maps colours"),
        ("C", "no stick model 'C'"),
    ],
)
def test_malformed_face_tables_name_the_bad_face(table, message):
    with pytest.raises(FaceTableError, match=message):
        sticks.joint(1, 1, 1, faces=table)


@pytest.mark.parametrize(
    "pool, message",
    [
        ((-1, 0, 0), "cannot be negative: brown=-1"),
        ((0, 2, -3), "green=-3"),
        ((1, 2), "a pool is"),
        (["BXW"], "unknown stick letter 'X'"),
        ((1.0, 0, 0), "whole number"),
    ],
)
def test_bad_pools_raise_clear_errors(pool, message):
    with pytest.raises(ValueError, match=message):
        sticks.joint(pool)
    with pytest.raises(ValueError, match=message):
        sticks.win_probability(pool, (1, 0, 0), True)


def test_models_meet_spec_2_3_and_are_flagged_placeholder():
    import json
    from importlib import resources

    for model, file in sticks.MODELS.items():
        data = json.loads((resources.files("gamelib.nagaraja") / "data" / file).read_text())
        assert data["placeholder"] is True  # spec 3: teaching-edition data is flagged
        faces = sticks.load_faces(model)
        means = [sticks.stick(c, faces=model).mean() for c in sticks.COLOURS]
        assert means[0] > means[1] > means[2]  # spec 2.3: longer sticks give more points
        naga_counts = [sum(n for _, n in faces[c]) for c in sticks.COLOURS]
        assert naga_counts[0] <= naga_counts[1] <= naga_counts[2] and naga_counts[2] == 2
        assert all(len(faces[c]) == 4 for c in sticks.COLOURS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sticks.load_faces("A")


def test_a_certain_outcome_keeps_its_full_count():
    # every face alike: one outcome of probability 1, the one case where a count equals the total
    table = {"BROWN": [(2, 0)] * 4, "WHITE": [(0, 1)] * 2, "GREEN": [(1, 0)]}
    assert sticks.joint(40, 3, 5, faces=table) == {(85, 3): F(1)}


# --------------------------------------------------------------------------- issue 9, point 10: defaults and bounds


def test_the_signature_defaults_work():
    # issue 9.10: each of these raised TypeError
    assert sticks.joint() == {(0, 0): F(1)}  # the empty pool, spec 8.2 item 1
    assert sticks.joint(3) == sticks.joint(3, 0, 0) == sticks.brute_force_joint((3, 0, 0))
    assert sticks.points(brown=2) == Dist({4: F(1, 16), 5: F(1, 4), 6: F(3, 8), 7: F(1, 4), 8: F(1, 16)})  # spec 9.2
    assert sticks.nagas(1) == Dist({0: F(1)})  # a brown stick never shows a Naga under Model A (spec 9.1)
    assert sticks.nagas(0, 0, 1).probability(1) == F(1, 2)


@pytest.mark.parametrize("colour", ["", "X", "purple", 3, None])
def test_stick_names_a_bad_colour(colour):
    with pytest.raises(ValueError, match="there is no stick colour"):
        sticks.stick(colour)  # issue 9.10: "" raised IndexError


@pytest.mark.parametrize(
    "faces, message",
    [
        ({"BROWN": [(10**9, 0)], "WHITE": [(1, 0)], "GREEN": [(0, 1)]}, "at most 100 points"),
        ({"BROWN": [(1, 0)] * 17, "WHITE": [(1, 0)], "GREEN": [(0, 1)]}, "at most 16"),
    ],
)
def test_faces_beyond_the_bounds_are_refused(faces, message):
    with pytest.raises(sticks.FaceTableError, match=message):
        sticks.points(1, 1, 1, faces=faces)


def test_pools_beyond_the_bounds_are_refused_at_once():
    with pytest.raises(ValueError, match="at most 100 sticks"):
        sticks.joint(101, 0, 0)
    with pytest.raises(ValueError, match="at most 100 sticks"):
        sticks.points_counts((50, 51, 0))
    big = {"BROWN": [(100, 0)] * 4, "WHITE": [(1, 0)], "GREEN": [(0, 1)]}
    with pytest.raises(ValueError, match="at most 1000"):
        sticks.joint(11, 0, 0, faces=big)
    assert sticks.joint(10, 0, 0, faces=big) == {(1000, 0): F(1)}  # the bound itself still computes


# --------------------------------------------------------------------------- moments, sweeps and effects


@pytest.mark.parametrize("model", ["A", "B"])
def test_closed_form_moments_equal_the_table_moments(model):
    for pool in small_pools(4) + [(12, 12, 12), (0, 36, 0)]:
        summary = sticks.summary(pool, faces=model)
        assert sticks.moments(pool, faces=model) == {
            key: summary[key] for key in ("mean_points", "variance_points", "mean_nagas", "variance_nagas")
        }


def test_spec_moments_in_closed_form():
    assert sticks.moments(0, 3, 0)["mean_nagas"] == F(3, 4)  # spec 9.2
    assert sticks.moments(0, 3, 0)["variance_points"] == F(15, 4)
    assert sticks.moments(1, 1, 1)["variance_nagas"] == F(7, 16)


@pytest.mark.parametrize("model", ["A", "B"])
def test_sweep_equals_one_comparison_per_count(model):
    for mine, theirs in [((0, 3, 0), (3, 1, 1)), ((1, 0, 2), (0, 0, 0)), ((4, 4, 4), (2, 6, 1))]:
        for guide in (True, False):
            for player in (0, 1):
                for colour in sticks.COLOURS:
                    got = sticks.sweep(mine, theirs, guide, player, colour, range(0, 9), faces=model)
                    for count, value in zip(range(9), got):
                        pools = [list(mine), list(theirs)]
                        pools[player][sticks.COLOURS.index(colour)] = count
                        assert value == sticks.win_probability(tuple(pools[0]), tuple(pools[1]), guide, model)


EFFECT_POOLS = [
    ((0, 1, 0), (1, 0, 0)),
    ((1, 1, 0), (0, 1, 1)),
    ((0, 2, 1), (1, 1, 1)),
    ((2, 0, 0), (0, 0, 0)),
    ((0, 0, 0), (0, 3, 0)),
    ((0, 0, 3), (2, 1, 0)),
]
# RETHROW2's brute force lists every throw of both pools, then every 1- and 2-stick re-throw: 3 sticks
# against 3 costs about 2.5 s of CPU per model. One such pair keeps every kind (a 3-stick target of one
# colour, "mine", and of mixed colours, "theirs", each against 3 sticks); the mixed 3-against-3 pair
# (0,2,1)/(1,1,1) repeats those kinds and stays in the PLUS2 and DISCARD2 oracles.
RETHROW_POOLS = [pools for pools in EFFECT_POOLS if pools != ((0, 2, 1), (1, 1, 1))]


@pytest.mark.parametrize("model", ["A", "B"])
@pytest.mark.parametrize("effect", sticks.EFFECTS)
def test_effects_match_brute_force(model, effect):
    for mine, theirs in RETHROW_POOLS if effect == "RETHROW2" else EFFECT_POOLS:
        for guide in (True, False):
            for target in ("mine", "theirs"):
                for chooser in ("mine", "theirs") if effect == "RETHROW2" else (None,):
                    fast = sticks.win_probability_after(mine, theirs, guide, effect, target, chooser, model)
                    slow = sticks.brute_force_win_after(mine, theirs, guide, effect, target, chooser, model)
                    assert fast == slow, (mine, theirs, guide, effect, target, chooser)


def test_effects_on_random_tables_match_brute_force():
    rng = random.Random(12)
    for _ in range(15):
        table = random_table(rng)
        mine, theirs = tuple(rng.randint(0, 2) for _ in range(3)), tuple(rng.randint(0, 1) for _ in range(3))
        for effect in sticks.EFFECTS:
            for chooser in ("mine", "theirs"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fast = sticks.win_probability_after(mine, theirs, True, effect, "mine", chooser, table)
                    slow = sticks.brute_force_win_after(mine, theirs, True, effect, "mine", chooser, table)
                assert fast == slow, (table, mine, theirs, effect, chooser)


def test_the_rulebook_discard_spec_9_4():
    # spec 2.7/9.4: Elodie (guide, 3 white) makes Marion (3B+1W+1G) discard two sticks.
    after = sticks.win_probability_after((0, 3, 0), (3, 1, 1), True, "DISCARD2", "theirs")
    assert after == sticks.brute_force_win_after((0, 3, 0), (3, 1, 1), True, "DISCARD2", "theirs")
    assert after > sticks.win_probability((0, 3, 0), (3, 1, 1), True)  # 307/512 against 35/4096
    # the effects' obvious bounds: +2 never hurts its owner; a re-throw chosen by its owner never hurts
    for effect, target, chooser in (
        ("PLUS2", "mine", None),
        ("RETHROW2", "mine", "mine"),
        ("DISCARD2", "theirs", None),
        ("RETHROW2", "theirs", "mine"),
    ):
        assert sticks.win_probability_after(
            (2, 2, 2), (3, 1, 1), False, effect, target, chooser
        ) >= sticks.win_probability((2, 2, 2), (3, 1, 1), False)


def test_unknown_effects_and_sides_are_refused():
    with pytest.raises(ValueError, match="unknown stick effect"):
        sticks.win_probability_after((1, 0, 0), (1, 0, 0), True, "PEEK")
    with pytest.raises(ValueError, match="mine"):
        sticks.win_probability_after((1, 0, 0), (1, 0, 0), True, "PLUS2", target="me")


def test_no_numpy_in_sticks():
    import subprocess
    import sys

    code = "import sys; sys.modules['numpy'] = None; from gamelib.nagaraja import sticks; print(sticks.compare((3, 1, 1), (0, 3, 0)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(Fraction(4061, 4096), Fraction(209, 32768), Fraction(71, 32768))"  # spec 9.3


# --------------------------------------------------------------------------- a slider step (issue 25)


def walk_pools(rng, start, steps, most):
    """Pools one stick apart, as a slider moves them: each step one colour up or down by one, to a pool
    not met before."""
    pool, pools = list(start), [tuple(start)]
    for _ in range(100 * steps):  # a walk boxed in by pools met before stops short
        if len(pools) > steps:
            break
        index, step = rng.randrange(3), rng.choice((-1, 1))
        near = tuple(count + (step if i == index else 0) for i, count in enumerate(pool))
        if 0 <= near[index] and sum(near) <= most and near not in pools:
            pool = list(near)
            pools.append(near)
    return pools


def stepped_tables(pools, table):
    """Each pool's table made from the one before it (joint_step, as the explorer's slider makes them), with
    the table of every pool from scratch (_sorted_counts) beside it; also how many came from a step."""
    key = sticks._faces_key(table)
    recent = sticks.joint_step(pools[0], key)
    pairs, stepped = [], 0
    for pool in pools[1:]:
        recent = sticks.joint_step(pool, key, recent)
        (got, packed) = recent[2]
        stepped += packed is not None
        outcomes, counts, total = sticks._sorted_counts(pool, sticks.load_faces(table))
        pairs.append((pool, got, (tuple(outcomes), tuple(counts), total)))
    return pairs, stepped


@pytest.mark.parametrize("model", ["A", "B"])
def test_a_slider_step_gives_the_table_from_scratch_up_to_100_sticks(model):
    """joint_step's step from the pool one stick away (a packed multiplication or exact division)
    equals the whole computation, on walks through small, 36-stick and 100-stick pools."""
    rng = random.Random(25)
    for start, steps, most in (((1, 2, 1), 20, 8), ((12, 12, 12), 12, 40), ((36, 36, 28), 6, 100)):
        pairs, stepped = stepped_tables(walk_pools(rng, start, steps, most), model)
        assert stepped == len(pairs)  # every table of the walk came from a step
        for pool, got, expected in pairs:
            assert got == expected, pool
            if sum(pool) <= 5:
                outcomes, counts, total = got
                assert {o: F(c, total) for o, c in zip(outcomes, counts)} == sticks.brute_force_joint(pool, model)


@pytest.mark.filterwarnings(SCORING_NAGA)
def test_a_slider_step_matches_brute_force_on_any_valid_table():
    """The same on wild tables (Nagas with points, repeated faces, one-face sticks): where a step cannot
    divide (a Naga face beside a plain one of equal points) the table is computed whole, still equal."""
    rng = random.Random(2025)
    stepped_any = 0
    for _ in range(30):
        table = wild_table(rng)
        pairs, stepped = stepped_tables(walk_pools(rng, (1, 1, 1), 8, 5), table)
        stepped_any += stepped
        for pool, got, expected in pairs:
            assert got == expected, (table, pool)
            outcomes, counts, total = got
            assert {o: F(c, total) for o, c in zip(outcomes, counts)} == sticks.brute_force_joint(pool, table)
    assert stepped_any > 100  # most steps were made by the step, not from scratch
