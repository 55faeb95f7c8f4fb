"""Nagaraja: a two-player temple duel of fate sticks, cards, rooms and relics.

The component data (cards, tiles, amulets, relics, stick faces) is the PLACEHOLDER
teaching edition of spec section 3: the real data is not published. It lives in
``gamelib/nagaraja/data/*.json`` and can be replaced without touching code.

Public API (what a board or a lesson needs)
===========================================

Edition (``gamelib.nagaraja.edition``)
--------------------------------------
* ``load_edition(sticks="A", directory=None, *, cards=None, tiles=None, amulets=None,
  relics=None) -> Edition``; each argument is a file path, a mapping, or None for the
  packaged file; ``sticks`` is "A", "B", a path or a face-table mapping (via
  ``sticks.load_faces``). ``default_edition()`` is the cached Model A edition.
* ``Edition``: ``name``, ``placeholder`` (True for the packaged data), ``faces``
  ({"BROWN"|"WHITE"|"GREEN": [(points, naga), ...]}), ``cards`` ({id: Card}),
  ``tiles`` ({id: TileDef}), ``amulets`` ({id: Amulet}), ``relics`` (tuple of Relic).
  A bad file raises ``EditionError`` (a ValueError) naming the file and the problem.
* ``check_against_rules_text(edition) -> dict[str, bool]`` (spec 3.1).
* ``Card(id, symbol, sticks, effect)``: ``symbol`` in STK/REL/ROM/CRD, ``sticks`` a
  string such as "BBW", ``effect`` a name such as "PLUS2", ``card.target`` a
  ``Target`` enum (SELF / OPPONENT / EITHER), ``card.pool`` = (brown, white, green).
* ``TileDef(id, shape, segments, special)``: ``segments`` a tuple of side strings
  at rotation 0 (e.g. ("NE", "S")), ``special`` the segment index holding the special
  location or None. ``Amulet(id, vp, effect)``; ``Relic(id, vp, cursed)``.

Temple (``gamelib.nagaraja.temple``)
------------------------------------
* Cells are ``(row, col)``, row 2 is the entrance row; sides "N", "E", "S", "W";
  rotation k = k quarter-turns clockwise. ``SPOTS``: ENTRANCE_0..2, LEFT_0..2, TOP_0..2,
  RIGHT_0..2; ``RELIC_SPOTS`` the 9 relic spots.
* ``Temple(tiles=None, cells=(None,)*9, relics=(None,)*9)`` is an empty temple (``tiles`` =
  a {id: TileDef} catalogue, default edition's; ``cells`` row-major; ``relics`` relic ids
  in RELIC_SPOTS order). Immutable; every change returns a new temple:
  ``place(cell, tile_id, rotation, amulet=None, legal_only=True)``, ``rotate(cell, k)``,
  ``move(origin, destination)``, ``swap_cells(a, b)``, ``put_trap(cell)`` ->
  (temple, tile_id sent away or None), ``without_trap()``, ``swap_relics(a, b)``,
  ``collect_amulets()`` -> (temple, amulet ids now connected).
* Reading: ``cell(c)`` -> None, ``TRAP`` or ``PlacedTile(tile_id, rotation, amulet)``;
  ``open_segments(c)`` -> the segments' open sides after rotation;
  ``connected_spots()`` -> frozenset of spot names joined through tiles to an entrance
  (an entrance counts only when a tile segment opens onto it); ``connected_nodes()`` ->
  frozenset of ((row, col), segment); ``legal_cells()`` -> sorted [(row, col)];
  ``move_destinations(cell)``; ``face_up(spot)``; ``face_up_spots()``; ``relic_at(spot)``;
  ``is_full``; ``occupied_cells()``; ``tile_cells()``; ``trap_cell``.

Rules (``gamelib.nagaraja.rules``)
----------------------------------
* ``Rules(win_score=25, starting_hand=5, deal_draw=3, deal_keep=2,
  sticks_per_colour=12, max_first_guide_ties=1000)``.
* ``new_game(seed=None, edition=None, explicit_chance=False, rules=None) -> State``.
* ``State``: ``phase`` ("SETUP", "CALL_OF_FATE", "CONFRONTATION", "EXPLORATION",
  "NEW_DEAL", "GAME_OVER"), ``to_act`` (seat or None), ``guide``, ``current_player``
  (seat, ``CHANCE`` or ``TERMINAL``), ``legal_actions()``, ``chance_outcomes()``,
  ``apply(action)``, ``is_terminal``, ``winner``, ``result`` (``Result(winner, reason,
  scores)``, reason in CURSED_LOSS / REACHED_25 / NINTH_TILE / ROOMS_EXHAUSTED),
  ``returns()``, ``score(p)``, ``total(p)`` (points this round), ``observation(p)``,
  ``to_json()`` / ``State.from_json(text)`` (``CorruptSave`` on bad input),
  ``str(state)`` (text board), ``log`` (every event, ``Event(audience, text)``,
  audience -1 = public) and ``events(p)`` (what player p may read).
* ``describe_result(state)`` -> a sentence; ``check_invariants(state)`` (spec 5.1);
  ``has_non_pass_action(state, p)``.
* Actions (frozen, readable ``str``): ``Commit(player, cards)``, ``UseNaga(player,
  source, card, params)`` (source "BROWN"/"WHITE"/"GREEN"/"VIRTUAL"),
  ``UseAmulet(player, amulet, params)``, ``SwapChoice(player, swap)``, ``Pass(player)``,
  ``PlaceTile(player, cell, rotation)``, ``DiscardTile(player)``,
  ``Keep(player, cards)``. Params (frozen dataclasses): ``NoParams()``,
  ``Sticks(target, stick_ids)``, ``Spot(spot)``, ``SpotPair(temple, a, b)``,
  ``Rotate(temple, cell, k)``, ``Move(temple, origin, destination)``, ``Swap(temple, a, b)``,
  ``Cell(cell)`` (TRAP, always the opponent's temple). Stick ids are "B01".."B12",
  "W01".., "G01"..; Sticks of one colour and face are interchangeable, so the listed
  choices use the lowest ids. UseAmulet params: ``Sticks(you, (stick,))`` for A10
  (AM_RETHROW1), ``Spot(spot)`` for A12 (AM_PEEK), ``NoParams()`` otherwise. After a PEEK2_SWAP the activator's only actions are
  ``SwapChoice`` and the AM_PEEK amulet. Chance outcomes (explicit_chance=True): a relic
  id, a tuple of faces for one colour's sticks, a card id, a tile id, an amulet id.
* Knowledge choice: a relic that was ever face up stays known to both players when it
  turns face down again (they saw it); peeks are private; knowledge follows a token
  through public swaps and moves.

What a board draws: ``state.observation(viewer)`` is a JSON-able dict
------------------------------------------------------------------------
``{"edition", "placeholder", "viewer", "phase", "to_act" (None while chance resolves),
"chance_pending", "guide", "round", "room_winner", "deal": [card dicts] (the guide's
3 drawn cards, only for the guide) | None,
"current_room": {"tile", "shape", "segments", "special", "amulet": bool} | None,
"room_pile", "draw_pile", "amulet_pile", "discard_pile": [card ids],
"pending_swap": {"temple", "a", "b"} | None, "events": [last texts],
"result": {"winner", "reason", "scores"} | None,
"players": [per seat {"temple": {"cells": [{"cell": [r, c], "content": None | "TRAP" |
{"tile", "rotation", "segments" (open sides after rotation), "special", "amulet": bool}}],
"relics": {spot: {"face_up", "known", "vp", "cursed"}} (vp/cursed None unless the
viewer may know), "connected_spots", "connected_nodes": [[r, c, segment]],
"legal_cells"}, "hand": [card dicts] | None (None = hidden), "hand_size",
"known_hand": [card dicts the viewer knows in that hand], "committed": [card dicts] |
None (hidden until both have committed), "committed_count", "has_committed",
"activated": [card dicts], "sticks": [{"id", "colour",
"points", "naga"}] (points None until thrown), "modifier", "virtual_nagas", "total",
"amulets": [{"id", "vp",
"effect"}] | None, "amulet_count", "score" (exact for the viewer's own seat, else
None), "visible_score" (face-up relic VP)}]}``. Card dict: ``{"id", "symbol",
"sticks", "effect", "target"}``.

Bots and analysis
-----------------
* ``bots.random_policy``, ``bots.heuristic_policy`` (both ``(state, rng) -> action``,
  reading only ``state.observation(seat)`` and ``state.legal_actions()``),
  ``bots.tournament(policy_a, policy_b, games, seed=0, show_progress=True)``.
* ``bots.play_game(policies, seed, edition=None, on_state=None)``; ``TournamentResult``
  with ``win_rate(i)``, ``reason_shares()``, ``game_length()``,
  ``first_guide_win_rate()``, ``guide_room_rate()`` (all ``Estimate`` with 95% CI) and
  ``summary()``.
* ``analysis.commitment_table(hand, opponent_count, mine_is_guide, edition=None, seen=())``
  -> [CommitmentOdds(cards, pool, p_win, p_tie)], best first (exact Fractions; opponent
  model: every one-symbol set of ``opponent_count`` unseen cards equally likely; raw throw,
  before effects); ``analysis.tie_rule_value(hand, opponent_count)`` -> {cards: P(tie)};
  ``analysis.opponent_points(count, unseen)`` -> Dist; ``analysis.cursed_chance(observation,
  owner=None)`` -> {face-down spot: Fraction}; ``analysis.cursed_loss_chance(observation,
  spots, owner=None)`` -> the chance that turning up ``spots`` shows every cursed relic.
"""

from gamelib.nagaraja import analysis, bots, sticks
from gamelib.nagaraja.cards import Amulet, Card, Relic, Target
from gamelib.nagaraja.edition import Edition, EditionError, TileDef, check_against_rules_text, default_edition, load_edition
from gamelib.nagaraja.rules import (
    Cell,
    Commit,
    DiscardTile,
    Keep,
    Move,
    NoParams,
    Pass,
    PlaceTile,
    Result,
    Rotate,
    Rules,
    Spot,
    check_invariants,
    describe_result,
    SpotPair,
    State,
    Sticks,
    Swap,
    SwapChoice,
    UseAmulet,
    UseNaga,
    new_game,
)
from gamelib.nagaraja.temple import RELIC_SPOTS, SPOTS, Temple

__all__ = [
    "Amulet", "Card", "Cell", "Commit", "DiscardTile", "Edition", "EditionError", "Keep", "Move", "NoParams", "Pass",
    "PlaceTile", "RELIC_SPOTS", "Relic", "Result", "Rotate", "Rules", "SPOTS", "Spot", "SpotPair", "State", "Sticks",
    "Swap", "SwapChoice", "Target", "Temple", "TileDef", "UseAmulet", "UseNaga", "check_against_rules_text",
    "analysis", "bots", "check_invariants", "default_edition", "describe_result", "load_edition", "new_game", "sticks",
]
