"""Exact discrete distributions, in the spirit of icepool's ``Die``.

A :class:`Dist` maps outcomes to exact :class:`~fractions.Fraction` probabilities.
Outcomes are integers, or tuples of integers for a joint distribution such as
(points, Nagas). Adding two distributions gives the distribution of the sum of two
independent variables (a convolution); tuples add element by element.
"""

from __future__ import annotations

import html
from fractions import Fraction
from math import comb, gcd, lcm, prod, sqrt
from typing import Callable, Hashable, Iterable, Mapping, Sequence

Outcome = Hashable

MAX_OUTCOMES = 100_000
"""The most outcomes an exact distribution built here holds (a student's typo must not fill the memory)."""
MAX_PAIRS = 1_000_000
"""The most pairs of outcomes one exact sum adds up (about a second of integer arithmetic)."""
MAX_TABLE_ROWS = 100_000
"""The most rows of ``at_least_table``: one per whole number between the smallest and largest outcome."""


def _check_pairs(pairs: int) -> None:
    if pairs > MAX_PAIRS:
        raise ValueError(
            f"this sum pairs up {pairs:,} outcomes, too many to compute exactly at once (at most "
            f"{MAX_PAIRS:,}): add smaller distributions, or simulate the sum (gamelib.simulate) "
            "for an estimate with its interval"
        )


def _add_outcomes(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            raise ValueError(f"cannot add outcome {a!r} to {b!r}: joint outcomes add only to tuples of the same length")
        return tuple(x + y for x, y in zip(a, b))
    return a + b


DENSE_PAIRS = 4096
"""From this many pairs on, whole-number outcomes on a lattice with few gaps are convolved in one multiplication."""


def _convolve(weights_a: dict, weights_b: dict) -> dict:
    """``{a + b: sum of wa * wb}`` over every pair of outcomes: the whole weights of an independent sum."""
    step = _lattice_step(weights_a, weights_b) if len(weights_a) * len(weights_b) >= DENSE_PAIRS else None
    if step is not None:
        return _convolve_dense(weights_a, weights_b, step)
    result: dict = {}
    if all(type(o) is int for o in weights_a) and all(type(o) is int for o in weights_b):
        pairs_b = list(weights_b.items())
        for a, wa in weights_a.items():
            for b, wb in pairs_b:
                result[a + b] = result.get(a + b, 0) + wa * wb
        return result
    for a, wa in weights_a.items():
        for b, wb in weights_b.items():
            s = _add_outcomes(a, b)
            result[s] = result.get(s, 0) + wa * wb
    return result


def _lattice_step(weights_a: dict, weights_b: dict) -> int | None:
    """The step ``g`` such that each side's whole-number outcomes are its lowest plus multiples of ``g``,
    when rows indexed by those multiples stay short (few gaps); else None (not whole numbers, or sparse)."""
    if not all(type(o) is int for o in weights_a) or not all(type(o) is int for o in weights_b):
        return None
    step = 0
    for weights in (weights_a, weights_b):
        low = min(weights)
        for outcome in weights:
            step = gcd(step, outcome - low)
    step = step or 1
    if any((max(weights) - min(weights)) // step >= 16 * len(weights) + 64 for weights in (weights_a, weights_b)):
        return None
    return step


def _convolve_dense(weights_a: dict, weights_b: dict, step: int) -> dict:
    """:func:`_convolve` for whole-number outcomes on a lattice of ``step``, by Kronecker substitution: each
    side's weights, indexed by outcome, are packed into one integer (one fixed-width slot per outcome),
    the two integers multiplied once, and the product's slots read back. Exact: every slot is wide enough
    for the largest sum of products it receives, so no slot carries into the next."""
    low_a, row_a = _row_of(weights_a, step)
    low_b, row_b = _row_of(weights_b, step)
    largest = max(row_a) * max(row_b) * min(len(row_a), len(row_b))
    width = largest.bit_length() // 8 + 1  # bytes a slot
    count = len(row_a) + len(row_b) - 1
    product = (_packed(row_a, width) * _packed(row_b, width)).to_bytes(width * count, "little")
    result = {}
    for at in range(count):
        weight = int.from_bytes(product[at * width : (at + 1) * width], "little")
        if weight:
            result[low_a + low_b + at * step] = weight
    return result


def _row_of(weights: dict, step: int) -> tuple[int, list[int]]:
    """``(lowest outcome, weights of every lattice point from it to the highest)``, 0 where none."""
    low = min(weights)
    row = [0] * ((max(weights) - low) // step + 1)
    for outcome, weight in weights.items():
        row[(outcome - low) // step] = weight
    return low, row


def _packed(row: list[int], width: int) -> int:
    return int.from_bytes(b"".join(weight.to_bytes(width, "little") for weight in row), "little")


def _zero_like(outcome):
    return tuple(0 for _ in outcome) if isinstance(outcome, tuple) else 0


def _probability(outcome, value) -> Fraction:
    if isinstance(value, (bool, float)) or not isinstance(value, (int, Fraction, str)):
        raise TypeError(
            f"the probability of {outcome!r} should be an exact number such as Fraction(1, 6), not {value!r}"
        )
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"the probability of {outcome!r} should be a fraction such as '1/6', not {value!r}") from None


class Dist:
    """An immutable, exact probability distribution over outcomes."""

    __slots__ = ("_probabilities",)

    def __init__(self, probabilities: Mapping[Outcome, Fraction | int]):
        if not isinstance(probabilities, Mapping):
            raise TypeError(
                "Dist takes a mapping {outcome: probability}, such as Dist({1: Fraction(1, 2), 2: "
                "Fraction(1, 2)}); for equally likely faces use Dist.uniform([1, 2])"
            )
        if len(probabilities) > MAX_OUTCOMES:
            raise ValueError(
                f"{len(probabilities):,} outcomes are more than an exact distribution holds here "
                f"({MAX_OUTCOMES:,}); group outcomes together or simulate instead"
            )
        cleaned: dict = {}
        for outcome, probability in probabilities.items():
            probability = _probability(outcome, probability)
            if probability < 0:
                raise ValueError(f"outcome {outcome!r} has a negative probability {probability}")
            if probability:
                cleaned[outcome] = cleaned.get(outcome, Fraction(0)) + probability
        total = sum(cleaned.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities must sum to 1, they sum to {total}")
        self._probabilities = dict(sorted(cleaned.items()))

    # ----------------------------------------------------------------- building
    @classmethod
    def from_weights(cls, weights: Mapping[Outcome, int | Fraction]) -> "Dist":
        """Normalise non-negative weights (for example counts of equally likely cases)."""
        total = sum(Fraction(w) for w in weights.values())
        if total <= 0:
            raise ValueError("weights must add up to more than zero")
        return cls({outcome: Fraction(w) / total for outcome, w in weights.items()})

    @classmethod
    def uniform(cls, faces: Iterable[Outcome]) -> "Dist":
        """Each listed face equally likely; repeated faces count twice (like a die's sides)."""
        if hasattr(faces, "__len__") and len(faces) > MAX_OUTCOMES:
            raise ValueError(
                f"{len(faces):,} faces are more than an exact distribution holds here "
                f"({MAX_OUTCOMES:,}); simulate draws instead (random.choice)"
            )
        weights: dict = {}
        for face in faces:
            weights[face] = weights.get(face, 0) + 1
            if len(weights) > MAX_OUTCOMES:
                raise ValueError(
                    f"more than {MAX_OUTCOMES:,} different faces are more than an exact distribution "
                    "holds here; simulate draws instead (random.choice)"
                )
        if not weights:
            raise ValueError("a die or stick needs at least one face")
        return cls.from_weights(weights)

    @classmethod
    def constant(cls, outcome: Outcome) -> "Dist":
        return cls({outcome: Fraction(1)})

    # ----------------------------------------------------------------- reading
    @property
    def outcomes(self) -> list:
        return list(self._probabilities)

    @property
    def probabilities(self) -> list[Fraction]:
        return list(self._probabilities.values())

    def items(self):
        return self._probabilities.items()

    def to_dict(self) -> dict:
        return dict(self._probabilities)

    def floats(self) -> dict:
        """A float view for plots."""
        return {outcome: float(p) for outcome, p in self._probabilities.items()}

    def probability(self, outcome: Outcome) -> Fraction:
        return self._probabilities.get(outcome, Fraction(0))

    def probability_where(self, condition: Callable[[Outcome], bool]) -> Fraction:
        return sum((p for o, p in self._probabilities.items() if condition(o)), Fraction(0))

    def at_least(self, threshold) -> Fraction:
        """P(X >= threshold)."""
        return self.probability_where(lambda o: o >= threshold)

    def at_most(self, threshold) -> Fraction:
        """P(X <= threshold)."""
        return self.probability_where(lambda o: o <= threshold)

    def at_least_table(self) -> dict:
        """P(X >= k) for every integer k from the smallest to the largest outcome."""
        self._require_numbers("at_least_table")
        rows = max(self._probabilities) - min(self._probabilities) + 1
        if rows > MAX_TABLE_ROWS:
            raise ValueError(
                f"a table from {min(self._probabilities)} to {max(self._probabilities)} would have "
                f"{rows:,} rows, more than {MAX_TABLE_ROWS:,}: ask for single thresholds with "
                "at_least(k), or build the table over the outcomes only"
            )
        table, remaining = {}, Fraction(1)
        for k in range(min(self._probabilities), max(self._probabilities) + 1):
            table[k] = remaining
            remaining -= self.probability(k)
        return table

    def __len__(self) -> int:
        return len(self._probabilities)

    def __eq__(self, other) -> bool:
        return isinstance(other, Dist) and self._probabilities == other._probabilities

    def __hash__(self) -> int:
        return hash(tuple(self._probabilities.items()))

    # ----------------------------------------------------------------- moments
    def _require_numbers(self, what: str) -> None:
        if any(isinstance(o, tuple) for o in self._probabilities):
            raise TypeError(f"{what} needs number outcomes; use marginal(i) on a joint distribution")

    def mean(self) -> Fraction:
        self._require_numbers("mean")
        return sum((o * p for o, p in self._probabilities.items()), Fraction(0))

    def variance(self) -> Fraction:
        mu = self.mean()
        return sum(((o - mu) ** 2 * p for o, p in self._probabilities.items()), Fraction(0))

    def standard_deviation(self) -> float:
        return sqrt(self.variance())

    # ----------------------------------------------------------------- combining
    def map(self, function: Callable[[Outcome], Outcome]) -> "Dist":
        """The distribution of ``function(X)``."""
        weights: dict = {}
        for outcome, p in self._probabilities.items():
            new = function(outcome)
            weights[new] = weights.get(new, Fraction(0)) + p
        return Dist(weights)

    def __add__(self, other: "Dist | int") -> "Dist":
        """The sum of two independent variables (a convolution), or a shift by a constant."""
        if not isinstance(other, Dist):
            return self.map(lambda o: _add_outcomes(o, other))
        _check_pairs(len(self) * len(other))
        # Whole-number weights over a common denominator: integer products, one Fraction per outcome.
        (below_a, weights_a), (below_b, weights_b) = self._weights(), other._weights()
        result = _convolve(weights_a, weights_b)
        return Dist._of_weights(result, below_a * below_b)

    @classmethod
    def _of_weights(cls, weights: Mapping[Outcome, int], below: int) -> "Dist":
        """The distribution of positive whole ``weights`` that sum to ``below`` exactly (a convolution's
        result), built without checking each probability again: the sum is 1 by construction."""
        if len(weights) > MAX_OUTCOMES:
            raise ValueError(
                f"{len(weights):,} outcomes are more than an exact distribution holds here "
                f"({MAX_OUTCOMES:,}); group outcomes together or simulate instead"
            )
        dist = object.__new__(cls)
        dist._probabilities = {outcome: Fraction(weights[outcome], below) for outcome in sorted(weights)}
        return dist

    def _weights(self) -> tuple[int, dict]:
        """``(denominator, {outcome: whole weight})`` with weight / denominator = probability."""
        below = lcm(*(p.denominator for p in self._probabilities.values()))
        return below, {o: p.numerator * (below // p.denominator) for o, p in self._probabilities.items()}

    __radd__ = __add__

    def repeat(self, times: int) -> "Dist":
        """The sum of ``times`` independent copies (by repeated squaring)."""
        if type(times) is not int:
            raise TypeError(f"repeat needs a whole number of copies, not {times!r}")
        if times < 0:
            raise ValueError(f"cannot add a negative number ({times}) of copies")
        self._check_repeat(times)
        result = Dist.constant(_zero_like(next(iter(self._probabilities))))
        power = self
        while times:
            if times & 1:
                result = result + power
            times >>= 1
            if times:
                power = power + power
        return result

    def _check_repeat(self, times: int) -> None:
        """Refuse, before any work, a sum of copies whose exact odds are too large to compute at once."""
        outcomes = self._outcomes_of_copies(times)
        if outcomes > MAX_OUTCOMES:
            raise ValueError(
                f"the sum of {times:,} copies has up to {outcomes:,} outcomes, too many to compute "
                f"exactly at once (at most {MAX_OUTCOMES:,}): use fewer copies, or simulate the "
                "sum (gamelib.simulate) for an estimate with its interval"
            )
        # the additions repeat() will make, counted on copies: (copies in result, copies in power)
        widest, result, power, left = (1, 1), 0, 1, times
        while left:
            if left & 1:
                widest = max(widest, (self._outcomes_of_copies(result), self._outcomes_of_copies(power)), key=prod)
                result += power
            left >>= 1
            if left:
                widest = max(widest, (self._outcomes_of_copies(power),) * 2, key=prod)
                power *= 2
        if prod(widest) > MAX_PAIRS:
            raise ValueError(
                f"adding {times:,} copies pairs up to {widest[0]:,} x {widest[1]:,} outcomes, too many "
                f"to compute exactly at once (at most {MAX_PAIRS:,} pairs): use fewer copies, or "
                "simulate the sum (gamelib.simulate) for an estimate with its interval"
            )

    def _outcomes_of_copies(self, times: int) -> int:
        """An upper bound on the number of outcomes of the sum of ``times`` copies."""
        if times == 0:
            return 1
        count = comb(times + len(self) - 1, len(self) - 1)  # the multisets of outcomes: any sum is one
        first = next(iter(self._probabilities))
        if isinstance(first, tuple):
            spans = [
                max(o[i] for o in self._probabilities) - min(o[i] for o in self._probabilities)
                for i in range(len(first))
            ]
            if all(isinstance(span, int) for span in spans):
                count = min(count, prod(span * times + 1 for span in spans))
        elif all(isinstance(o, int) for o in self._probabilities):
            count = min(count, (max(self._probabilities) - min(self._probabilities)) * times + 1)
        return count

    def compare(self, other: "Dist") -> tuple[Fraction, Fraction, Fraction]:
        """``(P(A > B), P(A = B), P(A < B))`` for independent A ~ self and B ~ other."""
        self._require_numbers("compare")
        other._require_numbers("compare")
        greater = equal = Fraction(0)
        below = Fraction(0)  # P(B < a) for the current a, outcomes sorted ascending
        other_items = list(other._probabilities.items())
        j = 0
        for a, pa in self._probabilities.items():
            while j < len(other_items) and other_items[j][0] < a:
                below += other_items[j][1]
                j += 1
            greater += pa * below
            equal += pa * other.probability(a)
        return greater, equal, 1 - greater - equal

    # ----------------------------------------------------------------- joint form
    def marginal(self, index: int) -> "Dist":
        """One coordinate of a joint distribution over tuples."""
        return self.map(lambda o: o[index])

    def covariance(self, i: int = 0, j: int = 1) -> Fraction:
        mean_i = self.marginal(i).mean()
        mean_j = self.marginal(j).mean()
        return sum(((o[i] - mean_i) * (o[j] - mean_j) * p for o, p in self._probabilities.items()), Fraction(0))

    # ----------------------------------------------------------------- tables
    def table_rows(self, fmt: Callable[[Fraction], str] | None = None) -> list[tuple[str, str, str]]:
        """Rows ``(outcome, exact probability, percent)``."""
        fmt = fmt or str
        return [(str(o), fmt(p), f"{float(p):.2%}") for o, p in self._probabilities.items()]

    def to_markdown(self, header: Sequence[str] = ("outcome", "probability", "percent")) -> str:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += [
            "| " + " | ".join(html.escape(cell).replace("|", "\\|") for cell in row) + " |" for row in self.table_rows()
        ]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        rows = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in self.table_rows()
        )
        return (
            '<table class="gamelib-dist"><thead><tr><th>outcome</th><th>probability</th>'
            f"<th>percent</th></tr></thead><tbody>{rows}</tbody></table>"
        )

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self._probabilities.items())
        return f"Dist({{{inner}}})"


def sum_of(parts: Iterable[Dist]) -> Dist:
    """The distribution of the sum of independent parts."""
    parts = list(parts)
    if not parts:
        return Dist.constant(0)
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def solve_linear(augmented: list[list[Fraction]]) -> list[Fraction] | None:
    """Exact Gauss-Jordan elimination: the solution of the square system whose rows are
    ``[a_1, ..., a_n, b]``, or None when it is singular. The rows are changed in place."""
    size = len(augmented)
    for column in range(size):
        pivot = next((r for r in range(column, size) if augmented[r][column] != 0), None)
        if pivot is None:
            return None
        augmented[column], augmented[pivot] = augmented[pivot], augmented[column]
        lead = augmented[column][column]
        augmented[column] = [entry / lead for entry in augmented[column]]
        for r in range(size):
            if r != column and augmented[r][column] != 0:
                factor = augmented[r][column]
                augmented[r] = [x - factor * y for x, y in zip(augmented[r], augmented[column])]
    return [row[size] for row in augmented]
