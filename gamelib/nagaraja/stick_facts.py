"""The published facts about the fate sticks, each with its source, and a check of each for one face
table (nagaraja.md#published-sticks). Used by the stick loader (the teaching files must keep every
fact they name) and by :mod:`gamelib.nagaraja.published` (every table that keeps them all).

It imports nothing of the game, so the loader in ``sticks`` can use it.
"""

from __future__ import annotations

from itertools import product

COLOURS = ("BROWN", "WHITE", "GREEN")  # = sticks.COLOURS (a test checks)
NAGA = (0, 1)
SEED = "the Spanish rules text (entretenimientodigital.net/reglas-del-juego-de-nagaraja)"
FACTS = (
    (
        "four_faces",
        "Three kinds of fate stick, all four-sided (brown long, white medium, green short).",
        SEED + ", 'Palos del destino': 'Hay 3 tipos de varas de destino, todas de cuatro caras'",
    ),
    (
        "points_or_naga",
        "A face shows fate points (one per dot) or a Naga, not both; no face is blank.",
        SEED
        + " ('Cada uno cuenta un punto de destino' / 'Cada uno es un Naga'); 'not both': reviews (rules page: Sources); "
        "'not blank': assumed, as every face shows one of the two symbols",
    ),
    (
        "elodie_throw",
        "3 white sticks can give 5 points and 1 Naga.",
        SEED + ", example of step 1: '5 puntos de destino y 1 Naga para Elodie' with 3 white",
    ),
    (
        "marion_throw",
        (
            "3 brown + 1 white + 1 green can give 11 points and 1 Naga, where two of the brown sticks "
            "show 7 points together and Marion keeps her Naga after discarding them (4 points left)."
        ),
        SEED + ", examples of steps 1 and 2: '11 puntos de destino y 1 Naga para Marion'; 'obliga a Marion a descartar "
        "2 palos marrones'; 'Marion elige no usar su Naga'; '5 puntos de destino, en comparación con los 4 de Marion'",
    ),
    (
        "points_order",
        "Longer sticks have more points: brown > white > green (total points on the four faces).",
        SEED + ": 'Los palos más grandes tienen más puntos de destino pero menos nagas'",
    ),
    (
        "naga_order",
        "Longer sticks have fewer Nagas: Naga faces brown <= white <= green.",
        SEED + " (same sentence; read as 'no more', so equal counts are allowed)",
    ),
    ("green_two_nagas", "Green has exactly two Naga faces.", "reviews (rules page: Sources): green has 2 Naga faces"),
)


def _nagas(stick) -> int:
    return sum(n for _, n in stick)


def _points(stick) -> int:
    return sum(p for p, _ in stick)


def _elodie_possible(white) -> bool:
    """3 white sticks can show 5 points and exactly 1 Naga."""
    return any(
        sum(p for p, _ in throw) == 5 and sum(n for _, n in throw) == 1 for throw in product(set(white), repeat=3)
    )


def _marion_possible(brown, white, green) -> bool:
    """3 brown + 1 white + 1 green can show 11 points and 1 Naga, two Naga-free browns summing to 7,
    the Naga on one of the other three sticks (Marion still holds it after the discard)."""
    for b1, b2 in product(set(brown), repeat=2):
        if b1[1] or b2[1] or b1[0] + b2[0] != 7:
            continue
        for rest in product(set(brown), set(white), set(green)):
            if sum(p for p, _ in rest) == 4 and sum(n for _, n in rest) == 1:
                return True
    return False


def _sticks(table) -> tuple:
    return tuple(tuple(tuple(face) for face in table[c]) for c in COLOURS)


_CHECKS = {  # fact -> check of one table; ordered cheapest first (the brute-force oracle stops at the first no)
    "four_faces": lambda t: all(len(s) == 4 for s in _sticks(t)),
    "points_or_naga": lambda t: all((p == 0 and n == 1) or (p >= 1 and n == 0) for s in _sticks(t) for p, n in s),
    "green_two_nagas": lambda t: _nagas(_sticks(t)[2]) == 2,
    "points_order": lambda t: _points(_sticks(t)[0]) > _points(_sticks(t)[1]) > _points(_sticks(t)[2]),
    "naga_order": lambda t: _nagas(_sticks(t)[0]) <= _nagas(_sticks(t)[1]) <= _nagas(_sticks(t)[2]),
    "elodie_throw": lambda t: _elodie_possible(_sticks(t)[1]),
    "marion_throw": lambda t: _marion_possible(*_sticks(t)),
}


def satisfies(table) -> dict[str, bool]:
    """Each fact of :data:`FACTS` for one face table (colour -> faces), True where it holds."""
    return {name: check(table) for name, check in _CHECKS.items()}
