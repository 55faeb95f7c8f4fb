"""Nagaraja's ``observation()`` (gamelib/nagaraja/view.py), made cheaper for the framework adapters (issue 27),
gives exactly what it gave before: the same dict, key order included, on every position of seeded random games
(about 3,200 under GAMELIB_LONG_TESTS=1, 640 in make test), for both viewers.

The oracle is the old code of the parts that changed, kept here only as the reference (main 118c468): the temple
views (built field by field from the temple at every call, now loaded from parts kept on the temple), the last 12
events (filtered from the whole log, now read from its end) and the amulets (``to_dict()`` at every call, now copied
from dicts kept on the edition). Both dicts are compared as JSON text without sorting
keys, so every dict's key order must agree too."""

from __future__ import annotations

import json
import os
import random

import pytest

from gamelib import nagaraja
from gamelib.nagaraja import view
from gamelib.nagaraja.position import relic_of
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, PlacedTile

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
GAMES = 40 if LONG else 8  # about 3,200 positions (640 in make test), each seen by both players


def oracle_relic_view(state, viewer, owner, spot):
    temple = state.players[owner].temple
    relic_id = temple.relic_at(spot)
    up = temple.face_up(spot)
    known = up or (owner, relic_id) in state.players[viewer].knowledge
    relic = relic_of(state, relic_id) if known and relic_id else None
    return {
        "face_up": up,
        "known": bool(known),
        "vp": relic.vp if relic else None,
        "cursed": relic.cursed if relic else None,
    }


def oracle_temple_view(state, viewer, owner):
    temple = state.players[owner].temple
    cells = []
    for cell in CELLS:
        content = temple.cell(cell)
        if isinstance(content, PlacedTile):
            tile = state.edition.tiles[content.tile_id]
            content = {
                "tile": content.tile_id,
                "shape": tile.shape,
                "rotation": content.rotation,
                "segments": temple.open_segments(cell),
                "special": tile.special,
                "amulet": content.amulet is not None,
            }
        cells.append({"cell": list(cell), "content": content})
    return {
        "cells": cells,
        "relics": {spot: oracle_relic_view(state, viewer, owner, spot) for spot in RELIC_SPOTS},
        "connected_spots": sorted(temple.connected_spots()),
        "connected_nodes": sorted([r, c, seg] for (r, c), seg in temple.connected_nodes()),
        "legal_cells": [list(cell) for cell in temple.legal_cells()],
    }


def oracle_observation(state, viewer):
    """The old observation: the new one's fields, with those that changed rebuilt the old way (the temple views, the
    last 12 events, the amulets), in the same key order."""
    seen = view.observation(state, viewer)
    seen["events"] = state.events(viewer)[-12:]
    for p, seat in enumerate(seen["players"]):
        seat["temple"] = oracle_temple_view(state, viewer, p)
        if p == viewer:
            seat["amulets"] = [state.edition.amulets[a].to_dict() for a in state.players[p].amulets]
    return seen


def play(games: int, seed: int):
    """Every position of ``games`` seeded random games (chance drawn by gamelib, half of them explicit)."""
    from gamelib.core import CHANCE, sample_outcome

    rng = random.Random(seed)
    for game in range(games):
        state = nagaraja.new_game(seed=seed + game, explicit_chance=game % 2 == 1)
        while True:
            yield state
            if state.is_terminal:
                break
            if state.current_player == CHANCE:
                state = state.apply(sample_outcome(state.chance_outcomes(), rng))
            else:
                state = state.apply(rng.choice(state.legal_actions()))


def test_observation_is_exactly_the_old_one_on_thousands_of_positions():
    count = 0
    for state in play(GAMES, 900):
        for viewer in (0, 1):
            new = json.dumps(view.observation(state, viewer))
            # the oracle rebuilds the temples and events itself, so compare the new dict's text to its text
            assert new == json.dumps(oracle_observation(state, viewer)), (count, viewer)
        count += 1
    assert count > (2000 if LONG else 400), count


@pytest.mark.parametrize("viewer", [0, 1])
def test_each_call_gives_fresh_objects(viewer):
    """The temple views come from a cached layout: mutating one observation must not change the next one (Gymnasium's
    check_env and a learner that edits its infos both rely on that)."""
    state = next(s for s in play(1, 5) if s.round > 1)
    first = view.observation(state, viewer)
    text = json.dumps(first)
    for seat in first["players"]:
        temple = seat["temple"]
        temple["cells"][0]["cell"].append(99)
        for cell in temple["cells"]:
            if isinstance(cell["content"], dict):
                cell["content"]["segments"].append("X")
        next(iter(temple["relics"].values()))["vp"] = -5
        temple["connected_spots"].append("X")
        temple["connected_nodes"].append([9])
        temple["legal_cells"].append([9, 9])
    first["events"].append("X")
    assert json.dumps(view.observation(state, viewer)) == text


def containers(value) -> list:
    """Every list and dict inside ``value``, itself included."""
    if isinstance(value, dict):
        return [value, *(inner for item in value.values() for inner in containers(item))]
    if isinstance(value, list):
        return [value, *(inner for item in value for inner in containers(item))]
    return []


def test_no_two_calls_share_a_list_or_a_dict():
    """The parts kept on a temple (its layout loaded by marshal, its relic views copied) and the card and amulet dicts
    kept on the edition are handed out as new objects: two observations of the same position, by the same viewer or
    by the two, share no list and no dict, inside one observation no container appears twice, and every position's
    temples are the same whether their parts are kept already or made now (a fresh copy of the state's temples)."""
    from dataclasses import replace

    checked = 0
    for state in play(2, 17):
        if state.round < 2:
            continue
        seen = [view.observation(state, viewer) for viewer in (0, 0, 1)]
        ids = [[id(inner) for inner in containers(one)] for one in seen]
        assert all(len(set(one)) == len(one) for one in ids)
        assert not set(ids[0]) & set(ids[1]) and not set(ids[0]) & set(ids[2])
        fresh = [replace(seat.temple) for seat in state.players]  # equal temples with nothing kept on them
        assert all("_view_parts" not in temple.__dict__ for temple in fresh)
        for owner, temple in enumerate(fresh):
            for viewer in (0, 1):
                made = view._temple_view(replace_temple(state, owner, temple), viewer, owner)
                assert json.dumps(made) == json.dumps(view._temple_view(state, viewer, owner))
        checked += 1
    assert checked > 50, checked


def replace_temple(state, owner, temple):
    from gamelib.nagaraja.position import copied

    players = list(state.players)
    players[owner] = copied(players[owner], {"temple": temple})
    return copied(state, {"players": tuple(players)})
