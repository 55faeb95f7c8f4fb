"""What a player sees of a Nagaraja position: ``observation(state, player)`` and the text board.

The observation is a JSON-compatible dict holding nothing the player may not know (nagaraja.md#hidden-information):
the opponent's hand, committed cards before the reveal, face-down relics the player never
saw and the opponent's amulets are left out. ``text_board`` is ``str(state)``, the whole
position for a reader who may see everything.
"""

from __future__ import annotations

import marshal

from gamelib.nagaraja.actions import describe_result
from gamelib.nagaraja.position import PUBLIC, seat_name
from gamelib.nagaraja.rules import State
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, PlacedTile


def _temple_parts(edition, temple) -> tuple:
    """What ``temple`` shows whoever looks, made once per temple and kept on it (a temple never changes; the
    edition it was made for is checked, as ``position.face_up_relics`` does): ``(layout, relics)``, ``layout``
    the marshalled lists of its cells, connected spots, connected nodes and legal cells (:func:`_temple_view`
    loads a fresh copy at every call), ``relics`` per relic spot ``(spot, relic id, face up, its view when
    known, its view when not)``."""
    kept = temple.__dict__.get("_view_parts")
    if kept is not None and kept[0] is edition:
        return kept[1]
    parts = (marshal.dumps(_temple_lists(edition, temple)), _relic_parts(edition, temple))
    temple.__dict__["_view_parts"] = (edition, parts)
    return parts


def _temple_lists(edition, temple) -> list:
    """The parts of a temple's view that do not depend on who looks, as the view shows them."""
    cells = []
    for cell in CELLS:
        content = temple.cell(cell)
        if isinstance(content, PlacedTile):
            tile = edition.tiles[content.tile_id]
            content = {
                "tile": content.tile_id,
                "shape": tile.shape,
                "rotation": content.rotation,
                "segments": list(temple.open_segments(cell)),
                "special": tile.special,
                "amulet": content.amulet is not None,
            }
        cells.append({"cell": list(cell), "content": content})
    return [
        cells,
        sorted(temple.connected_spots()),
        sorted([r, c, seg] for (r, c), seg in temple.connected_nodes()),
        [list(cell) for cell in temple.legal_cells()],
    ]


def _relic_parts(edition, temple) -> tuple:
    """Per relic spot ``(spot, relic id, face up, view when known, view when not)``: a known relic shows its VP and
    curse (none on an empty spot), an unknown one neither; the views copy one of the two."""
    parts = []
    for spot in RELIC_SPOTS:
        relic_id = temple.relic_at(spot)
        up = temple.face_up(spot)
        relic = edition.relic_by_id[relic_id] if relic_id else None
        shown = relic_id and {"face_up": up, "known": True, "vp": relic.vp, "cursed": relic.cursed}
        hidden = {"face_up": up, "known": False, "vp": None, "cursed": None}
        parts.append((spot, relic_id, up, shown or {**hidden, "known": True}, hidden))
    return tuple(parts)


def _temple_view(state: State, viewer: int, owner: int) -> dict:
    """``owner``'s temple as ``viewer`` may know it, in fresh lists and dicts (a caller may change them): the
    temple's kept parts (:func:`_temple_parts`) loaded or copied, a relic shown where the viewer knows it."""
    layout, relics = _temple_parts(state.edition, state.players[owner].temple)
    cells, spots, nodes, legal = marshal.loads(layout)
    knowledge = state.players[viewer].knowledge
    return {
        "cells": cells,
        "relics": {
            spot: (shown if up or (owner, relic_id) in knowledge else hidden).copy()
            for spot, relic_id, up, shown, hidden in relics
        },
        "connected_spots": spots,
        "connected_nodes": nodes,
        "legal_cells": legal,
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
        "amulets": [_amulet_dicts(state.edition)[a].copy() for a in me.amulets] if own else None,
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


def _amulet_dicts(edition) -> dict:
    """Every amulet's ``to_dict()`` by id, made once per edition and kept on it, handed out as copies (as
    :func:`_card_dicts`)."""
    try:
        return edition.memo["view amulet dicts"]
    except KeyError:
        made = edition.memo["view amulet dicts"] = {key: amulet.to_dict() for key, amulet in edition.amulets.items()}
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
