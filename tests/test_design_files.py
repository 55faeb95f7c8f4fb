"""The files a class pools (issue 24, "Files a class pools"): every row of a results CSV is checked
against its own seats and the file's header, a bad row is named by file, line and field (or skipped
and counted), spreadsheets' formula prefixes are neutralised on export while every name comes back
exactly, and the balance bootstrap runs in memory that does not grow with the pooled rows.

The fuzz sweep at the end writes random rows and encodings; ``GAMELIB_LONG_TESTS=1`` runs it longer.
"""

from __future__ import annotations

import csv
import math
import os
import random
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamelib import design
from gamelib.design import BadResultsFile, BadRow, GameResult, Results, metrics
from gamelib.design.results import CSV_COLUMNS

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
SCALE = 10 if LONG else 1

GOOD = {
    "variant": "default rules",
    "index": "0",
    "seed": "17",
    "seating": "0 1",
    "policies": "a|b",
    "winners": "1",
    "scores": "3 5",
    "length": "3",
    "completed": "1",
    "first_mover": "0",
    "trace": "-1 0 1 1",
}


def write_rows(path, rows, header=CSV_COLUMNS, encoding="utf-8"):
    with path.open("w", newline="", encoding=encoding) as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for row in rows:
            writer.writerow([row[column] for column in header] if isinstance(row, dict) else row)
    return path


def with_cell(**changes):
    return {**GOOD, **changes}


# ------------------------------------------------------------------ the reported rows, one by one

IMPOSSIBLE = [
    ("winners", "0 0 0"),
    ("winners", "7"),
    ("winners", "0.5"),
    ("winners", "-1"),
    ("seating", "0 0"),
    ("seating", "0 7"),
    ("seating", ""),
    ("seating", "1 2"),
    ("scores", "nan 1"),
    ("scores", "inf 1"),
    ("scores", "1"),
    ("scores", "1 2 3"),
    ("scores", "-inf 2"),
    ("length", "-1"),
    ("length", "2.5"),
    ("length", "x"),
    ("length", str(10**10)),
    ("trace", "garbage"),
    ("trace", "0 1 7 0"),
    ("trace", "0 1"),
    ("trace", "-2 0 0 0"),
    ("first_mover", "9"),
    ("first_mover", "-1"),
    ("first_mover", "0.5"),
    ("completed", "maybe"),
    ("index", "-3"),
    ("index", "zero"),
    ("policies", "a|b|c"),
]


@pytest.mark.parametrize("field, cell", IMPOSSIBLE)
def test_an_impossible_row_is_refused_naming_the_file_line_and_field(tmp_path, field, cell):
    path = write_rows(tmp_path / "class.csv", [GOOD, with_cell(**{field: cell})])
    with pytest.raises(BadResultsFile) as caught:
        design.load_csv(path)
    assert str(caught.value).startswith(f"class.csv, line 3, {field}: ")


def test_the_good_row_loads_as_written(tmp_path):
    (row,) = design.load_csv(write_rows(tmp_path / "good.csv", [GOOD]))
    assert row == GameResult(0, 17, (0, 1), (1,), (3, 5), 3, True, 0, (-1, 0, 1, 1), "default rules", ("a", "b"))


def test_the_seats_the_teacher_expects_are_checked(tmp_path):
    path = write_rows(tmp_path / "three.csv", [GOOD])
    with pytest.raises(BadResultsFile, match="three.csv, line 2, seating: has 2 seats, but these games have 3"):
        design.load_csv(path, players=3)
    assert len(design.load_csv(path, players=2)) == 1


def test_a_short_row_a_long_row_and_a_huge_cell_are_named(tmp_path):
    short = write_rows(tmp_path / "short.csv", [list(GOOD.values())[:5]])
    with pytest.raises(BadResultsFile, match=r"short.csv, line 2, the row: has 5 cells, but the header names 11"):
        design.load_csv(short)
    long = write_rows(tmp_path / "long.csv", [list(GOOD.values()) + ["extra"]])
    with pytest.raises(BadResultsFile, match="long.csv, line 2, the row: has 12 cells"):
        design.load_csv(long)
    huge = write_rows(tmp_path / "huge.csv", [GOOD, with_cell(variant="x" * 200_000)])
    with pytest.raises(BadResultsFile, match="huge.csv, line 3: a cell is longer than 131,072 characters"):
        design.load_csv(huge)


def test_a_latin1_file_is_refused_with_its_line_and_a_spreadsheet_utf8_file_is_read(tmp_path):
    latin = write_rows(tmp_path / "latin.csv", [GOOD, with_cell(variant="café")], encoding="latin-1")
    with pytest.raises(BadResultsFile, match=r'latin.csv, line 3: the file is not UTF-8 text .*"CSV UTF-8"'):
        design.load_csv(latin)
    bom = write_rows(tmp_path / "excel.csv", [with_cell(variant="café")], encoding="utf-8-sig")
    assert bom.read_bytes().startswith(b"\xef\xbb\xbf")
    assert design.load_csv(bom)[0].variant == "café"


def test_missing_repeated_columns_and_a_missing_file_are_named(tmp_path):
    path = write_rows(tmp_path / "cols.csv", [], header=CSV_COLUMNS + ("seed",))
    with pytest.raises(BadResultsFile, match="cols.csv has the column.s. seed more than once"):
        design.load_csv(path)
    (tmp_path / "empty.csv").write_bytes(b"")
    with pytest.raises(BadResultsFile, match="empty.csv is missing the column"):
        design.load_csv(tmp_path / "empty.csv")
    with pytest.raises(BadResultsFile, match="cannot read .*nowhere.csv"):
        design.load_csv(tmp_path / "nowhere.csv")


def test_bad_rows_can_be_skipped_and_counted_and_other_files_are_kept(tmp_path):
    first = write_rows(tmp_path / "first.csv", [GOOD, with_cell(winners="7"), with_cell(index="1")])
    second = write_rows(tmp_path / "second.csv", [with_cell(index="2", seed="18")])
    latin = write_rows(tmp_path / "latin.csv", [with_cell(variant="é")], encoding="latin-1")
    pooled = design.load_csv(first, latin, second, bad_rows="skip")
    assert [row.index for row in pooled] == [0, 1, 2]
    assert len(pooled.skipped) == 2
    assert pooled.skipped[0].startswith("first.csv, line 3, winners: ")
    assert pooled.skipped[1].startswith("latin.csv, line 2: the file is not UTF-8")
    with pytest.raises(ValueError, match="bad_rows should be"):
        design.load_csv(first, bad_rows="ignore")


def test_rows_the_metrics_cannot_measure_are_refused_where_they_are_made():
    # summary() once raised IndexError on these; a row now refuses to exist with a reason
    with pytest.raises(BadRow, match="first_mover: 9 should be a seat from 0 to 1"):
        GameResult(0, 1, (0, 1), (0,), None, 2, True, 9)
    with pytest.raises(BadRow, match="seating: is empty"):
        GameResult(0, 1, (), (), None, 2)
    good = Results([GameResult(0, 1, (0, 1), (0,), None, 2, True, 1), GameResult(1, 1, (1, 0), (1,), None, 2, True, 0)])
    assert design.summary(good).column("metric")[0] == "first seat win rate"


# ------------------------------------------------------------------ spreadsheet-safe export, exact round trip

NAMES = [
    "=1+1",
    '=HYPERLINK("http://x","y")',
    "@SUM(1)",
    "+cmd|' /C calc'!A0",
    "-2+3",
    "\tTAB",
    "\rCR",
    "'=already quoted",
    "''@two",
    "'plain",
    "a|b",
    "[not json",
    '["json"]',
    "",
    " spaced ",
    "naïve 名前",
    "line\nbreak",
    'quote "x"',
    "\\back\\slash",
]


def test_formula_prefixes_are_neutralised_in_every_text_cell(tmp_path):
    rows = [
        GameResult(i, name, (0, 1), (0,), (-1, 2), 1, True, 0, (-1, 0), name, (name, "b"))
        for i, name in enumerate(NAMES)
    ]
    path = Results(rows).to_csv(tmp_path / "export.csv")
    with path.open(newline="", encoding="utf-8") as file:
        cells = [cell for line in csv.reader(file) for cell in line]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'=1+1" in cells and "'@SUM(1)" in cells and "'-1 2" in cells and "'-1 0" in cells


def test_every_name_and_seed_comes_back_exactly(tmp_path):
    rows = [
        GameResult(i, seed, (0, 1), (0,), None, 1, True, 0, (-1, 0), name, policies)
        for i, (name, seed, policies) in enumerate(
            [
                (name, seed, (name, other))
                for name in NAMES
                for seed, other in [(name, "b"), ("12", "|"), ("-5", "x|y"), (-5, "")]
            ]
        )
    ]
    rows.append(GameResult(999, "007", (0,), (), None, 0, policies=("",)))
    rows.append(GameResult(998, 3, (0,), (0,), None, 0, policies=("one|policy",)))
    table = Results(rows)
    assert design.load_csv(table.to_csv(tmp_path / "names.csv")) == table


def test_a_name_that_is_no_text_is_refused_on_writing(tmp_path):
    table = Results([GameResult(0, 1, (0,), (0,), None, 0, variant="\ud800")])
    with pytest.raises(ValueError, match="row 0 cannot be written: its variant holds a character that is not text"):
        table.to_csv(tmp_path / "x.csv")


# ------------------------------------------------------------------ the bootstrap in bounded memory


def original_bootstrap(results, row_vector, finish):
    """metrics._bootstrap as it was before issue 24 (commit a377719), the oracle of the streamed one."""
    rows = list(results)
    deals: dict = {}
    for row in rows:
        deals.setdefault((row.variant, row.seed), []).append(np.asarray(row_vector(row), dtype=float))
    groups = np.array([np.sum(vectors, axis=0) for vectors in deals.values()])
    rng = np.random.default_rng(metrics.BOOTSTRAP_SEED)
    picks = rng.integers(0, len(groups), size=(metrics.BOOTSTRAP_RESAMPLES, len(groups)))
    values = np.sort([finish(total) for total in groups[picks].sum(axis=1)])
    low, high = values[int(0.025 * metrics.BOOTSTRAP_RESAMPLES)], values[int(0.975 * metrics.BOOTSTRAP_RESAMPLES) - 1]
    return (float(finish(groups.sum(axis=0))), float(low), float(high), len(rows))


def random_table(games: int, seats: int, seed: int) -> Results:
    rng = random.Random(seed)
    rows = []
    for deal in range(games):
        for shift in range(seats):
            seating = tuple((seat + shift) % seats for seat in range(seats))
            winners = tuple(sorted(rng.sample(range(seats), rng.choice([1, 1, 1, 2]))))
            rows.append(GameResult(len(rows), deal, seating, winners, None, rng.randrange(1, 90), True, 0))
    return Results(rows)


STATISTICS = [
    (lambda row: (1, *row.returns()), metrics._balance_of),
    (lambda row: (1, row.length, row.length**2), metrics._standard_deviation_of),
]


@pytest.mark.parametrize(
    "games, seats, block", [(1, 2, 65536), (7, 2, 65536), (150, 3, 65536), (40, 2, 7), (33, 4, 5), (300, 2, 64)]
)
def test_the_streamed_bootstrap_gives_the_original_figures(monkeypatch, games, seats, block):
    monkeypatch.setattr(metrics, "BOOTSTRAP_BLOCK", block)
    table = random_table(games, seats, seed=games)
    for vector, finish in STATISTICS:
        streamed = metrics._bootstrap(table, vector, finish)
        expected = original_bootstrap(table, vector, finish)
        got = (streamed.value, streamed.low, streamed.high, streamed.samples)
        if games <= block:  # the same arithmetic in the same order: the same bits
            assert got == expected
        else:  # deals summed block by block: equal up to rounding
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_the_bootstrap_of_a_large_pool_stays_in_bounded_memory():
    # the old bootstrap held 1000 x deals picks and 1000 x deals x 3 returns: 10,000 deals of 2
    # seatings -> 8 * 1000 * 10,000 * (1 + 3) bytes = 320 MB; the streamed one a few blocks
    deals = 200_000 if LONG else 10_000
    table = random_table(deals, 2, seed=5)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        estimate = design.balance(table)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert 0 <= estimate.low <= estimate.value <= estimate.high <= 1
    # per deal: a few floats and a dict entry (about 300 bytes), plus the blocks (about 8 MB)
    print(f"bootstrap peak {peak / 2**20:.1f} MiB for {deals} deals")
    assert peak < 300 * deals + 16 * 2**20, f"{peak / 2**20:.1f} MiB for {deals} deals"


# ------------------------------------------------------------------ fuzz: random rows and encodings

CELL_JUNK = [
    "",
    " ",
    "0",
    "1",
    "-1",
    "7",
    "0 0",
    "0 1",
    "1 0",
    "0.5",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "x",
    "|",
    "'=1",
    "=1+1",
    "@A",
    "\x00",
    "é",
    "٣",
    "1_0",
    "+1",
    "0x1",
    "9" * 5000,
    "0 1 2",
    "True",
    "'-1 0",
]


def fuzz_cell(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)])) for _ in range(rng.randrange(0, 12))
        )
    return rng.choice(CELL_JUNK)


def fuzz_file(rng: random.Random, path) -> bytes:
    rows = []
    for _ in range(rng.randrange(1, 6)):
        row = dict(GOOD)
        for column in rng.sample(CSV_COLUMNS, rng.randrange(0, 3)):
            row[column] = fuzz_cell(rng)
        cells = [row[column] for column in CSV_COLUMNS]
        if rng.random() < 0.1:
            cells = cells[: rng.randrange(len(cells))]
        rows.append(cells)
    lines = []
    for cells in rows:
        with_quotes = ['"' + cell.replace('"', '""') + '"' if set(cell) & set(',"\n\r') else cell for cell in cells]
        lines.append(",".join(with_quotes))
    text = ",".join(CSV_COLUMNS) + "\r\n" + "\r\n".join(lines) + "\r\n"
    encoding = rng.choice(["utf-8", "utf-8-sig", "latin-1", "utf-16", "cp1252"])
    data = text.encode(encoding, errors="replace")
    if rng.random() < 0.2:  # a damaged byte or two
        data = bytearray(data)
        for _ in range(rng.randrange(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        data = bytes(data)
    path.write_bytes(data)
    return data


def oracle_accepts(row: GameResult) -> bool:
    """What a row must be to be a game, said again plainly (brute force over the rules)."""
    seats = len(row.seating)

    def whole(value):
        return type(value) is int

    return (
        seats >= 1
        and sorted(row.seating) == list(range(seats))
        and all(whole(w) and 0 <= w < seats for w in row.winners)
        and len(set(row.winners)) == len(row.winners)
        and (
            row.scores is None
            or (len(row.scores) == seats and all(math.isfinite(s) and abs(s) <= 10**15 for s in row.scores))
        )
        and whole(row.length)
        and 0 <= row.length <= 10**9
        and row.index >= 0
        and (row.first_mover is None or 0 <= row.first_mover < seats)
        and all(-1 <= seat < seats for seat in row.trace)
        and (not row.trace or len(row.trace) == row.length + 1)
        and (not row.policies or len(row.policies) == seats)
    )


def test_fuzzed_files_load_right_or_fail_by_name(tmp_path):
    """Random rows in random encodings: a table of valid games, or a BadResultsFile naming the file."""
    rng = random.Random(24)
    tried = loaded = refused = 0
    for case in range(300 * SCALE):
        path = tmp_path / f"fuzz{case}.csv"
        fuzz_file(rng, path)
        tried += 1
        try:
            table = design.load_csv(path)
        except BadResultsFile as problem:
            refused += 1
            assert str(problem).startswith((f"fuzz{case}.csv", "cannot read"))
            continue
        loaded += 1
        assert all(oracle_accepts(row) for row in table)
        (tmp_path / "again.csv").unlink(missing_ok=True)  # a new file: ext4 flushes one rewritten in place
        again = design.load_csv(table.to_csv(tmp_path / "again.csv"))
        assert again == table
        if len({row.players for row in table}) == 1:
            design.summary(table)  # every metric of valid rows computes
    print(f"CSV fuzz: {tried} files, {loaded} loaded and round-tripped, {refused} refused by name")
    assert tried == loaded + refused and loaded > 0 and refused > 0


@settings(
    max_examples=150 * SCALE,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(names=st.lists(st.text(), min_size=1, max_size=3), variant=st.text(), seed=st.one_of(st.integers(), st.text()))
def test_any_names_round_trip_exactly(tmp_path, names, variant, seed):
    seats = len(names)
    try:
        row = GameResult(0, seed, tuple(range(seats)), (0,), None, 0, True, 0, (), variant, tuple(names))
    except BadRow:
        pytest.fail("a row of plain names should be a game")
    try:
        (tmp_path / "names.csv").unlink(missing_ok=True)  # a new file: ext4 flushes one rewritten in place
        path = Results([row]).to_csv(tmp_path / "names.csv")
    except ValueError as problem:  # only text that UTF-8 cannot hold is refused
        assert "not text" in str(problem)
        assert any("\ud800" <= ch <= "\udfff" for ch in variant + "".join(names) + str(seed))
        return
    assert design.load_csv(path) == Results([row])
