"""What Nagaraja's actions do to a position (nagaraja.md#effects to nagaraja.md#new-deal), and the
steps a turn takes by itself: the build of each action (``BUILDS``), the card, Naga, amulet and relic
effects, the automatic steps between decisions (:func:`next_step`) and the finish of a turn
(:func:`finish_turn`: chance drawn from the state's seed, automatic steps, the draft frozen).

Every function here takes the position and returns it changed: a turn passes its
:class:`~gamelib.nagaraja.position.TurnDraft`, edited in place. Nothing here checks a move: the
builds assume an action :func:`gamelib.nagaraja.actions.check_action` accepted, or one read off
``legal_actions()``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import itemgetter

from gamelib.core import chance_rng
from gamelib.nagaraja import chance
from gamelib.nagaraja.action_types import (
    Commit,
    DiscardTile,
    Keep,
    Move,
    Pass,
    PlaceTile,
    SwapChoice,
    UseAmulet,
    UseNaga,
)
from gamelib.nagaraja.cards import STICK_LETTERS
from gamelib.nagaraja.chance import RUN_DRAWN, Task, throw_tasks
from gamelib.nagaraja.listing import has_non_pass_action
from gamelib.nagaraja.position import (
    PUBLIC,
    SEAT_NAMES,
    Stick,
    TurnDraft,
    amulet_text,
    changed_seat,
    fate_total,
    log,
    logged,
    relic_of,
    replace,
    return_sticks,
    seat_name,
    set_player,
    spend_naga,
    with_player,
)
from gamelib.nagaraja.temple import RELIC_SPOTS, PlacedTile, Temple

# =========================================================================== temples

RELIC_INDEX = {
    spot: index for index, spot in enumerate(RELIC_SPOTS)
}  # a relic spot's place in RELIC_SPOTS (and a temple's relics)


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
            turning |= {
                spot
                for spot in up_now
                if spot in RELIC_INDEX and before.relics[RELIC_INDEX[spot]] != relics[RELIC_INDEX[spot]]
            }
        for spot in sorted([spot for spot in turning if spot in RELIC_INDEX], key=RELIC_INDEX.__getitem__):
            if spot in up_now:  # in RELIC_SPOTS order, as the log always lists them
                entries.append(
                    (
                        PUBLIC,
                        f"{SEAT_NAMES[owner]}'s relic at {spot} is face up: "
                        f"{relic_of(state, relics[RELIC_INDEX[spot]])}.",
                    )
                )
            else:
                entries.append((PUBLIC, f"{SEAT_NAMES[owner]}'s relic at {spot} turns face down."))
    seen = {(owner, relics[RELIC_INDEX[spot]]) for spot in up_now if spot in RELIC_INDEX} if up_now else set()
    players = list(state.players)
    players[owner] = changed_seat(
        state, players[owner], {"temple": temple, "amulets": players[owner].amulets + tuple(collected)}
    )
    for p in (0, 1):  # both players see a face-up relic, and remember it if it turns face down again
        if not seen <= players[p].knowledge:
            players[p] = changed_seat(state, players[p], {"knowledge": players[p].knowledge | seen})
    return replace(state, players=tuple(players), log=logged(state, tuple(entries)))


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
            return log(
                state, f"{SEAT_NAMES[state.guide]} drew no card to share.", deal=None, queue=state.queue + (_ROOM,)
            )  # and _reveal_room, in the same copy
    return None


def _start_round(state):
    players = tuple([p if p.committed is None else changed_seat(state, p, {"committed": None}) for p in state.players])
    return log(
        state,
        f"Round {state.round + 1}: {SEAT_NAMES[state.guide]} is the guide and commits first.",
        players=players,
        phase="CALL_OF_FATE",
        to_act=state.guide,
        round=state.round + 1,
        pass_streak=0,
    )


def _reveal_room(state):
    return replace(state, queue=state.queue + (_ROOM,))


_ROOM = Task("ROOM")


# =========================================================================== the build of each action


def build_commit(state, action: Commit):
    return _commit(state, action.player, action.cards)


def _commit(state, player: int, cards: tuple):
    me = state.players[player]
    hand = list(me.hand)
    for card_id in cards:
        hand.remove(card_id)
    entries = (
        (PUBLIC, f"{SEAT_NAMES[player]} commits {len(cards)} card(s) face down."),
        (player, f"You commit {', '.join(cards) or 'nothing'}."),
    )
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
                texts.append(
                    f"Only {len(pile)} {STICK_LETTERS[letter].lower()} stick(s) are left "
                    f"for {SEAT_NAMES[player]}: the missing ones are not thrown."
                )
            if pile:  # throw_tasks(player, taken): one task per colour, the ids in order (the pile is sorted)
                queue.append(new_task(Task, ("STICKS", player, " ".join(pile[:need]))))
            taken += pile[:need]
            available[letter] = pile[need:]
        sticks = tuple([_unthrown(s) for s in taken])  # Stick(s, colour)
        players[player] = changed_seat(state, players[player], {"sticks": sticks})
    supply = tuple(available["B"] + available["G"] + available["W"])  # sorted: each pile is, and B < G < W
    return log(
        state,
        *texts,
        players=tuple(players),
        supply=supply,
        queue=state.queue + tuple(queue),
        phase="CONFRONTATION",
        to_act=state.guide,
        pass_streak=0,
    )


@cache
def _unthrown(stick_id: str) -> Stick:
    """``Stick(stick_id, colour)``: a stick not yet thrown is the same tuple every round."""
    return Stick(stick_id, STICK_LETTERS[stick_id[0]])


def _commitment_needs(edition, committed: tuple) -> tuple:
    """How a commitment is named in the log and how many sticks of each colour it takes, in B, W, G order,
    kept on the edition (commitments recur: one card of 48, most often)."""
    key = ("needs", committed)
    found = edition.memo.get(key)
    if found is None:
        wanted = "".join([edition.cards[c].sticks for c in committed])
        shown = ", ".join([edition.card_texts[c] for c in committed]) or "no card"
        needs = tuple((letter, wanted.count(letter)) for letter in "BWG" if wanted.count(letter))
        found = edition.memo[key] = (shown, needs)
    return found


def _by_colour(supply: tuple) -> dict:
    """The supply's stick ids of each colour letter, sorted: a fresh dict of lists nobody edits (every
    Call of Fate starts from the same few supplies, most often the full one)."""
    return dict(_split_supply(supply))


@lru_cache(maxsize=4096)
def _split_supply(supply: tuple) -> dict:
    return {letter: sorted(s for s in supply if s[0] == letter) for letter in "BWG"}


def build_use_naga(state, action: UseNaga):
    """Spend the Naga, then activate the card."""
    return _use_naga(spend_naga(state, action.player, action.source), action)


def _use_naga(after, action: UseNaga):
    """Activate the card once the Naga is spent (``after``)."""
    player, card = action.player, action.card
    me = after.players[player]
    hand = list(me.hand)
    hand.remove(card)  # remove_from_hand and the card activated, in one edit of the seat, logged in the same copy
    state = with_player(
        after,
        player,
        {"hand": tuple(hand), "public_hand": me.public_hand - {card}, "activated": me.activated + (card,)},
    )
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
        return log(
            return_sticks(state, opponent, params.stick_ids),
            f"{seat_name(opponent)} loses {', '.join(params.stick_ids)}.",
        )
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
        changed = (
            temple.move(params.origin, params.destination)
            if isinstance(params, Move)
            else temple.swap_cells(params.a, params.b)
        )
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


def build_use_amulet(state, action: UseAmulet):
    player, me = action.player, state.players[action.player]
    effect = state.edition.amulets[action.amulet].effect
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


def build_swap_choice(state, action: SwapChoice):
    player, a, b = state.pending_swap
    state = replace(state, pending_swap=None, to_act=1 - player, pass_streak=0)
    state = log(state, f"{action}.")
    if action.swap:
        state = update_temple(state, player, state.players[player].temple.swap_relics(a, b))
    return state


def build_pass(state, action: Pass):
    return log(state, f"{action}.", pass_streak=state.pass_streak + 1, to_act=1 - action.player)


def build_place_tile(state, action: PlaceTile):
    """The room in play placed on a legal cell at a legal rotation (``Temple.place`` without its checks)."""
    temple = state.players[action.player].temple
    placed = temple._placed(action.cell, PlacedTile(state.current_room, action.rotation, state.room_amulet))
    state = log(state, f"{action}.", current_room=None, room_amulet=None)
    return update_temple(state, action.player, placed)


def build_discard_tile(state, action: DiscardTile):
    lost = (state.current_room,) + ((state.room_amulet,) if state.room_amulet else ())
    state = replace(state, current_room=None, room_amulet=None, out_of_game=state.out_of_game + lost)
    return log(state, f"{action}.")


def build_keep(state, action: Keep):
    return _keep(state, action.player, action.cards)


def _keep(state, player: int, cards: tuple):
    opponent = 1 - player
    given = [c for c in state.deal if c not in cards]
    players = list(state.players)  # add_to_hand for every card, then the log line and the room, in one copy
    keeper, receiver = players[player], players[opponent]
    players[player] = changed_seat(state, keeper, {"hand": tuple(sorted(keeper.hand + cards))})
    players[opponent] = changed_seat(
        state,
        receiver,
        {"hand": tuple(sorted(receiver.hand + tuple(given))), "public_hand": receiver.public_hand | set(given)},
    )
    return log(
        state,
        f"{SEAT_NAMES[player]} keeps {len(cards)} card(s) and gives {', '.join(given) or 'nothing'} "
        f"to {SEAT_NAMES[opponent]}.",
        players=tuple(players),
        deal=None,
        queue=state.queue + (_ROOM,),
    )  # and _reveal_room


BUILDS = {
    Commit: build_commit,
    UseNaga: build_use_naga,
    UseAmulet: build_use_amulet,
    SwapChoice: build_swap_choice,
    Pass: build_pass,
    PlaceTile: build_place_tile,
    DiscardTile: build_discard_tile,
    Keep: build_keep,
}  # action type -> the function that applies an accepted action of that type to a draft


_STICK_ID = itemgetter(0)  # a Stick's id


# =========================================================================== the end of a Confrontation


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
    return log(
        state, f"{SEAT_NAMES[player]} passes (nothing to use).", pass_streak=state.pass_streak + 1, to_act=1 - player
    )


def _resolve_room(state):
    """RESOLVE: higher total wins the room, the guide wins ties (the opponent under
    ``tie_rule="opponent"``); clean up the round (nagaraja.md#winning-the-room)."""
    totals = (fate_total(state, 0), fate_total(state, 1))
    guide = state.guide
    ties_to = guide if state.rules.tie_rule == "guide" else 1 - guide
    winner = ties_to if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    text = f"Totals: P0 {totals[0]}, P1 {totals[1]}. {seat_name(winner)} wins the room" + (
        f" (the {state.rules.tie_rule} wins ties)." if totals[0] == totals[1] else "."
    )
    discards, returned, players = [], [], list(state.players)
    for p in (guide, 1 - guide):  # cards to the discard pile, sticks to the supply, in one copy of each seat
        me = players[p]
        discards += list(me.committed or ()) + list(me.activated)
        returned += map(_STICK_ID, me.sticks)  # the ids of the sticks, in C
        players[p] = changed_seat(
            state, me, {"sticks": (), "committed": (), "activated": (), "modifier": 0, "virtual_nagas": 0}
        )
    return log(
        state,
        text,
        players=tuple(players),
        supply=tuple(sorted(state.supply + tuple(returned))),
        discard_pile=state.discard_pile + tuple(discards),
        phase="EXPLORATION",
        to_act=winner,
        room_winner=winner,
        pass_streak=0,
    )


# =========================================================================== a new deal


def start_new_deal(state):
    """NEW_DEAL: the room's loser becomes guide and draws 3 (nagaraja.md#new-deal)."""
    if not state.room_pile and not state.room_bottom:
        return state  # the end check has already fired (rooms exhausted)
    guide = 1 - state.room_winner
    state = replace(state, phase="NEW_DEAL", guide=guide, to_act=guide, deal=())
    state = log(state, f"{SEAT_NAMES[guide]} becomes the guide and draws {state.rules.deal_draw} cards.")
    return replace(state, queue=state.queue + _DEAL_DRAWS[guide] * state.rules.deal_draw)


_DEAL_DRAWS = tuple((Task("DRAW", guide, "DEAL"),) for guide in (0, 1))


# =========================================================================== the finish of a turn


def finish_turn(draft: TurnDraft):
    """The new state once everything that needs no decision is done: chance (drawn from the state's
    seed, unless ``explicit_chance``) and the automatic steps, then the draft frozen."""
    state = draft
    rng = None  # one generator per batch of chance events, derived from (seed, batch number)
    while state.result is None:
        queue = state.queue
        if queue and queue[0][0] in chance.MAY_NOT_HAPPEN and not (queue[0][0] == "DRAW" and state.draw_pile):
            # (a task's kind first) a draw from a pile that holds cards always happens: nothing to prepare
            state = chance.prepare_queue(state)
            queue = state.queue
        if queue:
            if state.explicit_chance:
                break
            # chance.drawn_run(state, queue, rng, ...), without the call: the sample reads neither the
            # queue's tail nor the draw count
            if rng is None:
                rng = chance_rng(state.seed, state.draws)
                state = RUN_DRAWN[queue[0][0]](state, queue, rng, {"queue": queue[1:], "draws": state.draws + 1})
            else:
                state = RUN_DRAWN[queue[0][0]](state, queue, rng, {"queue": queue[1:]})
            continue
        following = next_step(state)
        if following is None:
            break
        state = following
    if state is not draft:  # every edit of a turn is made in place, so the turn returns its draft
        raise AssertionError("a turn returned another state than the one it built")
    return draft.freeze()
