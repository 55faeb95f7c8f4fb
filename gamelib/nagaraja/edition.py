"""The Edition: every component of the game, loaded and validated from data files (nagaraja.md#editions).

The packaged files are the PLACEHOLDER teaching edition: the real cards, tiles and
amulets are not published, so these are the project's own balance-neutral stand-ins.
A user replaces any of them by passing a path or a mapping to :func:`load_edition`;
no code changes are needed, and a bad file gets an :class:`EditionError` that names
the file and the problem.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Mapping

from gamelib.core import read_json_file
from gamelib.datafiles import DamagedData, read_json
from gamelib.nagaraja import sticks
from gamelib.nagaraja.cards import AMULET_EFFECTS, EFFECTS, STICK_LETTERS, SYMBOLS, Amulet, Card, Relic

CARD_COUNT = 48
TILE_COUNT = 17
AMULET_COUNT = 12
RELICS_PER_PLAYER = 9
CURSED_PER_PLAYER = 3
SIDES = "NESW"


class EditionError(ValueError):
    """An edition file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class TileDef:
    """A room tile at rotation 0: its segments (sides joined inside the tile) and special location."""

    id: str
    shape: str
    segments: tuple[str, ...]
    special: int | None

    def to_dict(self) -> dict:
        return {"id": self.id, "shape": self.shape, "segments": list(self.segments), "special": self.special}


@dataclass(frozen=True)
class Edition:
    """Every component of one edition of the game."""

    name: str
    placeholder: bool
    faces: dict = field(hash=False, compare=False)
    cards: dict = field(hash=False, compare=False)
    tiles: dict = field(hash=False, compare=False)
    amulets: dict = field(hash=False, compare=False)
    relics: tuple = field(hash=False, compare=False)
    source: dict = field(hash=False, compare=False, repr=False)  # enough to rebuild it (saved games)

    @cached_property
    def memo(self) -> dict:
        """The engine's caches of values computed from this edition (its throw tables, the start of a
        game under each rules, the Naga options listed): the edition never changes, so what they hold
        stays true, and an edition that is let go takes its caches with it. Each entry's key starts
        with the name of what it holds."""
        return {}

    def __getstate__(self) -> dict:
        """What a pickle or a deep copy keeps: the components, not the engine's caches (``memo``),
        which the copy fills again as it is played."""
        fields = dict(self.__dict__)
        fields.pop("memo", None)
        return fields

    @cached_property
    def relic_by_id(self) -> dict:
        return {relic.id: relic for relic in self.relics}

    @cached_property
    def relic_ids(self) -> tuple:
        return tuple(relic.id for relic in self.relics)

    @cached_property
    def card_texts(self) -> dict:
        """``str(card)`` of every card, by id (the log names the cards revealed every round)."""
        return {card_id: str(card) for card_id, card in self.cards.items()}

    def describe(self) -> str:
        flag = "PLACEHOLDER teaching edition" if self.placeholder else "user edition"
        return f"{self.name} ({flag})"


# --------------------------------------------------------------------------- loading


def _read(name: str, given) -> tuple[dict, str]:
    """The parsed document for one data file, and how to name it in errors."""
    if given is None:  # the packaged file, checked against the package's checksums
        data = read_json(f"nagaraja/data/{name}.json")
        if not isinstance(data, dict):
            raise DamagedData(f"the packaged edition file {name}.json should hold a JSON object")
        return data, f"{name}.json (packaged)"
    if isinstance(given, Mapping):
        return dict(given), f"the {name} mapping"
    path = Path(given)
    data = read_json_file(path, f"{name} file", EditionError)
    if not isinstance(data, dict):
        raise EditionError(f"{path} should hold a JSON object, not {type(data).__name__}")
    return data, str(path)


def _entries(data: dict, key: str, where: str, count: int) -> list:
    entries = data.get(key)
    if not isinstance(entries, list):
        raise EditionError(f"{where} needs a list called {key!r}")
    if len(entries) != count:
        raise EditionError(f"{where} has {len(entries)} {key}; an edition needs exactly {count}")
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise EditionError(f"{where}: entry {index + 1} of {key!r} should be an object, not {entry!r}")
    ids = [entry.get("id") for entry in entries]
    for index, identifier in enumerate(ids):
        if not isinstance(identifier, str) or not identifier:
            raise EditionError(f"{where}: entry {index + 1} of {key!r} has no text id")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise EditionError(f"{where}: the id {duplicates[0]!r} is used twice")
    return entries


def _whole(value, what: str, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise EditionError(f"{where}: {what} must be a whole number {low} or more, not {value!r}")
    return value


def _load_cards(data: dict, where: str) -> dict:
    cards = {}
    for entry in _entries(data, "cards", where, CARD_COUNT):
        card_id, symbol, stick_set, effect = (entry.get(k) for k in ("id", "symbol", "sticks", "effect"))
        if symbol not in SYMBOLS:
            raise EditionError(f"{where}: card {card_id} has symbol {symbol!r}; use one of {', '.join(SYMBOLS)}")
        if not isinstance(stick_set, str) or not stick_set or set(stick_set) - set(STICK_LETTERS):
            raise EditionError(f"{where}: card {card_id} has sticks {stick_set!r}; write them as letters B, W, G")
        if effect not in EFFECTS:
            raise EditionError(f"{where}: card {card_id} has unknown effect {effect!r}; known: {', '.join(EFFECTS)}")
        if EFFECTS[effect].symbol != symbol:
            raise EditionError(
                f"{where}: card {card_id} has symbol {symbol} but effect {effect} belongs to {EFFECTS[effect].symbol}"
            )
        cards[card_id] = Card(card_id, symbol, "".join(sorted(stick_set, key="BWG".index)), effect)
    return dict(sorted(cards.items()))


def _load_tiles(data: dict, where: str) -> dict:
    tiles = {}
    for entry in _entries(data, "tiles", where, TILE_COUNT):
        tile_id, segments, special = entry["id"], entry.get("segments"), entry.get("special")
        if tile_id == "TRAP":
            raise EditionError(f"{where}: the id TRAP is reserved for the trap tile")
        if not isinstance(segments, list) or not segments:
            raise EditionError(f"{where}: tile {tile_id} needs a non-empty list of segments")
        seen: set[str] = set()
        for segment in segments:
            if not isinstance(segment, str) or not segment or set(segment) - set(SIDES):
                raise EditionError(
                    f"{where}: tile {tile_id} has segment {segment!r}; write sides as letters N, E, S, W"
                )
            if len(set(segment)) != len(segment) or seen & set(segment):
                raise EditionError(
                    f"{where}: tile {tile_id}: segments must not share a side (side repeated in {segment!r})"
                )
            seen |= set(segment)
        if special is not None and (
            isinstance(special, bool) or not isinstance(special, int) or not 0 <= special < len(segments)
        ):
            raise EditionError(
                f"{where}: tile {tile_id} has special location {special!r}, but it has "
                f"{len(segments)} segment(s) (numbered from 0)"
            )
        canonical = tuple("".join(sorted(s, key=SIDES.index)) for s in segments)
        tiles[tile_id] = TileDef(tile_id, str(entry.get("shape", "")), canonical, special)
    return dict(sorted(tiles.items()))


def _load_amulets(data: dict, where: str) -> dict:
    amulets = {}
    for entry in _entries(data, "amulets", where, AMULET_COUNT):
        amulet_id, effect = entry["id"], entry.get("effect")
        vp = _whole(entry.get("vp"), f"amulet {amulet_id}'s vp", where)
        if effect is not None and effect not in AMULET_EFFECTS:
            raise EditionError(
                f"{where}: amulet {amulet_id} has unknown effect {effect!r}; "
                f"known: {', '.join(AMULET_EFFECTS)} (or null for a VP amulet)"
            )
        amulets[amulet_id] = Amulet(amulet_id, vp, effect)
    return dict(sorted(amulets.items()))


def _load_relics(data: dict, where: str) -> tuple:
    relics = []
    for entry in _entries(data, "relics", where, RELICS_PER_PLAYER):
        cursed = entry.get("cursed")
        if not isinstance(cursed, bool):
            raise EditionError(f"{where}: relic {entry['id']} needs cursed: true or false")
        relics.append(Relic(entry["id"], _whole(entry.get("vp"), f"relic {entry['id']}'s vp", where), cursed))
    cursed_count = sum(relic.cursed for relic in relics)
    if cursed_count != CURSED_PER_PLAYER:
        raise EditionError(f"{where}: {cursed_count} relics are cursed; each player needs exactly {CURSED_PER_PLAYER}")
    return tuple(relics)


def _load_faces(given) -> tuple[dict, str]:
    try:
        faces = sticks.load_faces(given)
    except ValueError as error:
        raise EditionError(f"stick faces: {error}") from None
    for colour, colour_faces in faces.items():
        for points, naga in colour_faces:
            if naga and points:
                raise EditionError(
                    f"stick faces: {colour} has a face with {points} points and a Naga; "
                    "the engine needs Naga faces worth 0 points (the odds calculator accepts it)"
                )
        if len(colour_faces) != 4:
            warnings.warn(f"{colour} sticks have {len(colour_faces)} faces; real fate sticks have 4", stacklevel=3)
    name = f"Model {given.upper()}" if isinstance(given, str) and given.upper() in sticks.MODELS else "custom sticks"
    return faces, name


def load_edition(sticks="A", directory=None, *, cards=None, tiles=None, amulets=None, relics=None) -> Edition:
    """Build and validate an edition.

    ``sticks`` is "A" (default), "B", or a face-table mapping. ``directory`` is a folder
    holding any of cards.json, tiles.json, amulets.json, relics.json (and, when
    ``sticks`` is None, sticks.json); each keyword overrides one file with a path or a
    mapping. Anything not given comes from the packaged PLACEHOLDER edition.
    """
    given = {"cards": cards, "tiles": tiles, "amulets": amulets, "relics": relics}
    if directory is not None:
        for name in given:
            path = Path(directory) / f"{name}.json"
            if given[name] is None and path.exists():
                given[name] = path
        if sticks is None and (Path(directory) / "sticks.json").exists():
            stick_data, _ = _read("sticks", Path(directory) / "sticks.json")
            sticks = stick_data.get("faces", stick_data)
    faces, stick_name = _load_faces("A" if sticks is None else sticks)
    documents = {name: _read(name, value) for name, value in given.items()}
    loaders = {"cards": _load_cards, "tiles": _load_tiles, "amulets": _load_amulets, "relics": _load_relics}
    parts = {name: loaders[name](*documents[name]) for name in loaders}
    special_count = sum(tile.special is not None for tile in parts["tiles"].values())
    placeholder = all(value is None for value in given.values()) and isinstance(sticks, str)
    source = {"sticks": sticks if isinstance(sticks, str) else {c: [list(f) for f in fs] for c, fs in faces.items()}}
    for name, value in given.items():
        if value is not None:
            source[name] = documents[name][0]
    name = f"Teaching edition, {stick_name}" if placeholder else f"Custom edition, {stick_name}"
    edition = Edition(
        name, placeholder, faces, parts["cards"], parts["tiles"], parts["amulets"], parts["relics"], source
    )
    object.__setattr__(
        edition, "__dict__", dict(edition.__dict__)
    )  # a combined dict: fast attribute reads (position.combined)
    if special_count > AMULET_COUNT:
        warnings.warn(f"{special_count} special locations but only {AMULET_COUNT} amulets", stacklevel=2)
    return edition


SOURCE_PARTS = ("cards", "tiles", "amulets", "relics")


def edition_from_source(source: Mapping) -> Edition:
    """Rebuild an edition from its ``source`` record (used by saved games).

    A save never names a file: each component is absent (the packaged one) or carried inline
    as a mapping, and the sticks are a built-in model name or an inline face table. A text where
    a component belongs is refused, never opened as a path.
    """
    if not isinstance(source, Mapping):
        raise EditionError(f"the edition record should be an object, not {type(source).__name__}")
    unknown = sorted(set(source) - {"sticks", *SOURCE_PARTS}, key=str)
    if unknown:
        raise EditionError(f"the edition record has an unknown part {unknown[0]!r}")
    model = source.get("sticks", "A")
    if isinstance(model, str) and model.upper() not in sticks.MODELS:
        raise EditionError(
            f"the sticks must be a built-in model ({', '.join(sticks.MODELS)}) or a face table, not {model!r}"
        )
    if not isinstance(model, (str, Mapping)):
        raise EditionError(f"the sticks must be a built-in model name or a face table, not {type(model).__name__}")
    parts = {name: source.get(name) for name in SOURCE_PARTS}
    for name, part in parts.items():
        if part is not None and not isinstance(part, Mapping):
            raise EditionError(
                f"the {name} of a saved edition must be carried inline as an object, not "
                f"{type(part).__name__} (a save never names a file)"
            )
    if isinstance(model, str) and all(part is None for part in parts.values()):
        # the packaged edition (what nearly every save names): the one immutable object that new games
        # share, with its warm caches (``memo``), instead of reading and building it again for each load
        return default_edition(model)
    return load_edition(model, **parts)


@lru_cache(maxsize=None)
def default_edition(model: str = "A") -> Edition:
    """The packaged PLACEHOLDER teaching edition (Model A sticks unless ``model="B"``)."""
    return load_edition(model)


# --------------------------------------------------------------------------- checks


def check_against_rules_text(edition: Edition) -> dict[str, bool]:
    """Does the edition agree with the published rules text? (nagaraja.md#editions, nagaraja.md#fate-sticks, nagaraja.md#example)

    * the nagaraja.md#example throws are possible: 3 white giving 5 points + 1 Naga, and 3 brown +
      1 white + 1 green giving 11 points + 1 Naga;
    * mean points are brown > white > green;
    * Naga faces are brown <= white <= green.
    """
    faces = edition.faces
    elodie = sticks.joint(0, 3, 0, faces=faces).get((5, 1), Fraction(0))
    marion = sticks.joint(3, 1, 1, faces=faces).get((11, 1), Fraction(0))
    means = [Fraction(sum(p for p, _ in faces[c]), len(faces[c])) for c in ("BROWN", "WHITE", "GREEN")]
    nagas = [Fraction(sum(n for _, n in faces[c]), len(faces[c])) for c in ("BROWN", "WHITE", "GREEN")]
    return {
        "elodie_throw_possible": elodie > 0,
        "marion_throw_possible": marion > 0,
        "mean_points_brown_gt_white_gt_green": means[0] > means[1] > means[2],
        "nagas_brown_le_white_le_green": nagas[0] <= nagas[1] <= nagas[2],
    }
