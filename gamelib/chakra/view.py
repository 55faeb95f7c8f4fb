"""What a player sees: ``observation(state, player)`` (a JSON-ready dict, chakra.md#hidden-values), the text board of ``str(state)``,
and :func:`describe_action`, an action in the words a player uses (``str(action)`` keeps the compact code form)."""

from __future__ import annotations

from gamelib.core import CHANCE, TERMINAL
from gamelib.chakra.actions import Channel, Meditate, Receive, Step
from gamelib.chakra.components import (
    BHAGYA,
    CAPACITY,
    CHAKRAS,
    COLOUR_NAMES,
    DOWN,
    LETTERS,
    LEVEL_NAMES,
    SPACE_WORDS,
    SPACES,
    colour_word,
    level_word,
)


def observation(state, player: int) -> dict:
    """Everything ``player`` may know: the whole table except the plenitude values outside their
    Meditation tokens (all shown once the game is over) and the seed, which would reveal future draws."""
    if type(player) is not int or not 0 <= player < state.num_players:
        raise ValueError(f"there is no seat {player!r} in a {state.num_players}-player game")
    known = state.known_plenitude(player)
    name = COLOUR_NAMES.__getitem__
    return {
        "seat": player,
        "current_player": state.current_player,
        "rules": state.rules.to_dict(),
        "bag": dict(zip(COLOUR_NAMES, state.bag)),
        "maya": [[*map(name, column)] for column in state.maya],
        "plenitude": {COLOUR_NAMES[level]: known.get(level) for level in CHAKRAS},
        "unused_plenitude": state.unused_plenitude if state.finished else None,
        "removed_blacks": state.removed_blacks,
        "first_player": state.first_player,
        "to_move": state.to_move,
        "turns": list(state.turns),
        "end_triggered": state.end_triggered,
        "finished": state.finished,
        "players": [board.to_dict() for board in state.players],
    }


def energies(contents, capacity=CAPACITY) -> str:
    """Letters of the energies with a dot for each empty space: 'R K .'."""
    return " ".join([LETTERS[c] for c in contents] + ["."] * (capacity - len(contents)))


def text_board(state, viewer: int | None = None) -> str:
    """The Lotus board, then each player's track, BHAGYA on top; ``viewer`` hides what that seat does not know."""
    lines = [_status_line(state, viewer)]
    lines.append(
        "Bag: "
        + " ".join(f"{LETTERS[c]}{k}" for c, k in enumerate(state.bag))
        + f" ({sum(state.bag)} energies)"
        + (f"; {state.removed_blacks} black(s) out of the game" if state.removed_blacks else "")
    )
    lines.append("Maya: " + "   ".join(f"column {i} [{energies(column)}]" for i, column in enumerate(state.maya)))
    known = state.known_plenitude(viewer) if viewer is not None else dict(zip(CHAKRAS, state.plenitude))
    lines.append("Plenitude: " + " ".join(f"{COLOUR_NAMES[level]} {known.get(level, '?')}" for level in CHAKRAS))
    for seat, board in enumerate(state.players):
        lines += _player_lines(state, seat, board)
    return "\n".join(lines)


def _status_line(state, viewer) -> str:
    if state.current_player == TERMINAL:
        status = (
            f"game over after {state.rounds_completed} rounds; scores {list(state.scores())}, "
            f"winner(s) {list(state.winners)}"
        )
    elif state.current_player == CHANCE:
        status = f"seat {state.to_move} waits for the Maya refill (chance)"
    else:
        status = f"seat {state.to_move} to act"
    line = f"Chakra, {state.num_players} players, first player {state.first_player}; {status}" + (
        "; the end is triggered" if state.end_triggered and not state.finished else ""
    )
    return line + (f" (seen by seat {viewer})" if viewer is not None else "")


def _player_lines(state, seat: int, board) -> list[str]:
    marker = " <- to act" if seat == state.to_move and not state.finished else ""
    lines = [
        f"Seat {seat}{marker}: reserve {board.reserve}, turns {state.turns[seat]}, "
        f"spaces taken [{'; '.join(SPACE_WORDS[s] for s in SPACES if s in board.spaces)}], "
        f"meditation [{' '.join(COLOUR_NAMES[c] for c in board.meditation)}]"
    ]
    for level in range(BHAGYA, 0, -1):
        notes = (["notch token"] if level in board.notches else []) + (
            ["harmonized"] if board.harmonized(level) else []
        )
        lines.append(
            f"  {LEVEL_NAMES[level]:<10} {energies(board.levels[level])}"
            + (f"   ({', '.join(notes)})" if notes else "")
        )
    lines.append(f"  {'EARTH':<10} {board.earth} black(s)")
    return lines


# --------------------------------------------------------------------------- actions in words


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def describe_step(step: Step) -> str:
    """'the yellow energy on the green chakra down 1'."""
    way = "down" if step.direction == DOWN else "up"
    return f"the {colour_word(step.colour)} energy on {level_word(step.level)} {way} {step.distance}"


def describe_action(action) -> str:
    """An action as a player says it: 'receive black and green from Maya column 0 onto the Bhagya',
    'channel "down 2 and down 1": the yellow energy on the green chakra down 1, then ...', 'meditate: take the
    red Meditation token'. Anything else is shown as ``str``."""
    if isinstance(action, Receive):
        colours = _listed([colour_word(c) for c in sorted(action.colours)])
        return f"receive {colours} from Maya column {action.column} onto {level_word(action.destination)}"
    if isinstance(action, Channel):
        if action.space == "SWAP":
            taken = "an energy" if action.bag_colour is None else f"a {colour_word(action.bag_colour)} energy"
            return f"swap: give up an alleviated black and take {taken} from the bag onto the Bhagya"
        steps = ", then ".join(describe_step(step) for step in action.steps)
        return f"channel \u201c{SPACE_WORDS[action.space]}\u201d: {steps}"
    if isinstance(action, Meditate):
        if action.colour is None:
            return "meditate (every Meditation colour is already taken)"
        return f"meditate: take back the channel tokens and the {colour_word(action.colour)} Meditation token"
    return str(action)
