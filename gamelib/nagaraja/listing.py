"""The legal actions of a Nagaraja position (nagaraja.md#programmers), and what a move's check
shares with them: which Naga sources a seat holds, which parameters each card effect allows
(nagaraja.md#effects), which amulets can be used, whether a seat could do anything but pass.

Listings build the same frozen actions over and over (72 swaps per SWAP card alone): each is built
once and shared (``shared``), and a Naga effect's options, which depend on a few facts only
(``_option_parts``), are kept on the edition (``Edition.memo``).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from operator import itemgetter

from gamelib.nagaraja.action_types import (
    SLOT_SETTERS,
    Cell,
    Commit,
    DiscardTile,
    Keep,
    Move,
    NoParams,
    Pass,
    PlaceTile,
    Rotate,
    Spot,
    SpotPair,
    Sticks,
    Swap,
    SwapChoice,
    UseAmulet,
    UseNaga,
    made,
)
from gamelib.nagaraja.cards import COLOURS
from gamelib.nagaraja.position import detached, face_down_own, spend_naga
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS


def legal_actions(state) -> list:
    """Every action the seat to act may take in ``state`` (a fresh list; the actions in it are shared,
    frozen objects), in a fixed order: commitments or Naga uses, amulets, then the phase's own moves."""
    player, phase = state.to_act, state.phase
    actions: list = []
    if phase == "CALL_OF_FATE":
        actions = commit_actions(state, player)
    elif phase == "CONFRONTATION":
        if state.pending_swap is None:
            actions = naga_actions(state, player)
    if state.players[player].amulets:  # else amulet_actions lists none
        actions += amulet_actions(state, player)
    if phase == "CONFRONTATION":
        if state.pending_swap is not None:
            actions += [shared(SwapChoice, player, False), shared(SwapChoice, player, True)]
        else:
            actions.append(shared(Pass, player))
    elif phase == "EXPLORATION":
        actions += _placements(player, state.players[player].temple._legal_cells)  # legal_cells() as its tuple
    elif phase == "NEW_DEAL" and state.deal:
        keep = min(state.rules.deal_keep, len(state.deal))
        actions += [shared(Keep, player, cards) for cards in combinations(sorted(state.deal), keep)]
    return actions


def commit_actions(state, player: int) -> list:
    """``[Commit(player, ids) for ids in commitments(the hand's cards)]``: the commitments of a sorted
    hand depend only on the symbols of its cards in order (``_commitment_positions``)."""
    hand = sorted(state.players[player].hand)
    cards = state.edition.cards
    actions = []
    for positions in _commitment_positions(tuple([cards[c].symbol for c in hand])):
        ids = (hand[positions[0]],) if len(positions) == 1 else tuple([hand[i] for i in positions])  # most are one card
        actions.append(shared(Commit, player, ids))
    return actions


@lru_cache(maxsize=4096)
def _commitment_positions(symbols: tuple) -> tuple:
    """``cards.commitments`` of a sorted hand whose cards have ``symbols``, as positions in the hand:
    its ids grow with their positions, so the sorted positions name the commitments in sorted order."""
    if not symbols:
        return ((),)  # an empty hand can only commit nothing
    by_symbol: dict = {}
    for position, symbol in enumerate(symbols):
        by_symbol.setdefault(symbol, []).append(position)
    options = []
    for positions in by_symbol.values():
        for size in range(1, len(positions) + 1):
            options.extend(combinations(positions, size))
    return tuple(sorted(options))


_NO_PARAMS = NoParams()


@lru_cache(maxsize=2048)
def _placements(player: int, cells: tuple) -> tuple:
    """Every PlaceTile on the legal cells, or the DiscardTile when there is none, listed once per cells."""
    return tuple(shared(PlaceTile, player, cell, rotation) for cell in cells for rotation in range(4)) or (
        DiscardTile(player),
    )


@cache
def shared(kind, *fields):
    """The action or parameters ``kind(*fields)``, built once: frozen objects are safe to share, and a
    random game lists thousands of the same few placements, passes and commitments, and of the same
    parameters of Naga effects (a move, a swap, a cell, a choice of sticks...) in the options of
    different positions. Unbounded: an edition has finitely many (seats, cells, cards, sticks)."""
    return made(kind, *fields)


_NAGA = itemgetter(3)  # a Stick's naga field


def naga_sources(state, player: int) -> list[str]:
    me = state.players[player]
    if any(map(_NAGA, me.sticks)):  # (id, colour, points, naga): is any stick a Naga? (in C: most often none)
        colours = {s[1] for s in me.sticks if s[3]}  # the colours of the Nagas
        sources = [c for c in COLOURS if c in colours]
    else:
        sources = []
    if me.virtual_nagas:
        sources.append("VIRTUAL")
    return sources


def naga_actions(state, player: int) -> list:
    hand = state.players[player].hand
    if not hand:
        return []
    actions = []
    for source in naga_sources(state, player):
        keys: dict = {}  # cards sharing an effect share what its options depend on
        for card_id in hand:
            effect = state.edition.cards[card_id].effect  # card_of
            if effect not in keys:
                after = position_for(state, player, source, effect)
                keys[effect] = (after, _option_parts(after, player, effect))
            after, parts = keys[effect]
            for part in parts:
                actions += _naga_uses(after, player, source, card_id, effect, part)
    return actions


_CACHE_LIMIT = 200_000  # entries of an edition's memo before it is emptied

# Effects whose options are those on temple (or the sticks of) seat 0, then those of seat 1: each
# half depends on its own seat only, so a change on one side leaves the other half's cache entry good.
_BY_SEAT = ("RETHROW2", "ROTATE", "MOVE_SWAP")


def _option_parts(state, player: int, effect: str) -> tuple:
    """The parts of ``effect_options(state, player, effect)``, in order, each as (the seats it covers,
    everything its options depend on)."""
    if effect not in _BY_SEAT:
        return (((0, 1), _options_key(state, player, effect)),)
    players = state.players
    if effect == "RETHROW2":
        return (((0,), players[0].sticks), ((1,), players[1].sticks))
    if effect == "ROTATE":
        return (((0,), tuple(players[0].temple.tile_cells())), ((1,), tuple(players[1].temple.tile_cells())))
    # MOVE_SWAP: moves and swaps depend only on which cells are occupied
    return (((0,), players[0].temple.occupancy), ((1,), players[1].temple.occupancy))


def _options_key(state, player: int, effect: str):
    """Everything ``effect_options(state, player, effect)`` depends on (effects not in ``_BY_SEAT``)."""
    players = state.players
    if effect in ("OPP_DISCARD", "STEAL"):
        return bool(players[1 - player].hand)
    if effect == "DISCARD2":
        return state.rules.discard2_sticks, players[1 - player].sticks
    if effect in ("PEEK", "PEEK2_SWAP"):
        return tuple(face_down_own(state, player))
    if effect == "TRAP":
        return players[1 - player].temple.trap_cell
    return ()  # PLUS2, DRAW2, SWAP: always the same options


def _part_options(state, player: int, effect: str, part) -> tuple:
    """The options of one part (``_option_parts``), kept on the edition under what they depend on: for
    the effects of ``_BY_SEAT``, one seat's temple or sticks whoever activates the card (the parameters
    name the seat, not the activator)."""
    key = ("options", effect, part) if effect in _BY_SEAT else ("options", player, effect, part)
    memo = state.edition.memo
    found = memo.get(key)
    if found is None:
        if len(memo) > _CACHE_LIMIT:
            memo.clear()
        found = memo[key] = tuple(effect_options(state, player, effect, part[0]))
    return found


def options(state, player: int, effect: str) -> tuple:
    """``effect_options(state, player, effect)``, through the cache of each of its parts."""
    parts = _option_parts(state, player, effect)
    if len(parts) == 1:
        return _part_options(state, player, effect, parts[0])
    return sum((_part_options(state, player, effect, part) for part in parts), ())


def _naga_uses(state, player: int, source: str, card_id: str, effect: str, part) -> tuple:
    """Every ``UseNaga(player, source, card_id, params)`` one part of the options allows, built once per
    part and kept on the edition."""
    key = ("uses", player, source, card_id, effect, part)
    memo = state.edition.memo
    found = memo.get(key)
    if found is None:
        set_player, set_source, set_card, set_params = SLOT_SETTERS[UseNaga]  # made(UseNaga, ...), inline: thousands
        uses = []
        for params in _part_options(state, player, effect, part):
            action = _new(UseNaga)
            (
                set_player(action, player),
                set_source(action, source),
                set_card(action, card_id),
                set_params(action, params),
            )
            uses.append(action)
        found = memo[key] = tuple(uses)
    return found


_new = object.__new__


def stick_choices(sticks, sizes) -> list[tuple]:
    """Choices of up to 2 sticks up to (colour, face): the lowest ids of each kind, sorted; for each size,
    the multisets of kinds in lexicographic order (``combinations_with_replacement``) that the sticks allow."""
    groups: dict = {}
    for s in sorted(sticks):  # by id: within one colour (a kind has one), the order of stick_order
        groups.setdefault((_COLOUR_RANK[s[1]], s[2], s[3]), []).append(s[0])  # (id, colour, points, naga)
    kinds = [groups[key] for key in sorted(groups)]  # the ids of each kind, lowest first
    choices = []
    for size in sizes:
        if size < 2:
            choices += [(ids[0],) for ids in kinds] if size else [()]
            continue
        if size > 2:
            raise ValueError(f"a choice of sticks takes at most 2 of them, not {size}")
        for i, ids in enumerate(kinds):
            if len(ids) > 1:
                choices.append((ids[0], ids[1]))
            first = ids[0]
            for later in kinds[i + 1 :]:  # a later kind: a later colour, or the same colour (then by id)
                other = later[0]
                choices.append((first, other) if first[0] != other[0] or first < other else (other, first))
    return choices


_COLOUR_RANK = {colour: rank for rank, colour in enumerate(COLOURS)}


def discardable_sticks(state, target: int) -> tuple:
    """The current sticks of ``target`` that ``DISCARD2`` may take: all of them, or only the brown ones under
    ``Rules(discard2_sticks="brown")`` (the reading of the Spanish rules' "descartar 2 palos marrones",
    nagaraja.md#readings). The card takes min(2, n) of these n sticks; with none it cannot be activated."""
    sticks = state.players[target].sticks
    if state.rules.discard2_sticks == "brown":
        return tuple(stick for stick in sticks if stick[1] == "BROWN")
    return sticks


def effect_options(state, player: int, effect: str, seats: tuple = (0, 1)) -> list:
    """Every legal parameter set of ``effect`` for ``player`` (nagaraja.md#effects), in a fixed order;
    for the effects of ``_BY_SEAT``, those on the temples or sticks of ``seats`` only."""
    opponent = 1 - player
    players = state.players
    if effect in ("PLUS2", "DRAW2"):
        return [_NO_PARAMS]
    if effect in ("OPP_DISCARD", "STEAL"):
        return [_NO_PARAMS] if players[opponent].hand else []
    if effect == "RETHROW2":
        return [shared(Sticks, t, ids) for t in seats for ids in stick_choices(players[t].sticks, (1, 2))]
    if effect == "DISCARD2":
        sticks = discardable_sticks(state, opponent)
        return (
            [shared(Sticks, opponent, ids) for ids in stick_choices(sticks, (min(2, len(sticks)),))] if sticks else []
        )
    if effect == "PEEK":
        return [shared(Spot, spot) for spot in face_down_own(state, player)]
    if effect == "SWAP":
        return [shared(SpotPair, t, a, b) for t in (0, 1) for a, b in combinations(RELIC_SPOTS, 2)]
    if effect == "PEEK2_SWAP":
        return [shared(SpotPair, player, a, b) for a, b in combinations(face_down_own(state, player), 2)]
    if effect == "ROTATE":
        return [shared(Rotate, t, cell, k) for t in seats for cell in players[t].temple.tile_cells() for k in (1, 2, 3)]
    if effect == "MOVE_SWAP":
        options: list = []
        for t in seats:
            temple = players[t].temple
            occupied = temple.occupied_cells()
            options += [
                shared(Move, t, origin, dest) for origin in occupied for dest in temple.move_destinations(origin)
            ]
            options += [shared(Swap, t, a, b) for a, b in combinations(occupied, 2)]
        return options
    if effect == "TRAP":
        trap = players[opponent].temple.trap_cell
        return [shared(Cell, cell) for cell in CELLS if cell != trap]
    raise AssertionError(f"unknown effect {effect}")


def effect_possible(state, player: int, effect: str) -> bool:
    """Whether ``effect`` has at least one legal parameter set (cheaper than listing them)."""
    opponent = 1 - player
    players = state.players
    if effect in ("PLUS2", "DRAW2", "SWAP", "TRAP"):
        return True
    if effect in ("OPP_DISCARD", "STEAL"):
        return bool(players[opponent].hand)
    if effect == "RETHROW2":
        return bool(players[0].sticks or players[1].sticks)
    if effect == "DISCARD2":
        return bool(discardable_sticks(state, opponent))
    if effect == "PEEK":
        return bool(face_down_own(state, player))
    if effect == "PEEK2_SWAP":
        return len(face_down_own(state, player)) >= 2
    if effect == "ROTATE":
        return any(p.temple.tile_cells() for p in players)
    if effect == "MOVE_SWAP":  # a swap needs two occupied cells, a move one cell with somewhere to go
        temples = [p.temple for p in players]
        return any(
            len(t.occupied_cells()) >= 2 or any(t.move_destinations(c) for c in t.occupied_cells()) for t in temples
        )
    raise AssertionError(f"unknown effect {effect}")


def amulet_usable(state, player: int, amulet_id: str) -> bool:
    effect = state.edition.amulets[amulet_id].effect
    if effect is None:
        return False
    if effect == "AM_PEEK":
        return bool(face_down_own(state, player))
    if state.phase != "CONFRONTATION" or state.pending_swap is not None:
        return False
    if effect == "AM_RETHROW1":
        return bool(state.players[player].sticks)
    return True


def amulet_actions(state, player: int) -> list:
    if not state.players[player].amulets:
        return []
    actions = []
    for amulet_id in sorted(set(state.players[player].amulets)):
        if not amulet_usable(state, player, amulet_id):
            continue
        effect = state.edition.amulets[amulet_id].effect
        if effect == "AM_PEEK":
            actions += [UseAmulet(player, amulet_id, Spot(s)) for s in face_down_own(state, player)]
        elif effect == "AM_RETHROW1":
            actions += [
                UseAmulet(player, amulet_id, Sticks(player, choice))
                for choice in stick_choices(state.players[player].sticks, (1,))
            ]
        else:
            actions.append(UseAmulet(player, amulet_id, NoParams()))
    return actions


def has_non_pass_action(state, player: int) -> bool:
    """Could ``player`` do anything but pass in this Confrontation (nagaraja.md#confrontation)?"""
    me = state.players[player]
    if me.amulets and any(amulet_usable(state, player, a) for a in me.amulets):
        return True
    if not me.hand:
        return False
    sources = naga_sources(state, player)
    if not sources:  # the common case: no Naga, so no card can be activated
        return False
    cards = state.edition.cards  # card_of(state, c) for each card of the hand
    effects = {cards[c].effect for c in me.hand}
    for source in sources:
        for effect in effects:
            if effect == "RETHROW2":  # read without the position once the Naga is spent (no copy)
                if rethrow_possible_after(state, source):
                    return True
            elif effect_possible(state, player, effect):
                return True
    return False


def rethrow_possible_after(state, source: str) -> bool:
    """``effect_possible(position_for(state, player, source, "RETHROW2"), player, "RETHROW2")``: a stick
    is left to throw again once the Naga is spent (a stick Naga leaves with exactly one stick)."""
    players = state.players
    return len(players[0].sticks) + len(players[1].sticks) > (source != "VIRTUAL")


def position_for(state, player: int, source: str, effect: str):
    """The position an effect's options are read from once the Naga is spent. Only RETHROW2 reads the
    activator's own sticks (the spent one is gone); every other effect reads the same options from ``state``."""
    return spend_naga(detached(state), player, source) if effect == "RETHROW2" else state
