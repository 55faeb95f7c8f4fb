"""Exact odds of Nagaraja's fate sticks (nagaraja.md#stick-models, nagaraja.md#odds).

A *face table* maps each colour (BROWN, WHITE, GREEN) to its faces; a face is a pair
``(points, naga)``. Every face of a stick is equally likely. A *pool* is the number of
sticks of each colour thrown together, ``(brown, white, green)``, or a list of cards'
stick sets such as ``["BBW", "BWG"]`` (nagaraja.md#odds).

The teaching-edition tables (Models A and B) are PLACEHOLDER data (nagaraja.md#editions), kept in
``data/sticks_model_*.json``; any valid table can be passed instead.

How it stays exact and fast: the throw of a pool is a product of generating
polynomials, one per stick, in two variables (x for points, y for Nagas). The code
packs each polynomial into one Python integer (Kronecker substitution: the coefficient
of x^p y^n sits in its own bit field), so polynomial arithmetic is big-integer
arithmetic done in C, and the counts of equally likely outcomes come back out exactly;
nothing is sampled. Small pools raise each stick to its power directly (`_by_powers`).
Big pools avoid big powers: each colour is built row by row, one row per number of
Nagas, on a grid sheared so the rows are short (`_by_rows`, `_Colour`, `_Grid`).
"""

from __future__ import annotations

import sys
import warnings
from fractions import Fraction
from functools import lru_cache
from itertools import compress
from itertools import count as naturals
from math import comb, gcd, prod
from operator import itemgetter, mul
from typing import Iterable, Mapping

from gamelib.datafiles import DamagedData, read_json
from gamelib.dist import Dist

COLOURS = ("BROWN", "WHITE", "GREEN")
LETTERS = {"B": "BROWN", "W": "WHITE", "G": "GREEN"}
MODELS = {"A": "sticks_model_a.json", "B": "sticks_model_b.json"}

Face = tuple[int, int]
FaceTable = dict[str, tuple[Face, ...]]
Pool = tuple[int, int, int]

# Bounds that keep every exact answer quick (nagaraja.md#odds asks for any table; these are far
# beyond the game's 36 sticks of 4 faces worth 0-4). The cost grows with the number of
# point totals, about sticks x highest face, so both are capped.
# Measured: at these bounds the slowest joint table takes under a second.
MAX_FACE_POINTS = 100
MAX_FACES = 16
MAX_POOL_STICKS = 100
MAX_TOTAL_POINTS = 1000  # the sum of the highest face of every stick in the pool


class FaceTableError(ValueError):
    """A face table that cannot describe fate sticks; the message names the bad face."""


# --------------------------------------------------------------------------- face tables


def load_faces(table: str | Mapping | None = None) -> FaceTable:
    """A validated face table: "A" (default), "B", or a mapping colour -> faces."""
    if table is None:
        table = "A"
    if isinstance(table, str):
        return _model(table.upper())
    return validate_faces(table)


@lru_cache(maxsize=None)
def _model(name: str) -> FaceTable:
    if name not in MODELS:
        raise FaceTableError(f"there is no stick model {name!r}; choose one of {', '.join(MODELS)}")
    data = read_json(f"nagaraja/data/{MODELS[name]}")  # checked against the package's checksums
    if not isinstance(data, dict) or "faces" not in data:
        raise DamagedData(f"the packaged stick model {MODELS[name]} has no face table")
    faces = validate_faces(data["faces"])
    check_published_facts(data, faces, MODELS[name])
    return faces


def check_published_facts(data: Mapping, faces: FaceTable, where: str) -> None:
    """The teaching edition's file names the published facts its faces must keep (``published_facts``);
    refuse the file if an edit broke one, so an invented number never contradicts a published one."""
    from gamelib.nagaraja import stick_facts as published

    names = data.get("published_facts", [])
    known = {name for name, _, _ in published.FACTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise DamagedData(
            f"{where}: published_facts names an unknown fact {unknown[0]!r}; known: {', '.join(sorted(known))}"
        )
    report = published.satisfies(faces)
    broken = [text for name, text, _ in published.FACTS if name in names and not report[name]]
    if broken:
        raise DamagedData(f"{where}: the faces break a published fact of the rules: {broken[0]}")


def validate_faces(table: Mapping) -> FaceTable:
    """Check a user's table and return it in canonical form (upper-case colours, tuples)."""
    if not isinstance(table, Mapping):
        raise FaceTableError(f"a face table maps colours to lists of faces, not {type(table).__name__}")
    canonical = {str(colour).upper(): faces for colour, faces in table.items()}
    unknown = sorted(set(canonical) - set(COLOURS))
    if unknown:
        raise FaceTableError(f"unknown stick colour {unknown[0]!r}: the colours are BROWN, WHITE and GREEN")
    missing = [colour for colour in COLOURS if colour not in canonical]
    if missing:
        raise FaceTableError(f"the face table has no {missing[0]} stick")
    result: FaceTable = {}
    for colour in COLOURS:
        faces = canonical[colour]
        if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
            raise FaceTableError(f"{colour} should be a list of faces (points, naga), not {faces!r}")
        faces = list(faces)
        if not faces:
            raise FaceTableError(f"{colour} has no faces: a stick needs at least one")
        if len(faces) > MAX_FACES:
            raise FaceTableError(f"{colour} has {len(faces)} faces: at most {MAX_FACES} are allowed")
        result[colour] = tuple(_check_face(colour, i, face) for i, face in enumerate(faces))
        if any(points and naga for points, naga in result[colour]):
            warnings.warn(
                f"{colour} has a face with both points and a Naga; the published rules never print both "
                "on one face, but the odds are computed anyway",
                stacklevel=3,
            )
    return result


def _check_face(colour: str, index: int, face) -> Face:
    where = f"{colour} face {index + 1} ({face!r})"
    try:
        points, naga = face
    except (TypeError, ValueError):
        raise FaceTableError(f"{where} should be a pair (points, naga)") from None
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise FaceTableError(f"{where}: points must be a whole number 0 or more")
    if points > MAX_FACE_POINTS:
        raise FaceTableError(f"{where}: at most {MAX_FACE_POINTS} points on a face, so the odds stay quick to compute")
    if naga not in (0, 1) or isinstance(naga, float):
        raise FaceTableError(f"{where}: naga must be 0 or 1")
    return int(points), int(naga)


# --------------------------------------------------------------------------- pools


def as_pool(pool) -> Pool:
    """A pool from ``(brown, white, green)`` or from cards' stick sets like ``["BBW", "WG"]``."""
    if isinstance(pool, str):
        pool = [pool]
    items = list(pool)
    if items and all(isinstance(item, str) for item in items):
        letters = "".join(items).upper()
        bad = sorted(set(letters) - set(LETTERS))
        if bad:
            raise ValueError(f"unknown stick letter {bad[0]!r} in {items}: use B, W and G")
        return (letters.count("B"), letters.count("W"), letters.count("G"))
    if len(items) != 3:
        raise ValueError(f"a pool is (brown, white, green), got {pool!r}")
    for colour, count in zip(COLOURS, items):
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError(f"the number of {colour.lower()} sticks must be a whole number, not {count!r}")
        if count < 0:
            raise ValueError(f"stick counts cannot be negative: {colour.lower()}={count}")
    return tuple(items)


def _pool(brown, white, green) -> Pool:
    """Accept ``joint()``, ``joint(3)``, ``joint(b, w, g)`` and ``joint(cards)`` / ``joint((b, w, g))`` alike.

    A lone whole number is the number of brown sticks, as the signature's order says."""
    if white is None and green is None:
        if isinstance(brown, int) and not isinstance(brown, bool):
            return check_pool_size(as_pool((brown, 0, 0)))
        return check_pool_size(as_pool(brown))
    return check_pool_size(as_pool((brown, white or 0, green or 0)))


def check_pool_size(pool: Pool) -> Pool:
    """Refuse pools too big for the exact method to answer at once (a clear error, not a frozen kernel)."""
    if sum(pool) > MAX_POOL_STICKS:
        raise ValueError(
            f"a pool of {sum(pool)} sticks is too big to compute exactly at once: "
            f"at most {MAX_POOL_STICKS} sticks (the game has 36)"
        )
    return pool


# --------------------------------------------------------------------------- exact counting


def joint_counts(pool: Pool, faces: FaceTable) -> tuple[dict[Face, int], int]:
    """Counts of equally likely outcomes for each (points, nagas), and their total."""
    outcomes, counts, total = _sorted_counts(pool, faces)
    return dict(zip(outcomes, counts)), total


class _Colour:
    """The sticks of one colour in a pool, as a generating polynomial in (points, Nagas).

    Of n sticks, the throws with exactly j Nagas form the row C(n, j) * N^j * F^(n-j),
    where F counts the faces without a Naga by points and N those with one. Every row
    comes from powers of these one-stick polynomials, each power one multiplication by
    a short number, so no big power is ever taken. On the published tables N is a
    constant (a Naga face scores nothing) and its powers are plain numbers; a table
    with scoring Naga faces only makes N a polynomial.
    """

    def __init__(self, count: int, faces: tuple[Face, ...]):
        self.count = count
        self.total = len(faces) ** count
        self.certain = len(set(faces)) == 1
        self.lowest = min(p for p, _ in faces)
        # faces without and with a Naga: points -> how many faces
        self.plain: dict[int, int] = {}
        self.naga: dict[int, int] = {}
        for points_, naga in faces:
            side = self.naga if naga else self.plain
            side[points_] = side.get(points_, 0) + 1
        # no Naga face: only the row j = 0 exists; only Naga faces: only j = n
        self.rows = range(0 if self.plain else count, (count if self.naga else 0) + 1)
        plain_lo, plain_hi = (min(self.plain), max(self.plain)) if self.plain else (0, 0)
        naga_lo, naga_hi = (min(self.naga), max(self.naga)) if self.naga else (0, 0)
        # row j spans lo + j * lo_step to hi + j * hi_step points
        self.lo, self.lo_step = count * plain_lo, naga_lo - plain_lo
        self.hi, self.hi_step = count * plain_hi, naga_hi - plain_hi
        # coefficients the colour's polynomial can have: the row widths, summed
        self.terms = len(self.rows) * (self.hi - self.lo + 1) + (self.hi_step - self.lo_step) * sum(self.rows)
        # shears where an end of the window switches rows (see _Grid)
        self.kinks = {self.lo_step, self.hi_step} if self.plain and self.naga else set()

    def window(self, shear: int) -> tuple[int, int]:
        """The points the rows cover once row j is moved shear * j to the left (spans are linear in j)."""
        first, last = self.rows[0], self.rows[-1]
        lo_step, hi_step = self.lo_step - shear, self.hi_step - shear
        return self.lo + min(lo_step * first, lo_step * last), self.hi + max(hi_step * first, hi_step * last)

    def packed_rows(self, grid: _Grid, field: int) -> list[tuple[int, int]]:
        """Each row as (its first slot, counted from the colour's lowest slot; its packed polynomial)."""
        plain, naga = _pack(self.plain, field), _pack(self.naga, field)
        naga_powers = [1]
        for _ in range(self.rows[-1]):
            naga_powers.append(naga_powers[-1] * naga)
        start = self.window(grid.shear)[0]
        rows, plain_power = [], plain ** (self.count - self.rows[-1])
        for j in reversed(self.rows):
            slot = self.lo + (self.lo_step - grid.shear) * j - start + j * grid.stride
            rows.append((slot, comb(self.count, j) * naga_powers[j] * plain_power))
            if j > self.rows[0]:
                plain_power *= plain
        return rows


def _pack(points: dict[int, int], field: int) -> int:
    """One stick's faces as a packed polynomial, its lowest points at slot 0."""
    lowest = min(points, default=0)
    return sum(count << field * (p - lowest) for p, count in points.items())


class _Grid:
    """Where the count of (points, nagas) sits in the packed integer.

    A Naga face usually replaces a scoring one, so the row of throws with k Nagas lies
    further left the larger k is. Moving row k right by -shear * k points lines the
    rows up; they then need a shorter stride, and the integers multiplied get shorter
    (by about a third for white sticks): slot = (points - shear * k - base) + k * stride.
    """

    def __init__(self, colours: list[_Colour]):
        # The total window width is convex and piecewise linear in the shear: try its kinks.
        kinks = sorted(set().union({0}, *(c.kinks for c in colours)))
        self.shear = min(kinks, key=lambda s: sum(hi - lo for lo, hi in (c.window(s) for c in colours)))
        windows = [c.window(self.shear) for c in colours]
        self.base = sum(lo for lo, _ in windows)
        self.stride = 1 + sum(hi - lo for lo, hi in windows)

    def outcome(self, slot: int) -> Face:
        """(points, nagas) of one slot."""
        nagas, q = divmod(slot, self.stride)
        return q + self.base + self.shear * nagas, nagas


# Below this many sticks (or with no Naga face to track) the direct powers win: measured
# on Models A and B, their set-up is cheaper and their big integers are still short.
FEW_STICKS = 12


def _sorted_counts(pool: Pool, faces: FaceTable, method=None) -> tuple[list[Face], list[int], int]:
    """Outcomes sorted by (points, nagas), their counts of equally likely throws, and the total.

    `method` (_by_rows or _by_powers) forces one method, for the tests that compare them."""
    check_pool_size(pool)
    highest = sum(count * max(p for p, _ in faces[c]) for c, count in zip(COLOURS, pool))
    if highest > MAX_TOTAL_POINTS:
        raise ValueError(
            f"this pool can throw up to {highest} points, too many to compute exactly at once: "
            f"at most {MAX_TOTAL_POINTS} (fewer sticks or smaller faces)"
        )
    colours = [_Colour(count, tuple(faces[c])) for c, count in zip(COLOURS, pool) if count]
    total = prod(c.total for c in colours)
    # A coefficient counts outcomes, so it is below `total` unless only one outcome exists.
    bits = total.bit_length() if all(c.certain for c in colours) else (total - 1).bit_length()
    width = 8 * -(-max(bits, 1) // 64)  # bytes per coefficient: whole 64-bit words, read back in C
    if method is None:
        few = sum(pool) <= FEW_STICKS or not any(c.naga for c in colours)
        method = _by_powers if few else _by_rows
    return (*method(colours, width), total)


def _by_rows(colours: list[_Colour], width: int) -> tuple[list[Face], list[int]]:
    """Each colour built row by row on the sheared grid, then the colours multiplied."""
    grid = _Grid(colours)
    # Start from the colour with the most terms (measured the cheapest order).
    product = 1
    for colour in sorted(colours, key=lambda colour: colour.terms, reverse=True):
        product = _multiply(product, colour.packed_rows(grid, 8 * width), 8 * width)
    stride, base, shear = grid.stride, grid.base, grid.shear
    cells = []
    for slot, count in enumerate(unpack(product, width)):
        if count:
            nagas_, q = divmod(slot, stride)
            cells.append((q + base + shear * nagas_, nagas_, count))
    # Slots run through the Naga rows in order, so a stable sort on points alone gives (points, nagas) order.
    cells.sort(key=itemgetter(0))
    return [(p, n) for p, n, _ in cells], [count for _, _, count in cells]


def _by_powers(colours: list[_Colour], width: int) -> tuple[list[Face], list[int]]:
    """The direct method: each stick as one packed polynomial, raised to the number of
    sticks, and the colours multiplied. With slot = points * stride + nagas the slots
    come out in order. Cheap to set up, but its big-integer powers grow fast."""
    field = 8 * width
    stride = 1 + sum(colour.count for colour in colours if colour.naga)
    product = 1
    for colour in colours:
        stick = sum(
            count << field * ((p - colour.lowest) * stride + naga)
            for naga, side in enumerate((colour.plain, colour.naga))
            for p, count in side.items()
        )
        product *= stick**colour.count
    lowest = sum(colour.lowest * colour.count for colour in colours)
    outcomes, counts = [], []
    for slot, count in enumerate(unpack(product, width)):
        if count:
            points_, nagas_ = divmod(slot, stride)
            outcomes.append((points_ + lowest, nagas_))
            counts.append(count)
    return outcomes, counts


def _multiply(product: int, rows: list[tuple[int, int]], field: int) -> int:
    """product times a polynomial given as its packed rows (first slot, row).

    Row by row, because a row is short: product times a row is big-by-small, a
    single pass, and for the sparse colours (green sticks: one term per row) it is
    a plain number. Measured faster than one big-integer multiplication by the whole
    polynomial on Models A and B and on random dense tables.
    """
    return sum((product * row) << field * slot for slot, row in rows)


def unpack(packed: int, width: int) -> list[int]:
    """The packed coefficients, ``width`` bytes each (a multiple of 8), lowest slot first.

    The bytes are read as 64-bit words by ``memoryview.cast`` (in C, no numpy), and a
    coefficient wider than one word is put back together from its words."""
    if packed < 0 or width % 8:
        raise ValueError("unpack reads non-negative integers in whole 64-bit words")
    slots = max(1, -(-packed.bit_length() // (8 * width)))
    return _fields(packed.to_bytes(slots * width, "little"), width)


def _fields(raw: bytes, width: int) -> list[int]:
    """The little-endian fields of ``width`` bytes (a multiple of 8) in ``raw``, read as 64-bit words."""
    words_per_slot = width // 8
    if sys.byteorder == "little":
        words = memoryview(raw).cast("Q").tolist()
    else:  # pragma: no cover - no big-endian machine runs the tests
        words = [int.from_bytes(raw[i : i + 8], "little") for i in range(0, len(raw), 8)]
    if words_per_slot == 1:
        return words
    values = words[0::words_per_slot]
    for i in range(1, words_per_slot):
        shift = 64 * i  # most high words are 0 (empty slots, small counts): no big integer made for them
        values = [value | high << shift if high else value for value, high in zip(values, words[i::words_per_slot])]
    return values


@lru_cache(maxsize=4096)
def _joint_cached(pool: Pool, faces_key: tuple) -> tuple[tuple[Face, Fraction], ...]:
    outcomes, counts, total = _sorted_counts(pool, dict(zip(COLOURS, faces_key)))
    return tuple(zip(outcomes, [Fraction(count, total) for count in counts]))


def _faces_key(faces) -> tuple:
    """The validated table as a tuple of each colour's faces (the caches' key). A table already in that
    form (the explorer passes one again and again) is validated once, by an lru cache on its value; one
    with a face of points and a Naga is validated at every call, so that every call warns."""
    if isinstance(faces, Mapping):
        key = tuple(faces.get(c) for c in COLOURS)
        if all(isinstance(colour_faces, tuple) for colour_faces in key) and len(faces) == len(COLOURS):
            try:
                if not any(points and naga for colour_faces in key for points, naga in colour_faces):
                    return _validated_key(key)
            except (TypeError, ValueError):  # unhashable or malformed faces: validated the long way, below
                pass
    table = load_faces(faces)
    return tuple(table[c] for c in COLOURS)


@lru_cache(maxsize=256)
def _validated_key(key: tuple) -> tuple:
    table = validate_faces(dict(zip(COLOURS, key)))
    return tuple(table[c] for c in COLOURS)


# --------------------------------------------------------------------------- public API


def joint(brown=0, white=None, green=None, faces=None) -> dict[Face, Fraction]:
    """Exact joint distribution of (points, Nagas) for a pool (nagaraja.md#odds): only non-zero entries."""
    return dict(_joint_cached(_pool(brown, white, green), _faces_key(faces)))


def joint_dist(brown=0, white=None, green=None, faces=None) -> Dist:
    """The joint distribution as a :class:`~gamelib.dist.Dist` over (points, nagas) tuples."""
    return Dist(joint(brown, white, green, faces))


def points(brown=0, white=None, green=None, faces=None) -> Dist:
    """Distribution of the total points."""
    counts, total = _points_counts(_pool(brown, white, green), _faces_key(faces))
    return Dist({p: Fraction(count, total) for p, count in counts.items()})


def nagas(brown=0, white=None, green=None, faces=None) -> Dist:
    """Distribution of the number of Nagas."""
    return _marginal(joint(brown, white, green, faces), 1)


def _marginal(table: Mapping[Face, Fraction], index: int) -> Dist:
    weights: dict[int, Fraction] = {}
    for outcome, p in table.items():
        weights[outcome[index]] = weights.get(outcome[index], Fraction(0)) + p
    return Dist(weights)


def compare(mine, theirs, faces=None) -> tuple[Fraction, Fraction, Fraction]:
    """``(P(mine > theirs), P(tie), P(mine < theirs))`` in points, for two independent pools."""
    return compare_counts(*points_counts(mine, faces), *points_counts(theirs, faces))


def points_counts(pool, faces=None) -> tuple[dict[int, int], int]:
    """How many of the equally likely throws give each total of points, and how many throws there are."""
    counts, total = _points_counts(check_pool_size(as_pool(pool)), _faces_key(faces))
    return dict(counts), total  # a copy: the cached one must not be changed


def compare_counts(mine: Mapping[int, int], mine_total: int, theirs: Mapping[int, int], theirs_total: int):
    """``(P(A > B), P(tie), P(A < B))`` from integer weights of two independent point totals."""
    greater = tie = below = 0  # below: their weight with fewer points than the current p
    their_items = sorted(theirs.items())
    j = 0
    for p, count in sorted(mine.items()):
        while j < len(their_items) and their_items[j][0] < p:
            below += their_items[j][1]
            j += 1
        greater += count * below
        tie += count * theirs.get(p, 0)
    total = mine_total * theirs_total
    return Fraction(greater, total), Fraction(tie, total), Fraction(total - greater - tie, total)


@lru_cache(maxsize=4096)
def _points_counts(pool: Pool, faces_key: tuple) -> tuple[dict[int, int], int]:
    """Counts of equally likely outcomes by points alone: a one-variable product, cheaper than the joint."""
    faces = {c: tuple((p, 0) for p, _ in fs) for c, fs in zip(COLOURS, faces_key)}
    counts, total = joint_counts(pool, faces)
    return {p: count for (p, _), count in counts.items()}, total


def win_probability(mine, theirs, mine_is_guide: bool, faces=None) -> Fraction:
    """Chance that ``mine`` wins the room on the raw throw; the guide wins ties (nagaraja.md#odds)."""
    greater, tie, _ = compare(mine, theirs, faces)
    return greater + tie if mine_is_guide else greater


def stick(colour: str, faces=None) -> Dist:
    """One stick's points as a distribution (a Naga face counts 0 points); ``colour`` is "BROWN" or "B", etc."""
    name = colour.upper() if isinstance(colour, str) else None
    if name not in COLOURS and name not in LETTERS:
        raise ValueError(f"there is no stick colour {colour!r}: the colours are BROWN, WHITE and GREEN (or B, W, G)")
    return points(as_pool(name[0]), faces=faces)


def summary(brown=0, white=None, green=None, faces=None) -> dict[str, Fraction]:
    """E and Var of points and Nagas, and their covariance (nagaraja.md#odds, item 4)."""
    table = joint_dist(brown, white, green, faces)
    p, n = table.marginal(0), table.marginal(1)
    return {
        "mean_points": p.mean(),
        "variance_points": p.variance(),
        "mean_nagas": n.mean(),
        "variance_nagas": n.variance(),
        "covariance": table.covariance(0, 1),
    }


def brute_force_joint(pool: Pool, faces=None) -> dict[Face, Fraction]:
    """The obvious method: list every combination of faces. Exponential; for tests and benches."""
    from itertools import product

    table = load_faces(faces)
    sticks = [table[c] for c, count in zip(COLOURS, as_pool(pool)) for _ in range(count)]
    counts: dict[Face, int] = {}
    total = 0
    for throw in product(*sticks):
        key = (sum(f[0] for f in throw), sum(f[1] for f in throw))
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


# --------------------------------------------------------------------------- moments in closed form


def moments(brown=0, white=None, green=None, faces=None) -> dict[str, Fraction]:
    """Mean and variance of the points and of the Nagas, in closed form.

    The sticks are independent, so means and variances add over sticks: no table is built
    (this is what the explorer shows on every slider move)."""
    pool = _pool(brown, white, green)
    table = load_faces(faces)
    result = dict.fromkeys(("mean_points", "variance_points", "mean_nagas", "variance_nagas"), Fraction(0))
    for colour, count in zip(COLOURS, pool):
        stick_faces = table[colour]
        sides = len(stick_faces)
        for name, index in (("points", 0), ("nagas", 1)):
            mean = Fraction(sum(face[index] for face in stick_faces), sides)
            square = Fraction(sum(face[index] ** 2 for face in stick_faces), sides)
            result[f"mean_{name}"] += count * mean
            result[f"variance_{name}"] += count * (square - mean * mean)
    return result


# --------------------------------------------------------------------------- stick effects (nagaraja.md#effects)

EFFECTS = ("PLUS2", "DISCARD2", "RETHROW2")


def win_probability_after(
    mine, theirs, mine_is_guide: bool, effect: str, target: str = "theirs", chooser: str | None = None, faces=None
) -> Fraction:
    """P(``mine`` wins the room) when one stick effect acts on ``target`` right after the throw.

    ``target`` is "mine" or "theirs". As in the Confrontation (nagaraja.md#effects), whoever activates the
    effect sees both throws and chooses its sticks to help themselves:

    * ``PLUS2``: the target (who activated it) gets +2 points;
    * ``DISCARD2``: the target loses min(2, n) of its n sticks, chosen by the other player
      (the two with the most points);
    * ``RETHROW2``: 1 or 2 of the target's sticks are thrown again, chosen by ``chooser``
      ("mine" or "theirs"; default the target itself) to maximise the chooser's chance
      (``chooser`` is ignored for the other two effects).

    Then the room is resolved at once (no further Naga use). An effect whose target has
    no stick cannot be activated (nagaraja.md#effects), so the raw chance is returned. Exact: the
    throws are grouped by the few sticks a choice depends on (see ``_profiles``).
    """
    if effect not in EFFECTS:
        raise ValueError(f"unknown stick effect {effect!r}: choose one of {', '.join(EFFECTS)}")
    if target not in ("mine", "theirs") or chooser not in (None, "mine", "theirs"):
        raise ValueError('target and chooser are "mine" or "theirs"')
    table = load_faces(faces)
    pools = {"mine": check_pool_size(as_pool(mine)), "theirs": check_pool_size(as_pool(theirs))}
    other = "theirs" if target == "mine" else "mine"
    target_is_guide = mine_is_guide == (target == "mine")
    # only RETHROW2 lets either player choose; DISCARD2 is always chosen by the target's opponent
    chooser = (chooser or target) if effect == "RETHROW2" else (other if effect == "DISCARD2" else target)
    target_wins = _target_wins(pools[target], pools[other], target_is_guide, effect, chooser == target, table)
    return target_wins if target == "mine" else 1 - target_wins


def _target_wins(
    pool: Pool, other: Pool, target_is_guide: bool, effect: str, for_target: bool, table: FaceTable
) -> Fraction:
    key = tuple(table[c] for c in COLOURS)
    other_counts, other_total = _points_counts(other, key)
    own_counts, own_total = _points_counts(pool, key)
    if effect == "PLUS2":
        shifted = {p + 2: n for p, n in own_counts.items()}
        greater, tie, _ = compare_counts(shifted, own_total, other_counts, other_total)
        return greater + tie if target_is_guide else greater
    if not sum(pool):  # no stick to discard or throw again: the effect cannot be activated
        greater, tie, _ = compare_counts(own_counts, own_total, other_counts, other_total)
        return greater + tie if target_is_guide else greater
    if effect == "DISCARD2":
        left = _left_after_discard(pool, table)
        greater, tie, _ = compare_counts(left, own_total, other_counts, other_total)
        return greater + tie if target_is_guide else greater
    return _after_rethrow(pool, other_counts, other_total, target_is_guide, for_target, table)


def _colour_profiles(count: int, faces: tuple[Face, ...], highest: bool) -> dict[tuple, dict[int, int]]:
    """For ``count`` sticks of one colour: the two most extreme points shown (highest or lowest
    first) -> {total points: number of throws}. Sticks of one colour are alike, so a throw is
    how many sticks show each value (a multinomial count)."""
    multiplicity: dict[int, int] = {}
    for points_, _ in faces:
        multiplicity[points_] = multiplicity.get(points_, 0) + 1
    values = sorted(multiplicity, reverse=highest)
    profiles: dict[tuple, dict[int, int]] = {}

    def fill(index: int, left: int, weight: int, total: int, extremes: tuple) -> None:
        if index == len(values) - 1:
            extremes = (extremes + (values[index],) * left)[:2]
            weight *= multiplicity[values[index]] ** left
            row = profiles.setdefault(extremes, {})
            row[total + left * values[index]] = row.get(total + left * values[index], 0) + weight
            return
        value = values[index]
        for shown in range(left + 1):
            fill(
                index + 1,
                left - shown,
                weight * comb(left, shown) * multiplicity[value] ** shown,
                total + shown * value,
                (extremes + (value,) * shown)[:2],
            )

    fill(0, count, 1, 0, ())
    return profiles


def _combined_profiles(pool: Pool, table: FaceTable, highest: bool) -> dict[tuple, dict[int, int]]:
    """(extremes of brown, of white, of green) -> {total points: throws}, over the whole pool."""
    combined: dict[tuple, dict[int, int]] = {(): {0: 1}}
    for colour, count in zip(COLOURS, pool):
        colour_profiles = _colour_profiles(count, table[colour], highest)
        merged: dict[tuple, dict[int, int]] = {}
        for key, row in combined.items():
            for extremes, colour_row in colour_profiles.items():
                merged[key + (extremes,)] = _convolve(row, colour_row)
        combined = merged
    return combined


def _convolve(first: Mapping[int, int], second: Mapping[int, int]) -> dict[int, int]:
    result: dict[int, int] = {}
    for a, x in first.items():
        for b, y in second.items():
            result[a + b] = result.get(a + b, 0) + x * y
    return result


def _left_after_discard(pool: Pool, table: FaceTable) -> dict[int, int]:
    """{points left: throws} once the two sticks with the most points are discarded."""
    left: dict[int, int] = {}
    for key, row in _combined_profiles(pool, table, highest=True).items():
        removed = sum(sorted((v for extremes in key for v in extremes), reverse=True)[:2])
        for total, n in row.items():
            left[total - removed] = left.get(total - removed, 0) + n
    return left


def _rethrow_options(key: tuple) -> list[tuple[int, tuple[str, ...]]]:
    """Every choice of 1 or 2 sticks as (points they showed, their colours); within a colour the
    chooser takes the most extreme sticks (the profile is ordered that way)."""
    options = []
    shown = [(colour, extremes) for colour, extremes in zip(COLOURS, key) if extremes]
    for i, (colour, extremes) in enumerate(shown):
        options.append((extremes[0], (colour,)))
        if len(extremes) > 1:
            options.append((extremes[0] + extremes[1], (colour, colour)))
        for other, other_extremes in shown[i + 1 :]:
            options.append((extremes[0] + other_extremes[0], (colour, other)))
    return options


def _after_rethrow(
    pool: Pool, other_counts, other_total: int, target_is_guide: bool, for_target: bool, table: FaceTable
) -> Fraction:
    """Exact P(target wins) after RETHROW2 chosen by the target (for_target) or by the other player.

    For a throw with total t facing the other's total y, re-throwing sticks that showed r
    points wins when R >= y - t + r (+1 without the tie rule), R the fresh sticks' points.
    So the best choice depends on the throw only through y - t and the extremes of each
    colour: group the throws by extremes, take the distribution of y - t in each group
    (a convolution), and choose the best option at each value of y - t.
    """
    fresh = {}
    for colours in [(c,) for c in COLOURS] + [(a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i:]]:
        counts = {0: 1}
        for colour in colours:
            counts = _convolve(counts, {p: sum(1 for q, _ in table[colour] if q == p) for p, _ in table[colour]})
        fresh[colours] = counts
    common = 1
    for colours, counts in fresh.items():
        total = sum(counts.values())
        common = common * total // gcd(common, total)
    # tails[colours][k] = throws (scaled to `common`) of the fresh sticks with at least k points
    tails = {}
    for colours, counts in fresh.items():
        scale = common // sum(counts.values())
        top = max(counts)
        tail, running = [0] * (top + 2), 0
        for k in range(top, -1, -1):
            running += counts.get(k, 0) * scale
            tail[k] = running
        tails[colours] = tail
    need = 0 if target_is_guide else 1
    best = max if for_target else min
    negated_other = {-y: n for y, n in other_counts.items()}
    favourable = 0
    own_total = 0
    for key, row in _combined_profiles(pool, table, highest=not for_target).items():
        options = [
            (removed + need, tails[tuple(sorted(colours, key=COLOURS.index))])
            for removed, colours in _rethrow_options(key)
        ]
        for minus_gap, weight in _convolve(row, negated_other).items():  # t - y
            gap = -minus_gap
            favourable += weight * best(_tail(tail, gap + shift) for shift, tail in options)
        own_total += sum(row.values())
    return Fraction(favourable, own_total * other_total * common)


def _tail(tail: list[int], k: int) -> int:
    if k <= 0:
        return tail[0]
    return tail[k] if k < len(tail) else 0


def brute_force_win_after(
    mine, theirs, mine_is_guide: bool, effect: str, target: str = "theirs", chooser: str | None = None, faces=None
) -> Fraction:
    """The same chance by listing every throw of both pools and every choice of sticks (exponential; tests only)."""
    from itertools import combinations, product

    table = load_faces(faces)
    pools = {"mine": as_pool(mine), "theirs": as_pool(theirs)}
    other = "theirs" if target == "mine" else "mine"
    # only RETHROW2 lets either player choose; DISCARD2 is always chosen by the target's opponent
    chooser = (chooser or target) if effect == "RETHROW2" else (other if effect == "DISCARD2" else target)
    target_is_guide = mine_is_guide == (target == "mine")

    def sticks_of(pool):
        return [colour for colour, count in zip(COLOURS, pool) for _ in range(count)]

    def target_wins(own: int, theirs_: int) -> bool:
        return own > theirs_ or (target_is_guide and own == theirs_)

    target_sticks, other_sticks = sticks_of(pools[target]), sticks_of(pools[other])
    wins, throws = Fraction(0), 0
    for own_throw in product(*(table[c] for c in target_sticks)):
        own_points = [p for p, _ in own_throw]
        for other_throw in product(*(table[c] for c in other_sticks)):
            other_points = sum(p for p, _ in other_throw)
            throws += 1
            if not target_sticks or effect == "PLUS2":
                wins += target_wins(sum(own_points) + (2 if effect == "PLUS2" else 0), other_points)
                continue
            choices = []
            if effect == "DISCARD2":
                for gone in combinations(range(len(own_points)), min(2, len(own_points))):
                    choices.append(
                        Fraction(target_wins(sum(own_points) - sum(own_points[i] for i in gone), other_points))
                    )
            else:
                for size in (1, 2):
                    for again in combinations(range(len(own_points)), size):
                        kept = sum(own_points) - sum(own_points[i] for i in again)
                        outcomes = list(product(*(table[target_sticks[i]] for i in again)))
                        won = sum(target_wins(kept + sum(p for p, _ in faces_), other_points) for faces_ in outcomes)
                        choices.append(Fraction(won, len(outcomes)))
            wins += max(choices) if chooser == target else min(choices)
    target_chance = wins / throws
    return target_chance if target == "mine" else 1 - target_chance


# --------------------------------------------------------------------------- tables for the explorer


def joint_table(pool, faces=None) -> tuple[tuple[Face, ...], tuple[int, ...], int]:
    """The joint (points, Nagas) as integer counts: (outcomes sorted, counts, total throws). Cached."""
    return _joint_counts_cached(check_pool_size(as_pool(pool)), _faces_key(faces))


@lru_cache(maxsize=1024)
def _joint_counts_cached(pool: Pool, faces_key: tuple):
    """The joint table of a pool, from the start (_sorted_counts)."""
    outcomes, counts, total = _sorted_counts(pool, dict(zip(COLOURS, faces_key)))
    return tuple(outcomes), tuple(counts), total


def joint_step(pool: Pool, faces_key: tuple, recent=None):
    """The joint table of ``pool`` as ``(pool, faces_key, (table, packed))``, ``table`` as joint_table gives it.

    ``recent`` is a value this function returned before, which the caller keeps (the explorer keeps the
    table on screen; nothing is kept here). When it is of the same faces and one stick away, the table is
    stepped from it: one packed multiplication to add a stick, an exact division to take one away
    (_step_joint), a few ms at 100 sticks a side against about 25 from the start (issue 25). Otherwise,
    or when the step cannot divide, the cached table from the start; ``packed`` is then None."""
    pool = check_pool_size(pool)
    if recent is not None and recent[1] == faces_key:
        near = recent[0]
        if near == pool:
            return recent
        moved = [i for i, (a, b) in enumerate(zip(pool, near)) if a != b]
        highest = sum(count * max(p for p, _ in faces) for faces, count in zip(faces_key, pool))
        if len(moved) == 1 and abs(pool[moved[0]] - near[moved[0]]) == 1 and highest <= MAX_TOTAL_POINTS:
            index = moved[0]
            stepped = _step_joint(recent[2], faces_key[index], grow=pool[index] > near[index])
            if stepped is not None:
                return pool, faces_key, stepped
    return pool, faces_key, (_joint_counts_cached(pool, faces_key), None)


def _step_joint(entry, faces: tuple[Face, ...], grow: bool):
    """A recent (table, packed) entry with one stick of ``faces`` added (``grow``) or taken away, or None.

    A table is packed on a grid, slot = (points - lowest points) * stride + Nagas, each count in a field
    wide enough for the larger pool's total, so no field carries into the next: the packed larger
    table is exactly the packed smaller one times the stick's few terms. Adding a stick is that sum of
    shifted copies; taking one away is the exact division, block by block (_divide_packed). The packed
    bytes are kept with the table, so a run of steps packs the table once."""
    (outcomes, counts, total), packed = entry
    sides = len(faces)
    stick_low, stick_high = min(p for p, _ in faces), max(p for p, _ in faces)
    large_total = total * sides if grow else total
    width = 8 * -(-max(large_total.bit_length(), 1) // 64)
    rows = outcomes[-1][0] - outcomes[0][0] + 1  # points values the table spans
    # The most Nagas a pool can throw is the sum of each stick's most: it moves by the stick's own.
    stick_nagas = max(n for _, n in faces)
    nagas_now = max(n for _, n in outcomes) if packed is None else packed[4]
    nagas_high = nagas_now + (stick_nagas if grow else -stick_nagas)
    stride = 32 * -(-(max(nagas_now, nagas_high) + 1) // 32)  # 32 slots at least between a stick's terms
    if packed is None or packed[2:4] != (stride, width):
        packed = _pack_table(outcomes, counts, rows, stride, width), outcomes[0][0], stride, width, nagas_now
    raw, lowest = packed[:2]
    terms: dict[int, int] = {}
    for p, n in faces:  # the stick's polynomial: slot -> how many faces
        slot = (p - stick_low) * stride + n
        terms[slot] = terms.get(slot, 0) + 1
    if grow:
        number = int.from_bytes(raw, "little")
        number = sum((number * times) << 8 * width * slot for slot, times in terms.items())
        lowest, total, rows = lowest + stick_low, large_total, rows + stick_high - stick_low
    else:
        number = _divide_packed(raw, sorted(terms.items()), width)
        if number is None:
            return None
        lowest, total, rows = lowest - stick_low, total // sides, rows - stick_high + stick_low
    raw = number.to_bytes(rows * stride * width, "little")
    coefficients = _fields(raw, width)
    return (
        (
            tuple(compress(_grid(lowest, rows, stride), coefficients)),
            tuple(compress(coefficients, coefficients)),
            total,
        ),
        (raw, lowest, stride, width, nagas_high, coefficients),
    )


def joint_columns(step):
    """A table from joint_step by Nagas, as ``[(nagas, first points, counts from there), ...]``, each row
    trimmed to its first and last possible points (a 0 between them is impossible); None for a table
    made from the start (not packed). Slices of the packed grid: no loop over cells in Python."""
    packed = step[2][1]
    if packed is None:
        return None
    lowest, stride, nagas_high, coefficients = packed[1], packed[2], packed[4], packed[5]
    rows = []
    for nagas_ in range(nagas_high + 1):
        column = coefficients[nagas_::stride]  # this many Nagas, by points from `lowest`
        first = next(compress(naturals(), column), None)
        if first is None:
            continue
        last = len(column) - 1 - next(compress(naturals(), reversed(column)))
        rows.append((nagas_, lowest + first, column[first : last + 1]))
    return rows


def _pack_table(outcomes, counts, rows: int, stride: int, width: int) -> bytearray:
    """The counts at slot (points - lowest) * stride + Nagas, ``width`` bytes each, little-endian."""
    lowest = outcomes[0][0]
    packed = bytearray(rows * stride * width)
    for (p, n), count in zip(outcomes, counts):
        at = ((p - lowest) * stride + n) * width
        packed[at : at + width] = count.to_bytes(width, "little")
    return packed


@lru_cache(maxsize=64)
def _grid(lowest: int, rows: int, stride: int) -> list[Face]:
    """(points, Nagas) of every slot of a packed table, in slot order."""
    return [(p, n) for p in range(lowest, lowest + rows) for n in range(stride)]


def _divide_packed(packed: bytes, terms: list[tuple[int, int]], width: int) -> int | None:
    """The packed quotient q of p = q * s, s given as its (slot, coefficient) terms, lowest slot first.

    From p[i + s0] = a0 q[i] + sum of a q[i + s0 - s] over the other terms, q is found lowest slot
    first; the other terms reach back at least ``gap`` slots, so ``gap`` slots of q at a time come from
    one packed subtraction and one division (no field borrows: each field's result is a0 q[i] >= 0).
    None when the terms lie closer than 16 slots (a Naga face and a plain one of equal points)."""
    (first, lead), rest = terms[0], terms[1:]
    gap = min((slot - first for slot, _ in rest), default=len(packed) // width)
    if gap < 16:
        return None
    field = 8 * width
    slots = len(packed) // width - first
    quotient = bytearray(slots * width)
    for start in range(0, slots, gap):
        size = min(gap, slots - start)
        block = int.from_bytes(packed[(start + first) * width : (start + first + size) * width], "little")
        for slot, times in rest:
            back = start + first - slot  # q's slot that p's block starts from, for this term
            if back + size > 0:
                low = max(back, 0)
                earlier = int.from_bytes(quotient[low * width : (back + size) * width], "little")
                block -= (times * earlier) << field * (low - back)
        if lead != 1:
            block, left = divmod(block, lead)
            if left:
                raise ArithmeticError("a joint table stepped down must divide exactly")
        if block < 0:
            raise ArithmeticError("a joint table stepped down must divide exactly")
        quotient[start * width : (start + size) * width] = block.to_bytes(size * width, "little")
    return int.from_bytes(quotient, "little")


def sweep(mine, theirs, mine_is_guide: bool, player: int, colour: str, counts: range, faces=None) -> list[Fraction]:
    """P(``mine`` wins the room) as player ``player``'s ``colour`` sticks run through ``counts``.

    The other pool is fixed, so its weights below (and at) each total are summed once;
    the swept pool grows one stick at a time (one packed multiplication per step)."""
    key = _faces_key(faces)
    pools = [list(as_pool(mine)), list(as_pool(theirs))]
    index = COLOURS.index(colour)
    pools[player][index] = 0
    base, base_total = _points_counts(check_pool_size(tuple(pools[player])), key)
    fixed, fixed_total = _points_counts(check_pool_size(tuple(pools[1 - player])), key)
    stick_points = [p for p, _ in key[index]]
    check_pool_size(tuple(c if i != index else max(counts) for i, c in enumerate(pools[player])))
    highest = max(base) + max(counts) * max(stick_points)
    # favour[x]: the fixed pool's weight that makes a swept total of x a win for `mine`: the
    # fixed totals below x when mine is swept, above x when theirs is; ties go to the guide.
    favour, running = [0] * (highest + 1), 0
    for x in range(highest + 1) if player == 0 else range(highest, -1, -1):
        here = fixed.get(x, 0)
        favour[x] = running + (here if mine_is_guide else 0)
        running += here
    sides = len(stick_points)
    width = 8 * -(-((base_total * sides ** max(counts)).bit_length() + 1) // 64)
    field = 8 * width
    lowest_face = min(stick_points)
    stick = sum(1 << field * (p - lowest_face) for p in stick_points)
    offset = min(base)
    poly = sum(c << field * (p - offset) for p, c in base.items())
    results, total, k = [], base_total, 0
    for count in counts:
        while k < count:
            poly *= stick
            offset += lowest_face
            total *= sides
            k += 1
        coefficients = unpack(poly, width)
        wins = sum(map(mul, coefficients, favour[offset : offset + len(coefficients)]))
        results.append(Fraction(wins, total * fixed_total))
    return results
