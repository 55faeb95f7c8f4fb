"""Write notebooks/studio/data/pig_playtests_sample.jsonl: a made-up class session of Pig to 20.

The studio's first notebook analyses playtest files before a class has recorded any, so it ships
this one. It is *not* people's play: two scripted players stand in for a pair of students (one
holds at a turn total of 6, the other at 12), playing on a real ``studio.Board`` through the same
picks a click sends, with thinking times drawn at random (0.8-6 s) and made-up survey answers.
The notebook says so. Run from the repository root: ``python tools/make_playtest_sample.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

from gamelib.studio.board import Board
from gamelib.studio.examples import pig

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "studio" / "data" / "pig_playtests_sample.jsonl"
GAMES = 6
HOLD_AT = (6, 12)  # the two stand-in players' turn totals to hold at


def main() -> Path:
    rng = random.Random(2022)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.unlink(missing_ok=True)
    board = Board(pig, seed=101, rules=pig.Rules(goal=20), names=["anon-4KQ7", "anon-9TXM"], label="sample")
    recorder = board.record(OUT)
    clock = [0.0]
    recorder.clock = lambda: clock[0]
    recorder.restart_clock()
    for number in range(GAMES):
        while not board.match.state.is_terminal:
            state = board.match.state
            labels = [move["label"] for move in board.state["moves"]]
            hold = "hold" in labels and state.position.turn_total >= HOLD_AT[state.current_player]
            clock[0] += round(rng.uniform(0.8, 6.0), 2)
            board.pick = {"kind": "move", "index": labels.index("hold") if hold else 0, "ply": board.state["ply"]}
        answers = {question: rng.randint(2, 5) for question in ("fun", "tension", "fairness", "clarity")}
        board.pick = {
            "kind": "survey",
            **answers,
            "comment": rng.choice(
                [
                    "rolling a 1 hurts",
                    "close at the end",
                    "holding early felt safe",
                    "the first player seemed ahead",
                    "",
                ]
            ),
        }
        if number + 1 < GAMES:
            board.pick = {"kind": "new_game"}
            recorder.restart_clock()
    return OUT


if __name__ == "__main__":
    print(main())
