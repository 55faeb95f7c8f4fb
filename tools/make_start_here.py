"""Write notebooks/00_start_here.ipynb (the map of the lessons) from the table below.

A lesson whose file does not exist yet is listed as "coming". Run, then execute the
notebook in place: .venv/bin/jupyter nbconvert --to notebook --execute --inplace ...
"""

from pathlib import Path

import nbformat
from nbval_tags import move_markers

ROOT = Path(__file__).resolve().parent.parent
LESSONS = [
    (
        "Nagaraja",
        "nagaraja/01_fate_sticks.ipynb",
        "Fate sticks: one stick's odds, sums as convolutions, points against Nagas, an odds explorer with sliders",
    ),
    (
        "Nagaraja",
        "nagaraja/02_temple_paths.ipynb",
        "Temple paths: tiles, rotations, connectivity puzzles, the cursed-relic risk",
    ),
    (
        "Nagaraja",
        "nagaraja/03_the_duel.ipynb",
        "The duel: a full game against a bot, the exact value of each commitment",
    ),
    ("Pangu", "pangu/01_rules_step_by_step.ipynb", "Every rule on a live board, one tiny situation at a time"),
    ("Pangu", "pangu/02_guided_game.ipynb", "A guided game, move by move, with what the bots would do"),
    ("Pangu", "pangu/03_karma_odds.ipynb", "Karma odds: the cost of a die, the cost law, exact and simulated"),
    ("Pangu", "pangu/04_strategy_lab.ipynb", "Strategy lab: bots and rule variants compared with confidence intervals"),
    ("Chakra", "chakra/01_rules_step_by_step.ipynb", "Setup, the three actions and movement on live boards"),
    ("Chakra", "chakra/02_scoring.ipynb", "Scoring, the harmonization bonus race, the value of information"),
    (
        "Chakra",
        "chakra/03_play_and_plan.ipynb",
        "Play against bots, planning by breadth-first search, first-player advantage",
    ),
    (
        "Studio",
        "studio/01_play_pig.ipynb",
        "The studio board: play any studio game (Pig here), record a playtest, read a class's playtest files",
    ),
]


def lesson_table() -> str:
    rows = ["| game | lesson | what you learn |", "|---|---|---|"]
    for game, path, summary in LESSONS:
        exists = (ROOT / "notebooks" / path).exists()
        link = f"[{path}]({path})" if exists else f"{path} *(coming)*"
        rows.append(f"| {game} | {link} | {summary} |")
    return "\n".join(rows)


def cells():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    return [
        md(
            "# Start here\n\n"
            "Welcome! These notebooks teach probability and game design with three tabletop games: "
            "**Pangu** (a solo game of cards and dice), **Chakra** (2-4 players moving coloured energies) and "
            "**Nagaraja** (a duel of fate sticks and temple paths).\n\n"
            "**In this notebook you will learn**\n"
            "1. how to run a cell and why the order of cells matters;\n"
            "2. how the library writes probabilities (exact fractions) and simulated figures (with error bars);\n"
            "3. how to play on a board: clicking, the message line, stepping back and forward;\n"
            "4. how an exercise checks your work, on a first design puzzle: two strange dice;\n"
            "5. where every lesson is."
        ),
        md(
            "## Running cells\n\n"
            "A notebook is a list of cells. Click a grey code cell and press **Shift+Enter** to run it; the result "
            "appears underneath. Cells share one Python session, so run them **from top to bottom** (the menu "
            "*Run → Run All Cells* does that). If things get confused, *Kernel → Restart Kernel and Run All Cells* "
            "starts afresh: every random number in these lessons comes from a seed, so you get the same results again.\n\n"
            "Try it: the next cell asks the library for the distribution of the sum of two ordinary dice."
        ),
        code(
            "# NBVAL_CHECK_OUTPUT\nfrom gamelib import Dist\n\ndie = Dist.uniform([1, 2, 3, 4, 5, 6])\ntwo_dice = die + die\n"
            "print('P(sum = 7)  =', two_dice.probability(7))\nprint('P(sum >= 10) =', two_dice.at_least(10))\n"
            "print('mean =', two_dice.mean(), ' variance =', two_dice.variance())"
        ),
        md(
            "Notice the answers are **fractions**, not decimals: `1/6` is exactly one sixth. The library computes "
            "odds exactly whenever it can, and only then shows decimals for plots. A distribution also prints as a "
            "table:"
        ),
        code("two_dice"),
        md(
            "## Exact against simulated\n\n"
            "When a question is too big to count exactly, the lessons *simulate* many games. A simulated figure is "
            "never exact, so it is always shown with a 95% confidence interval. The 95% belongs to the method, not to "
            "one interval: if the whole experiment were repeated many times, about 95 of every 100 intervals made "
            "this way would contain the true value. Any single interval either contains it or not, and we cannot "
            "tell which. Here we throw two dice 10,000 times and compare with the exact 1/6:"
        ),
        code(
            "# NBVAL_CHECK_OUTPUT\nimport random\nfrom gamelib import proportion\n\nrng = random.Random(2024)  # a seed: same throws every time\n"
            "sevens = sum(rng.randint(1, 6) + rng.randint(1, 6) == 7 for _ in range(10_000))\n"
            "estimate = proportion(sevens, 10_000)\nprint('simulated:', estimate)\nprint('exact:    ', float(two_dice.probability(7)))\n"
            "print('the interval contains the exact value:', estimate.contains(float(two_dice.probability(7))))"
        ),
        md(
            "## Playing on a board\n\n"
            "Several lessons show a live game board. They all work the same way:\n\n"
            "- **Click** a piece (a card, an energy, a tile), then **click** where it goes. Legal places are outlined "
            "with a dashed green line.\n"
            "- The **message line** under the board says what happened. If a move breaks a rule, the board does not "
            "change and the message (in red) gives the rule's reason, for example *\"die 4 equals the card's blue 4: "
            'the die must differ"*.\n'
            "- The **history bar** (|◀ ◀ ▶ ▶|) steps back and forward through the game. Playing a new move from an "
            "earlier point replaces what came after it, like undo in an editor.\n"
            "- Everything can be reached with the keyboard: **Tab** to move between pieces, **Enter** to pick.\n"
            "- Colours always come with a letter or a symbol, so the boards read well in any colour vision.\n\n"
            "Whatever you click, Python's rules engine decides; the board only draws what the engine says."
        ),
        md(
            "## A first exercise: two strange dice\n\n"
            "Lessons end with exercises, and a cell checks each answer by computing, then says *right* or gives a "
            "hint aimed at what went wrong. Here is a design puzzle of the kind game designers meet: **find two "
            "six-sided dice, with whole-number faces of at least 1 and not the ordinary 1-6 dice, whose sum behaves "
            "exactly like the sum of two ordinary dice** (every total from 2 to 12 just as likely). A face may repeat, "
            "and a face may be above 6.\n\n"
            "`Dist.uniform(die_a) + Dist.uniform(die_b)` gives the distribution of your dice's sum, to compare with "
            "`two_dice` above. A way in: ordinary dice make the total 2 one way, 3 two ways, 4 three ways, and so on; "
            "which faces must each die have so that 2 can still be made, and what must all twelve faces add up to?"
        ),
        code(
            "from gamelib.lesson_checks import check_same_sums\n\n"
            "die_a = [1, 2, 3, 4, 5, 6]  # change the faces of both dice\n"
            "die_b = [1, 2, 3, 4, 5, 6]\n"
            "print(Dist.uniform(die_a) + Dist.uniform(die_b) == two_dice)\n"
            "check_same_sums(die_a, die_b)",
            metadata={"tags": ["exercise:start_same_sums"]},
        ),
        md(
            "## The lessons\n\n" + lesson_table() + "\n\n"
            "A good order: start with **Nagaraja 01** (odds and sliders), then **Pangu 01-03** (a solo game is the "
            "easiest place to see expected value at work), then the others. Each lesson ends with exercises; a cell "
            "checks your answer and gives a hint, never the answer itself."
        ),
        md(
            "## For teachers\n\n"
            "**The game-design course**: twelve sessions in [course/](course/) (start with "
            "[course/01_expected_value.ipynb](course/01_expected_value.ipynb)); the instructor guide, syllabus, "
            "solutions and grading workflow are in `docs/teaching/` of the repository "
            "([docs/teaching/README.md](../docs/teaching/README.md)).\n\n"
            "Every rule variant is a parameter of a game's `Rules`, so a class can ask *what if?* and measure the "
            "answer. The Nagaraja components are a **placeholder teaching edition** kept in data files: the real "
            "ones are not public, and students can design their own fate sticks in the odds explorer."
        ),
    ]


def main() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = cells()
    move_markers(notebook)  # nbval's markers become cell tags, out of the teaching text
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    path = ROOT / "notebooks" / "00_start_here.ipynb"
    nbformat.write(notebook, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
