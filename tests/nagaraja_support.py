"""Shared helpers of the Nagaraja tests: a hand-built position, the "illegal leaves it unchanged"
check, a full temple layout, and a seeded game with every state seen (through ``core.play``)."""

from dataclasses import replace

import pytest

from gamelib import IllegalMove, core
from gamelib.nagaraja import State, new_game
from gamelib.nagaraja.edition import default_edition
from gamelib.nagaraja.position import Player, Stick, check_invariants
from gamelib.nagaraja.temple import RELIC_SPOTS, TRAP, PlacedTile, Temple

ED = default_edition()
# LEFT_0..2 = S3a S3b S4a, TOP_0..2 = S4b S5a S5b, RIGHT_0..2 = C6a C6b C6c (cursed on the right wall)
DEFAULT_RELICS = dict(zip(RELIC_SPOTS, ["S3a", "S3b", "S4a", "S4b", "S5a", "S5b", "C6a", "C6b", "C6c"]))
COLOUR = {"B": "BROWN", "W": "WHITE", "G": "GREEN"}


def make_state(
    phase="CONFRONTATION",
    to_act=0,
    guide=0,
    hands=((), ()),
    held_sticks=((), ()),
    tiles=({}, {}),
    relics=(None, None),
    amulets=((), ()),
    current_room="R17",
    room_amulet=None,
    room_pile=None,
    room_bottom=(),
    draw_pile=None,
    discard=(),
    committed=((), ()),
    edition=ED,
    explicit_chance=False,
    **changes,
) -> State:
    """A legal position built by hand; cards, tiles, amulets and sticks not named go to their piles."""
    players = []
    used_tiles, used_amulets = [current_room] if current_room else [], list(room_amulet and [room_amulet] or [])
    for seat in (0, 1):
        cells = [None] * 9
        for (r, c), content in tiles[seat].items():
            if content == TRAP:
                cells[r * 3 + c] = TRAP
                continue
            tile, rotation, *amulet = content
            cells[r * 3 + c] = PlacedTile(tile, rotation, amulet[0] if amulet else None)
            used_tiles.append(tile)
            used_amulets += amulet
        mapping = relics[seat] or DEFAULT_RELICS
        temple = Temple(edition.tiles, tuple(cells), tuple(mapping[s] for s in RELIC_SPOTS))
        seen = frozenset((seat, temple.relic_at(s)) for s in temple.face_up_spots())
        stick_list = tuple(Stick(i, COLOUR[i[0]], p, n) for i, p, n in held_sticks[seat])
        used_amulets += list(amulets[seat])
        players.append((temple, seen, stick_list))
    everyone_sees = frozenset().union(*(seen for _, seen, _ in players))
    players = tuple(
        Player(
            temple,
            hand=tuple(sorted(hands[s])),
            amulets=tuple(amulets[s]),
            sticks=stick_list,
            committed=committed[s],
            knowledge=everyone_sees,
        )
        for s, (temple, _, stick_list) in enumerate(players)
    )
    in_hands = [c for h in hands for c in h] + [c for cards in committed if cards for c in cards] + list(discard)
    in_hands += list(changes.get("deal") or ())
    rest = [c for c in sorted(edition.cards) if c not in in_hands]
    if draw_pile is None:
        draw_pile, extra_discard = rest, []
    else:
        extra_discard = [c for c in rest if c not in draw_pile]
    held = {i for seat in held_sticks for i, _, _ in seat}
    supply = tuple(sorted(f"{c}{i:02d}" for c in "BWG" for i in range(1, 13) if f"{c}{i:02d}" not in held))
    if room_pile is None:
        room_pile = [t for t in sorted(edition.tiles) if t not in used_tiles and t not in room_bottom]
    base = new_game(seed=0, edition=edition, explicit_chance=explicit_chance)
    changes.setdefault("queue", ())
    state = replace(
        base,
        players=players,
        phase=phase,
        to_act=to_act,
        guide=guide,
        round=1,
        draw_pile=tuple(draw_pile),
        discard_pile=tuple(discard) + tuple(extra_discard),
        room_pile=tuple(room_pile),
        room_bottom=tuple(room_bottom),
        current_room=current_room,
        room_amulet=room_amulet,
        supply=supply,
        log=(),
        amulet_pile=tuple(a for a in sorted(edition.amulets) if a not in used_amulets),
        out_of_game=tuple(
            t for t in sorted(edition.tiles) if t not in used_tiles and t not in room_pile and t not in room_bottom
        ),
        room_winner=to_act if phase == "EXPLORATION" else None,
        **changes,
    )
    check_invariants(state)
    return state


def unchanged_after(state, action, match):
    before = state.to_json()
    with pytest.raises(IllegalMove, match=match):
        state.apply(action)
    assert state.to_json() == before


def eight_room_temple():
    """Eight rooms at rotation 0; no entrance-row room opens south, so nothing is connected."""
    ids = {
        (2, 0): "R07",
        (2, 1): "R08",
        (2, 2): "R10",
        (1, 0): "R01",
        (1, 1): "R02",
        (1, 2): "R03",
        (0, 1): "R04",
        (0, 2): "R05",
    }
    return {cell: (tile, 0) for cell, tile in ids.items()}


def play_game(policies, seed, edition=None, on_state=None):
    """Play a seeded game with ``core.play`` (the driver's generator seeded like the deal);
    ``on_state`` sees every state an action is applied to, chance nodes included."""
    watch = None if on_state is None else (lambda state, action: on_state(state))
    return core.play(new_game(seed=seed, edition=edition), list(policies), seed=seed, on_action=watch)
