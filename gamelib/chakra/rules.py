"""Chakra's rule parameters, its immutable game state and the setup of a new game (chakra.md#setup, chakra.md#refill, chakra.md#end, chakra.md#parameters).

The actions and their legality live in :mod:`gamelib.chakra.actions`, the pieces in
:mod:`gamelib.chakra.components`, the final count in :mod:`gamelib.chakra.scoring`.
``State.apply`` checks and applies one action (``actions.apply_action``) and then finishes
the turn itself: the Maya refill after a Receive (chakra.md#refill) and the end checks of chakra.md#end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gamelib.core import (
    CHANCE, TERMINAL, IllegalMove, RulesBase, StateBase, chance_rng, check_int, check_switch, replace_fields,
    resolve_seed, returns_for, rules_or_default, single_winner, weighted_draw,
)
from gamelib.chakra import actions as _actions
from gamelib.chakra import scoring as _scoring
from gamelib.chakra.components import (
    CAPACITY, CHAKRAS, COLOUR_NAMES, ENERGIES_PER_COLOUR_PER_PLAYER, MAYA_COLUMNS, MEDITATION_TOKENS_PER_COLOUR,
    PLENITUDE_TOKENS, PlayerBoard, shown,
)

GAME = "chakra"
SAVE_VERSION = 3  # 3: a save carries the game's log and is replayed on loading; 2: observations are dicts
MAX_ROUNDS = 1000  # the largest max_rounds: five times the default, twenty times a greedy game
# The last state whose legal actions were listed (by identity) and those actions. Kept here rather than
# in a field of the state, so that a State holds only its fields and copies without ``__init__``.
_LISTED: list = [(None, ())]


# --------------------------------------------------------------------------- rule parameters (chakra.md#parameters)


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule parameter of Chakra; the defaults are the game as published (chakra.md#parameters)."""

    swap_discard_to_bag: bool = False  # SWAP puts the black back in the bag (before the choice)
    allow_repeat_meditation: bool = False  # Meditate may take a colour already held (BGA)
    colour_cap: int | None = 3  # most energies of one non-black colour on Bhagya + chakras; None = no cap
    bonus_min_run: int = 1  # smallest best run that earns the bonus; 0 = the literal reading
    inspiration_tokens: int = 5  # tokens per player
    end_trigger_harmonized: int = 5  # harmonized chakras that trigger the end
    harmonization_bonus: int = 2  # value of the run bonus
    # Engine safeguard (chakra.md#end), not a rule. The rules' own default would be None, but random players lock their
    # tokens in notches and then never trigger the end, so a game could run forever; 200 rounds is far
    # beyond any game that ends by the rules (greedy games take about 30-45). At most MAX_ROUNDS, so
    # that a save (which replays every move) stays small and loads in a fraction of a second.
    max_rounds: int | None = 200

    def __post_init__(self):
        check_switch("swap_discard_to_bag", self.swap_discard_to_bag)
        check_switch("allow_repeat_meditation", self.allow_repeat_meditation)
        check_int("colour_cap", self.colour_cap, 1, 12, allow_none=True)
        check_int("bonus_min_run", self.bonus_min_run, 0, 7)
        check_int("inspiration_tokens", self.inspiration_tokens, 1, 15)
        check_int("end_trigger_harmonized", self.end_trigger_harmonized, 1, 7)
        check_int("harmonization_bonus", self.harmonization_bonus, 0, 100)
        check_int("max_rounds", self.max_rounds, 1, MAX_ROUNDS, allow_none=True)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State(StateBase):
    """A Chakra position. Immutable; every field is public so a board can draw it."""

    rules: Rules
    players: tuple
    bag: tuple  # counts by colour id
    maya: tuple  # three sorted tuples of colour ids
    plenitude: tuple  # values for RED..PURPLE (index level - 1)
    unused_plenitude: int
    removed_blacks: int = 0
    first_player: int = 0
    to_move: int = 0
    turns: tuple = ()
    end_triggered: bool = False
    refill_pending: bool = False  # a Receive waits for its Maya refill (chance nodes, chakra.md#refill)
    finished: bool = False
    seed: Any = None
    draws: int = 0
    explicit_chance: bool = False
    # Every action applied since new_game (and, with explicit chance, every refill outcome), which a
    # save replays; None for a position built by hand (positions.position), which has no history.
    log: tuple | None = field(default=None, compare=False, repr=False)

    # ---------------------------------------------------------------- reading
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def is_terminal(self) -> bool:
        return self.finished

    @property
    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        return CHANCE if self.refill_pending else self.to_move

    @property
    def last_seat(self) -> int:
        """The seat whose turn closes a round (chakra.md#end)."""
        return (self.first_player - 1) % len(self.players)

    @property
    def ended_by_rules(self) -> bool:
        """True when the rules ended the game (the end trigger, chakra.md#end); False while it runs
        and when the ``max_rounds`` safeguard cut it short (``gamelib.design``'s completion)."""
        return self.finished and self.end_triggered

    @property
    def rounds_completed(self) -> int:
        return self.turns[self.last_seat]

    def known_plenitude(self, player: int) -> dict:
        """{colour id: value} of the plenitude values ``player`` knows (all of them at the end)."""
        if self.finished:
            return {level: self.plenitude[level - 1] for level in CHAKRAS}
        return {c: self.plenitude[c - 1] for c in sorted(set(self.players[player].meditation))}

    # ---------------------------------------------------------------- playing
    def legal_actions(self) -> list:
        if self.finished or self.refill_pending:
            return []
        entry = _LISTED[0]  # taken once and replaced whole: games on several threads never mix their listings
        if entry[0] is not self:  # a bot lists the actions, then applies one: list them once
            entry = (self, tuple(_actions.legal_actions(self)))
            _LISTED[0] = entry
        return list(entry[1])

    def chance_outcomes(self) -> list:
        """[(colour id, Fraction)] for the next refill draw: weight = energies of that colour in the bag (chakra.md#refill)."""
        if not self.refill_pending or self.finished:
            return []
        total = sum(self.bag)
        return [(colour, Fraction(count, total)) for colour, count in enumerate(self.bag) if count]

    def apply(self, action) -> "State":
        """The state after ``action`` (checked; ``IllegalMove`` with the rule's reason otherwise)."""
        if self.finished:
            raise IllegalMove("the game is over", action)
        if self.refill_pending:
            after = self._apply_refill(action)
        else:
            after = self._finish_turn(_actions.apply_action(self, action), isinstance(action, _actions.Receive))
        if self.log is not None:
            # ``after`` is a fresh copy nobody else holds yet, so setting its log costs no second copy
            object.__setattr__(after, "log", self.log + (action,))
        return after

    def _finish_turn(self, after: "State", received: bool) -> "State":
        return after._refill() if received else after._end_turn()

    def _apply_refill(self, colour) -> "State":
        if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < 8 or not self.bag[colour]:
            raise IllegalMove("a Maya refill is pending: the outcome must be a colour id still in the bag, "
                              f"not {shown(colour)}")
        maya, bag = list(self.maya), list(self.bag)
        _draw_into_maya(maya, bag, colour)
        state = replace_fields(self, maya=tuple(maya), bag=tuple(bag))
        return state if _needs_refill(maya, bag) else replace_fields(state, refill_pending=False)._end_turn()

    def _refill(self) -> "State":
        """Start the refill after a Receive (chakra.md#refill); resolve it from the seed unless chance is explicit."""
        maya, bag = list(self.maya), list(self.bag)
        if not _needs_refill(maya, bag):
            return self._end_turn()
        if self.explicit_chance:
            return replace_fields(self, refill_pending=True)
        draws = self.draws
        while _needs_refill(maya, bag):
            _draw_into_maya(maya, bag, weighted_draw(bag, chance_rng(self.seed, draws)))  # weights as chance_outcomes
            draws += 1
        return replace_fields(self, maya=tuple(maya), bag=tuple(bag), draws=draws)._end_turn()

    def _end_turn(self) -> "State":
        """chakra.md#end: trigger check, equal turns, safeguard, next seat."""
        actor = self.to_move
        turns = list(self.turns)
        turns[actor] += 1
        end_triggered = self.end_triggered or (
            len(self.players[actor].harmonized_levels()) >= self.rules.end_trigger_harmonized
        )
        finished = actor == self.last_seat and (
            end_triggered or (self.rules.max_rounds is not None and turns[actor] >= self.rules.max_rounds)
        )
        next_seat = actor if finished else (actor + 1) % len(self.players)
        return replace_fields(self, turns=tuple(turns), end_triggered=end_triggered, finished=finished,
                              to_move=next_seat, refill_pending=False)

    # ---------------------------------------------------------------- results
    def scores(self) -> list[int]:
        """Each player's score (chakra.md#scoring); provisional before the end (as if the game stopped now)."""
        plenitude = {COLOUR_NAMES[level]: self.plenitude[level - 1] for level in CHAKRAS}
        players = [{"harmonized": {COLOUR_NAMES[level] for level in board.harmonized_levels()},
                    "earth": board.earth} for board in self.players]
        return _scoring.final_scores(plenitude, players, self.rules)

    @property
    def winners(self) -> tuple:
        """The winning seats (ties share the victory, chakra.md#scoring); empty while the game goes on."""
        return _scoring.winners(self.scores()) if self.finished else ()

    @property
    def winner(self) -> int | None:
        """The seat when exactly one player won, else None."""
        return single_winner(self.winners)

    def returns(self) -> list[float]:
        """1/k for each of the k winners, 0 for the others (all 0 before the end)."""
        return returns_for(self.winners, len(self.players))


def _needs_refill(maya, bag) -> bool:
    return any(bag) and any(len(contents) < CAPACITY for contents in maya)


def _draw_into_maya(maya: list, bag: list, colour: int) -> None:
    """Put one energy of ``colour`` from the bag into the first Maya column with room (chakra.md#refill)."""
    column = next(i for i, contents in enumerate(maya) if len(contents) < CAPACITY)
    maya[column] = tuple(sorted(maya[column] + (colour,)))
    bag[colour] -= 1


# --------------------------------------------------------------------------- setup (chakra.md#setup)


def new_game(seed=None, rules: Rules | None = None, *, explicit_chance: bool = False, players: int = 2,
             first_player: int = 0) -> State:
    """A fresh game (chakra.md#setup). Every setup draw comes from ``chance_rng(seed, k)`` with exact weights,
    so the same seed gives the same setup; ``seed=None`` picks a fresh seed (kept in the state)."""
    rules = rules_or_default(rules, Rules)
    if type(players) is not int or not 2 <= players <= 4:
        raise ValueError(f"Chakra is for 2 to 4 players, not {players!r}")
    if type(first_player) is not int or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}, not {first_player!r}")
    seed = resolve_seed(seed)
    draws = 0

    def draw(weights: list[int]) -> int:
        nonlocal draws
        outcome = weighted_draw(weights, chance_rng(seed, draws))
        draws += 1
        weights[outcome] -= 1
        return outcome

    bag = [ENERGIES_PER_COLOUR_PER_PLAYER * players] * 8
    token_counts = [PLENITUDE_TOKENS.count(value) for value in range(5)]  # index = value
    plenitude = tuple(draw(token_counts) for _ in CHAKRAS)
    unused = token_counts.index(1)
    maya = tuple(tuple(sorted(draw(bag) for _ in range(CAPACITY))) for _ in range(MAYA_COLUMNS))
    pool = [0] + [MEDITATION_TOKENS_PER_COLOUR] * 7
    meditation = [0] * players
    for offset in range(players):
        meditation[(first_player + offset) % players] = draw(pool)
    boards = tuple(PlayerBoard(levels=((),) * 9, reserve=rules.inspiration_tokens, meditation=(meditation[p],))
                   for p in range(players))
    return State(rules=rules, players=boards, bag=tuple(bag), maya=maya, plenitude=plenitude,
                 unused_plenitude=unused, first_player=first_player, to_move=first_player,
                 turns=(0,) * players, seed=seed, draws=draws, explicit_chance=explicit_chance, log=())

