"""Temple geometry and connectivity: every vector of spec 9.5, through the contract names."""

import pytest

from gamelib import IllegalMove
from gamelib.nagaraja.temple import RELIC_SPOTS, Temple

# Tile ids of the PLACEHOLDER edition (spec 3.5): R01 straight {N,S} with a special location,
# R02 plain straight, R04 corner {N,E} with special, R06 plain corner, R08 T {N,E,W} with special,
# R10 plain T, R12/R13 crosses, R14 two corners {N,E},{S,W} with special on segment 0,
# R16 corner + chamber {N,E},{S} with special on the chamber (segment 1).


def relics_up(temple):
    return temple.connected_spots() & set(RELIC_SPOTS)


def test_legal_cells_vector_1():  # spec 9.5.1
    empty = Temple()
    assert empty.legal_cells() == [(2, 0), (2, 1), (2, 2)]
    one = empty.place((2, 1), "R02", 0)
    assert one.legal_cells() == [(1, 1), (2, 0), (2, 2)]
    two = one.place((1, 1), "R03", 0)
    assert two.legal_cells() == [(0, 1), (1, 0), (1, 2), (2, 0), (2, 2)]
    assert empty.place((2, 0), "R02", 0).legal_cells() == [(1, 0), (2, 1), (2, 2)]


def test_placement_need_not_join_a_path():  # spec 4.4: every rotation of a legal cell is legal
    temple = Temple().place((2, 1), "R02", 1)  # {E,W}: joined to nothing
    assert temple.connected_spots() == set()
    assert temple.place((1, 1), "R03", 3).cell((1, 1)).rotation == 3


def test_illegal_placements_are_refused():
    with pytest.raises(IllegalMove, match="entrance row"):
        Temple().place((1, 1), "R02", 0)
    with pytest.raises(IllegalMove, match="occupied"):
        Temple().place((2, 1), "R02", 0).place((2, 1), "R03", 0)
    with pytest.raises(IllegalMove, match="rotation"):
        Temple().place((2, 1), "R02", 4)


@pytest.mark.parametrize("rotation", [0, 2])
def test_straight_joins_only_the_empty_cell_above_vector_2(rotation):  # spec 9.5.2
    temple = Temple().place((2, 1), "R02", rotation)
    assert temple.connected_spots() == {"ENTRANCE_1"}
    assert relics_up(temple) == set()
    assert temple.connected_nodes() == {((2, 1), 0)}
    assert sorted(temple.open_segments((2, 1))[0]) == ["N", "S"]


@pytest.mark.parametrize("rotation", [1, 3])
def test_sideways_straight_connects_nothing_vector_2(rotation):  # spec 9.5.2
    assert Temple().place((2, 1), "R02", rotation).connected_spots() == set()


def test_corner_rotations_vector_3():  # spec 9.5.3
    assert relics_up(Temple().place((2, 0), "R06", 2)) == {"LEFT_2"}  # {S,W}
    connected = Temple().place((2, 0), "R06", 1)  # {E,S}
    assert connected.connected_spots() == {"ENTRANCE_0"} and relics_up(connected) == set()
    touching = Temple().place((2, 0), "R06", 3)  # {W,N}: touches LEFT_2 but no entrance
    assert relics_up(touching) == set() and not touching.face_up("LEFT_2")
    assert Temple().place((2, 0), "R06", 0).connected_spots() == set()


@pytest.mark.parametrize("rotation, revealed", [(2, True), (3, True), (1, False)])
def test_t_junction_vector_4(rotation, revealed):  # spec 9.5.4
    temple = Temple().place((2, 0), "R10", rotation)
    assert temple.face_up("LEFT_2") is revealed


def test_corner_and_chamber_relic_or_amulet_vector_5():  # spec 9.5.5 (the §2.7 choice)
    chamber_down = Temple().place((2, 0), "R16", 0, amulet="A05")
    collected_temple, collected = chamber_down.collect_amulets()
    assert collected == ["A05"] and not chamber_down.face_up("LEFT_2")
    assert collected_temple.cell((2, 0)).amulet is None
    relic_side = Temple().place((2, 0), "R16", 2, amulet="A05")
    assert relic_side.face_up("LEFT_2")
    assert relic_side.collect_amulets()[1] == []


def test_rotation_breaks_a_path_vector_6():  # spec 9.5.6
    temple = Temple().place((2, 2), "R02", 0).place((1, 2), "R06", 1)
    assert relics_up(temple) == {"RIGHT_1"}
    broken = temple.rotate((2, 2), 1)
    assert relics_up(broken) == set() and not broken.face_up("RIGHT_1")


def test_crosses_and_straight_reveal_top_1_only_vector_7():  # spec 9.5.7
    temple = Temple().place((2, 1), "R12", 0).place((1, 1), "R13", 0).place((0, 1), "R02", 0)
    assert relics_up(temple) == {"TOP_1"}


def test_two_corners_amulet_vector_8():  # spec 9.5.8
    rotation_0 = Temple().place((2, 1), "R14", 0, amulet="A01")
    assert rotation_0.connected_nodes() == {((2, 1), 1)}  # segment {S,W}
    assert rotation_0.collect_amulets()[1] == []
    rotation_1 = Temple().place((2, 1), "R14", 1, amulet="A01")
    assert sorted(rotation_1.open_segments((2, 1))[0]) == ["E", "S"]
    assert rotation_1.collect_amulets()[1] == ["A01"]


def test_trap_blocks_vector_9():  # spec 9.5.9
    temple, displaced = Temple().place((2, 1), "R02", 0).put_trap((1, 1))
    assert displaced is None
    crossing = temple.place((0, 1), "R03", 0, legal_only=True)  # (0,1) is legal next to the trap
    assert crossing.connected_nodes() == {((2, 1), 0)}
    assert relics_up(crossing) == set()


def test_trap_counts_for_adjacency_but_not_for_paths():  # spec 3.5, 4.4
    temple, _ = Temple().put_trap((1, 0))
    assert (0, 0) in temple.legal_cells() and (1, 1) in temple.legal_cells()


def test_move_destination_is_legal_once_lifted():  # spec 3.4 MOVE_SWAP
    temple = Temple().place((2, 1), "R02", 0).place((1, 1), "R03", 0)
    # once (1,1) is lifted, (0,1) and (1,0) touch nothing: only entrance-row cells remain
    assert temple.move_destinations((1, 1)) == [(2, 0), (2, 2)]
    assert temple.move((1, 1), (2, 2)).occupied_cells() == [(2, 1), (2, 2)]
    with pytest.raises(IllegalMove, match="once"):
        temple.move((1, 1), (0, 1))


def test_swap_cells_keeps_rotations_and_amulets():
    temple = Temple().place((2, 0), "R16", 3, amulet="A02").place((2, 1), "R02", 1)
    swapped = temple.swap_cells((2, 0), (2, 1))
    assert swapped.cell((2, 1)) == temple.cell((2, 0))
    assert swapped.cell((2, 0)) == temple.cell((2, 1))


def test_full_temple_has_no_legal_cell():
    tiles = ["R01", "R02", "R03", "R04", "R05", "R06", "R07", "R08", "R09"]
    temple = Temple()
    for tile, cell in zip(tiles, [(2, 0), (2, 1), (2, 2), (1, 0), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2)]):
        temple = temple.place(cell, tile, 0)
    assert temple.is_full and temple.legal_cells() == []


def test_connectivity_matches_a_brute_force_flood():
    """The graph search against an obvious fixed-point over every (cell, segment) pair (spec 4.2)."""
    import random

    from gamelib.nagaraja.temple import brute_force_connectivity

    rng = random.Random(3)
    tile_ids = [f"R{i:02d}" for i in range(1, 18)]
    for _ in range(200):
        temple = Temple()
        for tile in rng.sample(tile_ids, rng.randint(1, 9)):
            cells = temple.legal_cells()
            if not cells:
                break
            temple = temple.place(rng.choice(cells), tile, rng.randrange(4))
        spots, reached = brute_force_connectivity(temple)
        assert temple.connected_nodes() == reached
        assert temple.connected_spots() == spots
