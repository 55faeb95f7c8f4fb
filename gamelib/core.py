"""The engine contract shared by every game, and the tools built on it.

Every game's ``State`` is immutable and offers (OpenSpiel's vocabulary):

* ``current_player`` -- an ``int`` seat, or :data:`CHANCE` while dice, sticks or a
  shuffle decide, or :data:`TERMINAL` once the game is over;
* ``legal_actions()`` -- every legal action of the player to act, in a fixed order;
* ``chance_outcomes()`` -- ``[(outcome, Fraction), ...]`` at a chance node;
* ``apply(action)`` -- a new state; raises :class:`IllegalMove` and changes nothing;
* ``is_terminal``, ``winner`` and ``returns()``;
* ``to_json()`` / ``from_json()``, ``observation(player)`` and ``str(state)``.

By default a game resolves its own chance nodes from a seed carried in the state, so
a caller applies player actions only. Each chance draw uses a generator derived from
``(seed, draw number)`` (see :func:`chance_rng`), so a state needs no mutable
generator to be reproducible and serialisable.

This module also holds :func:`play`, a seeded driver, and :class:`Match`, a history
with undo, step back / forward and jump, which the boards use.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
import reprlib
import _random
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, Sequence, runtime_checkable

CHANCE = -1
"""``current_player`` at a chance node (dice, sticks, shuffles)."""

TERMINAL = -4
"""``current_player`` once the game is over."""


class IllegalMove(ValueError):
    """An action the rules forbid. ``reason`` is a sentence a student can read."""

    def __init__(self, reason: str, action: Any = None):
        super().__init__(reason)
        self.reason = reason
        self.action = action


class CorruptSave(ValueError):
    """A saved game that cannot be read back; the message says what is wrong."""


@runtime_checkable
class GameState(Protocol):
    """What the core expects of every game's state (a structural type)."""

    @property
    def current_player(self) -> int: ...

    @property
    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list: ...

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]: ...

    def apply(self, action: Any) -> "GameState": ...

    def returns(self) -> list[float]: ...


Policy = Callable[[Any, random.Random], Any]
"""A policy maps ``(state, rng)`` to one of ``state.legal_actions()``."""


# --------------------------------------------------------------------------- chance


def chance_rng(seed: int | str | None, draw_number: int) -> random.Random:
    """A generator for the ``draw_number``-th chance event of a game seeded with ``seed``.

    Hashing keeps neighbouring seeds and draw numbers independent of each other, and a state
    needs no generator of its own to be reproducible.

    Args:
        seed: the game's seed (a whole number or a text).
        draw_number: how many chance events the game has resolved before this one.

    Returns:
        A fresh ``random.Random``; the same arguments always give the same stream.

    Example:
        >>> chance_rng(7, 0).random() == chance_rng(7, 0).random()
        True
    """
    digest = hashlib.sha256(f"gamelib:{seed}:{draw_number}".encode()).digest()
    rng = _NEW_RANDOM(random.Random)  # random.Random(key) without random.py's seed() wrapper (a game seeds
    _SEED_RANDOM(rng, int.from_bytes(digest[:16], "big"))  # about 50 of these): the same C seeding, the same stream
    rng.gauss_next = None
    return rng


_NEW_RANDOM, _SEED_RANDOM = random.Random.__new__, _random.Random.seed


def sample_outcome(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Draw one outcome with exactly the given probabilities (integer arithmetic, no float rounding).

    Args:
        outcomes: ``(outcome, probability)`` pairs, as ``chance_outcomes()`` gives them.
        rng: the generator to draw with.

    Returns:
        One of the outcomes.

    Raises:
        ValueError: no outcomes, or probabilities that do not sum to exactly 1.
    """
    if not outcomes:
        raise ValueError("a chance node needs at least one outcome")
    probabilities = [p if type(p) is Fraction else Fraction(p) for _, p in outcomes]
    first = probabilities[0]
    if all(p is first for p in probabilities):  # equally likely outcomes sharing one Fraction: one weight
        weight, total = first.numerator, first.numerator * len(probabilities)
        if total != first.denominator:
            raise ValueError(f"chance probabilities sum to {Fraction(total, first.denominator)}, not 1")
        return outcomes[rng.randrange(total) // weight][0]  # the outcome the loop below would reach
    denominator = lcm(*{p.denominator for p in probabilities})
    weights = [p.numerator * (denominator // p.denominator) for p in probabilities]  # p * denominator, exactly
    total = sum(weights)
    if total != denominator:
        raise ValueError(f"chance probabilities sum to {Fraction(total, denominator)}, not 1")
    ticket = rng.randrange(total)
    for (outcome, _), weight in zip(outcomes, weights):
        if ticket < weight:
            return outcome
        ticket -= weight
    raise AssertionError("unreachable")


def check_distribution(outcomes: Iterable[tuple[Any, Fraction]]) -> None:
    """Check a chance node's ``(outcome, probability)`` pairs.

    Raises:
        ValueError: a probability is not positive, or they do not sum to exactly 1.
    """
    total = Fraction(0)
    for outcome, probability in outcomes:
        if probability <= 0:
            raise ValueError(f"outcome {outcome!r} has probability {probability}")
        total += probability
    if total != 1:
        raise ValueError(f"probabilities sum to {total}, not 1")


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh 63-bit seed (from ``rng`` when given, for reproducible batches)."""
    return (rng or random.SystemRandom()).getrandbits(63)


# --------------------------------------------------------------------------- driving


def random_policy(state: Any, rng: random.Random) -> Any:
    """Pick a legal action uniformly at random."""
    return rng.choice(state.legal_actions())


def play(
    state: Any,
    policies: Policy | Sequence[Policy],
    seed: int | None = None,
    max_actions: int = 100_000,
    on_action: Callable[[Any, Any], None] | None = None,
) -> Any:
    """Play ``state`` to the end and return the final state.

    Chance nodes left to the caller (``explicit_chance``) are sampled with the driver's own
    seeded generator, so the same seed gives the same game.

    Args:
        state: the state to start from.
        policies: one policy for every seat, or a sequence indexed by seat.
        seed: the seed of the generator handed to the policies and used at chance nodes.
        max_actions: a safeguard against a game that never ends.
        on_action: called as ``on_action(state, action)`` before each action is applied.

    Returns:
        The terminal state.

    Raises:
        RuntimeError: the game did not end within ``max_actions`` actions.

    Example:
        >>> from gamelib import pangu
        >>> play(pangu.new_game(seed=1), random_policy, seed=1).is_terminal
        True
    """
    rng = random.Random(seed)
    seat_policies = policies if isinstance(policies, Sequence) else None
    for _ in range(max_actions):
        if state.is_terminal:
            return state
        player = state.current_player
        if player == CHANCE:
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            policy = seat_policies[player] if seat_policies is not None else policies
            action = policy(state, rng)
        if on_action is not None:
            on_action(state, action)
        state = state.apply(action)
    raise RuntimeError(f"game did not end within {max_actions} actions")


# --------------------------------------------------------------------------- history


class Match:
    """A game's history: every state reached, with undo, step back / forward and jump.

    Stepping back does not forget the future: ``forward()`` replays it, until a new
    action is applied from an earlier point, which replaces that future (like an
    editor's undo). Listeners registered with :meth:`observe` are called after every
    change, so a board can redraw.
    """

    def __init__(self, initial_state: Any):
        self._states: list[Any] = [initial_state]
        self._actions: list[Any] = []
        self._index = 0
        self._listeners: list[Callable[["Match"], None]] = []

    # reading
    @property
    def state(self) -> Any:
        """The state now shown."""
        return self._states[self._index]

    @property
    def index(self) -> int:
        """How many actions led to the state now shown (0 = start)."""
        return self._index

    @property
    def length(self) -> int:
        """How many actions the recorded history holds."""
        return len(self._actions)

    @property
    def actions(self) -> list:
        """The actions up to the state now shown."""
        return self._actions[: self._index]

    @property
    def recorded_actions(self) -> list:
        """Every recorded action (also those after the state now shown), for reviewing a whole game."""
        return list(self._actions)

    @property
    def states(self) -> list:
        """Every recorded state, start first (also those after the current one)."""
        return list(self._states)

    @property
    def can_step_back(self) -> bool:
        """Whether an earlier state exists (the state shown is not the start)."""
        return self._index > 0

    @property
    def can_step_forward(self) -> bool:
        """Whether a recorded later state exists (the state shown is not the latest)."""
        return self._index < len(self._actions)

    # changing
    def apply(self, action: Any) -> Any:
        """Apply ``action`` to the state shown; any recorded future after it is replaced.

        Returns:
            The new state.

        Raises:
            IllegalMove: the rules forbid the action; the match is unchanged.
        """
        new_state = self.state.apply(action)
        del self._states[self._index + 1 :]
        del self._actions[self._index :]
        self._states.append(new_state)
        self._actions.append(action)
        self._index += 1
        self._notify()
        return new_state

    def undo(self) -> Any:
        """Take back the last action for good (it cannot be replayed with forward).

        Raises:
            IllegalMove: nothing to undo (the start of the game).
        """
        if not self.can_step_back:
            raise IllegalMove("there is nothing to undo: this is the start of the game")
        del self._states[self._index :]
        del self._actions[self._index - 1 :]
        self._index -= 1
        self._notify()
        return self.state

    def step_back(self) -> Any:
        """Show the state one action earlier (the future is kept for :meth:`step_forward`).

        Raises:
            IllegalMove: already at the start.
        """
        if not self.can_step_back:
            raise IllegalMove("already at the start of the game")
        return self.jump(self._index - 1)

    def step_forward(self) -> Any:
        """Show the recorded state one action later.

        Raises:
            IllegalMove: already at the latest recorded state.
        """
        if not self.can_step_forward:
            raise IllegalMove("already at the latest move")
        return self.jump(self._index + 1)

    def to_start(self) -> Any:
        """Show the starting state."""
        return self.jump(0)

    def to_end(self) -> Any:
        """Show the latest recorded state."""
        return self.jump(len(self._actions))

    def jump(self, index: int) -> Any:
        """Show the state after ``index`` actions.

        Raises:
            IllegalMove: no such move in the history (the message gives the range).
        """
        if not 0 <= index <= len(self._actions):
            raise IllegalMove(f"move {index} does not exist: the history has moves 0 to {len(self._actions)}")
        self._index = index
        self._notify()
        return self.state

    # listeners
    def observe(self, listener: Callable[["Match"], None]) -> None:
        """Call ``listener(match)`` after every change (a board redraws with it)."""
        self._listeners.append(listener)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    # replay
    @classmethod
    def replay(cls, initial_state: Any, actions: Iterable[Any]) -> "Match":
        """Rebuild a match by applying ``actions`` to ``initial_state``."""
        match = cls(initial_state)
        for action in actions:
            match.apply(action)
        return match

    def __repr__(self) -> str:
        return f"Match(move {self._index} of {len(self._actions)})"


# --------------------------------------------------------------------------- saving


MAX_SAVE_CHARS = 4_000_000  # far above any real save (a long finished game is a few hundred kB)
MAX_SAVE_DEPTH = 32  # the deepest real save nests about 6 levels


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a save can hold")


def load_json(text: str | bytes | dict, what: str = "saved game") -> dict:
    """Parse a saved document, turning any JSON error into a :class:`CorruptSave`.

    The input is bounded before and while parsing: at most ``MAX_SAVE_CHARS`` characters,
    no ``NaN``/``Infinity``, nesting at most ``MAX_SAVE_DEPTH`` deep, so a hostile save
    fails fast with a reason instead of a RecursionError, an OverflowError or a memory blow-up.

    Args:
        text: the JSON text (or an already parsed dict, which is checked the same way).
        what: how the messages name the document.

    Returns:
        The parsed JSON object.

    Raises:
        CorruptSave: not JSON, not an object, too long or nested too deeply; the message says which.
    """
    if not isinstance(text, dict):
        if not isinstance(text, (str, bytes, bytearray)):
            raise CorruptSave(f"this {what} should be JSON text, not {type(text).__name__}")
        if len(text) > MAX_SAVE_CHARS:
            raise CorruptSave(f"this {what} is {len(text):,} characters long; a save holds at most {MAX_SAVE_CHARS:,}")
        try:
            text = json.loads(text, parse_constant=_refuse_constant)
        except RecursionError:
            raise CorruptSave(f"this {what} is nested too deeply to be a save") from None
        except (TypeError, ValueError) as error:
            raise CorruptSave(f"this {what} is not valid JSON ({error})") from None
    if not isinstance(text, dict):
        raise CorruptSave(f"this {what} should be a JSON object, not {type(text).__name__}")
    _check_depth(text, what)
    return text


def _check_depth(data: Any, what: str) -> None:
    """Refuse documents nested deeper than ``MAX_SAVE_DEPTH`` (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
        if depth > MAX_SAVE_DEPTH or (items and depth == MAX_SAVE_DEPTH):  # an item, even a number, one deeper
            raise CorruptSave(f"this {what} is nested more than {MAX_SAVE_DEPTH} levels deep; no save is")
        stack += [(item, depth + 1) for item in items if isinstance(item, (dict, list, tuple))]  # only containers


def require_fields(data: dict, fields: Iterable[str], what: str = "saved game") -> None:
    """Raise :class:`CorruptSave` naming every missing field."""
    missing = [field for field in fields if field not in data]
    if missing:
        raise CorruptSave(f"this {what} is missing {', '.join(missing)}")


def require_rule_fields(rules: Any, rules_class: type, what: str = "saved game") -> None:
    """Raise :class:`CorruptSave` unless a save's rules name every parameter of ``rules_class``.

    A save records the whole rule set; one missing a parameter was edited or damaged, and filling in
    the default would load a game played under other rules.

    Raises:
        CorruptSave: ``rules`` is not a dict, or lacks a parameter; the message names them.
    """
    if not isinstance(rules, dict):
        raise CorruptSave(f"the rules of this {what} should be an object of rule parameters")
    missing = [field.name for field in dataclasses.fields(rules_class) if field.name not in rules]
    if missing:
        raise CorruptSave(
            f"the rules of this {what} lack {', '.join(missing)}: a save names every rule, so "
            "this one was edited or damaged"
        )


def read_json_file(path: str | Path, what: str, error: type[ValueError] = CorruptSave) -> Any:
    """Parse a JSON data file.

    Args:
        path: the file.
        what: how the messages name the file (``"deck file"``).
        error: the exception class to raise.

    Returns:
        The parsed JSON value.

    Raises:
        error: the file cannot be read or is not valid JSON; the message names ``what`` and the path.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as problem:
        raise error(f"cannot read {what} {path}: {problem.strerror or problem}") from None
    try:
        return json.loads(text)
    except ValueError as problem:
        raise error(f"{what} {path} is not valid JSON ({problem})") from None


# --------------------------------------------------------------------------- building the next state


class Draft:
    """The one way every engine builds its next state: a local, mutable copy of a frozen state's
    fields, edited as plain attributes, then frozen into a new state of the original's class.

    A draft lives only inside the function that made it, so nothing is shared between games or
    threads; the state it was copied from is never touched, so a move refused half-way (an
    :class:`IllegalMove` raised while the draft is edited) leaves the caller's state as it was.
    Immutable values inside the fields (tuples, frozen seats) are shared, not copied: an edit
    replaces a field, it never changes what the field held.

    Example::

        draft = Draft(state)
        draft.turn += 1
        next_state = draft.freeze()

    A game may subclass it to hold its editing steps (Pangu's placement, Nagaraja's effects), and
    may keep per-draft bookkeeping (a pending log) in attributes named in ``scratch``, which
    ``freeze`` leaves out of the new state.

    ``Draft`` copies a state that keeps its fields in its ``__dict__`` (the engines' states). A state
    that keeps them in ``__slots__`` (a studio state, a ``dataclass(frozen=True, slots=True)``) is
    drafted by the class :meth:`for_class` gives: the same three steps, on an object with the
    state's own slots, which ``freeze`` turns into the state itself.
    """

    __slots__ = ("__dict__", "_made_from")
    scratch: tuple[str, ...] = ()
    """Names of draft-only attributes, dropped by :meth:`freeze`."""

    def __init__(self, state: Any) -> None:
        self._made_from = type(state)
        try:
            self.__dict__.update(state.__dict__)
        except AttributeError:
            raise TypeError(
                f"Draft copies a state's __dict__, and a {type(state).__name__} keeps its fields in slots: "
                f"draft it with Draft.for_class({type(state).__name__})(state)"
            ) from None

    def freeze(self, state_class: type | None = None) -> Any:
        """The new, immutable state holding the draft's fields (of ``state_class``, by default the
        class of the state the draft was made from). The draft is emptied, so a later edit of it
        cannot reach the frozen state."""
        fields = self.__dict__
        for name in self.scratch:
            fields.pop(name, None)
        state = object.__new__(state_class or self._made_from)
        object.__setattr__(state, "__dict__", fields)
        self.__dict__ = {}
        return state

    @staticmethod
    def for_class(state_class: type) -> type:
        """The draft class for states of ``state_class``: :class:`Draft` itself for a state with a
        ``__dict__``, else the slotted draft of that class (made once per class, then reused).

        A slotted draft has the same steps: ``draft_class(state)`` copies every slot of ``state``
        (``draft_class.blank()`` starts with none set, for a state built from nothing, every slot
        then to be set), the slots are edited as attributes, and ``freeze()`` returns the new state. The
        draft has the state's own memory layout, so ``freeze`` makes it the state by changing its
        class, without a copy: the object becomes immutable in place, and a later edit through the
        ``draft`` name is refused by the state's ``__setattr__`` (which a frozen slotted class
        refuses edits with). Having no ``__dict__``, a slotted draft keeps no ``scratch``.

        Raises:
            TypeError: ``state_class`` has neither a ``__dict__`` nor slots of its own to copy.

        >>> import dataclasses
        >>> @dataclasses.dataclass(frozen=True, slots=True)
        ... class Point:
        ...     x: int
        ...     y: int
        >>> draft = Draft.for_class(Point)(Point(1, 2))
        >>> draft.y = 5
        >>> draft.freeze()
        Point(x=1, y=5)
        """
        if state_class.__dictoffset__:
            return Draft
        return _slotted_draft_class(state_class)


@functools.cache
def _slotted_draft_class(state_class: type) -> type:
    """The draft class of a slotted ``state_class`` (see :meth:`Draft.for_class`): a subclass of the
    class that declares the state's slots, adding none (so the two layouts are the same and
    ``freeze`` may change the object's class), with plain attribute setting, and a copier written
    for these slot names (as ``dataclasses`` writes each ``__init__``: one attribute copy a line,
    several times faster than a loop over the names)."""
    layout = next((klass for klass in state_class.__mro__ if vars(klass).get("__slots__")), None)
    names = [
        name
        for klass in reversed(state_class.__mro__)
        for name in _slot_names(klass)
        if name not in ("__dict__", "__weakref__")
    ]
    if layout is None or not names:
        raise TypeError(f"{state_class.__name__} keeps its fields neither in a __dict__ nor in slots: no draft for it")
    lines = [f"    draft.{name} = state.{name}" for name in names]
    source = "def __init__(draft, state):\n" + "\n".join(lines)
    namespace: dict[str, Any] = {}
    exec(source, {}, namespace)  # noqa: S102 - generated from the class's own slot names, as dataclasses does

    def freeze(draft: Any, state_class: type | None = None) -> Any:
        """The new state: this very object, its class now the state's (no copy)."""
        draft.__class__ = state_class or draft._made_from
        return draft

    draft_class = type(
        f"{state_class.__name__}Draft",
        (layout,),
        {
            "__slots__": (),
            "__module__": state_class.__module__,
            "__qualname__": f"{state_class.__qualname__}Draft",
            "__doc__": f"A draft of a {state_class.__qualname__}, from gamelib.core.Draft.for_class.",
            "__init__": namespace["__init__"],
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "freeze": freeze,
            "blank": classmethod(object.__new__),  # a draft with no slot set yet: no __init__, nothing copied
            "scratch": (),
            "_made_from": state_class,
        },
    )
    return draft_class


def _slot_names(klass: type) -> tuple[str, ...]:
    """The attribute names of the slots ``klass`` itself declares (a private ``__name`` mangled, as Python stores it)."""
    slots = vars(klass).get("__slots__", ())
    slots = (slots,) if isinstance(slots, str) else tuple(slots)
    owner = klass.__name__.lstrip("_")
    return tuple(
        f"_{owner}{name}" if name.startswith("__") and not name.endswith("__") and owner else name for name in slots
    )


# --------------------------------------------------------------------------- shared helpers


def replace_fields(value: Any, **changes: Any) -> Any:
    """A copy of the frozen dataclass ``value`` with some fields replaced (the one copy of ``evolve``).

    Search copies states millions of times, so an instance of a dataclass without ``__post_init__``
    (nothing to re-validate) holding nothing but its fields (no cached property) is copied field
    dict to field dict, skipping ``__init__``: the object ``dataclasses.replace`` builds, without
    its per-field work. Anything else goes through ``dataclasses.replace``.

    Args:
        value: a frozen dataclass instance.
        changes: the fields to replace, by name.

    Returns:
        A new instance of the same class; ``value`` is unchanged.
    """
    cls = value.__class__
    names = _plain_dataclass_fields(cls)
    if names and names.issuperset(changes):
        fields = value.__dict__
        if len(fields) == len(names):
            entries = fields.copy()  # one dict copy, cheaper than filling the new object's dict
            entries.update(changes)
            copy = object.__new__(cls)
            object.__setattr__(copy, "__dict__", entries)
            return copy
    return dataclasses.replace(value, **changes)


@functools.cache
def _plain_dataclass_fields(cls: type) -> frozenset:
    """The field names of a dataclass whose copy needs no ``__init__``, or an empty set."""
    fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
    if not fields or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__") or not all(f.init for f in fields):
        return frozenset()
    return frozenset(f.name for f in fields)


def weighted_draw(weights: Sequence[int], rng: random.Random) -> int:
    """The index of one item drawn with exactly the given non-negative integer weights.

    Raises:
        ValueError: no weight is positive.
    """
    total = sum(weights)
    if total <= 0:
        raise ValueError("a weighted draw needs at least one positive weight")
    ticket = rng.randrange(total)
    for index, weight in enumerate(weights):
        if ticket < weight:
            return index
        ticket -= weight
    raise AssertionError("unreachable")


MAX_SEED_CHARS = 1000
"""The most characters of a seed text and digits of a seed number: every chance draw hashes the seed's
text, and a save must hold it (``new_seed`` gives 19 digits)."""


def resolve_seed(seed: Any) -> int | str:
    """The seed a new game records: ``check_seed(seed)``, or a fresh one when it is ``None``."""
    if seed is None:
        return new_seed()
    return check_seed(seed)


def check_seed(seed: Any) -> int | str:
    """``seed`` as a game records it, if every save can hold it and every game's loader reopens it.

    The one seed check of every game, at ``new_game`` and on loading a save: a whole number of at
    most MAX_SEED_CHARS digits, or a text of at most MAX_SEED_CHARS characters that UTF-8 can write
    (no lone surrogate such as ``"\\ud800"``). Subclasses (an ``IntEnum``, a ``str`` subclass) are
    recorded as the plain value, which is what a save gives back.

    Returns:
        The seed as a plain ``int`` or ``str``.

    Raises:
        ValueError: any other value, or one too long; the message says what a seed may be.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(
            f"a seed is a whole number or a text, not {type(seed).__name__} (to use another value, pass str(value))"
        )
    if isinstance(seed, int):
        seed = int(seed)
        if not -(10**MAX_SEED_CHARS) < seed < 10**MAX_SEED_CHARS:
            raise ValueError(
                f"a seed number has at most {MAX_SEED_CHARS:,} digits; this one has about "
                f"{int(seed.bit_length() * 0.30103) + 1:,}"
            )
        return seed
    seed = str(seed)
    if len(seed) > MAX_SEED_CHARS:
        raise ValueError(f"a seed text has at most {MAX_SEED_CHARS:,} characters, not {len(seed):,}")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError as problem:
        raise ValueError(
            f"a seed text must be writable as UTF-8: character {problem.start} is a lone surrogate "
            f"{seed[problem.start]!a}, which no text file can hold"
        ) from None
    return seed


def rules_or_default(rules: Any, rules_class: type, default: Any = None) -> Any:
    """``rules`` checked to be a value of the game's ``rules_class``; the defaults when it is ``None``.

    Every game's ``new_game`` calls it, so a wrong ``rules`` argument raises the same
    ``TypeError`` with the same advice in all of them.

    Args:
        rules: what the caller passed.
        rules_class: the game's ``Rules``.
        default: the rules ``None`` stands for (default: ``rules_class()``).

    Returns:
        The rules to play.

    Raises:
        TypeError: ``rules`` is neither ``None`` nor a ``rules_class`` value.
    """
    if rules is None:
        return rules_class() if default is None else default
    if not isinstance(rules, rules_class):
        game = rules_class.__module__.rsplit(".", 1)[0]
        raise TypeError(
            f"rules must be a {game}.Rules value, not {type(rules).__name__}: build one with "
            f"Rules(name=value, ...), or Rules.from_dict(...) from a dict"
        )
    return rules


def returns_for(winners: Sequence[int], players: int) -> list[float]:
    """The contract's returns: each of k winners gets 1/k, everyone else 0 (all 0 while nobody has won).

    >>> returns_for((0, 2), 3)
    [0.5, 0.0, 0.5]
    """
    if not winners:
        return [0.0] * players
    share = 1 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(players)]


def single_winner(winners: Sequence[int]) -> int | None:
    """The seat when exactly one player won, else ``None``."""
    return winners[0] if len(winners) == 1 else None


# --------------------------------------------------------------------------- rules


@functools.cache
def _field_names(cls: type) -> tuple:
    """A dataclass's field names, read once per class (observations write the rules at every step)."""
    return tuple(field.name for field in dataclasses.fields(cls))


class RulesBase:
    """What every game's ``Rules`` frozen dataclass shares: dict round trip, ``changes()`` and ``str``.

    A game's ``Rules`` subclasses this and validates its fields in ``__post_init__`` with
    :func:`check_int`, :func:`check_choice` and :func:`check_switch`, whose messages name the parameter.
    """

    def to_dict(self) -> dict:
        """Every rule parameter by name (what a save records)."""
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_dict(cls, data: Any):
        """Rules from a dict such as ``to_dict()`` gives.

        Raises:
            ValueError: ``data`` is not a dict or names an unknown parameter (the message lists the known
                ones), or a value the rules refuse.
        """
        if not isinstance(data, dict):
            raise ValueError(f"rules should be a dict of parameters, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(map(str, set(data) - known))
        if unknown:
            raise ValueError(f"unknown rule parameter(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**data)

    def changes(self) -> dict:
        """The parameters whose values differ from the defaults."""
        default = type(self)()
        return {name: value for name, value in self.to_dict().items() if value != getattr(default, name)}

    def __str__(self) -> str:
        changed = self.changes()
        if not changed:
            return "default rules"
        return ", ".join(
            f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}" for name, value in changed.items()
        )


def check_int(name: str, value: Any, low: int, high: int, allow_none: bool = False) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is an int (not a bool) in ``low..high``."""
    if value is None and allow_none:
        return
    if type(value) is not int or not low <= value <= high:
        extra = " or None" if allow_none else ""
        raise ValueError(f"{name} must be a whole number from {low} to {high}{extra}, not {value!r}")


def check_choice(name: str, value: Any, allowed: Sequence[str]) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is one of ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")


def check_switch(name: str, value: Any) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, not {value!r}")


# --------------------------------------------------------------------------- state base


class StateBase:
    """The part of every game's ``State`` that lives above its rules: saving and viewing.

    The floor plan puts ``saving.py`` and ``view.py`` above ``rules.py`` (they read states the
    rules build), yet the contract wants ``state.to_json()``, ``State.from_json()``,
    ``state.observation(p)`` and ``str(state)``. Importing them from ``rules.py`` would close
    an import circle, so the game package binds them once with :meth:`bind` in its
    ``__init__`` (which Python always runs before any of its modules).
    """

    _saving: Any = None
    _view: Any = None

    @classmethod
    def bind(cls, saving: Any, view: Any) -> None:
        """Use ``saving.to_json``/``saving.from_json`` and ``view.observation``/``view.text_board``."""
        cls._saving, cls._view = saving, view

    def to_json(self) -> str:
        return type(self)._saving.to_json(self)

    @classmethod
    def from_json(cls, text: Any):
        return cls._saving.from_json(text)

    def observation(self, player: int) -> dict:
        return type(self)._view.observation(self, player)

    def __str__(self) -> str:
        return type(self)._view.text_board(self)


# --------------------------------------------------------------------------- save header


def save_header(game: str, version: int) -> dict:
    """The header every save starts with."""
    return {"game": game, "version": version}


def check_save_header(data: dict, game: str, version: int) -> None:
    """Check a save's header (:func:`save_header`).

    Raises:
        CorruptSave: ``data`` is not a save of ``game`` at ``version``; the message names what it is.
    """
    found_game, found_version = data.get("game"), data.get("version")
    if found_game != game or type(found_version) is not int or found_version != version:
        found = f"game {reprlib.repr(found_game)} version {reprlib.repr(found_version)}"  # briefly: any size arrives
        raise CorruptSave(f"this is a save of {found}, but a {game} save of version {version} is needed")


# --------------------------------------------------------------------------- tournaments


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament, as :func:`tournament` returns it: the deal, the seating and the end.

    The one record of a game played by policies. ``gamelib.design`` keeps its table rows
    (:class:`gamelib.design.GameResult`) as this record plus the design fields, built by one
    conversion, :meth:`gamelib.design.GameResult.from_record`.

    Attributes:
        index: the game's place in the tournament's plan (0, 1, ...).
        seed: the deal seed; every seating of a deal has the same one.
        seating: ``seating[seat]`` is the index of the policy in that seat.
        winners: the winning seats.
        returns: the contract's returns, by seat.
        scores: the game's ``scores()`` by seat, or None for a game without scores.
        length: the actions applied by the players (chance outcomes not counted).
        final: the final state, kept only when asked (``keep_final``); not compared.
    """

    index: int
    seed: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple | None
    length: int
    final: Any = dataclasses.field(default=None, compare=False, repr=False)

    def policy_returns(self) -> list[float]:
        """The returns by policy index instead of by seat."""
        result = [0.0] * len(self.seating)
        for seat, policy_index in enumerate(self.seating):
            result[policy_index] = self.returns[seat]
        return result


def _new_game_function(game: Any) -> Callable[..., Any]:
    return game.new_game if hasattr(game, "new_game") else game


def seatings(players: int, rotate: bool = True) -> list[tuple[int, ...]]:
    """The seatings a tournament plays on each deal.

    Args:
        players: the number of seats.
        rotate: every rotation of the policies (True) or only the first, policy i in seat i (False).

    Returns:
        One tuple per seating, ``seating[seat]`` the policy index.

    >>> seatings(3)
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    """
    base = tuple(range(players))
    if not rotate:
        return [base]
    return [base[shift:] + base[:shift] for shift in range(players)]


def play_seated_game(
    game: Any,
    policies: Sequence[Policy],
    seating: Sequence[int],
    seed: int,
    rules: Any = None,
    setup: dict | None = None,
    index: int = 0,
    keep_final: bool = False,
    on_action: Callable[[Any, Any], None] | None = None,
) -> GameRecord:
    """Play one game of a tournament: deal ``seed``, ``policies[seating[seat]]`` in each seat.

    The driver's own generator is derived from the deal seed, so every seating of a deal gets
    the same deal.

    Args:
        game: a game module (or its ``new_game``), called as ``new_game(seed, rules, **setup)``.
        policies: the tournament's policies; ``seating`` says which sits where.
        seating: ``seating[seat]`` is the index in ``policies`` of the policy in that seat.
        seed: the deal seed.
        rules, setup: passed to ``new_game``.
        index: the game's place in the tournament, copied into the record.
        keep_final: keep the final state in the record.
        on_action: called as ``on_action(state, action)`` before every action, chance included
            (passed to :func:`play`; ``gamelib.design`` traces the lead with it).

    Returns:
        The game's :class:`GameRecord`.
    """
    state = _new_game_function(game)(seed, rules, **(setup or {}))
    seat_policies = [policies[i] for i in seating]
    length = 0

    def count(state_before, action):
        nonlocal length
        if state_before.current_player != CHANCE:
            length += 1
        if on_action is not None:
            on_action(state_before, action)

    final = play(state, seat_policies, seed=seed, on_action=count)
    scores = final.scores() if hasattr(final, "scores") else None
    return GameRecord(
        index,
        seed,
        tuple(seating),
        tuple(final.winners),
        tuple(final.returns()),
        None if scores is None else tuple(scores),
        length,
        final if keep_final else None,
    )


def tournament_plan(players: int, games: int, seed: int = 0, rotate: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """The ``(deal seed, seating)`` of every game of a tournament, in order.

    Args:
        players: the number of seats.
        games: the number of deals; each is played once per seating.
        seed: the master seed the deal seeds derive from (``gamelib.simulate.seeds``; a longer
            tournament with the same seed starts with the same deals).
        rotate: see :func:`seatings`.

    Returns:
        ``games * len(seatings(players, rotate))`` pairs, the seatings of one deal together.
    """
    from gamelib.simulate import seeds

    return [(deal_seed, seating) for deal_seed in seeds(seed, games) for seating in seatings(players, rotate)]


PlannedGame = tuple[int, int, tuple[int, ...]]
"""One game of a tournament's plan as a runner receives it: ``(index, deal seed, seating)``."""


def tournament(
    game: Any,
    policies: Sequence[Policy],
    games: int,
    *,
    rules: Any = None,
    seed: int = 0,
    setup: dict | None = None,
    rotate: bool = True,
    progress: bool = True,
    description: str = "games",
    keep_final: bool = False,
    runner: Callable[[list[PlannedGame]], Iterable[Any]] | None = None,
) -> list:
    """Play a seeded tournament: ``games`` deals, each once per seating. The one tournament function.

    Every tournament of the package goes through here: the games' presets
    (``pangu.bots.tournament``, ``chakra.bots.tournament``, ``nagaraja.bots.tournament``) summarise
    its records, and ``gamelib.design.tournament`` passes a ``runner`` that plays the same plan on
    worker processes and traces the lead. The same ``seed`` gives the same deals for every
    compared bot or rule set, so differences between them are not luck of the deal.

    Args:
        game: a game module (or its ``new_game``).
        policies: one policy per seat.
        games: the number of DEALS (everywhere in gamelib, ``games`` counts deals). With
            ``rotate`` each deal is played once per seating, so ``games * len(policies)`` games are
            played; without it, ``games``.
        rules, setup: passed to the game's ``new_game``.
        seed: the master seed of the deals (:func:`tournament_plan`).
        rotate: rotate the policies through the seats (:func:`seatings`).
        progress: show a progress bar labelled ``description``.
        keep_final: keep each game's final state in its record (for game-specific summaries).
        runner: plays the plan: called with every ``(index, deal seed, seating)`` and yields one
            record per game, in plan order. Default: :func:`play_seated_game` here, one by one.

    Returns:
        One :class:`GameRecord` per game in plan order (or what ``runner`` yields).

    Example:
        >>> from gamelib import pangu
        >>> records = tournament(pangu, [pangu.greedy_policy], 3, seed=1, progress=False)
        >>> len(records), records[0].seating
        (3, (0,))
    """
    plan = [
        (index, deal_seed, seating)
        for index, (deal_seed, seating) in enumerate(tournament_plan(len(policies), games, seed, rotate))
    ]
    if runner is None:
        records = (
            play_seated_game(game, policies, seating, deal_seed, rules, setup, index, keep_final)
            for index, deal_seed, seating in plan
        )
    else:
        records = runner(plan)
    if progress:
        from gamelib.simulate import progress as progress_bar

        records = progress_bar(records, len(plan), description)
    return list(records)


def win_rates(records: Sequence[GameRecord]):
    """Each policy's mean return (its share of wins) over a tournament's records.

    Args:
        records: the :class:`GameRecord` list :func:`tournament` returns.

    Returns:
        One :class:`gamelib.simulate.Estimate` (with its 95% interval) per policy index.
    """
    from gamelib.simulate import mean

    by_policy = list(zip(*(record.policy_returns() for record in records)))
    return [mean(values) for values in by_policy]
