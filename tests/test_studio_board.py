"""The studio board (issue 22, "Playing it"), headless: set the ``pick`` trait as a click does and
check what Python answers. The toy race of ``tests/toy_game.py`` stands for any contract game; the
studio's own examples are played in ``test_studio_board_examples``-style tests further down.
"""

from __future__ import annotations

import inspect
import json
import random
from html.parser import HTMLParser

import pytest

import toy_game
from gamelib import Match
from gamelib.core import CHANCE, random_policy
from gamelib.studio.board import Board
from gamelib.widgets.drawing import ALLOWED, ATTRIBUTES, UNSAFE_VALUE, sanitize_drawing


def press(board: Board, index: int) -> None:
    board.pick = {"kind": "move", "index": index, "ply": board.state["ply"]}


CLICKS = iter(range(10**9))


def click(board: Board, **pick) -> None:
    """A pick as the page sends it: with a fresh nonce, so the same click twice counts twice."""
    board.pick = {**pick, "nonce": next(CLICKS)}


def test_constructor_shape_is_the_boards_one():
    """As tests/test_contract.py's test_board_constructor_shape asks of the three games' boards."""
    parameters = inspect.signature(Board.__init__).parameters
    assert list(parameters)[1] == "game_or_match" and parameters["game_or_match"].default is None
    for keyword in ("seed", "rules", "viewer", "bots", "label"):
        assert parameters[keyword].kind is inspect.Parameter.KEYWORD_ONLY, keyword
    board = Board(toy_game, seed=3)
    assert board.match.state.seed == 3 and board.match.state.explicit_chance  # chance shown as it happens
    assert repr(board) == repr(Board(toy_game, seed=3)) == "Board(race, move 0 of 0)"
    with pytest.raises(ValueError, match="not both"):
        Board(toy_game.new_game(seed=1), seed=2)
    with pytest.raises(ValueError, match="bots take seats 0 to 1"):
        Board(toy_game, bots={2: random_policy})
    with pytest.raises(ValueError, match="one name per seat"):
        Board(toy_game, names=["solo"])


def test_moves_are_buttons_with_labels_and_python_decides():
    board = Board(toy_game, seed=4, names=["Ana", "Ben"])
    state = board.match.state
    assert board.state["moves"] == [{"index": 0, "label": "ONE_DIE"}, {"index": 1, "label": "TWO_DICE"}]
    assert board.state["status"] == "Ana to move" and board.state["seats"][0]["to_move"]
    press(board, 1)
    # the move, then chance drawn by the board from the seed and the move number, in the log
    after = state.apply("TWO_DICE")
    assert after.current_player == CHANCE
    log = board.state["log"]
    assert log[0] == {"ply": 1, "who": "Ana", "kind": "human", "text": "TWO_DICE"}
    assert log[1]["who"] == "Chance" and log[1]["text"].endswith("(chance 1/36)")
    assert board.match.state.current_player == 1 and board.state["status"] == "Ben to move"
    again = Board(toy_game, seed=4)
    press(again, 1)
    assert again.match.state.to_json() == board.match.state.to_json()  # the same seed, the same roll


def test_an_illegal_or_stale_choice_shows_a_message_and_changes_nothing():
    board = Board(toy_game, seed=5)
    before = board.match.state.to_json()
    for pick, words in [
        ({"kind": "move", "index": 9}, "there is no move 9"),
        ({"kind": "move", "index": True}, "there is no move True"),
        ({"kind": "move", "index": 0, "ply": 3}, "the position changed"),
        ({"kind": "fly"}, "unknown pick"),
        ({"kind": ["move"]}, "unknown pick"),
        ({"kind": "chance"}, "chance has nothing to decide"),
        ({"kind": "bots"}, "no bot is to move"),
        ({"kind": "undo"}, "nothing to undo"),
        ({"kind": "reveal"}, "already shown"),
        ({"kind": "history", "to": "sideways"}, "unknown history step"),
    ]:
        board.pick = pick
        assert board.message_kind == "error" and words in board.message, (pick, board.message)
        assert board.match.state.to_json() == before


def test_bots_answer_and_undo_takes_back_the_persons_move_with_what_followed():
    board = Board(toy_game, seed=6, rules=toy_game.Rules(target=30), bots={1: random_policy})
    press(board, 0)
    assert board.match.state.current_player == 0  # chance, the bot and chance again have played
    kinds = [entry["kind"] for entry in board.state["log"]]
    assert kinds == ["human", "chance", "bot", "chance"]
    board.pick = {"kind": "undo"}
    assert board.match.index == 0 and board.match.length == 0 and board.message == "Took back Seat 0's move."
    assert board.state["can_undo"] is False


def test_history_steps_back_onto_chance_and_bot_turns_and_play_resumes():
    board = Board(toy_game, seed=7, rules=toy_game.Rules(target=30), bots={1: random_policy})
    press(board, 1)
    click(board, kind="history", to="back")
    assert board.match.state.current_player == CHANCE
    assert len(board.state["chance"]) == 36 and board.state["moves"] == []
    click(board, kind="history", to="back")
    assert board.state["bot_waiting"] and board.state["moves"] == []
    click(board, kind="history", to="back")
    assert board.match.state.current_player == CHANCE and board.match.index == 1
    click(board, kind="chance")
    assert board.match.state.current_player == 0  # chance, then the bot, then chance again
    click(board, kind="history", to="start")
    press(board, 0)  # a new line from the start replaces the old future
    assert board.match.recorded_actions[0] == "ONE_DIE"


def test_new_game_takes_the_next_seed_under_the_same_rules():
    board = Board(toy_game, seed=8, rules=toy_game.Rules(target=20))
    board.pick = {"kind": "new_game"}
    state = board.match.state
    assert state.rules.target == 20 and state.seed != 8 and board.match.index == 0
    assert board.message.startswith("A new game (seed ")
    other = Board(toy_game, seed=8, rules=toy_game.Rules(target=20))
    other.pick = {"kind": "new_game"}
    assert other.match.state.seed == state.seed


def test_a_finished_game_says_who_won_with_the_scores_and_a_text_fallback():
    board = Board(toy_game, seed=9, names=["Ana", "Ben"])
    while not board.match.state.is_terminal:
        press(board, 1)
    state = board.match.state
    winner = ["Ana", "Ben"][state.winner]
    assert board.state["status"] == f"Game over: {winner} wins (Ana {state.points[0]}, Ben {state.points[1]})"
    assert board.state["moves"] == [] and board.state["terminal"]
    press_after = {"kind": "move", "index": 0, "ply": board.state["ply"]}
    board.pick = press_after
    assert "the game is over" in board.message
    fallback = board.text_fallback()
    assert str(state) in fallback and board.state["status"] in fallback and "Last moves:" in fallback
    assert "<pre class='gamelib-fallback'>" in board._repr_html_()


class DrawnState(toy_game.State):
    """The toy race with a student's drawing that tries everything a drawing must not do."""

    def drawing(self):
        return (
            f'<svg viewBox="0 0 100 20" onload="alert(1)"><script>alert(2)</script>'
            f'<rect width="{self.points[0]}" height="10" fill="#0072B2"/><a href="javascript:alert(3)">x</a>'
            f'<text x="2" y="18">race &lt;{self.points[0]}&gt;</text></svg><img src=x onerror="alert(4)">'
        )


def test_a_student_drawing_is_shown_cleaned():
    board = Board(Match(DrawnState(seed=1, explicit_chance=True)))
    drawing = board.state["drawing"]
    assert (
        drawing
        == '<svg viewBox="0 0 100 20"><rect width="0" height="10" fill="#0072B2"></rect><text x="2" y="18">race &lt;0&gt;</text></svg>'
    )
    for forbidden in ("script", "onload", "onerror", "javascript", "<a", "<img"):
        assert forbidden not in drawing


@pytest.mark.parametrize(
    "markup",
    [
        '<svg><foreignObject><body onload="x()"></body></foreignObject></svg>',
        '<div style="background:url(javascript:alert(1))">x</div>',
        '<svg><rect fill="url(#p)" x="&#106;avascript:1"/></svg>',
        '<svg><use href="data:image/svg+xml;base64,PHN2Zz4="/></svg>',
        '<svg><animate attributeName="href" to="javascript:alert(1)"/></svg>',
        "<<script>script>alert(1)<</script>/script>",
        '<svg><style>@import "http://x";</style><text>ok</text></svg>',
        '<table><tr><td onclick="x">1</td></tr></table>',
    ],
)
def test_the_cleaner_leaves_nothing_that_can_run(markup):
    cleaned = sanitize_drawing(markup)
    lowered = cleaned.lower()
    for forbidden in (
        "<script",
        "onload",
        "onclick",
        "javascript",
        "url(",
        "<use",
        "<animate",
        "<style",
        "@import",
        "foreignobject",
        "data:",
        "href",
    ):
        assert forbidden not in lowered, (markup, cleaned)


class Inventory(HTMLParser):
    """Every tag and attribute of a markup, as a browser's parser would meet them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += attrs

    handle_startendtag = handle_starttag


def test_the_cleaner_fuzzed_with_random_markup_keeps_only_allowed_tags_and_attributes():
    """400 random markups of dangerous pieces: what comes out, parsed again, holds only allowed elements and
    attributes with safe values (and parsing it once more changes nothing: it is stable)."""
    rng = random.Random(22)
    pieces = [
        "<svg>",
        "</svg>",
        "<script>",
        "</script>",
        "<g onload='x'>",
        "</g>",
        "<rect x='1'/>",
        "<text>",
        "</text>",
        "&lt;",
        "<",
        ">",
        "'",
        '"',
        "javascript:",
        "on",
        "load=",
        "<a href='",
        "<style>",
        "</style>",
        "<img src=x ",
        "<div>",
        "</div>",
        "=",
        " ",
        "<!--",
        "-->",
        "<![CDATA[",
        "]]>",
        "<?xml ?>",
        "<foreignObject>",
        "&#106;",
        "<rect fill='",
        "url(",
        "'/>",
        "<SCRIPT>",
        "<svg onload=alert(1)>",
        "<p title='",
    ]
    for _ in range(400):
        markup = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30)))
        cleaned = sanitize_drawing(markup)
        seen = Inventory()
        seen.feed(cleaned)
        seen.close()
        assert seen.tags <= ALLOWED, (markup, cleaned)
        for name, value in seen.attributes:
            assert name in ATTRIBUTES and not name.startswith("on") and not UNSAFE_VALUE.search(value or ""), (
                markup,
                cleaned,
            )
        assert sanitize_drawing(cleaned) == cleaned


def test_a_broken_drawing_falls_back_to_the_text():
    class Broken(toy_game.State):
        def drawing(self):
            return 42

    board = Board(Match(Broken(seed=1, explicit_chance=True)))
    assert board.state["drawing"] is None and "here is the text" in board.state["drawing_note"]
    assert board.state["text"] == str(board.match.state)


def test_the_page_gets_json_only():
    board = Board(toy_game, seed=10, bots={1: random_policy})
    press(board, 1)
    json.dumps(board.state)
    json.dumps(board.history)


# --------------------------------------------------------------------------- the studio's examples

from gamelib.studio.examples import bluff, pig  # noqa: E402


def test_pig_hot_seat_two_people_take_turns_on_one_screen():
    board = Board(pig, seed=3, rules=pig.Rules(goal=20), names=["Ana", "Ben"])
    assert board.state["cover"] is None  # Pig hides nothing: no screen to pass
    assert board.state["moves"] == [{"index": 0, "label": "roll"}]
    seats_seen = set()
    while not board.match.state.is_terminal:
        state = board.match.state
        seats_seen.add(state.current_player)
        labels = [move["label"] for move in board.state["moves"]]
        press(board, labels.index("hold") if state.position.turn_total >= 6 else 0)
    assert seats_seen == {0, 1}
    final = board.match.state
    assert board.state["status"].startswith(f"Game over: {['Ana', 'Ben'][final.winner]} wins")
    chance = [entry for entry in board.state["log"] if entry["kind"] == "chance"]
    assert chance and all(entry["text"].endswith("(chance 1/6)") for entry in chance)


def test_a_hidden_card_is_seen_only_by_its_holder_and_the_screen_is_passed():
    board = Board(bluff, seed=5, names=["Ana", "Ben"])
    state = board.match.state
    ana, ben = state.position.cards
    assert board.state["cover"] == {"seat": 0, "name": "Ana"} and "text" not in board.state and "log" not in board.state
    assert "Pass the screen to Ana" in board.text_fallback() and str(ben) not in board.text_fallback().split("Ana")[-1]
    click(board, kind="move", index=0, ply=board.state["ply"])
    assert "first pass the screen to Ana" in board.message
    click(board, kind="reveal")
    assert board.state["text"] == f"Seat 0 (Ana) sees:\n  your card: {ana}\n  moves: —"
    assert board.state["log"] == [{"ply": 1, "who": "Chance", "kind": "chance", "text": "(hidden from you)"}]
    press(board, 1)  # Ana bets
    assert board.state["cover"] == {"seat": 1, "name": "Ben"} and "moves" not in board.state
    click(board, kind="reveal")
    assert board.state["text"] == f"Seat 1 (Ben) sees:\n  your card: {ben}\n  moves: bet"
    assert [entry["text"] for entry in board.state["log"]] == ["(hidden from you)", "bet"]
    press(board, 0)  # Ben folds: no showdown, so nobody's card is shown, even after the end
    assert board.match.state.is_terminal and board.state["cover"] is None
    assert board.state["text"] == f"Seat 1 (Ben) sees:\n  your card: {ben}\n  moves: bet, fold"
    assert board.state["status"] == "Game over: Ana wins (Ana 1, Ben -1)"


def test_against_a_bot_the_person_sees_only_their_view_and_no_screen_is_passed():
    board = Board(bluff, seed=6, names=["You", "Bot"], bots={1: bluff.bots.random_policy})
    mine = board.match.state.position.cards[0]
    assert board.state["cover"] is None and board.state["viewer"] == 0
    assert board.state["text"].startswith(f"Seat 0 (You) sees:\n  your card: {mine}")
    press(board, 0)  # check; the bot answers at once
    assert board.state["viewer"] == 0 and [entry["kind"] for entry in board.state["log"]][:3] == [
        "chance",
        "human",
        "bot",
    ]


def test_undo_in_a_hidden_game_never_shows_one_persons_view_to_another():
    board = Board(bluff, seed=7, names=["Ana", "Ben"])
    click(board, kind="reveal")
    press(board, 0)  # Ana checks
    click(board, kind="reveal")  # Ben has the screen
    click(board, kind="undo")  # Ben takes back Ana's check: Ana is to move, so the screen goes back to her first
    assert board.match.index == 1 and board.state["cover"] == {"seat": 0, "name": "Ana"} and "text" not in board.state
    click(board, kind="reveal")
    assert board.state["viewer"] == 0 and board.state["moves"][0]["label"] == "check"


# --------------------------------------------------------------------------- three people, a game written here

from fractions import Fraction  # noqa: E402
from typing import NamedTuple  # noqa: E402

from gamelib import design  # noqa: E402
from gamelib.studio import Game  # noqa: E402


class Hands(NamedTuple):
    cards: tuple = ()  # one hidden card per seat; () before the deal
    raises: tuple = ()  # each seat's 0 or 1, in seat order


class ThreeCards(Game):
    """A tiny hidden-card game for three: a card each (1-3, dealt at once), each adds 0 or 1; the top total wins."""

    players = 3
    hides_information = True

    def start(self):
        return Hands()

    def chance(self, position):
        if position.cards:
            return None
        deals = [(a, b, c) for a in (1, 2, 3) for b in (1, 2, 3) for c in (1, 2, 3)]
        return {deal: Fraction(1, 27) for deal in deals}

    def to_move(self, position):
        return len(position.raises)

    def moves(self, position):
        return [0, 1]

    def move_label(self, position, move):
        return "add one" if move else "stay"

    def play(self, position, move):
        if not position.cards:
            return Hands(cards=move)
        return Hands(position.cards, position.raises + (move,))

    def winners(self, position):
        if len(position.raises) < 3:
            return None
        totals = [card + extra for card, extra in zip(position.cards, position.raises)]
        return [seat for seat, total in enumerate(totals) if total == max(totals)]

    def observation(self, position, player):
        return {"your_card": position.cards[player] if position.cards else None, "raises": list(position.raises)}

    def could_be(self, position, player):
        mine = position.cards[player]
        return [
            Hands(tuple(mine if seat == player else card for seat, card in enumerate(deal)), position.raises)
            for deal in ((1, 1, 1), (2, 2, 2), (3, 3, 3))
        ]


def test_three_people_hot_seat_each_see_their_own_card_and_it_records(tmp_path):
    board = Board(ThreeCards, seed=4, names=["Ana", "Ben", "Cai"])
    cards = board.match.state.position.cards
    board.record(tmp_path / "three.jsonl")
    for seat, name in enumerate(["Ana", "Ben", "Cai"]):
        assert board.state["cover"] == {"seat": seat, "name": name}
        click(board, kind="reveal")
        assert board.state["text"].startswith(f"Seat {seat} ({name}) sees:\n  your card: {cards[seat]}\n")
        assert [move["label"] for move in board.state["moves"]] == ["stay", "add one"]
        press(board, seat % 2)
    assert board.match.state.is_terminal
    # a game written outside gamelib is never imported by the loader; given its class, its file reads back
    with pytest.raises(design.PlaytestProblems, match="pass that game's module"):
        design.load_playtests(tmp_path / "three.jsonl")
    board.pick = {"kind": "skip_survey"}
    results = design.load_playtests(tmp_path / "three.jsonl", games=[ThreeCards])
    assert len(results) == 1 and results[0].policies == ("Ana", "Ben", "Cai")
    assert [d.label for d in results.games[0].decisions] == ["stay", "add one", "stay"]
    assert results.games[0].survey == {"fun": None, "tension": None, "fairness": None, "clarity": None, "comment": ""}


class Stumbles(ThreeCards):
    """A student's game whose show() returns a number and whose play() fails on 'add one' after the deal."""

    hides_information = False

    def show(self, position):
        return 42

    def play(self, position, move):
        if position.cards and move == 1:
            raise ZeroDivisionError("division by zero")
        return super().play(position, move)


def test_a_students_failing_code_is_said_on_the_board_and_nothing_breaks():
    board = Board(Stumbles, seed=1)
    assert board.state["text"].startswith("(the position cannot be shown: ")
    before = board.match.index
    press(board, 1)
    assert board.message_kind == "error" and "division by zero" in board.message
    assert board.match.index == before
    press(board, 0)
    assert board.match.index == before + 1 and board.message_kind == "info"
