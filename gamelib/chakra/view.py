"""What a player sees: ``observation(state, player)`` (a JSON-ready dict, §14.6) and the text board of ``str(state)``."""

from __future__ import annotations

from gamelib.core import CHANCE, TERMINAL
from gamelib.chakra.components import BHAGYA, CAPACITY, CHAKRAS, COLOUR_NAMES, LETTERS, LEVEL_NAMES, SPACES


def observation(state, player: int) -> dict:
    """Everything ``player`` may know: the whole table except the plenitude values outside their
    Meditation tokens (all shown once the game is over) and the seed, which would reveal future draws."""
    if type(player) is not int or not 0 <= player < state.num_players:
        raise ValueError(f"there is no seat {player!r} in a {state.num_players}-player game")
    known = state.known_plenitude(player)
    return {
        "seat": player,
        "current_player": state.current_player,
        "rules": state.rules.to_dict(),
        "bag": {COLOUR_NAMES[c]: n for c, n in enumerate(state.bag)},
        "maya": [[COLOUR_NAMES[c] for c in column] for column in state.maya],
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
    lines.append("Bag: " + " ".join(f"{LETTERS[c]}{k}" for c, k in enumerate(state.bag)) + f" ({sum(state.bag)} energies)"
                 + (f"; {state.removed_blacks} black(s) out of the game" if state.removed_blacks else ""))
    lines.append("Maya: " + "   ".join(f"c{i} [{energies(column)}]" for i, column in enumerate(state.maya)))
    known = state.known_plenitude(viewer) if viewer is not None else dict(zip(CHAKRAS, state.plenitude))
    lines.append("Plenitude: " + " ".join(f"{COLOUR_NAMES[level]} {known.get(level, '?')}" for level in CHAKRAS))
    for seat, board in enumerate(state.players):
        lines += _player_lines(state, seat, board)
    return "\n".join(lines)


def _status_line(state, viewer) -> str:
    if state.current_player == TERMINAL:
        status = (f"game over after {state.rounds_completed} rounds; scores {state.scores()}, "
                  f"winner(s) {list(state.winners)}")
    elif state.current_player == CHANCE:
        status = f"seat {state.to_move} waits for the Maya refill (chance)"
    else:
        status = f"seat {state.to_move} to act"
    line = (f"Chakra, {state.num_players} players, first player {state.first_player}; {status}"
            + ("; the end is triggered" if state.end_triggered and not state.finished else ""))
    return line + (f" (seen by seat {viewer})" if viewer is not None else "")


def _player_lines(state, seat: int, board) -> list[str]:
    marker = " <- to act" if seat == state.to_move and not state.finished else ""
    lines = [f"Seat {seat}{marker}: reserve {board.reserve}, turns {state.turns[seat]}, "
             f"spaces [{' '.join(s for s in SPACES if s in board.spaces)}], "
             f"meditation [{' '.join(COLOUR_NAMES[c] for c in board.meditation)}]"]
    for level in range(BHAGYA, 0, -1):
        notes = (["notch token"] if level in board.notches else []) + (["harmonized"] if board.harmonized(level) else [])
        lines.append(f"  {LEVEL_NAMES[level]:<10} {energies(board.levels[level])}"
                     + (f"   ({', '.join(notes)})" if notes else ""))
    lines.append(f"  {'EARTH':<10} {board.earth} black(s)")
    return lines
