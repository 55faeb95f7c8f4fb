"""A Chakra table for a search bot to simulate from: what the player cannot know is dealt again.

The plenitude values outside the player's Meditation tokens and the unused token are dealt again
from the tokens the player has not seen (chakra.md#hidden-values); the future Maya refills come
from a new seed. ``gamelib.studio.determinise`` finds this module by the state's package (the
studio imports no game), so a search bot never reads the real hidden values or the real future.
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.core import new_seed, replace_fields
from gamelib.chakra.components import CHAKRAS, PLENITUDE_TOKENS


def determinised(state: Any, player: int, rng: random.Random) -> Any:
    """Unknown plenitude values and the unused token dealt again; a fresh seed; no log (search speed)."""
    changes: dict = {"seed": new_seed(rng), "log": None}
    if not state.finished:
        known = state.known_plenitude(player)
        unseen = list(PLENITUDE_TOKENS)
        for value in known.values():
            unseen.remove(value)
        rng.shuffle(unseen)
        plenitude = list(state.plenitude)
        for level in CHAKRAS:
            if level not in known:
                plenitude[level - 1] = unseen.pop()
        (changes["unused_plenitude"],) = unseen
        changes["plenitude"] = tuple(plenitude)
    return replace_fields(state, **changes)
