"""Helpers for the deployment tests (apps in Voila, the JupyterLite site, the HTML export, plain pip)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMINGS = ROOT / "test-artifacts" / "timings"
STATE_VARIABLES = (
    "JUPYTER_CONFIG_DIR",
    "JUPYTER_DATA_DIR",
    "JUPYTER_RUNTIME_DIR",
    "IPYTHONDIR",
    "MPLCONFIGDIR",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
)


def isolated_env(home: Path) -> dict:
    """The environment with every Jupyter, IPython and matplotlib state folder inside ``home``."""
    env = dict(os.environ)
    for name in STATE_VARIABLES:
        path = home / name.lower()
        path.mkdir(exist_ok=True)
        env[name] = str(path)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("MPLBACKEND", None)
    return env


def wait_for_http(url: str, server: subprocess.Popen, log_path: Path, seconds: float = 90) -> None:
    """Wait until ``url`` answers 200, or fail with the end of the server's log."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {seconds} s:\n{log_path.read_text()[-3000:]}")


def record_timing(group: str, item: str, key: str, value) -> None:
    """Add one measured figure to test-artifacts/timings/GROUP.json (for the notes, never asserted)."""
    TIMINGS.mkdir(parents=True, exist_ok=True)
    path = TIMINGS / f"{group}.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault(item, {})[key] = value
    path.write_text(json.dumps(data, indent=1, sort_keys=True))


# ----------------------------------------------------------------------------- moves made in two places
# The Voila apps test and the site test make the same moves on the same apps: one copy of each.


def commit_two_cards_and_check(board, seed: int) -> None:
    """In the Nagaraja duel app: commit two room cards and check the page against the engine."""
    import random

    from playwright.sync_api import expect

    from gamelib import nagaraja
    from gamelib.nagaraja.bots import heuristic_policy

    state, bot_rng = nagaraja.new_game(seed=seed), random.Random(seed)
    chosen = ("ROM-03", "ROM-04")  # two rooms cards of P0's seeded hand (spec 5.3: one symbol)
    for card in chosen:
        board.locator(f".nj-player-me .nj-card[data-card='{card}']").click()
    board.locator(".nj-commit").click()
    state = state.apply(nagaraja.Commit(0, chosen))
    while not state.is_terminal and state.to_act == 1:  # the board lets its bot reply at once
        state = state.apply(heuristic_policy(state, bot_rng))
    observation = state.observation(0)
    expect(board.locator(".nj-event-list li").last).to_have_text(observation["events"][-1])
    expect(board).to_have_attribute("data-phase", observation["phase"])
    expect(board.locator(".nj-player-me .nj-hand .nj-card-id")).to_have_text(
        [card["id"] for card in observation["players"][0]["hand"]]
    )


def place_a_card_and_check(board, seed: int) -> None:
    """In the Pangu free-play app (dealt from ``seed``): place a card with its cheaper die by clicking,
    and check the Karma and the card's cell against the engine."""
    from playwright.sync_api import expect

    from gamelib.pangu import new_game
    from gamelib.pangu.guide import first_deal_the_hints_win

    state = new_game(seed=first_deal_the_hints_win(seed))  # the app deals as tools/make_apps.py does
    action = next(
        a
        for a in state.legal_actions()
        if state.cheapest_die(a.card)[0] == a.die and state.apply(a).karma != state.karma
    )
    after = state.apply(action)
    board.locator(f'.pangu-revealed[data-card="{action.card}"]').click()
    expect(board.locator(f'.pangu-die-selected[data-die="{action.die}"]')).to_have_count(1)
    board.locator(f'.pangu-cell[data-cell="{action.cell[0]},{action.cell[1]}"]').click()
    expect(board.locator(".pangu-karma")).to_have_attribute("data-karma", str(after.karma))
    expect(board.locator(f'.pangu-placed[data-card="{action.card}"]')).to_have_attribute(
        "data-cell", f"{action.cell[0]},{action.cell[1]}"
    )


def move_a_slider_and_check(explorer) -> None:
    """In the odds explorer: the rulebook example's chance, then one more white stick, as the engine says."""
    from playwright.sync_api import expect

    from gamelib.nagaraja import sticks

    pwin = explorer.locator(".gl-pwin .gl-exact")
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 3, 0), (3, 1, 1), True)))  # spec 9.3
    handle = explorer.locator(".gl-slider-0-white .noUi-handle")
    handle.focus()
    handle.press("ArrowRight")
    expect(pwin).to_have_attribute("data-value", str(sticks.win_probability((0, 4, 0), (3, 1, 1), True)))
