"""Chakra (Luka Krleža, BLAM!, 2019) for 2-4 players: exact rules engine, bots, planner.

Spec: ``shared/rules/chakra.md`` (section numbers below are the spec's).

Public API (engine side; the board lives in ``gamelib.chakra.board``)
-------------------------------------------------------------------
Constants (plain ints, so they index tuples fast):
  ``EARTH = BLACK = 0``, ``RED = 1``, ``ORANGE = 2``, ``YELLOW = 3``, ``GREEN = 4``,
  ``LIGHT_BLUE = 5``, ``DARK_BLUE = 6``, ``PURPLE = 7``, ``BHAGYA = 8``.
  A colour's id is its home level (§1). ``COLOURS = range(8)``, ``CHAKRAS = (1..7)``.
  ``COLOUR_NAMES[c]`` ("BLACK".."PURPLE"), ``LEVEL_NAMES[l]`` ("EARTH", "RED".."PURPLE",
  "BHAGYA"), ``LETTERS = "KROYGLDP"`` (``LETTERS[c]``), ``DOWN = -1``, ``UP = +1``.
  ``colour_id(x)`` / ``level_id(x)`` accept an int, a name or a letter.
  ``SPACES = ("D3", "D1x3", "D2_D1", "U2", "U1x2", "D1_U1", "U1_or_D1", "SWAP")`` (§7.1 order);
  ``SPACE_PATTERNS[space]`` = tuple of step patterns ``((direction, distance), ...)``;
  ``space_id("bga:1") == space_id("help:3") == "D3"``; ``SPACE_NUMBERS[space] = {"help": n, "bga": n}``.

Rules and setup:
  ``Rules(swap_discard_to_bag=False, allow_repeat_meditation=False, colour_cap=3,
  bonus_min_run=1, inspiration_tokens=5, end_trigger_harmonized=5, harmonization_bonus=2,
  max_rounds=None)`` -- frozen, validated (ValueError).
  ``new_game(players=2, seed=None, rules=None, first_player=0, explicit_chance=False) -> State``
  (seed None = a fresh seed, stored in the state; every setup draw comes from it).
  ``position(players=[{"GREEN": "Y K", "EARTH": 2, "reserve": 4, "spaces": ["D3"],
  "notches": ["YELLOW"], "meditation": ["RED"]}, ...], num_players=2, to_move=0,
  maya=["K R Y", "", ""], bag=None | {"Y": 2}, plenitude=(1, 2, 3, 1, 2, 4, 3), rules=None,
  **state_fields)`` builds a scripted position (lessons, tests). The bag defaults to every
  energy not placed; a given ``reserve`` without ``spaces`` puts the other tokens on spaces
  from SWAP backwards (as the vectors of §15 assume).

Actions (named tuples, hashable, readable ``str`` per §14.7):
  ``Receive(column, colours, destination)`` -- colours a frozenset of colour ids,
  destination ``BHAGYA`` or a chakra level 1-7;
  ``Channel(space, steps=(), bag_colour=None)`` with ``Step(level, colour, direction, distance)``;
  ``Meditate(colour=None)``.  Names/letters are accepted in the constructors
  (``Receive(0, {"K", "R"}, "BHAGYA")``).

State (immutable; every field is public and is what a board draws):
  ``state.players[p]`` is a ``PlayerBoard`` with
    ``levels``   tuple of 9 sorted tuples of colour ids: index 1-7 the chakras (3 spaces each),
                 index 8 the Bhagya (3 bubbles); index 0 is always () (see ``earth``);
    ``earth``    number of alleviated blacks in the Earth;
    ``reserve``  Inspiration tokens in reserve;
    ``spaces``   frozenset of channel-space ids holding this player's token;
    ``notches``  frozenset of chakra levels whose notch holds this player's token;
    ``meditation`` sorted tuple of Meditation colour ids held;
    helpers ``free(level)``, ``count(colour)``, ``harmonized(level)``,
    ``harmonized_levels()`` (tuple), ``run()``.
  ``state.bag`` tuple of 8 counts by colour id; ``state.maya`` 3 sorted tuples of colour ids
  (Maya columns 0-2); ``state.plenitude`` tuple of 7 values for RED..PURPLE (index L-1;
  ``None`` where the viewer of an observation does not know it); ``state.unused_plenitude``
  (``None`` when hidden); ``state.removed_blacks``; ``state.first_player``;
  ``state.to_move``; ``state.turns`` (per seat); ``state.rounds_completed``; ``state.last_seat``
  (the seat that closes a round); ``state.end_triggered``; ``state.refill_pending``;
  ``state.finished``;
  ``state.viewer`` (None for the full state, the seat for an observation);
  ``state.num_players``; ``state.current_player`` (seat, CHANCE or TERMINAL);
  ``state.is_terminal``; ``state.winner`` (tuple of seats); ``state.returns()``;
  ``state.scores()``; ``state.legal_actions()``; ``state.chance_outcomes()`` ->
  ``[(colour id, Fraction)]`` while a Maya refill is pending; ``state.apply(action)``;
  ``state.observation(p)`` -> a State with hidden values set to None (and no seed; it
  stops at chance nodes, so a bot can look ahead without peeking);
  ``state.known_plenitude(p)`` -> {colour id: value}; ``state.to_json()`` /
  ``State.from_json(text)`` (``CorruptSave`` on a bad file); ``state.to_dict()`` is the same
  document as a dict with colour *names* -- handy for a JS board; ``str(state)`` text board.

Partly chosen Channel actions (§14.4), in ``gamelib.chakra.moves``:
  ``next_steps(state, space, prefix=()) -> list[Step]`` the steps that can still be
  completed; ``completions(state, space, prefix=()) -> list[Channel]`` the full legal actions
  extending ``prefix``; ``swap_colours(state) -> list[int]`` the colours SWAP may take.

Scoring (``gamelib.chakra.scoring``): ``final_scores(plenitude, players)`` with plenitude
  {"RED": v, ...} and players [{"harmonized": {"RED", ...}, "earth": n}, ...] -> list of
  totals (§12); ``run_length(harmonized)``; ``winners(scores)``.

Bots (``gamelib.chakra.bots``): ``random_policy(state, rng)``, ``greedy_policy(state, rng)``
  (one-action lookahead on its observation; ``board_value``/``action_value`` explain a choice),
  ``play_game(players, policies, seed, rules)``, ``tournament(policies, games=100, players=2,
  seed=0, rules=None, show_progress=True)`` -> ``TournamentResult`` with ``win_rate(seat)``,
  ``game_length()``, ``score(seat)`` (Estimates with 95% CI), ``score_distribution()``,
  ``natural_ends``, ``summary()``. Tournaments default to ``Rules(max_rounds=100)``.
  Random players practically never trigger the end (their tokens end up locked in the notches
  of unfinished chakras), so random games end by the ``max_rounds`` safeguard; greedy games end
  by the rules in about 30 rounds (91% of 2-player, 98-99% of 3-4-player games).

Planning (``gamelib.chakra.planning``): ``fewest_actions(state, chakra, player=None,
  max_actions=6)`` -> a shortest list of actions (``[]`` if already harmonized, None if no plan
  within ``max_actions``) harmonizing ``chakra`` with the player acting alone (Channel, SWAP,
  Meditate; no Receive); ``replay(state, plan)`` -> the position after the plan. Keep puzzles
  small (a few energies, plans of 2-4 actions): the search grows fast with the board.

Oracles: ``moves.brute_force_legal_actions(state)`` (tries every candidate with ``apply``),
``moves.walk(levels, level, colour, direction, distance)`` -> (landing, reason) for one step.
"""

from gamelib.chakra.rules import (  # noqa: E402
    BHAGYA, BLACK, CHAKRAS, COLOUR_NAMES, COLOURS, DARK_BLUE, DOWN, EARTH, GREEN, LETTERS, LEVEL_NAMES, LIGHT_BLUE,
    ORANGE, PURPLE, RED, SPACE_EFFECTS, SPACE_NUMBERS, SPACE_PATTERNS, SPACES, UP, YELLOW, PlayerBoard, Rules, State,
    colour_id, level_id, new_game, position, space_id,
)
from gamelib.chakra.moves import Channel, Meditate, Receive, Step, completions, next_steps, swap_colours  # noqa: E402
from gamelib.chakra.scoring import final_scores, run_length, winners  # noqa: E402
from gamelib.chakra.bots import greedy_policy, random_policy, tournament  # noqa: E402
from gamelib.chakra.planning import fewest_actions  # noqa: E402

__all__ = [
    "BHAGYA", "BLACK", "CHAKRAS", "COLOUR_NAMES", "COLOURS", "DARK_BLUE", "DOWN", "EARTH", "GREEN", "LETTERS",
    "LEVEL_NAMES", "LIGHT_BLUE", "ORANGE", "PURPLE", "RED", "SPACE_EFFECTS", "SPACE_NUMBERS", "SPACE_PATTERNS",
    "SPACES", "UP", "YELLOW", "PlayerBoard", "Rules", "State", "colour_id", "level_id", "new_game", "position",
    "space_id", "Channel", "Meditate", "Receive", "Step", "completions", "next_steps", "swap_colours",
    "final_scores", "run_length", "winners", "greedy_policy", "random_policy", "tournament", "fewest_actions",
]
