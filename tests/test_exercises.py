"""check_answer reads a whole-number answer the same whether it is an int, a Fraction or a float (issue 14).

statistics.median of an even number of whole lengths can give 62.0; that answer is exact and
must not be refused "as a decimal", for an "exact" question as for an "integer" one. A float
with a fractional part is already rounded, so an exact question still refuses it.
"""

from fractions import Fraction

import pytest

from gamelib.exercises import Unreadable, check_answer, digest, normalise


@pytest.mark.parametrize("kind", ["exact", "integer"])
def test_an_integral_float_is_the_same_answer_as_the_whole_number(kind):
    assert digest(62.0, kind) == digest(62, kind) == digest(Fraction(62), kind)
    assert digest(-3.0, kind) == digest(-3, kind)


def test_a_non_integral_float_is_refused_where_an_exact_fraction_is_wanted():
    with pytest.raises(Unreadable, match="exact fraction"):
        normalise(2.5, "exact")
    assert "exact fraction" in check_answer("pangu_03", "q1", 2.2)


def test_a_non_integral_float_is_not_a_whole_number():
    with pytest.raises(Unreadable, match="whole number"):
        normalise(2.5, "integer")


def test_course_06_q2_hints_match_the_mistake():
    # the answer is games_to_see(1/3, 0.40) = 402 (session 6); 194 is games_to_see(1/2, 0.40), the
    # 1/2-for-1/3 mistake; 401 rounds the formula's 401.x down; 500 is no known mistake
    assert check_answer("course_06", "q2", 402)
    assert check_answer("course_06", "q2", 402.0)
    assert "1/3, not 1/2" in check_answer("course_06", "q2", 194)
    assert "round up" in check_answer("course_06", "q2", 401)
    general = check_answer("course_06", "q2", 500)
    assert not general and "1/2" not in general and "Hint:" in general
