"""Nagaraja's actions (nagaraja.md#programmers): their types, the check of a move, and the turn it starts.

The four entry points every game has in its ``actions.py``:

- :func:`check_action` validates a player's move against the position and returns it in canonical
  form, or raises :class:`~gamelib.core.IllegalMove` with a reason a student can read;
- :func:`apply_action` is the checked path ``State.apply`` takes: the check, then the build;
- :func:`search_step` is the same build without the check, for search (bots, determinisation, tree
  search) that applies only actions read off ``legal_actions()``; the tests prove both paths give the
  same states;
- :func:`check_end` is the rule that ends the game (nagaraja.md#end), checked after every action.

A turn is built on a :class:`~gamelib.nagaraja.position.TurnDraft` of the state: the action's build
(:data:`~gamelib.nagaraja.effects.BUILDS`), the end check, then chance and the automatic steps
(:func:`~gamelib.nagaraja.effects.finish_turn`), and the draft is frozen into the new state. The
action types live in :mod:`~gamelib.nagaraja.action_types` (the listing and the effects read them
too), the legal actions in :mod:`~gamelib.nagaraja.listing`, what actions do in
:mod:`~gamelib.nagaraja.effects`; this module re-exports the names other code uses.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

from gamelib.core import IllegalMove
from gamelib.nagaraja.action_types import (  # noqa: F401 - re-exported: the action types are read here
    ACTION_TYPES,
    CANONICAL_ACTION_TESTS,
    FIELD_KINDS,
    PARAM_TYPES,
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
    canonical,
    checked_action,
)
from gamelib.nagaraja.effects import BUILDS, finish_turn, next_step, start_new_deal, update_temple  # noqa: F401
from gamelib.nagaraja.listing import (  # noqa: F401 - legal_actions, discardable_sticks, has_non_pass_action re-exported
    amulet_actions,
    amulet_usable,
    discardable_sticks,
    effect_possible,
    has_non_pass_action,
    legal_actions,
    options,
    position_for,
)
from gamelib.nagaraja.position import (
    SOURCES,
    Result,
    TurnDraft,
    card_of,
    face_down_own,
    face_up_relics,
    log,
    replace,
    seat_name,
    stick_order,
)
from gamelib.nagaraja.temple import RELIC_SPOTS


# =========================================================================== the four entry points


def check_action(state, action):
    """``action`` in canonical form if ``state``'s player to act may take it now (a swap's pair in the
    order the listing names it), else IllegalMove with a reason a student can read.

    When the position's legal actions were listed already (a bot picks its move from
    ``state.legal_actions()``, which keeps them on the state), the check is a membership test in that
    list: a listed action is legal and canonical. Any other action, or any action on a position never
    listed, takes the checks below, which accept exactly the listed actions (and the other order of a
    swap's pair), and give the reason of a refusal."""
    in_canonical_form = CANONICAL_ACTION_TESTS.get(type(action))
    listed = listed_actions(state)
    if listed is not None and in_canonical_form is not None:
        # membership by value, the object listed itself found first (in C; it equals itself): the same
        # test as ``in_canonical_form(action) and action in listed``
        if any(map(is_, listed, repeat(action))) or (in_canonical_form(action) and action in listed):
            return action
    if in_canonical_form is None or not in_canonical_form(action):
        action = checked_action(action)  # refuses it with a reason, or rebuilds it in canonical form
    player = action.player
    if player != state.to_act:
        raise IllegalMove(
            f"it is {seat_name(state.to_act)}'s turn, not {seat_name(player) if player in (0, 1) else player!r}'s",
            action,
        )
    try:
        return _CHECKS[type(action)](state, action)
    except IllegalMove as error:
        if error.action is None:
            error.action = action
        raise


def listed_actions(state) -> tuple | None:
    """The legal actions of ``state`` if they were listed already (kept on the state by
    ``State.legal_actions``), else None (a draft, or a position never listed)."""
    return getattr(state, "listed", None)


def apply_action(state, action):
    """The state after a player's ``action`` and everything it sets off that needs no decision, the
    action checked first (:func:`check_action`); ``state`` itself never changes."""
    return _built(state, check_action(state, action))


def search_step(state, action):
    """:func:`apply_action` without the check, for search: ``action`` must be one of
    ``state.legal_actions()`` (anything else gives a wrong state, not an error)."""
    return _built(state, action)


def _built(state, action):
    """The turn ``action`` starts, built on a draft of ``state`` and frozen."""
    draft = TurnDraft(state, moves=state.moves + (action,))
    kind = type(action)
    BUILDS[kind](draft, action)
    if kind not in _NEVER_END and (kind is not UseNaga or state.edition.cards[action.card].effect in _TEMPLE_EFFECTS):
        check_end(draft)
    return finish_turn(draft)


_NEVER_END = (Commit, Pass, Keep)  # these never change a temple, a score or the room in play
# The Naga effects that change a temple (its tiles, the trap, its relics); the others change cards, sticks,
# knowledge or a pending swap, never a temple, a score or the room in play, so like _NEVER_END they cannot
# end the game. (PEEK2_SWAP's swap itself is a SwapChoice, which is checked.)
_TEMPLE_EFFECTS = frozenset({"SWAP", "ROTATE", "MOVE_SWAP", "TRAP"})


def check_end(draft):
    """The end conditions of nagaraja.md#end, in order, after the action ``draft.moves[-1]``; then (after
    Exploration) the new deal. Sets the result on ``draft`` when the game ends."""
    action = draft.moves[-1]
    actor, placed = action.player, type(action) is PlaceTile
    state = draft
    edition, (first, second) = state.edition, state.players
    vp_first, cursed_first = face_up_relics(edition, first.temple)  # each temple's face-up relics read once
    vp_second, cursed_second = face_up_relics(edition, second.temple)
    amulets = edition.amulets
    scores = (
        vp_first + (sum([amulets[a].vp for a in first.amulets]) if first.amulets else 0),
        vp_second + (sum([amulets[a].vp for a in second.amulets]) if second.amulets else 0),
    )  # state.score(p)
    cursed_total = _cursed_total(edition)
    if cursed_first >= cursed_total or cursed_second >= cursed_total:  # cursed_face_up(state, p)
        loser = (
            actor
            if cursed_first >= cursed_total and cursed_second >= cursed_total
            else (0 if cursed_first >= cursed_total else 1)
        )
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
        return start_new_deal(state)
    return state


def _finish(state, winner: int, reason: str, scores: tuple):
    state = replace(
        state, result=Result(winner, reason, scores), phase="GAME_OVER", to_act=None, queue=(), pending_swap=None
    )
    return log(state, f"Game over: {describe_result(state)}.")


def cursed_face_up(state, player: int) -> int:
    return face_up_relics(state.edition, state.players[player].temple)[1]


def _cursed_total(edition) -> int:
    """The cursed relics of the edition (read after every action: counted once per edition)."""
    total = edition.memo.get("cursed total")
    if total is None:
        total = edition.memo["cursed total"] = sum(r.cursed for r in edition.relics)
    return total


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
    return (
        f"{seat_name(result.winner)} wins ({reasons[result.reason]}); scores {result.scores[0]} to {result.scores[1]}"
    )


# =========================================================================== the check of each action


def _require_phase(state, action, *phases: str) -> None:
    if state.phase not in phases:
        what = type(action).__name__
        raise IllegalMove(
            f"{what} is not possible now: the game is in {state.phase}, and {what} belongs to {' or '.join(phases)}"
        )


def _check_commit(state, action: Commit):
    _require_phase(state, action, "CALL_OF_FATE")
    player, me = action.player, state.players[action.player]
    cards = action.cards
    if len(cards) == 1 and cards[0] in me.hand:
        return action  # the most frequent commitment, one card of the hand, breaks no rule below
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
    return action


def _check_naga(state, action: UseNaga):
    """A UseNaga with its pair in listed order, if the Naga, the card and the parameters are legal."""
    _require_phase(state, action, "CONFRONTATION")
    if state.pending_swap is not None:
        raise IllegalMove("first decide whether to swap the two peeked relics")
    player, me = action.player, state.players[action.player]
    if not _holds_naga(me, action.source):
        raise IllegalMove(
            f"{seat_name(player)} has no {action.source} Naga to use"
            if action.source in SOURCES
            else f"{action.source!r} is not a Naga source"
        )
    if action.card not in me.hand:
        raise IllegalMove(
            f"{action.card} is not in {seat_name(player)}'s hand: only a card still in hand can be activated"
        )
    effect = state.edition.cards[action.card].effect
    after = position_for(state, player, action.source, effect)  # the options once the Naga is spent
    allowed = options(after, player, effect)  # none when the effect cannot be activated
    params = action.params
    if any(map(is_, allowed, repeat(params))) or params in allowed:  # membership by identity first, in C, then by value
        return action
    if not effect_possible(after, player, effect):
        raise IllegalMove(f"{effect} cannot be activated now: {_why_impossible(effect, after.rules)}")
    if _other_order(params) in allowed:
        params = _other_order(params)  # a swap is the same swap whichever of the two comes first
    if params not in allowed:
        raise IllegalMove(_bad_params_reason(after, player, effect, action.params))
    return action if params is action.params else replace(action, params=params)


def _holds_naga(seat, source: str) -> bool:
    """Whether ``seat`` holds a Naga of ``source`` (``source in naga_sources(...)``, without the list)."""
    if source == "VIRTUAL":
        return seat.virtual_nagas > 0
    for stick in seat.sticks:  # (id, colour, points, naga)
        if stick[3] and stick[1] == source:
            return True
    return False


def _other_order(params):
    """The same pair named the other way round (``SpotPair``, ``Swap``), else ``None``."""
    if isinstance(params, SpotPair):
        return SpotPair(params.temple, params.b, params.a)
    if isinstance(params, Swap):
        return Swap(params.temple, params.b, params.a)
    return None


def _why_impossible(effect: str, rules) -> str:
    if effect == "DISCARD2" and rules.discard2_sticks == "brown":
        return 'the opponent has no brown stick (under discard2_sticks="brown" the card takes brown sticks only)'
    return {
        "OPP_DISCARD": "the opponent has no card in hand",
        "STEAL": "the opponent has no card in hand",
        "RETHROW2": "nobody has a stick to throw again",
        "DISCARD2": "the opponent has no stick",
        "PEEK": "no relic of your temple is face down",
        "PEEK2_SWAP": "fewer than 2 relics of your temple are face down",
        "ROTATE": "no temple has a room tile",
        "MOVE_SWAP": "no room can be moved or swapped",
    }.get(effect, "it has no legal target")


def _bad_params_reason(state, player: int, effect: str, params) -> str:
    expected = {
        "PLUS2": "NoParams()",
        "DRAW2": "NoParams()",
        "OPP_DISCARD": "NoParams()",
        "STEAL": "NoParams()",
        "RETHROW2": "Sticks(target, 1 or 2 current stick ids of that player)",
        "DISCARD2": (
            f"Sticks({1 - player}, min(2, n) of the opponent's n current brown stick ids)"
            if state.rules.discard2_sticks == "brown"
            else f"Sticks({1 - player}, min(2, n) of the opponent's current stick ids)"
        ),
        "PEEK": "Spot(a face-down relic spot of your temple)",
        "SWAP": "SpotPair(temple, a, b) with two different relic spots",
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


_AMULET_PARAMS = {
    "AM_PEEK": "Spot(a face-down spot of your temple)",
    "AM_RETHROW1": "Sticks(you, (one of your current sticks, lowest id of its colour and face))",
}


def _check_use_amulet(state, action: UseAmulet):
    player, me = action.player, state.players[action.player]
    if action.amulet not in me.amulets:
        raise IllegalMove(f"{seat_name(player)} holds no amulet {action.amulet}")
    effect = state.edition.amulets[action.amulet].effect
    if effect is None:
        raise IllegalMove(f"{action.amulet} is a VP amulet: it only scores and cannot be used")
    if not amulet_usable(state, player, action.amulet):
        when = {
            "AM_PEEK": "you need a face-down relic in your temple",
            "AM_RETHROW1": "it is used in Confrontation, on one of your current sticks",
        }
        raise IllegalMove(
            f"{action.amulet} ({effect}) cannot be used now: "
            f"{when.get(effect, 'it is used in Confrontation, on your turn')}"
        )
    if action not in amulet_actions(state, player):
        raise IllegalMove(f"{action.amulet} ({effect}) needs {_AMULET_PARAMS.get(effect, 'NoParams()')}")
    return action


def _check_swap_choice(state, action: SwapChoice):
    if state.pending_swap is None:
        raise IllegalMove("there is no pending PEEK2_SWAP decision")
    if not isinstance(action.swap, bool):
        raise IllegalMove("SwapChoice takes swap=True or swap=False")
    return action


def _check_pass(state, action: Pass):
    _require_phase(state, action, "CONFRONTATION")
    if state.pending_swap is not None:
        raise IllegalMove("first decide whether to swap the two peeked relics")
    return action


def _check_place(state, action: PlaceTile):
    _require_phase(state, action, "EXPLORATION")
    temple = state.players[action.player].temple
    cells = temple.legal_cells()
    if not cells:
        raise IllegalMove("the temple is full: the room must be discarded (DiscardTile)")
    if action.rotation not in (0, 1, 2, 3) or action.cell not in cells:
        temple.place(action.cell, state.current_room, action.rotation, state.room_amulet)  # raises with the reason
    return action


def _check_discard_tile(state, action: DiscardTile):
    _require_phase(state, action, "EXPLORATION")
    if state.players[action.player].temple.legal_cells():
        raise IllegalMove("the room must be placed: there is still a legal cell")
    return action


def _check_keep(state, action: Keep):
    _require_phase(state, action, "NEW_DEAL")
    if not state.deal:
        raise IllegalMove("there are no drawn cards to keep")
    keep = min(state.rules.deal_keep, len(state.deal))
    cards = tuple(action.cards) if isinstance(action.cards, (tuple, list)) else ()
    if len(cards) != keep or len(set(cards)) != keep or any(c not in state.deal for c in cards):
        raise IllegalMove(f"keep exactly {keep} of the drawn cards {', '.join(state.deal)}")
    if list(cards) != sorted(cards):
        raise IllegalMove("list the kept cards in sorted order")
    return action


_CHECKS = {
    Commit: _check_commit,
    UseNaga: _check_naga,
    UseAmulet: _check_use_amulet,
    SwapChoice: _check_swap_choice,
    Pass: _check_pass,
    PlaceTile: _check_place,
    DiscardTile: _check_discard_tile,
    Keep: _check_keep,
}  # action type -> its check against the position (after the shape and the seat to act are checked)
