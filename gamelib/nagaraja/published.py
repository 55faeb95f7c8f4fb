"""What the published rules say about the fate sticks, and every face table that agrees with it
(nagaraja.md#published-sticks).

The real faces are printed only on the player aid, which this project cannot read. The rules text
and reviews still pin a lot down: :data:`FACTS` lists each published fact with its source, and
:func:`consistent_tables` lists every table (brown, white, green; four faces each; a face is some
points or a Naga) that agrees with all of them. The teaching edition (Model A) is one of them; the
range of a number over all of them says which conclusions hold for every edition and which depend
on the unknown faces.

    >>> len(consistent_tables()) > 1
    True
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import prod

from gamelib.nagaraja import sticks
from gamelib.nagaraja.stick_facts import (  # noqa: F401  (re-exported: the facts and their checks)
    _CHECKS,
    FACTS,
    NAGA,
    SEED,
    _elodie_possible,
    _marion_possible,
    _nagas,
    _points,
    _sticks,
    satisfies,
)

# The enumeration's bound on the dots of one face. Nothing published bounds it; 4 is the largest face the
# rules text's example forces (two browns showing 7), so the tables list sticks no bigger than the example
# needs. An assumption, and the counts depend on it: 906 tables at 4, 3550 at 5, 9334 at 6.
MAX_POINTS = 4
ELODIE, MARION = (0, 3, 0), (3, 1, 1)  # the rules text's example pools (nagaraja.md#example)


def _stick_candidates(max_points: int) -> list[tuple]:
    """Every four-face stick (faces sorted: order on the stick does not matter): Nagas and 1..max_points."""
    faces = [NAGA] + [(p, 0) for p in range(1, max_points + 1)]
    return [tuple(sorted(c, key=lambda f: (f[1] == 0, f[0]))) for c in combinations_with_replacement(faces, 4)]


@lru_cache(maxsize=4)
def consistent_tables(max_points: int = MAX_POINTS) -> tuple[dict, ...]:
    """Every face table, up to the order of faces on a stick and with at most ``max_points`` dots on a
    face, that agrees with every fact of :data:`FACTS`; sorted, as ``{colour: faces}`` dicts.

    Fast path: each stick is filtered by the facts about its own colour first (green's two Nagas,
    white's possible 3-white throw), then the three are combined. tests/test_nagaraja_published.py
    checks it against :func:`brute_force_tables`, which tests every table against every fact."""
    candidates = _stick_candidates(max_points)
    greens = [g for g in candidates if _nagas(g) == 2]
    whites = [w for w in candidates if _nagas(w) <= 2 and _elodie_possible(w)]
    found = []
    for white in whites:
        for green in greens:
            if not (_points(white) > _points(green) and _nagas(white) <= _nagas(green)):
                continue
            for brown in candidates:
                if (
                    _points(brown) > _points(white)
                    and _nagas(brown) <= _nagas(white)
                    and _marion_possible(brown, white, green)
                ):
                    found.append(dict(zip(sticks.COLOURS, (brown, white, green))))
    return tuple(sorted(found, key=_table_key))


def brute_force_tables(max_points: int) -> tuple[dict, ...]:
    """The oracle: every table of three four-face sticks, each fact checked literally (slow)."""
    candidates = _stick_candidates(max_points)
    found = []
    for sticks_ in product(candidates, repeat=3):
        table = dict(zip(sticks.COLOURS, sticks_))
        if all(check(table) for check in _CHECKS.values()):  # each fact literally, cheapest first
            found.append(table)
    return tuple(sorted(found, key=_table_key))


def _table_key(table) -> tuple:
    return tuple(table[c] for c in sticks.COLOURS)


def canonical(table) -> dict:
    """A face table with each stick's faces in the enumeration's order (for comparisons)."""
    return {c: tuple(sorted((tuple(f) for f in table[c]), key=lambda f: (f[1] == 0, f[0]))) for c in sticks.COLOURS}


# --------------------------------------------------------------------------- the headline numbers


def _mean_points(pool, table) -> Fraction:
    return sum((count * Fraction(_points(table[c]), 4) for count, c in zip(pool, sticks.COLOURS)), Fraction(0))


def _p_naga(pool, table) -> Fraction:
    none = Fraction(1)
    for count, colour in zip(pool, sticks.COLOURS):
        none *= (1 - Fraction(_nagas(table[colour]), 4)) ** count
    return 1 - none


HEADLINES = {  # name -> (label, function of a table)
    "elodie_mean": ("Elodie's 3 white: mean points", lambda t: _mean_points(ELODIE, t)),
    "elodie_naga": ("Elodie's 3 white: P(at least one Naga)", lambda t: _p_naga(ELODIE, t)),
    "marion_mean": ("Marion's 3 brown + 1 white + 1 green: mean points", lambda t: _mean_points(MARION, t)),
    "marion_naga": ("Marion's 3 brown + 1 white + 1 green: P(at least one Naga)", lambda t: _p_naga(MARION, t)),
    "pwin": (
        "P(Elodie, the guide, wins the room) in the example",
        lambda t: sticks.win_probability(ELODIE, MARION, True, t),
    ),
    "edge": (
        "The guide's edge from winning ties (P(equal points)) in the example",
        lambda t: sticks.compare(ELODIE, MARION, t)[1],
    ),
}


@lru_cache(maxsize=4)
def headline_ranges(max_points: int = MAX_POINTS) -> dict[str, dict]:
    """For each headline number: its lowest and highest value over :func:`consistent_tables`, and the
    teaching edition's (Model A's) value, with its rank among all tables."""
    tables = consistent_tables(max_points)
    model_a = sticks.load_faces("A")
    result = {}
    for name, (label, value) in HEADLINES.items():
        values = [value(t) for t in tables]
        mine = value(model_a)
        result[name] = {
            "label": label,
            "low": min(values),
            "high": max(values),
            "teaching": mine,
            "below": sum(v < mine for v in values),
            "tables": len(values),
        }
    return result


@lru_cache(maxsize=4)
def _profiles(max_points: int) -> tuple[frozenset, frozenset]:
    """The distinct per-colour point totals and Naga counts over the consistent tables: a pool's mean
    points depends only on the first, its chance of a Naga only on the second (few of each)."""
    tables = consistent_tables(max_points)
    points = frozenset(tuple(_points(t[c]) for c in sticks.COLOURS) for t in tables)
    nagas = frozenset(tuple(_nagas(t[c]) for c in sticks.COLOURS) for t in tables)
    return points, nagas


@lru_cache(maxsize=512)
def pool_ranges(pool, max_points: int = MAX_POINTS) -> dict[str, tuple[Fraction, Fraction]]:
    """Mean points and P(at least one Naga) of any pool: (lowest, highest) over the consistent tables."""
    points, nagas = _profiles(max_points)
    means = [Fraction(sum(k * p for k, p in zip(pool, row)), 4) for row in points]
    chances = [1 - Fraction(prod((4 - n) ** k for k, n in zip(pool, row)), 4 ** sum(pool)) for row in nagas]
    return {"mean": (min(means), max(means)), "naga": (min(chances), max(chances))}


def distinct_faces(max_points: int = MAX_POINTS) -> dict[str, Counter]:
    """How many consistent tables give each colour each stick (what the facts pin down, colour by colour)."""
    return {c: Counter(t[c] for t in consistent_tables(max_points)) for c in sticks.COLOURS}


def ranges_table(max_points: int = MAX_POINTS) -> str:
    """The headline numbers as a plain table: lowest, teaching edition (Model A), highest, and how many
    of the consistent tables give less than the teaching edition (for the lesson, Nagaraja 01)."""
    ranges = headline_ranges(max_points)
    rows = [
        (
            f"{len(consistent_tables(max_points))} stick tables agree with every published fact "
            f"(at most {max_points} dots a face)."
        ),
        f"{'number':<72} {'lowest':>9} {'teaching':>9} {'highest':>9}  tables below teaching",
    ]
    for entry in ranges.values():
        rows.append(
            f"{entry['label']:<72} {_short(entry['low']):>9} {_short(entry['teaching']):>9} "
            f"{_short(entry['high']):>9}  {entry['below']}"
        )
    return "\n".join(rows)


def _short(value: Fraction) -> str:
    return f"{float(value):.3g}" if value < 1 else f"{float(value):.2f}"
