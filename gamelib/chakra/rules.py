"""Chakra's rule parameters, its immutable game state and the setup of a new game (chakra.md#setup, chakra.md#refill, chakra.md#end, chakra.md#parameters).

The actions, their legality and the building of the next state live in
:mod:`gamelib.chakra.actions` (``State.apply`` is ``actions.apply_action``: the check, the move,
the Maya refill of chakra.md#refill and the end checks of chakra.md#end, ``actions.check_end``);
the pieces in :mod:`gamelib.chakra.components`, the final count in :mod:`gamelib.chakra.scoring`,
``GAME`` and ``SAVE_VERSION`` with the saves in :mod:`gamelib.chakra.saving`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from typing import Any

from gamelib.core import (
    CHANCE,
    TERMINAL,
    RulesBase,
    StateBase,
    chance_rng,
    check_int,
    check_switch,
    resolve_seed,
    returns_for,
    rules_or_default,
    single_winner,
    weighted_draw,
)
from gamelib.chakra import actions as _actions
from gamelib.chakra import scoring as _scoring
from gamelib.chakra.components import (
    CAPACITY,
    CHAKRAS,
    COLOUR_NAMES,
    ENERGIES_PER_COLOUR_PER_PLAYER,
    MAYA_COLUMNS,
    MEDITATION_TOKENS_PER_COLOUR,
    PLENITUDE_TOKENS,
    PlayerBoard,
)

MAX_ROUNDS = 1000  # the largest max_rounds: five times the default, twenty times a greedy game


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
        """Every legal action of the player to move, in the order of chakra.md#programmers (none at a
        chance node or at the end)."""
        if self.finished or self.refill_pending:
            return []
        return _actions.legal_actions(self)

    def chance_outcomes(self) -> list:
        """[(colour id, Fraction)] for the next refill draw: weight = energies of that colour in the bag (chakra.md#refill)."""
        if not self.refill_pending or self.finished:
            return []
        total = sum(self.bag)
        return [(colour, Fraction(count, total)) for colour, count in enumerate(self.bag) if count]

    apply = _actions.apply_action  # the state after an action or a refill outcome; checked, pure

    # ---------------------------------------------------------------- results
    def scores(self) -> tuple[int, ...]:
        """Each player's score (chakra.md#scoring); provisional before the end (as if the game stopped now)."""
        plenitude = {COLOUR_NAMES[level]: self.plenitude[level - 1] for level in CHAKRAS}
        players = [
            {"harmonized": {COLOUR_NAMES[level] for level in board.harmonized_levels()}, "earth": board.earth}
            for board in self.players
        ]
        return tuple(_scoring.final_scores(plenitude, players, self.rules))

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


# --------------------------------------------------------------------------- setup (chakra.md#setup)


def new_game(
    seed=None, rules: Rules | None = None, *, explicit_chance: bool = False, players: int = 2, first_player: int = 0
) -> State:
    """A fresh game (chakra.md#setup). Every setup draw comes from ``chance_rng(seed, k)`` with exact weights,
    so the same seed gives the same setup; ``seed=None`` picks a fresh seed (kept in the state)."""
    rules = rules_or_default(rules, Rules)
    if type(players) is not int or not 2 <= players <= 4:
        raise ValueError(f"Chakra is for 2 to 4 players, not {players!r}")
    if type(first_player) is not int or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}, not {first_player!r}")
    setup = (resolve_seed(seed), rules, explicit_chance, players, first_player)
    try:
        return _set_up(*setup)
    except TypeError:  # an unhashable explicit_chance (any value is read as true or false): not a key
        return _set_up.__wrapped__(*setup)


# Setups kept by _set_up. OpenSpiel starts every game from the same setup (seed 0, explicit chance) and rebuilds it
# to deserialise a state (4,500 times in one of its random_sim_test games); a setup is 18 seeded draws, about
# 0.2 ms. A setup is a few small tuples.
SETUPS_KEPT = 64


@lru_cache(maxsize=SETUPS_KEPT, typed=True)
def _set_up(seed, rules: Rules, explicit_chance: bool, players: int, first_player: int) -> State:
    """The setup of :func:`new_game` for checked arguments, in a bounded standard-library cache keyed by value
    (the seed, frozen rules, booleans and numbers, their types too): a State is immutable, so equal arguments may
    share one."""
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
    boards = tuple(
        PlayerBoard(levels=((),) * 9, reserve=rules.inspiration_tokens, meditation=(meditation[p],))
        for p in range(players)
    )
    return State(
        rules=rules,
        players=boards,
        bag=tuple(bag),
        maya=maya,
        plenitude=plenitude,
        unused_plenitude=unused,
        first_player=first_player,
        to_move=first_player,
        turns=(0,) * players,
        seed=seed,
        draws=draws,
        explicit_chance=explicit_chance,
        log=(),
    )
