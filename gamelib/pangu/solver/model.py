"""The compact position model of the Pangu solver (docs/pangu_solver.md, "The model").

A turn-start position is the key ``(F, C, D)`` plus Karma:

* ``F``: 10-bit mask of the filled ring cells, numbered in cycle order (``ring[0]`` is the
  top-left corner, then clockwise for the 3x4 grid);
* ``C``: 10-bit mask over ring edges (edge ``e`` joins ring cells ``e`` and ``e + 1``): bit ``e``
  is set iff exactly one end is filled and that card's half circle facing the empty end is YANG;
* ``D``: 10-bit mask of the cards not yet placed (bit ``i`` is the deck file's ``i``-th card).

Everything the future depends on is kept: which cells are legal, every future ``rec`` (the
centre colours are fixed; the colour facing an empty cell is in ``C``) and the law of the
future hands. This module is pure Python; ``arrays`` turns it into the numba kernels' arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from math import comb

from gamelib.pangu.rules import Rules, new_game

EDGE_COUNT = 4
HAND = 3  # cards revealed per turn while more than one card remains (pangu.md#turns)
PREV, NEXT = 0, 1  # a ring cell's two ring neighbours


def popcount(mask: int) -> int:
    """The number of set bits of ``mask``."""
    return bin(mask).count("1")


def hand_size(left: int) -> int:
    """The cards revealed at a turn start with ``left`` unseen: three, but the last card is always a
    turn of its own (pangu.md#turns)."""
    return min(HAND, left - 1) if left > 1 else 1


def turn_sizes(cards: int) -> list[int]:
    """The hand sizes of a deck of ``cards`` cards (pangu.md#turns: 3, 3, 3, 1 for ten)."""
    sizes, left = [], cards
    while left > 0:
        sizes.append(hand_size(left))
        left -= sizes[-1]
    return sizes


@dataclass(frozen=True)
class Model:
    """Ring geometry, card faces and Karma arithmetic for one rule set with a fixed centre."""

    rules: Rules
    centre: str  # YIN_LEFT or YANG_LEFT
    card_ids: tuple[str, ...]
    ring: tuple[tuple[int, int], ...]  # ring cells in cycle order
    touches_centre: tuple[bool, ...]
    facing: tuple  # facing[card][orientation index][x][PREV/NEXT] = 1 if YANG
    centre_rec: tuple  # centre_rec[card][orientation index][x]
    numbers: tuple[tuple[int, int], ...]  # (blue, white) per card

    @property
    def orientations(self) -> tuple[int, ...]:
        """The orientations a card may take: 0 only, or 0 and 180 under ``allow_rotation``."""
        return (0, 180) if self.rules.allow_rotation else (0,)

    @property
    def size(self) -> int:
        """The number of ring cells."""
        return len(self.ring)

    # ---------------------------------------------------------------- ring arithmetic
    @cached_property
    def _links(self) -> tuple:
        """Per ring cell ``((PREV neighbour, NEXT neighbour), (PREV edge, NEXT edge))``: the per-move solver's
        hot path reads these instead of recomputing them."""
        return tuple(
            ((self.neighbour(x, PREV), self.neighbour(x, NEXT)), (self.edge(x, PREV), self.edge(x, NEXT)))
            for x in range(self.size)
        )

    def neighbour(self, x: int, side: int) -> int:
        """The ring cell next to ``x`` on ``side`` (PREV or NEXT)."""
        return (x - 1) % self.size if side == PREV else (x + 1) % self.size

    def edge(self, x: int, side: int) -> int:
        """The ring edge between ``x`` and its neighbour on ``side``."""
        return (x - 1) % self.size if side == PREV else x

    def legal(self, filled: int, x: int) -> bool:
        """Ring cell ``x`` is empty and next to the centre or a filled ring cell (pangu.md#placing)."""
        if filled >> x & 1:
            return False
        before, after = self._links[x][0]
        return self.touches_centre[x] or filled >> before & 1 or filled >> after & 1

    def rec(self, filled: int, colours: int, card: int, o: int, x: int) -> int:
        """``rec`` of card index ``card`` at orientation index ``o`` on ring cell ``x``."""
        rec = self.centre_rec[card][o][x]
        neighbours, edges = self._links[x]
        facing = self.facing[card][o][x]
        for side in (PREV, NEXT):
            if filled >> neighbours[side] & 1 and facing[side] == colours >> edges[side] & 1:
                rec += 1
        return rec

    def place(self, filled: int, colours: int, card: int, o: int, x: int) -> tuple[int, int]:
        """``(F, C)`` after placing the card on ``x``."""
        filled |= 1 << x
        neighbours, edges = self._links[x]
        facing = self.facing[card][o][x]
        for side in (PREV, NEXT):
            e = edges[side]
            if filled >> neighbours[side] & 1:
                colours &= ~(1 << e)
            elif facing[side]:
                colours |= 1 << e
            else:
                colours &= ~(1 << e)
        return filled, colours

    def frontier(self, filled: int) -> int:
        """Edges with exactly one filled end (where a ``C`` bit may be set)."""
        mask = 0
        for e in range(self.size):
            if (filled >> e & 1) != (filled >> ((e + 1) % self.size) & 1):
                mask |= 1 << e
        return mask

    def reachable_filled(self, filled: int) -> bool:
        """A filled set some legal play reaches: every filled cell off the centre has a filled ring neighbour."""
        return all(
            self.touches_centre[x] or filled >> self.neighbour(x, PREV) & 1 or filled >> self.neighbour(x, NEXT) & 1
            for x in range(self.size)
            if filled >> x & 1
        )

    # ---------------------------------------------------------------- Karma arithmetic (pangu.md#karma, pangu.md#parameters)
    def step(self, karma: int, cost: int, rec: int) -> int:
        """Karma after one placement from ``karma`` (0 means lost). Not for ``before_turn``."""
        rules = self.rules
        ceiling = rules.starting_karma
        paid = karma - cost
        if paid <= 0 and rules.defeat_check == "after_payment":
            return 0
        if rules.cap_rule == "before_placement":
            gain = min(rec, cost)
        else:
            gain = min(rec, ceiling - paid)
        after = paid + gain
        return after if after > 0 else 0

    def cheapest_cost(self, card: int, roll: tuple[int, int]) -> int:
        """Cost of the cheaper legal die, 0 when the roll blocks the card."""
        blue, white = self.numbers[card]
        costs = [abs(roll[0] - blue)] if roll[0] != blue else []
        if roll[1] != white:
            costs.append(abs(roll[1] - white))
        return min(costs) if costs else 0

    # ---------------------------------------------------------------- keys from a board
    def key_of(self, cells: dict, unplaced: set[str]) -> tuple[int, int, int]:
        """``(F, C, D)`` from ``{(row, col): (card id, orientation)}`` and the unplaced card ids."""
        filled = colours = 0
        by_cell = {cell: x for x, cell in enumerate(self.ring)}
        placed = [
            (by_cell[cell], self.card_ids.index(card_id), self.orientations.index(o))
            for cell, (card_id, o) in cells.items()
        ]
        for x, _, _ in placed:
            filled |= 1 << x
        for x, card, o in placed:
            for side in (PREV, NEXT):
                if not filled >> self.neighbour(x, side) & 1 and self.facing[card][o][x][side]:
                    colours |= 1 << self.edge(x, side)
        unseen = sum(1 << self.card_ids.index(card_id) for card_id in unplaced)
        return filled, colours, unseen


def _ring_cycle(geometry) -> list[tuple[int, int]]:
    """The ring cells in cycle order, from the smallest cell, walking neighbour to neighbour."""
    ring = set(geometry.ring)
    start = min(ring)
    order = [start]
    previous = None
    while True:
        here = order[-1]
        options = sorted(cell for _, cell in geometry.neighbours(here) if cell in ring and cell != previous)
        following = options[0] if previous is None else options[0]
        if following == start:
            break
        previous, order = here, order + [following]
        if len(order) > len(ring):
            raise ValueError("the ring of this grid is not a cycle")
    return order


def build_model(rules: Rules, centre: str | None = None, cards=None) -> Model:
    """The model of ``rules`` with the centre configuration ``centre`` (default: the rules' own)."""
    centre = centre or rules.centre_config
    if centre not in ("YIN_LEFT", "YANG_LEFT"):
        raise ValueError("build a model for YIN_LEFT or YANG_LEFT; RANDOM is the average of the two")
    start = new_game(
        rules=replace(rules, centre_config=centre), explicit_chance=True, **({} if cards is None else {"cards": cards})
    )
    geometry = start.geometry
    ring = _ring_cycle(geometry)
    centre_colour = start.centre_cells
    deck = start.cards
    orientations = (0, 180) if rules.allow_rotation else (0,)
    worth = 2 if rules.centre_match_counts_as_circle else 1
    touches, centre_edge = [], []
    for cell in ring:
        contact = [(edge, other) for edge, other in geometry.neighbours(cell) if other in centre_colour]
        touches.append(bool(contact))
        centre_edge.append(contact[0] if contact else None)
    side_edges = []
    for x, cell in enumerate(ring):
        towards = {other: edge for edge, other in geometry.neighbours(cell)}
        side_edges.append((towards[ring[(x - 1) % len(ring)]], towards[ring[(x + 1) % len(ring)]]))
    facing, centre_rec = [], []
    for card in deck:
        facing.append(
            tuple(
                tuple(
                    tuple(int(card.colour(side_edges[x][side], o) == "YANG") for side in (PREV, NEXT))
                    for x in range(len(ring))
                )
                for o in orientations
            )
        )
        centre_rec.append(
            tuple(
                tuple(
                    worth
                    if centre_edge[x] and card.colour(centre_edge[x][0], o) == centre_colour[centre_edge[x][1]]
                    else 0
                    for x in range(len(ring))
                )
                for o in orientations
            )
        )
    return Model(
        rules,
        centre,
        deck.ids,
        tuple(ring),
        tuple(touches),
        tuple(facing),
        tuple(centre_rec),
        tuple((card.blue, card.white) for card in deck),
    )


def subset_rank(mask: int) -> int:
    """Rank of ``mask`` among the masks with as many bits (combinatorial number system)."""
    rank, seen = 0, 0
    for bit in range(mask.bit_length()):
        if mask >> bit & 1:
            seen += 1
            rank += comb(bit, seen)
    return rank
