"""Pangu: a solo card game of Karma and half circles (spec: ``shared/rules/pangu.md``).

Public API (what boards, lessons and tests use)
================================================

Playing::

    from gamelib.pangu import new_game, Action, Rules
    state = new_game(seed=7)                      # defaults; chance resolved from the seed
    state = new_game(deck=["A6", "A3", ...], rolls=[(3, 5), (2, 2)])   # scripted (spec 8)
    state = new_game(seed=7, rules=Rules(cap_rule="before_turn"))      # a variant (spec 9)
    state = new_game(explicit_chance=True)        # stops at chance nodes (current_player == CHANCE)
    state.legal_actions()   # [Action(card, die, cell, orientation)] in spec 8 order
    state = state.apply(Action("A6", "BLUE", (0, 1)))   # pure; raises gamelib.IllegalMove(reason)

* ``new_game(seed=None, rules=None, deck=None, rolls=None, explicit_chance=False, cards=None)``;
  ``cards`` is a user deck (``load_deck(path)``), default the teaching deck. Running out of
  scripted rolls raises ``ScriptExhausted`` (an ``IllegalMove``).
* ``Rules(roll_timing="per_turn", cap_rule="start_value", defeat_check="after_payment",
  allow_rotation=False, centre_config="YIN_LEFT", stuck_rule="reroll",
  centre_match_counts_as_circle=False, starting_karma=10, grid="3x4")``: frozen, validated
  (ValueError); ``to_dict()``, ``Rules.from_dict(d)``, ``changes()``. ``SINGLE_VARIANTS`` maps a
  short name to the defaults and each one-parameter variant.
* ``Action(card: str, die: "BLUE"|"WHITE", cell: (row, col), orientation: 0|180 = 0)``, a NamedTuple.

State attributes a board draws from (``State`` is a frozen dataclass):

* ``status`` ("ONGOING", "WON", "LOST"), ``karma`` (int; may be <= 0 once LOST), ``turn``,
  ``rules`` (incl. ``rules.starting_karma``), ``roll`` = ``(blue, white)`` or None, ``dice`` =
  ``{"BLUE": b, "WHITE": w}``, ``revealed`` (card ids in reveal order), ``deck_count``,
  ``unseen_cards()`` (file order, never the shuffle), ``log`` (tuple of events), ``last_event``,
  ``events_since_last_action()`` (the last placement and what followed, for "paid 2, recovered 1").
* ``geometry`` (``rows``, ``cols``, ``centre_cells``, ``ring``, ``neighbours(cell)``),
  ``centre_cells`` -> ``{cell: "YIN"|"YANG"}``, ``placed_cards()`` -> ``{cell: (AgeCard, orientation)}``,
  ``card_at(cell)``, ``legal_cells()``.
* ``cards`` (a ``Deck``: ``cards["A1"]`` is an ``AgeCard(id, name, blue, white, half)``,
  ``half`` = colours on TOP, RIGHT, BOTTOM, LEFT; ``card.colour(edge, orientation)``,
  ``card.number(die)``).
* Helpers: ``cost(card, die)`` (None if the die equals the number), ``cheapest_die(card)`` ->
  ``(die, cost)`` or None, ``recovery(card, cell, orientation=0)``, ``preview(action)`` -> dict
  of cost, rec, gain, wasted, karma, placed, status.
* ``observation(player=0)``: one JSON-ready dict with ``rows``, ``cols``, ``cells`` (each
  ``{"cell", "ring", "legal", "kind": "centre"|"card"|"empty", "colour"/"card"/"orientation",
  "half": {TOP..LEFT: colour as shown}}``), ``revealed`` (card dicts with ``costs`` per die),
  ``dice``, ``karma``, ``starting_karma``, ``status``, ``turn``, ``deck_count``, ``unseen``,
  ``last_event``, ``recent_events`` (strings). It never contains the deck order.
* Contract: ``current_player`` (0, ``gamelib.CHANCE`` or ``gamelib.TERMINAL``), ``is_terminal``,
  ``winner`` (0 or None), ``returns()`` ([1.0] won, [0.0] otherwise), ``chance_outcomes()``,
  ``copy()``, ``with_explicit_chance()`` (for search: hides the deck order and scripted rolls),
  ``to_json()`` / ``State.from_json(text)`` (``gamelib.CorruptSave`` on a bad file), ``str(state)``.

Log events (NamedTuples with ``kind`` and a readable ``str``): ``Setup(rules, centre, deck)``,
``TurnStart(turn, revealed, deck_left)``, ``Roll(blue, white, reason)`` with reason "turn",
"placement" or "stuck", ``StuckPenalty(karma)``, ``Placement(card, die, cell, orientation,
cost, rec, gain, wasted, karma, placed)`` and ``GameEnd(status, karma)``.

Bots and tournaments (``gamelib.pangu.bots``): ``random_policy``, ``greedy_policy``,
``lookahead_policy`` (each ``(state, rng) -> Action``), ``lookahead_values(state)`` (each legal
action's exact expected value for the rest of the turn), ``play(policy, seed=None, rules=None)``
-> finished state, ``tournament(policies, rules=..., games=..., seed=0)``.

Exact odds for lessons (``gamelib.pangu.odds``): die cost against a number, the cheapest-cost
law of a card, final-card win chance by Karma, expected total cost, shared-roll correlation,
layout scores.
"""

from gamelib.pangu.bots import (TournamentResult, greedy_policy, lookahead_policy, lookahead_values, play,
                                random_policy, tournament)
from gamelib.pangu.cards import AgeCard, Deck, DeckError, load_deck, teaching_deck
from gamelib.pangu.rules import (LOST, ONGOING, SINGLE_VARIANTS, WON, Action, GameEnd, Geometry, Placement, Roll,
                                 Rules, ScriptExhausted, Setup, State, StuckPenalty, TurnStart, new_game, turn_sizes)

__all__ = [
    "LOST", "ONGOING", "SINGLE_VARIANTS", "WON", "Action", "AgeCard", "Deck", "DeckError", "GameEnd", "Geometry",
    "Placement", "Roll", "Rules", "ScriptExhausted", "Setup", "State", "StuckPenalty", "TournamentResult",
    "TurnStart", "greedy_policy", "load_deck", "lookahead_policy", "lookahead_values", "new_game", "play",
    "random_policy", "teaching_deck", "tournament", "turn_sizes",
]
