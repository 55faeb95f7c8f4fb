"""Write the printable course material into docs/teaching/printables/ (issue 14).

- ``<game>_rules.html``: a one-page rules sheet per game (A4 landscape, three columns). The text is
  the playing sections of the students' rules page ``docs/rules/<game>.md`` (the page a test checks
  against the engine), and the table of rule parameters is each game's ``Rules()`` defaults, so a
  sheet cannot disagree with what the engine plays.
- ``pangu_deck.html``: a print-and-play sheet of the Pangu teaching deck (ten Ages cards and the two
  centre cards), drawn in SVG from ``gamelib/pangu/data/deck.json`` through the Pangu card loader.

Run ``.venv/bin/python tools/make_printables.py``; ``tests/test_course_printables.py`` regenerates
the files and compares them with the committed ones. ``--out DIR`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import html
import re
from pathlib import Path

import mistune

from gamelib import chakra, nagaraja, pangu
from gamelib.pangu.cards import EDGES, teaching_deck

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "teaching" / "printables"

# The playing sections of each rules page (level-2 headings), in page order. Readings, measured
# figures and programmers' notes stay on the web page; the sheet is what you need at the table.
SECTIONS = {
    "pangu": ["Components", "Layout", "Setup", "Turns", "Placing", "Stuck", "Karma", "End"],
    "chakra": [
        "Components",
        "Setup",
        "Turns",
        "Receive",
        "Refill",
        "Channel",
        "Movement",
        "Earth",
        "Swap",
        "Harmonization",
        "Black energy",
        "Meditate",
        "End",
        "Scoring",
    ],
    "nagaraja": ["Components", "Setup", "Fate sticks", "Cards", "Round", "Temple", "End"],
}
RULES = {"pangu": pangu.Rules, "chakra": chakra.Rules, "nagaraja": nagaraja.Rules}
# Sub-sections too long for one page; the web page keeps them.
DROPPED_SUBSECTIONS = {"Scoring example", "Card list", "Effects"}

# Columns and font size (pt) per sheet, chosen so each prints on one A4 page (checked by printing
# to PDF in Chromium; see the report of issue 14). Chakra has the most rules text.
LAYOUT = {"pangu": (3, 7.4), "chakra": (4, 6.3), "nagaraja": (4, 6.8)}

SHEET_CSS = """
@page { size: A4 landscape; margin: 8mm; }
body { font: FONTpt/1.25 "DejaVu Sans", Arial, sans-serif; margin: 0; color: #000; }
main { column-count: COLUMNS; column-gap: 5mm; }
h1 { font-size: 13pt; margin: 0 0 2mm 0; column-span: all; }
h2 { font-size: 9pt; margin: 2mm 0 0.6mm 0; border-bottom: 0.3mm solid #000; break-after: avoid; }
h3 { font-size: 8pt; margin: 1.5mm 0 0.5mm 0; break-after: avoid; }
p, ul, ol { margin: 0 0 1mm 0; }
ul, ol { padding-left: 4mm; }
table { border-collapse: collapse; margin: 0 0 1mm 0; break-inside: avoid; }
td, th { border: 0.2mm solid #777; padding: 0.2mm 1mm; text-align: left; }
pre { font-size: 6.6pt; margin: 0 0 1mm 0; break-inside: avoid; }
code { font-size: 95%; }
.source { font-size: 6.4pt; color: #333; column-span: all; margin-top: 1mm; }
"""


def sheet_css(game: str) -> str:
    columns, font = LAYOUT[game]
    return SHEET_CSS.replace("COLUMNS", str(columns)).replace("FONT", str(font))


def sections(markdown: str) -> dict[str, str]:
    """The page's level-2 sections by heading (their text, sub-sections included)."""
    found: dict[str, str] = {}
    title = None
    for block in re.split(r"(?m)^## ", markdown)[1:]:
        title, _, body = block.partition("\n")
        found[title.strip()] = body
    return found


def without_subsections(body: str, dropped: set[str]) -> str:
    """``body`` without the level-3 sub-sections named in ``dropped``."""
    parts = re.split(r"(?m)^(?=### )", body)
    return "".join(part for part in parts if part[4:].partition("\n")[0].strip() not in dropped)


def plain_links(markdown: str) -> str:
    """Links to other parts of the web page make no sense on paper: keep their text."""
    return re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)


def parameter_table(game: str) -> str:
    defaults = RULES[game]()
    rows = "".join(
        f"<tr><td><code>{field.name}</code></td><td>{html.escape(repr(getattr(defaults, field.name)))}</td></tr>"
        for field in dataclasses.fields(defaults)
    )
    return (
        f"<h2>Rule parameters (the engine's defaults)</h2><table><tr><th>parameter</th><th>default</th></tr>"
        f"{rows}</table>"
    )


def rules_sheet(game: str) -> str:
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    title = page.splitlines()[0].lstrip("# ").strip()
    by_title = sections(page)
    markdown = "".join(
        f"## {name}\n{without_subsections(by_title[name], DROPPED_SUBSECTIONS)}" for name in SECTIONS[game]
    )
    body = mistune.html(plain_links(markdown))
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{sheet_css(game)}</style></head><body><main>\n<h1>{html.escape(title)}</h1>\n{body}\n"
        f'{parameter_table(game)}\n<p class="source">Generated by tools/make_printables.py from '
        f"docs/rules/{game}.md and gamelib.{game}.Rules(). Unclear points and variants: docs/rules/{game}.md.</p>"
        f"\n</main></body></html>\n"
    )


# ----------------------------------------------------------------------------- the Pangu deck

CARD_MM = 60  # a square card; the board is a grid of square cells
HALF_RADIUS_MM = 11
FILL = {"YIN": "#000", "YANG": "#fff"}
# Centre of each edge (x, y) and the angle the half circle starts at, in a 60 mm square.
EDGE_CENTRES = {"TOP": (30, 0), "RIGHT": (60, 30), "BOTTOM": (30, 60), "LEFT": (0, 30)}


def half_circle(edge: str, colour: str) -> str:
    """A half disc on ``edge``, bulging into the card, black for Yin and white (outlined) for Yang."""
    cx, cy = EDGE_CENTRES[edge]
    r = HALF_RADIUS_MM
    ends = {
        "TOP": ((cx - r, cy), (cx + r, cy)),
        "BOTTOM": ((cx + r, cy), (cx - r, cy)),
        "LEFT": ((cx, cy + r), (cx, cy - r)),
        "RIGHT": ((cx, cy - r), (cx, cy + r)),
    }
    (x1, y1), (x2, y2) = ends[edge]
    sweep = 0
    return (
        f'<path d="M {x1} {y1} A {r} {r} 0 0 {sweep} {x2} {y2} Z" fill="{FILL[colour]}" '
        f'stroke="#000" stroke-width="0.4"/>'
    )


def colour_letter(edge: str, colour: str) -> str:
    """The colour's initial beside the half circle, so the card reads without colour or in grey."""
    cx = EDGE_CENTRES[edge][0]
    x, y, anchor = {
        "TOP": (cx, 15.5, "middle"),
        "BOTTOM": (cx, 47, "middle"),
        "LEFT": (2, 45, "start"),
        "RIGHT": (58, 45, "end"),
    }[edge]
    return f'<text x="{x}" y="{y}" font-size="3.4" text-anchor="{anchor}">{"Yin" if colour == "YIN" else "Yang"}</text>'


def age_card_svg(card) -> str:
    halves = "".join(half_circle(edge, colour) + colour_letter(edge, colour) for edge, colour in zip(EDGES, card.half))
    return (
        f'<svg class="card" viewBox="0 0 {CARD_MM} {CARD_MM}" width="{CARD_MM}mm" height="{CARD_MM}mm" '
        f'role="img" aria-label="{html.escape(str(card))}">'
        f'<rect x="0.2" y="0.2" width="{CARD_MM - 0.4}" height="{CARD_MM - 0.4}" fill="#fff" stroke="#000" '
        f'stroke-width="0.4" stroke-dasharray="2 1"/>{halves}'
        f'<rect x="4" y="4" width="11" height="9" rx="1.5" fill="#1f5fbf"/>'
        f'<text x="9.5" y="11" font-size="6.5" fill="#fff" text-anchor="middle" font-weight="bold">{card.blue}</text>'
        f'<text x="9.5" y="16.5" font-size="2.8" text-anchor="middle">blue</text>'
        f'<rect x="45" y="4" width="11" height="9" rx="1.5" fill="#fff" stroke="#000" stroke-width="0.5"/>'
        f'<text x="50.5" y="11" font-size="6.5" text-anchor="middle" font-weight="bold">{card.white}</text>'
        f'<text x="50.5" y="16.5" font-size="2.8" text-anchor="middle">white</text>'
        f'<text x="30" y="31" font-size="5.2" text-anchor="middle" font-weight="bold">{html.escape(card.name)}</text>'
        f'<text x="30" y="37" font-size="3.2" text-anchor="middle">{card.id} · top edge up</text></svg>'
    )


def centre_card_svg(colour: str) -> str:
    halves = "".join(half_circle(edge, colour) for edge in EDGES)
    name = "Yin" if colour == "YIN" else "Yang"
    return (
        f'<svg class="card" viewBox="0 0 {CARD_MM} {CARD_MM}" width="{CARD_MM}mm" height="{CARD_MM}mm" '
        f'role="img" aria-label="centre card {name}">'
        f'<rect x="0.2" y="0.2" width="{CARD_MM - 0.4}" height="{CARD_MM - 0.4}" fill="#eee" stroke="#000" '
        f'stroke-width="0.4" stroke-dasharray="2 1"/>{halves}'
        f'<text x="30" y="29" font-size="6" text-anchor="middle" font-weight="bold">{name}</text>'
        f'<text x="30" y="35" font-size="3.2" text-anchor="middle">centre card</text></svg>'
    )


DECK_CSS = """
@page { size: A4 portrait; margin: 8mm; }
body { font: 8pt/1.3 "DejaVu Sans", Arial, sans-serif; margin: 0; }
h1 { font-size: 12pt; margin: 0 0 1mm 0; }
p { margin: 0 0 2mm 0; }
.sheet { display: grid; grid-template-columns: repeat(3, 60mm); gap: 2mm; }
.card { display: block; }
text { font-family: "DejaVu Sans", Arial, sans-serif; }
"""


def deck_sheet() -> str:
    deck = teaching_deck()
    cards = (
        "\n".join(age_card_svg(card) for card in deck) + "\n" + centre_card_svg("YIN") + "\n" + centre_card_svg("YANG")
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Pangu: print and play</title>'
        f"<style>{DECK_CSS}</style></head><body>\n<h1>Pangu: print and play ({html.escape(deck.name)})</h1>\n"
        f"<p>Print at 100% on A4 and cut along the dashed lines. You also need a blue and a white six-sided die "
        f"and something to count 10 Karma. The {len(deck)} Ages cards are drawn from gamelib/pangu/data/deck.json "
        f"by tools/make_printables.py; the two grey cards are the centre cards.</p>\n"
        f'<div class="sheet">\n{cards}\n</div>\n</body></html>\n'
    )


# --------------------------------------------------------------------------- playtest sheets (course session 11)

PLAYTEST_CSS = """
@page { size: A4 portrait; margin: 12mm; }
body { font: 10pt/1.35 "DejaVu Sans", Arial, sans-serif; margin: 0; color: #000; }
h1 { font-size: 15pt; margin: 0 0 2mm 0; } h2 { font-size: 11pt; margin: 4mm 0 1mm 0; }
p { margin: 0 0 2mm 0; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 0.3mm solid #555; padding: 1.5mm; text-align: left; vertical-align: top; }
td.blank { height: 9mm; }
.scale td { text-align: center; width: 13%; }
"""
OBSERVATION_COLUMNS = (
    "time",
    "seat / player",
    "what they did or said",
    "doubt? (rule, move, screen)",
    "what it tells us",
)


def observation_sheet() -> str:
    """The observer's sheet: the protocol's reminders and a grid of timed observations."""
    head = "".join(f"<th>{html.escape(column)}</th>" for column in OBSERVATION_COLUMNS)
    rows = "".join("<tr>" + '<td class="blank"></td>' * len(OBSERVATION_COLUMNS) + "</tr>\n" for _ in range(16))
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Playtest observation sheet'
        f"</title><style>{PLAYTEST_CSS}</style></head><body>\n<h1>Playtest observation sheet</h1>\n"
        "<p>Game and variant (A or B, as the organiser labelled it): ________ &nbsp; Date: ________ &nbsp; "
        "Observer: ________ &nbsp; Protocol: &#9744; think-aloud &nbsp; &#9744; silent observation</p>\n"
        "<p><b>Rules for the observer.</b> Do not help, explain or answer questions about the rules during the "
        "game (write the question down instead). Note what players do and say, not what you think of it. In "
        'think-aloud, if a player falls silent for a while, prompt only with "what are you thinking?". Mark '
        "every moment of doubt: a rule looked up, a move taken back, a long pause, a surprised word.</p>\n"
        f"<table><tr>{head}</tr>\n{rows}</table>\n"
        "<h2>After the game</h2><p>The moment the game felt decided: ____________ &nbsp; The rule asked about most: "
        "____________</p>\n</body></html>\n"
    )


def survey_sheet() -> str:
    """The paper survey: the same questions, scale and comment as the boards' survey (gamelib.design.playtests)."""
    from gamelib.design.playtests import (
        MAX_COMMENT_CHARS,
        SURVEY_QUESTIONS,
        SURVEY_SCALE,
    )

    scale = "".join(f"<th>{value}</th>" for value in SURVEY_SCALE)
    rows = "".join(
        f"<tr><td>{html.escape(question)}</td>" + "<td>&#9711;</td>" * len(SURVEY_SCALE) + "</tr>\n"
        for question in SURVEY_QUESTIONS
    )
    games = "".join(
        f"<h2>Game {number}</h2>\n"
        f'<table class="scale"><tr><th>question</th>{scale}</tr>\n{rows}</table>\n'
        f"<p>One line of comment (at most {MAX_COMMENT_CHARS} characters):</p>\n"
        '<table><tr><td class="blank"></td></tr></table>\n'
        for number in range(1, 4)
    )
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Playtest survey</title>'
        f"<style>{PLAYTEST_CSS}</style></head><body>\n<h1>Playtest survey (one sheet per player)</h1>\n"
        "<p>Player code (not your name): ________ &nbsp; Variant: ________</p>\n"
        "<p>After each game, fill one circle per line: 1 = not at all, 5 = very much. Leave a line empty if you "
        "cannot say. These are the questions the boards ask (gamelib.design.playtests), so paper and screen "
        "answers pool into one table.</p>\n"
        f"{games}</body></html>\n"
    )


def pages() -> dict[str, str]:
    """Every printable, by file name."""
    made = {f"{game}_rules.html": rules_sheet(game) for game in SECTIONS}
    made["pangu_deck.html"] = deck_sheet()
    made["playtest_observation.html"] = observation_sheet()
    made["playtest_survey.html"] = survey_sheet()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    for name, text in pages().items():
        (arguments.out / name).write_text(text, encoding="utf-8")
        print(f"wrote {arguments.out / name}")


if __name__ == "__main__":
    main()
