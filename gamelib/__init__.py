"""gamelib: exact rules engines, odds and boards for teaching with three tabletop games.

The small public face; each game lives in its own sub-package (``gamelib.pangu``,
``gamelib.chakra``, ``gamelib.nagaraja``) and imports only this core.
"""

from gamelib.core import (
    CHANCE,
    TERMINAL,
    CorruptSave,
    IllegalMove,
    Match,
    chance_rng,
    play,
    random_policy,
    sample_outcome,
)
from gamelib.dist import Dist, sum_of
from gamelib.exercises import check_answer
from gamelib.simulate import Estimate, mean, proportion

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CorruptSave",
    "Dist",
    "Estimate",
    "IllegalMove",
    "Match",
    "chance_rng",
    "check_answer",
    "mean",
    "play",
    "proportion",
    "random_policy",
    "sample_outcome",
    "sum_of",
]
__version__ = "0.1.0"
