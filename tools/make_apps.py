"""Write the app notebooks in notebooks/apps/ (one board or explorer each, no prose) and run them.

    .venv/bin/python tools/make_apps.py [app name ...]

An app is a notebook of one code cell: Voila (`make app`) hides the code and shows the board;
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

SEED_FROM_LINK = '''import os, urllib.parse

# ?seed=N in the app's link gives the whole class the same game (Voila passes the query string).
query = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""))
seed = int(query["seed"][0]) if query.get("seed", [""])[0].isdigit() else {default}
'''

APP_CELLS = {
    "odds_explorer": (
        "Nagaraja: the fate-stick odds explorer",
        '''from gamelib.nagaraja.explorer import explore

explore()''',
    ),
    "pangu_free_play": (
        "Pangu: free play",
        SEED_FROM_LINK.format(default=2024) + '''
from gamelib.pangu import new_game
from gamelib.pangu.board import PanguBoard
from gamelib.pangu.guide import first_deal_the_hints_win

# The first deal from the link's seed that following the hints wins (seed 2024 itself is lost by
# them), with the evaluation bar on: a student can always win by taking the advice.
PanguBoard(new_game(seed=first_deal_the_hints_win(seed)), label="app", hints=True)''',
    ),
    "nagaraja_duel": (
        "Nagaraja: a duel against the bot",
        SEED_FROM_LINK.format(default=2026) + '''
from gamelib.nagaraja.board import NagarajaBoard

NagarajaBoard(seed=seed)''',
    ),
    "chakra_table": (
        "Chakra: a table of three, you against two bots",
        SEED_FROM_LINK.format(default=2024) + '''
from gamelib.chakra import new_game
from gamelib.chakra.board import ChakraBoard
from gamelib.chakra.bots import greedy_policy

ChakraBoard(new_game(players=3, seed=seed), bots={1: greedy_policy, 2: greedy_policy})''',
    ),
}


def app_notebook(title: str, source: str) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata.update({
        "title": title,  # Voila's page title
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
    })
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["app"]
    notebook.cells = [cell]
    return notebook


def main() -> None:
    only = set(sys.argv[1:])  # app names (e.g. pangu_free_play); none: every app
    APPS.mkdir(parents=True, exist_ok=True)
    for name, (title, source) in APP_CELLS.items():
        if only and name not in only:
            continue
        path = APPS / f"{name}.ipynb"
        nbformat.write(app_notebook(title, source), path)
        subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                        "--inplace", str(path)], check=True)
        print(f"wrote and ran {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
