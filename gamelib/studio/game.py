"""A game a student writes in plain Python, turned into a full contract game.

A student subclasses :class:`Game` and writes the rules as functions of a *position* (a tuple,
a namedtuple or a frozen dataclass: any value that compares and hashes by what it holds)::

    class Pig(Game):
        players = 2
        goal = Param(100, 1, 1000, "points needed to win")

        def start(self): ...                    # the first position
        def to_move(self, position): ...        # the seat whose turn it is
        def moves(self, position): ...          # the legal moves, in a fixed order
        def chance(self, position): ...         # None, or {outcome: Fraction} when dice decide
        def play(self, position, move): ...     # the position after a move or a chance outcome
        def winners(self, position): ...        # None while the game goes on, else the winning seats

Optional: ``observation(position, player)`` (a JSON dict of what that player may see) with
``could_be(position, player)`` (every position the player cannot tell apart from this one) for a
game that hides information, ``show`` (text), ``move_label``, ``draw`` (SVG) and ``scores``.

The class then carries the contract (``Pig.Rules``, ``Pig.State``, ``Pig.new_game``): rules as a
validated frozen dataclass of the declared :class:`Param`\\ s, immutable states, chance resolved
from the seed (or left to the caller with ``explicit_chance=True``), saves of seed + rules +
moves that are replayed (so a forged save can only describe a legal game), and a
:class:`GameCodeError` naming the student's function whenever it returns something unusable.
"""

from __future__ import annotations

import dataclasses
import json
import random
import reprlib
from bisect import bisect_right
from fractions import Fraction
from functools import cached_property
from math import lcm
from operator import is_
from typing import Any

from gamelib.core import (
    CHANCE,
    TERMINAL,
    CorruptSave,
    Draft,
    IllegalMove,
    RulesBase,
    chance_rng,
    check_choice,
    check_int,
    check_save_header,
    check_switch,
    load_json,
    require_fields,
    resolve_seed,
    returns_for,
    save_header,
    single_winner,
)

MAX_CHANCE_CHAIN = 1000
"""Chance events resolved one after another before the studio calls it a loop in ``chance``/``play``."""


class GameCodeError(Exception):
    """A mistake in a student's game: the message names the function and what it returned."""


def _short(value: Any, limit: int = 200) -> str:
    """``repr(value)``, cut in the middle when longer than ``limit`` (a position usually fits whole)."""
    try:
        text = repr(value)
    except Exception:  # a student's __repr__ may fail too
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 20] + " ... " + text[-15:]


# --------------------------------------------------------------------------- parameters


class Param:
    """A rule parameter of a studio game: a bounded whole number, a switch or a choice of words.

    ``Param(100, 1, 1000, "points needed to win")`` is a whole number from 1 to 1000 (default
    100); ``Param(True)`` a switch; ``Param("short", choices=["short", "long"])`` a choice.
    """

    def __init__(
        self,
        default: Any,
        low: int | None = None,
        high: int | None = None,
        doc: str = "",
        *,
        choices: list[str] | None = None,
    ):
        self.default, self.low, self.high, self.doc = default, low, high, doc
        self.choices = tuple(choices) if choices is not None else None
        if type(default) is int and (low is None or high is None):
            raise GameCodeError(
                f"Param({default!r}) is a whole number: give its lowest and highest values too, "
                f"e.g. Param({default!r}, 1, 1000)"
            )
        if type(default) is str and not self.choices:
            raise GameCodeError(f"Param({default!r}) is a word: give the words allowed, choices=[...]")
        if type(default) not in (int, bool, str):
            raise GameCodeError(f"a Param is a whole number, True/False or a word, not {default!r}")

    def check(self, name: str, value: Any) -> None:
        """Raise ``ValueError`` naming ``name`` unless ``value`` is allowed."""
        if type(self.default) is bool:
            check_switch(name, value)
        elif type(self.default) is int:
            check_int(name, value, self.low, self.high)
        else:
            check_choice(name, value, self.choices)

    def __repr__(self) -> str:
        return f"Param({self.default!r}, {self.low!r}, {self.high!r})"


def _params_of(cls: type) -> dict[str, Param]:
    params: dict[str, Param] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Param):
                if name in RESERVED or name.startswith("_"):
                    raise GameCodeError(
                        f"{cls.__name__} calls a rule parameter {name!r}, a name the studio uses "
                        f"itself: choose another name"
                    )
                params[name] = value
    return params


def _make_rules(cls: type, params: dict[str, Param]) -> type:
    def __post_init__(self):
        for name, param in params.items():
            param.check(name, getattr(self, name))

    fields = [(name, type(param.default), dataclasses.field(default=param.default)) for name, param in params.items()]
    described = [f"{name} (default {p.default!r}){': ' + p.doc if p.doc else ''}" for name, p in params.items()]
    doc = f"The rule parameters of {cls.__name__}: {'; '.join(described) or 'none'}"
    rules = dataclasses.make_dataclass(
        "Rules", fields, bases=(RulesBase,), frozen=True, namespace={"__post_init__": __post_init__, "__doc__": doc}
    )
    rules.__module__, rules.__qualname__ = cls.__module__, f"{cls.__qualname__}.Rules"
    return rules


# --------------------------------------------------------------------------- the student's class


RESERVED = frozenset(
    {
        "rules",
        "players",
        "name",
        "save_version",
        "hides_information",
        "Rules",
        "State",
        "new_game",
        "for_rules",
        "state_at",
        "start",
        "to_move",
        "moves",
        "chance",
        "play",
        "winners",
        "observation",
        "could_be",
        "show",
        "show_to",
        "move_label",
        "draw",
        "draw_for",
        "scores",
    }
)
"""Names of :class:`Game` and of the student's functions, which a rule parameter cannot take."""


class Game:
    """Subclass this and write the rules as functions of a position (see the module docstring).

    An instance is the game under one set of rules: each declared :class:`Param` reads as its
    value (``self.goal``), so ``Pig().moves(position)`` can be tried by hand.
    """

    name: str = ""
    """The save's game name (default: the class name in lower case)."""
    players: int = 2
    save_version: int = 1
    hides_information: bool = False
    """True when ``observation`` hides something (then ``could_be`` is needed too)."""

    Rules: type
    State: type

    def __init_subclass__(cls, **keywords):
        super().__init_subclass__(**keywords)
        cls.name = vars(cls).get("name") or cls.__name__.lower()
        cls.Rules = _make_rules(cls, _params_of(cls))
        namespace = {
            "__slots__": (),
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}.State",
            "_game_class": cls,
            "hides_information": bool(cls.hides_information),
            "__doc__": f"A position of {cls.__name__} with its seed and history.",
        }
        if _defines(cls, "scores"):
            namespace["scores"] = GameState._student_scores
        cls.State = type("State", (GameState,), namespace)
        cls._instances = {}

    def __init__(self, rules: Any = None):
        rules = type(self).Rules() if rules is None else rules
        self.rules = rules
        for name in _params_of(type(self)):
            setattr(self, name, getattr(rules, name))

    @classmethod
    def for_rules(cls, rules: Any = None) -> "Game":
        """The one instance of this game under ``rules`` (a ``Rules``, a dict of changes, or None)."""
        rules = _checked_rules(cls, rules)
        game = cls._instances.get(rules)
        if game is None:
            check_declarations(cls)
            game = cls._instances[rules] = cls(rules)
        return game

    @classmethod
    def new_game(cls, seed=None, rules=None, *, explicit_chance=False):
        """A new game: its seed (a fresh one when None) fixes every chance event unless ``explicit_chance``."""
        game = cls.for_rules(rules)
        position = game._checked_position(_call(game, "start"), "start")
        state = cls.State._make(game, position, resolve_seed(seed), 0, bool(explicit_chance), ())
        return state if explicit_chance else state._resolve_chance()

    @classmethod
    def state_at(cls, position, rules=None, *, seed=0, explicit_chance=False):
        """A state standing at ``position`` (to ask a bot or the rules about it); it has no history,
        so it cannot be saved."""
        game = cls.for_rules(rules)
        return cls.State._make(
            game, game._checked_position(position, "state_at"), resolve_seed(seed), 0, bool(explicit_chance), None
        )

    # what a student may leave out
    def chance(self, position):
        """The chance event waiting in ``position`` as ``{outcome: Fraction}``, or None (no dice here)."""
        return None

    def show(self, position) -> str:
        """The position as text (default: its repr)."""
        return repr(position)

    def move_label(self, position, move) -> str:
        """The name of ``move`` on a button (default: ``str(move)``)."""
        return str(move)

    def draw(self, position):
        """An SVG or HTML picture of the position, or None for text only. (A game that hides
        information draws what one player sees with ``draw_for(position, player)``.)"""
        return None

    # helpers the studio uses around the student's functions
    def _checked_position(self, position: Any, function: str, *arguments: Any) -> Any:
        """``position`` if it can be one; else an error naming ``function(arguments)`` (built only then)."""
        try:
            hash(position)
            if position is not None:
                return position
        except TypeError:
            where = f"{function}({', '.join(map(_short, arguments))})"
            raise GameCodeError(
                f"{self._name(where)} returned {_short(position)}, a {type(position).__name__} "
                f"that cannot be a position: a position and everything inside it must be "
                f"hashable (use a tuple, a namedtuple or a frozen dataclass, holding tuples and "
                f"frozensets, not lists, dicts or sets)"
            ) from None
        where = f"{function}({', '.join(map(_short, arguments))})"
        raise GameCodeError(f"{self._name(where)} returned None: did it forget to return the new position?")

    def _name(self, where: str) -> str:
        return f"{type(self).__name__}.{where}"

    @cached_property
    def _checked_distributions(self) -> dict:
        """The chance distributions this game (under these rules) already checked: exact content ->
        normalised outcomes. A game often returns the same distribution (a die) at every chance node,
        and the check (exact sums, saveable outcomes, no outcome twice) costs more than the step."""
        return {}


REQUIRED = ("start", "to_move", "moves", "play", "winners")


def check_declarations(cls: type) -> None:
    """Raise :class:`GameCodeError` unless the class declares what every game needs."""
    if type(cls.players) is not int or not 1 <= cls.players <= 64:
        raise GameCodeError(
            f"{cls.__name__}.players is {_short(cls.players)}: it should be the number of seats, "
            f"a whole number from 1 to 64"
        )
    for name in REQUIRED:
        if not _defines(cls, name):
            raise GameCodeError(
                f"{cls.__name__} does not define {name}(); every game needs "
                f"{', '.join(REQUIRED[:-1])} and {REQUIRED[-1]}"
            )
    if cls.hides_information:
        for name in ("observation", "could_be"):
            if not _defines(cls, name):
                raise GameCodeError(f"{cls.__name__} hides information but does not define {name}(position, player)")


def _defines(cls: type, name: str) -> bool:
    """True when the student's class (not :class:`Game`) defines ``name`` (asked at every observation, so
    a plain loop rather than a generator)."""
    for klass in cls.__mro__:
        if name in klass.__dict__ and klass is not Game and klass is not object:
            return True
    return False


def _checked_rules(cls: type, rules: Any) -> Any:
    if rules is None:
        return cls.Rules()
    if isinstance(rules, cls.Rules):
        return rules
    if isinstance(rules, dict):
        return cls.Rules.from_dict(rules)
    raise ValueError(f"rules for {cls.__name__} should be {cls.__name__}.Rules(...) or a dict, not {_short(rules)}")


def _call(game: Game, name: str, *arguments: Any) -> Any:
    """Call the student's function ``name``; anything it raises comes back naming it."""
    try:
        return getattr(game, name)(*arguments)
    except Exception as error:
        raise _named(game, name, arguments, error) from error


def _named(game: Game, name: str, arguments: tuple, error: Exception) -> Exception:
    """The exception to raise for ``error`` out of the student's ``name``: the studio's own pass as they are."""
    if isinstance(error, (GameCodeError, IllegalMove)):
        return error
    shown = ", ".join(_short(argument) for argument in arguments)
    return GameCodeError(f"{type(game).__name__}.{name}({shown}) raised {type(error).__name__}: {error}")


# --------------------------------------------------------------------------- checking what the student returns


def _checked_distribution(game: Game, position: Any, returned: Any) -> list | None:
    """``chance(position)`` as ``[(outcome, Fraction), ...]``, or None; a bad distribution names the function.

    A game often returns the same distribution (a die) at every chance node, and the check (exact
    sums, saveable outcomes, no outcome twice) costs more than a step, so the game keeps the ones
    it checked, found by their content: the outcomes (strings, whole numbers or None) and their
    types, then the probabilities and their types compared (1, True and 1.0 are equal in Python but
    are different outcomes, and a float probability must still be refused). The dict returned last
    time, returned again still holding the very same objects, is the distribution checked last time."""
    if returned is None:
        return None
    if returned is game.__dict__.get("_studio_last_chance", _NOTHING)[0]:  # the same dict as last time (a DIE constant)
        last = game._studio_last_chance
        if (
            len(returned) == len(last[1])
            and all(map(is_, returned, last[1]))
            and all(map(is_, returned.values(), last[2]))
        ):
            return last[3]  # the very same outcome and probability objects: the distribution checked last time
    if returned.__class__ is dict:
        outcomes, probabilities = tuple(returned), tuple(returned.values())
    elif isinstance(returned, (list, tuple)) and all(isinstance(pair, tuple) and len(pair) == 2 for pair in returned):
        outcomes, probabilities = tuple(pair[0] for pair in returned), tuple(pair[1] for pair in returned)
    elif isinstance(returned, dict):
        outcomes, probabilities = tuple(returned), tuple(returned.values())
    else:
        raise GameCodeError(
            f"{_Where(game, 'chance', position)} returned {_short(returned)}: return None, or a "
            f"dict {{outcome: Fraction}} (or a list of (outcome, Fraction) pairs)"
        )
    checked = game._checked_distributions
    try:
        found = checked.get(outcomes)
    except TypeError:  # an unhashable outcome: the check below refuses it
        found = None
    if (
        found is not None
        and found[0] == probabilities
        and found[1] == tuple(map(type, outcomes))
        and found[2] == tuple(map(type, probabilities))
    ):
        _remember_last(game, returned, outcomes, probabilities, found[3])
        return found[3]
    normalised = _normalised(game, _Where(game, "chance", position), list(zip(outcomes, probabilities)))
    kinds = tuple(map(type, outcomes))
    if _PLAIN_TYPES.issuperset(kinds):  # kept only where equal values of these types are the same outcome
        if len(checked) > 4096:
            checked.clear()
        checked[outcomes] = (probabilities, kinds, tuple(map(type, probabilities)), normalised)
        _remember_last(game, returned, outcomes, probabilities, normalised)
    return normalised


_NOTHING = (None,)


def _remember_last(game: Game, returned: Any, outcomes: tuple, probabilities: tuple, normalised: list) -> None:
    """Keep the dict ``chance`` just returned, with its outcome and probability objects: when the next
    call returns that same dict still holding the very same objects (all immutable), its check is this one."""
    if returned.__class__ is dict:
        game.__dict__["_studio_last_chance"] = (returned, outcomes, probabilities, normalised)


def _normalised(game: Game, where: _Where, pairs: list) -> list:
    """The checked distribution ``pairs`` as ``[(outcome, Fraction), ...]``; GameCodeError names what is wrong."""
    if not pairs:
        raise GameCodeError(f"{where} returned no outcomes: return None when nothing is left to chance")
    total = Fraction(0)
    for outcome, probability in pairs:
        if type(probability) is float:
            raise GameCodeError(
                f"{where} gave outcome {_short(outcome)} the probability {probability!r}, a float: "
                f"use an exact Fraction, e.g. Fraction(1, 6)"
            )
        if not isinstance(probability, (Fraction, int)) or isinstance(probability, bool):
            raise GameCodeError(
                f"{where} gave outcome {_short(outcome)} the probability {_short(probability)}: "
                f"probabilities are Fractions"
            )
        if probability <= 0:
            raise GameCodeError(
                f"{where} gave outcome {_short(outcome)} the probability {probability}: "
                f"leave out impossible outcomes; every probability must be above 0"
            )
        _check_saveable(game, outcome, where, "outcome")
        total += probability
    if total != 1:
        raise GameCodeError(f"{where} returned probabilities that sum to {total}, not 1")
    outcomes = _Outcomes([(outcome, Fraction(probability)) for outcome, probability in pairs])
    if len({_as_json(outcome) for outcome, _ in outcomes}) < len(outcomes):
        raise GameCodeError(f"{where} returned the same outcome twice: merge them into one with the summed probability")
    return outcomes


class _Outcomes(list):
    """A checked distribution, ``[(outcome, Fraction), ...]`` summing to 1, that draws from itself.

    :meth:`draw` gives what ``gamelib.core.sample_outcome(self, rng)`` gives, from the same single
    ``rng.randrange(n)`` (``n`` the least common denominator), with the integer weights worked out
    once per distribution instead of at every draw (a game checks its die once and rolls it
    thousands of times). tests/test_studio_game.py compares the two on many distributions and tickets."""

    __slots__ = ("_bounds",)

    def __init__(self, pairs: list) -> None:
        super().__init__(pairs)
        self._bounds = None

    def draw(self, rng: random.Random) -> Any:
        """One outcome, drawn with exactly its probability (``sample_outcome``'s draw)."""
        bounds = self._bounds
        if bounds is None:
            bounds = self._bounds = self._ticket_bounds()
        ends, total = bounds
        return self[bisect_right(ends, rng.randrange(total))][0]

    def _ticket_bounds(self) -> tuple:
        """``(ends, total)``: ticket ``t`` of ``range(total)`` is the outcome at ``bisect_right(ends, t)``,
        each outcome's tickets as many as its probability times ``total``, in order."""
        total = lcm(*{probability.denominator for _, probability in self})
        ends, end = [], 0
        for _, probability in self:
            end += probability.numerator * (total // probability.denominator)
            ends.append(end)
        return ends, total


class _Where:
    """``Game.function(arguments)`` for a message, written out only if a message is made."""

    def __init__(self, game: Game, function: str, *arguments: Any):
        self.game, self.function, self.arguments = game, function, arguments

    def __str__(self) -> str:
        return f"{type(self.game).__name__}.{self.function}({', '.join(map(_short, self.arguments))})"


_PLAIN = (str, int, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def _as_json(value: Any) -> str:
    """The canonical JSON text of a move or outcome (how saves hold them)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _check_saveable(game: Game, value: Any, where: str, what: str) -> None:
    if type(value) in _PLAIN:
        return
    try:
        _as_json(value)
    except (TypeError, ValueError):
        raise GameCodeError(
            f"{where} returned the {what} {_short(value)}, which cannot be saved: moves and outcomes "
            f"are words, whole numbers, or tuples/lists of them"
        ) from None
    if any(type(item) is float for item in _flatten(value)):
        raise GameCodeError(
            f"{where} returned the {what} {_short(value)} holding a float, which a save would "
            f"not give back exactly: use whole numbers or words"
        )


def _flatten(value: Any):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        else:
            yield item


_SCALARS = frozenset({*_PLAIN, float})
"""The types :func:`_jsonable` returns as they are."""


def _jsonable(value: Any, where: str) -> Any:
    """A position or part of one as JSON data (namedtuples and dataclasses become dicts).

    Built at every observation of a game without its own ``observation``, so plain tuples and lists
    come first and their scalar items are kept without a call."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [item if type(item) in _SCALARS else _jsonable(item, where) for item in value]
    if isinstance(value, tuple) and hasattr(value, "_asdict"):  # a namedtuple (a tuple is never a Fraction)
        return {
            key: item if type(item) in _SCALARS else _jsonable(item, where) for key, item in value._asdict().items()
        }
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "_asdict"):
        return {key: _jsonable(item, where) for key, item in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: _jsonable(getattr(value, field.name), where) for field in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item, where) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_jsonable(item, where) for item in value), key=_as_json)
    if isinstance(value, dict):
        return {str(key): _jsonable(item, where) for key, item in value.items()}
    raise GameCodeError(
        f"{where}: {_short(value)} ({type(value).__name__}) cannot be shown as JSON; write "
        f"observation(position, player) returning a dict of words, numbers and lists"
    )


# --------------------------------------------------------------------------- the contract state


class _StateSlots:
    """The fields of a state, in slots (a step of a student's game is a few microseconds, and slots
    are read faster than a ``__dict__``); :class:`GameState` adds the refusal to change them. Every
    state is built on the core's builder, ``gamelib.core.Draft.for_class(State)``: a draft with
    these slots, edited, then frozen."""

    __slots__ = ("_game", "position", "seed", "draws", "explicit_chance", "_history", "_status", "_drawn")


class GameState(_StateSlots):
    """An immutable state of a studio game: the student's position, the seed and the moves so far.

    ``key()`` is the position itself; the history is a chain of ``(earlier, action)`` pairs so
    that a step costs one small tuple, and a state made for a search bot (``with_seed``,
    ``sample_hidden``, ``with_explicit_chance``) has none and cannot be saved.
    """

    __slots__ = ()
    _game_class: type = Game
    hides_information: bool = False
    """A class-level fact of the game (its ``State`` copies the student's ``hides_information``)."""

    _draft_class: type
    """The core's draft of this class, ``Draft.for_class(cls)``, set for every subclass."""

    def __init_subclass__(cls, **keywords):
        super().__init_subclass__(**keywords)
        cls._draft_class = Draft.for_class(cls)

    @classmethod
    def _make(cls, game, position, seed, draws, explicit_chance, history):
        """A state built from nothing: a blank draft of the class, every field set, then frozen."""
        draft = cls._draft_class.blank()
        draft._game, draft.position, draft.seed, draft.draws = game, position, seed, draws
        draft.explicit_chance, draft._history, draft._status, draft._drawn = explicit_chance, history, None, ()
        return draft.freeze()

    def _next(self, position, history, draws):
        """The state after a step: the new position, history and count of draws with this state's
        game, seed and chance mode, its status and drawn outcomes not yet known, frozen. Every field
        is set on a blank draft: a step changes five of the eight, and copying the eight first
        (``self._draft_class(self)``) made a step cost 5% more CPU instructions."""
        draft = self._draft_class.blank()
        draft._game = self._game
        draft.position = position
        draft.seed = self.seed
        draft.draws = draws
        draft.explicit_chance = self.explicit_chance
        draft._history = history
        draft._status = None
        draft._drawn = ()
        return draft.freeze()

    def __setattr__(self, name, value):
        raise AttributeError(f"a game state is immutable: {name} cannot be changed; apply a move to get a new state")

    # ------------------------------------------------------------------ what the game is
    @property
    def rules(self):
        return self._game.rules

    @property
    def players(self) -> int:
        return self._game.players

    def key(self):
        """The position, which identifies the game's situation for a solver (not the seed or the history)."""
        return self.position

    # ------------------------------------------------------------------ whose turn
    def _computed_status(self) -> tuple:
        """``(current_player, winners, chance outcomes)`` from the student's functions, checked once."""
        return _status_of(self._game, self.position)

    def _state_status(self) -> tuple:
        status = self._status
        if status is None:
            status = self._computed_status()
            _set_status(self, status)
        return status

    # the three below read the status kept on the state without a call to _state_status (they are
    # asked several times a step), computing it only the first time
    @property
    def current_player(self) -> int:
        status = self._status
        return (status if status is not None else self._state_status())[0]

    @property
    def is_terminal(self) -> bool:
        status = self._status
        return (status if status is not None else self._state_status())[0] == TERMINAL

    @property
    def winners(self) -> tuple:
        status = self._status
        return (status if status is not None else self._state_status())[1]

    @property
    def winner(self):
        return single_winner(self.winners)

    def returns(self) -> list[float]:
        return returns_for(self.winners, self._game.players)

    def _student_scores(self) -> tuple:
        scores = _call(self._game, "scores", self.position)
        if (
            not isinstance(scores, (list, tuple))
            or len(scores) != self._game.players
            or not all(isinstance(score, (int, float, Fraction)) and not isinstance(score, bool) for score in scores)
        ):
            raise GameCodeError(
                f"{type(self._game).__name__}.scores({_short(self.position)}) returned "
                f"{_short(scores)}: return one number per player"
            )
        return tuple(scores)

    # ------------------------------------------------------------------ moves and chance
    def legal_actions(self) -> list:
        status = self._status
        if (status if status is not None else self._state_status())[0] < 0:
            return []
        game, position = self._game, self.position
        try:
            moves = game.moves(position)
        except Exception as error:
            raise _named(game, "moves", (position,), error) from error
        if not isinstance(moves, (list, tuple)):
            raise GameCodeError(
                f"{type(game).__name__}.moves({_short(self.position)}) returned {_short(moves)}: "
                f"return a list of the legal moves, in a fixed order"
            )
        if not moves:
            raise GameCodeError(
                f"{type(game).__name__}.moves({_short(self.position)}) returned no moves although "
                f"winners() says the game is not over: a player must have a move (a 'pass' counts)"
            )
        return list(moves)

    @property
    def drawn_by_chance(self) -> tuple:
        """The chance outcomes the seed drew while the last action was applied (default mode), for a board
        to show what the dice did; () in explicit-chance mode, where each outcome is an action of its own."""
        return self._drawn

    def chance_outcomes(self) -> list:
        outcomes = self._state_status()[2]
        return list(outcomes) if outcomes is not None else []

    def action_label(self, action) -> str:
        """The text of a move's button."""
        label = _call(self._game, "move_label", self.position, action)
        if not isinstance(label, str):
            raise GameCodeError(
                f"{type(self._game).__name__}.move_label({_short(self.position)}, {_short(action)}) "
                f"returned {_short(label)}: return a string"
            )
        return label

    def apply(self, action):
        """The state after ``action``; an illegal action raises :class:`IllegalMove` and changes nothing."""
        player, _, outcomes = self._state_status()
        game = self._game
        if player == TERMINAL:
            raise IllegalMove(f"the game is over ({self._result_text()}): no more moves", action)
        if player == CHANCE:
            chosen = _matching(action, [outcome for outcome, _ in outcomes])
            if chosen is _NONE:
                shown = ", ".join(_short(outcome) for outcome, _ in outcomes[:12])
                raise IllegalMove(f"chance decides here: {_short(action)} is not one of its outcomes ({shown})", action)
        else:
            moves = self.legal_actions()
            chosen = _matching(action, moves)
            if chosen is _NONE:
                shown = ", ".join(self.action_label(move) for move in moves[:12])
                raise IllegalMove(
                    f"{_short(action)} is not a legal move for seat {player} here; the legal moves are: {shown}", action
                )
            if type(chosen) not in _PLAIN:
                _check_saveable(game, chosen, _Where(game, "moves", self.position), "move")
        position = self.position
        try:
            after = game.play(position, chosen)
        except Exception as error:
            raise _named(game, "play", (position, chosen), error) from error
        position = game._checked_position(after, "play", position, chosen)
        history = self._history
        state = self._next(position, None if history is None else (history, chosen), self.draws)
        return state if self.explicit_chance else state._resolve_chance()

    def search_step(self, action):
        """:meth:`apply` without its checks, for search and solvers (the name every engine gives its
        unchecked step): ``action`` must be one of ``legal_actions()`` or ``chance_outcomes()`` here."""
        history = self._history
        state = self._next(
            self._game.play(self.position, action), None if history is None else (history, action), self.draws
        )
        return state if self.explicit_chance else state._resolve_chance()

    def _resolve_chance(self):
        """Draw every chance event waiting here from the seed (default mode).

        The chain of chance events is followed on positions, each one's status worked out by
        :func:`_status_of` as a state would (the same calls to the student's functions, the same
        errors), and only the position where a player moves (or the game is over) becomes a state,
        with its status and the outcomes drawn: a state for each chance event in between would be
        dropped at once."""
        status = self._state_status()
        if status[0] != CHANCE:
            return self
        game, seed = self._game, self.seed
        position, draws, drawn = self.position, self.draws, []
        for _ in range(MAX_CHANCE_CHAIN):
            if status[0] != CHANCE:
                state = self._next(position, self._history, draws)
                _set_status(state, status)
                _set_drawn(state, tuple(drawn))
                return state
            outcome = status[2].draw(chance_rng(seed, draws))
            drawn.append(outcome)
            try:
                after = game.play(position, outcome)
            except Exception as error:
                raise _named(game, "play", (position, outcome), error) from error
            position = game._checked_position(after, "play", position, outcome)
            draws += 1
            status = _status_of(game, position)
        raise GameCodeError(
            f"{type(self._game).__name__}.chance() asked for {MAX_CHANCE_CHAIN} chance events in a "
            f"row from {_short(self.position)}: does play() ever leave the chance event?"
        )

    # ------------------------------------------------------------------ what players see
    def observation(self, player: int) -> dict:
        """What ``player`` may know: the student's ``observation``, or else the whole position."""
        game = self._game
        if type(player) is not int or not 0 <= player < game.players:
            raise ValueError(f"player must be a seat from 0 to {game.players - 1}, not {_short(player)}")
        where = _Where(game, "observation", self.position, player)
        if _defines(type(game), "observation"):
            seen = _call(game, "observation", self.position, player)
            if not isinstance(seen, dict):
                raise GameCodeError(f"{where} returned {_short(seen)}: return a dict")
            try:
                json.dumps(seen)
            except (TypeError, ValueError):
                raise GameCodeError(
                    f"{where} returned {_short(seen)}, which is not JSON data: use words, numbers, lists and dicts"
                ) from None
            return seen
        return {"position": _jsonable(self.position, where)}

    def sample_hidden(self, player: int, rng: random.Random):
        """A state agreeing with all ``player`` sees, the hidden part drawn from ``could_be`` and the
        future chance from a new seed (so a bot never reads the real hidden part or the real future)."""
        game = self._game
        position = self.position
        if game.hides_information:
            worlds = _call(game, "could_be", position, player)
            if not isinstance(worlds, (list, tuple)) or not worlds:
                raise GameCodeError(
                    f"{type(game).__name__}.could_be({_short(position)}, {player}) returned "
                    f"{_short(worlds)}: return a non-empty list of positions"
                )
            position = game._checked_position(rng.choice(list(worlds)), "could_be", position, player)
        return self._for_search(position, rng.getrandbits(63), 0, self.explicit_chance)

    def with_seed(self, seed):
        """The same position, its future chance drawn from ``seed`` (for a bot's simulations; not saveable)."""
        return self._for_search(self.position, resolve_seed(seed), 0, self.explicit_chance)

    def with_explicit_chance(self):
        """The same position stopping at every chance event (for bots that weigh the outcomes)."""
        return self._for_search(self.position, self.seed, self.draws, True)

    def _for_search(self, position, seed, draws, explicit_chance):
        """A state made for a search, so without a history (it cannot be saved): a draft of this
        one at ``position`` with its chance taken from ``seed`` after ``draws`` draws, frozen."""
        draft = self._draft_class(self)
        draft.position, draft.seed, draft.draws, draft.explicit_chance = position, seed, draws, explicit_chance
        draft._history, draft._status, draft._drawn = None, None, ()
        return draft.freeze()

    def drawing(self, player: int | None = None):
        """The student's picture of the position (SVG/HTML text), or None.

        On a game that hides information, a ``player``'s picture comes from ``draw_for(position,
        player)`` (None when the game has none), so no picture shows a hidden card; ``draw(position)``
        is the whole position, for ``player=None`` (a spectator, or the game reviewed afterwards).
        """
        game = self._game
        if game.hides_information and player is not None:
            if not _defines(type(game), "draw_for"):
                return None
            function, arguments = "draw_for", (self.position, player)
        else:
            function, arguments = "draw", (self.position,)
        picture = _call(game, function, *arguments)
        if picture is not None and not isinstance(picture, str):
            raise GameCodeError(
                f"{_Where(game, function, *arguments)} returned {_short(picture)}: return SVG or HTML text, or None"
            )
        return picture

    def text_for(self, player: int) -> str:
        """The position as ``player`` may see it, with whose turn it is: the student's ``show_to(position,
        player)``; else ``str(state)`` on a game that hides nothing; else the observation, line by line."""
        game = self._game
        if _defines(type(game), "show_to"):
            text = _call(game, "show_to", self.position, player)
            if not isinstance(text, str):
                raise GameCodeError(
                    f"{_Where(game, 'show_to', self.position, player)} returned {_short(text)}: return a string"
                )
        elif not game.hides_information:
            return str(self)
        else:
            text = "\n".join(f"{name}: {json.dumps(value)}" for name, value in self.observation(player).items())
        return f"{text}\n{self._status_text()}"

    def _result_text(self) -> str:
        winners = self.winners
        if not winners:
            return "nobody won"
        return "seat " + " and ".join(map(str, winners)) + (" won" if len(winners) == 1 else " share the win")

    def __str__(self) -> str:
        game = self._game
        text = _call(game, "show", self.position)
        if not isinstance(text, str):
            raise GameCodeError(
                f"{type(game).__name__}.show({_short(self.position)}) returned {_short(text)}: return a string"
            )
        return f"{text}\n{self._status_text()}"

    def _status_text(self) -> str:
        player = self.current_player
        return (
            "game over: " + self._result_text()
            if player == TERMINAL
            else "chance decides"
            if player == CHANCE
            else f"seat {player} to move"
        )

    def __repr__(self) -> str:
        return f"{type(self._game).__name__}.State({self.position!r}, seed={self.seed!r})"

    # ------------------------------------------------------------------ history and saves
    def actions(self) -> list:
        """The actions applied since the start (player moves, and chance outcomes when explicit)."""
        if self._history is None:
            raise ValueError(
                f"this {self._game.name} state was made for a search (with_seed, sample_hidden or "
                f"with_explicit_chance), so it has no history of moves to save"
            )
        actions, link = [], self._history
        while link:
            link, action = link
            actions.append(action)
        actions.reverse()
        return actions

    def to_json(self) -> str:
        game = self._game
        return json.dumps(
            {
                **save_header(game.name, game.save_version),
                "rules": game.rules.to_dict(),
                "seed": self.seed,
                "explicit_chance": self.explicit_chance,
                "actions": [json.loads(_as_json(action)) for action in self.actions()],
            }
        )

    @classmethod
    def from_json(cls, text):
        """Replay a save: every saved action must be legal where it was played."""
        game_class = cls._game_class
        what = f"{game_class.name} save"
        data = load_json(text, what)
        check_save_header(data, game_class.name, game_class.save_version)
        require_fields(data, ["rules", "seed", "explicit_chance", "actions"], what)
        try:
            rules = game_class.Rules.from_dict(data["rules"])
        except (ValueError, TypeError) as problem:
            raise CorruptSave(f"the rules of this {what} are not valid: {problem}") from None
        seed, explicit, actions = data["seed"], data["explicit_chance"], data["actions"]
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise CorruptSave(f"the seed of this {what} should be a whole number or a word, not {_short(seed)}")
        if not isinstance(explicit, bool):
            raise CorruptSave(f"explicit_chance in this {what} should be true or false, not {_short(explicit)}")
        if not isinstance(actions, list):
            raise CorruptSave(f"the actions of this {what} should be a list, not {_short(actions)}")
        state = game_class.new_game(seed, rules, explicit_chance=explicit)
        for number, saved in enumerate(actions, start=1):
            state = state._replayed(saved, number, what)
        return state

    def _replayed(self, saved: Any, number: int, what: str):
        if self.is_terminal:
            raise CorruptSave(f"action {number} of this {what} ({_short(saved)}) comes after the game was over")
        options = (
            [outcome for outcome, _ in self.chance_outcomes()]
            if self.current_player == CHANCE
            else self.legal_actions()
        )
        wanted = _as_json(saved)
        for option in options:
            if _as_json(option) == wanted:
                return self.apply(option)
        raise CorruptSave(f"action {number} of this {what}, {_short(saved)}, is not legal at that point of the game")

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        if (self.position, self.seed, self.draws, self.explicit_chance, self._game.rules) != (
            other.position,
            other.seed,
            other.draws,
            other.explicit_chance,
            other._game.rules,
        ):
            return False
        if (self._history is None) != (other._history is None):
            return False
        return self._history is None or self.actions() == other.actions()

    def __hash__(self):
        return hash((self.position, self.draws))

    def __reduce__(self):
        history = None if self._history is None else tuple(self.actions())
        return (
            _rebuild,
            (type(self), self._game.rules, self.position, self.seed, self.draws, self.explicit_chance, history),
        )


def _status_of(game: Game, position: Any) -> tuple:
    """``(current_player, winners, chance outcomes)`` of ``position`` from the student's functions,
    checked (what a state keeps as its status; see ``GameState._state_status``)."""
    try:
        winners = game.winners(position)
    except Exception as error:
        raise _named(game, "winners", (position,), error) from error
    if winners is not None:
        return TERMINAL, _checked_winners(game, position, winners), None
    try:
        returned = game.chance(position)
    except Exception as error:
        raise _named(game, "chance", (position,), error) from error
    if returned is not None:
        return CHANCE, (), _checked_distribution(game, position, returned)
    try:
        seat = game.to_move(position)
    except Exception as error:
        raise _named(game, "to_move", (position,), error) from error
    if type(seat) is not int or not 0 <= seat < game.players:
        raise GameCodeError(
            f"{type(game).__name__}.to_move({_short(position)}) returned {_short(seat)}: "
            f"it should be a seat number from 0 to {game.players - 1}"
        )
    return seat, (), None


def _checked_winners(game: Game, position: Any, winners: Any) -> tuple:
    """What ``winners(position)`` returned for a finished game, as sorted seats; else GameCodeError."""
    where = _Where(game, "winners", position)
    if isinstance(winners, int) and not isinstance(winners, bool):
        raise GameCodeError(f"{where} returned {winners!r}: return a list of the winning seats, e.g. [{winners}]")
    if not isinstance(winners, (list, tuple, set, frozenset)):
        raise GameCodeError(
            f"{where} returned {_short(winners)}: return None while the game goes on, else a list of the winning seats"
        )
    seats = tuple(sorted(set(winners))) if all(type(seat) is int for seat in winners) else None
    if seats is None or any(not 0 <= seat < game.players for seat in seats):
        raise GameCodeError(
            f"{where} returned {_short(winners)}: winners are seat numbers from 0 to {game.players - 1}"
        )
    if not seats and game.players > 1:
        raise GameCodeError(
            f"{where} returned no winner for a finished game of {game.players} players: "
            f"name the winner (a draw names every player who drew); None means not over"
        )
    return seats


def _rebuild(cls, rules, position, seed, draws, explicit_chance, history):
    link = None
    if history is not None:
        link = ()
        for action in history:
            link = (link, action)
    return cls._make(cls._game_class.for_rules(rules), position, seed, draws, explicit_chance, link)


_NONE = object()


_set_status = _StateSlots._status.__set__  # filled in later: the status, computed once
_set_drawn = _StateSlots._drawn.__set__  # filled in once the chance events after a move are drawn


def _matching(action: Any, options: list) -> Any:
    """The option equal to ``action`` and of the same type (so True is not the die face 1), or ``_NONE``."""
    for option in options:
        if type(option) is type(action):
            try:
                if option == action:
                    return option
            except Exception:  # an action whose comparison fails is simply not legal
                continue
    return _NONE
