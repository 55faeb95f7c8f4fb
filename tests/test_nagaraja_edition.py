"""The Edition (spec 3): packaged PLACEHOLDER data, user editions, and clear errors for bad files."""

import json
from fractions import Fraction

import pytest

from gamelib.nagaraja import sticks
from gamelib.nagaraja.edition import EditionError, check_against_rules_text, default_edition, load_edition

ED = default_edition()


def test_packaged_edition_is_flagged_placeholder_and_complete():  # spec 3.1
    assert ED.placeholder and "PLACEHOLDER" in ED.describe()
    assert (len(ED.cards), len(ED.tiles), len(ED.amulets), len(ED.relics)) == (48, 17, 12, 9)
    assert sorted(r.vp for r in ED.relics if not r.cursed) == [3, 3, 4, 4, 5, 5]  # spec 3.7
    assert [r.vp for r in ED.relics if r.cursed] == [6, 6, 6]
    assert sum(r.vp for r in ED.relics if not r.cursed) == 24


def test_cards_follow_the_slot_table():  # spec 3.3
    slots = "BBW BWG WWW BGG BB WWG BW WGG GGG BBG WW BG".split()
    for symbol in ("STK", "REL", "ROM", "CRD"):
        assert [ED.cards[f"{symbol}-{i:02d}"].sticks for i in range(1, 13)] == slots
    effects = [c.effect for c in ED.cards.values()]
    assert all(effects.count(e) == 4 for e in set(effects)) and len(set(effects)) == 12
    # the known real cards (spec 2.4): 3 white; BB + BWG of one symbol; CRD-04 BGG removes an opponent's card
    assert ED.cards["STK-03"].pool == (0, 3, 0)
    assert tuple(map(sum, zip(ED.cards["REL-05"].pool, ED.cards["REL-02"].pool))) == (3, 1, 1)
    assert ED.cards["CRD-04"].sticks == "BGG" and ED.cards["CRD-04"].effect == "OPP_DISCARD"


def test_effect_groups_are_near_equal():  # spec 3.3: 11, 11 and 10 sticks; 17, 17, 18 expected points (Model A)
    groups = {}
    for i, slot in enumerate("1 1 2 2 2 3 3 2 1 3 1 3".split(), start=1):
        groups.setdefault(slot, []).append(ED.cards[f"STK-{i:02d}"].sticks)
    means = {"B": Fraction(3), "W": Fraction(3, 2), "G": Fraction(1, 2)}
    assert {g: sum(map(len, s)) for g, s in groups.items()} == {"1": 11, "2": 11, "3": 10}
    assert {g: sum(means[c] for st in s for c in st) for g, s in groups.items()} == {"1": 17, "2": 17, "3": 18}


def test_tiles_and_amulets():  # spec 3.5, 3.6
    shapes = [t.shape for t in ED.tiles.values()]
    assert shapes.count("straight") == 3 and shapes.count("corner") == 4 and shapes.count("T-junction") == 4
    assert sum(t.special is not None for t in ED.tiles.values()) == 9
    assert ED.tiles["R16"].segments == ("NE", "S") and ED.tiles["R16"].special == 1
    assert sorted(a.vp for a in ED.amulets.values()) == [0] * 4 + [1] * 4 + [2] * 4
    assert {a.effect for a in ED.amulets.values()} == {None, "AM_PLUS2", "AM_RETHROW1", "AM_NAGA", "AM_PEEK"}


@pytest.mark.parametrize("model", ["A", "B"])
def test_stick_models_come_from_the_calculator_and_match_the_rules_text(model):  # spec 3.1, 3.2
    edition = load_edition(model)
    assert edition.faces == sticks.load_faces(model)
    assert all(check_against_rules_text(edition).values())


def test_check_against_rules_text_flags_a_bad_table():  # spec 3.1
    flat = {"BROWN": [[1, 0]] * 4, "WHITE": [[1, 0]] * 4, "GREEN": [[0, 1]] * 4}
    report = check_against_rules_text(load_edition(flat))
    assert report == {
        "elodie_throw_possible": False,
        "marion_throw_possible": False,
        "mean_points_brown_gt_white_gt_green": False,
        "nagas_brown_le_white_le_green": True,
    }


def test_user_edition_from_a_folder(tmp_path):
    cards = json.loads(json.dumps({"cards": [c.__dict__ for c in ED.cards.values()]}))
    cards["cards"][0]["sticks"] = "GGG"
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    edition = load_edition("B", tmp_path)
    assert edition.cards["CRD-01"].sticks == "GGG" and not edition.placeholder
    assert edition.faces == sticks.load_faces("B")


def _cards_doc(mutate):
    doc = {"cards": [dict(c.__dict__) for c in ED.cards.values()]}
    mutate(doc["cards"])
    return doc


@pytest.mark.parametrize(
    "kind, document, message",
    [
        ("cards", _cards_doc(lambda cards: cards.pop()), "has 47 cards; an edition needs exactly 48"),
        ("cards", _cards_doc(lambda cards: cards[0].update(effect="FLY")), "unknown effect 'FLY'"),
        ("cards", _cards_doc(lambda cards: cards[0].update(effect="PEEK")), "effect PEEK belongs to REL"),
        ("cards", _cards_doc(lambda cards: cards[0].update(sticks="BXW")), "letters B, W, G"),
        ("cards", _cards_doc(lambda cards: cards[1].update(id=cards[0]["id"])), "used twice"),
        (
            "tiles",
            {"tiles": [{"id": f"R{i:02d}", "segments": ["NE", "ES"], "special": None} for i in range(17)]},
            "must not share a side",
        ),
        (
            "tiles",
            {"tiles": [{"id": f"R{i:02d}", "segments": ["NE"], "special": 1} for i in range(17)]},
            "special location 1",
        ),
        ("tiles", {"tiles": [{"id": f"R{i:02d}", "segments": [], "special": None} for i in range(17)]}, "non-empty"),
        ("amulets", {"amulets": [{"id": f"A{i:02d}", "vp": -1, "effect": None} for i in range(12)]}, "0 or more"),
        ("relics", {"relics": [{"id": f"X{i}", "vp": 3, "cursed": i < 2} for i in range(9)]}, "2 relics are cursed"),
    ],
)
def test_bad_files_get_clear_errors(kind, document, message):
    with pytest.raises(EditionError, match=message):
        load_edition("A", **{kind: document})


def test_engine_rejects_a_naga_face_with_points():  # spec 3.1: the calculator accepts it, the engine does not
    table = {"BROWN": [[2, 0]] * 4, "WHITE": [[1, 1], [1, 0], [2, 0], [3, 0]], "GREEN": [[0, 1], [1, 0]] * 2}
    with pytest.warns(UserWarning):
        assert sticks.joint(0, 1, 0, faces=table)  # the calculator computes it
    with pytest.warns(UserWarning), pytest.raises(EditionError, match="0 points"):
        load_edition(table)


def test_engine_warns_about_sticks_without_four_faces():  # spec 3.1 SHOULD
    with pytest.warns(UserWarning, match="GREEN sticks have 2 faces"):
        load_edition(
            {
                "BROWN": [[2, 0], [3, 0], [3, 0], [4, 0]],
                "WHITE": [[0, 1], [1, 0], [2, 0], [3, 0]],
                "GREEN": [[0, 1], [1, 0]],
            }
        )


def test_unreadable_files_name_the_file(tmp_path):
    bad = tmp_path / "cards.json"
    bad.write_text("{oops")
    with pytest.raises(EditionError, match="cards.json is not valid JSON"):
        load_edition("A", cards=bad)
    with pytest.raises(EditionError, match="cannot read cards file"):
        load_edition("A", cards=tmp_path / "missing.json")
    with pytest.raises(EditionError, match="stick faces"):
        load_edition("Q")
