"""Write notebooks/course/data/playtests/: a GENERATED class playtest of Pig, for course session 11.

Session 11 analyses a class's pooled playtest files before any class has recorded its own, so it
ships this sample. It is *not* people's play, and the notebook says so: scripted stand-ins for six
pairs of students play on a real ``studio.Board`` (the same picks a click sends), recorded by the
board's own recorder. Each stand-in has a habit drawn from a seeded generator, modelled on what
playtests of Pig usually show: beginners hold early (a personal threshold from 8 to 18, higher when
well behind), they hesitate near their threshold and at the start of a game (thinking times drawn
around that), and their survey answers follow the game's closeness with noise. A blind A/B: each
pair plays two games of variant A (Pig to 20) and two of variant B (Pig to 30), in the order ABBA or
BAAB, one file per variant, without being told which is which.

Run from the repository root: ``python tools/make_course_playtests.py`` (seeded: the same moves,
times and answers every run; only each file's "started" time stamp differs).
"""

from __future__ import annotations

import random
from pathlib import Path

from gamelib.studio.board import Board
from gamelib.studio.examples import pig

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "course" / "data" / "playtests"
VARIANTS = {"A": pig.Rules(goal=20), "B": pig.Rules(goal=30)}
PAIRS = 6
GAMES_PER_VARIANT = 2
COMMENTS = {
    "close": ["it came down to the last roll", "close at the end", "I was sure I had it"],
    "lopsided": ["it was over early", "I never caught up", "going first felt like a big help"],
    "any": ["rolling a 1 hurts", "holding early felt safe", "I kept thinking a 1 was due", ""],
}


class StandIn:
    """A scripted player with one habit: hold at a personal threshold, braver when well behind."""

    def __init__(self, rng: random.Random, code: str):
        self.code = code
        self.hold_at = rng.randint(8, 18)
        self.bravery_behind = rng.randint(2, 8)
        self.pace = rng.uniform(0.8, 1.6)  # a slow or quick thinker

    def threshold(self, me: int, other: int) -> int:
        return self.hold_at + (self.bravery_behind if other - me >= 10 else 0)

    def wants_to_hold(self, position, goal: int) -> bool:
        me, other = position.scores[position.player], position.scores[1 - position.player]
        return position.turn_total >= min(self.threshold(me, other), goal - me)

    def seconds(self, rng: random.Random, position, first: bool) -> float:
        me, other = position.scores[position.player], position.scores[1 - position.player]
        near = abs(position.turn_total - self.threshold(me, other)) <= 2 and position.turn_total > 0
        base = rng.lognormvariate(0.0, 0.45) * self.pace
        return round(base + (rng.uniform(1.5, 4.0) if near else 0) + (rng.uniform(1.0, 3.0) if first else 0), 2)


def survey(rng: random.Random, final, goal: int) -> dict:
    """The pair's answers to the board's survey: closer games are more fun and tense, with noise."""
    margin = abs(final.position.scores[0] + final.position.turn_total - final.position.scores[1]) / goal
    close = margin < 0.35

    def clip(value):
        return max(1, min(5, value))

    return {
        "fun": clip(3 + close + rng.choice([-1, 0, 0, 1])),
        "tension": clip(2 + 2 * close + rng.choice([-1, 0, 1])),
        "fairness": clip(4 - (not close) + rng.choice([-1, 0, 0, 1])),
        "clarity": clip(4 + rng.choice([0, 0, 1, -1])),
        "comment": rng.choice(COMMENTS["close" if close else "lopsided"] + COMMENTS["any"]),
    }


def play_file(path: Path, rules, players: list[StandIn], rng: random.Random, seed: int) -> None:
    board = Board(pig, seed=seed, rules=rules, names=[player.code for player in players], label="course 11")
    recorder = board.record(path)
    clock = [0.0]
    recorder.clock = lambda: clock[0]
    recorder.restart_clock()
    for number in range(GAMES_PER_VARIANT):
        first = {0: True, 1: True}
        while not board.match.state.is_terminal:
            state = board.match.state
            position = state.position
            player = players[state.current_player]
            labels = [move["label"] for move in board.state["moves"]]
            hold = "hold" in labels and player.wants_to_hold(position, rules.goal)
            clock[0] += player.seconds(rng, position, first[state.current_player])
            first[state.current_player] = False
            board.pick = {"kind": "move", "index": labels.index("hold") if hold else 0, "ply": board.state["ply"]}
        board.pick = {"kind": "survey", **survey(rng, board.match.state, rules.goal)}
        if number + 1 < GAMES_PER_VARIANT:
            board.pick = {"kind": "new_game"}
            recorder.restart_clock()


def main() -> Path:
    rng = random.Random(2311)
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.jsonl"):
        old.unlink()
    letters = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    for pair in range(1, PAIRS + 1):
        players = [StandIn(rng, "anon-" + "".join(rng.choice(letters) for _ in range(4))) for _ in range(2)]
        order = "AB" if pair % 2 else "BA"
        for index, variant in enumerate(order):
            seated = players if index == 0 else players[::-1]  # the pair swaps seats for the second variant
            play_file(OUT / f"pair{pair}_{variant}.jsonl", VARIANTS[variant], seated, rng, seed=1000 * pair + index)
    return OUT


if __name__ == "__main__":
    print(main())
