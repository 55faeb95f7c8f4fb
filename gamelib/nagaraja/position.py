"""The pieces of a Nagaraja position that are not components, and the small edits every layer makes.

A seat (:class:`Player`), a fate stick in play (:class:`Stick`), a log entry (an ``(audience, text)`` pair),
the end of the game (:class:`Result`); helpers that return a changed position (log a line,
change a seat, move cards and sticks); and :func:`check_invariants`, the conservation check
of nagaraja.md#round that the tests and the save reader share.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

from gamelib.core import Draft, replace_fields
from gamelib.nagaraja.cards import COLOURS
from gamelib.nagaraja.temple import RELIC_SPOTS, PlacedTile, Temple

PHASES = ("SETUP", "CALL_OF_FATE", "CONFRONTATION", "EXPLORATION", "NEW_DEAL", "GAME_OVER")
REASONS = ("CURSED_LOSS", "REACHED_25", "NINTH_TILE", "ROOMS_EXHAUSTED")
SOURCES = COLOURS + ("VIRTUAL",)
PUBLIC = -1  # audience of an event every player may read


def seat_name(player: int) -> str:
    return f"P{player}"


SEAT_NAMES = (seat_name(0), seat_name(1))  # seat_name(p) of a seat, for the log lines of every turn


class Stick(NamedTuple):
    """A fate stick held this round; ``points``/``naga`` are None until it is thrown."""

    id: str
    colour: str
    points: int | None = None
    naga: int | None = None

    @property
    def thrown(self) -> bool:
        return self.points is not None

    def __str__(self):
        face = "not thrown" if not self.thrown else ("Naga" if self.naga else f"{self.points}")
        return f"{self.id}={face}"


class Result(NamedTuple):
    winner: int
    reason: str
    scores: tuple

    def to_dict(self):
        return {"winner": self.winner, "reason": self.reason, "scores": list(self.scores)}


@dataclass(frozen=True)
class Player:
    temple: Temple
    hand: tuple = ()
    amulets: tuple = ()  # collected and not yet used
    sticks: tuple = ()  # current sticks, Stick tuples
    committed: tuple | None = None  # None until this player commits in the round
    activated: tuple = ()
    modifier: int = 0
    virtual_nagas: int = 0
    knowledge: frozenset = frozenset()  # (owner, relic id) this player knows
    public_hand: frozenset = frozenset()  # cards of this hand the opponent knows


# --------------------------------------------------------------------------- edits


class TurnDraft(Draft):
    """The next state while one turn builds it: a :class:`~gamelib.core.Draft` of the state the turn
    starts from, edited in place by every step of the turn (the action's effect, chance, the automatic
    steps), then frozen into the new state.

    Its bookkeeping is its own, so two games built at once (on two threads) never meet:
    ``fresh_seats`` are the seats made during this turn, which only this draft holds and so may be
    edited in place (a seat taken from the start state is copied at its first edit), and
    ``pending_log`` the lines logged this turn, added to the ``log`` tuple in one copy when the turn
    ends (the log grows to hundreds of lines: adding each line would copy it each time).
    """

    __slots__ = ()
    scratch = ("fresh_seats", "pending_log")

    def __init__(self, state, **changes) -> None:
        self._made_from = type(state)
        fields = state.__dict__.copy()  # a dict's own copy: faster than building a new one key by key
        fields.update(changes)
        fields["fresh_seats"], fields["pending_log"] = [], []
        self.__dict__ = fields

    def freeze(self, state_class=None):
        """The new state: the turn's log lines joined to the log, the bookkeeping dropped (as
        ``Draft.freeze`` does, written out: every turn ends here)."""
        fields = self.__dict__
        pending = fields.pop("pending_log")
        del fields["fresh_seats"]
        if pending:
            fields["log"] = fields["log"] + tuple(pending)
        made = state_class or self._made_from
        state = _new(made)
        _set_field(state, "__dict__", fields)
        not_listed = getattr(made, "listed", None)  # the state's slot for its legal actions, empty yet:
        if not_listed is not None:  # set, so that reading it never fails (a failed read costs an exception)
            not_listed.__set__(state, None)
            made.chance_listed.__set__(state, None)  # and its slot for its chance outcomes
        self.__dict__ = {}
        return state

    def snapshot(self):
        """A frozen copy of the position so far, for reading what an effect could do without editing
        the real one; the seats are then shared, so from now on they are copied before an edit."""
        finish_log(self)
        self.fresh_seats.clear()
        fields = dict(self.__dict__)
        for name in self.scratch:
            del fields[name]
        copy = _new(self._made_from)
        _set_field(copy, "__dict__", fields)
        return copy


def copied(value, changes: dict):
    """``core.replace_fields(value, **changes)`` for a state or a seat (a plain frozen dataclass whose
    ``__dict__`` holds its fields and nothing else, which ``core.replace_fields`` also checks): one dict
    copy, without the checks of a general copy (every turn copies the state and a seat or two)."""
    fields = {**value.__dict__, **changes}  # a combined dict, even from a split one (see combined)
    if len(fields) != len(value.__dict__):
        raise TypeError(f"{type(value).__name__} has no field {sorted(set(fields) - set(value.__dict__))[0]!r}")
    copy = _new(value.__class__)
    _set_field(copy, "__dict__", fields)
    return copy


_new, _set_field = object.__new__, object.__setattr__


def combined(value):
    """``value`` (a state or a seat just built by ``__init__``) with its fields in a combined dict.

    An object built by ``__init__`` keeps its fields beside the class's shared keys; read as
    ``__dict__``, they become a *split* dict, and copies of a split dict (``dict.copy``) are split
    too. Python 3.11 reads an attribute of an object whose dict is split on its slow path every
    time (the specialised read, by the key's position in the dict, gives up on it), and a game
    reads the fields of its state and seats hundreds of thousands of times: its first state and
    seats get a combined dict, which every copy (``copied``) keeps."""
    object.__setattr__(value, "__dict__", dict(value.__dict__))
    return value


# Every edit below takes a state and returns the changed one: a :class:`TurnDraft` is edited in place
# (and returned), a frozen state is copied (tests and hand-built positions edit frozen states). In
# place, the fields are replaced in the draft's own ``__dict__`` without checking their names: a name
# that is no field is a bug of this package, which the copying path refuses with TypeError.


def replace(value, **changes):
    """``value`` with the fields ``changes`` replaced: in place for a draft, else in a copy
    (``core.replace_fields``)."""
    if value.__class__ is TurnDraft:
        value.__dict__.update(changes)
        return value
    if "listed" in value.__class__.__dict__:  # a State: its __dict__ holds its fields only (its listing is a
        return copied(value, changes)  # slot, left empty in the copy), which ``replace_fields`` cannot know
    return replace_fields(value, **changes)


def logged(state, entries: tuple) -> tuple:
    """The value of ``state.log`` once ``entries`` are logged: for a draft its log stays as it is and
    the entries wait in its ``pending_log``."""
    if state.__class__ is TurnDraft:
        state.pending_log.extend(entries)
        return state.log
    return state.log + entries


def finish_log(draft: TurnDraft) -> None:
    """Put the waiting lines of ``draft`` into its log."""
    pending = draft.pending_log
    if pending:
        draft.log = draft.log + tuple(pending)
        pending.clear()


def detached(state):
    """``state``, or a frozen copy of it when it is a draft: for positions that are only looked at
    (what an effect could do), which must not edit the real one."""
    if state.__class__ is TurnDraft:
        return state.snapshot()
    return state


def changed_seat(state, seat, changes: dict):
    """``seat`` (a Player of ``state``) with the fields ``changes`` replaced: in place when it was made
    in this turn by the draft ``state``, else a copy (made fresh when ``state`` is a draft)."""
    if state.__class__ is TurnDraft:
        for made in state.fresh_seats:  # made in this turn: only the draft holds it
            if made is seat:
                seat.__dict__.update(changes)
                return seat
        seat = copied(seat, changes)
        state.fresh_seats.append(seat)
        return seat
    return copied(seat, changes)


def log(state, *texts: str, audience: int = PUBLIC, **changes):
    """``state`` with ``texts`` logged for ``audience`` and the fields ``changes`` replaced, in one copy."""
    if state.__class__ is TurnDraft:
        if len(texts) == 1:  # the most frequent case
            state.pending_log.append((audience, texts[0]))
        else:
            state.pending_log.extend([(audience, t) for t in texts])
        if changes:
            state.__dict__.update(changes)
        return state
    changes["log"] = state.log + tuple([(audience, t) for t in texts])
    return copied(state, changes)


def set_player(state, player: int, **changes):
    return with_player(state, player, changes)


def with_player(state, player: int, seat_changes: dict, **changes):
    """As :func:`set_player` with the seat's ``seat_changes``, and the state's fields ``changes``
    replaced in the same copy (a turn makes many small edits: each copy of the state costs)."""
    players = state.players
    seat = players[player]
    if state.__class__ is TurnDraft:  # changed_seat(state, seat, seat_changes), inline: the most frequent edit
        for made in state.fresh_seats:
            if made is seat:
                seat.__dict__.update(seat_changes)
                if changes:
                    state.__dict__.update(changes)
                return state
        changed = copied(seat, seat_changes)
        state.fresh_seats.append(changed)
        changes["players"] = (changed, players[1]) if player == 0 else (players[0], changed)
        state.__dict__.update(changes)
        return state
    changed = copied(seat, seat_changes)
    changes["players"] = (changed, players[1]) if player == 0 else (players[0], changed)
    return copied(state, changes)


def face_up_relics(edition, temple: Temple) -> tuple[int, int]:
    """(VP, cursed relics) face up in ``temple``: the end check reads them after every action, so each
    temple keeps them beside its connectivity (a temple never changes; the edition is checked)."""
    kept = temple.__dict__.get("_face_up_relics")
    if kept is not None and kept[0] is edition:
        return kept[1]
    relics = edition.relic_by_id
    up = temple.connected_spots()
    face_up = [relics[relic_id] for spot, relic_id in zip(RELIC_SPOTS, temple.relics) if spot in up]
    counts = (sum([relic.vp for relic in face_up]), sum([relic.cursed for relic in face_up]))
    temple.__dict__["_face_up_relics"] = (edition, counts)
    return counts


def card_of(state, card_id: str):
    return state.edition.cards[card_id]


def relic_of(state, relic_id: str):
    return state.edition.relic_by_id[relic_id]


def face_down_own(state, player: int) -> list[str]:
    return state.players[player].temple.face_down_spots()


def remove_from_hand(state, player: int, cards):
    me = state.players[player]
    hand = list(me.hand)
    for card_id in cards:
        hand.remove(card_id)
    return set_player(state, player, hand=tuple(hand), public_hand=me.public_hand - set(cards))


def add_to_hand(state, player: int, card_id: str, public: bool = False):
    me = state.players[player]
    public_hand = me.public_hand | {card_id} if public else me.public_hand
    return set_player(state, player, hand=tuple(sorted(me.hand + (card_id,))), public_hand=public_hand)


def return_sticks(state, player: int, stick_ids):
    """Put sticks back in the supply (a used Naga, a DISCARD2, the end of a round)."""
    me = state.players[player]
    leaving = set(stick_ids)
    kept = tuple([s for s in me.sticks if s[0] not in leaving])  # by the stick's id
    state = set_player(state, player, sticks=kept)
    return replace(state, supply=tuple(sorted(state.supply + tuple(leaving))))


def spend_naga(state, player: int, source: str):
    """Discard the lowest-id Naga stick of ``source`` (or spend a virtual Naga)."""
    me = state.players[player]
    if source == "VIRTUAL":
        return set_player(state, player, virtual_nagas=me.virtual_nagas - 1)
    stick = min([s[0] for s in me.sticks if s[3] and s[1] == source])  # (id, colour, points, naga)
    return return_sticks(state, player, [stick])


def fate_total(state, player: int) -> int:
    """Fate points of ``player`` this round: thrown, undiscarded sticks plus modifiers (a state or a draft)."""
    me = state.players[player]
    # the points of the thrown ones (a Stick is (id, colour, points, naga)); filter drops the unthrown's
    # None and zeros, which add nothing), in C
    return sum(filter(None, map(_POINTS, me.sticks))) + me.modifier


_POINTS = itemgetter(2)  # a Stick's points


def stick_order(stick_id: str) -> tuple:
    return ("BWG".index(stick_id[0]), stick_id)


def amulet_text(state, amulet_id: str) -> str:
    amulet = state.edition.amulets[amulet_id]
    return f"{amulet_id} ({amulet.effect})" if amulet.effect else f"{amulet_id} ({amulet.vp} VP)"


# --------------------------------------------------------------------------- invariants


def check_invariants(state) -> None:
    """Raise AssertionError unless cards, relics and sticks are conserved (nagaraja.md#round)."""
    cards: list = list(state.draw_pile) + list(state.discard_pile) + list(state.deal or ())
    for p in state.players:
        cards += list(p.hand) + list(p.committed or ()) + list(p.activated)
    assert sorted(cards) == sorted(state.edition.cards), "cards are not conserved (hands + piles + in play != 48)"
    if state.phase != "SETUP":
        relic_ids = sorted(r.id for r in state.edition.relics)
        for p in state.players:
            assert sorted(p.temple.relics) == relic_ids, "a temple does not hold its 9 relics on its 9 spots"
    sticks = list(state.supply) + [s.id for p in state.players for s in p.sticks]
    assert len(sticks) == len(set(sticks)) == 3 * state.rules.sticks_per_colour, "sticks held + supply != 36"
    tiles = list(state.room_pile) + list(state.room_bottom) + [state.current_room] * (state.current_room is not None)
    tiles += [t for t in state.out_of_game if t in state.edition.tiles]
    for p in state.players:
        tiles += [c.tile_id for c in p.temple.cells if isinstance(c, PlacedTile)]
    assert sorted(tiles) == sorted(state.edition.tiles), "room tiles are not conserved"
    traps = sum(p.temple.trap_cell is not None for p in state.players)
    assert traps <= 1, "there is only one trap"
