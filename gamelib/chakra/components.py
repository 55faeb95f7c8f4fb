"""Chakra's pieces (chakra.md#components, chakra.md#channel): colours and levels, the channel spaces, a player's board.

Levels and colours are plain ints (a colour's id is its home level, chakra.md#components) so that the move
generator can index tuples directly; the name tables turn them into words.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from itertools import combinations_with_replacement

from gamelib.core import IllegalMove

# --------------------------------------------------------------------------- constants (chakra.md#components)

EARTH = BLACK = 0
RED, ORANGE, YELLOW, GREEN, LIGHT_BLUE, DARK_BLUE, PURPLE = range(1, 8)
BHAGYA = 8
COLOURS = tuple(range(8))
CHAKRAS = tuple(range(1, 8))
COLOUR_NAMES = ("BLACK", "RED", "ORANGE", "YELLOW", "GREEN", "LIGHT_BLUE", "DARK_BLUE", "PURPLE")
LEVEL_NAMES = ("EARTH",) + COLOUR_NAMES[1:] + ("BHAGYA",)
LETTERS = "KROYGLDP"
DOWN, UP = -1, 1
CAPACITY = 3  # energies per chakra and bubbles in the Bhagya
MAYA_COLUMNS = 3
PLENITUDE_TOKENS = (1, 1, 2, 2, 3, 3, 4, 4)
MEDITATION_TOKENS_PER_COLOUR = 4
ENERGIES_PER_COLOUR_PER_PLAYER = 3

_COLOUR_BY_WORD = {name: i for i, name in enumerate(COLOUR_NAMES)}
_COLOUR_BY_WORD.update({letter: i for i, letter in enumerate(LETTERS)})
_COLOUR_BY_WORD.update(
    {"BLUE": LIGHT_BLUE, "DARKBLUE": DARK_BLUE, "INDIGO": DARK_BLUE}
)  # BGA's names (chakra.md#components)
_LEVEL_BY_WORD = {name: i for i, name in enumerate(LEVEL_NAMES)}


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 40
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 3, 4, 3


def shown(value) -> str:
    """``repr(value)`` cut short, so a huge or deeply nested input gives a short message."""
    return _SHORT.repr(value)


def colour_id(colour: int | str) -> int:
    """The id of a colour given as an id, a name ("YELLOW", "light_blue") or a letter ("Y")."""
    if isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < 8:
        return colour
    if isinstance(colour, str) and colour.strip().upper().replace(" ", "_") in _COLOUR_BY_WORD:
        return _COLOUR_BY_WORD[colour.strip().upper().replace(" ", "_")]
    raise IllegalMove(f"{shown(colour)} is not a colour: use one of {', '.join(COLOUR_NAMES)} or a letter of {LETTERS}")


def level_id(level: int | str) -> int:
    """The id of a level given as an id (0-8) or a name ("EARTH", "GREEN", "BHAGYA")."""
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= BHAGYA:
        return level
    if isinstance(level, str):
        word = level.strip().upper().replace(" ", "_")
        if word in _LEVEL_BY_WORD:
            return _LEVEL_BY_WORD[word]
        if word in _COLOUR_BY_WORD and _COLOUR_BY_WORD[word] != BLACK:
            return _COLOUR_BY_WORD[word]
    raise IllegalMove(f"{shown(level)} is not a level: use EARTH, a chakra colour (RED .. PURPLE) or BHAGYA")


def colour_word(colour: int) -> str:
    """A colour as a student reads it in a sentence: "light blue"."""
    return COLOUR_NAMES[colour].lower().replace("_", " ")


def level_word(level: int) -> str:
    """A level as a student reads it in a sentence: "the yellow chakra", "the Bhagya"."""
    if level == BHAGYA:
        return "the Bhagya"
    if level == EARTH:
        return "the Earth"
    return f"the {colour_word(level)} chakra"


# --------------------------------------------------------------------------- channel spaces (chakra.md#channel)

SPACES = ("D3", "D1x3", "D2_D1", "U2", "U1x2", "D1_U1", "U1_or_D1", "SWAP")
SPACE_PATTERNS = {
    "D3": (((DOWN, 3),),),
    "D1x3": (((DOWN, 1), (DOWN, 1), (DOWN, 1)),),
    "D2_D1": (((DOWN, 2), (DOWN, 1)), ((DOWN, 1), (DOWN, 2))),
    "U2": (((UP, 2),),),
    "U1x2": (((UP, 1), (UP, 1)),),
    "D1_U1": (((DOWN, 1), (UP, 1)), ((UP, 1), (DOWN, 1))),
    "U1_or_D1": (((UP, 1),), ((DOWN, 1),)),
    "SWAP": (),
}
SPACE_EFFECTS = {
    "D3": "one energy down 3",
    "D1x3": "three different energies, each down 1",
    "D2_D1": "one energy down 2 and another down 1, in either order",
    "U2": "one energy up 2",
    "U1x2": "two different energies, each up 1",
    "D1_U1": "one energy down 1 and another up 1, in either order",
    "U1_or_D1": "one energy up 1 or down 1",
    "SWAP": "give up one alleviated black and take a chosen energy from the bag onto the Bhagya",
}
SPACE_WORDS = {  # a space's name as players say it, for boards and messages (the ids stay for code)
    "D3": "down 3",
    "D1x3": "down 1, three times",
    "D2_D1": "down 2 and down 1",
    "U2": "up 2",
    "U1x2": "up 1, twice",
    "D1_U1": "down 1 and up 1",
    "U1_or_D1": "up 1 or down 1",
    "SWAP": "swap",
}
SPACE_NUMBERS = {  # chakra.md#channel: the German game help and Board Game Arena number spaces 1-3 differently
    "D3": {"help": 3, "bga": 1},
    "D1x3": {"help": 1, "bga": 2},
    "D2_D1": {"help": 2, "bga": 3},
    "U2": {"help": 4, "bga": 4},
    "U1x2": {"help": 5, "bga": 5},
    "D1_U1": {"help": 6, "bga": 6},
    "U1_or_D1": {"help": 7, "bga": 7},
    "SWAP": {"help": 8, "bga": 8},
}
_SPACE_BY_ALIAS = {f"{scheme}:{n}": space for space, numbers in SPACE_NUMBERS.items() for scheme, n in numbers.items()}


def space_id(space: str) -> str:
    """The canonical id of a channel space; accepts the ids and the qualified aliases ``help:N`` / ``bga:N``."""
    if isinstance(space, str):
        if space in SPACE_PATTERNS:
            return space
        if space.strip().lower() in _SPACE_BY_ALIAS:
            return _SPACE_BY_ALIAS[space.strip().lower()]
    raise IllegalMove(
        f"there is no channel space {shown(space)}: the spaces are {', '.join(SPACES)} (or help:1-8 / bga:1-8)"
    )


# --------------------------------------------------------------------------- player board (chakra.md#programmers)


def is_harmonized(contents, level: int) -> bool:
    """Three energies of the chakra's own colour (chakra.md#programmers); ``contents`` is sorted or all alike."""
    return len(contents) == 3 and contents[0] == level and contents[1] == level and contents[2] == level


def run_of(harmonized) -> int:
    """Chakras harmonized consecutively from RED upwards (chakra.md#programmers), given the harmonized levels."""
    run = 0
    while run + 1 in harmonized:
        run += 1
    return run


@dataclass(frozen=True)
class PlayerBoard:
    """One player's board: the track from EARTH to BHAGYA and the Inspiration tokens (chakra.md#programmers)."""

    levels: tuple = ((),) * 9  # index 1-7 chakras, 8 Bhagya; sorted tuples of colour ids
    earth: int = 0
    reserve: int = 5
    spaces: frozenset = frozenset()
    notches: frozenset = frozenset()
    meditation: tuple = ()

    def free(self, level: int) -> int:
        """Free spaces on a chakra or bubbles on the Bhagya."""
        return CAPACITY - len(self.levels[level])

    def count(self, colour: int) -> int:
        """Energies of ``colour`` on the Bhagya and the chakras (the Earth excluded)."""
        return sum(contents.count(colour) for contents in self.levels)

    def colour_counts(self) -> list[int]:
        counts = [0] * 8
        for contents in self.levels:
            for colour in contents:
                counts[colour] += 1
        return counts

    def harmonized(self, level: int) -> bool:
        return 1 <= level <= 7 and is_harmonized(self.levels[level], level)

    def harmonized_levels(self) -> tuple:
        return tuple(level for level in CHAKRAS if is_harmonized(self.levels[level], level))

    def run(self) -> int:
        """Chakras harmonized consecutively from RED upwards (chakra.md#programmers)."""
        return run_of(self.harmonized_levels())

    def to_dict(self) -> dict:
        """The board with colour and level names, as saves and observations write it (a new dict of new lists)."""
        name = COLOUR_NAMES.__getitem__
        levels = self.levels
        return {
            "levels": {LEVEL_NAMES[level]: [*map(name, levels[level])] for level in range(1, 9)},
            "earth": self.earth,
            "reserve": self.reserve,
            "spaces": [space for space in SPACES if space in self.spaces] if self.spaces else [],
            "notches": [*map(LEVEL_NAMES.__getitem__, sorted(self.notches))],
            "meditation": [*map(name, self.meditation)],
        }


# --------------------------------------------------------------------------- level codes
# The searches over Channel steps (the move generator's and the greedy bot's) move single energies
# thousands of times a decision. A level holds at most three energies of eight colours, so its
# contents are one of 165 sorted tuples. The searches number them (a "code") and read what they need
# (size, colour counts, the contents less or plus one energy) from flat tables indexed by code:
# several times cheaper than building and hashing tuples, or editing lists, at every step.


def _all_contents() -> tuple:
    return tuple(combo for size in range(CAPACITY + 1) for combo in combinations_with_replacement(range(8), size))


def _less(contents: tuple, colour: int) -> tuple:
    rest = list(contents)
    rest.remove(colour)
    return tuple(rest)


LEVEL_CONTENTS = _all_contents()  # code -> sorted contents; code 0 is the empty level
CONTENTS_CODE = {contents: code for code, contents in enumerate(LEVEL_CONTENTS)}
CODES = len(LEVEL_CONTENTS)
CODE_SIZE = tuple(len(contents) for contents in LEVEL_CONTENTS)
CODE_COLOURS = tuple(tuple(sorted(set(contents))) for contents in LEVEL_CONTENTS)  # distinct colours, increasing
CODE_HAS_BLACK = tuple(BLACK in contents for contents in LEVEL_CONTENTS)
# [code * 8 + colour]: how many energies of colour; the code without one of them (-1: none); with one more (-1: full)
CODE_COUNT = tuple(contents.count(colour) for contents in LEVEL_CONTENTS for colour in range(8))
CODE_WITHOUT = tuple(
    CONTENTS_CODE[_less(contents, colour)] if colour in contents else -1
    for contents in LEVEL_CONTENTS
    for colour in range(8)
)
CODE_WITH = tuple(
    CONTENTS_CODE[tuple(sorted(contents + (colour,)))] if len(contents) < CAPACITY else -1
    for contents in LEVEL_CONTENTS
    for colour in range(8)
)
HARMONY_CODE = tuple(CONTENTS_CODE[(level,) * CAPACITY] if level in CHAKRAS else -1 for level in range(BHAGYA + 1))
BLACK_ONLY = (BLACK,)


def level_codes(levels) -> list:
    """The code of each level's contents (:data:`CONTENTS_CODE`), as a list the searches edit and restore."""
    try:
        return [CONTENTS_CODE[contents] for contents in levels]  # a board's levels are sorted tuples
    except (KeyError, TypeError):  # a board built by hand: lists, or energies out of order
        return [CONTENTS_CODE[tuple(sorted(contents))] for contents in levels]
