"""gamelib.dist: the exact distribution type, checked against enumeration by hand."""

import itertools
from fractions import Fraction as F

import pytest

from gamelib import Dist, sum_of

D6 = Dist.uniform(range(1, 7))


def enumerate_sum(faces_per_die):
    counts = {}
    for throw in itertools.product(*faces_per_die):
        counts[sum(throw)] = counts.get(sum(throw), 0) + 1
    return Dist.from_weights(counts)


def test_two_dice_sum_is_the_classic_triangle():
    two = D6 + D6
    assert two.probability(7) == F(1, 6) and two.probability(2) == F(1, 36) and two.probability(13) == 0
    assert two == enumerate_sum([range(1, 7)] * 2)


def test_repeat_matches_enumeration_and_repeated_addition():
    for n in range(0, 6):
        assert D6.repeat(n) == enumerate_sum([range(1, 7)] * n) if n else D6.repeat(0) == Dist.constant(0)
        assert D6.repeat(n) == sum_of([D6] * n)


def test_moments():
    assert D6.mean() == F(7, 2) and D6.variance() == F(35, 12)
    three = D6.repeat(3)
    assert three.mean() == F(21, 2) and three.variance() == F(35, 4)  # variances add
    assert abs(three.standard_deviation() - (35 / 4) ** 0.5) < 1e-12


def test_tails_and_table():
    two = D6 + D6
    assert two.at_least(10) == F(6, 36) and two.at_most(3) == F(3, 36)
    table = two.at_least_table()
    assert table[2] == 1 and table[12] == F(1, 36)
    assert all(table[k] == two.at_least(k) for k in range(2, 13))


def test_compare_against_enumeration():
    a, b = Dist.uniform([1, 2, 2, 5]), Dist.uniform([0, 2, 3])
    gt = tie = F(0)
    for x, y in itertools.product([1, 2, 2, 5], [0, 2, 3]):
        gt += F(1, 12) * (x > y)
        tie += F(1, 12) * (x == y)
    assert a.compare(b) == (gt, tie, 1 - gt - tie)
    assert D6.compare(D6) == (F(15, 36), F(6, 36), F(15, 36))


def test_joint_form_adds_coordinates_and_gives_marginals():
    stick = Dist.uniform([(0, 1), (1, 0), (2, 0), (3, 0)])  # points, naga
    pair = stick + stick
    assert pair.probability((0, 2)) == F(1, 16)
    assert pair.marginal(1).to_dict() == {0: F(9, 16), 1: F(6, 16), 2: F(1, 16)}
    assert pair.marginal(0).mean() == 3
    assert stick.covariance() == F(-3, 8)  # E[PN] - E[P]E[N] = 0 - 3/2 * 1/4
    with pytest.raises(TypeError, match="marginal"):
        pair.mean()


def test_map_and_shift():
    assert (D6 + 10).outcomes == list(range(11, 17))
    assert D6.map(lambda x: x % 2).to_dict() == {0: F(1, 2), 1: F(1, 2)}


def test_validation():
    with pytest.raises(ValueError, match="sum to 1"):
        Dist({1: F(1, 2)})
    with pytest.raises(ValueError, match="negative"):
        Dist({1: F(3, 2), 2: F(-1, 2)})
    with pytest.raises(ValueError, match="at least one face"):
        Dist.uniform([])
    with pytest.raises(ValueError, match="negative number"):
        D6.repeat(-1)


def test_tables_for_notebooks():
    coin = Dist.uniform([0, 1])
    assert coin.to_markdown().splitlines()[2] == "| 0 | 1/2 | 50.00% |"
    assert "<table" in coin._repr_html_() and "1/2" in coin._repr_html_()
    assert repr(coin) == "Dist({0: 1/2, 1: 1/2})"
    assert coin.floats() == {0: 0.5, 1: 0.5}


# ------------------------------------------------------------------ bad input (issue 9, point 11)


def test_joint_outcomes_of_different_lengths_do_not_add():
    # Before: zip() silently truncated, {(1, 2)} + {(1, 2, 3)} gave {(2, 4): 1}.
    with pytest.raises(ValueError, match="same length"):
        Dist({(1, 2): 1}) + Dist({(1, 2, 3): 1})
    with pytest.raises(ValueError, match="same length"):
        Dist({(1, 2): 1}) + Dist({3: 1})
    assert (Dist({(1, 2): 1}) + Dist({(3, 4): 1})).outcomes == [(4, 6)]


def test_html_and_markdown_tables_escape_outcomes():
    page = Dist({"<img src=x onerror=alert(1)>": 1})._repr_html_()
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "\\|" in Dist({"a|b": 1}).to_markdown()


def test_helpful_errors_for_wrong_arguments():
    with pytest.raises(TypeError, match="whole number of copies"):
        Dist.uniform([1, 2]).repeat(1.5)
    with pytest.raises(TypeError, match="Dist.uniform"):
        Dist([1, 2])
    with pytest.raises(TypeError, match="exact number"):
        Dist({1: 0.5, 2: 0.5})
    with pytest.raises(ValueError, match="fraction such as"):
        Dist({1: "half"})


def test_solve_linear_is_exact_and_says_singular():
    from fractions import Fraction as F

    from gamelib.dist import solve_linear

    # 2x + y = 1, x + 3y = 2  ->  x = 1/5, y = 3/5 (by hand: x = (3*1 - 2) / 5)
    assert solve_linear([[F(2), F(1), F(1)], [F(1), F(3), F(2)]]) == [F(1, 5), F(3, 5)]
    assert solve_linear([[F(1), F(2), F(1)], [F(2), F(4), F(2)]]) is None


def _sum_by_every_pair(a: Dist, b: Dist) -> dict:
    """The oracle for ``a + b``: every pair of outcomes, its probability the product (Fractions throughout)."""
    total = {}
    for x, p in a.items():
        for y, q in b.items():
            total[x + y] = total.get(x + y, 0) + p * q
    return total


@pytest.mark.parametrize("step", [1, 2, 3, 7, 100])
def test_sums_on_a_lattice_of_whole_numbers_match_every_pair(step):
    """Sides of 70 and 80 whole-number outcomes (5,600 pairs, past ``DENSE_PAIRS``) go through one big
    multiplication (gamelib.dist._convolve_dense); the pair loop is the oracle. Gaps, negative outcomes and
    unequal weights included, and sides too sparse for the lattice, which take the pair loop."""
    import random

    from gamelib import dist

    rng = random.Random(step)
    for spread in (100, 100, 100, 10**6):  # outcomes among 200 lattice points, then too far apart for a row
        sides = [
            Dist.from_weights(
                {n * step + 5 * step: rng.randrange(1, 10**12) for n in rng.sample(range(-spread, spread), size)}
            )
            for size in (70, 80)
        ]
        weights = [side._weights()[1] for side in sides]
        assert (dist._lattice_step(*weights) is not None) == (spread == 100)  # the path this trial means to test
        assert (sides[0] + sides[1]).to_dict() == _sum_by_every_pair(*sides)
