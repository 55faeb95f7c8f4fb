"""Action numbers, chance numbers and numeric observations for the framework adapters (no framework needed).

PettingZoo, Gymnasium and OpenSpiel all want a fixed ``Discrete(n)`` action space: an action is a
number below ``n``. Each game's :class:`GameShape` says how its moves are numbered:

* **Pangu** (:class:`PanguNumbering`) numbers every placement there is, whether legal or not::

      number = ((card * 2 + die) * cells + cell) * 2 + turned

  ``card`` is the card's place in the deck file (teaching deck: A1..A10 -> 0..9), ``die`` 0 for
  BLUE and 1 for WHITE, ``cell`` the row-major index of the cell in the grid (3x4 and 4x3: 12
  cells), ``turned`` 1 for a card turned 180 degrees. The teaching deck gives ``n = 10*2*12*2 = 480``.
  A number means the same placement in every position.

* **Chakra, Nagaraja and any contract game** (:class:`ListingNumbering`): number ``k`` is the
  ``k``-th action of ``state.legal_actions()``, which the contract lists "in a fixed order"
  (chakra.md#programmers, nagaraja.md#programmers). Their whole spaces are too large to number
  one by one (a Chakra Channel is a sequence of up to three steps, each a level, colour, direction
  and distance; a Nagaraja Naga use carries cards, sticks and spots), so ``n`` is a bound on the
  length of a listing, checked at every position (a longer listing raises a ``ValueError`` naming the
  bound instead of being cut). Why this is sound for OpenSpiel's algorithms, which assume that a
  number means the same move in the same information state: the listing is a function of what the
  player to act knows (a player sees every option they have: a listing that depended on something
  hidden would itself reveal it), so two histories the player cannot tell apart list the same moves
  in the same order, and number ``k`` is the same move in both. The tests check this on every pair of
  positions with equal information states that their games meet.

Chance outcomes are numbered the same way, by their place in ``chance_outcomes()`` (a chance node is
no information state, so only the replay of a history needs the numbering to be fixed: it is).

Observations: a JSON-compatible dict is encoded as the UTF-8 bytes of its canonical JSON text
(sorted keys, no spaces), zero-padded to a fixed length: exactly what ``observation(player)`` holds,
nothing more, and :func:`decode_observation` gives the dict back.
"""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

try:  # the frameworks extra installs orjson: the same canonical bytes, several times faster (canonical_json)
    import orjson
except ImportError:  # pragma: no cover - without it the standard library's encoder gives the same bytes
    orjson = None

from gamelib.core import CHANCE, IllegalMove, sample_outcome

# --------------------------------------------------------------------------- action numberings


class ListingNumbering:
    """Number ``k`` = the ``k``-th action of ``state.legal_actions()`` (for games too large to number move by move).

    Every method takes the listing as ``actions`` when the caller has it already (the adapters list a position
    once per move: :class:`Listings`), else lists ``state`` itself."""

    def __init__(self, size: int):
        self.size = size

    def _listing(self, state, actions=None) -> list:
        if actions is None:
            actions = state.legal_actions()
        if len(actions) > self.size:
            raise ValueError(
                f"this position lists {len(actions)} legal actions, more than the {self.size} "
                f"the numbering allows; build the adapter with a larger max_actions"
            )
        return actions

    def legal_numbers(self, state, actions=None) -> list[int]:
        """The numbers of the legal actions, ascending."""
        return list(range(len(self._listing(state, actions))))

    def legal_mask(self, state, actions=None) -> np.ndarray:
        """The action mask: int8, 1 at the legal actions' numbers (here the first ``len(listing)``), 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[: len(self._listing(state, actions))] = 1  # a slice: numbers 0..n-1, without a list of n numbers
        return mask

    def number(self, state, action, actions=None) -> int:
        """The number of a legal ``action`` in ``state``."""
        for index, legal in enumerate(self._listing(state, actions)):
            if legal == action:
                return index
        raise IllegalMove(f"{action} is not a legal action here, so it has no number", action)

    def action(self, state, number, actions=None) -> Any:
        """The action numbered ``number`` in ``state``; a number with no legal action raises IllegalMove."""
        actions = self._listing(state, actions)
        if type(number) is int and 0 <= number < len(actions):  # the usual case, without _is_index's checks
            return actions[number]
        if not _is_index(number, len(actions)):
            raise IllegalMove(
                f"action number {number!r} is not legal here: this position has actions 0 to {len(actions) - 1}", number
            )
        return actions[int(number)]

    def describe(self) -> str:
        return (
            f"Discrete({self.size}): number k is the k-th action of legal_actions() "
            "(the game's fixed listing order); numbers past the listing are illegal"
        )


def _is_index(number, length: int) -> bool:
    return isinstance(number, (int, np.integer)) and not isinstance(number, bool) and 0 <= number < length


class PanguNumbering:
    """Every placement of a Pangu deck numbered once: ((card * 2 + die) * cells + cell) * 2 + turned.

    The table of every placement and its number is built once per deck and grid (480 entries for the
    teaching deck), so numbering a listing is one dictionary look-up per move."""

    DICE = ("BLUE", "WHITE")

    def __init__(self, card_ids, cells):
        from gamelib.pangu.actions import Action

        self.card_ids = tuple(card_ids)
        self.cells = tuple(tuple(cell) for cell in cells)
        self.size = len(self.card_ids) * 2 * len(self.cells) * 2
        self._placements = tuple(
            Action(card, die, cell, turned)
            for card in self.card_ids
            for die in self.DICE
            for cell in self.cells
            for turned in (0, 180)
        )  # in number order: the formula's digits, outermost first
        self._numbers = {placement: n for n, placement in enumerate(self._placements)}

    def number(self, state, action, actions=None) -> int:
        card, die, cell, orientation = action
        return self._numbers[(card, die, tuple(cell), 180 if orientation == 180 else 0)]

    def action(self, state, number, actions=None) -> Any:
        if not _is_index(number, self.size):
            raise IllegalMove(f"action number {number!r} is outside Pangu's 0 to {self.size - 1}", number)
        action = self._placements[int(number)]
        if action not in (state.legal_actions() if actions is None else actions):
            raise IllegalMove(f"action {number} ({action}) is not legal here", number)
        return action

    def legal_numbers(self, state, actions=None) -> list[int]:
        numbers = self._numbers
        return sorted(numbers[action] for action in (state.legal_actions() if actions is None else actions))

    def legal_mask(self, state, actions=None) -> np.ndarray:
        """The action mask: int8, 1 at the legal placements' numbers, 0 elsewhere."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[self.legal_numbers(state, actions)] = 1
        return mask

    def describe(self) -> str:
        return (
            f"Discrete({self.size}): number = ((card * 2 + die) * {len(self.cells)} + cell) * 2 + turned, "
            f"card = place in the deck {self.card_ids}, die 0 BLUE / 1 WHITE, cell = row-major index of "
            f"{self.cells}, turned 1 for 180 degrees"
        )

    def __reduce__(self):
        return (PanguNumbering, (self.card_ids, self.cells))


class ChanceNumbering:
    """Chance outcome number ``k`` = the ``k``-th outcome of ``chance_outcomes()`` (``outcomes``: that listing
    when the caller has it already)."""

    def __init__(self, size: int):
        self.size = size

    def outcomes(self, state, outcomes=None) -> list:
        if outcomes is None:
            outcomes = state.chance_outcomes()
        if len(outcomes) > self.size:
            raise ValueError(
                f"this chance node has {len(outcomes)} outcomes, more than the {self.size} the "
                f"numbering allows; build the adapter with a larger max_chance_outcomes"
            )
        return outcomes

    def outcome(self, state, number, outcomes=None):
        outcomes = self.outcomes(state, outcomes)
        if not _is_index(number, len(outcomes)):
            raise IllegalMove(f"chance outcome {number!r} does not exist here (0 to {len(outcomes) - 1})", number)
        return outcomes[int(number)][0]

    def number(self, state, outcome, outcomes=None) -> int:
        for index, (candidate, _) in enumerate(self.outcomes(state, outcomes)):
            if candidate == outcome:
                return index
        raise IllegalMove(f"{outcome!r} is not an outcome of this chance node", outcome)


class Listings:
    """The legal actions, the chance outcomes and an observation of the last position asked about, for one adapter.

    An adapter needs a position's listing two or three times a move (the mask or ``legal_actions``, then the
    number's action); listing a Chakra position costs about a millisecond. The position is held (compared by
    identity, ``is``, with a strong reference, so it cannot be mistaken for another), and replaced whole by the
    next one: nothing grows. Gamelib states are immutable, so a listing read off one stays true."""

    __slots__ = ("_actions", "_outcomes", "_seen")

    def __init__(self):
        self._actions = (None, None)
        self._outcomes = (None, None)
        self._seen = (None, None, None)

    def actions(self, state) -> list:
        held, actions = self._actions
        if held is not state:
            actions = state.legal_actions()
            self._actions = (state, actions)
        return actions

    def outcomes(self, state) -> list:
        held, outcomes = self._outcomes
        if held is not state:
            outcomes = state.chance_outcomes()
            self._outcomes = (state, outcomes)
        return outcomes

    def observation(self, state, seat: int) -> dict:
        """``state.observation(seat)``, built once for the last state and seat asked about (the PettingZoo env
        reads it for the infos and for the encoded observation of the same move)."""
        held, held_seat, seen = self._seen
        if held is not state or held_seat != seat:
            seen = state.observation(seat)
            self._seen = (state, seat, seen)
        return seen

    def __deepcopy__(self, memo):
        return Listings()  # a copy (OpenSpiel's clone) starts empty rather than copying a held position

    def __reduce__(self):
        return (Listings, ())


# --------------------------------------------------------------------------- observations


# canonical JSON: sorted keys, no spaces, UTF-8 text; one encoder for every call (json.dumps with these options
# builds a new one each time)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(observation, float_free: bool = False) -> bytes:
    """The observation's canonical JSON (sorted keys, no spaces) as UTF-8 bytes.

    With ``float_free`` (the caller knows the observation holds no float: the three games' observations) and orjson
    installed, orjson writes it: for strings, integers, booleans, None, lists and dicts with string keys its bytes
    are the standard library's (tests/test_frameworks_obs_speed.py checks every escape and thousands of positions);
    for floats they differ (``1e+16`` against ``1e16``, ``NaN`` against ``null``), hence the flag. Anything orjson
    refuses (an integer beyond 64 bits, a key that is not a string) goes to the standard library's encoder."""
    if float_free and orjson is not None:
        try:
            return orjson.dumps(observation, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError
            pass
    return _CANONICAL.encode(observation).encode()


def encode_observation(observation: dict, length: int, float_free: bool = False) -> np.ndarray:
    """The observation's canonical JSON as UTF-8 bytes (:func:`canonical_json`), zero-padded to ``length`` (uint8)."""
    data = canonical_json(observation, float_free)
    if len(data) > length:
        raise ValueError(
            f"this observation takes {len(data)} bytes, more than the {length} the encoding allows; "
            f"build the adapter with a larger observation_bytes"
        )
    encoded = np.zeros(length, dtype=np.uint8)
    encoded[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return encoded


def decode_observation(encoded) -> dict:
    """The dict :func:`encode_observation` encoded."""
    data = bytes(np.asarray(encoded, dtype=np.uint8)).rstrip(b"\0")
    return json.loads(data.decode())


def observation_text(observation: dict, float_free: bool = False) -> str:
    """The canonical JSON text of an observation (the OpenSpiel observation string): :func:`canonical_json`'s bytes
    as text (``float_free`` as there)."""
    if float_free and orjson is not None:
        return canonical_json(observation, True).decode()
    return _CANONICAL.encode(observation)


# --------------------------------------------------------------------------- game shapes


@dataclass(frozen=True)
class GameShape:
    """One game (module, rules, setup such as ``players=3``) and its numbering and size bounds."""

    name: str
    module: ModuleType
    numbering: Any
    chance: ChanceNumbering
    players: int
    max_game_length: int  # actions and chance outcomes of one explicit-chance game
    observation_bytes: int
    hides_information: bool
    rules: Any = None
    setup: dict = field(default_factory=dict)
    float_free: bool = False  # observations never hold a float (the three games): canonical_json may use orjson

    def new_game(self, seed=None, explicit_chance: bool = False):
        return self.module.new_game(seed, self.rules, explicit_chance=explicit_chance, **self.setup)

    @property
    def num_actions(self) -> int:
        return self.numbering.size

    def __reduce__(self):
        # a module cannot be pickled; its name can (OpenSpiel pickles games and states)
        fields = {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "module"}
        return (_shape_of_module_named, (self.module.__name__, fields))


def _shape_of_module_named(module_name: str, fields: dict) -> GameShape:
    return GameShape(module=importlib.import_module(module_name), **fields)


# Bounds of the three games, from random play with room to spare (bench/bench_frameworks.py --bounds prints what
# random games meet; 200 explicit-chance games per game met at most: Chakra 2,934 legal actions (2 players) and 2,970
# (3), 8 chance outcomes, observations of 1,581 and 2,082 bytes, 439 and 663 moves; Nagaraja 309 actions, 120 chance
# outcomes, 6,531 bytes, 299 moves; Pangu 42 actions, 36 outcomes, 3,396 bytes, 26 moves; 30 default-mode games of
# Chakra with 4 players met 2,972 actions and 2,839 bytes). A position beyond a bound raises a ValueError naming it
# rather than being cut.
CHAKRA_MAX_ACTIONS = 8192
NAGARAJA_MAX_ACTIONS = 1024
OBSERVATION_BYTES = {"pangu": 8192, "chakra": 8192, "nagaraja": 16384}


def shape(game: str | ModuleType, rules: Any = None, **setup) -> GameShape:
    """The shape of ``"pangu"``, ``"chakra"`` (``players=2..4``), ``"nagaraja"`` or any contract game module."""
    module = importlib.import_module(f"gamelib.{game}") if isinstance(game, str) else game
    start = module.new_game(0, rules, **setup)
    players = len(start.returns())
    if module.__name__ == "gamelib.pangu":
        from gamelib.pangu.cards import LAYOUTS

        numbering = PanguNumbering(start.cards.ids, LAYOUTS[start.rules.grid].cell_of)
        return GameShape(
            "pangu",
            module,
            numbering,
            ChanceNumbering(max(36, len(start.cards.ids))),
            1,
            max_game_length=400,
            observation_bytes=OBSERVATION_BYTES["pangu"],
            float_free=True,
            hides_information=False,
            rules=rules,
            setup=setup,
        )
    if module.__name__ == "gamelib.chakra":
        rounds = start.rules.max_rounds or 1000
        return GameShape(
            f"chakra-{players}",
            module,
            ListingNumbering(CHAKRA_MAX_ACTIONS),
            ChanceNumbering(8),
            players,
            max_game_length=rounds * players * 16 + 200,
            observation_bytes=OBSERVATION_BYTES["chakra"],
            float_free=True,
            hides_information=True,
            rules=rules,
            setup=setup,
        )
    if module.__name__ == "gamelib.nagaraja":
        return GameShape(
            "nagaraja",
            module,
            ListingNumbering(NAGARAJA_MAX_ACTIONS),
            ChanceNumbering(256),
            players,
            max_game_length=20_000,
            observation_bytes=OBSERVATION_BYTES["nagaraja"],
            float_free=True,
            hides_information=True,
            rules=rules,
            setup=setup,
        )
    return measured_shape(module, rules, **setup)


_MEASURED: dict = {}


def measured_shape(module: ModuleType, rules: Any = None, *, games: int = 100, seed: int = 0, **setup) -> GameShape:
    """A shape for any contract game (a studio game): its bounds are four times what ``games`` random
    explicit-chance games meet (a position beyond them raises a ValueError naming the bound). Measured once
    per process and game (OpenSpiel builds a game again for every deserialised state)."""
    key = (module.__name__, repr(rules), repr(sorted(setup.items())), games, seed)
    if key not in _MEASURED:
        _MEASURED[key] = _measure(module, rules, games, seed, setup)
    return _MEASURED[key]


def _measure(module: ModuleType, rules: Any, games: int, seed: int, setup: dict) -> GameShape:
    rng = random.Random(seed)
    most_actions = most_outcomes = longest = widest = 1
    for _ in range(games):
        state = module.new_game(rng.getrandbits(32), rules, explicit_chance=True, **setup)
        length = 0
        while not state.is_terminal:
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                most_outcomes = max(most_outcomes, len(outcomes))
                state = state.apply(sample_outcome(outcomes, rng))
            else:
                actions = state.legal_actions()
                most_actions = max(most_actions, len(actions))
                for player in range(len(state.returns())):
                    widest = max(widest, len(observation_text(state.observation(player)).encode()))
                state = state.apply(rng.choice(actions))
            length += 1
        longest = max(longest, length)
    start = module.new_game(0, rules, **setup)
    players = len(start.returns())
    hides = getattr(start, "hides_information", True)
    short = module.__name__.rsplit(".", 1)[-1]
    name = short if players == 1 else f"{short}-{players}"
    return GameShape(
        name,
        module,
        ListingNumbering(4 * most_actions),
        ChanceNumbering(4 * most_outcomes),
        players,
        max_game_length=4 * longest,
        observation_bytes=4 * widest,
        hides_information=hides,
        rules=rules,
        setup=setup,
    )
