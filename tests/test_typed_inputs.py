"""Inputs a student types (issue 24): exact odds with resource bounds, and ``check_answer`` giving
feedback, escaped for Markdown and HTML, to any answer of any shape.

The sweeps at the end try answers of every shape; ``GAMELIB_LONG_TESTS=1`` runs them longer.
"""

from __future__ import annotations

import os
import random
from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib.dist import Dist
from gamelib.exercises import (
    Feedback,
    check_answer,
    digest,
    lessons,
    load,
    markdown_escape,
)
from gamelib.lesson_checks import check_same_sums

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
SCALE = 10 if LONG else 1

# ------------------------------------------------------------------ exact odds with bounds


def test_a_thousand_dice_are_refused_at_once_with_what_to_do_instead():
    with pytest.raises(ValueError, match=r"adding 1,000 copies .* too many to compute exactly .* simulate the sum"):
        Dist.uniform(range(1, 7)).repeat(1000)


def test_a_table_over_ten_million_numbers_is_refused_with_what_to_do_instead():
    with pytest.raises(
        ValueError, match=r"10,000,001 rows, more than 100,000: ask for single thresholds with at_least"
    ):
        Dist({0: F(1, 2), 10**7: F(1, 2)}).at_least_table()
    assert Dist({0: F(1, 2), 10**7: F(1, 2)}).at_least(10**7) == F(1, 2)


def test_too_many_faces_or_pairs_are_refused():
    with pytest.raises(ValueError, match="faces are more than an exact distribution holds"):
        Dist.uniform(range(10**9))
    with pytest.raises(ValueError, match="different faces are more than"):
        Dist.uniform(iter(range(10**9)))
    wide = Dist.uniform(range(2000))
    with pytest.raises(ValueError, match=r"pairs up 4,000,000 outcomes, too many"):
        wide + Dist.uniform(range(0, 20000, 10))


def test_repeat_within_the_bounds_is_the_brute_force_sum():
    # brute force: every ordered throw of n dice counted (the oracle of repeat's squaring)
    die = Dist.uniform([1, 2, 2, 5])
    for copies in range(5):
        counts: dict = {}
        for faces in np.ndindex(*([4] * copies)):
            total = sum([1, 2, 2, 5][i] for i in faces)
            counts[total] = counts.get(total, 0) + 1
        assert die.repeat(copies) == Dist.from_weights(counts or {0: 1})
    assert len(Dist.uniform(range(1, 7)).repeat(300)) == 1501  # 300 .. 1800


def test_the_bound_on_copies_counts_multisets_of_any_outcome():
    # n copies of two outcomes have at most n + 1 sums, whatever the outcomes are
    assert len(Dist.uniform([F(1, 2), F(3, 2)]).repeat(200)) == 201
    joint = Dist.uniform([(1, 0), (0, 1)])
    assert joint.repeat(50).probability((25, 25)) == F(126410606437752, 2**50)  # C(50, 25) / 2^50


@settings(max_examples=60 * SCALE, deadline=None, derandomize=True)
@given(faces=st.lists(st.integers(-50, 50), min_size=1, max_size=8), copies=st.integers(0, 3000))
def test_repeat_fuzz_gives_a_clear_error_or_the_same_as_adding_one_by_one(faces, copies):
    die = Dist.uniform(faces)
    try:
        total = die.repeat(copies)
    except ValueError as problem:
        assert "too many to compute exactly" in str(problem)
        return
    if copies <= 12:
        slow = Dist.constant(0)
        for _ in range(copies):
            slow = slow + die
        assert total == slow
    assert total.mean() == copies * die.mean()


# ------------------------------------------------------------------ check_answer


@pytest.mark.parametrize(
    "answer, reason",
    [
        ("1e1000000", "far too large or too small"),
        ("1e100000000", "far too large or too small"),
        ("1e-100000000", "far too large or too small"),
        (F(10**5000, 3), "more than 600 digits"),
        (10**5000, "more than 600 digits"),
        (Decimal("1e100000000"), "far too large or too small"),
        ("9" * 5000, "5,000 characters long"),
        (float("inf"), "exact fraction"),
        (float("nan"), "exact fraction"),
        ("1/0", "0 below the line"),
        ([1, 2], "not a number"),
        (True, "not True or False"),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, str) else value[:12],
)
def test_huge_and_strange_exact_answers_get_feedback(answer, reason):
    feedback = check_answer("pangu_03", "q1", answer)
    assert isinstance(feedback, Feedback) and not feedback
    assert reason in feedback


@pytest.mark.parametrize(
    "answer",
    ["1e1000000", "1e100000000", F(10**5000, 3), 10**5000, float("inf"), "x" * 10**6],
    ids=["1e1000000", "1e100000000", "huge fraction", "huge int", "inf", "long text"],
)
def test_huge_integer_and_text_answers_get_feedback(answer):
    assert not check_answer("pangu_01", "q1", answer)  # integer question
    assert not check_answer("chakra_01", "q2", answer)  # text question


@pytest.mark.parametrize("question", [[], {}, None, 3, ("q1",), b"q1", "q99"])
def test_a_question_of_any_type_gets_feedback(question):
    feedback = check_answer("pangu_03", question, 1)
    assert not feedback and "There is no question" in feedback and "try q1" in feedback


@pytest.mark.parametrize("lesson", [[], None, 3, "pangu_99", b"pangu_03"])
def test_a_lesson_of_any_type_gets_feedback(lesson):
    feedback = check_answer(lesson, "q1", 1)
    assert not feedback and "There is no lesson" in feedback


def test_typed_text_is_escaped_in_the_markdown_a_notebook_shows():
    feedback = check_answer("pangu_03", "<img src=x onerror=alert(1)>**q**", 1)
    assert "<img" not in feedback._repr_markdown_() and "&lt;img" in feedback._repr_markdown_()
    assert "\\*\\*q\\*\\*" in feedback._repr_markdown_()
    assert "<img src=x" in str(feedback)  # the plain text says what was typed, shortened
    lesson = check_answer("[click](javascript:alert(1))", "q1", 1)._repr_markdown_()
    assert "](" not in lesson and "\\[click\\]\\(javascript" in lesson
    assert markdown_escape("a\n# title") == "a \\# title"
    assert markdown_escape("'<b>' & \"x\"") == "'&lt;b&gt;' &amp; \"x\""  # entities whole, quotes harmless in text


def test_right_answers_and_the_author_text_are_unchanged():
    right = check_answer("course_06", "q2", 402)  # session 6 (balance and seats), its second question
    assert right and right._repr_markdown_() == str(right) == repr(right) == "✅ q2: right!"


def test_the_start_page_check_refuses_huge_faces_with_a_reason():
    feedback = check_same_sums([1, 2, 3, 4, 5, 10**5000], [1, 2, 3, 4, 5, 6])
    assert not feedback and "a face above 100" in feedback
    assert check_same_sums([1, 2, 2, 3, 3, 4], [1, 3, 4, 5, 6, 8])


class Hostile:
    def __repr__(self):
        raise RuntimeError("no repr")

    def __str__(self):
        raise RuntimeError("no str")


def typed_answers(rng: random.Random):
    """Answers of every shape a student can type in a cell."""
    number = rng.choice([0, 1, -1, 7, 402, 10 ** rng.randrange(1, 8000), -(10 ** rng.randrange(1, 700))])
    text = "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(0, 20)))
    return rng.choice(
        [
            number,
            F(number, rng.choice([1, 3, 8, 10 ** rng.randrange(1, 900)])),
            float(rng.choice([0.5, 62, 1e308, -0.0])),
            f"{number}" if number < 10**4000 else "9" * 4500,
            f"{rng.randrange(100)}/{rng.randrange(100)}",
            f"1e{rng.randrange(-(10**9), 10**9)}",
            f"{rng.random()}e{rng.randrange(-2000, 2000)}",
            text,
            text * rng.randrange(1, 3000),
            Decimal(rng.random()),
            Decimal(f"1e{rng.randrange(-(10**6), 10**6)}"),
            [number],
            {"a": 1},
            (1, 2),
            None,
            ...,
            True,
            Hostile(),
            np.int64(rng.randrange(-99, 99)),
            np.float64(rng.random()),
            np.array([1, 2]),
            b"3/8",
            complex(1, 1),
            float("nan"),
            float("-inf"),
            "<b>bold</b>",
            "**x**",
            "`x`",
            "3/8 ",
            " 3 / 8",
            "٣",
            "1_000",
        ]
    )


def test_answers_of_every_shape_get_feedback():
    rng = random.Random(2024)
    sheets = {lesson: load(lesson) for lesson in lessons()}
    tried = 0
    for _ in range(400 * SCALE):
        lesson = rng.choice(sorted(sheets))
        question = rng.choice(sorted(sheets[lesson]))
        answer = typed_answers(rng)
        feedback = check_answer(lesson, question, answer)
        tried += 1
        assert isinstance(feedback, Feedback) and isinstance(feedback.correct, bool)
        assert "<" not in feedback._repr_markdown_().replace("&lt;", "")
    print(f"check_answer fuzz: {tried} typed answers")


@settings(max_examples=150 * SCALE, deadline=None, derandomize=True)
@given(value=st.fractions(max_denominator=10**6).filter(lambda v: abs(v) < 10**12))
def test_the_same_number_typed_any_way_gets_the_same_verdict(value):
    shapes = [value, str(value), f" {value.numerator}/{value.denominator} "]
    if value.denominator == 1:
        shapes += [int(value), float(value), Decimal(int(value))]
    for kind in ("exact", "integer") if value.denominator == 1 else ("exact",):
        assert len({digest(shape, kind) for shape in shapes}) == 1
    verdicts = {(check_answer("pangu_03", "q1", shape).correct) for shape in shapes}
    assert len(verdicts) == 1
