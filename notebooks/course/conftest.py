"""The frameworks lesson needs the optional extra (PettingZoo, Gymnasium, OpenSpiel; issue 27).

Without it, nbval's cells of ``frameworks_search_bots.ipynb`` are skipped with the reason, unless
GAMELIB_REQUIRE_FRAMEWORKS=1 (CI, which installs the extra with ``make frameworks``) makes that a failure.
"""

import importlib.util
import os
from pathlib import Path

import pytest

LESSON = "frameworks_search_bots.ipynb"
MISSING = [name for name in ("pyspiel", "pettingzoo", "gymnasium") if importlib.util.find_spec(name) is None]


def pytest_collection_modifyitems(config, items):
    if not MISSING:
        return
    why = (f"{LESSON} needs the optional frameworks extra ({', '.join(MISSING)} missing): "
           'pip install -e ".[frameworks]" or make frameworks')
    if os.environ.get("GAMELIB_REQUIRE_FRAMEWORKS") == "1":
        raise pytest.UsageError(f"GAMELIB_REQUIRE_FRAMEWORKS=1 but {why}")
    for item in items:
        if Path(str(item.path)).name == LESSON:
            item.add_marker(pytest.mark.skip(reason=why))
