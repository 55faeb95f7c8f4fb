"""Nagaraja's actions (nagaraja.md#programmers): their types, listing the legal ones, and applying one (nagaraja.md#effects to nagaraja.md#end).

:func:`apply_action` validates an action, applies its effect and checks the end of the game
(nagaraja.md#end); it returns the new position, in which chance may be pending. ``State.apply``
finishes the turn: it resolves chance and the automatic steps (:func:`next_step`).
Every illegal action raises :class:`~gamelib.core.IllegalMove` with a reason a student can read.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from operator import itemgetter
from functools import lru_cache
from itertools import combinations

from gamelib.core import IllegalMove
from gamelib.nagaraja.cards import COLOURS, STICK_LETTERS
from gamelib.nagaraja.chance import Task, throw_tasks
from gamelib.nagaraja.position import (
    PUBLIC, SEAT_NAMES, SOURCES, Result, Stick, amulet_text, card_of, changed_seat, detached, logged, face_down_own, face_up_relics, log,
    relic_of, replace, return_sticks, seat_name, set_player, stick_order, with_player,
)
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, PlacedTile, Temple

# =========================================================================== actions and params

@dataclass(frozen=True, slots=True)
class NoParams:
    """The parameters of an effect that needs none."""

    def __str__(self):
        return ""


@dataclass(frozen=True, slots=True)
class Sticks:
    target: int
    stick_ids: tuple

    def __str__(self):
        return f"{', '.join(self.stick_ids)} of {seat_name(self.target)}"


@dataclass(frozen=True, slots=True)
class Spot:
    spot: str

    def __str__(self):
        return self.spot


@dataclass(frozen=True, slots=True)
class SpotPair:
    temple: int
    a: str
    b: str

    def __str__(self):
        return f"{self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Rotate:
    temple: int
    cell: tuple
    k: int

    def __str__(self):
        return f"{self.cell} in {seat_name(self.temple)}'s temple by {self.k} quarter-turn(s)"


@dataclass(frozen=True, slots=True)
class Move:
    temple: int
    origin: tuple
    destination: tuple

    def __str__(self):
        return f"move {self.origin} to {self.destination} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Swap:
    temple: int
    a: tuple
    b: tuple

    def __str__(self):
        return f"swap {self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True, slots=True)
class Cell:
    cell: tuple

    def __str__(self):
        return f"cell {self.cell} of the opponent's temple"


@dataclass(frozen=True, slots=True)
class Commit:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} commits {' + '.join(self.cards) or 'nothing'}"


@dataclass(frozen=True, slots=True)
class UseNaga:
    player: int
    source: str
    card: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses a {self.source} Naga on {self.card}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True, slots=True)
class UseAmulet:
    player: int
    amulet: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses amulet {self.amulet}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True, slots=True)
class SwapChoice:
    player: int
    swap: bool

    def __str__(self):
        return f"{seat_name(self.player)} {'swaps' if self.swap else 'does not swap'} the peeked relics"


@dataclass(frozen=True, slots=True)
class Pass:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} passes"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    player: int
    cell: tuple
    rotation: int

    def __str__(self):
        return f"{seat_name(self.player)} places the room at {self.cell}, rotation {self.rotation}"


@dataclass(frozen=True, slots=True)
class DiscardTile:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} discards the room (the temple is full)"


@dataclass(frozen=True, slots=True)
class Keep:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} keeps {' + '.join(self.cards) or 'nothing'}"


ACTION_TYPES = (Commit, UseNaga, UseAmulet, SwapChoice, Pass, PlaceTile, DiscardTile, Keep)
PARAM_TYPES = (NoParams, Sticks, Spot, SpotPair, Rotate, Move, Swap, Cell)

# Actions and their parameters keep their fields in slots: no dict beside each object (a random game's
# listings build and cache thousands, which the collector walks), and the fastest attribute reads.
# Listings build them with ``_made``, which sets each slot through its descriptor, without ``__init__``.
_SLOT_SETTERS = {kind: tuple(getattr(kind, name).__set__ for name in kind.__dataclass_fields__)
                 for kind in ACTION_TYPES + PARAM_TYPES}


def _sealed(kind) -> None:
    """Make ``kind``'s fields read-only even to ``object.__setattr__``, which passes ``frozen``.

    Listings share their actions between positions and games (``_shared``, ``_placements``,
    ``_naga_uses``): one changed through ``object.__setattr__`` (a PlaceTile moved to (9, 9)) once made
    unrelated games list it and raise IndexError. Each field becomes a property without a setter that
    reads the slot, and ``__init__`` and ``__setstate__`` (copies, pickles) fill the slots through the
    setters kept here, so an action can only be made, never changed, and no cache serves a changed one.
    """
    names = tuple(kind.__dataclass_fields__)
    if not names:
        return
    setters = _SLOT_SETTERS[kind]
    defaults = {field.name: field.default for field in dataclasses.fields(kind)
                if field.default is not dataclasses.MISSING}
    arguments = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in names)
    body = "".join(f"    _set_{index}(self, {name})\n" for index, name in enumerate(names))
    namespace = {f"_set_{index}": setter for index, setter in enumerate(setters)}
    namespace.update({f"_default_{name}": value for name, value in defaults.items()})
    exec(f"def __init__(self, {arguments}):\n{body}", namespace)  # noqa: S102 - field names only, as dataclasses do
    initialise = namespace["__init__"]
    initialise.__qualname__ = f"{kind.__name__}.__init__"

    def __setstate__(self, state):
        for setter, value in zip(setters, state):
            setter(self, value)

    kind.__init__, kind.__setstate__ = initialise, __setstate__
    for name in names:
        setattr(kind, name, property(kind.__dict__[name].__get__, doc=f"the action's {name} (read-only)"))


for _kind in ACTION_TYPES + PARAM_TYPES:
    _sealed(_kind)

# =========================================================================== the shape of an action

# What each field of an action or a parameter set holds. An action is checked against this before
# anything reads it, so a float, a bool or a list where a seat number or a card id belongs is refused
# with a reason (IllegalMove) instead of raising TypeError or being applied and saved.
_SEAT, _TEXT, _TEXTS, _CELL, _WHOLE, _SWITCH, _PARAMS = "seat", "text", "texts", "cell", "whole", "switch", "params"
FIELD_KINDS = {
    Commit: {"player": _SEAT, "cards": _TEXTS}, UseNaga: {"player": _SEAT, "source": _TEXT, "card": _TEXT, "params": _PARAMS},
    UseAmulet: {"player": _SEAT, "amulet": _TEXT, "params": _PARAMS}, SwapChoice: {"player": _SEAT, "swap": _SWITCH},
    Pass: {"player": _SEAT}, PlaceTile: {"player": _SEAT, "cell": _CELL, "rotation": _WHOLE},
    DiscardTile: {"player": _SEAT}, Keep: {"player": _SEAT, "cards": _TEXTS},
    NoParams: {}, Sticks: {"target": _SEAT, "stick_ids": _TEXTS}, Spot: {"spot": _TEXT},
    SpotPair: {"temple": _SEAT, "a": _TEXT, "b": _TEXT}, Rotate: {"temple": _SEAT, "cell": _CELL, "k": _WHOLE},
    Move: {"temple": _SEAT, "origin": _CELL, "destination": _CELL}, Swap: {"temple": _SEAT, "a": _CELL, "b": _CELL},
    Cell: {"cell": _CELL},
}
_MAX_TEXTS = 64  # more card or stick ids than any action names


def _is_whole(value) -> bool:
    return type(value) is int


def _field_value(kind: str, value, where: str):
    """``value`` in canonical form (lists become tuples), or IllegalMove saying what belongs there."""
    if kind == _SEAT:
        if not _is_whole(value) or value not in (0, 1):
            raise IllegalMove(f"{where} must be a seat number, 0 or 1 (a whole number), not {value!r}")
        return value
    if kind == _TEXT:
        if type(value) is not str:
            raise IllegalMove(f"{where} must be a text id such as a card, stick, spot or source name, not {value!r}")
        return value
    if kind == _TEXTS:
        if not isinstance(value, (tuple, list)) or len(value) > _MAX_TEXTS or any(type(v) is not str for v in value):
            raise IllegalMove(f"{where} must be a tuple of text ids, not {value!r}")
        return tuple(value)
    if kind == _CELL:
        if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(_is_whole(v) for v in value):
            raise IllegalMove(f"{where} must be a cell (row, column) of two whole numbers, not {value!r}")
        return tuple(value)
    if kind == _WHOLE:
        if not _is_whole(value):
            raise IllegalMove(f"{where} must be a whole number, not {value!r}")
        return value
    if kind == _SWITCH:
        if type(value) is not bool:
            raise IllegalMove(f"{where} must be True or False, not {value!r}")
        return value
    if not isinstance(value, PARAM_TYPES):
        raise IllegalMove(f"{where} must be the parameters of the effect ({', '.join(t.__name__ for t in PARAM_TYPES)}), "
                          f"not {value!r}")
    return canonical(value)


def checked_action(action):
    """A player's action in canonical form, or IllegalMove saying why it is none."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalMove(f"{action!r} is not a Nagaraja action", action)
    try:
        return canonical(action)
    except IllegalMove as error:
        error.action = action
        raise


def canonical(action):
    """``action`` checked field by field and rebuilt in canonical form (tuples, exact types);
    IllegalMove with a reason when it is not a well-formed Nagaraja action or parameter set."""
    kinds = FIELD_KINDS.get(type(action))
    if kinds is None:
        raise IllegalMove(f"{action!r} is not a Nagaraja action", action)
    changed = None
    for field, kind in kinds.items():
        value = getattr(action, field, None)
        if kind in _FAST_OK and type(value) is _FAST_OK[kind] and (kind != _SEAT or value in (0, 1)):
            continue  # the common case, checked without building a reason
        fixed = _field_value(kind, value, f"{type(action).__name__}.{field}")
        if fixed is not value:
            changed = {**(changed or {}), field: fixed}
    if changed is None:
        return action
    return type(action)(**{**{f: getattr(action, f) for f in kinds}, **changed})


_FAST_OK = {_SEAT: int, _TEXT: str, _WHOLE: int, _SWITCH: bool}


# =========================================================================== results and temples

RELIC_INDEX = {spot: index for index, spot in enumerate(RELIC_SPOTS)}  # a relic spot's place in RELIC_SPOTS (and a temple's relics)

def update_temple(state, owner: int, temple: Temple):
    """Install a changed temple, then recompute faces, collect amulets and log (nagaraja.md#paths)."""
    before = state.players[owner].temple
    temple, collected = temple.collect_amulets()
    entries = []  # the log lines, in order, added with every other change in one copy of the state
    for amulet in collected:
        entries.append((PUBLIC, f"{SEAT_NAMES[owner]} collects an amulet."))
        entries.append((owner, f"The amulet is {amulet_text(state, amulet)}."))
    up_before, up_now = before.connected_spots(), temple.connected_spots()
    relics = temple.relics
    if up_now != up_before or before.relics != relics:  # else no relic turns
        turning = up_now ^ up_before  # spots (entrances too) that turn, and face-up spots whose relic changed
        if before.relics != relics:
            turning |= {spot for spot in up_now if spot in RELIC_INDEX and before.relics[RELIC_INDEX[spot]] != relics[RELIC_INDEX[spot]]}
        for spot in sorted([spot for spot in turning if spot in RELIC_INDEX], key=RELIC_INDEX.__getitem__):
            if spot in up_now:  # in RELIC_SPOTS order, as the log always lists them
                entries.append((PUBLIC, f"{SEAT_NAMES[owner]}'s relic at {spot} is face up: "
                                       f"{relic_of(state, relics[RELIC_INDEX[spot]])}."))
            else:
                entries.append((PUBLIC, f"{SEAT_NAMES[owner]}'s relic at {spot} turns face down."))
    seen = {(owner, relics[RELIC_INDEX[spot]]) for spot in up_now if spot in RELIC_INDEX} if up_now else set()
    players = list(state.players)
    players[owner] = changed_seat(state, players[owner], {"temple": temple, "amulets": players[owner].amulets + tuple(collected)})
    for p in (0, 1):  # both players see a face-up relic, and remember it if it turns face down again
        if not seen <= players[p].knowledge:
            players[p] = changed_seat(state, players[p], {"knowledge": players[p].knowledge | seen})
    return replace(state, players=tuple(players), log=logged(state, tuple(entries)))



def describe_result(state) -> str:
    result = state.result
    if result is None:
        return "the game is not over"
    reasons = {
        "CURSED_LOSS": f"{seat_name(1 - result.winner)} has all cursed relics face up and loses",
        "REACHED_25": f"{seat_name(result.winner)} reached {state.rules.win_score} VP",
        "NINTH_TILE": "a temple is complete with its ninth room",
        "ROOMS_EXHAUSTED": "the room pile is empty",
    }
    return (f"{seat_name(result.winner)} wins ({reasons[result.reason]}); "
            f"scores {result.scores[0]} to {result.scores[1]}")


# =========================================================================== automatic steps

def next_step(state):
    """The automatic step after all chance is done, or None when a player must decide."""
    phase = state.phase
    if phase == "SETUP":
        return _start_round(state)
    if phase == "CONFRONTATION":
        return _confrontation_step(state)
    if phase == "NEW_DEAL":
        if state.deal is None:
            return _start_round(state)
        if not state.deal:
            return log(state, f"{SEAT_NAMES[state.guide]} drew no card to share.", deal=None,
                       queue=state.queue + (_ROOM,))  # and _reveal_room, in the same copy
    return None


def _start_round(state):
    players = tuple([p if p.committed is None else changed_seat(state, p, {"committed": None}) for p in state.players])
    return log(state, f"Round {state.round + 1}: {SEAT_NAMES[state.guide]} is the guide and commits first.",
               players=players, phase="CALL_OF_FATE", to_act=state.guide, round=state.round + 1, pass_streak=0)


def _reveal_room(state):
    return replace(state, queue=state.queue + (_ROOM,))


_ROOM = Task("ROOM")


# =========================================================================== legal actions


def legal_actions(state) -> list:
    player, phase = state.to_act, state.phase
    actions: list = []
    if phase == "CALL_OF_FATE":
        actions = _commit_actions(state, player)
    elif phase == "CONFRONTATION":
        if state.pending_swap is None:
            actions = _naga_actions(state, player)
    if state.players[player].amulets:  # else _amulet_actions lists none
        actions += _amulet_actions(state, player)
    if phase == "CONFRONTATION":
        if state.pending_swap is not None:
            actions += [_shared(SwapChoice, player, False), _shared(SwapChoice, player, True)]
        else:
            actions.append(_shared(Pass, player))
    elif phase == "EXPLORATION":
        actions += _placements(player, state.players[player].temple._legal_cells)  # legal_cells() as its tuple
    elif phase == "NEW_DEAL" and state.deal:
        keep = min(state.rules.deal_keep, len(state.deal))
        actions += [_shared(Keep, player, cards) for cards in combinations(sorted(state.deal), keep)]
    return actions


def _commit_actions(state, player: int) -> list:
    """``[Commit(player, ids) for ids in commitments(the hand's cards)]``: the commitments of a sorted
    hand depend only on the symbols of its cards in order (``_commitment_positions``)."""
    hand = sorted(state.players[player].hand)
    cards = state.edition.cards
    known = _COMMITS[player]
    actions = []
    for positions in _commitment_positions(tuple([cards[c].symbol for c in hand])):
        ids = (hand[positions[0]],) if len(positions) == 1 else tuple([hand[i] for i in positions])  # most are one card
        action = known.get(ids)
        if action is None:
            if len(known) >= _CACHE_LIMIT:
                known.clear()
            action = known[ids] = _made(Commit, player, ids)
        actions.append(action)
    return actions


_COMMITS: tuple = ({}, {})  # per seat: the committed card ids -> one Commit, reused by every listing


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


_SHARED: dict = {}  # (action or parameter type, fields) -> one frozen object, reused by every listing
_NO_PARAMS = NoParams()
_PLACEMENTS: dict = {}  # (seat, legal cells) -> the placements


def _placements(player: int, cells) -> list:
    """Every PlaceTile on the legal cells, or the DiscardTile when there is none, listed once per cells."""
    key = (player, cells if type(cells) is tuple else tuple(cells))
    found = _PLACEMENTS.get(key)
    if found is None:
        if len(_PLACEMENTS) >= _CACHE_LIMIT:
            _PLACEMENTS.clear()
        placements = tuple(_shared(PlaceTile, player, cell, rotation) for cell in cells for rotation in range(4))
        found = _PLACEMENTS[key] = placements or (DiscardTile(player),)
    return list(found)


def _shared(kind, *fields):
    """The action or parameters ``kind(*fields)``, built once: frozen objects are safe to share, and a
    random game lists thousands of the same few placements and passes, and of the same parameters of
    Naga effects (a move, a swap, a cell, a choice of sticks...) in the options of different positions,
    so one UseNaga per (seat, source, card, parameters) serves every listing that offers it (``_naga_uses``)."""
    key = (kind, fields)
    action = _SHARED.get(key)
    if action is None:
        if len(_SHARED) >= _CACHE_LIMIT:
            _SHARED.clear()
        action = _SHARED[key] = _made(kind, *fields)
    return action


def _made(kind, *fields):
    """``kind(*fields)`` for an action or parameter type given all its fields, without ``__init__`` (see
    ``_SLOT_SETTERS``): listings and their options build thousands."""
    action = _new(kind)
    for set_field, value in zip(_SLOT_SETTERS[kind], fields):
        set_field(action, value)
    return action


_new = object.__new__


_NAGA, _STICK_ID = itemgetter(3), itemgetter(0)  # a Stick's naga and id fields


def _naga_sources(state, player: int) -> list[str]:
    me = state.players[player]
    if any(map(_NAGA, me.sticks)):  # (id, colour, points, naga): is any stick a Naga? (in C: most often none)
        colours = {s[1] for s in me.sticks if s[3]}  # the colours of the Nagas
        sources = [c for c in COLOURS if c in colours]
    else:
        sources = []
    if me.virtual_nagas:
        sources.append("VIRTUAL")
    return sources


def _spend_naga(state, player: int, source: str):
    """Discard the lowest-id Naga stick of ``source`` (or spend a virtual Naga)."""
    me = state.players[player]
    if source == "VIRTUAL":
        return set_player(state, player, virtual_nagas=me.virtual_nagas - 1)
    stick = min([s[0] for s in me.sticks if s[3] and s[1] == source])  # (id, colour, points, naga)
    return return_sticks(state, player, [stick])


def _naga_actions(state, player: int) -> list:
    hand = state.players[player].hand
    if not hand:
        return []
    actions = []
    for source in _naga_sources(state, player):
        keys: dict = {}  # cards sharing an effect share what its options depend on
        for card_id in hand:
            effect = state.edition.cards[card_id].effect  # card_of
            if effect not in keys:
                after = _position_for(state, player, source, effect)
                keys[effect] = (after, _option_parts(after, player, effect))
            after, parts = keys[effect]
            for part in parts:
                actions += _naga_uses(after, player, source, card_id, effect, part)
    return actions


# Listing a Confrontation builds hundreds of frozen actions (72 swaps per SWAP card alone). Their
# options depend on a few facts only (_option_parts), so equal facts give the very same objects.
_OPTIONS: dict = {}
_USES: dict = {}
_USES_BY_PARAMS: dict = {}  # (seat, source, card, id of the parameters) -> the one UseNaga
_CACHE_LIMIT = 200_000

# Effects whose options are those on temple (or the sticks of) seat 0, then those of seat 1: each
# half depends on its own seat only, so a change on one side leaves the other half's cache entry good.
_BY_SEAT = ("RETHROW2", "ROTATE", "MOVE_SWAP")


def _option_parts(state, player: int, effect: str) -> tuple:
    """The parts of ``_effect_options(state, player, effect)``, in order, each as (the seats it covers,
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
    """Everything ``_effect_options(state, player, effect)`` depends on (effects not in ``_BY_SEAT``)."""
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
    """The options of one part (``_option_parts``) through a cache keyed by what they depend on: for the
    effects of ``_BY_SEAT``, one seat's temple or sticks whoever activates the card (the parameters
    name the seat, not the activator)."""
    key = (effect, part) if effect in _BY_SEAT else (player, effect, part)
    found = _OPTIONS.get(key)
    if found is None:
        if len(_OPTIONS) > _CACHE_LIMIT:
            _OPTIONS.clear()
        found = _OPTIONS[key] = tuple(_effect_options(state, player, effect, part[0]))
    return found


def _options(state, player: int, effect: str) -> tuple:
    """``_effect_options(state, player, effect)``, through the cache of each of its parts."""
    parts = _option_parts(state, player, effect)
    if len(parts) == 1:
        return _part_options(state, player, effect, parts[0])
    return sum((_part_options(state, player, effect, part) for part in parts), ())


def _naga_uses(state, player: int, source: str, card_id: str, effect: str, part) -> tuple:
    """Every ``UseNaga(player, source, card_id, params)`` one part of the options allows, built once per part."""
    cache_key = (player, source, card_id, effect, part)
    found = _USES.get(cache_key)
    if found is None:
        if len(_USES) > _CACHE_LIMIT:
            _USES.clear()
        set_player, set_source, set_card, set_params = _SLOT_SETTERS[UseNaga]  # _made(UseNaga, ...), inline: thousands
        uses, known = [], _USES_BY_PARAMS
        if len(known) > _CACHE_LIMIT:
            known.clear()
        for params in _part_options(state, player, effect, part):
            # the params are shared (_shared): found by identity; the UseNaga keeps its params alive,
            # so the id in its key names them as long as the entry lives
            key = (player, source, card_id, id(params))
            action = known.get(key)
            if action is None:
                action = known[key] = _new(UseNaga)
                set_player(action, player), set_source(action, source), set_card(action, card_id), set_params(action, params)
            uses.append(action)
        found = _USES[cache_key] = tuple(uses)
    return found


def _stick_choices(sticks, sizes) -> list[tuple]:
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
            for later in kinds[i + 1:]:  # a later kind: a later colour, or the same colour (then by id)
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


def _effect_options(state, player: int, effect: str, seats: tuple = (0, 1)) -> list:
    """Every legal parameter set of ``effect`` for ``player`` (nagaraja.md#effects), in a fixed order;
    for the effects of ``_BY_SEAT``, those on the temples or sticks of ``seats`` only."""
    opponent = 1 - player
    players = state.players
    if effect in ("PLUS2", "DRAW2"):
        return [_NO_PARAMS]
    if effect in ("OPP_DISCARD", "STEAL"):
        return [_NO_PARAMS] if players[opponent].hand else []
    if effect == "RETHROW2":
        return [_shared(Sticks, t, ids) for t in seats for ids in _stick_choices(players[t].sticks, (1, 2))]
    if effect == "DISCARD2":
        sticks = discardable_sticks(state, opponent)
        return [_shared(Sticks, opponent, ids) for ids in _stick_choices(sticks, (min(2, len(sticks)),))] if sticks else []
    if effect == "PEEK":
        return [_shared(Spot, spot) for spot in face_down_own(state, player)]
    if effect == "SWAP":
        return [_shared(SpotPair, t, a, b) for t in (0, 1) for a, b in combinations(RELIC_SPOTS, 2)]
    if effect == "PEEK2_SWAP":
        return [_shared(SpotPair, player, a, b) for a, b in combinations(face_down_own(state, player), 2)]
    if effect == "ROTATE":
        return [_shared(Rotate, t, cell, k) for t in seats for cell in players[t].temple.tile_cells()
                for k in (1, 2, 3)]
    if effect == "MOVE_SWAP":
        options: list = []
        for t in seats:
            temple = players[t].temple
            occupied = temple.occupied_cells()
            options += [_shared(Move, t, origin, dest) for origin in occupied
                        for dest in temple.move_destinations(origin)]
            options += [_shared(Swap, t, a, b) for a, b in combinations(occupied, 2)]
        return options
    if effect == "TRAP":
        trap = players[opponent].temple.trap_cell
        return [_shared(Cell, cell) for cell in CELLS if cell != trap]
    raise AssertionError(f"unknown effect {effect}")


def _effect_possible(state, player: int, effect: str) -> bool:
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
        return any(len(t.occupied_cells()) >= 2 or any(t.move_destinations(c) for c in t.occupied_cells()) for t in temples)
    raise AssertionError(f"unknown effect {effect}")


def _amulet_usable(state, player: int, amulet_id: str) -> bool:
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


def _amulet_actions(state, player: int) -> list:
    if not state.players[player].amulets:
        return []
    actions = []
    for amulet_id in sorted(set(state.players[player].amulets)):
        if not _amulet_usable(state, player, amulet_id):
            continue
        effect = state.edition.amulets[amulet_id].effect
        if effect == "AM_PEEK":
            actions += [UseAmulet(player, amulet_id, Spot(s)) for s in face_down_own(state, player)]
        elif effect == "AM_RETHROW1":
            actions += [UseAmulet(player, amulet_id, Sticks(player, choice))
                        for choice in _stick_choices(state.players[player].sticks, (1,))]
        else:
            actions.append(UseAmulet(player, amulet_id, NoParams()))
    return actions


def has_non_pass_action(state, player: int) -> bool:
    """Could ``player`` do anything but pass in this Confrontation (nagaraja.md#confrontation)?"""
    me = state.players[player]
    if me.amulets and any(_amulet_usable(state, player, a) for a in me.amulets):
        return True
    if not me.hand:
        return False
    sources = _naga_sources(state, player)
    if not sources:  # the common case: no Naga, so no card can be activated
        return False
    cards = state.edition.cards  # card_of(state, c) for each card of the hand
    effects = {cards[c].effect for c in me.hand}
    for source in sources:
        for effect in effects:
            if effect == "RETHROW2":  # read without the position once the Naga is spent (no copy)
                if _rethrow_possible_after(state, source):
                    return True
            elif _effect_possible(state, player, effect):
                return True
    return False


def _rethrow_possible_after(state, source: str) -> bool:
    """``_effect_possible(_position_for(state, player, source, "RETHROW2"), player, "RETHROW2")``: a stick
    is left to throw again once the Naga is spent (a stick Naga leaves with exactly one stick)."""
    players = state.players
    return len(players[0].sticks) + len(players[1].sticks) > (source != "VIRTUAL")


def _position_for(state, player: int, source: str, effect: str):
    """The position an effect's options are read from once the Naga is spent. Only RETHROW2 reads the
    activator's own sticks (the spent one is gone); every other effect reads the same options from ``state``."""
    return _spend_naga(detached(state), player, source) if effect == "RETHROW2" else state


# =========================================================================== applying actions


def apply_action(state, action, listed: bool = False, checked: bool = False):
    """The position right after ``action`` (validated; chance and automatic steps not yet run).

    ``listed`` says the action is one of ``legal_actions(state)`` itself, so a Naga's parameters
    need not be checked against all options again, nor a commitment against the hand (the tests check
    both paths agree); ``checked`` says
    ``State.apply`` has already put it in canonical form (:func:`checked_action`).
    """
    if not (listed or checked):
        action = checked_action(action)
    player = action.player
    if player != state.to_act:
        raise IllegalMove(f"it is {seat_name(state.to_act)}'s turn, not {seat_name(player) if player in (0, 1) else player!r}'s",
                          action)
    listed_handler, handler, ends = _DISPATCH[type(action)]
    try:
        new_state = listed_handler(state, action) if listed else handler(state, action)
    except IllegalMove as error:
        if error.action is None:
            error.action = action
        raise
    return _check_end(new_state, player, placed=type(action) is PlaceTile) if ends else new_state


def _require_phase(state, action, *phases: str) -> None:
    if state.phase not in phases:
        what = type(action).__name__
        raise IllegalMove(f"{what} is not possible now: the game is in {state.phase}, "
                          f"and {what} belongs to {' or '.join(phases)}")


def _do_commit(state, action: Commit):
    _require_phase(state, action, "CALL_OF_FATE")
    player, me = action.player, state.players[action.player]
    cards = tuple(action.cards) if isinstance(action.cards, (tuple, list)) else None
    if cards is None:
        raise IllegalMove("Commit needs a tuple of card ids")
    missing = [c for c in cards if c not in me.hand]
    if missing:
        raise IllegalMove(f"{missing[0]} is not in {seat_name(player)}'s hand")
    if len(set(cards)) != len(cards):
        raise IllegalMove("a card can be committed only once")
    if not cards and me.hand:
        raise IllegalMove("commit at least one card: only an empty hand may commit nothing")
    symbols = {card_of(state, c).symbol for c in cards}
    if len(symbols) > 1:
        raise IllegalMove(f"committed cards must share one symbol, these have {', '.join(sorted(symbols))}")
    if list(cards) != sorted(cards):
        raise IllegalMove("list the committed cards in sorted order")
    return _commit(state, player, cards)


def _do_listed_commit(state, action: Commit):
    """A Commit taken from the legal actions of ``state``: in the hand, one symbol, sorted already."""
    return _commit(state, action.player, action.cards)


def _commit(state, player: int, cards: tuple):
    me = state.players[player]
    hand = list(me.hand)
    for card_id in cards:
        hand.remove(card_id)
    entries = ((PUBLIC, f"{SEAT_NAMES[player]} commits {len(cards)} card(s) face down."),
               (player, f"You commit {', '.join(cards) or 'nothing'}."))
    # remove_from_hand, set_player and both log lines in one copy of the state
    seat = {"hand": tuple(hand), "public_hand": me.public_hand - set(cards), "committed": cards}
    if player == state.guide:
        return with_player(state, player, seat, log=logged(state, entries), to_act=1 - player)
    return _reveal_commitments(with_player(state, player, seat, log=logged(state, entries)))


def _reveal_commitments(state):
    """Both commitments turn up; sticks are taken, guide first, and thrown (nagaraja.md#call-of-fate)."""
    available = _by_colour(state.supply)
    queue, texts, players = [], [], list(state.players)  # every change goes into one copy of the state
    new_task = tuple.__new__  # Task(...) without the Python-level constructor
    edition = state.edition
    for player in (state.guide, 1 - state.guide):
        shown, needs = _commitment_needs(edition, state.players[player].committed)
        texts.append(f"{SEAT_NAMES[player]} reveals {shown}.")
        taken = []
        for letter, need in needs:
            pile = available[letter]
            if need > len(pile):
                texts.append(f"Only {len(pile)} {STICK_LETTERS[letter].lower()} stick(s) are left "
                             f"for {SEAT_NAMES[player]}: the missing ones are not thrown.")
            if pile:  # throw_tasks(player, taken): one task per colour, the ids in order (the pile is sorted)
                queue.append(new_task(Task, ("STICKS", player, " ".join(pile[:need]))))
            taken += pile[:need]
            available[letter] = pile[need:]
        sticks = tuple([_UNTHROWN.get(s) or _unthrown(s) for s in taken])  # Stick(s, colour)
        players[player] = changed_seat(state, players[player], {"sticks": sticks})
    supply = tuple(sorted(available["B"] + available["W"] + available["G"]))
    return log(state, *texts, players=tuple(players), supply=supply, queue=state.queue + tuple(queue),
               phase="CONFRONTATION", to_act=state.guide, pass_streak=0)


_UNTHROWN: dict = {}  # stick id -> Stick(id, colour): a stick not yet thrown is the same tuple every round


def _unthrown(stick_id: str) -> Stick:
    stick = _UNTHROWN[stick_id] = Stick(stick_id, STICK_LETTERS[stick_id[0]])
    return stick


_NEEDS: dict = {}  # (edition id, committed cards) -> (the edition, the cards named, (letter, sticks wanted) per colour)


def _commitment_needs(edition, committed: tuple) -> tuple:
    """How a commitment is named in the log and how many sticks of each colour it takes, in B, W, G order
    (commitments recur: one card of 48, most often)."""
    found = _NEEDS.get((id(edition), committed))
    if found is None or found[0] is not edition:
        if len(_NEEDS) >= _CACHE_LIMIT:
            _NEEDS.clear()
        wanted = "".join([edition.cards[c].sticks for c in committed])
        shown = ", ".join([edition.card_texts[c] for c in committed]) or "no card"
        needs = tuple((letter, wanted.count(letter)) for letter in "BWG" if wanted.count(letter))
        found = _NEEDS[(id(edition), committed)] = (edition, shown, needs)
    return found[1], found[2]


_SUPPLY_SPLITS: dict = {}


def _by_colour(supply: tuple) -> dict:
    """The supply's stick ids of each colour letter, sorted: a fresh dict of lists nobody edits (every
    Call of Fate starts from the same few supplies, most often the full one)."""
    found = _SUPPLY_SPLITS.get(supply)
    if found is None:
        if len(_SUPPLY_SPLITS) >= _CACHE_LIMIT:
            _SUPPLY_SPLITS.clear()
        found = _SUPPLY_SPLITS[supply] = {letter: sorted(s for s in supply if s[0] == letter) for letter in "BWG"}
    return dict(found)


def _check_naga(state, action: UseNaga):
    """Validate a UseNaga; return the state after the Naga is spent and the action with its pair in listed order."""
    _require_phase(state, action, "CONFRONTATION")
    if state.pending_swap is not None:
        raise IllegalMove("first decide whether to swap the two peeked relics")
    player, me = action.player, state.players[action.player]
    if action.source not in _naga_sources(state, player):
        raise IllegalMove(f"{seat_name(player)} has no {action.source} Naga to use"
                          if action.source in SOURCES else f"{action.source!r} is not a Naga source")
    if action.card not in me.hand:
        raise IllegalMove(f"{action.card} is not in {seat_name(player)}'s hand: only a card still in hand can be activated")
    after = _spend_naga(state, player, action.source)
    effect = card_of(state, action.card).effect
    if not _effect_possible(after, player, effect):
        raise IllegalMove(f"{effect} cannot be activated now: {_why_impossible(effect, after.rules)}")
    options = _options(after, player, effect)
    params = action.params
    if params not in options and _other_order(params) in options:
        params = _other_order(params)  # a swap is the same swap whichever of the two comes first
    if params not in options:
        raise IllegalMove(_bad_params_reason(after, player, effect, action.params))
    return after, replace(action, params=params)


def _other_order(params):
    """The same pair named the other way round (``SpotPair``, ``Swap``), else ``None``."""
    if isinstance(params, SpotPair):
        return SpotPair(params.temple, params.b, params.a)
    if isinstance(params, Swap):
        return Swap(params.temple, params.b, params.a)
    return None


def _why_impossible(effect: str, rules) -> str:
    if effect == "DISCARD2" and rules.discard2_sticks == "brown":
        return "the opponent has no brown stick (under discard2_sticks=\"brown\" the card takes brown sticks only)"
    return {
        "OPP_DISCARD": "the opponent has no card in hand", "STEAL": "the opponent has no card in hand",
        "RETHROW2": "nobody has a stick to throw again", "DISCARD2": "the opponent has no stick",
        "PEEK": "no relic of your temple is face down", "PEEK2_SWAP": "fewer than 2 relics of your temple are face down",
        "ROTATE": "no temple has a room tile", "MOVE_SWAP": "no room can be moved or swapped",
    }.get(effect, "it has no legal target")


def _bad_params_reason(state, player: int, effect: str, params) -> str:
    expected = {
        "PLUS2": "NoParams()", "DRAW2": "NoParams()", "OPP_DISCARD": "NoParams()", "STEAL": "NoParams()",
        "RETHROW2": "Sticks(target, 1 or 2 current stick ids of that player)",
        "DISCARD2": (f"Sticks({1 - player}, min(2, n) of the opponent's n current brown stick ids)"
                     if state.rules.discard2_sticks == "brown" else
                     f"Sticks({1 - player}, min(2, n) of the opponent's current stick ids)"),
        "PEEK": "Spot(a face-down relic spot of your temple)", "SWAP": "SpotPair(temple, a, b) with two different relic spots",
        "PEEK2_SWAP": f"SpotPair({player}, a, b) with two face-down spots of your temple",
        "ROTATE": "Rotate(temple, a cell holding a room tile, k = 1, 2 or 3)",
        "MOVE_SWAP": "Move(temple, occupied cell, empty legal cell) or Swap(temple, a, b) of two occupied cells",
        "TRAP": "Cell(a cell of the opponent's temple that does not hold the trap)",
    }[effect]
    if isinstance(params, Sticks) and effect in ("RETHROW2", "DISCARD2"):
        held = {s.id for s in state.players[params.target].sticks} if params.target in (0, 1) else set()
        unknown = [s for s in params.stick_ids if s not in held]
        if unknown:
            return f"{effect}: {seat_name(params.target)} has no current stick {unknown[0]}"
        if list(params.stick_ids) != sorted(params.stick_ids, key=stick_order):
            return f"{effect}: list the sticks in order (sticks of one colour and face are interchangeable: use the lowest ids)"
    if isinstance(params, (Spot, SpotPair)) and effect in ("PEEK", "PEEK2_SWAP"):
        spots = [params.spot] if isinstance(params, Spot) else [params.a, params.b]
        for spot in spots:
            if spot in RELIC_SPOTS and spot not in face_down_own(state, player):
                return f"{effect}: the relic at {spot} is already face up"
    return f"{effect} needs {expected}; {params!r} is not a legal choice here"


def _do_use_naga(state, action: UseNaga):
    after, action = _check_naga(state, action)
    if after.moves and after.moves[-1] is not action:  # record the pair in listed order: either order saves alike
        after = replace(after, moves=after.moves[:-1] + (action,))
    return _use_naga(after, action)


def _do_listed_naga(state, action: UseNaga):
    """A UseNaga taken from the legal actions of ``state``: legal and in listed order already."""
    return _use_naga(_spend_naga(state, action.player, action.source), action)


def _use_naga(after, action: UseNaga):
    """Activate the card once the Naga is spent (``after``)."""
    player, card = action.player, action.card
    me = after.players[player]
    hand = list(me.hand)
    hand.remove(card)  # remove_from_hand and the card activated, in one edit of the seat, logged in the same copy
    state = with_player(after, player, {"hand": tuple(hand), "public_hand": me.public_hand - {card}, "activated": me.activated + (card,)})
    state = log(state, f"{action}.")
    state = _apply_effect(state, player, after.edition.cards[card].effect, action.params)
    if state.pending_swap is None:
        return replace(state, pass_streak=0, to_act=1 - player)
    return replace(state, pass_streak=0)


def _apply_effect(state, player: int, effect: str, params):
    opponent = 1 - player
    if effect == "PLUS2":
        return set_player(state, player, modifier=state.players[player].modifier + 2)
    if effect == "RETHROW2":
        return _rethrow(state, params.target, params.stick_ids)
    if effect == "DISCARD2":
        return log(return_sticks(state, opponent, params.stick_ids), f"{seat_name(opponent)} loses {', '.join(params.stick_ids)}.")
    if effect == "PEEK":
        return _peek(state, player, [params.spot])
    if effect == "SWAP":
        temple = state.players[params.temple].temple
        return update_temple(state, params.temple, temple.swap_relics(params.a, params.b))
    if effect == "PEEK2_SWAP":
        state = _peek(state, player, [params.a, params.b])
        return replace(state, pending_swap=(player, params.a, params.b))
    if effect == "ROTATE":
        return update_temple(state, params.temple, state.players[params.temple].temple.rotate(params.cell, params.k))
    if effect == "MOVE_SWAP":
        temple = state.players[params.temple].temple
        changed = temple.move(params.origin, params.destination) if isinstance(params, Move) else temple.swap_cells(params.a, params.b)
        return update_temple(state, params.temple, changed)
    if effect == "TRAP":
        return _put_trap(state, opponent, params.cell)
    if effect == "DRAW2":
        return replace(state, queue=state.queue + (Task("DRAW", player, "HAND"),) * 2)
    if effect in ("OPP_DISCARD", "STEAL"):
        return replace(state, queue=state.queue + (Task("HAND_CARD", opponent, effect),))
    raise AssertionError(f"unknown effect {effect}")


def _rethrow(state, target: int, stick_ids):
    chosen = set(stick_ids)
    sticks = tuple(Stick(s.id, s.colour) if s.id in chosen else s for s in state.players[target].sticks)
    state = set_player(state, target, sticks=sticks)
    return replace(state, queue=state.queue + tuple(throw_tasks(target, chosen)))


def _peek(state, player: int, spots):
    temple = state.players[player].temple
    me = state.players[player]
    state = set_player(state, player, knowledge=me.knowledge | {(player, temple.relic_at(s)) for s in spots})
    state = log(state, f"{SEAT_NAMES[player]} peeks at {' and '.join(spots)}.")
    seen = "; ".join(f"{s} holds {relic_of(state, temple.relic_at(s))}" for s in spots)
    return log(state, f"You see: {seen}.", audience=player)


def _put_trap(state, owner: int, cell):
    """ROM TRAP: lift the trap from wherever it is; a displaced room goes under the pile (nagaraja.md#effects)."""
    for p in (0, 1):
        if p != owner and state.players[p].temple.trap_cell is not None:
            state = update_temple(state, p, state.players[p].temple.without_trap())
    temple, displaced = state.players[owner].temple.put_trap(cell)
    if isinstance(displaced, PlacedTile):
        state = replace(state, room_bottom=state.room_bottom + (displaced.tile_id,))
        state = log(state, f"The room {displaced.tile_id} goes to the bottom of the room pile.")
        if displaced.amulet is not None:
            state = replace(state, out_of_game=state.out_of_game + (displaced.amulet,))
            state = log(state, "The uncollected amulet on it leaves the game.")
    state = log(state, f"The trap is now at {tuple(cell)} in {seat_name(owner)}'s temple.")
    return update_temple(state, owner, temple)


_AMULET_PARAMS = {"AM_PEEK": "Spot(a face-down spot of your temple)",
                  "AM_RETHROW1": "Sticks(you, (one of your current sticks, lowest id of its colour and face))"}


def _do_use_amulet(state, action: UseAmulet):
    player, me = action.player, state.players[action.player]
    if action.amulet not in me.amulets:
        raise IllegalMove(f"{seat_name(player)} holds no amulet {action.amulet}")
    effect = state.edition.amulets[action.amulet].effect
    if effect is None:
        raise IllegalMove(f"{action.amulet} is a VP amulet: it only scores and cannot be used")
    if not _amulet_usable(state, player, action.amulet):
        when = {"AM_PEEK": "you need a face-down relic in your temple",
                "AM_RETHROW1": "it is used in Confrontation, on one of your current sticks"}
        raise IllegalMove(f"{action.amulet} ({effect}) cannot be used now: "
                          f"{when.get(effect, 'it is used in Confrontation, on your turn')}")
    if action not in _amulet_actions(state, player):
        raise IllegalMove(f"{action.amulet} ({effect}) needs {_AMULET_PARAMS.get(effect, 'NoParams()')}")
    amulets = list(me.amulets)
    amulets.remove(action.amulet)
    state = set_player(state, player, amulets=tuple(amulets))
    state = replace(state, out_of_game=state.out_of_game + (action.amulet,))
    state = log(state, f"{seat_name(player)} shows and uses amulet {action.amulet} ({effect}).")
    if effect == "AM_PLUS2":
        state = set_player(state, player, modifier=state.players[player].modifier + 2)
    elif effect == "AM_NAGA":
        state = set_player(state, player, virtual_nagas=state.players[player].virtual_nagas + 1)
    elif effect == "AM_RETHROW1":
        state = _rethrow(state, player, action.params.stick_ids)
    else:
        state = _peek(state, player, [action.params.spot])
    if state.phase == "CONFRONTATION":
        state = replace(state, pass_streak=0)
    return state


def _do_swap_choice(state, action: SwapChoice):
    if state.pending_swap is None:
        raise IllegalMove("there is no pending PEEK2_SWAP decision")
    if not isinstance(action.swap, bool):
        raise IllegalMove("SwapChoice takes swap=True or swap=False")
    player, a, b = state.pending_swap
    state = replace(state, pending_swap=None, to_act=1 - player, pass_streak=0)
    state = log(state, f"{action}.")
    if action.swap:
        state = update_temple(state, player, state.players[player].temple.swap_relics(a, b))
    return state


def _do_pass(state, action: Pass):
    _require_phase(state, action, "CONFRONTATION")
    if state.pending_swap is not None:
        raise IllegalMove("first decide whether to swap the two peeked relics")
    return log(state, f"{action}.", pass_streak=state.pass_streak + 1, to_act=1 - action.player)


def _confrontation_step(state):
    """End the Confrontation, pass for a player with nothing to do, or wait (nagaraja.md#confrontation)."""
    if state.pending_swap is not None:
        return None
    if state.pass_streak >= 2:
        return _resolve_room(state)
    player = state.to_act
    if has_non_pass_action(state, player):
        return None
    if not has_non_pass_action(state, 1 - player):
        return _resolve_room(state)
    return log(state, f"{SEAT_NAMES[player]} passes (nothing to use).", pass_streak=state.pass_streak + 1,
               to_act=1 - player)


def _resolve_room(state):
    """RESOLVE: higher total wins the room, the guide wins ties (the opponent under
    ``tie_rule="opponent"``); clean up the round (nagaraja.md#winning-the-room)."""
    totals = (state.total(0), state.total(1))
    guide = state.guide
    ties_to = guide if state.rules.tie_rule == "guide" else 1 - guide
    winner = ties_to if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    text = (f"Totals: P0 {totals[0]}, P1 {totals[1]}. {seat_name(winner)} wins the room"
            + (f" (the {state.rules.tie_rule} wins ties)." if totals[0] == totals[1] else "."))
    discards, returned, players = [], [], list(state.players)
    for p in (guide, 1 - guide):  # cards to the discard pile, sticks to the supply, in one copy of each seat
        me = players[p]
        discards += list(me.committed or ()) + list(me.activated)
        returned += map(_STICK_ID, me.sticks)  # the ids of the sticks, in C
        players[p] = changed_seat(state, me, {"sticks": (), "committed": (), "activated": (), "modifier": 0, "virtual_nagas": 0})
    return log(state, text, players=tuple(players), supply=tuple(sorted(state.supply + tuple(returned))),
               discard_pile=state.discard_pile + tuple(discards), phase="EXPLORATION", to_act=winner,
               room_winner=winner, pass_streak=0)


def _do_place(state, action: PlaceTile):
    _require_phase(state, action, "EXPLORATION")
    temple = state.players[action.player].temple
    if not temple.legal_cells():
        raise IllegalMove("the temple is full: the room must be discarded (DiscardTile)")
    cell = tuple(action.cell) if isinstance(action.cell, (tuple, list)) else action.cell
    return _place(state, action, temple.place(cell, state.current_room, action.rotation, state.room_amulet))


def _do_listed_place(state, action: PlaceTile):
    """A PlaceTile taken from the legal actions of ``state``: a legal cell and rotation of the room in play
    (``Temple.place`` without its checks)."""
    temple = state.players[action.player].temple
    return _place(state, action, temple._placed(action.cell, PlacedTile(state.current_room, action.rotation, state.room_amulet)))


def _place(state, action: PlaceTile, placed: Temple):
    state = log(state, f"{action}.", current_room=None, room_amulet=None)
    return update_temple(state, action.player, placed)


def _do_discard_tile(state, action: DiscardTile):
    _require_phase(state, action, "EXPLORATION")
    if state.players[action.player].temple.legal_cells():
        raise IllegalMove("the room must be placed: there is still a legal cell")
    lost = (state.current_room,) + ((state.room_amulet,) if state.room_amulet else ())
    state = replace(state, current_room=None, room_amulet=None, out_of_game=state.out_of_game + lost)
    return log(state, f"{action}.")


def _start_new_deal(state):
    """NEW_DEAL: the room's loser becomes guide and draws 3 (nagaraja.md#new-deal)."""
    if not state.room_pile and not state.room_bottom:
        return state  # the end check has already fired (rooms exhausted)
    guide = 1 - state.room_winner
    state = replace(state, phase="NEW_DEAL", guide=guide, to_act=guide, deal=())
    state = log(state, f"{SEAT_NAMES[guide]} becomes the guide and draws {state.rules.deal_draw} cards.")
    return replace(state, queue=state.queue + _DEAL_DRAWS[guide] * state.rules.deal_draw)


_DEAL_DRAWS = tuple((Task("DRAW", guide, "DEAL"),) for guide in (0, 1))


def _do_keep(state, action: Keep):
    _require_phase(state, action, "NEW_DEAL")
    if not state.deal:
        raise IllegalMove("there are no drawn cards to keep")
    keep = min(state.rules.deal_keep, len(state.deal))
    cards = tuple(action.cards) if isinstance(action.cards, (tuple, list)) else ()
    if len(cards) != keep or len(set(cards)) != keep or any(c not in state.deal for c in cards):
        raise IllegalMove(f"keep exactly {keep} of the drawn cards {', '.join(state.deal)}")
    if list(cards) != sorted(cards):
        raise IllegalMove("list the kept cards in sorted order")
    return _keep(state, action.player, cards)


def _do_listed_keep(state, action: Keep):
    """A Keep taken from the legal actions of ``state``: as many drawn cards as the rules keep, sorted."""
    return _keep(state, action.player, action.cards)


def _keep(state, player: int, cards: tuple):
    opponent = 1 - player
    given = [c for c in state.deal if c not in cards]
    players = list(state.players)  # add_to_hand for every card, then the log line and the room, in one copy
    keeper, receiver = players[player], players[opponent]
    players[player] = changed_seat(state, keeper, {"hand": tuple(sorted(keeper.hand + cards))})
    players[opponent] = changed_seat(state, receiver, {"hand": tuple(sorted(receiver.hand + tuple(given))),
                                                       "public_hand": receiver.public_hand | set(given)})
    return log(state, f"{SEAT_NAMES[player]} keeps {len(cards)} card(s) and gives {', '.join(given) or 'nothing'} "
                      f"to {SEAT_NAMES[opponent]}.", players=tuple(players), deal=None,
               queue=state.queue + (_ROOM,))  # and _reveal_room


_LISTED_HANDLERS = {UseNaga: _do_listed_naga, Commit: _do_listed_commit, PlaceTile: _do_listed_place,
                    Keep: _do_listed_keep}  # the rest check as usual
_HANDLERS = {
    Commit: _do_commit, UseNaga: _do_use_naga, UseAmulet: _do_use_amulet, SwapChoice: _do_swap_choice,
    Pass: _do_pass, PlaceTile: _do_place, DiscardTile: _do_discard_tile, Keep: _do_keep,
}
_NEVER_END = (Commit, Pass, Keep)  # these never change a temple, a score or the room in play
# action type -> (its handler when listed, its handler, whether the end of the game is checked after it)
_DISPATCH = {kind: (_LISTED_HANDLERS.get(kind, handler), handler, kind not in _NEVER_END) for kind, handler in _HANDLERS.items()}


# =========================================================================== end of game


def cursed_face_up(state, player: int) -> int:
    return face_up_relics(state.edition, state.players[player].temple)[1]


def _cursed_total(state) -> int:
    edition = state.edition
    total = edition.__dict__.get("_cursed_total")  # read after every action: counted once per edition
    if total is None:
        total = edition.__dict__["_cursed_total"] = sum(r.cursed for r in edition.relics)
    return total


def _check_end(state, actor: int, placed: bool):
    """The end conditions of nagaraja.md#end, in order, then (after Exploration) the new deal."""
    edition, (first, second) = state.edition, state.players
    vp_first, cursed_first = face_up_relics(edition, first.temple)  # each temple's face-up relics read once
    vp_second, cursed_second = face_up_relics(edition, second.temple)
    amulets = edition.amulets
    scores = (vp_first + (sum([amulets[a].vp for a in first.amulets]) if first.amulets else 0),
              vp_second + (sum([amulets[a].vp for a in second.amulets]) if second.amulets else 0))  # state.score(p)
    cursed_total = _cursed_total(state)
    if cursed_first >= cursed_total or cursed_second >= cursed_total:  # cursed_face_up(state, p)
        loser = actor if cursed_first >= cursed_total and cursed_second >= cursed_total else (0 if cursed_first >= cursed_total else 1)
        return _finish(state, 1 - loser, "CURSED_LOSS", scores)
    win_score = state.rules.win_score
    if scores[0] >= win_score or scores[1] >= win_score:
        reached_both = scores[0] >= win_score and scores[1] >= win_score
        return _finish(state, actor if reached_both else (0 if scores[0] >= win_score else 1), "REACHED_25", scores)
    if placed and state.players[actor].temple.is_full:
        winner = actor if scores[actor] >= scores[1 - actor] else 1 - actor
        return _finish(state, winner, "NINTH_TILE", scores)
    if state.phase == "EXPLORATION" and state.current_room is None:
        if not state.room_pile and not state.room_bottom:
            winner = state.room_winner if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
            return _finish(state, winner, "ROOMS_EXHAUSTED", scores)
        return _start_new_deal(state)
    return state


def _finish(state, winner: int, reason: str, scores: tuple):
    state = replace(state, result=Result(winner, reason, scores), phase="GAME_OVER", to_act=None, queue=(), pending_swap=None)
    return log(state, f"Game over: {describe_result(state)}.")

