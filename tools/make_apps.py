"""Write the app notebooks in notebooks/apps/ (one board or explorer each, no prose) and run them.

    .venv/bin/python tools/make_apps.py [app name ...]

An app is a notebook of a short introduction (``APP_INTROS``: the title, what the player is trying
to do, two lines on how to play and a link to the game's rules page, issue 25) and one code cell:
Voila (`make app`) hides the code and shows the introduction above the board;
the browser-only site opens the same notebook. A teacher's link can fix the game for a whole
class with ``?seed=N`` (Voila hands the page's query string to the kernel as QUERY_STRING).
The notebooks are committed with their outputs, so the board's saved position shows before a
kernel runs. Rerun this after changing an app below. Each board is built the same way before and
after the games' one contract (a game or match first, the rest by keyword).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
APPS = ROOT / "notebooks" / "apps"

SEED_FROM_LINK = """import os, urllib.parse

# ?seed=N in the app's link gives the whole class the same game (Voila passes the query string).
query = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""))
seed = int(query["seed"][0]) if query.get("seed", [""])[0].isdigit() else {default}
"""

APP_CELLS = {
    "odds_explorer": (
        "Nagaraja: the fate-stick odds explorer",
        """from gamelib.nagaraja.explorer import explore

explore()""",
    ),
    "pangu_free_play": (
        "Pangu: free play",
        SEED_FROM_LINK.format(default=2024)
        + """
from gamelib.pangu import new_game
from gamelib.pangu.board import PanguBoard
from gamelib.pangu.guide import first_deal_the_hints_win

# The first deal from the link's seed that following the hints wins (seed 2024 itself is lost by
# them), with the evaluation bar on: a student can always win by taking the advice.
PanguBoard(new_game(seed=first_deal_the_hints_win(seed)), label="app", hints=True)""",
    ),
    "nagaraja_duel": (
        "Nagaraja: a duel against the bot",
        SEED_FROM_LINK.format(default=2026)
        + """
from gamelib.nagaraja.board import NagarajaBoard

NagarajaBoard(seed=seed)""",
    ),
    "chakra_table": (
        "Chakra: a table of three, you against two bots",
        SEED_FROM_LINK.format(default=2024)
        + """
from gamelib.chakra import new_game
from gamelib.chakra.board import ChakraBoard
from gamelib.chakra.bots import greedy_policy

ChakraBoard(new_game(players=3, seed=seed), bots={1: greedy_policy, 2: greedy_policy})""",
    ),
}


# What a player reads above each board: (goal, how to play in two lines, rules page, its title).
APP_INTROS = {
    "odds_explorer": (
        "find which fate sticks win a temple room, and how often, before you commit your cards.",
        (
            "Move the brown, white and green sliders to choose the sticks each player throws (in game mode, pick cards from a hand).",
            "The exact chance of winning the room, the points and the Nagas redraw at once; *throw N times* simulates throws.",
        ),
        "nagaraja.md#odds",
        "the Nagaraja rules: fate sticks and odds",
    ),
    "pangu_free_play": (
        "lay all ten Ages cards around the two centre cards, into a 3 x 4 rectangle, before your Karma runs out.",
        (
            "Click a revealed card (and a die, if both are allowed), then a free cell outlined in green.",
            "Each card costs Karma; a matching colour next to it wins some back. The evaluation shows your chance of winning and the best move.",
        ),
        "pangu.md",
        "the Pangu rules",
    ),
    "nagaraja_duel": (
        "reach 25 points of face-up relics and amulets in your temple before the bot, and never turn up all three cursed relics.",
        (
            "Click cards of one symbol in your hand and *commit* them: their fate sticks are thrown, and the higher throw wins the room.",
            "Lay the room tile you won in your temple (click a cell) to open paths from the entrances to the relics.",
        ),
        "nagaraja.md#round",
        "the Nagaraja rules: a round",
    ),
    "chakra_table": (
        "harmonize chakras (three energies of the chakra's own colour) whose hidden values score the most at the end.",
        (
            "On your turn do one thing: receive energies from a Maya column of the river, channel them up or down your board, or meditate.",
            "Click the energies and then where they go; the message line says what is still to choose. The two bots then play.",
        ),
        "chakra.md#turns",
        "the Chakra rules: turns",
    ),
}
RULES_PAGES = "../../docs/rules/"  # from notebooks/apps/; the working copy and the site carry docs/rules too


def intro_markdown(title: str, name: str) -> str:
    """The app's introduction: what it is, what the player wants, how to play, where the rules are."""
    goal, (line_one, line_two), page, page_title = APP_INTROS[name]
    return (
        f"# {title}\n\n**Your goal**: {goal}\n\n**How to play**\n\n- {line_one}\n- {line_two}\n\n"
        f"The full rules: [{page_title}]({RULES_PAGES}{page})."
    )


def app_notebook(title: str, source: str, name: str | None = None) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata.update(
        {
            "title": title,  # Voila's page title
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        }
    )
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["app"]
    notebook.cells = [cell]
    if name is not None:
        intro = nbformat.v4.new_markdown_cell(intro_markdown(title, name))
        intro.metadata["tags"] = ["app-intro"]
        notebook.cells.insert(0, intro)
    return notebook


def main() -> None:
    only = set(sys.argv[1:])  # app names (e.g. pangu_free_play); none: every app
    APPS.mkdir(parents=True, exist_ok=True)
    for name, (title, source) in APP_CELLS.items():
        if only and name not in only:
            continue
        path = APPS / f"{name}.ipynb"
        nbformat.write(app_notebook(title, source, name), path)
        subprocess.run(
            [sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", str(path)],
            check=True,
        )
        print(f"wrote and ran {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
