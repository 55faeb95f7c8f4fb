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

import hashlib
import json
import random
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

    Hashing keeps neighbouring seeds and draw numbers independent of each other.
    """
    digest = hashlib.sha256(f"gamelib:{seed}:{draw_number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def sample_outcome(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """Draw one outcome with exactly the given probabilities (integer arithmetic)."""
    if not outcomes:
        raise ValueError("a chance node needs at least one outcome")
    denominator = lcm(*(Fraction(p).denominator for _, p in outcomes))
    weights = [int(Fraction(p) * denominator) for _, p in outcomes]
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
    """Raise ``ValueError`` unless the probabilities are positive and sum to exactly 1."""
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

    ``policies`` is one policy for every seat, or a sequence indexed by seat. Chance
    nodes left to the caller (``explicit_chance``) are sampled with the driver's own
    seeded generator, so the same seed gives the same game.
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
    def states(self) -> list:
        """Every recorded state, start first (also those after the current one)."""
        return list(self._states)

    @property
    def can_step_back(self) -> bool:
        return self._index > 0

    @property
    def can_step_forward(self) -> bool:
        return self._index < len(self._actions)

    # changing
    def apply(self, action: Any) -> Any:
        """Apply ``action`` to the current state; an illegal one raises and changes nothing."""
        new_state = self.state.apply(action)
        del self._states[self._index + 1 :]
        del self._actions[self._index :]
        self._states.append(new_state)
        self._actions.append(action)
        self._index += 1
        self._notify()
        return new_state

    def undo(self) -> Any:
        """Take back the last action for good (it cannot be replayed with forward)."""
        if not self.can_step_back:
            raise IllegalMove("there is nothing to undo: this is the start of the game")
        del self._states[self._index :]
        del self._actions[self._index - 1 :]
        self._index -= 1
        self._notify()
        return self.state

    def step_back(self) -> Any:
        if not self.can_step_back:
            raise IllegalMove("already at the start of the game")
        return self.jump(self._index - 1)

    def step_forward(self) -> Any:
        if not self.can_step_forward:
            raise IllegalMove("already at the latest move")
        return self.jump(self._index + 1)

    def to_start(self) -> Any:
        return self.jump(0)

    def to_end(self) -> Any:
        return self.jump(len(self._actions))

    def jump(self, index: int) -> Any:
        """Show the state after ``index`` actions."""
        if not 0 <= index <= len(self._actions):
            raise IllegalMove(f"move {index} does not exist: the history has moves 0 to {len(self._actions)}")
        self._index = index
        self._notify()
        return self.state

    # listeners
    def observe(self, listener: Callable[["Match"], None]) -> None:
        self._listeners.append(listener)

    def unobserve(self, listener: Callable[["Match"], None]) -> None:
        self._listeners.remove(listener)

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


def load_json(text: str | bytes | dict, what: str = "saved game") -> dict:
    """Parse a saved document, turning any JSON error into a :class:`CorruptSave`."""
    if isinstance(text, dict):
        return text
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise CorruptSave(f"this {what} is not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise CorruptSave(f"this {what} should be a JSON object, not {type(data).__name__}")
    return data


def require_fields(data: dict, fields: Iterable[str], what: str = "saved game") -> None:
    """Raise :class:`CorruptSave` naming every missing field."""
    missing = [field for field in fields if field not in data]
    if missing:
        raise CorruptSave(f"this {what} is missing {', '.join(missing)}")


def read_json_file(path: str | Path, what: str, error: type[ValueError] = CorruptSave) -> Any:
    """Parse a JSON data file; a missing file or bad JSON raises ``error`` naming ``what`` and the path."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as problem:
        raise error(f"cannot read {what} {path}: {problem.strerror or problem}") from None
    try:
        return json.loads(text)
    except ValueError as problem:
        raise error(f"{what} {path} is not valid JSON ({problem})") from None
