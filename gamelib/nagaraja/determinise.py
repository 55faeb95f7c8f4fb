"""A Nagaraja duel for a search bot to simulate from: what the player cannot know is dealt again.

The opponent's hand cards the player has not seen, a hidden commitment (again one symbol, as the
lessons' opponent model: every one-symbol set of that size equally likely), the guide's deal and
the draw pile are dealt again from those cards; the face-down relics whose identity the player
does not know are shuffled among their spots in each temple; the opponent's amulets, the amulet
pile and the amulet on the current room are dealt again from those amulets; the future chance
comes from a new seed. Amulets already lying on placed tiles keep their identity (the player sees
that one is there; which one is left as it is). ``gamelib.studio.determinise`` finds this module
by the state's package (the studio imports no game).
"""

from __future__ import annotations

import dataclasses
import random
from math import comb
from typing import Any

from gamelib.core import new_seed
from gamelib.nagaraja.position import copied
from gamelib.nagaraja.temple import RELIC_SPOTS


def determinised(state: Any, player: int, rng: random.Random) -> Any:
    """Nagaraja: unseen cards, unknown relics and hidden amulets dealt again; a fresh seed; no log."""
    opponent = 1 - player
    seats = list(state.players)
    changes: dict = {"seed": new_seed(rng), "log": (), "moves": ()}
    seats[opponent], card_changes = _redeal_cards(state, player, rng)
    changes.update(card_changes)
    viewer = seats[player]
    for owner in (0, 1):
        temple = _shuffled_relics(seats[owner].temple, owner, viewer.knowledge, rng)
        seats[owner] = copied(seats[owner], {"temple": temple})
    seats[opponent], amulet_changes = _redeal_amulets(state, seats[opponent], rng)
    changes.update(amulet_changes)
    changes["players"] = tuple(seats)
    return copied(state, changes)


def _redeal_cards(state: Any, player: int, rng: random.Random) -> tuple[Any, dict]:
    them = state.players[1 - player]
    hidden_hand = [card for card in them.hand if card not in them.public_hand]
    commitment_hidden = state.phase == "CALL_OF_FATE" and bool(them.committed)
    deal_hidden = state.deal is not None and state.guide != player
    pool = list(state.draw_pile) + hidden_hand
    pool += list(them.committed) if commitment_hidden else []
    pool += list(state.deal) if deal_hidden else []
    rng.shuffle(pool)
    seat_changes: dict = {}
    if commitment_hidden:
        committed = _one_symbol_set(pool, len(them.committed), state.edition.cards, rng)
        pool = [card for card in pool if card not in committed]
        seat_changes["committed"] = tuple(sorted(committed))
    dealt_hand, pool = pool[: len(hidden_hand)], pool[len(hidden_hand) :]
    seat_changes["hand"] = tuple(sorted([card for card in them.hand if card in them.public_hand] + dealt_hand))
    changes = {}
    if deal_hidden:
        changes["deal"], pool = tuple(pool[: len(state.deal)]), pool[len(state.deal) :]
    changes["draw_pile"] = tuple(sorted(pool))
    return copied(them, seat_changes), changes


def _one_symbol_set(pool: list, size: int, cards: Any, rng: random.Random) -> list:
    """``size`` cards of one symbol from ``pool``, every such set equally likely (the lessons' opponent model)."""
    by_symbol: dict = {}
    for card in pool:
        by_symbol.setdefault(cards[card].symbol, []).append(card)
    symbols = sorted(symbol for symbol, group in by_symbol.items() if len(group) >= size)
    weights = [comb(len(by_symbol[symbol]), size) for symbol in symbols]
    if not symbols:  # cannot happen in a real position (the true commitment is in the pool); keep the count
        return pool[:size]
    symbol = rng.choices(symbols, weights)[0]
    return rng.sample(sorted(by_symbol[symbol]), size)


def _shuffled_relics(temple: Any, owner: int, knowledge: frozenset, rng: random.Random) -> Any:
    relics = list(temple.relics)
    unknown = [
        RELIC_SPOTS.index(spot)
        for spot in temple.face_down_spots()
        if (owner, relics[RELIC_SPOTS.index(spot)]) not in knowledge
    ]
    drawn = [relics[index] for index in unknown]
    rng.shuffle(drawn)
    for index, relic in zip(unknown, drawn):
        relics[index] = relic
    return dataclasses.replace(temple, relics=tuple(relics))


def _redeal_amulets(state: Any, them: Any, rng: random.Random) -> tuple[Any, dict]:
    pool = list(them.amulets) + list(state.amulet_pile)
    pool += [state.room_amulet] if state.room_amulet is not None else []
    rng.shuffle(pool)
    held, pool = tuple(sorted(pool[: len(them.amulets)])), pool[len(them.amulets) :]
    changes = {}
    if state.room_amulet is not None:
        changes["room_amulet"] = pool.pop()
    changes["amulet_pile"] = tuple(sorted(pool))
    return copied(them, {"amulets": held}), changes
