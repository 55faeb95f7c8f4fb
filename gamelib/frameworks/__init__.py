"""The games inside the field's own frameworks: PettingZoo (AEC), Gymnasium and OpenSpiel (issue 27).

Optional: nothing else in gamelib imports this package, and the frameworks are imported only when
an adapter is built, so the default install, the lessons and the browser-only site never need them.
Install them with ``pip install "gamelib[frameworks]"``.

* :mod:`gamelib.frameworks.numbering` -- each game's action numbering, chance numbering and byte
  observation encoding, shared by the three adapters (no framework needed).
* :mod:`gamelib.frameworks.features` -- the numeric observation encoding for learners (``features="numeric"``):
  a fixed slot per field, names one-hot from each game's vocabulary (read from its rules code and data).
* :mod:`gamelib.frameworks.pettingzoo_env` -- :func:`~gamelib.frameworks.pettingzoo_env.env`, an AEC env.
* :mod:`gamelib.frameworks.gymnasium_env` -- :class:`~gamelib.frameworks.gymnasium_env.SingleAgentEnv`.
* :mod:`gamelib.frameworks.openspiel_game` -- :func:`~gamelib.frameworks.openspiel_game.register`,
  Python games registered with ``pyspiel.register_game``.
* :mod:`gamelib.frameworks.ladder` -- the skill ladder: gamelib's bots and OpenSpiel's ISMCTS (on every move, or
  on a shortlist of the greedy bot's best moves) on the same deals.
"""

from __future__ import annotations

import importlib

EXTRA = "frameworks"


def require(module: str):
    """Import an optional framework, or raise an ImportError saying which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as missing:
        raise ImportError(
            f"{module} is not installed: gamelib's framework adapters need the optional extra, "
            f'pip install "gamelib[{EXTRA}]"'
        ) from missing
