"""Chakra's constants, rule parameters, game state, setup, saving and text board (spec §1-5, 11-14).

The actions and their legality live in :mod:`gamelib.chakra.moves`; the final count in
:mod:`gamelib.chakra.scoring`. A :class:`State` is immutable: ``apply`` returns a new one.
Levels and colours are plain ints (a colour's id is its home level, §1) so that the move
generator can index tuples directly; the name tables below turn them into words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from gamelib.core import CHANCE, TERMINAL, IllegalMove, chance_rng, load_json, new_seed

# --------------------------------------------------------------------------- constants (§1)

EARTH = BLACK = 0
RED, ORANGE, YELLOW, GREEN, LIGHT_BLUE, DARK_BLUE, PURPLE = range(1, 8)
BHAGYA = 8
COLOURS = tuple(range(8))
CHAKRAS = tuple(range(1, 8))
COLOUR_NAMES = ("BLACK", "RED", "ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE", "PURPLE")
LEVEL_NAMES = ("EARTH",) + COLOUR_NAMES[1:] + ("BHAGYA",)
LETTERS = "KROYGLDP"
DOWN, UP = -1, 1
CAPACITY = 3  # energies per chakra and bubbles in the Bhagya
MAYA_COLUMNS = 3
PLENITUDE_TOKENS = (1, 1, 2, 2, 3, 3, 4, 4)
MEDITATION_TOKENS_PER_COLOUR = 4
ENERGIES_PER_COLOUR_PER_PLAYER = 3

_COLOUR_BY_WORD = {name: i for i, name in enumerate(COLOUR_NAMES)}
_COLOUR_BY_WORD.update({letter: i for i, letter in enumerate(LETTERS)})
_COLOUR_BY_WORD.update({"BLUE": LIGHT_BLUE, "DARKBLUE": DARK_BLUE, "INDIGO": DARK_BLUE})  # BGA's names (§1)
_LEVEL_BY_WORD = {name: i for i, name in enumerate(LEVEL_NAMES)}


def colour_id(colour: int | str) -> int:
    """The id of a colour given as an id, a name ("YELLOW", "light_blue") or a letter ("Y")."""
    if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < 8:
        return colour
    if isinstance(colour, str) and colour.strip().upper().replace(" ", "_") in _COLOUR_BY_WORD:
        return _COLOUR_BY_WORD[colour.strip().upper().replace(" ", "_")]
    raise IllegalMove(f"{colour!r} is not a colour: use one of {', '.join(COLOUR_NAMES)} or a letter of {LETTERS}")


def level_id(level: int | str) -> int:
    """The id of a level given as an id (0-8) or a name ("EARTH", "GREEN", "BHAGYA")."""
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= BHAGYA:
        return level
    if isinstance(level, str):
        word = level.strip().upper().replace(" ", "_")
        if word in _LEVEL_BY_WORD:
            return _LEVEL_BY_WORD[word]
        if word in _COLOUR_BY_WORD and _COLOUR_BY_WORD[word] != BLACK:
            return _COLOUR_BY_WORD[word]
    raise IllegalMove(f"{level!r} is not a level: use EARTH, a chakra colour (RED .. PURPLE) or BHAGYA")


def colour_word(colour: int) -> str:
    """A colour as a student reads it in a sentence: "light blue"."""
    return COLOUR_NAMES[colour].lower().replace("_", " ")


def level_word(level: int) -> str:
    """A level as a student reads it in a sentence: "the yellow chakra", "the Bhagya"."""
    if level == BHAGYA:
        return "the Bhagya"
    if level == EARTH:
        return "the Earth"
    return f"the {colour_word(level)} chakra"


# --------------------------------------------------------------------------- channel spaces (§7.1)

SPACES = ("D3", "D1x3", "D2_D1", "U2", "U1x2", "D1_U1", "U1_or_D1", "SWAP")
SPACE_PATTERNS = {
    "D3": (((DOWN, 3),),),
    "D1x3": (((DOWN, 1), (DOWN, 1), (DOWN, 1)),),
    "D2_D1": (((DOWN, 2), (DOWN, 1)), ((DOWN, 1), (DOWN, 2))),
    "U2": (((UP, 2),),),
    "U1x2": (((UP, 1), (UP, 1)),),
    "D1_U1": (((DOWN, 1), (UP, 1)), ((UP, 1), (DOWN, 1))),
    "U1_or_D1": (((UP, 1),), ((DOWN, 1),)),
    "SWAP": (),
}
SPACE_EFFECTS = {
    "D3": "one energy down 3",
    "D1x3": "three different energies, each down 1",
    "D2_D1": "one energy down 2 and another down 1, in either order",
    "U2": "one energy up 2",
    "U1x2": "two different energies, each up 1",
    "D1_U1": "one energy down 1 and another up 1, in either order",
    "U1_or_D1": "one energy up 1 or down 1",
    "SWAP": "give up one alleviated black and take a chosen energy from the bag onto the Bhagya",
}
SPACE_NUMBERS = {  # §7.1: the German game help and Board Game Arena number spaces 1-3 differently
    "D3": {"help": 3, "bga": 1}, "D1x3": {"help": 1, "bga": 2}, "D2_D1": {"help": 2, "bga": 3},
    "U2": {"help": 4, "bga": 4}, "U1x2": {"help": 5, "bga": 5}, "D1_U1": {"help": 6, "bga": 6},
    "U1_or_D1": {"help": 7, "bga": 7}, "SWAP": {"help": 8, "bga": 8},
}
_SPACE_BY_ALIAS = {f"{scheme}:{n}": space for space, numbers in SPACE_NUMBERS.items() for scheme, n in numbers.items()}


def space_id(space: str) -> str:
    """The canonical id of a channel space; accepts the ids and the qualified aliases ``help:N`` / ``bga:N``."""
    if space in SPACE_PATTERNS:
        return space
    if isinstance(space, str) and space.strip().lower() in _SPACE_BY_ALIAS:
        return _SPACE_BY_ALIAS[space.strip().lower()]
    raise IllegalMove(f"there is no channel space {space!r}: the spaces are {', '.join(SPACES)} "
                      "(or help:1-8 / bga:1-8)")


# --------------------------------------------------------------------------- rule parameters (§13)


@dataclass(frozen=True)
class Rules:
    """Every rule parameter of Chakra; the defaults are the game of the spec (§13)."""

    swap_discard_to_bag: bool = False  # SWAP puts the black back in the bag (before the choice)
    allow_repeat_meditation: bool = False  # Meditate may take a colour already held (BGA)
    colour_cap: int | None = 3  # most energies of one non-black colour on Bhagya + chakras; None = no cap
    bonus_min_run: int = 1  # smallest best run that earns the bonus; 0 = the literal reading
    inspiration_tokens: int = 5  # tokens per player
    end_trigger_harmonized: int = 5  # harmonized chakras that trigger the end
    harmonization_bonus: int = 2  # value of the run bonus
    max_rounds: int | None = None  # engine safeguard for bot play (§11.4), not a rule

    def __post_init__(self):
        for name in ("swap_discard_to_bag", "allow_repeat_meditation"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        _check_int("colour_cap", self.colour_cap, 1, 12, allow_none=True)
        _check_int("bonus_min_run", self.bonus_min_run, 0, 7)
        _check_int("inspiration_tokens", self.inspiration_tokens, 1, 15)
        _check_int("end_trigger_harmonized", self.end_trigger_harmonized, 1, 7)
        _check_int("harmonization_bonus", self.harmonization_bonus, 0, 100)
        _check_int("max_rounds", self.max_rounds, 1, 100_000, allow_none=True)

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "Rules":
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise ValueError(f"unknown rule parameter(s): {', '.join(sorted(unknown))}")
        return cls(**data)


def _check_int(name, value, low, high, allow_none=False):
    if value is None and allow_none:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        extra = " or None" if allow_none else ""
        raise ValueError(f"{name} must be a whole number from {low} to {high}{extra}, not {value!r}")


def evolve(value, **changes):
    """A copy of a frozen dataclass with some fields changed: ``dataclasses.replace`` without its
    overhead (the engine calls it several times per action). A State's cache starts empty."""
    new = object.__new__(type(value))
    fields_of_new = new.__dict__
    fields_of_new.update(value.__dict__)
    fields_of_new.update(changes)
    if "_cache" in fields_of_new:
        fields_of_new["_cache"] = {}
    return new


def draw_weighted(weights, rng) -> int:
    """Index ``i`` with probability ``weights[i] / sum(weights)`` exactly (integer arithmetic)."""
    ticket = rng.randrange(sum(weights))
    for index, weight in enumerate(weights):
        if ticket < weight:
            return index
        ticket -= weight
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------- player board (§3)


def _harmonized(contents: tuple, level: int) -> bool:
    return len(contents) == 3 and contents[0] == level and contents[1] == level and contents[2] == level


@dataclass(frozen=True)
class PlayerBoard:
    """One player's board: the track from EARTH to BHAGYA and the Inspiration tokens (§3)."""

    levels: tuple = ((),) * 9  # index 1-7 chakras, 8 Bhagya; sorted tuples of colour ids
    earth: int = 0
    reserve: int = 5
    spaces: frozenset = frozenset()
    notches: frozenset = frozenset()
    meditation: tuple = ()

    def free(self, level: int) -> int:
        """Free spaces on a chakra or bubbles on the Bhagya."""
        return CAPACITY - len(self.levels[level])

    def count(self, colour: int) -> int:
        """Energies of ``colour`` on the Bhagya and the chakras (the Earth excluded)."""
        return sum(contents.count(colour) for contents in self.levels)

    def colour_counts(self) -> list[int]:
        counts = [0] * 8
        for contents in self.levels:
            for colour in contents:
                counts[colour] += 1
        return counts

    def harmonized(self, level: int) -> bool:
        return 1 <= level <= 7 and _harmonized(self.levels[level], level)

    def harmonized_levels(self) -> tuple:
        return tuple(level for level in CHAKRAS if _harmonized(self.levels[level], level))

    def run(self) -> int:
        """Chakras harmonized consecutively from RED upwards (§3)."""
        run = 0
        while run < 7 and _harmonized(self.levels[run + 1], run + 1):
            run += 1
        return run

    def tokens_out(self) -> int:
        return len(self.spaces) + len(self.notches)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State:
    """A Chakra position. Immutable; every field is public so a board can draw it."""

    rules: Rules
    players: tuple
    bag: tuple  # counts by colour id
    maya: tuple  # three sorted tuples of colour ids
    plenitude: tuple  # values for RED..PURPLE (index level - 1); None where hidden
    unused_plenitude: int | None
    removed_blacks: int = 0
    first_player: int = 0
    to_move: int = 0
    turns: tuple = ()
    end_triggered: bool = False
    refill_pending: bool = False  # a Receive waits for its Maya refill (chance nodes, §6.4)
    finished: bool = False
    seed: Any = None
    draws: int = 0
    explicit_chance: bool = False
    viewer: int | None = None  # the seat whose observation this is; None = the full state
    _cache: dict = field(default_factory=dict, init=False, compare=False, repr=False)

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
        """The seat whose turn closes a round (§11.2)."""
        return (self.first_player - 1) % len(self.players)

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
        cached = self._cache.get("legal")
        if cached is None:
            cached = self._cache["legal"] = _moves.legal_actions(self)
        return list(cached)

    def chance_outcomes(self) -> list:
        """[(colour id, Fraction)] for the next refill draw: weight = energies of that colour in the bag (§6.4)."""
        if not self.refill_pending or self.finished:
            return []
        total = sum(self.bag)
        return [(colour, Fraction(count, total)) for colour, count in enumerate(self.bag) if count]

    def apply(self, action) -> "State":
        if self.finished:
            raise IllegalMove("the game is over", action)
        if self.refill_pending:
            return self._apply_refill(action)
        return _moves.apply_action(self, action)

    def _apply_refill(self, colour) -> "State":
        if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < 8 or not self.bag[colour]:
            raise IllegalMove(f"a Maya refill is pending: the outcome must be a colour id still in the bag, not {colour!r}")
        return self._draw_into_maya(colour)._after_draw()

    def _draw_into_maya(self, colour: int) -> "State":
        column = next(i for i, contents in enumerate(self.maya) if len(contents) < CAPACITY)
        maya = list(self.maya)
        maya[column] = tuple(sorted(maya[column] + (colour,)))
        bag = list(self.bag)
        bag[colour] -= 1
        return evolve(self, maya=tuple(maya), bag=tuple(bag))

    def _after_draw(self) -> "State":
        if self._needs_refill():
            return self
        return evolve(self, refill_pending=False)._end_turn()

    def _needs_refill(self) -> bool:
        return any(self.bag) and any(len(contents) < CAPACITY for contents in self.maya)

    def _refill(self) -> "State":
        """Start the refill after a Receive (§6.4); resolve it from the seed unless chance is explicit."""
        state = evolve(self, refill_pending=True)
        if not state._needs_refill():
            return evolve(state, refill_pending=False)._end_turn()
        if self.explicit_chance:
            return state
        draws = state.draws
        while state._needs_refill():
            colour = draw_weighted(state.bag, chance_rng(state.seed, draws))  # weight bag[c], as chance_outcomes
            state = state._draw_into_maya(colour)
            draws += 1
        return evolve(state, refill_pending=False, draws=draws)._end_turn()

    def _end_turn(self) -> "State":
        """§11: trigger check, equal turns, safeguard, next seat."""
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
        return evolve(self, turns=tuple(turns), end_triggered=end_triggered, finished=finished,
                       to_move=next_seat)

    # ---------------------------------------------------------------- results
    def scores(self) -> list[int]:
        """Each player's score (§12); provisional before the end (as if the game stopped now)."""
        if any(value is None for value in self.plenitude):
            raise ValueError("this view does not know every plenitude value, so it cannot score the game")
        plenitude = {COLOUR_NAMES[level]: self.plenitude[level - 1] for level in CHAKRAS}
        players = [{"harmonized": {COLOUR_NAMES[level] for level in board.harmonized_levels()},
                    "earth": board.earth} for board in self.players]
        return _scoring.final_scores(plenitude, players, self.rules)

    def returns(self) -> list[float]:
        if not self.finished:
            return [0.0] * len(self.players)
        return [float(score) for score in self.scores()]

    @property
    def winner(self) -> tuple | None:
        """The tuple of winning seats (ties share the victory, §12), or None before the end."""
        if not self.finished:
            return None
        return _scoring.winners(self.scores())

    # ---------------------------------------------------------------- hidden information (§14.6)
    def observation(self, player: int) -> "State":
        """What ``player`` may see: plenitude values outside their Meditation tokens are None,
        and the seed is dropped (it would reveal future draws), so the view stops at chance nodes."""
        if not 0 <= player < len(self.players):
            raise ValueError(f"there is no seat {player} in a {len(self.players)}-player game")
        if self.finished:
            plenitude, unused = self.plenitude, self.unused_plenitude
        else:
            known = set(self.players[player].meditation)
            plenitude = tuple(v if level in known else None for level, v in zip(CHAKRAS, self.plenitude))
            unused = None
        return evolve(self, plenitude=plenitude, unused_plenitude=unused, seed=None,
                       explicit_chance=True, viewer=player)

    # ---------------------------------------------------------------- saving
    def to_dict(self) -> dict:
        """The state as a JSON-ready dict with colour and level *names* (the save format)."""
        return {
            "game": "chakra",
            "version": SAVE_VERSION,
            "rules": self.rules.to_dict(),
            "bag": {COLOUR_NAMES[c]: n for c, n in enumerate(self.bag)},
            "maya": [[COLOUR_NAMES[c] for c in column] for column in self.maya],
            "plenitude": {COLOUR_NAMES[level]: self.plenitude[level - 1] for level in CHAKRAS},
            "unused_plenitude": self.unused_plenitude,
            "removed_blacks": self.removed_blacks,
            "first_player": self.first_player,
            "to_move": self.to_move,
            "turns": list(self.turns),
            "end_triggered": self.end_triggered,
            "refill_pending": self.refill_pending,
            "finished": self.finished,
            "seed": self.seed,
            "draws": self.draws,
            "explicit_chance": self.explicit_chance,
            "viewer": self.viewer,
            "players": [_board_to_dict(board) for board in self.players],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text) -> "State":
        return _load.state_from_dict(load_json(text, "Chakra save"))

    def __str__(self) -> str:
        return _text.board_text(self)


SAVE_VERSION = 1


def _board_to_dict(board: PlayerBoard) -> dict:
    return {
        "levels": {LEVEL_NAMES[level]: [COLOUR_NAMES[c] for c in board.levels[level]] for level in range(1, 9)},
        "earth": board.earth,
        "reserve": board.reserve,
        "spaces": [space for space in SPACES if space in board.spaces],
        "notches": [LEVEL_NAMES[level] for level in sorted(board.notches)],
        "meditation": [COLOUR_NAMES[c] for c in board.meditation],
    }


# --------------------------------------------------------------------------- setup (§4)


def new_game(players: int = 2, seed=None, rules: Rules | None = None, first_player: int = 0,
             explicit_chance: bool = False) -> State:
    """A fresh game (§4). Every setup draw comes from ``chance_rng(seed, k)`` with exact weights,
    so the same seed gives the same setup; ``seed=None`` picks a fresh seed (kept in the state)."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError("rules must be a gamelib.chakra.Rules value")
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"Chakra is for 2 to 4 players, not {players!r}")
    if not isinstance(first_player, int) or not 0 <= first_player < players:
        raise ValueError(f"first_player must be a seat from 0 to {players - 1}, not {first_player!r}")
    seed = new_seed() if seed is None else seed
    draws = 0

    def draw(weights: list[int]) -> int:
        nonlocal draws
        outcome = draw_weighted(weights, chance_rng(seed, draws))
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
                 turns=(0,) * players, seed=seed, draws=draws, explicit_chance=explicit_chance)


def position(players: list[dict] | None = None, *, num_players: int = 2, to_move: int = 0, maya=None, bag=None,
             plenitude=(1, 2, 3, 1, 2, 4, 3), unused_plenitude: int = 4, rules: Rules | None = None,
             seed=0, **state_fields) -> State:
    """Build a position by hand (lessons, tests): ``players`` is a list of dicts such as
    ``{"GREEN": "Y K", "EARTH": 2, "reserve": 4, "spaces": ["D3"], "notches": ["YELLOW"],
    "meditation": ["RED"]}``; missing players get empty boards. ``bag`` defaults to every
    energy not on a board or in the Maya, so the counts stay conserved (§3)."""
    rules = Rules() if rules is None else rules
    specs = list(players or [])
    num_players = max(num_players, len(specs))
    specs += [{}] * (num_players - len(specs))
    boards = tuple(_board_from_spec(spec, rules) for spec in specs)
    maya = tuple(tuple(sorted(colour_id(c) for c in _letters(column))) for column in (maya or ((), (), ())))
    if bag is None:
        counts = [ENERGIES_PER_COLOUR_PER_PLAYER * num_players] * 8
        for board in boards:
            for c, n in enumerate(board.colour_counts()):
                counts[c] -= n
            counts[BLACK] -= board.earth
        for column in maya:
            for c in column:
                counts[c] -= 1
        if min(counts) < 0:
            raise ValueError("this position holds more energies of a colour than the game has")
        bag = tuple(counts)
    elif isinstance(bag, dict):
        bag = tuple(sum(n for key, n in bag.items() if colour_id(key) == c) for c in COLOURS)
    return State(rules=rules, players=boards, bag=tuple(bag), maya=maya, plenitude=tuple(plenitude),
                 unused_plenitude=unused_plenitude, to_move=to_move,
                 turns=tuple(state_fields.pop("turns", (0,) * num_players)), seed=seed, **state_fields)


def _letters(text) -> list:
    if isinstance(text, str):
        return text.split()
    return list(text)


def _board_from_spec(spec: dict, rules: Rules) -> PlayerBoard:
    levels = [()] * 9
    extra = {"earth": 0, "spaces": frozenset(), "notches": frozenset(), "meditation": ()}
    reserve = None
    for key, value in spec.items():
        word = key.upper()
        if word == "EARTH":
            extra["earth"] = value
        elif word == "RESERVE":
            reserve = value
        elif word == "SPACES":
            extra["spaces"] = frozenset(space_id(s) for s in value)
        elif word == "NOTCHES":
            extra["notches"] = frozenset(level_id(level) for level in value)
        elif word == "MEDITATION":
            extra["meditation"] = tuple(sorted(colour_id(c) for c in value))
        else:
            level = level_id(key)
            levels[level] = tuple(sorted(colour_id(c) for c in _letters(value)))
    if reserve is None:
        reserve = rules.inspiration_tokens - len(extra["spaces"]) - len(extra["notches"])
    elif "spaces" not in {key.lower() for key in spec}:
        # §15: tokens not mentioned lie on channel spaces the vector does not use (taken from SWAP backwards)
        missing = rules.inspiration_tokens - reserve - len(extra["notches"])
        extra["spaces"] = frozenset(SPACES[::-1][:max(0, missing)])
    return PlayerBoard(levels=tuple(levels), reserve=reserve, **extra)


# Late imports: these modules use the names above.
from gamelib.chakra import moves as _moves  # noqa: E402
from gamelib.chakra import scoring as _scoring  # noqa: E402
from gamelib.chakra import saving as _load  # noqa: E402
from gamelib.chakra import text as _text  # noqa: E402
