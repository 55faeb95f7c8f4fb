"""Playtest files (issue 22, "Playing it"; issue 24, "the same care for the playtest files"):
boards record the games people play, ``design.load_playtests`` pools the files into ``Results``, and
a damaged or forged file gives an error naming its file and line while every other game is kept.

Games are played through the boards' own ``pick`` trait (what a click sends), so the recording is
the one a browser makes. ``GAMELIB_LONG_TESTS=1`` runs the fuzz tests 25 times longer.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import toy_game
from gamelib import Match, design
from gamelib.core import random_policy
from gamelib.design.playtests import (
    MAX_LINE_BYTES,
    PlaytestError,
    PlaytestProblems,
    PlaytestRecorder,
    PlaytestResults,
    check_survey,
    compare_with_bot,
    load_playtests,
)
from gamelib.pangu import bots as pangu_bots
from gamelib.pangu.board import PanguBoard
from gamelib.studio.board import Board

LONG = os.environ.get("GAMELIB_LONG_TESTS") == "1"
FUZZ_CASES = 2500 if LONG else 100
DAMAGED_PER_POOL = 7  # damaged files loaded together with the sound one (see the damage fuzz test)


# --------------------------------------------------------------------------- recording


def play_pangu_by_picks(board: PanguBoard, seed: int = 0) -> None:
    """The greedy bot's moves, sent as a click sends them (one "place" pick each)."""
    rng = random.Random(seed)
    while not board.match.state.is_terminal:
        action = pangu_bots.greedy_policy(board.match.state, rng)
        board.pick = {
            "kind": "place",
            "card": action.card,
            "cell": list(action.cell),
            "die": action.die,
            "orientation": action.orientation,
        }


def play_toy_by_picks(board: Board, choices: list[int]) -> None:
    """Seat 0 (a person) presses the move buttons in ``choices`` order, cycling, until the game ends."""
    turn = 0
    while not board.match.state.is_terminal:
        moves = board.state["moves"]
        board.pick = {"kind": "move", "index": choices[turn % len(choices)] % len(moves), "ply": board.state["ply"]}
        turn += 1


@pytest.fixture
def pangu_file(tmp_path) -> Path:
    board = PanguBoard(seed=5)
    board.record(tmp_path / "pangu.jsonl", seats=["Ana"])
    play_pangu_by_picks(board)
    board.pick = {
        "kind": "survey",
        "fun": 4,
        "tension": 5,
        "fairness": 3,
        "clarity": 2,
        "comment": "the dice felt mean",
    }
    return tmp_path / "pangu.jsonl"


def toy_session(path: Path, games: int = 2, seed: int = 11) -> Path:
    """A studio board on the toy race (explicit chance) against the random bot: a few games, one undo."""
    board = Board(toy_game, seed=seed, rules=toy_game.Rules(target=40), bots={1: random_policy}, names=["Ben", "bot"])
    board.record(path)
    for number in range(games):
        board.pick = {"kind": "move", "index": 1, "ply": board.state["ply"]}
        board.pick = {"kind": "undo"}
        play_toy_by_picks(board, [number, 1, 0])
        board.pick = {
            "kind": "survey",
            "fun": 3,
            "tension": None,
            "fairness": 5,
            "clarity": 4,
            "comment": f"game {number}",
        }
        if number + 1 < games:
            board.pick = {"kind": "new_game"}
    return path


def test_a_pangu_game_played_by_clicks_is_recorded_and_pooled(pangu_file):
    lines = [json.loads(line) for line in pangu_file.read_text(encoding="utf-8").splitlines()]
    assert [line["kind"] for line in lines[:2]] == ["session", "start"]
    assert lines[0]["game"] == "pangu" and lines[0]["seats"] == [{"seat": 0, "player": "Ana", "kind": "human"}]
    assert [line["kind"] for line in lines[-2:]] == ["end", "survey"]
    results = load_playtests(pangu_file)
    assert isinstance(results, design.Results) and len(results) == 1
    game = results.games[0]
    expected = PanguBoard(seed=5)
    play_pangu_by_picks(expected)
    assert game.final.to_json() == expected.match.state.to_json()  # the same game, replayed from the file
    assert results[0].winners == expected.match.state.winners and results[0].policies == ("Ana",)
    assert len(game.decisions) == len(expected.match.actions) and all(d.by == "human" for d in game.decisions)
    assert all(d.seconds is not None and d.seconds >= 0 for d in game.decisions)
    assert game.survey == {"fun": 4, "tension": 5, "fairness": 3, "clarity": 2, "comment": "the dice felt mean"}
    assert results.survey_means()["fun"] == (4.0, 1)
    # the player was the greedy bot, so greedy agrees with every move
    table = compare_with_bot(results, pangu_bots.greedy_policy)
    assert len(table) == len(game.decisions) and all(table.column("agrees"))
    assert design.summary(results).column("metric")  # the metrics read a playtest table as any other


def test_hot_seat_undo_and_several_games_on_the_studio_board(tmp_path):
    path = toy_session(tmp_path / "toy.jsonl", games=3)
    kinds = [json.loads(line)["kind"] for line in path.read_text().splitlines()]
    assert kinds.count("start") == 3 and kinds.count("end") == 3 and kinds.count("survey") == 3
    assert kinds.count("undo") >= 3 and kinds.count("chance") > 0  # an undo line per action taken back
    results = load_playtests(path, games=[toy_game])
    assert len(results) == 3 and all(game.undone >= 1 for game in results.games)  # the person's move (and the bot's)
    assert {d.by for game in results.games for d in game.decisions} == {"human", "bot"}
    assert [game.survey["comment"] for game in results.games] == ["game 0", "game 1", "game 2"]
    assert results[0].policies == ("Ben", "bot:random_policy")
    # each game is the line of the board's match: replay its actions from its start
    for game in results.games:
        assert Match.replay(game.states[0], game.actions).state.to_json() == game.final.to_json()


def test_decision_seconds_come_from_the_clock_and_bots_are_marked(tmp_path):
    now = [100.0]
    match = Match(toy_game.new_game(seed=2))
    recorder = PlaytestRecorder(
        match,
        tmp_path / "t.jsonl",
        seats=["Cleo", None],
        bots=lambda: {1: random_policy},
        game=toy_game,
        clock=lambda: now[0],
    )
    assert recorder.seats[1]["player"] == "bot:random_policy"
    rng = random.Random(0)
    waits = []
    while not match.state.is_terminal:
        wait = 2.5 if match.state.current_player == 0 else 0.25
        waits.append(wait)
        now[0] += wait
        match.apply(random_policy(match.state, rng))
    results = load_playtests(tmp_path / "t.jsonl", games=[toy_game])
    assert [d.seconds for d in results.games[0].decisions] == waits
    assert results.decision_seconds() == [w for w in waits if w == 2.5]


def test_the_survey_is_checked_and_a_bad_answer_shows_a_message(pangu_file, tmp_path):
    board = PanguBoard(seed=5)
    board.record(tmp_path / "again.jsonl")
    assert board.playtest["recording"] and board.playtest["survey"] is None
    board.pick = {"kind": "survey", "fun": 4}
    assert board.message_kind == "error" and "comes when a recorded game ends" in board.message
    play_pangu_by_picks(board)
    assert board.playtest["survey"] == 1
    for bad in ({"fun": 6}, {"fun": True}, {"clarity": "5"}, {"comment": "two\nlines"}, {"comment": "x" * 301}):
        board.pick = {"kind": "survey", **bad}
        assert board.message_kind == "error", bad
    board.pick = {"kind": "skip_survey"}
    assert board.playtest["survey"] is None and "Thank you" in board.message
    with pytest.raises(ValueError, match="not \\['mood'\\]"):
        check_survey({"mood": 5})


def test_the_three_boards_record(tmp_path):
    from gamelib.chakra.board import ChakraBoard
    from gamelib.nagaraja.board import NagarajaBoard

    for name, board in (
        ("chakra", ChakraBoard(seed=3, bots={1: random_policy})),
        ("nagaraja", NagarajaBoard(seed=3, bots={1: random_policy})),
    ):
        recorder = board.record(tmp_path / f"{name}.jsonl", seats=["Dev", None])
        rng = random.Random(1)
        while not board.match.state.is_terminal:  # the person's moves, then the board's own bots answer
            board.apply(random_policy(board.match.state, rng))
            board.play_bots()
        assert recorder.finished == [1]
        results = load_playtests(tmp_path / f"{name}.jsonl")
        assert len(results) == 1 and results.games[0].final.to_json() == board.match.state.to_json()
        assert {d.by for d in results.games[0].decisions} == {"human", "bot"}
        assert results[0].policies == ("Dev", "bot:random_policy")


def test_a_file_exists_already_and_names_must_fit_the_seats(tmp_path):
    board = Board(toy_game, seed=1)
    board.record(tmp_path / "a.jsonl")
    with pytest.raises(FileExistsError, match="a.jsonl already exists"):
        Board(toy_game, seed=1).record(tmp_path / "a.jsonl")
    with pytest.raises(ValueError, match="give 2 names"):
        Board(toy_game, seed=1).record(tmp_path / "b.jsonl", seats=["only one"])
    assert board.recorder.seats[0]["player"].startswith("anon-")  # no name: an anonymous code


# --------------------------------------------------------------------------- damaged and forged files


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, lines: list) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def first_line_of(lines: list[dict], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if line["kind"] == kind)


def damaged(tmp_path: Path, original: Path, name: str, change) -> Path:
    lines = lines_of(original)
    change(lines)
    return write_lines(tmp_path / name, lines)


def problem_of(path: Path) -> PlaytestError:
    results = load_playtests(path, errors="skip", games=[toy_game])
    assert len(results.problems) >= 1, path.read_text()[:300]
    return results.problems[0]


@pytest.fixture
def toy_file(tmp_path) -> Path:
    return toy_session(tmp_path / "good.jsonl", games=2)


def set_field(kind, key, value, which=0):
    def change(lines):
        matching = [line for line in lines if line["kind"] == kind]
        matching[which][key] = value

    return change


FORGERIES = {
    # name: (change of the lines, the words the error must hold)
    "seat count": (
        set_field("session", "seats", [{"seat": 0, "player": "A", "kind": "human"}]),
        "line 2: the game has 2 seats",
    ),
    "seat number": (
        set_field(
            "session",
            "seats",
            [{"seat": 0, "player": "A", "kind": "human"}, {"seat": 7, "player": "B", "kind": "human"}],
        ),
        "seat 1 should be",
    ),
    "seat kind": (
        set_field(
            "session",
            "seats",
            [{"seat": 0, "player": "A", "kind": "alien"}, {"seat": 1, "player": "B", "kind": "human"}],
        ),
        "seat 0 should be",
    ),
    "no seats": (set_field("session", "seats", "everyone"), "should list the seats"),
    "format": (set_field("session", "format", "csv"), "not a playtest session line"),
    "version": (set_field("session", "format_version", 99), "format version 99"),
    "foreign module": (lambda lines: lines[0].update(module="os", game="chess"), "not part of gamelib"),
    "unknown gamelib module": (set_field("session", "game", "chess"), "'chess'"),
    "save version": (set_field("session", "save_version", 0), "saved by version 0"),
    "move index": (set_field("end", "moves", [5, 0, 0]), "move 1 is choice 5"),
    "moves not a list": (set_field("end", "moves", "1 2 3"), "its moves should be a list"),
    "moves stop early": (
        lambda lines: lines[first_line_of(lines, "end")].update(moves=lines[first_line_of(lines, "end")]["moves"][:2]),
        "stop before the game is over",
    ),
    "unreachable score": (
        lambda lines: lines[first_line_of(lines, "end")]["save"].update(points=[99, 0]),
        "cannot reach it",
    ),
    "start score of text": (
        lambda lines: lines[first_line_of(lines, "start")]["start"].update(points=["a", "b"]),
        "rules fail on",
    ),
    "start not a save": (set_field("start", "start", [1, 2]), "should be the game's save"),
    "start of another game": (
        lambda lines: lines[first_line_of(lines, "start")]["start"].update(game="pangu"),
        "not a save this race can open",
    ),
    "seconds negative": (set_field("decision", "seconds", -3), "its seconds"),
    "seconds text": (set_field("decision", "seconds", "3"), "its seconds"),
    "seconds huge": (set_field("decision", "seconds", 1e300), "its seconds"),
    "seat of decision": (set_field("decision", "seat", 5), "its seat"),
    "by": (set_field("decision", "by", "alien"), "its by"),
    "decision disagrees": (set_field("decision", "action", 0, which=-1), "the game's moves say otherwise"),
    "survey out of scale": (set_field("survey", "fun", 9), "from 1 to 5"),
    "survey before its end": (
        lambda lines: lines.insert(2, {"kind": "survey", "game_number": 1, "fun": 3}),
        "has not ended",
    ),
    "two starts": (lambda lines: lines.insert(2, lines[1]), "a second time"),
    "unknown kind": (lambda lines: lines.insert(3, {"kind": "teleport", "game_number": 1}), "has kind 'teleport'"),
    "no start": (set_field("decision", "game_number", 77), "no start line"),
    "game number": (set_field("decision", "game_number", True), "game_number should be"),
    "second session": (lambda lines: lines.insert(3, lines[0]), "second session line"),
    "session rules": (set_field("session", "rules", {"target": 99}), "line 2: its rules are not the rules the session"),
}


def test_a_forged_label_is_never_shown(toy_file, tmp_path):
    """Labels are for people reading the file; the loader names each move from the replayed game."""
    lines = lines_of(toy_file)
    for line in lines:
        if line["kind"] == "decision":
            line["label"] = '=HYPERLINK("http://x")'
    results = load_playtests(write_lines(tmp_path / "labels.jsonl", lines), games=[toy_game])
    assert {d.label for game in results.games for d in game.decisions} == {"ONE_DIE", "TWO_DICE"}


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forged_file_names_the_file_and_line_and_keeps_the_other_files(name, toy_file, tmp_path):
    change, words = FORGERIES[name]
    forged = damaged(tmp_path, toy_file, f"forged-{name.replace(' ', '_')}.jsonl", change)
    problem = problem_of(forged)
    assert forged.name in str(problem) and words in str(problem), str(problem)
    assert problem.line is None or str(problem).startswith(f"{forged.name}, line {problem.line}:")
    good = len(load_playtests(toy_file, games=[toy_game]))
    with pytest.raises(PlaytestProblems) as raised:
        load_playtests([toy_file, forged, toy_file], games=[toy_game])
    assert forged.name in str(raised.value)
    kept = raised.value.results
    assert len(kept) >= 2 * good and all(game.path in (toy_file, forged) for game in kept.games)
    skipped = load_playtests([toy_file, forged], errors="skip", games=[toy_game])
    assert len(skipped) == len(kept) - good and len(skipped.problems) == len(raised.value.problems)


def write_bytes(tmp_path: Path, name: str, data: bytes) -> Path:
    """``data`` as the file ``name``, always a new file (ext4 flushes a file rewritten in place to disk)."""
    path = tmp_path / name
    path.unlink(missing_ok=True)
    path.write_bytes(data)
    return path


def test_damaged_bytes_give_clear_errors(toy_file, tmp_path):
    text = toy_file.read_bytes()
    first_end = text.index(b"\n") + 1
    cases = {
        "not json": (text[:first_end] + b"{this is not json\n" + text[first_end:], "line 2: is not valid JSON"),
        "latin-1": (
            text[:first_end] + '{"kind": "survey", "comment": "café"}\n'.encode("latin-1") + text[first_end:],
            "line 2: is not UTF-8 text",
        ),
        "truncated": (text[:-40], "is cut short (the file ends in the middle of it)"),
        "huge line": (
            text[:first_end] + b'{"kind": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n' + text[first_end:],
            f"line 2: is longer than {MAX_LINE_BYTES:,} bytes",
        ),
        "nan": (
            text[:first_end] + b'{"kind": "decision", "seconds": NaN}\n' + text[first_end:],
            "line 2: is not valid JSON (NaN",
        ),
        "deep": (
            text[:first_end] + b'{"kind": "start", "start": ' + b"[" * 5000 + b"]" * 5000 + b"}\n" + text[first_end:],
            "line 2: ",
        ),
        "a list": (text[:first_end] + b"[1, 2]\n" + text[first_end:], "line 2: should be a JSON object"),
        "utf-16": (text.decode("utf-8").encode("utf-16"), "line 1: is not UTF-8 text"),
        "empty": (b"", "is empty"),
        "header broken": (b"{\n" + text, "line 1:"),
    }
    for name, (data, words) in cases.items():
        path = write_bytes(tmp_path, name.replace(" ", "_") + ".jsonl", data)
        results = load_playtests([path, toy_file], errors="skip", games=[toy_game])
        assert any(words in str(problem) and path.name in str(problem) for problem in results.problems), (
            name,
            [str(p) for p in results.problems],
        )
        assert len(results) >= 2  # the other file's games are all there
    # a byte-order mark (as some editors save) is fine; so is a folder of files
    bom = write_bytes(tmp_path, "bom.jsonl", b"\xef\xbb\xbf" + text)
    assert len(load_playtests(bom, games=[toy_game])) == 2
    assert "no such file" in str(problem_of(tmp_path / "missing.jsonl")).lower() or "cannot be read" in str(
        problem_of(tmp_path / "missing.jsonl")
    )


def test_a_file_of_a_game_outside_gamelib_is_never_imported(toy_file):
    with pytest.raises(PlaytestProblems, match="pass that game's module"):
        load_playtests(toy_file)
    with pytest.raises(ValueError, match="errors is 'raise' or 'skip'"):
        load_playtests(toy_file, errors="ignore")


# --------------------------------------------------------------------------- fuzzing


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random damages: bytes flipped, cut, doubled, lines swapped or dropped, digits changed."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        if kind == 0 and data:
            at = rng.randrange(len(data))
            data = data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
        elif kind == 1:
            data = data[: rng.randrange(len(data) + 1)]
        elif kind == 2:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif kind == 3:
            lines = data.split(b"\n")
            del lines[rng.randrange(len(lines))]
            data = b"\n".join(lines)
        elif kind == 4:
            digits = [i for i, byte in enumerate(data) if 48 <= byte <= 57]
            if digits:
                at = rng.choice(digits)
                data = data[:at] + str(rng.randrange(10)).encode() + data[at:]
        else:
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            data = b"\n".join(lines)
    return data


def test_fuzz_damaged_playtest_files_never_raise_raw_and_keep_only_sound_games(toy_file, tmp_path):
    """Random damage to a recorded file: loading never raises anything but a PlaytestError (collected), never
    hangs, and every game it keeps is one of the games really played (its end save and its moves).

    The damaged files are pooled with the sound file, DAMAGED_PER_POOL at a time (each case its own file,
    drawn in the same order): every problem names its own damaged file, and the sound file's games are
    kept whatever its neighbours hold, so the sound file is read once a pool rather than once a case."""
    original = toy_file.read_bytes()
    played = {
        (json.dumps(game.start.to_json()), game.final.to_json())
        for game in load_playtests(toy_file, games=[toy_game]).games
    }
    rng = random.Random(2026)
    kept_games = problems = 0
    for first in range(0, FUZZ_CASES, DAMAGED_PER_POOL):
        paths = [
            write_bytes(tmp_path, f"fuzz{case % DAMAGED_PER_POOL}.jsonl", mutate(original, rng))
            for case in range(first, min(first + DAMAGED_PER_POOL, FUZZ_CASES))
        ]
        results = load_playtests([*paths, toy_file], errors="skip", games=[toy_game])
        assert all(
            isinstance(problem, PlaytestError) and problem.path in paths and problem.path.name in str(problem)
            for problem in results.problems
        )
        mine = [game for game in results.games if game.path in paths]
        for game in mine:
            assert (json.dumps(game.start.to_json()), game.final.to_json()) in played
        assert [game.path for game in results.games if game.path not in paths] == [toy_file] * 2
        assert len(results) == len(mine) + 2  # the sound file's two games are always kept
        kept_games += len(mine)
        problems += len(results.problems)
    assert problems > FUZZ_CASES // 2 and kept_games > 0  # the damage was real, and some games survived it


def test_fuzz_damaged_pangu_playtests(pangu_file, tmp_path):
    """The same damage to a file of a real board (Pangu's saves inside): a PlaytestError or the game played."""
    original = pangu_file.read_bytes()
    played = load_playtests(pangu_file).games[0].final.to_json()
    rng = random.Random(15)
    for case in range(FUZZ_CASES // 3):
        path = write_bytes(tmp_path, f"pangu{case % 3}.jsonl", mutate(original, rng))
        results = load_playtests(path, errors="skip")
        assert all(isinstance(problem, PlaytestError) and path.name in str(problem) for problem in results.problems)
        assert all(game.final.to_json() == played for game in results.games)


def random_json(rng: random.Random, depth: int = 0):
    choices = [None, True, -1, 0, 7, 10**30, 1.5, float("inf"), "", "x" * rng.randrange(50), "\ud800", [], {}]
    if depth < 2:
        choices += [
            [random_json(rng, depth + 1) for _ in range(rng.randrange(3))],
            {str(rng.randrange(5)): random_json(rng, depth + 1) for _ in range(rng.randrange(3))},
        ]
    return rng.choice(choices)


def test_fuzz_forged_fields_are_refused_with_a_reason(toy_file, tmp_path):
    """Every field of every line replaced by a random JSON value of another type: a clear PlaytestError or a
    sound game, never a raw exception (each value written as JSON, so the file itself parses)."""
    lines = lines_of(toy_file)
    rng = random.Random(24)
    refused = 0
    for case in range(FUZZ_CASES):
        forged = json.loads(json.dumps(lines))
        line = rng.choice(forged)
        key = rng.choice(sorted(line))
        value = random_json(rng)
        target = line
        if isinstance(line.get(key), dict) and line[key] and rng.random() < 0.5:  # inside a save too
            target, key = line[key], rng.choice(sorted(line[key]))
        target[key] = value
        path = tmp_path / f"forged{case % 5}.jsonl"
        path.unlink(missing_ok=True)  # a new file (see write_bytes)
        path.write_text(
            "".join(json.dumps(item, allow_nan=True) + "\n" for item in forged),
            encoding="utf-8",
            errors="surrogatepass",
        )
        results = load_playtests([path], errors="skip", games=[toy_game])
        assert isinstance(results, PlaytestResults)
        assert all(isinstance(problem, PlaytestError) for problem in results.problems)
        refused += bool(results.problems)
    assert refused > FUZZ_CASES // 3


def test_a_recording_that_cannot_write_stops_with_a_reason_and_the_game_goes_on(tmp_path):
    board = Board(toy_game, seed=3, rules=toy_game.Rules(target=30), bots={1: random_policy})
    recorder = board.record(tmp_path / "gone" / "t.jsonl")
    (tmp_path / "gone" / "t.jsonl").unlink()
    (tmp_path / "gone").rmdir()
    (tmp_path / "gone").write_text("a file where the folder was")  # every later write fails
    board.pick = {"kind": "move", "index": 0, "ply": board.state["ply"]}
    assert board.match.index > 0 and board.message_kind == "info"  # the move was played
    assert recorder.problem.startswith("recording stopped: cannot write t.jsonl")
    assert board.playtest["problem"] == recorder.problem


def test_an_action_the_recorder_cannot_place_stops_the_recording_not_the_game(tmp_path):
    match = Match(toy_game.new_game(seed=2))
    recorder = PlaytestRecorder(match, tmp_path / "t.jsonl", game=toy_game)

    class Odd(str):
        def __eq__(self, other):  # the rules accept it (it is a str), the listing never holds it
            return False

        __hash__ = str.__hash__

    state = match.state
    match._states.append(state.apply("ONE_DIE"))  # a match changed behind the recorder's back
    match._actions.append(Odd("ONE_DIE"))
    match._index += 1
    match._notify()
    assert recorder.problem.startswith("recording stopped: ValueError: the action")


def test_a_game_already_over_when_recording_starts_is_not_recorded(tmp_path):
    board = PanguBoard(seed=5, bots={0: pangu_bots.greedy_policy})  # the bot plays the whole game at once
    recorder = board.record(tmp_path / "over.jsonl")
    assert recorder.finished == [] and board.playtest["survey"] is None
    assert [json.loads(line)["kind"] for line in (tmp_path / "over.jsonl").read_text().splitlines()] == ["session"]
    assert len(load_playtests(tmp_path / "over.jsonl")) == 0
