"""The Nagaraja round as a state machine (spec 5), its actions (spec 6) and views (spec 7).

Phases: SETUP -> CALL_OF_FATE -> CONFRONTATION -> (RESOLVE) -> EXPLORATION -> NEW_DEAL
-> CALL_OF_FATE ... ; GAME_OVER can follow any action (spec 5.8).

Chance is a queue of small tasks (place a relic, throw a stick, draw a card, turn up
a room, ...). Each task is one chance node with a handful of exact outcomes, so
``chance_outcomes()`` is always short and exact even though a shuffle of 48 cards is
not: drawing uniformly from an unordered pile is the same as drawing the top card of
a shuffled one. By default the state resolves its own chance nodes from its seed;
``new_game(explicit_chance=True)`` stops at each one instead.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from functools import lru_cache
from math import factorial
from typing import NamedTuple

from gamelib.core import CHANCE, TERMINAL, CorruptSave, IllegalMove, chance_rng, load_json, require_fields
from gamelib.nagaraja.cards import COLOURS, STICK_LETTERS, commitments
from gamelib.nagaraja.edition import Edition, EditionError, default_edition, edition_from_source
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, TRAP, PlacedTile, Temple

PHASES = ("SETUP", "CALL_OF_FATE", "CONFRONTATION", "EXPLORATION", "NEW_DEAL", "GAME_OVER")
REASONS = ("CURSED_LOSS", "REACHED_25", "NINTH_TILE", "ROOMS_EXHAUSTED")
SOURCES = COLOURS + ("VIRTUAL",)
PUBLIC = -1  # audience of an event every player may read


def replace(obj, **changes):
    """dataclasses.replace for State and Player, without re-running __init__ (a hot path)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


def seat_name(player: int) -> str:
    return f"P{player}"


# =========================================================================== rules


@dataclass(frozen=True)
class Rules:
    """Every rule parameter of Nagaraja; the defaults are the spec's."""

    win_score: int = 25
    starting_hand: int = 5
    deal_draw: int = 3
    deal_keep: int = 2
    sticks_per_colour: int = 12
    max_first_guide_ties: int = 1000

    def __post_init__(self):
        for name in ("win_score", "starting_hand", "deal_draw", "sticks_per_colour", "max_first_guide_ties"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        if not isinstance(self.deal_keep, int) or not 0 <= self.deal_keep <= self.deal_draw:
            raise ValueError(f"deal_keep must be between 0 and deal_draw ({self.deal_draw}), not {self.deal_keep!r}")


# =========================================================================== actions and params


@dataclass(frozen=True)
class NoParams:
    """The parameters of an effect that needs none."""

    def __str__(self):
        return ""


@dataclass(frozen=True)
class Sticks:
    target: int
    stick_ids: tuple

    def __str__(self):
        return f"{', '.join(self.stick_ids)} of {seat_name(self.target)}"


@dataclass(frozen=True)
class Spot:
    spot: str

    def __str__(self):
        return self.spot


@dataclass(frozen=True)
class SpotPair:
    temple: int
    a: str
    b: str

    def __str__(self):
        return f"{self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True)
class Rotate:
    temple: int
    cell: tuple
    k: int

    def __str__(self):
        return f"{self.cell} in {seat_name(self.temple)}'s temple by {self.k} quarter-turn(s)"


@dataclass(frozen=True)
class Move:
    temple: int
    origin: tuple
    destination: tuple

    def __str__(self):
        return f"move {self.origin} to {self.destination} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True)
class Swap:
    temple: int
    a: tuple
    b: tuple

    def __str__(self):
        return f"swap {self.a} and {self.b} in {seat_name(self.temple)}'s temple"


@dataclass(frozen=True)
class Cell:
    cell: tuple

    def __str__(self):
        return f"cell {self.cell} of the opponent's temple"


@dataclass(frozen=True)
class Commit:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} commits {' + '.join(self.cards) or 'nothing'}"


@dataclass(frozen=True)
class UseNaga:
    player: int
    source: str
    card: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses a {self.source} Naga on {self.card}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True)
class UseAmulet:
    player: int
    amulet: str
    params: tuple = NoParams()

    def __str__(self):
        detail = str(self.params)
        return f"{seat_name(self.player)} uses amulet {self.amulet}" + (f" ({detail})" if detail else "")


@dataclass(frozen=True)
class SwapChoice:
    player: int
    swap: bool

    def __str__(self):
        return f"{seat_name(self.player)} {'swaps' if self.swap else 'does not swap'} the peeked relics"


@dataclass(frozen=True)
class Pass:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} passes"


@dataclass(frozen=True)
class PlaceTile:
    player: int
    cell: tuple
    rotation: int

    def __str__(self):
        return f"{seat_name(self.player)} places the room at {self.cell}, rotation {self.rotation}"


@dataclass(frozen=True)
class DiscardTile:
    player: int

    def __str__(self):
        return f"{seat_name(self.player)} discards the room (the temple is full)"


@dataclass(frozen=True)
class Keep:
    player: int
    cards: tuple

    def __str__(self):
        return f"{seat_name(self.player)} keeps {' + '.join(self.cards) or 'nothing'}"


ACTION_TYPES = (Commit, UseNaga, UseAmulet, SwapChoice, Pass, PlaceTile, DiscardTile, Keep)


# =========================================================================== state pieces


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


class Task(NamedTuple):
    """One pending chance event: kind, the player concerned, and a detail."""

    kind: str  # RELIC, FIRST_GUIDE, GUIDE_PICK, DRAW, ROOM, AMULET, STICKS, HAND_CARD
    player: int | None = None
    detail: str | None = None


class Event(NamedTuple):
    audience: int  # PUBLIC or the one seat that may read it
    text: str


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


# =========================================================================== the state


@dataclass(frozen=True)
class State:
    edition: Edition = field(compare=False, repr=False)
    rules: Rules = field(compare=False, repr=False)
    players: tuple = ()
    phase: str = "SETUP"
    to_act: int | None = None
    guide: int = 0
    round: int = 0
    draw_pile: tuple = ()  # unordered: a draw is uniform over it
    discard_pile: tuple = ()  # in the order cards were discarded (all were seen face up)
    room_pile: tuple = ()  # unordered, face down
    room_bottom: tuple = ()  # rooms sent to the bottom by TRAP, in order
    current_room: str | None = None
    room_amulet: str | None = None
    amulet_pile: tuple = ()
    supply: tuple = ()  # stick ids in the common supply
    out_of_game: tuple = ()  # discarded rooms, used amulets, amulets lost with a room
    pass_streak: int = 0
    queue: tuple = ()  # pending chance tasks
    deal: tuple | None = None  # cards drawn by the guide in NEW_DEAL, until Keep
    pending_swap: tuple | None = None  # (player, a, b) after PEEK2_SWAP
    first_guide: tuple = ((), ())  # the throw-off faces (points) of each player
    first_guide_ties: int = 0
    room_winner: int | None = None
    seed: int | str | None = None
    draws: int = 0
    explicit_chance: bool = False
    log: tuple = ()
    result: Result | None = None

    # ----------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        return None if self.result is None else self.result.winner

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0, 0.0]
        return [1.0 if p == self.result.winner else -1.0 for p in (0, 1)]

    def legal_actions(self) -> list:
        if self.result is not None or self.queue:
            return []
        return _legal_actions(self)

    def chance_outcomes(self) -> list:
        if self.result is not None or not self.queue:
            return []
        return _chance_outcomes(self)

    def apply(self, action) -> "State":
        if self.result is not None:
            raise IllegalMove(f"the game is over: {describe_result(self)}", action)
        if self.queue:
            values = [outcome for outcome, _ in self.chance_outcomes()]
            if action not in values:
                raise IllegalMove(f"{action!r} is not a possible outcome of this chance event "
                                  f"({_task_text(self.queue[0])})", action)
            return _settle(_resolve_chance(replace(self, queue=self.queue[1:]), self.queue[0], action))
        return _apply_action(self, action)

    # ----------------------------------------------------------------- reading
    def opponent(self, player: int) -> int:
        return 1 - player

    def score(self, player: int) -> int:
        """Face-up relic VP plus collected amulet VP (hidden amulets included)."""
        temple = self.players[player].temple
        relics = self.edition.relic_by_id
        relic_vp = sum(relics[temple.relic_at(spot)].vp for spot in temple.face_up_spots())
        amulet_vp = sum(self.edition.amulets[a].vp for a in self.players[player].amulets)
        return relic_vp + amulet_vp

    def visible_score(self, player: int) -> int:
        """What the opponent can see of a score: the face-up relic VP."""
        temple = self.players[player].temple
        relics = self.edition.relic_by_id
        return sum(relics[temple.relic_at(spot)].vp for spot in temple.face_up_spots())

    def total(self, player: int) -> int:
        """Fate points this round: thrown, undiscarded sticks plus modifiers."""
        me = self.players[player]
        return sum(s.points for s in me.sticks if s.thrown) + me.modifier

    def events(self, player: int) -> list[str]:
        """The log as player ``player`` may read it."""
        return [e.text for e in self.log if e.audience in (PUBLIC, player)]

    def observation(self, player: int) -> dict:
        return _observation(self, player)

    def to_json(self) -> str:
        return json.dumps(_to_dict(self))

    @classmethod
    def from_json(cls, text) -> "State":
        return _from_dict(load_json(text, "Nagaraja save"))

    def __str__(self) -> str:
        return _text(self)


# =========================================================================== new game


def new_game(seed=None, edition: Edition | None = None, explicit_chance: bool = False, rules: Rules | None = None) -> State:
    """A new game: relics hidden, first guide thrown, hands dealt, first room up (spec 5.2)."""
    edition = edition or default_edition()
    rules = rules or Rules()
    supply = tuple(f"{colour[0]}{i:02d}" for colour in COLOURS for i in range(1, rules.sticks_per_colour + 1))
    queue = [Task("RELIC", p, spot) for p in (0, 1) for spot in RELIC_SPOTS]
    queue += [Task("FIRST_GUIDE", p, "2") for p in (0, 1)]
    queue += [Task("DRAW", p, "HAND") for _ in range(rules.starting_hand) for p in (0, 1)]
    queue.append(Task("ROOM"))
    players = tuple(Player(Temple(edition.tiles)) for _ in (0, 1))
    state = State(
        edition=edition, rules=rules, players=players, draw_pile=tuple(sorted(edition.cards)),
        room_pile=tuple(sorted(edition.tiles)), amulet_pile=tuple(sorted(edition.amulets)), supply=supply,
        queue=tuple(queue), seed=seed, explicit_chance=explicit_chance,
        log=(Event(PUBLIC, f"New game of Nagaraja ({edition.describe()}); relics are hidden at random."),),
    )
    return _settle(state)


# =========================================================================== small helpers


def _log(state: State, *texts: str, audience: int = PUBLIC) -> State:
    return replace(state, log=state.log + tuple(Event(audience, t) for t in texts))


def _set_player(state: State, player: int, **changes) -> State:
    players = list(state.players)
    players[player] = replace(players[player], **changes)
    return replace(state, players=tuple(players))


def _card(state: State, card_id: str):
    return state.edition.cards[card_id]


def _relic(state: State, relic_id: str):
    return state.edition.relic_by_id[relic_id]


def _face_down_own(state: State, player: int) -> list[str]:
    return state.players[player].temple.face_down_spots()


def _remove_from_hand(state: State, player: int, cards) -> State:
    me = state.players[player]
    hand = list(me.hand)
    for card in cards:
        hand.remove(card)
    return _set_player(state, player, hand=tuple(hand), public_hand=me.public_hand - set(cards))


def _add_to_hand(state: State, player: int, card: str, public: bool = False) -> State:
    me = state.players[player]
    public_hand = me.public_hand | {card} if public else me.public_hand
    return _set_player(state, player, hand=tuple(sorted(me.hand + (card,))), public_hand=public_hand)


def _return_sticks(state: State, player: int, stick_ids) -> State:
    """Put sticks back in the supply (a used Naga, a DISCARD2, the end of a round)."""
    me = state.players[player]
    leaving = set(stick_ids)
    kept = tuple(s for s in me.sticks if s.id not in leaving)
    state = _set_player(state, player, sticks=kept)
    return replace(state, supply=tuple(sorted(state.supply + tuple(leaving))))


def _stick_order(stick_id: str) -> tuple:
    return ("BWG".index(stick_id[0]), stick_id)


def _update_temple(state: State, owner: int, temple: Temple) -> State:
    """Install a changed temple, then recompute faces, collect amulets and log (spec 4.3)."""
    before = state.players[owner].temple
    temple, collected = temple.collect_amulets()
    state = _set_player(state, owner, temple=temple, amulets=state.players[owner].amulets + tuple(collected))
    for amulet in collected:
        state = _log(state, f"{seat_name(owner)} collects an amulet.")
        state = _log(state, f"The amulet is {_amulet_text(state, amulet)}.", audience=owner)
    for spot in RELIC_SPOTS:
        was_up, up = before.face_up(spot), temple.face_up(spot)
        relic = _relic(state, temple.relic_at(spot))
        if up and (not was_up or before.relic_at(spot) != temple.relic_at(spot)):
            state = _log(state, f"{seat_name(owner)}'s relic at {spot} is face up: {relic}.")
        elif was_up and not up:
            state = _log(state, f"{seat_name(owner)}'s relic at {spot} turns face down.")
    seen = {(owner, temple.relic_at(spot)) for spot in temple.face_up_spots()}
    for p in (0, 1):  # both players see a face-up relic, and remember it if it turns face down again
        if not seen <= state.players[p].knowledge:
            state = _set_player(state, p, knowledge=state.players[p].knowledge | seen)
    return state


def _amulet_text(state: State, amulet_id: str) -> str:
    amulet = state.edition.amulets[amulet_id]
    return f"{amulet_id} ({amulet.effect})" if amulet.effect else f"{amulet_id} ({amulet.vp} VP)"


def _task_text(task: Task) -> str:
    texts = {
        "RELIC": "hide a relic", "FIRST_GUIDE": "throw 2 brown sticks for first guide", "GUIDE_PICK": "pick the guide",
        "DRAW": "draw a card", "ROOM": "turn up a room", "AMULET": "put an amulet on the room",
        "STICKS": "throw fate sticks of one colour", "HAND_CARD": "pick a random card from a hand",
    }
    who = f" for {seat_name(task.player)}" if task.player is not None else ""
    return texts[task.kind] + who


def describe_result(state: State) -> str:
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


# =========================================================================== chance


def _chance_outcomes(state: State) -> list:
    weights = _chance_weights(state)
    total = sum(w for _, w in weights)
    return [(outcome, Fraction(w, total)) for outcome, w in weights]


def _chance_weights(state: State) -> list:
    """The next chance event's outcomes with integer weights (equally likely cases)."""
    task = state.queue[0]
    kind = task.kind
    if kind == "RELIC":
        placed = set(state.players[task.player].temple.relics)
        return [(relic.id, 1) for relic in state.edition.relics if relic.id not in placed]
    if kind == "FIRST_GUIDE":
        return throw_weights(tuple(state.edition.faces["BROWN"]), int(task.detail))
    if kind == "STICKS":
        return throw_weights(tuple(state.edition.faces[STICK_LETTERS[task.detail[0]]]), len(task.detail.split()))
    if kind == "GUIDE_PICK":
        return [(0, 1), (1, 1)]
    if kind == "DRAW":
        return [(card, 1) for card in state.draw_pile]
    if kind == "ROOM":
        if state.room_pile:
            return [(tile, 1) for tile in state.room_pile]
        return [(state.room_bottom[0], 1)]
    if kind == "AMULET":
        return [(amulet, 1) for amulet in state.amulet_pile]
    if kind == "HAND_CARD":
        return [(card, 1) for card in state.players[task.player].hand]
    raise AssertionError(f"unknown chance task {kind}")


_UNIFORM_DRAWS = {"DRAW": lambda s, t: s.draw_pile, "AMULET": lambda s, t: s.amulet_pile,
                  "HAND_CARD": lambda s, t: s.players[t.player].hand}


def _sample(state: State, rng):
    """Draw the next chance outcome with exact integer weights."""
    task = state.queue[0]
    if task.kind in _UNIFORM_DRAWS:  # a uniform draw from a pile: pick an index
        pile = _UNIFORM_DRAWS[task.kind](state, task)
        return pile[rng.randrange(len(pile))]
    weights = _chance_weights(state)
    ticket = rng.randrange(sum(w for _, w in weights))
    for outcome, weight in weights:
        if ticket < weight:
            return outcome
        ticket -= weight
    raise AssertionError("unreachable")


def _prepare_queue(state: State) -> State:
    """Drop or prepare chance tasks that cannot happen as such (empty piles, empty hands)."""
    while state.queue:
        task = state.queue[0]
        if task.kind == "DRAW" and not state.draw_pile:
            if state.discard_pile:
                state = replace(state, draw_pile=tuple(sorted(state.discard_pile)), discard_pile=())
                state = _log(state, "The draw pile is empty: the discard pile is shuffled into a new draw pile.")
                continue
            state = _log(replace(state, queue=state.queue[1:]), f"{seat_name(task.player)} cannot draw: no cards are left.")
            continue
        if task.kind == "AMULET" and not state.amulet_pile:
            state = _log(replace(state, queue=state.queue[1:]), "No amulet is left for the special location.")
            continue
        if task.kind == "HAND_CARD" and not state.players[task.player].hand:
            state = replace(state, queue=state.queue[1:])
            continue
        break
    return state


def _resolve_chance(state: State, task: Task, outcome) -> State:
    """Apply one chance outcome (the task is already off the queue)."""
    kind, player = task.kind, task.player
    if kind == "RELIC":
        temple = state.players[player].temple
        relics = dict(zip(RELIC_SPOTS, temple.relics))
        relics[task.detail] = outcome
        return _set_player(state, player, temple=temple.with_relics(relics))
    if kind == "FIRST_GUIDE":
        return _first_guide_throw(state, player, outcome)
    if kind == "GUIDE_PICK":
        return _log(replace(state, guide=outcome), f"After {state.first_guide_ties} ties, {seat_name(outcome)} is picked as first guide.")
    if kind == "DRAW":
        pile = tuple(card for card in state.draw_pile if card != outcome)
        log = state.log + (Event(PUBLIC, f"{seat_name(player)} draws a card."),
                           Event(player, f"You draw {_card(state, outcome)}."))
        if task.detail == "DEAL":
            return replace(state, draw_pile=pile, deal=state.deal + (outcome,), log=log)
        return _add_to_hand(replace(state, draw_pile=pile, log=log), player, outcome)
    if kind == "ROOM":
        if outcome in state.room_pile:
            state = replace(state, room_pile=tuple(t for t in state.room_pile if t != outcome))
        else:
            state = replace(state, room_bottom=state.room_bottom[1:])
        state = _log(replace(state, current_room=outcome, room_amulet=None), f"The room {outcome} "
                     f"({state.edition.tiles[outcome].shape}) is turned up.")
        if state.edition.tiles[outcome].special is not None:
            state = replace(state, queue=(Task("AMULET"),) + state.queue)
        return state
    if kind == "AMULET":
        state = replace(state, amulet_pile=tuple(a for a in state.amulet_pile if a != outcome), room_amulet=outcome)
        return _log(state, "A face-down amulet is put on the room's special location.")
    if kind == "STICKS":
        faces = dict(zip(task.detail.split(), outcome))
        sticks = tuple(s._replace(points=faces[s.id][0], naga=faces[s.id][1]) if s.id in faces else s
                       for s in state.players[player].sticks)
        state = _set_player(state, player, sticks=sticks)
        if any(t.kind == "STICKS" and t.player == player for t in state.queue):
            return state
        faces = ", ".join(f"{s.colour.lower()} {'Naga' if s.naga else s.points}" for s in sticks if s.thrown)
        return _log(state, f"{seat_name(player)}'s sticks show: {faces or 'nothing'}.")
    if kind == "HAND_CARD":
        return _take_hand_card(state, player, task.detail, outcome)
    raise AssertionError(f"unknown chance task {kind}")


@lru_cache(maxsize=1024)
def throw_weights(faces: tuple, count: int) -> list:
    """Outcomes of throwing ``count`` sticks of one colour, as sorted tuples of faces, with integer weights.

    Sticks of one colour are interchangeable, so the outcome is the multiset of faces;
    its weight is the number of equally likely face sequences giving it (a multinomial).
    """
    face_counts = Counter(faces)
    weights = []
    for combo in combinations_with_replacement(sorted(face_counts), count):
        weight = factorial(count)
        for face, k in Counter(combo).items():
            weight = weight // factorial(k) * face_counts[face] ** k
        weights.append((combo, weight))
    return weights


def _first_guide_throw(state: State, player: int, faces) -> State:
    throws = list(state.first_guide)
    throws[player] = tuple(points for points, _ in faces)
    state = replace(state, first_guide=tuple(throws))
    if not throws[0] or not throws[1]:
        return state
    totals = (sum(throws[0]), sum(throws[1]))
    if totals[0] != totals[1]:
        guide = 0 if totals[0] > totals[1] else 1
        return _log(replace(state, guide=guide), f"First-guide throw: {totals[0]} to {totals[1]}; "
                    f"{seat_name(guide)} is the guide and takes the scroll.")
    ties = state.first_guide_ties + 1
    state = _log(replace(state, first_guide=((), ()), first_guide_ties=ties),
                 f"First-guide throw: both have {totals[0]}; throw again.")
    if ties >= state.rules.max_first_guide_ties:
        return replace(state, queue=(Task("GUIDE_PICK"),) + state.queue)
    again = tuple(Task("FIRST_GUIDE", p, "2") for p in (0, 1))
    return replace(state, queue=again + state.queue)


def _take_hand_card(state: State, victim: int, effect: str, card: str) -> State:
    activator = 1 - victim
    state = _remove_from_hand(state, victim, [card])
    if effect == "OPP_DISCARD":
        state = replace(state, discard_pile=state.discard_pile + (card,))
        return _log(state, f"{seat_name(victim)} discards {_card(state, card)} face up.")
    state = _add_to_hand(state, activator, card, public=True)
    return _log(state, f"{seat_name(activator)} steals {_card(state, card)} from {seat_name(victim)}.")


def _settle(state: State) -> State:
    """Run everything that needs no decision: chance (unless explicit), automatic steps."""
    rng = None  # one generator per batch of chance events, derived from (seed, batch number)
    while state.result is None:
        state = _prepare_queue(state)
        if state.queue:
            if state.explicit_chance:
                return state
            if rng is None:
                rng = chance_rng(state.seed, state.draws)
                state = replace(state, draws=state.draws + 1)
            outcome = _sample(state, rng)
            state = _resolve_chance(replace(state, queue=state.queue[1:]), state.queue[0], outcome)
            continue
        following = _next_step(state)
        if following is None:
            return state
        state = following
    return state


def _next_step(state: State) -> State | None:
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
            return _reveal_room(_log(replace(state, deal=None), f"{seat_name(state.guide)} drew no card to share."))
    return None


def _start_round(state: State) -> State:
    players = tuple(replace(p, committed=None) for p in state.players)
    state = replace(state, players=players, phase="CALL_OF_FATE", to_act=state.guide, round=state.round + 1, pass_streak=0)
    return _log(state, f"Round {state.round}: {seat_name(state.guide)} is the guide and commits first.")


def _reveal_room(state: State) -> State:
    return replace(state, queue=state.queue + (Task("ROOM"),))


# =========================================================================== legal actions


def _legal_actions(state: State) -> list:
    player, phase = state.to_act, state.phase
    actions: list = []
    if phase == "CALL_OF_FATE":
        hand = [_card(state, c) for c in state.players[player].hand]
        actions = [Commit(player, cards) for cards in commitments(hand)]
    elif phase == "CONFRONTATION":
        if state.pending_swap is None:
            actions = _naga_actions(state, player)
    actions += _amulet_actions(state, player)
    if phase == "CONFRONTATION":
        if state.pending_swap is not None:
            actions += [SwapChoice(player, False), SwapChoice(player, True)]
        else:
            actions.append(Pass(player))
    elif phase == "EXPLORATION":
        temple = state.players[player].temple
        cells = temple.legal_cells()
        actions += [PlaceTile(player, cell, rotation) for cell in cells for rotation in range(4)]
        if not cells:
            actions.append(DiscardTile(player))
    elif phase == "NEW_DEAL" and state.deal:
        keep = min(state.rules.deal_keep, len(state.deal))
        actions += [Keep(player, cards) for cards in combinations(sorted(state.deal), keep)]
    return actions


def _naga_sources(state: State, player: int) -> list[str]:
    me = state.players[player]
    colours = {s.colour for s in me.sticks if s.naga}
    sources = [c for c in COLOURS if c in colours]
    if me.virtual_nagas:
        sources.append("VIRTUAL")
    return sources


def _spend_naga(state: State, player: int, source: str) -> State:
    """Discard the lowest-id Naga stick of ``source`` (or spend a virtual Naga)."""
    me = state.players[player]
    if source == "VIRTUAL":
        return _set_player(state, player, virtual_nagas=me.virtual_nagas - 1)
    stick = min(s.id for s in me.sticks if s.naga and s.colour == source)
    return _return_sticks(state, player, [stick])


def _naga_actions(state: State, player: int) -> list:
    hand = state.players[player].hand
    if not hand:
        return []
    actions = []
    for source in _naga_sources(state, player):
        after = _spend_naga(state, player, source)
        options: dict = {}  # cards sharing an effect share its parameter sets
        for card_id in hand:
            effect = _card(state, card_id).effect
            if effect not in options:
                options[effect] = _effect_options(after, player, effect)
            actions += [UseNaga(player, source, card_id, params) for params in options[effect]]
    return actions


def _stick_choices(sticks, sizes) -> list[tuple]:
    """Choices of sticks up to (colour, face): the lowest ids of each kind, sorted."""
    groups: dict = {}
    for s in sorted(sticks, key=lambda s: _stick_order(s.id)):
        groups.setdefault((s.colour, s.points, s.naga), []).append(s.id)
    keys = sorted(groups, key=lambda k: (COLOURS.index(k[0]), k[1], k[2]))
    choices = []
    for size in sizes:
        for combo in _multisets(keys, size, {k: len(groups[k]) for k in keys}):
            used: Counter = Counter()
            ids = []
            for key in combo:
                ids.append(groups[key][used[key]])
                used[key] += 1
            choices.append(tuple(sorted(ids, key=_stick_order)))
    return choices


def _multisets(keys, size, available):
    if size == 0:
        yield ()
        return
    for i, key in enumerate(keys):
        if available[key]:
            available[key] -= 1
            for rest in _multisets(keys[i:], size - 1, available):
                yield (key,) + rest
            available[key] += 1


def _effect_options(state: State, player: int, effect: str) -> list:
    """Every legal parameter set of ``effect`` for ``player`` (spec 3.4), in a fixed order."""
    opponent = 1 - player
    players = state.players
    if effect in ("PLUS2", "DRAW2"):
        return [NoParams()]
    if effect in ("OPP_DISCARD", "STEAL"):
        return [NoParams()] if players[opponent].hand else []
    if effect == "RETHROW2":
        return [Sticks(t, ids) for t in (0, 1) for ids in _stick_choices(players[t].sticks, (1, 2))]
    if effect == "DISCARD2":
        sticks = players[opponent].sticks
        return [Sticks(opponent, ids) for ids in _stick_choices(sticks, (min(2, len(sticks)),))] if sticks else []
    if effect == "PEEK":
        return [Spot(spot) for spot in _face_down_own(state, player)]
    if effect == "SWAP":
        return [SpotPair(t, a, b) for t in (0, 1) for a, b in combinations(RELIC_SPOTS, 2)]
    if effect == "PEEK2_SWAP":
        return [SpotPair(player, a, b) for a, b in combinations(_face_down_own(state, player), 2)]
    if effect == "ROTATE":
        return [Rotate(t, cell, k) for t in (0, 1) for cell in players[t].temple.tile_cells() for k in (1, 2, 3)]
    if effect == "MOVE_SWAP":
        options: list = []
        for t in (0, 1):
            temple = players[t].temple
            occupied = temple.occupied_cells()
            options += [Move(t, origin, dest) for origin in occupied for dest in temple.move_destinations(origin)]
            options += [Swap(t, a, b) for a, b in combinations(occupied, 2)]
        return options
    if effect == "TRAP":
        trap = players[opponent].temple.trap_cell
        return [Cell(cell) for cell in CELLS if cell != trap]
    raise AssertionError(f"unknown effect {effect}")


def _effect_possible(state: State, player: int, effect: str) -> bool:
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
        return bool(players[opponent].sticks)
    if effect == "PEEK":
        return bool(_face_down_own(state, player))
    if effect == "PEEK2_SWAP":
        return len(_face_down_own(state, player)) >= 2
    if effect == "ROTATE":
        return any(p.temple.tile_cells() for p in players)
    if effect == "MOVE_SWAP":  # a swap needs two occupied cells, a move one cell with somewhere to go
        temples = [p.temple for p in players]
        return any(len(t.occupied_cells()) >= 2 or any(t.move_destinations(c) for c in t.occupied_cells()) for t in temples)
    raise AssertionError(f"unknown effect {effect}")


def _amulet_usable(state: State, player: int, amulet_id: str) -> bool:
    effect = state.edition.amulets[amulet_id].effect
    if effect is None:
        return False
    if effect == "AM_PEEK":
        return bool(_face_down_own(state, player))
    if state.phase != "CONFRONTATION" or state.pending_swap is not None:
        return False
    if effect == "AM_RETHROW1":
        return bool(state.players[player].sticks)
    return True


def _amulet_actions(state: State, player: int) -> list:
    actions = []
    for amulet_id in sorted(set(state.players[player].amulets)):
        if not _amulet_usable(state, player, amulet_id):
            continue
        effect = state.edition.amulets[amulet_id].effect
        if effect == "AM_PEEK":
            actions += [UseAmulet(player, amulet_id, Spot(s)) for s in _face_down_own(state, player)]
        elif effect == "AM_RETHROW1":
            actions += [UseAmulet(player, amulet_id, Sticks(player, choice))
                        for choice in _stick_choices(state.players[player].sticks, (1,))]
        else:
            actions.append(UseAmulet(player, amulet_id, NoParams()))
    return actions


def has_non_pass_action(state: State, player: int) -> bool:
    """Could ``player`` do anything but pass in this Confrontation (spec 5.4)?"""
    if any(_amulet_usable(state, player, a) for a in state.players[player].amulets):
        return True
    hand = state.players[player].hand
    if not hand:
        return False
    for source in _naga_sources(state, player):
        after = _spend_naga(state, player, source)
        effects = {_card(state, c).effect for c in hand}
        if any(_effect_possible(after, player, effect) for effect in effects):
            return True
    return False


# =========================================================================== applying actions


def _apply_action(state: State, action) -> State:
    if not isinstance(action, ACTION_TYPES):
        raise IllegalMove(f"{action!r} is not a Nagaraja action", action)
    player = getattr(action, "player", None)
    if player != state.to_act:
        raise IllegalMove(f"it is {seat_name(state.to_act)}'s turn, not {seat_name(player) if player in (0, 1) else player!r}'s",
                          action)
    handler = _HANDLERS[type(action)]
    try:
        new_state = handler(state, action)
    except IllegalMove as error:
        if error.action is None:
            error.action = action
        raise
    if isinstance(action, (Commit, Pass, Keep)):
        return _settle(new_state)  # these never change a temple, a score or the room in play
    return _settle(_check_end(new_state, player, placed=isinstance(action, PlaceTile)))


def _require_phase(state: State, action, *phases: str) -> None:
    if state.phase not in phases:
        what = type(action).__name__
        raise IllegalMove(f"{what} is not possible now: the game is in {state.phase}, "
                          f"and {what} belongs to {' or '.join(phases)}")


def _do_commit(state: State, action: Commit) -> State:
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
    symbols = {_card(state, c).symbol for c in cards}
    if len(symbols) > 1:
        raise IllegalMove(f"committed cards must share one symbol, these have {', '.join(sorted(symbols))}")
    if list(cards) != sorted(cards):
        raise IllegalMove("list the committed cards in sorted order")
    state = _set_player(_remove_from_hand(state, player, cards), player, committed=cards)
    state = _log(state, f"{seat_name(player)} commits {len(cards)} card(s) face down.")
    state = _log(state, f"You commit {', '.join(cards) or 'nothing'}.", audience=player)
    if player == state.guide:
        return replace(state, to_act=1 - player)
    return _reveal_commitments(state)


def _reveal_commitments(state: State) -> State:
    """Both commitments turn up; sticks are taken, guide first, and thrown (spec 5.3)."""
    available = {letter: sorted(s for s in state.supply if s[0] == letter) for letter in "BWG"}
    queue = []
    for player in (state.guide, 1 - state.guide):
        cards = [_card(state, c) for c in state.players[player].committed]
        state = _log(state, f"{seat_name(player)} reveals {', '.join(str(c) for c in cards) or 'no card'}.")
        wanted = "".join(c.sticks for c in cards)
        taken = []
        for letter in "BWG":
            need = wanted.count(letter)
            taken += available[letter][:need]
            if need > len(available[letter]):
                state = _log(state, f"Only {len(available[letter])} {STICK_LETTERS[letter].lower()} stick(s) are left "
                             f"for {seat_name(player)}: the missing ones are not thrown.")
            available[letter] = available[letter][need:]
        state = _set_player(state, player, sticks=tuple(Stick(s, STICK_LETTERS[s[0]]) for s in taken))
        queue += _throw_tasks(player, taken)
    supply = tuple(sorted(available["B"] + available["W"] + available["G"]))
    return replace(state, supply=supply, queue=state.queue + tuple(queue), phase="CONFRONTATION",
                   to_act=state.guide, pass_streak=0)


def _check_naga(state: State, action: UseNaga) -> State:
    """Validate a UseNaga and return the state after the Naga is spent."""
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
    effect = _card(state, action.card).effect
    if not _effect_possible(after, player, effect):
        raise IllegalMove(f"{effect} cannot be activated now: {_why_impossible(effect)}")
    if action.params not in _effect_options(after, player, effect):
        raise IllegalMove(_bad_params_reason(after, player, effect, action.params))
    return after


def _why_impossible(effect: str) -> str:
    return {
        "OPP_DISCARD": "the opponent has no card in hand", "STEAL": "the opponent has no card in hand",
        "RETHROW2": "nobody has a stick to throw again", "DISCARD2": "the opponent has no stick",
        "PEEK": "no relic of your temple is face down", "PEEK2_SWAP": "fewer than 2 relics of your temple are face down",
        "ROTATE": "no temple has a room tile", "MOVE_SWAP": "no room can be moved or swapped",
    }.get(effect, "it has no legal target")


def _bad_params_reason(state: State, player: int, effect: str, params) -> str:
    expected = {
        "PLUS2": "NoParams()", "DRAW2": "NoParams()", "OPP_DISCARD": "NoParams()", "STEAL": "NoParams()",
        "RETHROW2": "Sticks(target, 1 or 2 current stick ids of that player)",
        "DISCARD2": f"Sticks({1 - player}, min(2, n) of the opponent's current stick ids)",
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
        if list(params.stick_ids) != sorted(params.stick_ids, key=_stick_order):
            return f"{effect}: list the sticks in order (sticks of one colour and face are interchangeable: use the lowest ids)"
    if isinstance(params, (Spot, SpotPair)) and effect in ("PEEK", "PEEK2_SWAP"):
        spots = [params.spot] if isinstance(params, Spot) else [params.a, params.b]
        for spot in spots:
            if spot in RELIC_SPOTS and spot not in _face_down_own(state, player):
                return f"{effect}: the relic at {spot} is already face up"
    return f"{effect} needs {expected}; {params!r} is not a legal choice here"


def _do_use_naga(state: State, action: UseNaga) -> State:
    after = _check_naga(state, action)
    player, effect = action.player, _card(state, action.card).effect
    state = _remove_from_hand(after, player, [action.card])
    me = state.players[player]
    state = _set_player(state, player, activated=me.activated + (action.card,))
    state = _log(state, f"{action}.")
    state = _apply_effect(state, player, effect, action.params)
    state = replace(state, pass_streak=0)
    if state.pending_swap is None:
        state = replace(state, to_act=1 - player)
    return state


def _apply_effect(state: State, player: int, effect: str, params) -> State:
    opponent = 1 - player
    if effect == "PLUS2":
        return _set_player(state, player, modifier=state.players[player].modifier + 2)
    if effect == "RETHROW2":
        return _rethrow(state, params.target, params.stick_ids)
    if effect == "DISCARD2":
        return _log(_return_sticks(state, opponent, params.stick_ids), f"{seat_name(opponent)} loses {', '.join(params.stick_ids)}.")
    if effect == "PEEK":
        return _peek(state, player, [params.spot])
    if effect == "SWAP":
        temple = state.players[params.temple].temple
        return _update_temple(state, params.temple, temple.swap_relics(params.a, params.b))
    if effect == "PEEK2_SWAP":
        state = _peek(state, player, [params.a, params.b])
        return replace(state, pending_swap=(player, params.a, params.b))
    if effect == "ROTATE":
        return _update_temple(state, params.temple, state.players[params.temple].temple.rotate(params.cell, params.k))
    if effect == "MOVE_SWAP":
        temple = state.players[params.temple].temple
        changed = temple.move(params.origin, params.destination) if isinstance(params, Move) else temple.swap_cells(params.a, params.b)
        return _update_temple(state, params.temple, changed)
    if effect == "TRAP":
        return _put_trap(state, opponent, params.cell)
    if effect == "DRAW2":
        return replace(state, queue=state.queue + (Task("DRAW", player, "HAND"),) * 2)
    if effect in ("OPP_DISCARD", "STEAL"):
        return replace(state, queue=state.queue + (Task("HAND_CARD", opponent, effect),))
    raise AssertionError(f"unknown effect {effect}")


def _rethrow(state: State, target: int, stick_ids) -> State:
    chosen = set(stick_ids)
    sticks = tuple(Stick(s.id, s.colour) if s.id in chosen else s for s in state.players[target].sticks)
    state = _set_player(state, target, sticks=sticks)
    return replace(state, queue=state.queue + tuple(_throw_tasks(target, chosen)))


def _throw_tasks(player: int, stick_ids) -> list:
    """One chance event per colour: the sticks of one colour are thrown together."""
    ids = sorted(stick_ids, key=_stick_order)
    return [Task("STICKS", player, " ".join(i for i in ids if i[0] == letter)) for letter in "BWG"
            if any(i[0] == letter for i in ids)]


def _peek(state: State, player: int, spots) -> State:
    temple = state.players[player].temple
    me = state.players[player]
    state = _set_player(state, player, knowledge=me.knowledge | {(player, temple.relic_at(s)) for s in spots})
    state = _log(state, f"{seat_name(player)} peeks at {' and '.join(spots)}.")
    seen = "; ".join(f"{s} holds {_relic(state, temple.relic_at(s))}" for s in spots)
    return _log(state, f"You see: {seen}.", audience=player)


def _put_trap(state: State, owner: int, cell) -> State:
    """ROM TRAP: lift the trap from wherever it is; a displaced room goes under the pile (spec 3.4)."""
    for p in (0, 1):
        if p != owner and state.players[p].temple.trap_cell is not None:
            state = _update_temple(state, p, state.players[p].temple.without_trap())
    temple, displaced = state.players[owner].temple.put_trap(cell)
    if isinstance(displaced, PlacedTile):
        state = replace(state, room_bottom=state.room_bottom + (displaced.tile_id,))
        state = _log(state, f"The room {displaced.tile_id} goes to the bottom of the room pile.")
        if displaced.amulet is not None:
            state = replace(state, out_of_game=state.out_of_game + (displaced.amulet,))
            state = _log(state, "The uncollected amulet on it leaves the game.")
    state = _log(state, f"The trap is now at {tuple(cell)} in {seat_name(owner)}'s temple.")
    return _update_temple(state, owner, temple)


_AMULET_PARAMS = {"AM_PEEK": "Spot(a face-down spot of your temple)",
                  "AM_RETHROW1": "Sticks(you, (one of your current sticks, lowest id of its colour and face))"}


def _do_use_amulet(state: State, action: UseAmulet) -> State:
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
    state = _set_player(state, player, amulets=tuple(amulets))
    state = replace(state, out_of_game=state.out_of_game + (action.amulet,))
    state = _log(state, f"{seat_name(player)} shows and uses amulet {action.amulet} ({effect}).")
    if effect == "AM_PLUS2":
        state = _set_player(state, player, modifier=state.players[player].modifier + 2)
    elif effect == "AM_NAGA":
        state = _set_player(state, player, virtual_nagas=state.players[player].virtual_nagas + 1)
    elif effect == "AM_RETHROW1":
        state = _rethrow(state, player, action.params.stick_ids)
    else:
        state = _peek(state, player, [action.params.spot])
    if state.phase == "CONFRONTATION":
        state = replace(state, pass_streak=0)
    return state


def _do_swap_choice(state: State, action: SwapChoice) -> State:
    if state.pending_swap is None:
        raise IllegalMove("there is no pending PEEK2_SWAP decision")
    if not isinstance(action.swap, bool):
        raise IllegalMove("SwapChoice takes swap=True or swap=False")
    player, a, b = state.pending_swap
    state = replace(state, pending_swap=None, to_act=1 - player, pass_streak=0)
    state = _log(state, f"{action}.")
    if action.swap:
        state = _update_temple(state, player, state.players[player].temple.swap_relics(a, b))
    return state


def _do_pass(state: State, action: Pass) -> State:
    _require_phase(state, action, "CONFRONTATION")
    if state.pending_swap is not None:
        raise IllegalMove("first decide whether to swap the two peeked relics")
    return _log(replace(state, pass_streak=state.pass_streak + 1, to_act=1 - action.player), f"{action}.")


def _confrontation_step(state: State) -> State | None:
    """End the Confrontation, pass for a player with nothing to do, or wait (spec 5.4)."""
    if state.pending_swap is not None:
        return None
    if state.pass_streak >= 2:
        return _resolve_room(state)
    player = state.to_act
    if has_non_pass_action(state, player):
        return None
    if not has_non_pass_action(state, 1 - player):
        return _resolve_room(state)
    state = replace(state, pass_streak=state.pass_streak + 1, to_act=1 - player)
    return _log(state, f"{seat_name(player)} passes (nothing to use).")


def _resolve_room(state: State) -> State:
    """RESOLVE: higher total wins the room, the guide wins ties; clean up the round (spec 5.5)."""
    totals = (state.total(0), state.total(1))
    guide = state.guide
    winner = guide if totals[guide] >= totals[1 - guide] else 1 - guide
    state = _log(state, f"Totals: P0 {totals[0]}, P1 {totals[1]}. {seat_name(winner)} wins the room"
                 + (" (the guide wins ties)." if totals[0] == totals[1] else "."))
    discards = []
    for p in (guide, 1 - guide):
        me = state.players[p]
        discards += list(me.committed or ()) + list(me.activated)
        state = _return_sticks(state, p, [s.id for s in me.sticks])
        state = _set_player(state, p, committed=(), activated=(), modifier=0, virtual_nagas=0)
    return replace(state, discard_pile=state.discard_pile + tuple(discards), phase="EXPLORATION", to_act=winner,
                   room_winner=winner, pass_streak=0)


def _do_place(state: State, action: PlaceTile) -> State:
    _require_phase(state, action, "EXPLORATION")
    temple = state.players[action.player].temple
    if not temple.legal_cells():
        raise IllegalMove("the temple is full: the room must be discarded (DiscardTile)")
    cell = tuple(action.cell) if isinstance(action.cell, (tuple, list)) else action.cell
    placed = temple.place(cell, state.current_room, action.rotation, state.room_amulet)
    state = replace(state, current_room=None, room_amulet=None)
    state = _log(state, f"{action}.")
    return _update_temple(state, action.player, placed)


def _do_discard_tile(state: State, action: DiscardTile) -> State:
    _require_phase(state, action, "EXPLORATION")
    if state.players[action.player].temple.legal_cells():
        raise IllegalMove("the room must be placed: there is still a legal cell")
    lost = (state.current_room,) + ((state.room_amulet,) if state.room_amulet else ())
    state = replace(state, current_room=None, room_amulet=None, out_of_game=state.out_of_game + lost)
    return _log(state, f"{action}.")


def _start_new_deal(state: State) -> State:
    """NEW_DEAL: the room's loser becomes guide and draws 3 (spec 5.7)."""
    if not state.room_pile and not state.room_bottom:
        return state  # the end check has already fired (rooms exhausted)
    guide = 1 - state.room_winner
    state = replace(state, phase="NEW_DEAL", guide=guide, to_act=guide, deal=())
    state = _log(state, f"{seat_name(guide)} becomes the guide and draws {state.rules.deal_draw} cards.")
    return replace(state, queue=state.queue + (Task("DRAW", guide, "DEAL"),) * state.rules.deal_draw)


def _do_keep(state: State, action: Keep) -> State:
    _require_phase(state, action, "NEW_DEAL")
    if not state.deal:
        raise IllegalMove("there are no drawn cards to keep")
    keep = min(state.rules.deal_keep, len(state.deal))
    cards = tuple(action.cards) if isinstance(action.cards, (tuple, list)) else ()
    if len(cards) != keep or len(set(cards)) != keep or any(c not in state.deal for c in cards):
        raise IllegalMove(f"keep exactly {keep} of the drawn cards {', '.join(state.deal)}")
    if list(cards) != sorted(cards):
        raise IllegalMove("list the kept cards in sorted order")
    player, opponent = action.player, 1 - action.player
    for card in cards:
        state = _add_to_hand(state, player, card)
    given = [c for c in state.deal if c not in cards]
    for card in given:
        state = _add_to_hand(state, opponent, card, public=True)
    state = replace(state, deal=None)
    state = _log(state, f"{seat_name(player)} keeps {len(cards)} card(s) and gives {', '.join(given) or 'nothing'} to {seat_name(opponent)}.")
    return _reveal_room(state)


_HANDLERS = {
    Commit: _do_commit, UseNaga: _do_use_naga, UseAmulet: _do_use_amulet, SwapChoice: _do_swap_choice,
    Pass: _do_pass, PlaceTile: _do_place, DiscardTile: _do_discard_tile, Keep: _do_keep,
}


# =========================================================================== end of game


def cursed_face_up(state: State, player: int) -> int:
    temple = state.players[player].temple
    return sum(_relic(state, temple.relic_at(s)).cursed for s in temple.face_up_spots())


def _cursed_total(state: State) -> int:
    return sum(r.cursed for r in state.edition.relics)


def _check_end(state: State, actor: int, placed: bool) -> State:
    """The end conditions of spec 5.8, in order, then (after Exploration) the new deal."""
    scores = (state.score(0), state.score(1))
    cursed = [p for p in (0, 1) if cursed_face_up(state, p) >= _cursed_total(state)]
    if cursed:
        loser = actor if len(cursed) == 2 else cursed[0]
        return _finish(state, 1 - loser, "CURSED_LOSS", scores)
    reached = [p for p in (0, 1) if scores[p] >= state.rules.win_score]
    if reached:
        return _finish(state, actor if len(reached) == 2 else reached[0], "REACHED_25", scores)
    if placed and state.players[actor].temple.is_full:
        winner = actor if scores[actor] >= scores[1 - actor] else 1 - actor
        return _finish(state, winner, "NINTH_TILE", scores)
    if state.phase == "EXPLORATION" and state.current_room is None:
        if not state.room_pile and not state.room_bottom:
            winner = state.room_winner if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
            return _finish(state, winner, "ROOMS_EXHAUSTED", scores)
        return _start_new_deal(state)
    return state


def _finish(state: State, winner: int, reason: str, scores: tuple) -> State:
    state = replace(state, result=Result(winner, reason, scores), phase="GAME_OVER", to_act=None, queue=(), pending_swap=None)
    return _log(state, f"Game over: {describe_result(state)}.")


# =========================================================================== invariants


def check_invariants(state: State) -> None:
    """Raise AssertionError unless cards, relics and sticks are conserved (spec 5.1)."""
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


# =========================================================================== observation


def _relic_view(state: State, viewer: int, owner: int, spot: str) -> dict:
    temple = state.players[owner].temple
    relic_id = temple.relic_at(spot)
    up = temple.face_up(spot)
    known = up or (owner, relic_id) in state.players[viewer].knowledge
    relic = _relic(state, relic_id) if known and relic_id else None
    return {"face_up": up, "known": bool(known), "vp": relic.vp if relic else None,
            "cursed": relic.cursed if relic else None}


def _temple_view(state: State, viewer: int, owner: int) -> dict:
    temple = state.players[owner].temple
    cells = []
    for cell in CELLS:
        content = temple.cell(cell)
        if isinstance(content, PlacedTile):
            tile = state.edition.tiles[content.tile_id]
            content = {"tile": content.tile_id, "shape": tile.shape, "rotation": content.rotation,
                       "segments": temple.open_segments(cell), "special": tile.special,
                       "amulet": content.amulet is not None}
        cells.append({"cell": list(cell), "content": content})
    return {
        "cells": cells,
        "relics": {spot: _relic_view(state, viewer, owner, spot) for spot in RELIC_SPOTS},
        "connected_spots": sorted(temple.connected_spots()),
        "connected_nodes": sorted([r, c, seg] for (r, c), seg in temple.connected_nodes()),
        "legal_cells": [list(cell) for cell in temple.legal_cells()],
    }


def _observation(state: State, viewer: int) -> dict:
    if viewer not in (0, 1):
        raise ValueError(f"players are 0 and 1, not {viewer!r}")
    cards = state.edition.cards
    revealed = state.phase != "CALL_OF_FATE"
    seats = []
    for p, me in enumerate(state.players):
        own = p == viewer
        committed = me.committed
        show_commit = committed is not None and (own or revealed)
        seats.append({
            "temple": _temple_view(state, viewer, p),
            "hand": [cards[c].to_dict() for c in me.hand] if own else None,
            "hand_size": len(me.hand),
            "known_hand": [cards[c].to_dict() for c in me.hand if own or c in me.public_hand],
            "committed": [cards[c].to_dict() for c in committed] if show_commit else None,
            "committed_count": len(committed) if committed is not None else 0,
            "has_committed": committed is not None,
            "activated": [cards[c].to_dict() for c in me.activated],
            "sticks": [{"id": s.id, "colour": s.colour, "points": s.points, "naga": None if s.naga is None else bool(s.naga)}
                       for s in me.sticks],
            "modifier": me.modifier,
            "virtual_nagas": me.virtual_nagas,
            "total": state.total(p),
            "amulets": [state.edition.amulets[a].to_dict() for a in me.amulets] if own else None,
            "amulet_count": len(me.amulets),
            "score": state.score(p) if own or state.result is not None else None,
            "visible_score": state.visible_score(p),
        })
    room = None
    if state.current_room is not None:
        tile = state.edition.tiles[state.current_room]
        room = {"tile": tile.id, "shape": tile.shape, "segments": list(tile.segments), "special": tile.special,
                "amulet": state.room_amulet is not None}
    deal = None
    if state.deal is not None and viewer == state.guide:
        deal = [cards[c].to_dict() for c in state.deal]
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
        "current_room": room,
        "room_pile": len(state.room_pile) + len(state.room_bottom),
        "draw_pile": len(state.draw_pile),
        "amulet_pile": len(state.amulet_pile),
        "discard_pile": list(state.discard_pile),
        "deal": deal,
        "pending_swap": {"temple": pending[0], "a": pending[1], "b": pending[2]} if pending else None,
        "room_winner": state.room_winner,
        "events": state.events(viewer)[-12:],
        "result": state.result.to_dict() if state.result else None,
        "players": seats,
    }


# =========================================================================== saving


def _temple_to_dict(temple: Temple) -> dict:
    cells = [c if c is None or c == TRAP else [c.tile_id, c.rotation, c.amulet] for c in temple.cells]
    return {"cells": cells, "relics": list(temple.relics)}


def _to_dict(state: State) -> dict:
    players = []
    for p in state.players:
        players.append({
            "temple": _temple_to_dict(p.temple), "hand": list(p.hand), "amulets": list(p.amulets),
            "sticks": [list(s) for s in p.sticks], "committed": None if p.committed is None else list(p.committed),
            "activated": list(p.activated), "modifier": p.modifier, "virtual_nagas": p.virtual_nagas,
            "knowledge": sorted([o, r] for o, r in p.knowledge), "public_hand": sorted(p.public_hand),
        })
    plain = {name: getattr(state, name) for name in (
        "phase", "to_act", "guide", "round", "draw_pile", "discard_pile", "room_pile", "room_bottom", "current_room",
        "room_amulet", "amulet_pile", "supply", "out_of_game", "pass_streak", "deal", "pending_swap",
        "first_guide", "first_guide_ties", "room_winner", "seed", "draws", "explicit_chance")}
    return {
        "game": "nagaraja", "version": 1, "edition": state.edition.source, "rules": asdict(state.rules),
        "players": players, "queue": [list(t) for t in state.queue], "log": [list(e) for e in state.log],
        "result": state.result.to_dict() if state.result else None, **plain,
    }


_STATE_FIELDS = ("game", "edition", "rules", "players", "queue", "log", "result", "phase", "to_act", "guide", "round",
                 "draw_pile", "discard_pile", "room_pile", "room_bottom", "current_room", "room_amulet", "amulet_pile",
                 "supply", "out_of_game", "pass_streak", "deal", "pending_swap", "first_guide", "first_guide_ties",
                 "room_winner", "seed", "draws", "explicit_chance")


def _tuple(value, what: str) -> tuple:
    if not isinstance(value, list):
        raise CorruptSave(f"this Nagaraja save is damaged: {what} should be a list")
    return tuple(value)


def _from_dict(data: dict) -> State:
    require_fields(data, _STATE_FIELDS, "Nagaraja save")
    if data["game"] != "nagaraja":
        raise CorruptSave(f"this save is for {data['game']!r}, not Nagaraja")
    try:
        edition = edition_from_source(data["edition"])
    except (EditionError, AttributeError, TypeError) as error:
        raise CorruptSave(f"this Nagaraja save has a bad edition: {error}") from None
    try:
        state = _build_state(data, edition)
    except CorruptSave:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise CorruptSave(f"this Nagaraja save is damaged ({type(error).__name__}: {error})") from None
    _check_loaded(state)
    return state


def _build_state(data: dict, edition: Edition) -> State:
    rules = Rules(**data["rules"])
    players = []
    if not isinstance(data["players"], list) or len(data["players"]) != 2:
        raise CorruptSave("this Nagaraja save is damaged: it needs exactly 2 players")
    for raw in data["players"]:
        cells = tuple(None if c is None else TRAP if c == TRAP else PlacedTile(str(c[0]), int(c[1]), c[2])
                      for c in _tuple(raw["temple"]["cells"], "a temple's cells"))
        relics = _tuple(raw["temple"]["relics"], "a temple's relics")
        if len(cells) != 9 or len(relics) != 9:
            raise CorruptSave("this Nagaraja save is damaged: a temple has 9 cells and 9 relic spots")
        for c in cells:
            if isinstance(c, PlacedTile) and (c.tile_id not in edition.tiles or c.rotation not in range(4)):
                raise CorruptSave(f"this Nagaraja save is damaged: unknown room {c.tile_id} or rotation {c.rotation}")
        players.append(Player(
            temple=Temple(edition.tiles, cells, relics), hand=_tuple(raw["hand"], "a hand"),
            amulets=_tuple(raw["amulets"], "amulets"), sticks=tuple(Stick(*s) for s in raw["sticks"]),
            committed=None if raw["committed"] is None else _tuple(raw["committed"], "committed cards"),
            activated=_tuple(raw["activated"], "activated cards"), modifier=int(raw["modifier"]),
            virtual_nagas=int(raw["virtual_nagas"]), knowledge=frozenset((int(o), r) for o, r in raw["knowledge"]),
            public_hand=frozenset(raw["public_hand"]),
        ))
    result = data["result"]
    return State(
        edition=edition, rules=rules, players=tuple(players), phase=data["phase"], to_act=data["to_act"],
        guide=data["guide"], round=data["round"], draw_pile=_tuple(data["draw_pile"], "the draw pile"),
        discard_pile=_tuple(data["discard_pile"], "the discard pile"), room_pile=_tuple(data["room_pile"], "the room pile"),
        room_bottom=_tuple(data["room_bottom"], "room_bottom"), current_room=data["current_room"],
        room_amulet=data["room_amulet"], amulet_pile=_tuple(data["amulet_pile"], "the amulet pile"),
        supply=_tuple(data["supply"], "the stick supply"), out_of_game=_tuple(data["out_of_game"], "out_of_game"),
        pass_streak=data["pass_streak"], queue=tuple(Task(*t) for t in data["queue"]),
        deal=None if data["deal"] is None else _tuple(data["deal"], "the deal"),
        pending_swap=None if data["pending_swap"] is None else tuple(data["pending_swap"]),
        first_guide=tuple(tuple(t) for t in data["first_guide"]), first_guide_ties=data["first_guide_ties"],
        room_winner=data["room_winner"], seed=data["seed"], draws=data["draws"],
        explicit_chance=bool(data["explicit_chance"]), log=tuple(Event(int(a), str(t)) for a, t in data["log"]),
        result=None if result is None else Result(result["winner"], result["reason"], tuple(result["scores"])),
    )


def _check_loaded(state: State) -> None:
    if state.phase not in PHASES:
        raise CorruptSave(f"this Nagaraja save has an unknown phase {state.phase!r}")
    if state.to_act not in (0, 1, None) or state.guide not in (0, 1):
        raise CorruptSave("this Nagaraja save has a bad seat number (players are 0 and 1)")
    if state.result is not None and state.result.reason not in REASONS:
        raise CorruptSave(f"this Nagaraja save has an unknown end reason {state.result.reason!r}")
    if state.current_room is not None and state.current_room not in state.edition.tiles:
        raise CorruptSave(f"this Nagaraja save names an unknown room {state.current_room!r}")
    for task in state.queue:
        if task.kind not in ("RELIC", "FIRST_GUIDE", "GUIDE_PICK", "DRAW", "ROOM", "AMULET", "STICKS", "HAND_CARD"):
            raise CorruptSave(f"this Nagaraja save has an unknown chance event {task.kind!r}")
    try:
        check_invariants(state)
    except AssertionError as error:
        raise CorruptSave(f"this Nagaraja save does not add up: {error}") from None
    for p in state.players:
        unknown = [a for a in p.amulets if a not in state.edition.amulets]
        if unknown:
            raise CorruptSave(f"this Nagaraja save names an unknown amulet {unknown[0]!r}")


# =========================================================================== text view


def _text(state: State) -> str:
    relics = state.edition.relic_by_id
    lines = [f"Nagaraja -- {state.edition.describe()}",
             f"Round {state.round}, phase {state.phase}, guide {seat_name(state.guide)}, "
             + (describe_result(state) if state.result else
                "chance to resolve" if state.queue else f"{seat_name(state.to_act)} to act")]
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

        lines.append(f"{seat_name(p)}: score {state.score(p)}, hand {', '.join(me.hand) or '-'}, "
                     f"amulets {', '.join(me.amulets) or '-'}, sticks {' '.join(str(s) for s in me.sticks) or '-'}, "
                     f"total {state.total(p)}")
        lines += ["  " + row for row in temple.rows(relic_text)]
    lines.append("(relics: C = cursed, S = sacred; lower case = face down)")
    lines += ["Last events:"] + [f"  {e.text}" for e in state.log[-6:]]
    return "\n".join(lines)
