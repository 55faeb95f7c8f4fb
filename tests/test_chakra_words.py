"""Chakra's board and log say actions in a player's words (issue 10); ``str`` and ``repr`` keep the codes."""

from __future__ import annotations

from gamelib.chakra import DOWN, UP, Channel, Meditate, Receive, Step, position
from gamelib.chakra.board import ChakraBoard
from gamelib.chakra.components import SPACE_WORDS, SPACES
from gamelib.chakra.view import describe_action, text_board


def test_receive_in_words():
    assert (
        describe_action(Receive(2, {"K", "D", "P"}, "BHAGYA"))
        == "receive black, dark blue and purple from Maya column 2 onto the Bhagya"
    )
    assert describe_action(Receive(0, {"G"}, "GREEN")) == "receive green from Maya column 0 onto the green chakra"


def test_channel_swap_and_meditate_in_words():
    two = Channel("D2_D1", [Step("GREEN", "Y", DOWN, 1), Step("LIGHT_BLUE", "Y", DOWN, 2)])
    assert describe_action(two) == (
        "channel “down 2 and down 1”: the yellow energy on the green chakra down 1, "
        "then the yellow energy on the light blue chakra down 2"
    )
    assert describe_action(Channel("U1_or_D1", [Step("RED", "R", UP, 1)])).startswith("channel “up 1 or down 1”")
    assert "red energy from the bag" in describe_action(Channel("SWAP", (), "R"))
    assert describe_action(Meditate("PURPLE")).endswith("the purple Meditation token")


def test_the_codes_stay_for_code_readers():
    assert str(Receive(0, {"K", "R"}, "BHAGYA")) == "Receive c0 {K,R} -> BHAGYA"
    assert repr(Channel("D1x3", [])).startswith("Channel(space='D1x3'")


def test_every_space_has_words_and_no_word_is_a_code():
    assert set(SPACE_WORDS) == set(SPACES)
    assert not [words for words in SPACE_WORDS.values() if "_" in words or any(ch.isupper() for ch in words)]


def test_board_names_spaces_and_the_last_move_in_words():
    state = position([{"GREEN": "R"}], maya=["Y R O", "G G L", "P P D"])
    board = ChakraBoard(state)
    assert {space["id"]: space["name"] for space in board.state["spaces"]}["D1x3"] == "down 1, 3 times"
    board.apply(Receive(0, {"Y"}, "BHAGYA"))
    assert board.state["last_action"].endswith("receive yellow from Maya column 0 onto the Bhagya")


def test_text_board_lists_taken_spaces_in_words():
    text = text_board(position([{"GREEN": "R", "spaces": ["D1x3", "U2"]}]))
    assert "spaces taken [down 1, three times; up 2]" in text and "column 0 [" in text
