"""What a player sees of a Nagaraja position: ``observation(state, player)`` and the text board.

The observation is a JSON-compatible dict holding nothing the player may not know (nagaraja.md#hidden-information):
the opponent's hand, committed cards before the reveal, face-down relics the player never
saw and the opponent's amulets are left out. ``text_board`` is ``str(state)``, the whole
position for a reader who may see everything.
"""

from __future__ import annotations

from functools import lru_cache

from gamelib.nagaraja.actions import describe_result
from gamelib.nagaraja.position import PUBLIC, seat_name
from gamelib.nagaraja.rules import State
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, PlacedTile


def _relic_views(relics: tuple, owner: int, seen_by) -> dict:
    """The relics of a temple's layout (:func:`_temple_layout`) as ``seen_by`` (a seat) may know them."""
    knowledge = seen_by.knowledge
    views = {}
    for spot, relic_id, up, vp, cursed in relics:
        known = up or (owner, relic_id) in knowledge
        shown = known and relic_id
        views[spot] = {
            "face_up": up,
            "known": bool(known),
            "vp": vp if shown else None,
            "cursed": cursed if shown else None,
        }
    return views


@lru_cache(maxsize=256)
def _temple_layout(edition, temple) -> tuple:
    """What a temple shows whoever looks, as tuples (built once per temple value and edition; the views copy
    it into fresh lists and dicts): per cell ``(cell, content)`` (content: None, a marker, or a placed tile's
    ``(id, shape, rotation, open segments, special, amulet)``); per relic spot ``(spot, relic id, face up, vp,
    cursed)``; the connected spots and nodes, sorted; the legal cells."""
    cells = []
    for cell in CELLS:
        content = temple.cell(cell)
        if isinstance(content, PlacedTile):
            tile = edition.tiles[content.tile_id]
            content = (
                content.tile_id,
                tile.shape,
                content.rotation,
                tuple(temple.open_segments(cell)),
                tile.special,
                content.amulet is not None,
            )
        cells.append((tuple(cell), content))
    relics = []
    for spot in RELIC_SPOTS:
        relic_id = temple.relic_at(spot)
        relic = edition.relic_by_id[relic_id] if relic_id else None
        relics.append((spot, relic_id, temple.face_up(spot), relic and relic.vp, relic and relic.cursed))
    return (
        tuple(cells),
        tuple(relics),
        tuple(sorted(temple.connected_spots())),
        tuple(sorted((r, c, seg) for (r, c), seg in temple.connected_nodes())),
        tuple(tuple(cell) for cell in temple.legal_cells()),
    )


def _temple_view(state: State, viewer: int, owner: int) -> dict:
    """``owner``'s temple as ``viewer`` may know it: fresh lists and dicts copied from its cached layout."""
    cells, relics, spots, nodes, legal = _temple_layout(state.edition, state.players[owner].temple)
    return {
        "cells": [
            {
                "cell": list(cell),
                "content": content
                if content is None or isinstance(content, str)
                else {
                    "tile": content[0],
                    "shape": content[1],
                    "rotation": content[2],
                    "segments": list(content[3]),
                    "special": content[4],
                    "amulet": content[5],
                },
            }
            for cell, content in cells
        ],
        "relics": _relic_views(relics, owner, state.players[viewer]),
        "connected_spots": list(spots),
        "connected_nodes": [list(node) for node in nodes],
        "legal_cells": [list(cell) for cell in legal],
    }


def _last_events(state: State, viewer: int, count: int = 12) -> list[str]:
    """``state.events(viewer)[-count:]``, read from the end of the log (the log grows all game long)."""
    shown = []
    for audience, text in reversed(state.log):
        if audience == PUBLIC or audience == viewer:
            shown.append(text)
            if len(shown) == count:
                break
    shown.reverse()
    return shown


def observation(state: State, viewer: int) -> dict:
    """What player ``viewer`` may know of ``state``, as a JSON-compatible dict."""
    if viewer not in (0, 1):
        raise ValueError(f"players are 0 and 1, not {viewer!r}")
    cards = _card_dicts(state.edition)
    deal = None
    if state.deal is not None and viewer == state.guide:
        deal = [cards[c].copy() for c in state.deal]
    pending = state.pending_swap
    return {
        "edition": state.edition.describe(),
        "placeholder": state.edition.placeholder,
        "viewer": viewer,
        "phase": state.phase,
        "to_act": None if state.queue or state.result else state.to_act,
        "chance_pending": bool(state.queue),
        "guide": state.guide,
        "round": state.round,
        "current_room": _room_view(state),
        "room_pile": len(state.room_pile) + len(state.room_bottom),
        "draw_pile": len(state.draw_pile),
        "amulet_pile": len(state.amulet_pile),
        "discard_pile": list(state.discard_pile),
        "deal": deal,
        "pending_swap": {"temple": pending[0], "a": pending[1], "b": pending[2]} if pending else None,
        "room_winner": state.room_winner,
        "events": _last_events(state, viewer),
        "result": state.result.to_dict() if state.result else None,
        "players": [_seat_view(state, viewer, p) for p in range(len(state.players))],
    }


def _seat_view(state: State, viewer: int, p: int) -> dict:
    """What ``viewer`` may know of seat ``p``: their own hand and amulets, the other's only once shown."""
    cards = _card_dicts(state.edition)
    me = state.players[p]
    own = p == viewer
    committed = me.committed
    show_commit = committed is not None and (own or state.phase != "CALL_OF_FATE")
    return {
        "temple": _temple_view(state, viewer, p),
        "hand": [cards[c].copy() for c in me.hand] if own else None,
        "hand_size": len(me.hand),
        "known_hand": [cards[c].copy() for c in me.hand if own or c in me.public_hand],
        "committed": [cards[c].copy() for c in committed] if show_commit else None,
        "committed_count": len(committed) if committed is not None else 0,
        "has_committed": committed is not None,
        "activated": [cards[c].copy() for c in me.activated],
        "sticks": [
            {"id": s.id, "colour": s.colour, "points": s.points, "naga": None if s.naga is None else bool(s.naga)}
            for s in me.sticks
        ],
        "modifier": me.modifier,
        "virtual_nagas": me.virtual_nagas,
        "total": state.total(p),
        "amulets": [state.edition.amulets[a].to_dict() for a in me.amulets] if own else None,
        "amulet_count": len(me.amulets),
        "score": state.score(p) if own or state.result is not None else None,
        "visible_score": state.visible_score(p),
    }


def _card_dicts(edition) -> dict:
    """Every card's ``to_dict()`` by id, made once per edition and kept on it (``Edition.memo``); the views hand out
    copies (``dict.copy()``: their values are strings, so a copy shares nothing a caller could change)."""
    try:
        return edition.memo["view card dicts"]
    except KeyError:
        made = edition.memo["view card dicts"] = {card_id: card.to_dict() for card_id, card in edition.cards.items()}
        return made


def _room_view(state: State) -> dict | None:
    """The room being fought over (public), or None between rooms."""
    if state.current_room is None:
        return None
    tile = state.edition.tiles[state.current_room]
    return {
        "tile": tile.id,
        "shape": tile.shape,
        "segments": list(tile.segments),
        "special": tile.special,
        "amulet": state.room_amulet is not None,
    }


def text_board(state: State) -> str:
    """The whole position as text (``str(state)``)."""
    relics = state.edition.relic_by_id
    lines = [
        f"Nagaraja -- {state.edition.describe()}",
        f"Round {state.round}, phase {state.phase}, guide {seat_name(state.guide)}, "
        + (
            describe_result(state)
            if state.result
            else "chance to resolve"
            if state.queue
            else f"{seat_name(state.to_act)} to act"
        ),
    ]
    if state.current_room:
        lines.append(f"Room up for grabs: {state.current_room}" + (" with an amulet" if state.room_amulet else ""))
    for p, me in enumerate(state.players):
        temple = me.temple

        def relic_text(spot, temple=temple):
            relic = relics.get(temple.relic_at(spot))
            if relic is None:
                return "--"
            mark = f"{'C' if relic.cursed else 'S'}{relic.vp}"
            return mark if temple.face_up(spot) else mark.lower()

        lines.append(
            f"{seat_name(p)}: score {state.score(p)}, hand {', '.join(me.hand) or '-'}, "
            f"amulets {', '.join(me.amulets) or '-'}, sticks {' '.join(str(s) for s in me.sticks) or '-'}, "
            f"total {state.total(p)}"
        )
        lines += ["  " + row for row in temple.rows(relic_text)]
    lines.append("(relics: C = cursed, S = sacred; lower case = face down)")
    lines += ["Last events:"] + [f"  {text}" for _, text in state.log[-6:]]
    return "\n".join(lines)
