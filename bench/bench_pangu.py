"""Pangu benchmark: speed against a plain engine, lookahead against today's figure, and bot win rates.

Run: ``.venv/bin/python bench/bench_pangu.py`` (``--quick`` for a short run, ``--skip-win-rates``).
Timings are medians over several runs of CPU seconds of this process (``time.process_time``), so
other jobs on a shared machine do not skew them.

* Random and greedy play are compared, in the same process, with a plain engine written for this
  bench from the rules spec alone (``PlainGame`` below: default rules, one mutable game changed in
  place, no validation, no log, one generator per game). It is the honest reference of what the
  rules cost in plain Python; gamelib pays on top for immutable states, checked moves, the log and
  a chance stream that any draw can be replayed from. The bench first feeds the plain engine
  gamelib's own chance stream (``SeededChance``) and checks that both make identical moves on
  identical deals; the timed runs give it its own generator (``PlainChance``).
* One-turn lookahead decisions are compared with the figure of the code before issue 8 (commit
  a051ccf, measured on this 2-core machine with this bench's method). Target: at least 4x.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from gamelib import core
from gamelib.core import chance_rng
from gamelib.pangu import SINGLE_VARIANTS, Rules, greedy_policy, lookahead_policy, new_game, random_policy
from gamelib.pangu.bots import TurnPlanner, _shared_planner, tournament
from gamelib.pangu.cards import TEACHING_DECK_PATH
from gamelib.simulate import seeds

# Lookahead decisions per CPU second before issue 8 (commit a051ccf), on the decision states of
# decision_states() below: 12 positions with 2 cards left, 20 at a turn start with 3 cards.
BEFORE_DECISIONS_PER_SECOND = {2: 248.6, 3: 17.8}

SPEC_12 = {"random": "≈3%", "greedy": "≈61%", "lookahead": "≈70%"}
SPEC_12_GREEDY = {
    "defaults": "≈61%",
    "per_placement": "≈88%",
    "before_placement": "≈54%",
    "before_turn": "≈23%",
    "after_recovery": "≈71%",
    "rotation": "≈65%",
    "reroll_penalty_1": "≈58%",
    "centre_match_2": "≈92%",
    "YANG_LEFT": "≈61%",
    "RANDOM_centre": "(not given)",
    "4x3": "≈62%",
}


# --------------------------------------------------------------------------- the plain engine (default rules)

ROWS, COLS = 3, 4
YIN_CELL, YANG_CELL = 5, 6  # (1,1) and (1,2), row-major
RING = [i for i in range(ROWS * COLS) if i not in (YIN_CELL, YANG_CELL)]
STEPS = ((0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1))  # edge TOP, RIGHT, BOTTOM, LEFT; dr, dc
NEIGHBOURS = [
    [(edge, (r + dr) * COLS + c + dc) for edge, dr, dc in STEPS if 0 <= r + dr < ROWS and 0 <= c + dc < COLS]
    for r in range(ROWS)
    for c in range(COLS)
]
ROLLS = [(blue, white) for blue in range(1, 7) for white in range(1, 7)]
EDGES = ("TOP", "RIGHT", "BOTTOM", "LEFT")


def load_cards():
    """Card id -> (blue, white, (colour on TOP, RIGHT, BOTTOM, LEFT)), in file order."""
    records = json.loads(TEACHING_DECK_PATH.read_text(encoding="utf-8"))["cards"]  # the shipped deck (spec 3)
    return {r["id"]: (r["blue"], r["white"], tuple(r["half"][e] for e in EDGES)) for r in records}


CARDS = load_cards()


class SeededChance:
    """gamelib's chance stream: the n-th chance event draws from ``chance_rng(seed, n)``.

    Used only to check that the two engines make identical moves on identical deals.
    """

    def __init__(self, seed):
        self.seed, self.draws = seed, 0

    def _next(self) -> random.Random:
        rng = chance_rng(self.seed, self.draws)
        self.draws += 1
        return rng

    def shuffle(self, cards: list) -> None:
        self._next().shuffle(cards)

    def roll(self) -> tuple[int, int]:
        return ROLLS[self._next().randrange(36)]


class PlainChance:
    """What a plain engine would do: one generator per game, seeded once."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def shuffle(self, cards: list) -> None:
        self.rng.shuffle(cards)

    def roll(self) -> tuple[int, int]:
        return ROLLS[self.rng.randrange(36)]


class PlainGame:
    """A default-rules Pangu game written straight from the rules: one mutable object, changed in
    place by ``play``; no validation, no log, no history."""

    __slots__ = ("chance", "deck", "revealed", "grid", "karma", "roll", "status")

    def __init__(self, chance):
        self.chance = chance
        self.deck = list(CARDS)
        chance.shuffle(self.deck)
        self.grid = [None] * (ROWS * COLS)
        self.grid[YIN_CELL], self.grid[YANG_CELL] = "YIN", "YANG"
        self.karma, self.roll, self.status = 10, None, "ONGOING"
        self.start_turn()

    def start_turn(self):
        size = min(3, len(self.deck) - 1) if len(self.deck) > 1 else 1
        self.revealed, self.deck = self.deck[:size], self.deck[size:]
        self.roll = self.chance.roll()
        self.reroll_while_stuck()

    def reroll_while_stuck(self):
        while all(self.roll == CARDS[card][:2] for card in self.revealed):
            self.roll = self.chance.roll()

    def legal_cells(self):
        grid = self.grid
        return [i for i in RING if grid[i] is None and any(grid[j] is not None for _, j in NEIGHBOURS[i])]

    def legal_actions(self):
        """(card, die, cell) in spec 8 order: revealed order, BLUE before WHITE, cells row-major."""
        cells = [divmod(i, COLS) for i in self.legal_cells()]
        actions = []
        for card in self.revealed:
            blue, white, _ = CARDS[card]
            if self.roll[0] != blue:
                actions += [(card, "BLUE", cell) for cell in cells]
            if self.roll[1] != white:
                actions += [(card, "WHITE", cell) for cell in cells]
        return actions

    def cost(self, card, die):
        blue, white, _ = CARDS[card]
        return abs(self.roll[0] - blue) if die == "BLUE" else abs(self.roll[1] - white)

    def recovery(self, card, index):
        half, rec = CARDS[card][2], 0
        for edge, other in NEIGHBOURS[index]:
            entry = self.grid[other]
            if entry is None:
                continue
            theirs = entry if entry in ("YIN", "YANG") else CARDS[entry][2][(edge + 2) % 4]
            rec += half[edge] == theirs
        return rec

    def play(self, action):
        card, die, (row, col) = action
        self.karma -= self.cost(card, die)
        if self.karma <= 0:
            self.status = "LOST"
            return
        index = row * COLS + col
        self.grid[index] = card
        self.revealed.remove(card)
        self.karma = min(10, self.karma + self.recovery(card, index))
        if all(self.grid[i] is not None for i in RING):
            self.status = "WON"
        elif not self.revealed:
            self.start_turn()
        else:
            self.reroll_while_stuck()


def plain_greedy(game, rng=None):
    """Cheapest legal die (BLUE on a tie), the best rec - cost now, the first such in spec 8 order."""
    best, best_score = None, None
    cells = game.legal_cells()
    for card in game.revealed:
        blue, white, _ = CARDS[card]
        options = [
            (die, game.cost(card, die))
            for die, value, number in (("BLUE", game.roll[0], blue), ("WHITE", game.roll[1], white))
            if value != number
        ]
        if not options:
            continue
        die, cost = min(options, key=lambda option: option[1])
        for index in cells:
            score = game.recovery(card, index) - cost
            if best_score is None or score > best_score:
                best, best_score = (card, die, divmod(index, COLS)), score
    return best


def plain_play(chance, policy, rng):
    """Play a game to the end; return the final game and its moves."""
    game, moves = PlainGame(chance), []
    while game.status == "ONGOING":
        action = policy(game, rng)
        moves.append(action)
        game.play(action)
    return game, moves


# --------------------------------------------------------------------------- measuring


def median_rate(work, count: int, runs: int) -> float:
    """Median over ``runs`` of ``count / CPU seconds`` for ``work()``."""
    rates = []
    for _ in range(runs):
        start = time.process_time()
        work()
        rates.append(count / (time.process_time() - start))
    return statistics.median(rates)


def gamelib_moves(seed, policy):
    moves = []
    final = core.play(
        new_game(seed=seed),
        policy,
        seed=seed,
        on_action=lambda _state, action: moves.append((action.card, action.die, action.cell)),
    )
    return final, moves


def check_identical_moves(game_seeds) -> None:
    """Both engines, same deals, same policy generator: the same moves and the same ends."""
    for seed in game_seeds:
        for policy, plain_policy in ((random_policy, random_policy), (greedy_policy, plain_greedy)):
            final, moves = gamelib_moves(seed, policy)
            plain_final, plain_moves = plain_play(SeededChance(seed), plain_policy, random.Random(seed))
            assert moves == plain_moves, f"the engines disagree on deal {seed}"
            assert (final.status, final.karma) == (plain_final.status, plain_final.karma), seed


def decision_states(count: int, cards_left: int) -> list:
    """Decision points of greedy games with ``cards_left`` revealed cards, in turns 1-3."""
    states = []
    for seed in range(10_000):
        state = new_game(seed=seed)
        while not state.is_terminal and state.turn <= 3:
            if len(state.revealed) == cards_left:
                states.append(state)
                break
            state = state.apply(greedy_policy(state))
        if len(states) == count:
            return states
    return states


def bench_speed(quick: bool) -> None:
    runs = 3 if quick else 7
    games = 300 if quick else 1000
    game_seeds = seeds(1, games)
    check_identical_moves(game_seeds[: 100 if quick else 300])
    print(f"== Speed (median of {runs} runs, CPU time, one core) ==")
    print(f"the plain engine and gamelib made identical moves on {100 if quick else 300} deals (random and greedy)")
    for name, policy, plain_policy in (
        ("random", random_policy, random_policy),
        ("greedy", greedy_policy, plain_greedy),
    ):
        ours = median_rate(lambda: [core.play(new_game(seed=s), policy, seed=s) for s in game_seeds], games, runs)
        plain = median_rate(
            lambda: [plain_play(PlainChance(s), plain_policy, random.Random(s)) for s in game_seeds], games, runs
        )
        print(
            f"{name:7s} play: gamelib {ours:7.0f} games/s, plain engine {plain:7.0f} games/s "
            f"-> the plain engine is {plain / ours:.2f}x faster"
        )

    for cards_left, count in ((2, 12), (3, 20)):  # the positions BEFORE_DECISIONS_PER_SECOND was measured on
        states = decision_states(count, cards_left)
        rate = median_rate(lambda: [TurnPlanner().best_action(s) for s in states], len(states), runs)
        before = BEFORE_DECISIONS_PER_SECOND[cards_left]
        print(
            f"lookahead, {cards_left} cards left: {rate:7.1f} decisions/s; before issue 8 {before:6.1f}/s "
            f"-> {rate / before:.1f}x faster   (target >= 4x)"
        )
    two_left = decision_states(4, cards_left=2)
    naive = median_rate(lambda: [TurnPlanner(naive=True).best_action(s) for s in two_left], len(two_left), 1)
    fast = median_rate(lambda: [TurnPlanner().best_action(s) for s in two_left], len(two_left), runs)
    print(f"lookahead against the naive planner (public apply, no memo, 2 cards left): {fast / naive:.0f}x faster")
    lookahead_seeds = iter(seeds(3, 100))

    def one_fresh_game():
        _shared_planner.memo.clear()
        seed = next(lookahead_seeds)
        core.play(new_game(seed=seed), lookahead_policy, seed=seed)

    print(
        f"lookahead policy in play: {median_rate(one_fresh_game, 1, runs * 2):6.1f} games/s "
        "(10 decisions each; memo shared within a game)"
    )
    start, cpu_start = time.perf_counter(), time.process_time()
    tournament({"greedy": greedy_policy}, Rules(), games=10_000, seed=2, show_progress=False)
    print(
        f"10,000-game greedy tournament: {time.process_time() - cpu_start:.2f} s CPU, "
        f"{time.perf_counter() - start:.2f} s wall"
    )


def bench_win_rates(quick: bool) -> None:
    print("\n== Win rates under the default rules (95% Wilson intervals) ==")
    sizes = {"random": 10_000, "greedy": 10_000, "lookahead": 2_000}
    if quick:
        sizes = {"random": 1000, "greedy": 1000, "lookahead": 100}
    policies = {"random": random_policy, "greedy": greedy_policy, "lookahead": lookahead_policy}
    for name, policy in policies.items():
        start = time.perf_counter()
        result = tournament({name: policy}, Rules(), games=sizes[name], seed=12, show_progress=False)[0]
        spread = sorted(result.final_karma.items())
        print(
            f"{name:10s} {result.win_rate.percent():40s} spec 12 {SPEC_12[name]:>5s}  "
            f"({time.perf_counter() - start:.0f} s)"
        )
        print(f"{'':10s} final Karma -> games: {dict(spread)}")
    print("\n== Greedy under each one-parameter variant ==")
    games = 500 if quick else 4000
    for name, rules in SINGLE_VARIANTS.items():
        result = tournament({"greedy": greedy_policy}, rules, games=games, seed=13, show_progress=False)[0]
        print(f"{name:17s} {result.win_rate.percent():40s} spec 12 {SPEC_12_GREEDY[name]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--skip-win-rates", action="store_true")
    options = parser.parse_args()
    random.seed(0)
    bench_speed(options.quick)
    if not options.skip_win_rates:
        bench_win_rates(options.quick)


if __name__ == "__main__":
    main()
