"""Positions built by hand for lessons and tests: ``position([{"GREEN": "Y K", "EARTH": 2}, ...])``."""

from __future__ import annotations

from gamelib.chakra.components import (
    BLACK,
    COLOURS,
    ENERGIES_PER_COLOUR_PER_PLAYER,
    SPACES,
    PlayerBoard,
    colour_id,
    level_id,
    space_id,
)
from gamelib.chakra.rules import Rules, State


def position(
    players: list[dict] | None = None,
    *,
    num_players: int = 2,
    to_move: int = 0,
    maya=None,
    bag=None,
    plenitude=(1, 2, 3, 1, 2, 4, 3),
    unused_plenitude: int = 4,
    rules: Rules | None = None,
    seed=0,
    **state_fields,
) -> State:
    """Build a position by hand (lessons, tests): ``players`` is a list of dicts such as
    ``{"GREEN": "Y K", "EARTH": 2, "reserve": 4, "spaces": ["D3"], "notches": ["YELLOW"],
    "meditation": ["RED"]}``; missing players get empty boards. ``bag`` defaults to every
    energy not on a board or in the Maya, so the counts stay conserved (chakra.md#programmers)."""
    rules = Rules() if rules is None else rules
    specs = list(players or [])
    num_players = max(num_players, len(specs))
    specs += [{}] * (num_players - len(specs))
    boards = tuple(_board_from_spec(spec, rules) for spec in specs)
    maya = tuple(tuple(sorted(colour_id(c) for c in _letters(column))) for column in (maya or ((), (), ())))
    if bag is None:
        counts = [ENERGIES_PER_COLOUR_PER_PLAYER * num_players] * 8
        for board in boards:
            for c, n in enumerate(board.colour_counts()):
                counts[c] -= n
            counts[BLACK] -= board.earth
        for column in maya:
            for c in column:
                counts[c] -= 1
        if min(counts) < 0:
            raise ValueError("this position holds more energies of a colour than the game has")
        bag = tuple(counts)
    elif isinstance(bag, dict):
        bag = tuple(sum(n for key, n in bag.items() if colour_id(key) == c) for c in COLOURS)
    return State(
        rules=rules,
        players=boards,
        bag=tuple(bag),
        maya=maya,
        plenitude=tuple(plenitude),
        unused_plenitude=unused_plenitude,
        to_move=to_move,
        turns=tuple(state_fields.pop("turns", (0,) * num_players)),
        seed=seed,
        **state_fields,
    )


def _letters(text) -> list:
    if isinstance(text, str):
        return text.split()
    return list(text)


def _board_from_spec(spec: dict, rules: Rules) -> PlayerBoard:
    levels = [()] * 9
    extra = {"earth": 0, "spaces": frozenset(), "notches": frozenset(), "meditation": ()}
    reserve = None
    for key, value in spec.items():
        word = key.upper()
        if word == "EARTH":
            extra["earth"] = value
        elif word == "RESERVE":
            reserve = value
        elif word == "SPACES":
            extra["spaces"] = frozenset(space_id(s) for s in value)
        elif word == "NOTCHES":
            extra["notches"] = frozenset(level_id(level) for level in value)
        elif word == "MEDITATION":
            extra["meditation"] = tuple(sorted(colour_id(c) for c in value))
        else:
            level = level_id(key)
            levels[level] = tuple(sorted(colour_id(c) for c in _letters(value)))
    if reserve is None:
        reserve = rules.inspiration_tokens - len(extra["spaces"]) - len(extra["notches"])
    elif "spaces" not in {key.lower() for key in spec}:
        # chakra.md#examples: tokens not mentioned lie on channel spaces the vector does not use (taken from SWAP backwards)
        missing = rules.inspiration_tokens - reserve - len(extra["notches"])
        extra["spaces"] = frozenset(SPACES[::-1][: max(0, missing)])
    return PlayerBoard(levels=tuple(levels), reserve=reserve, **extra)
