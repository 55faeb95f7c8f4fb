"""A temple: the 3x3 room grid, its 12 perimeter spots and the paths through it (nagaraja.md#temple).

Cells are ``(row, col)``; row 2 is the entrance row, nearest the owner. A room tile
is a set of *segments* (sides joined inside the tile). The connectivity graph has
one node per (cell, segment) plus the 12 spots; a relic is face up exactly when its
spot is joined to an entrance, and an amulet is collected once its segment is.
Everything derived is recomputed from the layout, so it can never go stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping, NamedTuple

from gamelib.core import IllegalMove

SIDES = "NESW"
N, E, S, W = range(4)
OPPOSITE = (S, W, N, E)
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # row/col change for N, E, S, W
TRAP = "TRAP"

CELLS = tuple((r, c) for r in range(3) for c in range(3))
ENTRANCES = tuple(f"ENTRANCE_{c}" for c in range(3))
RELIC_SPOTS = tuple(f"{wall}_{i}" for wall in ("LEFT", "TOP", "RIGHT") for i in range(3))
SPOTS = ENTRANCES + RELIC_SPOTS


def _spot_table() -> dict:
    """(cell, side) on the edge of the grid -> the spot it touches (nagaraja.md#temple)."""
    table = {}
    for i in range(3):
        table[((2, i), S)] = f"ENTRANCE_{i}"
        table[((i, 0), W)] = f"LEFT_{i}"
        table[((0, i), N)] = f"TOP_{i}"
        table[((i, 2), E)] = f"RIGHT_{i}"
    return table


SPOT_AT = _spot_table()
CELL_OF_SPOT = {spot: cell for (cell, _), spot in SPOT_AT.items()}


class PlacedTile(NamedTuple):
    tile_id: str
    rotation: int
    amulet: str | None = None  # an uncollected amulet on the tile's special location


def side_mask(sides: str) -> int:
    return sum(1 << SIDES.index(s) for s in sides)


def rotate_mask(mask: int, k: int) -> int:
    """Turn a set of sides k quarter-turns clockwise (N -> E -> S -> W)."""
    k %= 4
    return ((mask << k) | (mask >> (4 - k))) & 0b1111


def mask_sides(mask: int) -> str:
    return "".join(SIDES[s] for s in range(4) if mask >> s & 1)


def check_cell(cell) -> tuple[int, int]:
    try:
        r, c = cell
    except (TypeError, ValueError):
        raise IllegalMove(f"{cell!r} is not a cell: write (row, column)") from None
    if not (isinstance(r, int) and isinstance(c, int) and 0 <= r <= 2 and 0 <= c <= 2):
        raise IllegalMove(f"{cell!r} is not a cell: rows and columns go from 0 to 2")
    return (r, c)


def neighbours(cell) -> list[tuple[int, int]]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in STEP if 0 <= r + dr <= 2 and 0 <= c + dc <= 2]


# Bit j of _NEIGHBOURS[i] is set when cell j is next to cell i (cells numbered row by row).
_NEIGHBOURS = tuple(sum(1 << (n[0] * 3 + n[1]) for n in neighbours(cell)) for cell in CELLS)


@lru_cache(maxsize=None)
def _legal_cells_of(occupancy: int, lifted: int | None) -> tuple[tuple[int, int], ...]:
    """Empty cells (``lifted`` counts as empty) in the entrance row or next to an occupied cell (nagaraja.md#placement)."""
    occupied = occupancy if lifted is None else occupancy & ~(1 << lifted)
    return tuple(
        cell for i, cell in enumerate(CELLS) if not occupied >> i & 1 and (cell[0] == 2 or occupied & _NEIGHBOURS[i])
    )


# What lies past each side of each cell (cells numbered row by row): the spot on the edge of the grid,
# or (the next cell, the bit of its side that faces back); the sides open in each 4-bit mask; the
# (cell, segment) name of node ``index * 8 + segment``. The connectivity search reads these tables.
_LINKS = tuple(
    tuple(
        SPOT_AT[(cell, side)]
        if (cell, side) in SPOT_AT
        else ((cell[0] + STEP[side][0]) * 3 + cell[1] + STEP[side][1], 1 << OPPOSITE[side])
        for side in range(4)
    )
    for cell in CELLS
)
_SIDES_OF_MASK = tuple(tuple(side for side in range(4) if mask >> side & 1) for mask in range(16))
_NODE_NAMES = {index * 8 + seg: (CELLS[index], seg) for index in range(9) for seg in range(8)}
_NODE_NUMBERS = {name: number for number, name in _NODE_NAMES.items()}


def _searched(masks: list, frontier: list, nodes: set, spots: set) -> tuple[frozenset, frozenset]:
    """(spots, node names) joined once the search from ``frontier`` (already in ``nodes``) is done: every
    segment reached through open sides that meet, and every spot a reached segment opens onto."""
    while frontier:
        node = frontier.pop()
        index = node >> 3
        links = _LINKS[index]
        for side in _SIDES_OF_MASK[masks[index][node & 7]]:
            link = links[side]
            if type(link) is str:  # the edge of the grid: a spot
                spots.add(link)
                continue
            other, bit = link
            for other_seg, other_mask in enumerate(masks[other]):
                if other_mask & bit and (other * 8 + other_seg) not in nodes:
                    nodes.add(other * 8 + other_seg)
                    frontier.append(other * 8 + other_seg)
    return frozenset(spots), frozenset(map(_NODE_NAMES.__getitem__, nodes))


_SOUTH = 1 << S


def _default_tiles():
    from gamelib.nagaraja.edition import default_edition

    return default_edition().tiles


class _kept:
    """``functools.cached_property`` without its lock: Python 3.11 takes a lock at the first read of
    each temple, and a game builds thousands of temples. The value goes into the temple's own
    ``__dict__`` under the same name, as there (``with_relics`` and ``collect_amulets`` copy it)."""

    def __init__(self, compute):
        self.compute, self.name, self.__doc__ = compute, compute.__name__, compute.__doc__

    def __get__(self, temple, owner=None):
        if temple is None:
            return self
        value = temple.__dict__[self.name] = self.compute(temple)
        return value


_LAYOUT_ONLY = frozenset(
    {"_legal_cells", "occupancy", "_connectivity", "_face_down", "_amulet_cells"}
)  # cached from the cells alone


@dataclass(frozen=True)
class Temple:
    """One player's temple. Immutable: every change returns a new temple."""

    tiles: Mapping = field(default=None, compare=False, repr=False, hash=False)
    cells: tuple = (None,) * 9
    relics: tuple = (None,) * 9  # relic ids in RELIC_SPOTS order

    def __post_init__(self):
        if self.tiles is None:
            object.__setattr__(self, "tiles", _default_tiles())

    # ----------------------------------------------------------------- reading
    def cell(self, cell) -> PlacedTile | str | None:
        r, c = check_cell(cell)
        return self.cells[r * 3 + c]

    def occupied_cells(self) -> list[tuple[int, int]]:
        return [CELLS[i] for i, content in enumerate(self.cells) if content is not None]

    def tile_cells(self) -> list[tuple[int, int]]:
        """Cells holding a room tile (not the trap)."""
        return [CELLS[i] for i, content in enumerate(self.cells) if isinstance(content, PlacedTile)]

    @property
    def trap_cell(self) -> tuple[int, int] | None:
        for i, content in enumerate(self.cells):
            if content == TRAP:
                return CELLS[i]
        return None

    @property
    def is_full(self) -> bool:
        return None not in self.cells  # every cell holds a tile or the trap

    def relic_at(self, spot: str) -> str | None:
        return self.relics[RELIC_SPOTS.index(spot)]

    def _masks(self, index: int) -> tuple[int, ...]:
        content = self.cells[index]
        if not isinstance(content, PlacedTile):
            return ()
        return _rotated_masks(self.tiles[content.tile_id].segments, content.rotation)

    def open_segments(self, cell) -> list[str]:
        """The open sides of each segment of the tile in ``cell``, after rotation."""
        r, c = check_cell(cell)
        return [mask_sides(mask) for mask in self._masks(r * 3 + c)]

    def legal_cells(self) -> list[tuple[int, int]]:
        """Empty cells in the entrance row or next to an occupied cell, sorted (nagaraja.md#placement)."""
        return list(self._legal_cells)

    @_kept
    def _legal_cells(self) -> tuple:
        return tuple(self._legal_cells_ignoring(None))

    def _legal_cells_ignoring(self, lifted: int | None) -> list[tuple[int, int]]:
        return list(_legal_cells_of(self.occupancy, lifted))

    @_kept
    def occupancy(self) -> int:
        """Bit i set when cell i holds a tile or the trap: all that legal cells depend on."""
        return sum([1 << i for i, content in enumerate(self.cells) if content is not None])

    # ----------------------------------------------------------------- connectivity
    @_kept
    def _connectivity(self) -> tuple[frozenset, frozenset]:
        masks = self._cell_masks()
        # nodes numbered index * 8 + segment (a tile has at most 4 segments): the search handles ints only
        frontier = [index * 8 + seg for index in (6, 7, 8) for seg, mask in enumerate(masks[index]) if mask & _SOUTH]
        return _searched(masks, frontier, set(frontier), set())

    def _cell_masks(self) -> list:
        tiles = self.tiles  # self._masks(i) for every cell: an empty cell and the trap have none
        return [
            _rotated_masks(tiles[content[0]].segments, content[1]) if content.__class__ is PlacedTile else ()
            for content in self.cells
        ]

    def _connectivity_grown(self, before: tuple, index: int) -> tuple[frozenset, frozenset]:
        """``_connectivity`` once a tile is placed on the empty cell ``index`` of a temple whose
        connectivity was ``before``: a tile only adds paths, so what was joined stays joined, and the
        search starts from the new tile's segments that touch an entrance or a joined segment."""
        masks = self._cell_masks()
        nodes = set(map(_NODE_NUMBERS.__getitem__, before[1]))
        links = _LINKS[index]
        frontier = []
        for seg, mask in enumerate(masks[index]):
            joined = False  # does this segment open onto an entrance or a joined segment?
            for side in _SIDES_OF_MASK[mask]:
                link = links[side]
                if type(link) is str:
                    joined = side == S  # an entrance (a relic spot joins nothing)
                else:
                    other, bit = link
                    for other_seg, other_mask in enumerate(masks[other]):
                        if other_mask & bit and other * 8 + other_seg in nodes:
                            joined = True
                            break
                if joined:
                    frontier.append(index * 8 + seg)
                    break
        nodes.update(frontier)
        return _searched(masks, frontier, nodes, set(before[0]))

    def connected_spots(self) -> frozenset[str]:
        """Spots joined through tiles to an entrance (an entrance counts once a segment opens onto it)."""
        return self._connectivity[0]

    def connected_nodes(self) -> frozenset:
        """The (cell, segment) nodes joined to an entrance."""
        return self._connectivity[1]

    def face_up(self, spot: str) -> bool:
        return spot in self._connectivity[0]

    def face_up_spots(self) -> list[str]:
        return [spot for spot in RELIC_SPOTS if spot in self._connectivity[0]]

    def face_down_spots(self) -> list[str]:
        return list(self._face_down)

    @_kept
    def _face_down(self) -> tuple:
        up = self._connectivity[0]
        return tuple([spot for spot in RELIC_SPOTS if spot not in up])

    # ----------------------------------------------------------------- changes
    def _with_cells(self, changes: dict) -> "Temple":
        cells = list(self.cells)
        for cell, content in changes.items():
            cells[cell[0] * 3 + cell[1]] = content
        temple = object.__new__(Temple)  # replace(self, cells=...) without __init__: the tiles are set already
        object.__setattr__(temple, "__dict__", {"tiles": self.tiles, "cells": tuple(cells), "relics": self.relics})
        return temple

    def place(self, cell, tile_id: str, rotation: int, amulet: str | None = None, legal_only: bool = True) -> "Temple":
        """A new temple with ``tile_id`` placed in ``cell`` at ``rotation`` (nagaraja.md#placement)."""
        cell = check_cell(cell)
        if tile_id not in self.tiles:
            raise IllegalMove(f"there is no room tile {tile_id!r}")
        if rotation not in (0, 1, 2, 3):
            raise IllegalMove(f"rotation must be 0, 1, 2 or 3 quarter-turns, not {rotation!r}")
        if self.cells[cell[0] * 3 + cell[1]] is not None:
            raise IllegalMove(f"cell {cell} is already occupied")
        if legal_only and cell not in self.legal_cells():
            raise IllegalMove(f"cell {cell} is not in the entrance row and touches no placed tile")
        return self._placed(cell, PlacedTile(tile_id, rotation, amulet))

    def _placed(self, cell: tuple, content: PlacedTile) -> "Temple":
        """``content`` put on the empty ``cell``: the connectivity and the cells with an amulet, when known
        here, grow from it."""
        temple = self._with_cells({cell: content})
        known, pending = self.__dict__.get("_connectivity"), self.__dict__.get("_amulet_cells")
        if known is not None:
            temple.__dict__["_connectivity"] = temple._connectivity_grown(known, cell[0] * 3 + cell[1])
        if pending is not None:
            index = cell[0] * 3 + cell[1]
            temple.__dict__["_amulet_cells"] = pending if content[2] is None else tuple(sorted(pending + (index,)))
        return temple

    def rotate(self, cell, k: int) -> "Temple":
        content = self.cell(cell)
        if not isinstance(content, PlacedTile):
            raise IllegalMove(f"there is no room tile at {tuple(cell)} to rotate")
        if k not in (1, 2, 3):
            raise IllegalMove(f"a rotation turns 1, 2 or 3 quarter-turns, not {k!r}")
        return self._with_cells({tuple(cell): content._replace(rotation=(content.rotation + k) % 4)})

    def move_destinations(self, origin) -> list[tuple[int, int]]:
        """Empty cells that are legal once ``origin`` is lifted (nagaraja.md#effects, MOVE_SWAP)."""
        r, c = check_cell(origin)
        if self.cells[r * 3 + c] is None:
            return []
        return [cell for cell in self._legal_cells_ignoring(r * 3 + c) if cell != (r, c)]

    def move(self, origin, destination) -> "Temple":
        origin, destination = check_cell(origin), check_cell(destination)
        content = self.cell(origin)
        if content is None:
            raise IllegalMove(f"cell {origin} is empty: there is nothing to move")
        if destination not in self.move_destinations(origin):
            raise IllegalMove(
                f"{destination} is not an empty cell in the entrance row or next to a tile once {origin} is lifted"
            )
        return self._with_cells({origin: None, destination: content})

    def swap_cells(self, a, b) -> "Temple":
        a, b = check_cell(a), check_cell(b)
        if a == b:
            raise IllegalMove("a swap needs two different cells")
        first, second = self.cell(a), self.cell(b)
        if first is None or second is None:
            raise IllegalMove(f"a swap needs two occupied cells; {a if first is None else b} is empty")
        return self._with_cells({a: second, b: first})

    def without_trap(self) -> "Temple":
        trap = self.trap_cell
        return self if trap is None else self._with_cells({trap: None})

    def put_trap(self, cell) -> tuple["Temple", PlacedTile | None]:
        """Put the trap in ``cell`` (lifting it from elsewhere in this temple); return the tile it displaced."""
        cell = check_cell(cell)
        if self.cell(cell) == TRAP:
            raise IllegalMove(f"the trap is already at {cell}")
        temple = self.without_trap()
        displaced = temple.cell(cell)
        return temple._with_cells({cell: TRAP}), displaced

    def swap_relics(self, a: str, b: str) -> "Temple":
        if a not in RELIC_SPOTS or b not in RELIC_SPOTS:
            raise IllegalMove(f"relics lie on LEFT_*, TOP_* and RIGHT_* spots, not {a if a not in RELIC_SPOTS else b}")
        if a == b:
            raise IllegalMove("a relic swap needs two different spots")
        relics = list(self.relics)
        i, j = RELIC_SPOTS.index(a), RELIC_SPOTS.index(b)
        relics[i], relics[j] = relics[j], relics[i]
        return self.with_relic_tuple(tuple(relics))  # the same layout: its connectivity still holds

    def with_relics(self, relics: Mapping[str, str]) -> "Temple":
        """The same layout with other relics: what was computed from the cells alone still holds
        (hiding the 18 relics of a new game, or a SWAP, recomputes no connectivity)."""
        return self.with_relic_tuple(tuple([relics.get(spot) for spot in RELIC_SPOTS]))

    def with_relic_tuple(self, relics: tuple) -> "Temple":
        """``with_relics`` given the relic ids in ``RELIC_SPOTS`` order (a new game hides 18, one by one)."""
        temple = object.__new__(Temple)
        fields = {name: value for name, value in self.__dict__.items() if name in _LAYOUT_ONLY}
        fields.update(tiles=self.tiles, cells=self.cells, relics=relics)
        object.__setattr__(temple, "__dict__", fields)
        return temple

    @_kept
    def _amulet_cells(self) -> tuple:
        """The indices of the cells whose room holds an uncollected amulet, in order (most temples have none)."""
        return tuple(
            [
                i
                for i, content in enumerate(self.cells)
                if isinstance(content, PlacedTile) and content.amulet is not None
            ]
        )

    def collect_amulets(self) -> tuple["Temple", list[str]]:
        """Take every uncollected amulet whose segment is joined to an entrance (nagaraja.md#paths)."""
        pending = self._amulet_cells
        if not pending:
            return self, []
        connected = self.connected_nodes()
        changes, collected = {}, []
        for i in pending:
            content = self.cells[i]
            if (CELLS[i], self.tiles[content.tile_id].special) in connected:
                changes[CELLS[i]] = content._replace(amulet=None)
                collected.append(content.amulet)
        if not changes:
            return self, []
        temple = self._with_cells(changes)
        # the layout is unchanged, so what was computed from it here still holds
        temple.__dict__["_connectivity"] = self._connectivity
        temple.__dict__["_legal_cells"] = self._legal_cells
        temple.__dict__["_amulet_cells"] = tuple([i for i in pending if CELLS[i] not in changes])
        return temple, collected

    # ----------------------------------------------------------------- text
    def rows(self, relic_text=None) -> list[str]:
        """A small text drawing: each cell as tile:rotation:open sides, spots around it."""
        relic_text = relic_text or (lambda spot: "up" if self.face_up(spot) else "??")

        def cell_text(cell):
            content = self.cell(cell)
            if content is None:
                return "  .  ".center(12)
            if content == TRAP:
                return "TRAP".center(12)
            sides = "/".join(self.open_segments(cell))
            amulet = "*" if content.amulet else ""
            return f"{content.tile_id}{amulet}:{sides}".center(12)

        lines = ["        " + "".join(f"T{c}={relic_text(f'TOP_{c}')}".center(12) for c in range(3))]
        for r in range(3):
            left = f"L{r}={relic_text(f'LEFT_{r}')}".rjust(8)
            right = f"R{r}={relic_text(f'RIGHT_{r}')}"
            lines.append(left + "".join(cell_text((r, c)) for c in range(3)) + right)
        lines.append("        " + "".join(f"E{c}".center(12) for c in range(3)))
        return lines


@lru_cache(maxsize=4096)
def _rotated_masks(segments: tuple[str, ...], rotation: int) -> tuple[int, ...]:
    return tuple(rotate_mask(side_mask(s), rotation) for s in segments)


def brute_force_connectivity(temple: Temple) -> tuple[set, set]:
    """The obvious method, for tests and benchmarks: repeat a pass over every pair of
    segments until nothing changes. Returns (connected spots, connected nodes)."""
    nodes = {
        (cell, i): set(sides) for cell in temple.tile_cells() for i, sides in enumerate(temple.open_segments(cell))
    }
    reached = {n for n, sides in nodes.items() if n[0][0] == 2 and "S" in sides}
    changed = True
    while changed:
        changed = False
        for (cell, i), sides in nodes.items():
            if (cell, i) in reached:
                continue
            for side in sides:
                k = SIDES.index(side)
                other = (cell[0] + STEP[k][0], cell[1] + STEP[k][1])
                if any(o == other and SIDES[OPPOSITE[k]] in s and (o, j) in reached for (o, j), s in nodes.items()):
                    reached.add((cell, i))
                    changed = True
                    break
    spots = {
        SPOT_AT[(cell, SIDES.index(side))]
        for (cell, i) in reached
        for side in nodes[(cell, i)]
        if (cell, SIDES.index(side)) in SPOT_AT
    }
    return spots, reached
