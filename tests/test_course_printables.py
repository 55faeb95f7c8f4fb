"""The printable course material is generated from the game data and is up to date (issue 14).

tools/make_printables.py draws the rules sheets from docs/rules/*.md and each game's Rules()
defaults, and the print-and-play deck from gamelib/pangu/data/deck.json through the card loader.
Regenerating must give the committed files byte for byte, so a changed deck, rule default or
rules page cannot leave a stale sheet behind.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from gamelib.pangu.cards import teaching_deck

ROOT = Path(__file__).resolve().parents[1]
PRINTABLES = ROOT / "docs" / "teaching" / "printables"


def load_tool():
    spec = importlib.util.spec_from_file_location("make_printables", ROOT / "tools" / "make_printables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGES = load_tool().pages()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_committed_printable_matches_a_fresh_generation(name):
    committed = (PRINTABLES / name).read_text(encoding="utf-8")
    assert committed == PAGES[name], f"docs/teaching/printables/{name} is stale: run tools/make_printables.py"


def test_no_stray_printables():
    assert {path.name for path in PRINTABLES.glob("*.html")} == set(PAGES)


def test_deck_sheet_shows_every_card_of_the_loader():
    sheet = PAGES["pangu_deck.html"]
    for card in teaching_deck():
        assert f'aria-label="{card}"' in sheet
        # the two numbers as printed in the blue and the white box
        assert re.search(rf'fill="#fff" text-anchor="middle" font-weight="bold">{card.blue}<', sheet)
    assert sheet.count('class="card"') == len(teaching_deck()) + 2  # plus the Yin and Yang centre cards


def test_changing_a_card_changes_the_sheet(monkeypatch):
    tool = load_tool()
    deck = teaching_deck()
    moved = deck.cards[0].__class__(deck.cards[0].id, "Changed", 2, 6, deck.cards[0].half)
    changed = deck.__class__(deck.name, (moved,) + deck.cards[1:])
    monkeypatch.setattr(tool, "teaching_deck", lambda: changed)
    assert tool.deck_sheet() != PAGES["pangu_deck.html"] and ">Changed<" in tool.deck_sheet()


@pytest.mark.parametrize("game", ["pangu", "chakra", "nagaraja"])
def test_rules_sheet_lists_every_rule_parameter(game):
    import dataclasses

    tool = load_tool()
    sheet = PAGES[f"{game}_rules.html"]
    for field in dataclasses.fields(tool.RULES[game]()):
        assert f"<code>{field.name}</code>" in sheet
    for section in tool.SECTIONS[game]:
        assert f"<h2>{section}</h2>" in sheet
