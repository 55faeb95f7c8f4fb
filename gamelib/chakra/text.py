"""The readable text board of ``str(state)``: the Lotus board, then each player's track, BHAGYA on top."""

from __future__ import annotations

from gamelib.core import CHANCE, TERMINAL
from gamelib.chakra.rules import BHAGYA, CAPACITY, CHAKRAS, COLOUR_NAMES, LETTERS, LEVEL_NAMES, SPACES


def energies(contents, capacity=CAPACITY) -> str:
    """Letters of the energies with a dot for each empty space: 'R K .'."""
    return " ".join([LETTERS[c] for c in contents] + ["."] * (capacity - len(contents)))


def board_text(state) -> str:
    n = state.num_players
    if state.current_player == TERMINAL:
        status = f"game over after {state.rounds_completed} rounds; scores {state.scores()}, winner(s) {list(state.winner)}"
    elif state.current_player == CHANCE:
        status = f"seat {state.to_move} waits for the Maya refill (chance)"
    else:
        status = f"seat {state.to_move} to act"
    lines = [f"Chakra, {n} players, first player {state.first_player}; {status}"
             + ("; the end is triggered" if state.end_triggered and not state.finished else "")]
    if state.viewer is not None:
        lines[0] += f" (seen by seat {state.viewer})"
    lines.append("Bag: " + " ".join(f"{LETTERS[c]}{k}" for c, k in enumerate(state.bag)) + f" ({sum(state.bag)} energies)"
                 + (f"; {state.removed_blacks} black(s) out of the game" if state.removed_blacks else ""))
    lines.append("Maya: " + "   ".join(f"c{i} [{energies(column)}]" for i, column in enumerate(state.maya)))
    lines.append("Plenitude: " + " ".join(
        f"{COLOUR_NAMES[level]} {'?' if value is None else value}" for level, value in zip(CHAKRAS, state.plenitude)))
    for seat, board in enumerate(state.players):
        marker = " <- to act" if seat == state.to_move and not state.finished else ""
        lines.append(f"Seat {seat}{marker}: reserve {board.reserve}, turns {state.turns[seat]}, "
                     f"spaces [{' '.join(s for s in SPACES if s in board.spaces)}], "
                     f"meditation [{' '.join(COLOUR_NAMES[c] for c in board.meditation)}]")
        for level in range(BHAGYA, 0, -1):
            notes = []
            if level in board.notches:
                notes.append("notch token")
            if board.harmonized(level):
                notes.append("harmonized")
            lines.append(f"  {LEVEL_NAMES[level]:<10} {energies(board.levels[level])}"
                         + (f"   ({', '.join(notes)})" if notes else ""))
        lines.append(f"  {'EARTH':<10} {board.earth} black(s)")
    return "\n".join(lines)

