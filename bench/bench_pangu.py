"""Pangu benchmark: speed against a minimal engine, lookahead against today's figure, and bot win rates.

Run: ``.venv/bin/python bench/bench_pangu.py`` (``--quick`` for a short run, ``--skip-win-rates``).
Timings are medians over several runs of CPU seconds of this process (``time.process_time``), so
other jobs on a shared machine do not skew them.

* Random and greedy play are compared, in the same process, with a minimal, straightforward engine
  written for this bench from the rules spec alone (``MiniGame`` below: default rules, no validation,
  no log, ``apply`` still returns a new game). Both engines draw their deals from the same seeded
  chance stream; the bench first checks that they make identical moves on identical deals. Target
  (issue 8): gamelib within 1.5x of the minimal engine.
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
SPEC_12_GREEDY = {"defaults": "≈61%", "per_placement": "≈88%", "before_placement": "≈54%", "before_turn": "≈23%",
                  "after_recovery": "≈71%", "rotation": "≈65%", "reroll_penalty_1": "≈58%", "centre_match_2": "≈92%",
                  "YANG_LEFT": "≈61%", "RANDOM_centre": "(not given)", "4x3": "≈62%"}


# --------------------------------------------------------------------------- the minimal engine (default rules)

ROWS, COLS = 3, 4
YIN_CELL, YANG_CELL = 5, 6  # (1,1) and (1,2), row-major
RING = [i for i in range(ROWS * COLS) if i not in (YIN_CELL, YANG_CELL)]
STEPS = ((0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1))  # edge TOP, RIGHT, BOTTOM, LEFT; dr, dc
NEIGHBOURS = [[(edge, (r + dr) * COLS + c + dc) for edge, dr, dc in STEPS
               if 0 <= r + dr < ROWS and 0 <= c + dc < COLS] for r in range(ROWS) for c in range(COLS)]
ROLLS = [(blue, white) for blue in range(1, 7) for white in range(1, 7)]
EDGES = ("TOP", "RIGHT", "BOTTOM", "LEFT")


def load_cards():
    """Card id -> (blue, white, (colour on TOP, RIGHT, BOTTOM, LEFT)), in file order."""
    records = json.loads(TEACHING_DECK_PATH.read_text(encoding="utf-8"))["cards"]  # the shipped deck (spec 3)
    return {r["id"]: (r["blue"], r["white"], tuple(r["half"][e] for e in EDGES)) for r in records}


CARDS = load_cards()


class MiniGame:
    """One position of a default-rules Pangu game."""

    __slots__ = ("seed", "draws", "deck", "revealed", "grid", "karma", "roll", "status")

    @classmethod
    def new(cls, seed):
        game = cls()
        order = list(CARDS)
        chance_rng(seed, 0).shuffle(order)
        game.seed, game.draws, game.deck, game.revealed = seed, 1, order, []
        game.grid = [None] * (ROWS * COLS)
        game.grid[YIN_CELL], game.grid[YANG_CELL] = "YIN", "YANG"
        game.karma, game.roll, game.status = 10, None, "ONGOING"
        game.start_turn()
        return game

    def copy(self):
        game = MiniGame()
        game.seed, game.draws, game.deck, game.revealed = self.seed, self.draws, self.deck, list(self.revealed)
        game.grid, game.karma, game.roll, game.status = list(self.grid), self.karma, self.roll, self.status
        return game

    def roll_dice(self):
        self.roll = ROLLS[chance_rng(self.seed, self.draws).randrange(36)]
        self.draws += 1

    def start_turn(self):
        size = min(3, len(self.deck) - 1) if len(self.deck) > 1 else 1
        self.revealed, self.deck = self.deck[:size], self.deck[size:]
        self.roll_dice()
        self.reroll_while_stuck()

    def reroll_while_stuck(self):
        while all(self.roll == CARDS[card][:2] for card in self.revealed):
            self.roll_dice()

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

    def apply(self, action):
        card, die, (row, col) = action
        game = self.copy()
        game.karma -= self.cost(card, die)
        if game.karma <= 0:
            game.status = "LOST"
            return game
        index = row * COLS + col
        game.grid[index] = card
        game.revealed.remove(card)
        game.karma = min(10, game.karma + game.recovery(card, index))
        if all(game.grid[i] is not None for i in RING):
            game.status = "WON"
        elif not game.revealed:
            game.start_turn()
        else:
            game.reroll_while_stuck()
        return game


def mini_greedy(game, rng=None):
    """Cheapest legal die (BLUE on a tie), the best rec - cost now, the first such in spec 8 order."""
    best, best_score = None, None
    cells = game.legal_cells()
    for card in game.revealed:
        blue, white, _ = CARDS[card]
        options = [(die, game.cost(card, die)) for die, value, number in
                   (("BLUE", game.roll[0], blue), ("WHITE", game.roll[1], white)) if value != number]
        if not options:
            continue
        die, cost = min(options, key=lambda option: option[1])
        for index in cells:
            score = game.recovery(card, index) - cost
            if best_score is None or score > best_score:
                best, best_score = (card, die, divmod(index, COLS)), score
    return best


def mini_play(seed, policy, rng):
    """Play a game to the end; return the final game and its moves."""
    game, moves = MiniGame.new(seed), []
    while game.status == "ONGOING":
        action = policy(game, rng)
        moves.append(action)
        game = game.apply(action)
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
    final = core.play(new_game(seed=seed), policy, seed=seed,
                      on_action=lambda _state, action: moves.append((action.card, action.die, action.cell)))
    return final, moves


def check_identical_moves(game_seeds) -> None:
    """Both engines, same deals, same policy generator: the same moves and the same ends."""
    for seed in game_seeds:
        for policy, mini_policy in ((random_policy, random_policy), (greedy_policy, mini_greedy)):
            final, moves = gamelib_moves(seed, policy)
            mini_final, mini_moves = mini_play(seed, mini_policy, random.Random(seed))
            assert moves == mini_moves, f"the engines disagree on deal {seed}"
            assert (final.status, final.karma) == (mini_final.status, mini_final.karma), seed


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
    check_identical_moves(game_seeds[:100 if quick else 300])
    print(f"== Speed (median of {runs} runs, CPU time, one core) ==")
    print(f"the minimal engine and gamelib made identical moves on {100 if quick else 300} deals (random and greedy)")
    for name, policy, mini_policy in (("random", random_policy, random_policy), ("greedy", greedy_policy, mini_greedy)):
        ours = median_rate(lambda: [core.play(new_game(seed=s), policy, seed=s) for s in game_seeds], games, runs)
        mini = median_rate(lambda: [mini_play(s, mini_policy, random.Random(s)) for s in game_seeds], games, runs)
        print(f"{name:7s} play: gamelib {ours:7.0f} games/s, minimal engine {mini:7.0f} games/s "
              f"-> the minimal engine is {mini / ours:.2f}x faster   (target <= 1.5x)")

    for cards_left, count in ((2, 12), (3, 20)):  # the positions BEFORE_DECISIONS_PER_SECOND was measured on
        states = decision_states(count, cards_left)
        rate = median_rate(lambda: [TurnPlanner().best_action(s) for s in states], len(states), runs)
        before = BEFORE_DECISIONS_PER_SECOND[cards_left]
        print(f"lookahead, {cards_left} cards left: {rate:7.1f} decisions/s; before issue 8 {before:6.1f}/s "
              f"-> {rate / before:.1f}x faster   (target >= 4x)")
    two_left = decision_states(4, cards_left=2)
    naive = median_rate(lambda: [TurnPlanner(naive=True).best_action(s) for s in two_left], len(two_left), 1)
    fast = median_rate(lambda: [TurnPlanner().best_action(s) for s in two_left], len(two_left), runs)
    print(f"lookahead against the naive planner (public apply, no memo, 2 cards left): {fast / naive:.0f}x faster")
    lookahead_seeds = iter(seeds(3, 100))

    def one_fresh_game():
        _shared_planner.memo.clear()
        seed = next(lookahead_seeds)
        core.play(new_game(seed=seed), lookahead_policy, seed=seed)

    print(f"lookahead policy in play: {median_rate(one_fresh_game, 1, runs * 2):6.1f} games/s "
          "(10 decisions each; memo shared within a game)")
    start, cpu_start = time.perf_counter(), time.process_time()
    tournament({"greedy": greedy_policy}, Rules(), games=10_000, seed=2, show_progress=False)
    print(f"10,000-game greedy tournament: {time.process_time() - cpu_start:.2f} s CPU, "
          f"{time.perf_counter() - start:.2f} s wall")


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
        print(f"{name:10s} {result.win_rate.percent():40s} spec 12 {SPEC_12[name]:>5s}  "
              f"({time.perf_counter() - start:.0f} s)")
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
