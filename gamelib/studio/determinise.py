"""A position a search bot may simulate from: what the player cannot know is drawn again.

A search bot that simulates from the real state would read two things it must not know:

* **the future chance**: by default a game draws its dice, shuffles and sticks from the seed in
  the state, so simulating from it plays out the real future (the next roll, the next card);
* **the hidden part**: the opponent's hand, face-down relics, hidden scoring values.

:func:`determinised` returns a copy of the position in which the hidden part is drawn at random
from everything ``player`` observes, and whose future chance comes from a new seed drawn from the
bot's own generator (or is left to the search at explicit chance nodes), so the copy depends on
the real state only through what ``player`` sees (the tests check that a bot's choice does not
change when the seed or the hidden part does).

How each game does it:

* a studio game: ``state.sample_hidden(player, rng)`` when it hides information, then
  ``state.with_seed(new seed)`` and ``with_explicit_chance()`` (the search samples each chance event);
* a game package with a ``determinise`` module (Chakra, Nagaraja): its
  ``determinised(state, player, rng)``, found by the state's package name, since the studio
  imports no game (see those modules for what each redraws);
* any other game with ``with_explicit_chance()`` and nothing hidden but its chance (Pangu: it
  forgets the shuffle and stops at each draw and roll, which the search then samples).
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from gamelib.core import new_seed


def determinised(state: Any, player: int, rng: random.Random) -> Any:
    """A copy of ``state`` for ``player`` to simulate from: hidden part redrawn, future chance not the state's."""
    if hasattr(state, "with_seed"):  # a studio game
        if getattr(state, "hides_information", False):
            state = state.sample_hidden(player, rng)
        state = state.with_seed(new_seed(rng))
        return state.with_explicit_chance() if hasattr(state, "with_explicit_chance") else state
    game_hook = _game_module(state)
    if game_hook is not None:
        return game_hook.determinised(state, player, rng)
    if hasattr(state, "with_explicit_chance"):
        return state.with_explicit_chance()
    raise TypeError(
        f"a search bot does not know how to hide the future of a {type(state).__name__} "
        f"from {type(state).__module__}: give the game with_seed(seed) (and sample_hidden if it "
        f"hides information)"
    )


def _game_module(state: Any):
    """The ``determinise`` module of the state's game package, or None."""
    package = type(state).__module__.rsplit(".", 1)[0]
    name = f"{package}.determinise"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise  # the module exists but fails: say so
        return None
