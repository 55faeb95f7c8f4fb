"""The Pangu board without a browser: a pick set on the traitlet does exactly what a click does."""

import random

import pytest

from gamelib import IllegalMove, Match
from gamelib.pangu import Action, Rules, new_game
from gamelib.pangu.board import PanguBoard, action_key
from gamelib.pangu.bots import greedy_policy, lookahead_policy, lookahead_values

from pangu_support import S1, S1_KARMA, S1_MOVES


def s1_board(rules=None, **options) -> PanguBoard:
    return PanguBoard(new_game(rules=rules, **S1), **options)


def click(board, **pick):
    board.pick = pick


def engine_reason(state, action) -> str:
    with pytest.raises(IllegalMove) as error:
        state.apply(action)
    return error.value.reason


def test_clicking_card_then_cell_plays_the_scripted_game_s1():
    board = s1_board()
    for (card, die, cell), karma in zip(S1_MOVES, S1_KARMA):
        click(board, kind="card", card=card)
        assert board.selection["die"] == die  # S1 uses the cheaper legal die each time (spec 11, T10)
        click(board, kind="cell", cell=list(cell))
        assert board.message_kind == "info", board.message
        assert board.state["karma"] == karma
    assert board.state["status"] == "WON" and board.match.state.karma == 9  # spec 11, T10 result
    assert board.match.actions == [Action(*move) for move in S1_MOVES]


def test_the_page_shows_what_the_engine_says_after_a_click():
    board = s1_board()
    start = board.match.state
    click(board, kind="place", card="A6", cell=[0, 1])
    expected = start.apply(Action("A6", "BLUE", (0, 1)))
    assert board.match.state == expected
    assert board.state["karma"] == expected.karma
    assert [card["id"] for card in board.state["revealed"]] == list(expected.revealed)
    assert "paid 1, recovered 1" in board.state["last_event"]  # spec 11, T10 move 1


@pytest.mark.parametrize(
    "pick, action",
    [
        ({"kind": "place", "card": "A6", "cell": [0, 0]}, Action("A6", "BLUE", (0, 0))),  # not adjacent
        ({"kind": "place", "card": "A6", "cell": [1, 1]}, Action("A6", "BLUE", (1, 1))),  # the Yin centre
        ({"kind": "place", "card": "A6", "cell": [5, 0]}, Action("A6", "BLUE", (5, 0))),  # off the layout
        ({"kind": "place", "card": "A1", "cell": [0, 1]}, Action("A1", "BLUE", (0, 1))),  # not revealed yet
        ({"kind": "place", "card": "A3", "die": "WHITE", "cell": [0, 1]}, Action("A3", "WHITE", (0, 1))),  # 5 = W5
        ({"kind": "place", "card": "A6", "cell": [0, 1], "orientation": 180}, Action("A6", "BLUE", (0, 1), 180)),
    ],
)
def test_an_illegal_pick_shows_the_engine_reason_and_changes_nothing(pick, action):
    board = s1_board()
    before = board.match.state
    board.pick = pick
    assert board.message_kind == "error"
    assert board.message == engine_reason(before, action)
    assert board.match.state is before and board.match.length == 0


def test_clicks_out_of_order_are_explained():
    board = s1_board()
    click(board, kind="cell", cell=[0, 1])
    assert board.message_kind == "error" and "revealed cards first" in board.message
    click(board, kind="die", die="WHITE")
    assert board.message_kind == "error" and "revealed cards first" in board.message
    click(board, kind="shuffle")
    assert board.message_kind == "error" and "unknown pick" in board.message
    click(board, kind="card", card="A1")
    assert board.message_kind == "error"
    assert board.message == engine_reason(board.match.state, Action("A1", "BLUE", (0, 1)))
    assert board.selection["card"] is None


def test_the_forbidden_equal_die_cannot_be_chosen():
    board = s1_board()
    for move in S1_MOVES[:3]:
        board.apply(Action(*move))
    # Turn 2 rolls (2, 2): A10 shows white 2, so the white die is forbidden (spec 6).
    click(board, kind="card", card="A10")
    assert board.selection["die"] == "BLUE"
    click(board, kind="die", die="WHITE")
    assert board.message_kind == "error" and "must differ" in board.message
    assert board.selection["die"] == "BLUE"
    a10 = next(card for card in board.state["revealed"] if card["id"] == "A10")
    assert a10["dice"] == {"BLUE": {"legal": True, "cost": 3}, "WHITE": {"legal": False, "cost": None}}


def test_choosing_the_dearer_die_costs_more():
    board = s1_board()
    click(board, kind="card", card="A6")  # A6 is B4 W3 against roll (3, 5): blue costs 1, white 2
    click(board, kind="die", die="WHITE")
    click(board, kind="cell", cell=[0, 1])
    placement = board.match.state.placements()[-1]
    assert (placement.die, placement.cost) == ("WHITE", 2)


def test_history_steps_back_forward_start_and_end():
    board = s1_board()
    for move in S1_MOVES[:4]:
        board.apply(Action(*move))
    click(board, kind="history", to="back")
    assert board.history["index"] == 3 and board.state["karma"] == S1_KARMA[2]
    click(board, kind="history", to="start")
    assert board.history == {"index": 0, "length": 4, "can_back": False, "can_forward": True}
    assert board.state["placed"] == []
    click(board, kind="history", to="forward")
    assert [card["id"] for card in board.state["placed"]] == ["A6"]
    click(board, kind="history", to="end")
    assert board.history["index"] == 4 and len(board.state["placed"]) == 4
    click(board, kind="history", to="forward")
    assert board.message_kind == "error" and board.history["index"] == 4


def test_playing_from_an_earlier_point_replaces_the_future():
    board = s1_board()
    for move in S1_MOVES[:2]:
        board.apply(Action(*move))
    click(board, kind="history", to="back")
    click(board, kind="place", card="A3", cell=[0, 2])
    assert board.history["length"] == 2 and board.match.state.card_at((0, 2))[0].id == "A3"


def test_a_finished_game_refuses_clicks_with_a_reason():
    board = s1_board()
    for move in S1_MOVES:
        board.apply(Action(*move))
    click(board, kind="card", card="A7")
    assert board.message_kind == "error" and "over" in board.message


def test_the_finished_s1_layout_shows_every_matching_edge():
    # spec 11, T3: the S1 layout scores 16 under YIN_LEFT and 10 under YANG_LEFT
    for centre, score in (("YIN_LEFT", 16), ("YANG_LEFT", 10)):
        board = s1_board(Rules(centre_config=centre))
        for move in S1_MOVES:
            board.apply(Action(*move))
        assert len(board.state["matches"]) == score
        assert sum(p.rec for p in board.match.state.placements()) == score


def test_legal_cells_and_previews_come_from_the_engine():
    board = s1_board()
    state = board.match.state
    assert sorted(map(tuple, board.state["legal_cells"])) == sorted(state.legal_cells())
    assert len(board.state["legal_cells"]) == 6  # spec 11, T1: six legal cells at the start
    assert [move["key"] for move in board.legal] == [action_key(a) for a in state.legal_actions()]
    for move in board.legal:
        action = Action(move["card"], move["die"], tuple(move["cell"]), move["orientation"])
        preview = state.preview(action)
        assert (move["cost"], move["gain"], move["karma"]) == (preview["cost"], preview["gain"], preview["karma"])


def test_hint_values_are_the_lookahead_bots():
    board = PanguBoard(new_game(seed=11), hints=True)
    for _ in range(3):
        state = board.match.state
        values = dict(lookahead_values(state))
        shown = {move["key"]: move["hint"] for move in board.legal}
        assert shown == {action_key(action): float(value) for action, value in values.items()}
        best = lookahead_policy(state)
        assert board.state["best_action"] == action_key(best)
        assert values[best] == max(values.values())
        board.apply(greedy_policy(state))


def test_hints_are_off_by_default_and_toggle_from_the_page():
    board = s1_board()
    assert all("hint" not in move for move in board.legal) and "best_action" not in board.state
    click(board, kind="hints", on=True)
    assert board.hints and all("hint" in move for move in board.legal)
    click(board, kind="hints", on=False)
    assert all("hint" not in move for move in board.legal)


def test_rotation_when_the_rules_allow_it():
    board = s1_board(Rules(allow_rotation=True))
    click(board, kind="card", card="A6")
    click(board, kind="rotate")
    assert board.selection["orientation"] == 180
    click(board, kind="cell", cell=[0, 1])
    assert board.match.state.card_at((0, 1))[1] == 180


def test_rotation_refused_under_the_default_rules():
    board = s1_board()
    click(board, kind="card", card="A6")
    click(board, kind="rotate")
    assert board.message_kind == "error" and "allow_rotation" in board.message
    assert board.selection["orientation"] == 0


def test_two_displays_share_one_model_and_apply_a_pick_once():
    board = s1_board()
    first, second = board._repr_mimebundle_(), board._repr_mimebundle_()
    view = "application/vnd.jupyter.widget-view+json"
    first, second = (bundle[0] if isinstance(bundle, tuple) else bundle for bundle in (first, second))
    assert first[view]["model_id"] == second[view]["model_id"] == board.model_id
    click(board, kind="place", card="A6", cell=[0, 1])
    assert board.match.length == 1


def test_a_board_on_a_shared_match_follows_it():
    match = Match(new_game(**S1))
    one, two = PanguBoard(match), PanguBoard(match)
    click(one, kind="place", card="A6", cell=[0, 1])
    assert two.state["karma"] == one.state["karma"] and two.history["index"] == 1


def test_text_fallback_and_repr_are_deterministic():
    board = s1_board()
    assert str(board.match.state) in board.text_fallback()
    assert "<pre" in board._repr_html_()
    assert repr(board) == "PanguBoard(move 0 of 0)"


def test_the_final_lone_card_is_preselected():
    board = s1_board()
    for move in S1_MOVES[:9]:
        board.apply(Action(*move))
    assert board.selection == {"card": "A7", "die": "BLUE", "orientation": 0}
    click(board, kind="cell", cell=[2, 3])
    assert board.state["status"] == "WON"


def test_the_evaluators_cache_keys_are_values_not_addresses():
    """The board's Evaluator keys a finished position and a chance node by what they are, so an equal position
    loaded again from its save hits the same entry, and a new position can never inherit the entry of a freed
    one that happened to live at the same address (an ``id()`` key could)."""
    from gamelib.pangu import State
    from gamelib.pangu.board import Evaluator

    rng = random.Random(4)
    state = new_game(seed=4, explicit_chance=True)
    keys = {}
    while state.status == "ONGOING" or "over" not in keys:
        kind = "over" if state.status != "ONGOING" else ("pending" if state.pending else "decision")
        again = State.from_json(state.to_json())
        assert again is not state and Evaluator.key(again) == Evaluator.key(state)
        keys.setdefault(kind, set()).add(repr(Evaluator.key(state)))
        if state.status != "ONGOING":
            break
        if state.pending:
            outcomes, weights = zip(*state.chance_outcomes())
            state = state.apply(rng.choices(outcomes, weights)[0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert Evaluator.key(state) == ("over", state.status)
    assert len(keys["pending"]) > 1  # different chance nodes get different keys
