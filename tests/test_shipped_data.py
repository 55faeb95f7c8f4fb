"""Shipped data that cannot lie (issue 24): every data file of the package is checked against
``gamelib/shipped_data.sha256`` when it is read, and the solver's files are validated besides.

The reported cases come first (each failed before the fix: the board showed a doubled scale's
"exact 43.7%", ``bot_values()`` returned a forged value, a meta file that is not JSON or has no
checksum raised JSONDecodeError/KeyError out of the board, a zero scale ZeroDivisionError), then
the fuzz of the whole family: damaged bytes of every shipped file (byte flips, truncations, cut
ranges, deleted keys, changed numbers) give a :class:`DamagedData` naming the file, never a raw
exception or a number. A second fuzz forges the checksum list too (as a careless ``--write``
would), so the validation alone must refuse or give the intact numbers. ``GAMELIB_LONG_TESTS=1``
runs ten times more cases.

Every test reads a copy of the package's data (``datafiles.PACKAGE`` pointed at a temporary
folder); the shipped files are never touched.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
import traitlets

from gamelib import datafiles, exercises
from gamelib.datafiles import DamagedData
from gamelib.nagaraja import edition as nagaraja_edition
from gamelib.nagaraja import sticks
from gamelib.nagaraja.edition import EditionError
from gamelib.nagaraja.sticks import FaceTableError
from gamelib.pangu import SINGLE_VARIANTS, new_game, solver
from gamelib.pangu import cards as pangu_cards
from gamelib.pangu.board import PanguBoard
from gamelib.pangu.cards import DeckError
from gamelib.pangu.solver.tables import DamagedTable, ShippedTables

SCALE = 10 if os.environ.get("GAMELIB_LONG_TESTS") == "1" else 1
PACKAGE = datafiles.PACKAGE
TABLE, META = "pangu/data/solver_default.npz", "pangu/data/solver_default.json"
BOTS, VARIANTS, DECK = "pangu/data/solver_bots.json", "pangu/data/solver_variants.json", "pangu/data/deck.json"
ROOT_VALUE = Fraction(3197477701321, 4000752000000)  # docs/pangu_solver.md, reference figures


# --------------------------------------------------------------------------- a copy of the package's data


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """A copy of every shipped data file, which the loaders then read (and nothing cached from the real ones)."""
    folder = tmp_path / "gamelib"
    for name in datafiles.shipped_names():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / name, folder / name)
    monkeypatch.setattr(datafiles, "PACKAGE", folder)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # a rewrite's lock goes there, not to ~/.cache
    forget_loaded_data()
    yield folder
    forget_loaded_data()  # a stick model, deck or table read from the copy must not outlive the test


def forget_loaded_data() -> None:
    """Forget every load the tests may have read from a copy (each is a functools cache)."""
    solver.exact.default_tables.cache_clear()
    solver.forget_solvers()
    pangu_cards.teaching_deck.cache_clear()
    sticks._model.cache_clear()


def forge_checksums(folder: Path, monkeypatch, changed: str | None = None) -> None:
    """List the copy's files as they now are (a rebuild that rewrote the list with a damaged file).

    ``changed`` names the one file edited since the copy was made: the others still hold the package's
    bytes, so they keep its listed sums (the first test checks each) and only that file is hashed (the
    table alone is 10 MB to hash). Without it every file is hashed."""
    listed = datafiles.expected_digests(PACKAGE / "shipped_data.sha256")

    def sha256(name: str) -> str:
        if changed is not None and name != changed:
            return listed[name]
        return hashlib.sha256((folder / name).read_bytes()).hexdigest()

    manifest = folder / "shipped_data.sha256"
    manifest.unlink(missing_ok=True)  # a new file (see rewrite)
    manifest.write_text("".join(f"{sha256(name)}  {name}\n" for name in datafiles.shipped_names()))
    monkeypatch.setattr(datafiles, "MANIFEST", manifest)


def rewrite(path: Path, data: bytes) -> None:
    """``data`` as a new file at ``path`` (ext4 flushes a file rewritten in place to disk: 10 ms a write)."""
    path.unlink()
    path.write_bytes(data)


def edit_json(folder: Path, name: str, change) -> None:
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1) + "\n")


def a_turn_one_board() -> PanguBoard:
    return PanguBoard(new_game(seed=7), hints=True)


# --------------------------------------------------------------------------- the manifest itself


REWRITE = (
    "a data file was added, removed or changed: after checking the change, run python -m gamelib.datafiles --write"
)


def test_every_data_file_of_the_package_is_listed_and_matches():
    code = {".py", ".pyc", ".js", ".css"}
    data = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in code and "__pycache__" not in path.parts and path != datafiles.MANIFEST
    )
    assert data == datafiles.shipped_names()
    assert {"pangu/data/solver_default.npz", DECK, "nagaraja/data/cards.json", "answers/pangu_04.json"} <= set(data)
    assert sorted(datafiles.expected_digests()) == data, REWRITE
    for name in data:
        assert hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest() == datafiles.expected_digests()[name], (
            name,
            REWRITE,
        )
    assert datafiles.main([]) == 0


def test_no_lock_or_scratch_file_sits_in_the_package_data():
    assert not list(PACKAGE.rglob("*.lock")) and not list(PACKAGE.rglob("*.new"))


def test_a_damaged_list_of_checksums_is_refused_naming_it(tmp_path, monkeypatch):
    manifest = tmp_path / "shipped_data.sha256"
    manifest.write_text(datafiles.MANIFEST.read_text().replace("  pangu/data/deck.json", " pangu/data/deck.json"))
    monkeypatch.setattr(datafiles, "MANIFEST", manifest)
    with pytest.raises(DamagedData, match=f"{manifest}.*line"):
        datafiles.read_json(DECK)


def test_a_file_the_list_does_not_name_is_refused(tmp_path):
    with pytest.raises(DamagedData, match="not one of the package's data files"):
        datafiles.read_bytes("pangu/data/extra.json", tmp_path / "extra.json")


def test_a_file_is_hashed_once_while_it_stays_the_same_and_again_when_it_changes(copy, monkeypatch):
    """The checksum of an unchanged file is computed once per process; any rewrite gives the file another
    stamp (size, inode, modified or changed time), so it is checked again and its damage named."""
    monkeypatch.setattr(datafiles, "SETTLED_SECONDS", -60)  # as if every file had been written a minute ago
    datafiles._settled_digest.cache_clear()
    deck = copy / DECK
    intact = deck.read_bytes()
    assert datafiles.read_bytes(DECK) == datafiles.read_bytes(DECK) == intact
    assert datafiles._settled_digest.cache_info()[:2] == (1, 1)  # (hits, misses): hashed once
    deck.write_bytes(intact + b" ")  # another size
    with pytest.raises(DamagedData, match="deck.json is damaged or edited"):
        datafiles.read_bytes(DECK)
    flipped = intact.replace(b'"blue": 1', b'"blue": 2', 1)
    deck.write_bytes(flipped)  # the same size, in place: another modified time
    os.utime(deck, ns=(1, 1))
    with pytest.raises(DamagedData, match="deck.json is damaged or edited"):
        datafiles.read_bytes(DECK)
    (copy / "deck.new").write_bytes(intact)
    os.replace(copy / "deck.new", deck)  # the intact bytes back, as another file
    assert datafiles.read_bytes(DECK) == intact


# --------------------------------------------------------------------------- the reported cases


def test_a_doubled_scale_no_longer_shows_a_wrong_exact_chance(copy, monkeypatch):
    intact = a_turn_one_board().evaluation()
    assert intact.win is not None and 0 < intact.win < 1
    edit_json(copy, META, lambda meta: meta["scales"].update({"3": 2 * meta["scales"]["3"]}))
    for forged in (False, True):  # caught by the checksum; with the list rewritten, by the scale's formula
        if forged:
            forge_checksums(copy, monkeypatch)
        forget_loaded_data()
        board = a_turn_one_board()
        evaluation = board.evaluation()
        assert evaluation.win is None and evaluation.values == {}
        assert "exact chance not available" in evaluation.note and "damaged" in evaluation.note
        assert board.state["evaluation"]["exact"] is False and "win" not in board.state["evaluation"]
        with pytest.raises(DamagedTable, match="solver_default.json" + (".*scale of level 3" if forged else "")):
            ShippedTables()


def test_a_forged_bot_value_is_not_returned(copy, monkeypatch):
    assert solver.bot_values()["greedy"] != Fraction(9, 10)
    greedy = lambda data: data["rules"]["defaults"]["values"]["greedy"]  # noqa: E731
    edit_json(copy, BOTS, lambda data: greedy(data).update(value="9/10"))
    with pytest.raises(DamagedTable, match="solver_bots.json.*SHA-256"):
        solver.bot_values()
    # with the checksum list rewritten too, the record's own checks: the decimal beside the value,
    # then no bot above perfect play, then no chance above 1 or over zero
    forge_checksums(copy, monkeypatch)
    with pytest.raises(DamagedTable, match="solver_bots.json.*greedy bot is 9/10, but its decimal says 0.6073"):
        solver.bot_values()
    for forged, reason in (
        (("9/10", 0.9), "greedy bot's value under defaults is above perfect play's"),
        (("9/0", 0.9), "greedy bot should be a chance p/q between 0 and 1"),
    ):
        edit_json(copy, BOTS, lambda data: greedy(data).update(value=forged[0], decimal=forged[1]))
        forge_checksums(copy, monkeypatch)
        with pytest.raises(DamagedTable, match=reason):
            solver.bot_values()


@pytest.mark.parametrize("damage", ["not JSON", "no checksum", "zero scale"])
def test_a_broken_meta_file_makes_the_board_say_the_table_is_unavailable(copy, monkeypatch, damage):
    meta = copy / META
    if damage == "not JSON":
        meta.write_text(meta.read_text()[:-20])
    elif damage == "no checksum":
        edit_json(copy, META, lambda data: data.pop("sha256"))
    else:
        edit_json(copy, META, lambda data: data["scales"].update({"6": 0}))
    for forged in (False, True):
        if forged:
            forge_checksums(copy, monkeypatch)
        forget_loaded_data()
        evaluation = a_turn_one_board().evaluation()  # raised JSONDecodeError, KeyError, ZeroDivisionError
        assert evaluation.win is None and "exact chance not available" in evaluation.note
        with pytest.raises(DamagedTable, match="solver_default.json"):
            ShippedTables()


def test_a_damaged_table_is_refused_once_and_the_board_plays_on(copy, monkeypatch):
    table = copy / TABLE
    data = bytearray(table.read_bytes())
    data[len(data) // 3] ^= 0x55
    table.write_bytes(bytes(data))
    board = a_turn_one_board()
    assert board.evaluation().win is None
    table.write_bytes(b"")  # the refusal is remembered: the file is not read (nor hashed) again
    with pytest.raises(DamagedTable, match="SHA-256"):
        solver.default_tables()
    state = board.match.state
    while state.turn < 3:
        state = state.apply(state.legal_actions()[0])
    assert board.evaluate(state).win is not None or state.status != "ONGOING"  # from turn 3 no table is needed


def test_a_damaged_deck_or_edition_file_names_itself(copy):
    (copy / DECK).write_text((copy / DECK).read_text().replace('"blue": 1', '"blue": 2', 1))
    with pytest.raises(DamagedData, match="deck.json"):
        new_game(seed=1)
    (copy / "nagaraja/data/cards.json").write_bytes((copy / "nagaraja/data/cards.json").read_bytes()[:100])
    with pytest.raises(DamagedData, match="cards.json"):
        nagaraja_edition.load_edition()
    (copy / "nagaraja/data/sticks_model_b.json").write_text("{}")
    with pytest.raises(DamagedData, match="sticks_model_b.json"):
        sticks.load_faces("B")


def test_an_edited_answer_sheet_is_refused_naming_it(copy):
    edit_json(copy, "answers/pangu_04.json", lambda sheet: sheet.update(extra={"digest": "0" * 64}))
    with pytest.raises(DamagedData, match="pangu_04.json"):
        exercises.check_answer("pangu_04", "q1", 1)


# --------------------------------------------------------------------------- the variant record


def test_the_start_of_a_recorded_variant_is_answered_from_the_record():
    """Raised OutOfReach before; the record is the numba builder's whole-game value."""
    record = solver.variant_values()
    yang = new_game(rules=SINGLE_VARIANTS["YANG_LEFT"], explicit_chance=True)
    assert solver.win_probability(yang) == record["YANG_LEFT"] == ROOT_VALUE  # note section 1: the mirror
    random_centre = new_game(rules=SINGLE_VARIANTS["RANDOM_centre"], explicit_chance=True)
    assert random_centre.pending == "centre"
    assert solver.win_probability(random_centre) == record["RANDOM_centre"]
    for name in ("4x3", "after_recovery", "centre_match_2", "before_placement"):
        assert solver.win_probability(new_game(rules=SINGLE_VARIANTS[name], explicit_chance=True)) == record[name]


def test_positions_the_record_does_not_hold_are_still_out_of_reach():
    state = new_game(seed=3, rules=SINGLE_VARIANTS["YANG_LEFT"])  # a hand dealt and rolled: not the recorded root
    with pytest.raises(solver.OutOfReach):
        solver.win_probability(state)
    approximate = new_game(rules=SINGLE_VARIANTS["reroll_penalty_1"], explicit_chance=True)
    with pytest.raises(solver.OutOfReach):  # recorded only as a float approximation: never given as exact
        solver.win_probability(approximate)


def test_a_random_centre_laid_as_the_default_uses_the_default_tables():
    state = new_game(rules=SINGLE_VARIANTS["RANDOM_centre"], explicit_chance=True)
    yin = state.apply(next(outcome for outcome, _ in state.chance_outcomes() if "YIN" in str(outcome)))
    assert solver.win_probability(yin) == ROOT_VALUE


def test_the_variant_record_keeps_no_stale_timings():
    text = (PACKAGE / VARIANTS).read_text()
    assert "previous builder" not in text and "1 December" not in text
    for name in ("YANG_LEFT", "RANDOM_centre"):
        assert "wall_seconds" not in json.loads(text)["variants"][name]


# --------------------------------------------------------------------------- the build checkpoints


def test_checkpoints_live_in_the_users_cache_keyed_by_the_code(tmp_path, monkeypatch):
    from gamelib.pangu.solver import tables as solver_tables

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = solver_tables.checkpoint_folder()
    assert folder.parent == tmp_path / "cache" / "gamelib" / "pangu_solver" and folder.is_dir()
    here = Path(solver_tables.__file__).parent.parent  # gamelib/pangu: the sources are named from there
    digest = hashlib.sha256()
    for name in solver_tables.CHECKPOINT_SOURCES:
        digest.update(name.encode() + b"\0" + (here / name).read_bytes())
    assert folder.name == digest.hexdigest()[:16]
    changed = tmp_path / "pangu"  # the same sources with one line of the builder changed
    for name in solver_tables.CHECKPOINT_SOURCES:
        (changed / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(here / name, changed / name)
    with open(changed / "solver" / "optimal.py", "a") as source:
        source.write("# changed\n")
    monkeypatch.setattr(solver_tables, "__file__", str(changed / "solver" / "tables.py"))
    assert solver_tables.checkpoint_folder() != folder
    with solver_tables.records_lock():
        assert (tmp_path / "cache" / "gamelib" / "pangu_solver" / "records.lock").exists()
    for module in ("optimal", "greedy", "lookahead", "random_bot"):
        assert "/tmp" not in (here / "solver" / f"{module}.py").read_text()


def test_the_cache_follows_the_platform_convention(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    if os.name == "posix" and not os.uname().sysname == "Darwin":
        assert datafiles.cache_dir("x") == tmp_path / ".cache" / "gamelib" / "x"
        assert (tmp_path / ".cache" / "gamelib" / "x").stat().st_mode & 0o077 == 0  # private to the user


# --------------------------------------------------------------------------- inputs of the Pangu side


def test_eval_mode_set_as_a_trait_is_checked():
    board = PanguBoard(new_game(seed=1))
    with pytest.raises(traitlets.TraitError, match="'chance'.*'karma'"):
        board.eval_mode = "exactly"
    assert board.eval_mode == "chance"
    board.eval_mode = "karma"
    assert board.state["eval_mode"] == "karma"


def test_the_solver_refuses_another_games_state_with_a_sentence():
    from gamelib.chakra import new_game as chakra_game
    from gamelib.nagaraja import new_game as nagaraja_game
    from gamelib.pangu.bots import greedy_policy

    for other in (chakra_game(seed=1), nagaraja_game(seed=1), "a state", None):
        for ask in (
            solver.win_probability,
            solver.action_values,
            solver.position_of,
            lambda state: solver.evaluate_policy(greedy_policy, state=state),
        ):
            if other is None and ask is not solver.win_probability:
                continue
            with pytest.raises(TypeError, match="the Pangu solver answers Pangu positions"):
                ask(other)


# --------------------------------------------------------------------------- fuzz: damaged bytes of every file


def load_through_the_game(name: str):
    """What reading ``name`` gives through the code that uses it (every value it feeds into)."""
    if name in (TABLE, META):
        tables = solver.default_tables()
        return (
            tables.value(0, 0, 0, 1023, 10),
            tables.value(3, *SAMPLE_KEYS[3], 7),
            tables.value(6, *SAMPLE_KEYS[6], 4),
        )
    if name == BOTS:
        return {
            variant: (solver.bot_values(variant), solver.bot_values_missing(variant)) for variant in SINGLE_VARIANTS
        }
    if name == VARIANTS:
        return solver.variant_values()
    if name == DECK:
        return pangu_cards.teaching_deck()
    if name.startswith("nagaraja/data/sticks_model_"):
        return sticks.load_faces(name[-6].upper())
    if name.startswith("nagaraja/data/"):
        edition = nagaraja_edition.load_edition()
        return (edition.cards, edition.tiles, edition.amulets, edition.relics)
    return exercises.load(name[len("answers/") : -len(".json")])  # an answer sheet, read as check_answer reads it


SAMPLE_KEYS: dict = {}  # a real turn-2 and turn-3 key (F, C, D) of the shipped table, set by intact_values


@pytest.fixture(scope="module")
def intact_values():
    """What every file gives intact (the right results the fuzz compares with)."""
    tables = solver.default_tables()
    for level, at in ((3, 17), (6, 4321)):
        SAMPLE_KEYS[level] = tuple(int(tables.keys[level][at]) >> shift & 1023 for shift in (0, 10, 20))
    sticks._model.cache_clear()
    values = {name: load_through_the_game(name) for name in datafiles.shipped_names()}
    sticks._model.cache_clear()
    return values


def damaged_versions(data: bytes, rng: random.Random, count: int):
    """``count`` damaged copies of a file: flipped bytes, truncations, cut ranges and, for JSON, a deleted
    key or a changed number (a number doubled, zeroed, negated, or one more)."""
    kinds = ["flip", "truncate", "cut"] + (["delete key", "change number"] * 2 if data[:1] == b"{" else [])
    made = 0
    while made < count:
        kind = rng.choice(kinds)
        damaged = bytearray(data)
        if kind == "flip":
            for _ in range(rng.choice((1, 1, 2, 8))):
                damaged[rng.randrange(len(damaged))] ^= rng.randrange(1, 256)
        elif kind == "truncate":
            del damaged[rng.randrange(len(damaged)) :]
        elif kind == "cut":
            start = rng.randrange(len(damaged))
            del damaged[start : start + rng.randrange(1, 64)]
        else:
            damaged = bytearray(edited_json(json.loads(data), kind, rng).encode())
        if damaged != data:  # an edit that changed nothing (a file without numbers) is no case
            made += 1
            yield kind, bytes(damaged)


def edited_json(document, kind: str, rng: random.Random) -> str:
    places = []  # (container, key) of every value inside

    def walk(node):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            places.append((node, key))
            walk(value)

    walk(document)
    if kind == "delete key":
        dicts = [(node, key) for node, key in places if isinstance(node, dict)]
        node, key = rng.choice(dicts)
        del node[key]
    else:
        numbers = [
            (node, key)
            for node, key in places
            if isinstance(node[key], (int, float))
            and not isinstance(node[key], bool)
            or isinstance(node[key], str)
            and "/" in node[key]
            and node[key].replace("/", "").isdigit()
        ]
        if numbers:
            node, key = rng.choice(numbers)
            value = node[key]
            if isinstance(value, str):
                top, bottom = value.split("/")
                node[key] = rng.choice([f"{int(top) * 2}/{bottom}", f"{top}/{int(bottom) * 2}", f"{top}/0", "1/1"])
            else:
                node[key] = rng.choice([value * 2, 0, -value, value + 1])
    return json.dumps(document, indent=1) + "\n"


ACCEPTED = (DamagedData, DeckError, EditionError, FaceTableError)  # the clear errors a damaged file may give
CASES_PER_FILE = 8 * SCALE
FORGED_CASES_PER_FILE = 6 * SCALE


def fuzz(name: str, copy: Path, monkeypatch, intact, rng: random.Random, count: int, forged: bool) -> dict:
    """Damage ``name`` ``count`` times; each read must be refused clearly, or (with forged checksums)
    give the intact values where the file feeds a number the validation can vouch for."""
    original = (PACKAGE / name).read_bytes()
    tally = {"tried": 0, "refused": 0, "same": 0}
    for kind, damaged in damaged_versions(original, rng, count):
        rewrite(copy / name, damaged)
        if forged:
            forge_checksums(copy, monkeypatch, changed=name)
        forget_loaded_data()
        tally["tried"] += 1
        try:
            result = load_through_the_game(name)
        except ACCEPTED as error:
            tally["refused"] += 1
            if not forged or name in (TABLE, META, BOTS, VARIANTS):
                assert Path(name).name in str(error), (name, kind, error)
            continue
        except Exception as error:  # noqa: BLE001 - the point: nothing else may come out
            raise AssertionError(f"{name} damaged by {kind} raised {type(error).__name__}: {error}") from error
        assert forged, (name, kind, "a damaged file was read as if intact")
        if name in (TABLE, META):
            assert result == intact[name], (name, kind, "a damaged table gave another number")
        tally["same"] += result == intact[name]
    rewrite(copy / name, original)
    print(f"{name}: {tally}")  # the counts for the notes (pytest -s)
    return tally


@pytest.mark.parametrize("name", datafiles.shipped_names())
def test_damaged_bytes_of_every_shipped_file_are_refused_naming_it(name, copy, monkeypatch, intact_values):
    rng = random.Random(f"damaged {name}")
    tally = fuzz(name, copy, monkeypatch, intact_values, rng, CASES_PER_FILE, forged=False)
    assert tally["tried"] == tally["refused"] == CASES_PER_FILE


SOLVER_FILES = [
    TABLE,
    META,
    BOTS,
    VARIANTS,
    DECK,
    "nagaraja/data/cards.json",
    "nagaraja/data/tiles.json",
    "nagaraja/data/amulets.json",
    "nagaraja/data/relics.json",
    "nagaraja/data/sticks_model_a.json",
]


@pytest.mark.filterwarnings("ignore::UserWarning")  # a forged stick model may warn about odd faces, then load
@pytest.mark.parametrize("name", SOLVER_FILES)
def test_with_forged_checksums_validation_alone_refuses_or_gives_the_intact_table(
    name, copy, monkeypatch, intact_values
):
    """Behind the checksums, the loaders' own checks: a clear error, never a raw exception; for the
    solver's table and its metadata never another number either (the records and the components can
    hold other valid values: there the checksum is the guard)."""
    rng = random.Random(f"forged {name}")
    tally = fuzz(name, copy, monkeypatch, intact_values, rng, FORGED_CASES_PER_FILE, forged=True)
    assert tally["tried"] == FORGED_CASES_PER_FILE


# --------------------------------------------------------------------------- the course's data (outside the package)

PLAYTEST = Path(__file__).resolve().parent.parent / "notebooks" / "course" / "data" / "playtest_sample.json"
PLAYTEST_CASES = 12 * SCALE  # each read replays the whole game (about 0.3 s)


def replayed(state):
    """The game of ``state`` played again from its seed and its placements (an oracle apart from the loader)."""
    from gamelib.pangu import Action

    again = new_game(seed=state.seed, rules=state.rules, cards=state.cards)
    for event in state.placements():
        again = again.apply(Action(event.card, event.die, event.cell, event.orientation))
    return again


def test_damaged_copies_of_the_course_playtest_save_are_refused_or_are_the_game_they_say():
    """Course session 10 reads this Pangu save with ``State.from_json``, which replays it: a damaged copy is
    refused with a CorruptSave, or it is a whole game whose printed facts (seed, result, Karma, placements)
    are that game's own, so no edit makes the notebook print a number that is not true of the file."""
    from gamelib import CorruptSave
    from gamelib.pangu import State

    original = PLAYTEST.read_bytes()
    intact = State.from_json(original.decode())
    assert (intact.seed, intact.status, intact.karma, len(intact.placements())) == (1, "LOST", -1, 10)
    rng = random.Random("playtest")
    tally = {"refused": 0, "read": 0}
    for kind, damaged in damaged_versions(original, rng, PLAYTEST_CASES):
        try:
            state = State.from_json(damaged.decode("utf-8", errors="replace"))
        except CorruptSave:
            tally["refused"] += 1
            continue
        except Exception as error:  # noqa: BLE001 - the point: nothing else may come out
            raise AssertionError(f"the playtest save damaged by {kind} raised {type(error).__name__}: {error}")
        tally["read"] += 1
        again = replayed(state)
        assert (again.status, again.karma, again.grid) == (state.status, state.karma, state.grid), kind
    print(f"playtest_sample.json: {tally}")
    assert sum(tally.values()) == PLAYTEST_CASES


def test_rewriting_the_table_lists_its_new_checksum_and_reads_back(copy, monkeypatch):
    """``python -m gamelib.pangu.solver optimal --write`` (here with the shipped rows) rewrites the checksum list with the files, so the
    loader accepts what the builder wrote and nothing else."""
    import numpy as np

    from gamelib.pangu.solver.tables import write_tables

    monkeypatch.setattr(datafiles, "MANIFEST", copy / "shipped_data.sha256")
    shutil.copyfile(PACKAGE / "shipped_data.sha256", copy / "shipped_data.sha256")
    shipped = solver.default_tables()
    kept = {0: slice(None), 3: slice(None, None, 50), 6: slice(None, None, 1000)}  # a sample keeps the test short

    class Solved:  # what optimal.Tables gives write_tables
        values = {
            level: (
                shipped.keys[level][kept[level]].astype(np.int64),
                np.hstack(
                    [
                        np.zeros((len(shipped.keys[level][kept[level]]), 1)),
                        shipped.rows[level][kept[level]].astype(float),
                    ]
                ),
            )
            for level in (0, 3, 6)
        }
        scales = shipped.scales
        keys = {level: shipped.keys[level][kept[level]] for level in (0, 3, 6)}
        stuck_entries = {0: 1, 3: 2, 6: 3}

        @staticmethod
        def root():
            return ROOT_VALUE

    before = datafiles.expected_digests()
    write_tables(Solved(), copy / TABLE, copy / META)
    assert (copy.parent / "cache" / "gamelib" / "pangu_solver" / "records.lock").exists()  # under the lock
    after = datafiles.expected_digests()
    assert after[META] != before[META] and {n: d for n, d in after.items() if n not in (TABLE, META)} == {
        n: d for n, d in before.items() if n not in (TABLE, META)
    }
    forget_loaded_data()
    rewritten = solver.default_tables()
    assert rewritten.value(0, 0, 0, 1023, 10) == ROOT_VALUE
    assert all((rewritten.rows[level] == shipped.rows[level][kept[level]]).all() for level in (0, 3, 6))
    assert all((rewritten.keys[level] == shipped.keys[level][kept[level]]).all() for level in (0, 3, 6))
