"""Chance in Nagaraja: a queue of small tasks, each one chance node with a few exact outcomes.

A task places a relic, throws the sticks of one colour, draws a card, turns up a room, ...
Drawing uniformly from an unordered pile is the same as drawing the top card of a shuffled
one, so ``chance_outcomes()`` stays short and exact although a shuffle of 48 cards is not.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, combinations_with_replacement, repeat
from math import factorial
from typing import NamedTuple

from gamelib.core import weighted_draw
from gamelib.nagaraja.cards import STICK_LETTERS
from gamelib.nagaraja.position import (
    PUBLIC,
    SEAT_NAMES,
    Stick,
    add_to_hand,
    card_of,
    changed_seat,
    log,
    logged,
    remove_from_hand,
    replace,
    seat_name,
    stick_order,
    with_player,
)
from gamelib.nagaraja.temple import RELIC_SPOTS

TASK_KINDS = ("RELIC", "FIRST_GUIDE", "GUIDE_PICK", "DRAW", "ROOM", "AMULET", "STICKS", "HAND_CARD")


class Task(NamedTuple):
    """One pending chance event: kind, the player concerned, and a detail."""

    kind: str  # one of TASK_KINDS
    player: int | None = None
    detail: str | None = None


def task_text(task: Task) -> str:
    texts = {
        "RELIC": "hide a relic",
        "FIRST_GUIDE": "throw 2 brown sticks for first guide",
        "GUIDE_PICK": "pick the guide",
        "DRAW": "draw a card",
        "ROOM": "turn up a room",
        "AMULET": "put an amulet on the room",
        "STICKS": "throw fate sticks of one colour",
        "HAND_CARD": "pick a random card from a hand",
    }
    who = f" for {seat_name(task.player)}" if task.player is not None else ""
    return texts[task.kind] + who


def throw_tasks(player: int, stick_ids) -> list:
    """One chance event per colour: the sticks of one colour are thrown together."""
    return list(_throw_tasks(player, tuple(stick_ids)))


@lru_cache(maxsize=4096)
def _throw_tasks(player: int, stick_ids: tuple) -> tuple:
    ids = sorted(stick_ids, key=stick_order)
    return tuple(
        Task("STICKS", player, " ".join(i for i in ids if i[0] == letter))
        for letter in "BWG"
        if any(i[0] == letter for i in ids)
    )


# --------------------------------------------------------------------------- outcomes


def chance_outcomes(state) -> tuple:
    """The next chance event's ``(outcome, probability)`` pairs, each probability an exact ``Fraction``:
    ``chance_weights`` divided by their total. ``State.chance_outcomes`` keeps them on the state.

    An explicit-chance game lists about 160 chance events; the probabilities of equally likely outcomes
    (one ``Fraction(1, n)`` for all of them) and of a throw (its table) are made once per size and table,
    not once per outcome."""
    kind, player, detail = state.queue[0]
    if kind == "STICKS":  # the same few details recur: their listings are kept on the edition
        memo = state.edition.memo
        found = memo.get(("outcomes of", detail))
        if found is None:
            faces = tuple(state.edition.faces[STICK_LETTERS[detail[0]]])
            found = memo["outcomes of", detail] = _throw_outcomes(faces, len(detail.split()))
        return found
    if kind == "FIRST_GUIDE":
        return _throw_outcomes(tuple(state.edition.faces["BROWN"]), int(detail))
    if kind == "DRAW":  # the other kinds draw one of equally likely outcomes: chance_weights, all 1
        return _equally_likely(state.draw_pile)
    if kind == "ROOM":
        return _equally_likely(state.room_pile or (state.room_bottom[0],))
    if kind == "AMULET":
        return _equally_likely(state.amulet_pile)
    if kind == "HAND_CARD":
        return _equally_likely(state.players[player].hand)
    return _equally_likely([outcome for outcome, _ in chance_weights(state)])


def _equally_likely(outcomes) -> tuple:
    """Each of ``outcomes`` with the same probability."""
    if not outcomes:
        return ()
    return tuple(zip(outcomes, repeat(_one_in(len(outcomes)))))  # the pairs built in C


@lru_cache(maxsize=64)
def _one_in(count: int) -> Fraction:
    """``Fraction(1, count)``, shared by every draw among ``count`` equally likely outcomes."""
    return Fraction(1, count)


def _exact(weights) -> tuple:
    """``(outcome, weight)`` pairs as ``(outcome, probability)`` pairs."""
    total = sum(weight for _, weight in weights)
    return tuple([(outcome, Fraction(weight, total)) for outcome, weight in weights])


@lru_cache(maxsize=1024)
def _throw_outcomes(faces: tuple, count: int) -> tuple:
    """``chance_outcomes`` of a throw of ``count`` sticks with these ``faces`` (``throw_weights``),
    an immutable tuple of immutable pairs, shared by every such throw."""
    return _exact(throw_weights(faces, count))


def chance_weights(state) -> list:
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
        return [(card_id, 1) for card_id in state.draw_pile]
    if kind == "ROOM":
        if state.room_pile:
            return [(tile, 1) for tile in state.room_pile]
        return [(state.room_bottom[0], 1)]
    if kind == "AMULET":
        return [(amulet, 1) for amulet in state.amulet_pile]
    if kind == "HAND_CARD":
        return [(card_id, 1) for card_id in state.players[task.player].hand]
    raise AssertionError(f"unknown chance task {kind}")


def _same(given, outcome) -> bool:
    """Equal and of the same types all the way down (``1.0`` and ``True`` are not the face ``1``);
    a list stands for a tuple, as JSON writes tuples as lists."""
    if isinstance(outcome, tuple):
        return (
            isinstance(given, (tuple, list))
            and len(given) == len(outcome)
            and all(_same(g, o) for g, o in zip(given, outcome))
        )
    return type(given) is type(outcome) and given == outcome


def matching_outcome(state, given):
    """The possible outcome of the next chance event that ``given`` names, or None.

    When the position's outcomes were listed already (``State.chance_outcomes``, which keeps them on
    the state, as a driver draws from them), an outcome drawn from that list is found in it first, by
    identity (an object is the same as itself all the way down: the test ``_same`` makes, passed); any
    other ``given`` is compared with each outcome by ``_same``."""
    listed = getattr(state, "chance_listed", None)
    if listed is not None:
        for outcome, _ in listed:
            if outcome is given:
                return outcome
        outcomes = [outcome for outcome, _ in listed]
    else:
        outcomes = [outcome for outcome, _ in chance_weights(state)]
    for outcome in outcomes:
        if _same(given, outcome):
            return outcome
    return None


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


@lru_cache(maxsize=1024)
def _throw_table(faces: tuple, count: int) -> tuple[tuple, tuple]:
    """``throw_weights`` as its outcomes and their running totals of weight, for sampling without
    rebuilding lists: ``weighted_draw`` walks the weights until the ticket falls below one, which
    is the first running total above the ticket (``bisect_right``)."""
    table = throw_weights(faces, count)
    return tuple(outcome for outcome, _ in table), tuple(accumulate(weight for _, weight in table))


def _edition_throw_table(edition, colour: str, count: int) -> tuple[tuple, tuple]:
    """``_throw_table`` of an edition's sticks, kept on the edition (its faces never change)."""
    key = ("throw table", colour, count)
    found = edition.memo.get(key)
    if found is None:
        found = edition.memo[key] = _throw_table(tuple(edition.faces[colour]), count)
    return found


def sample(state, rng):
    """Draw the next chance outcome with exact integer weights. Equal weights draw an index
    (``weighted_draw`` of equal weights takes the same ``rng.randrange`` and gives the same outcome).

    ``rng._randbelow(n)`` is what ``rng.randrange(n)`` returns for a whole ``n > 0`` (``random.py``:
    the same draw), without the checks of its arguments: every pile and table here is non-empty."""
    kind, player, detail = state.queue[0]
    if kind == "STICKS" or kind == "FIRST_GUIDE":  # the hot case: cached tables, same draw as below
        if kind == "STICKS":
            colour, count = STICK_LETTERS[detail[0]], len(detail.split())
        else:
            colour, count = "BROWN", int(detail)
        outcomes, totals = _edition_throw_table(state.edition, colour, count)
        return outcomes[bisect_right(totals, rng._randbelow(totals[-1]))]  # weighted_draw(weights, rng)
    if kind == "DRAW" or kind == "AMULET" or kind == "HAND_CARD":  # a uniform draw from a pile: pick an index
        pile = (
            state.draw_pile if kind == "DRAW" else state.amulet_pile if kind == "AMULET" else state.players[player].hand
        )
        return pile[rng._randbelow(len(pile))]
    if kind == "RELIC":  # equally likely too: the relics not yet hidden in this temple
        placed = state.players[player].temple.relics
        left = [relic_id for relic_id in state.edition.relic_ids if relic_id not in placed]
        return left[rng._randbelow(len(left))]
    if kind == "ROOM":
        pile = state.room_pile or state.room_bottom[:1]
        return pile[rng._randbelow(len(pile))]
    table = chance_weights(state)
    return table[weighted_draw([w for _, w in table], rng)][0]


# --------------------------------------------------------------------------- the generator of a batch

# --------------------------------------------------------------------------- resolving


MAY_NOT_HAPPEN = frozenset({"DRAW", "AMULET", "HAND_CARD"})  # the tasks prepare_queue may drop or prepare


def prepare_queue(state):
    """Drop or prepare chance tasks that cannot happen as such (empty piles, empty hands)."""
    while state.queue:
        task = state.queue[0]
        if task.kind == "DRAW" and not state.draw_pile:
            if state.discard_pile:
                state = replace(state, draw_pile=tuple(sorted(state.discard_pile)), discard_pile=())
                state = log(state, "The draw pile is empty: the discard pile is shuffled into a new draw pile.")
                continue
            state = log(
                replace(state, queue=state.queue[1:]), f"{seat_name(task.player)} cannot draw: no cards are left."
            )
            continue
        if task.kind == "AMULET" and not state.amulet_pile:
            state = log(replace(state, queue=state.queue[1:]), "No amulet is left for the special location.")
            continue
        if task.kind == "HAND_CARD" and not state.players[task.player].hand:
            state = replace(state, queue=state.queue[1:])
            continue
        break
    return state


def resolve(state, task: Task, outcome, **changes):
    """Apply one chance outcome (the task is already off the queue, or ``changes`` takes it off:
    the fields ``changes`` are replaced in the first copy of the state the outcome makes)."""
    return _RESOLVERS[task[0]](state, task, outcome, changes)


def drawn(state, task: Task, rng, changes: dict):
    """``resolve(state, task, sample(state, rng), **changes)``: the same draw and the same position, by
    one function per kind that draws and applies together (a random game resolves about 150 events)."""
    if task[0] == "RELIC":
        return _relic_drawn(state, task, rng, changes)
    return RUN_DRAWN[task[0]](state, (task,), rng, changes)


def drawn_run(state, queue: tuple, rng, changes: dict):
    """``drawn(state, queue[0], rng, changes)`` (``changes["queue"]`` is ``queue[1:]``), or for a run of
    tasks at the front of the queue, the whole run drawn in order and applied at once: RELIC tasks of one
    seat (a new game hides 9 relics in each temple) installed in one temple, STICKS tasks (a Call of Fate
    throws every colour of both seats) in one edit of each seat, DRAW tasks while the pile holds cards (a
    new deal draws 3) in one edit of the pile, the deal and the hands. The same draws and the same
    position as one ``drawn`` per task. ``effects.finish_turn`` calls ``RUN_DRAWN[queue[0].kind]`` itself."""
    return RUN_DRAWN[queue[0][0]](state, queue, rng, changes)


def _relic_run_drawn(state, queue: tuple, rng, changes: dict):
    player = queue[0][1]
    temple = state.players[player].temple
    relics = list(temple.relics)
    left = [relic_id for relic_id in state.edition.relic_ids if relic_id not in relics]  # as _relic_drawn
    taken = 0
    for kind, seat, spot in queue:
        if kind != "RELIC" or seat != player or relics[index := _SPOT_INDEX[spot]] is not None:
            break  # the run ends (a relic already on the spot would come back into play: drawn one by one)
        # the relics not yet hidden, in the edition's order, are the last ones without the one just hidden
        size = len(left)  # rng._randbelow(size), inline (random.py's _randbelow_with_getrandbits)
        bits = size.bit_length()
        at = rng.getrandbits(bits)
        while at >= size:
            at = rng.getrandbits(bits)
        relics[index] = left.pop(at)
        taken += 1
    if not taken:
        return _relic_drawn(state, queue[0], rng, changes)
    changes["queue"] = queue[taken:]
    return with_player(state, player, {"temple": temple.with_relic_tuple(tuple(relics))}, **changes)


_SPOT_INDEX = {spot: index for index, spot in enumerate(RELIC_SPOTS)}


def _room_drawn(state, queue: tuple, rng, changes: dict):
    """ROOM: ``sample``'s index into the room pile (into the first room sent to the bottom when the pile
    is empty: a draw from one, which still takes bits from the generator), the room turned up."""
    pile = state.room_pile
    size = len(pile) or 1  # rng._randbelow(size), inline (random.py's _randbelow_with_getrandbits)
    bits = size.bit_length()
    at = rng.getrandbits(bits)
    while at >= size:
        at = rng.getrandbits(bits)
    return (
        _room_turned_up(state, pile[at], at, changes)
        if pile
        else _room_turned_up(state, state.room_bottom[0], None, changes)
    )


def _room_turned_up(state, room: str, at: int | None, changes: dict):
    """The room at index ``at`` of the room pile (None: the first at the bottom) turned up, in the copy
    that makes ``changes`` (the queue without the task); an amulet is put on a special location."""
    if at is None:
        changes["room_bottom"] = state.room_bottom[1:]
    else:
        changes["room_pile"] = state.room_pile[:at] + state.room_pile[at + 1 :]
    tile = state.edition.tiles[room]
    changes["current_room"], changes["room_amulet"] = room, None
    state = log(state, f"The room {room} ({tile.shape}) is turned up.", **changes)
    if tile.special is not None:
        state = replace(state, queue=(_AMULET,) + state.queue)
    return state


_AMULET = Task("AMULET")


def _sample_then_resolve(state, queue: tuple, rng, changes: dict):
    return _RESOLVERS[queue[0][0]](state, queue[0], sample(state, rng), changes)


def _throw_drawn(state, queue: tuple, rng, changes: dict):
    """STICKS: the run of STICKS tasks at the front of the queue (a Call of Fate throws each colour of
    both seats), each drawn in order as ``sample`` draws it (the table's running totals), then each seat's
    sticks rebuilt and shown once: the same draws and position as ``_sticks_thrown`` task by task."""
    edition = state.edition
    thrown = ({}, {})  # per seat: stick id -> its face (points, naga)
    last = [-1, -1]  # per seat: the place in the run of its last task
    taken = 0
    for kind, player, detail in queue:
        if kind != "STICKS":
            break
        found = edition.memo.get(("throw of", detail))
        if found is None:
            found = _throw_of_detail(edition, detail)
        ids, outcomes, totals = found
        total = totals[-1]  # rng._randbelow(total), inline (random.py's _randbelow_with_getrandbits)
        bits = total.bit_length()
        ticket = rng.getrandbits(bits)
        while ticket >= total:
            ticket = rng.getrandbits(bits)
        thrown[player].update(zip(ids, outcomes[bisect_right(totals, ticket)]))
        last[player] = taken
        taken += 1
    rest = changes["queue"] = changes["queue"][taken - 1 :]  # changes["queue"] is what follows the first task
    players, shown = list(state.players), []
    for player in sorted([p for p in (0, 1) if last[p] >= 0], key=last.__getitem__):  # as their last tasks come
        faces = thrown[player]
        sticks = tuple(
            [
                stick
                if (face := faces.get(stick[0])) is None
                else _new_stick(Stick, (stick[0], stick[1], face[0], face[1]))
                for stick in players[player].sticks
            ]
        )  # (id, colour, points, naga), read by index
        players[player] = changed_seat(state, players[player], {"sticks": sticks})
        if not any(task[0] == "STICKS" and task[1] == player for task in rest):  # else shown with the rest
            shown.append(_sticks_shown(player, sticks))
    changes["players"] = tuple(players)
    if shown:
        changes["log"] = logged(state, tuple(shown))
    return replace(state, **changes)


_new_stick = tuple.__new__  # Stick(id, colour, points, naga) without the Python-level constructor


def _sticks_shown(player: int, sticks: tuple) -> tuple:
    """The public log line showing a seat's thrown sticks (id, colour, points, naga)."""
    faces = ", ".join([f"{_LOWER[s[1]]} {'Naga' if s[3] else s[2]}" for s in sticks if s[2] is not None])
    return (PUBLIC, f"{SEAT_NAMES[player]}'s sticks show: {faces or 'nothing'}.")


def _throw_of_detail(edition, detail: str) -> tuple:
    """The sticks a STICKS task names and ``_edition_throw_table`` of their colour and number, kept on
    the edition (the same few details recur: the lowest ids of a colour, taken from a full supply)."""
    ids = tuple(detail.split())  # shared by every throw of this detail: never edited
    found = edition.memo[("throw of", detail)] = (
        ids,
        *_edition_throw_table(edition, STICK_LETTERS[detail[0]], len(ids)),
    )
    return found


def _card_drawn(state, queue: tuple, rng, changes: dict):
    """DRAW: the run of DRAW tasks at the front of the queue (a new deal draws 3 cards, a new game both
    hands) while the pile holds cards, each drawn in order as ``sample`` draws it (an index into the
    pile) and taken out at that index, then the pile, the deal and the hands changed in one edit:
    the same draws and position as ``_card_taken`` task by task."""
    pile = list(state.draw_pile)
    texts = state.edition.card_texts
    deal, hands, entries = state.deal, [None, None], []
    taken = 0
    for kind, player, detail in queue:
        if kind != "DRAW" or not pile:  # an empty pile is for prepare_queue, in the turn's loop
            break
        size = len(pile)  # rng._randbelow(size), inline (random.py's _randbelow_with_getrandbits)
        bits = size.bit_length()
        at = rng.getrandbits(bits)
        while at >= size:
            at = rng.getrandbits(bits)
        card_id = pile.pop(at)
        entries += ((PUBLIC, _DRAWS_A_CARD[player]), (player, f"You draw {texts[card_id]}."))
        if detail == "DEAL":
            deal += (card_id,)
        elif hands[player] is None:
            hands[player] = [card_id]
        else:
            hands[player].append(card_id)
        taken += 1
    changes["queue"] = changes["queue"][taken - 1 :]  # changes["queue"] is what follows the first task
    changes["draw_pile"], changes["log"] = tuple(pile), logged(state, tuple(entries))
    if deal is not state.deal:
        changes["deal"] = deal
    players = state.players
    if hands[0] is None and hands[1] is None:
        return replace(state, **changes)
    seats = [
        seat if hands[p] is None else changed_seat(state, seat, {"hand": tuple(sorted(seat.hand + tuple(hands[p])))})
        for p, seat in enumerate(players)
    ]  # add_to_hand, for every card drawn
    changes["players"] = tuple(seats)
    return replace(state, **changes)


def _relic_drawn(state, task: Task, rng, changes: dict):
    """RELIC: ``sample``'s index into the relics not yet hidden in the temple, then ``_relic_hidden``."""
    placed = state.players[task[1]].temple.relics
    left = [relic_id for relic_id in state.edition.relic_ids if relic_id not in placed]
    return _relic_hidden(state, task, left[rng._randbelow(len(left))], changes)


def _sticks_resolved(state, task: Task, outcome, changes: dict):
    return _sticks_thrown(state, task[1], task[2].split(), outcome, changes)


def _relic_hidden(state, task: Task, outcome, changes: dict):
    _, player, spot = task
    temple = state.players[player].temple
    relics = list(temple.relics)
    relics[RELIC_SPOTS.index(spot)] = outcome
    return with_player(state, player, {"temple": temple.with_relic_tuple(tuple(relics))}, **changes)


def _card_resolved(state, task: Task, outcome, changes: dict):
    pile = state.draw_pile
    return _card_taken(state, task, pile, pile.index(outcome), changes)  # card ids are unique


def _card_taken(state, task: Task, pile: tuple, at: int, changes: dict):
    """The card at index ``at`` of the draw pile goes to the task's hand or to the deal."""
    _, player, detail = task
    card_id = pile[at]
    changes["draw_pile"] = pile[:at] + pile[at + 1 :]
    changes["log"] = logged(
        state, ((PUBLIC, _DRAWS_A_CARD[player]), (player, f"You draw {state.edition.card_texts[card_id]}."))
    )
    if detail == "DEAL":
        changes["deal"] = state.deal + (card_id,)
        return replace(state, **changes)
    hand = tuple(sorted(state.players[player].hand + (card_id,)))  # add_to_hand, in the same copy
    return with_player(state, player, {"hand": hand}, **changes)


_DRAWS_A_CARD = (f"{SEAT_NAMES[0]} draws a card.", f"{SEAT_NAMES[1]} draws a card.")


def _other_resolved(state, task: Task, outcome, changes: dict):
    kind, player, detail = task
    if changes:
        state = replace(state, **changes)
    if kind == "FIRST_GUIDE":
        return _first_guide_throw(state, player, outcome)
    if kind == "GUIDE_PICK":
        return log(
            replace(state, guide=outcome),
            f"After {state.first_guide_ties} ties, {seat_name(outcome)} is picked as first guide.",
        )
    if kind == "ROOM":  # tile ids are unique: a room of the pile is taken out by its index
        return _room_turned_up(
            state, outcome, state.room_pile.index(outcome) if outcome in state.room_pile else None, {}
        )
    if kind == "AMULET":
        pile = state.amulet_pile
        at = pile.index(outcome)  # amulet ids are unique
        state = replace(state, amulet_pile=pile[:at] + pile[at + 1 :], room_amulet=outcome)
        return log(state, "A face-down amulet is put on the room's special location.")
    if kind == "HAND_CARD":
        return _take_hand_card(state, player, detail, outcome)
    raise AssertionError(f"unknown chance task {kind}")


def _sticks_thrown(state, player: int, stick_ids, outcome, changes: dict):
    faces = dict(zip(stick_ids, outcome))
    sticks = tuple(
        [
            stick
            if (face := faces.get(stick[0])) is None
            else _new_stick(Stick, (stick[0], stick[1], face[0], face[1]))
            for stick in state.players[player].sticks
        ]
    )
    for task in changes.get("queue", state.queue):  # the queue once this task is off it
        if task[0] == "STICKS" and task[1] == player:  # more of this seat's sticks to throw: show them all then
            return with_player(state, player, {"sticks": sticks}, **changes)
    changes["log"] = logged(state, (_sticks_shown(player, sticks),))
    return with_player(state, player, {"sticks": sticks}, **changes)


_LOWER = {colour: colour.lower() for colour in STICK_LETTERS.values()}


def _first_guide_throw(state, player: int, faces):
    throws = list(state.first_guide)
    throws[player] = tuple(points for points, _ in faces)
    state = replace(state, first_guide=tuple(throws))
    if not throws[0] or not throws[1]:
        return state
    totals = (sum(throws[0]), sum(throws[1]))
    if totals[0] != totals[1]:
        guide = 0 if totals[0] > totals[1] else 1
        return log(
            replace(state, guide=guide),
            f"First-guide throw: {totals[0]} to {totals[1]}; {SEAT_NAMES[guide]} is the guide and takes the scroll.",
        )
    ties = state.first_guide_ties + 1
    state = log(
        replace(state, first_guide=((), ()), first_guide_ties=ties),
        f"First-guide throw: both have {totals[0]}; throw again.",
    )
    if ties >= state.rules.max_first_guide_ties:
        return replace(state, queue=(Task("GUIDE_PICK"),) + state.queue)
    again = tuple(Task("FIRST_GUIDE", p, "2") for p in (0, 1))
    return replace(state, queue=again + state.queue)


def _take_hand_card(state, victim: int, effect: str, card_id: str):
    activator = 1 - victim
    state = remove_from_hand(state, victim, [card_id])
    if effect == "OPP_DISCARD":
        state = replace(state, discard_pile=state.discard_pile + (card_id,))
        return log(state, f"{seat_name(victim)} discards {card_of(state, card_id)} face up.")
    state = add_to_hand(state, activator, card_id, public=True)
    return log(state, f"{seat_name(activator)} steals {card_of(state, card_id)} from {seat_name(victim)}.")


_RESOLVERS = {kind: _other_resolved for kind in TASK_KINDS}
_RESOLVERS.update(STICKS=_sticks_resolved, RELIC=_relic_hidden, DRAW=_card_resolved)
# task kind -> the function that draws and applies the events at the front of a queue (drawn_run)
RUN_DRAWN = {kind: _sample_then_resolve for kind in TASK_KINDS}
RUN_DRAWN.update(STICKS=_throw_drawn, RELIC=_relic_run_drawn, DRAW=_card_drawn, ROOM=_room_drawn)
