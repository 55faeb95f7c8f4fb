"""Session 4 (perceiving randomness): exact streaks, and randomizers that shape them.

A *randomizer* decides, trial after trial, whether an event happens (a six is rolled, a Naga shows,
an attack hits). The plain die is independent: every trial has the same chance, whatever came
before. Designers replace it with a **shuffle bag** (the faces are drawn from a bag without
replacement, refilled when empty) or a **pity rule** (after a run of misses the chance rises),
because long droughts *feel* unfair even when they are fair. Each randomizer is a small Markov
chain: a ``start`` state, the chance of the event in a state, and the state after a hit or a miss.
Everything here is exact (Fractions), by dynamic programming over (state, current drought,
longest drought), so no figure is a simulation.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gamelib.dist import Dist, solve_linear


class Randomizer:
    """Subclass and write ``start``, ``chance(state)`` (a Fraction) and ``after(state, hit)``."""

    name = "randomizer"

    def start(self) -> Hashable:
        raise NotImplementedError

    def chance(self, state: Hashable) -> Fraction:
        raise NotImplementedError

    def after(self, state: Hashable, hit: bool) -> Hashable:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


@dataclass(frozen=True, repr=False)
class Independent(Randomizer):
    """A fair die (or coin, or stick) whose event has the same chance ``p`` on every trial."""

    p: Fraction

    @property
    def name(self) -> str:
        return f"independent (p = {self.p})"

    def start(self):
        return ()

    def chance(self, state):
        return self.p

    def after(self, state, hit):
        return ()


@dataclass(frozen=True, repr=False)
class ShuffleBag(Randomizer):
    """``hits`` event faces among ``size`` faces in a bag, drawn without replacement, refilled when empty."""

    hits: int
    size: int

    @property
    def name(self) -> str:
        return f"shuffle bag ({self.hits} of {self.size})"

    def start(self):
        return (self.hits, self.size - self.hits)

    def chance(self, state):
        left_hits, left_misses = state
        return Fraction(left_hits, left_hits + left_misses)

    def after(self, state, hit):
        left_hits, left_misses = state
        state = (left_hits - 1, left_misses) if hit else (left_hits, left_misses - 1)
        return self.start() if state == (0, 0) else state


@dataclass(frozen=True, repr=False)
class Pity(Randomizer):
    """Chance ``p`` until ``after_misses`` misses in a row; then ``boosted`` until the next hit."""

    p: Fraction
    after_misses: int
    boosted: Fraction = Fraction(1)

    @property
    def name(self) -> str:
        return f"pity (p = {self.p}, {self.boosted} after {self.after_misses} misses)"

    def start(self):
        return 0

    def chance(self, state):
        return self.boosted if state >= self.after_misses else self.p

    def after(self, state, hit):
        return 0 if hit else min(state + 1, self.after_misses)


@dataclass(frozen=True, repr=False)
class Ramp(Randomizer):
    """The chance grows by ``step`` with every miss in a row: ``step`` x (misses + 1), at most 1
    (the "pseudo-random distribution" of some video games: droughts are cut short, streaks of hits too)."""

    step: Fraction

    @property
    def name(self) -> str:
        return f"ramp (+{self.step} a miss)"

    def start(self):
        return 0

    def chance(self, state):
        return min(Fraction(1), self.step * (state + 1))

    def after(self, state, hit):
        return 0 if hit else state + 1


@dataclass(frozen=True)
class StreakFigures:
    """Exact figures of ``trials`` trials of a randomizer."""

    randomizer: Any
    trials: int
    longest_drought: Dist  # the longest run of misses
    hits: Dist  # the number of hits

    def drought_percentile(self, share: Fraction = Fraction(95, 100)) -> int:
        """The smallest length L with P(longest drought <= L) >= share."""
        total = Fraction(0)
        for length in sorted(self.longest_drought.outcomes):
            total += self.longest_drought.probability(length)
            if total >= share:
                return length
        raise AssertionError("the distribution sums to 1")


def figures(randomizer: Randomizer, trials: int) -> StreakFigures:
    """The exact distributions of the longest drought and of the number of hits over ``trials`` trials."""
    _checked_trials(trials)
    layer: dict[tuple, Fraction] = {(randomizer.start(), 0, 0, 0): Fraction(1)}
    for _ in range(trials):
        following: dict[tuple, Fraction] = {}
        for (state, drought, longest, hits), weight in layer.items():
            p = _chance(randomizer, state)
            for hit, chance in ((True, p), (False, 1 - p)):
                if chance == 0:
                    continue
                now = 0 if hit else drought + 1
                key = (randomizer.after(state, hit), now, max(longest, now), hits + hit)
                following[key] = following.get(key, Fraction(0)) + weight * chance
        layer = following
    droughts: dict[int, Fraction] = {}
    counts: dict[int, Fraction] = {}
    for (_, _, longest, hits), weight in layer.items():
        droughts[longest] = droughts.get(longest, Fraction(0)) + weight
        counts[hits] = counts.get(hits, Fraction(0)) + weight
    return StreakFigures(randomizer, trials, Dist(droughts), Dist(counts))


def longest_same_face(rolls: int, faces: int = 6) -> Dist:
    """The exact distribution of the longest run of one face repeated, in ``rolls`` rolls of a fair die.

    After the first roll, each roll repeats the one before with chance 1/faces, independently, so the
    longest run is 1 + the longest run of "repeats" in ``rolls - 1`` trials."""
    _checked_trials(rolls)
    if rolls == 0:
        return Dist({0: 1})
    repeats = figures(_Complement(Fraction(1, faces)), rolls - 1).longest_drought
    return repeats.map(lambda length: length + 1)


@dataclass(frozen=True, repr=False)
class _Complement(Randomizer):
    """Misses of this randomizer are the hits of an independent event of chance ``p`` (to reuse droughts)."""

    p: Fraction

    def start(self):
        return ()

    def chance(self, state):
        return 1 - self.p

    def after(self, state, hit):
        return ()


def first_to_hit(randomizer: Randomizer, players: int = 2) -> list[Fraction]:
    """Each seat's exact chance of being first to hit, seats taking trials in turn from seat 0 on one
    shared randomizer (a race to the first six). Solved as a linear system, so it is exact."""
    states, index = [], {}
    frontier = [(randomizer.start(), 0)]
    while frontier:
        node = frontier.pop()
        if node in index:
            continue
        index[node] = len(states)
        states.append(node)
        state, seat = node
        if _chance(randomizer, state) < 1:
            frontier.append((randomizer.after(state, False), (seat + 1) % players))
    chances = []
    for winner in range(players):
        # x[node] = p * [seat == winner] + (1 - p) * x[next node]
        size = len(states)
        rows = []
        for state, seat in states:
            p = _chance(randomizer, state)
            row = [Fraction(0)] * (size + 1)
            row[index[(state, seat)]] += 1
            if p < 1:
                row[index[(randomizer.after(state, False), (seat + 1) % players)]] -= 1 - p
            row[size] = p if seat == winner else Fraction(0)
            rows.append(row)
        chances.append(solve_linear(rows)[index[(randomizer.start(), 0)]])
    return chances


def _chance(randomizer: Randomizer, state: Hashable) -> Fraction:
    p = randomizer.chance(state)
    if isinstance(p, float) or not isinstance(p, (Fraction, int)) or isinstance(p, bool) or not 0 <= p <= 1:
        raise ValueError(
            f"{randomizer!r}.chance({state!r}) returned {p!r}: return an exact Fraction from 0 to 1, "
            f"e.g. Fraction(1, 6)"
        )
    return Fraction(p)


def _checked_trials(trials: int) -> None:
    if type(trials) is not int or not 0 <= trials <= 200:
        raise ValueError(f"trials must be a whole number from 0 to 200, not {trials!r}")


# --------------------------------------------------------------------------- the session's design target

TARGET_P = Fraction(1, 4)
"""The event of the target: a white fate stick shows its Naga side (1 side of 4)."""
TARGET_TRIALS = 40
TARGET_DROUGHT = 8
"""95% of sessions of 40 throws must have no drought longer than this (the plain stick: 17)."""
TARGET_MEAN_TOLERANCE = Fraction(1, 4)


def check_drought_design(
    randomizer: Randomizer,
    *,
    p: Fraction = TARGET_P,
    trials: int = TARGET_TRIALS,
    bound: int = TARGET_DROUGHT,
    tolerance: Fraction = TARGET_MEAN_TOLERANCE,
):
    """The design target: a randomizer for an event of chance ``p`` whose longest drought over ``trials``
    trials is at most ``bound`` in 95% of sessions, with the mean number of hits within ``tolerance`` of
    ``p * trials`` (the plain event's). Exact; says which half missed, by how much, and why."""
    from gamelib.exercises import Feedback

    try:
        result = figures(randomizer, trials)
    except ValueError as problem:
        return Feedback(f"Not checked: {problem}.", False)
    except Exception as problem:  # noqa: BLE001 - a student's randomizer: the message names it
        return Feedback(f"Not checked: running {randomizer!r} raised {type(problem).__name__}: {problem}.", False)
    wanted = p * trials
    mean = result.hits.mean()
    percentile = result.drought_percentile()
    measured = (
        f"over {trials} trials, 95% of sessions have a longest drought of at most {percentile} "
        f"(target {bound}), and the mean number of hits is {float(mean):.3f} (target {float(wanted):g} "
        f"± {float(tolerance):g})"
    )
    problems = []
    if percentile > bound:
        problems.append(f"the droughts are {percentile - bound} too long: cut them (a smaller bag, an earlier pity)")
    if abs(mean - wanted) > tolerance:
        way = "more" if mean > wanted else "fewer"
        problems.append(
            f"it gives {float(abs(mean - wanted)):.3f} {way} hits than the plain event: the rule "
            f"changes how often the event happens, not only when (lower or raise the base chance to "
            f"pay for it)"
        )
    if not problems:
        return Feedback(f"Right: {measured}.", True)
    return Feedback(f"Not yet: {measured}; " + "; and ".join(problems) + ".", False)
