"""Games per second through each framework adapter against gamelib played directly (issue 27).

    PYTHONPATH=. python bench/bench_frameworks.py [--repeats R] [--scale S] [--only NAME ...] [--bounds]

For every game the sweep plays (tests/test_frameworks_sweep.py: Pangu, Chakra with 2, 3 and 4 players full-length and
under ``max_rounds=10``, Nagaraja, the toy race, the studio's Pig and Bluff) every line plays the same seeded random
games (uniform random moves, chance as the game draws it) in one process, one way after the other, and the ratios
compare each adapter with gamelib's own random game loop measured in the same run:

* gamelib: ``core.play(new_game(seed), random_policy)``, default mode (chance from the seed), the reference of
  PettingZoo and Gymnasium, which play that mode; and the same in explicit-chance mode (every chance event drawn from
  ``chance_outcomes()``), the mode OpenSpiel plays, its reference;
* PettingZoo: one AEC env reset with each seed, a random choice among the mask each turn (``last()`` builds the
  observation bytes and the mask, as a learner reads them);
* Gymnasium: one single-agent env per seat (the learner's seat ``seed % players``), a random choice among the mask,
  the other seats played by gamelib's ``random_policy`` (Pangu, Chakra, Nagaraja only: the envs the sweep plays);
* OpenSpiel: the registered game, ``random`` over ``legal_actions()`` and the chance outcomes' floats, explicit
  chance (no information-state strings asked for: search and random play never read them).

Times are CPU time of this process (``time.process_time``), not wall time, so that other work on a shared machine
slows a line less. ``--repeats`` runs (default 5) of every way are made in turn; each figure printed is the median
over the runs of the games per second, and each ratio the median over the runs of that run's ratio (adapter over its
gamelib reference). The sweep's checks (every mask compared with gamelib's listing) are not made here: these are the
adapters' own speeds.

``--bounds`` plays random explicit-chance games (``--games``, default 200, per game and player count) and prints the
largest listing, chance node, observation and length met (gamelib/frameworks/numbering.py's bounds rest on these).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from gamelib import core
from gamelib.chakra import Rules as ChakraRules
from gamelib.frameworks import numbering, openspiel_game, pettingzoo_env
from gamelib.frameworks.gymnasium_env import SingleAgentEnv
from gamelib.studio.examples import bluff, pig

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import toy_game  # noqa: E402  (the tests' contract game, the toy race)

SHORT = ChakraRules(max_rounds=10)
# (label, game, setup, games per run at --scale 1, whether Gymnasium seats a learner)
SETUPS = [
    ("pangu", "pangu", {}, 200, True),
    ("chakra-2", "chakra", {"players": 2}, 3, True),
    ("chakra-3", "chakra", {"players": 3}, 2, True),
    ("chakra-4", "chakra", {"players": 4}, 2, True),
    ("chakra-2 r10", "chakra", {"players": 2, "rules": SHORT}, 40, True),
    ("chakra-3 r10", "chakra", {"players": 3, "rules": SHORT}, 30, True),
    ("chakra-4 r10", "chakra", {"players": 4, "rules": SHORT}, 30, True),
    ("nagaraja", "nagaraja", {}, 40, True),
    ("toy race", toy_game, {}, 500, False),
    ("pig", pig, {}, 200, False),
    ("bluff", bluff, {}, 500, False),
]


def direct(shape, seeds):
    for seed in seeds:
        core.play(shape.new_game(seed), core.random_policy, seed=seed)


def direct_explicit(shape, seeds):
    for seed in seeds:
        core.play(shape.new_game(0, explicit_chance=True), core.random_policy, seed=seed)


def through_pettingzoo(env, seeds):
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            env.step(
                None if terminated or truncated else rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            )


def through_gymnasium(envs, seeds):
    for seed in seeds:
        env = envs[seed % len(envs)]
        observation, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        done = env.state.is_terminal
        while not done:
            observation, _, done, _, _ = env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


def spiel_game_of(game, setup):
    import pyspiel

    setup = dict(setup)
    rules = setup.pop("rules", None)
    if rules is not None:  # the short rules: a game registered with them, as the sweep does
        name = openspiel_game.register(
            "chakra", openspiel_game.PREFIX + "chakra_short", rules=rules, parameters={"players": 2}
        )
    elif isinstance(game, str):
        openspiel_game.register_all()
        name = openspiel_game.PREFIX + game
    else:
        name = openspiel_game.register(game)
    return pyspiel.load_game(name, setup)


def through_openspiel(spiel_game, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def rate(run, seeds: range) -> float:
    """Games per CPU second of ``run(seeds)``."""
    start = time.process_time()
    run(seeds)
    return len(seeds) / (time.process_time() - start)


def speeds(repeats: int, scale: float, only: list[str] | None) -> None:
    print(
        f"{'game':13} {'games':>5} {'gamelib/s':>10} {'explicit/s':>10} {'PettingZoo/s':>13} {'Gymnasium/s':>12} "
        f"{'OpenSpiel/s':>12}   ratios (PZ and Gym to gamelib, OS to gamelib explicit), medians of {repeats} runs"
    )
    for label, game, setup, count, seats_learner in SETUPS:
        if only and label not in only:
            continue
        games = max(1, round(count * scale))
        rules = setup.get("rules")
        shape = numbering.shape(game, rules, **{k: v for k, v in setup.items() if k != "rules"})
        # the adapters are built (and played once) before the clock starts (building a shape plays a game)
        aec = pettingzoo_env.env(game, **setup)
        gym_envs = (
            [SingleAgentEnv(game, seat=seat, opponent=core.random_policy, **setup) for seat in range(shape.players)]
            if seats_learner
            else None
        )
        spiel_game = spiel_game_of(game, setup)
        ways = {
            "gamelib": lambda seeds: direct(shape, seeds),
            "explicit": lambda seeds: direct_explicit(shape, seeds),
            "pettingzoo": lambda seeds: through_pettingzoo(aec, seeds),
            "openspiel": lambda seeds: through_openspiel(spiel_game, seeds),
        }
        if gym_envs:
            ways["gymnasium"] = lambda seeds: through_gymnasium(gym_envs, seeds)
        for run in ways.values():
            run(range(10**6, 10**6 + 1))  # warm: caches, imports
        rates = {way: [] for way in ways}
        for repeat in range(repeats):
            seeds = range(repeat * games, (repeat + 1) * games)  # each run its own seeds, the same for every way
            for way, run in ways.items():
                rates[way].append(rate(run, seeds))
        median = {way: statistics.median(values) for way, values in rates.items()}

        def ratio(way, reference):
            if way not in rates:
                return None
            return statistics.median(a / b for a, b in zip(rates[way], rates[reference]))

        gym, gym_ratio = median.get("gymnasium"), ratio("gymnasium", "gamelib")
        print(
            f"{label:13} {games:5} {median['gamelib']:10.1f} {median['explicit']:10.1f} {median['pettingzoo']:13.1f} "
            f"{(f'{gym:.1f}' if gym else '-'):>12} {median['openspiel']:12.1f}   "
            f"PZ {ratio('pettingzoo', 'gamelib'):.2f}, Gym {(f'{gym_ratio:.2f}' if gym_ratio else '-')}, "
            f"OS {ratio('openspiel', 'explicit'):.2f}",
            flush=True,
        )


def bounds(games: int) -> None:
    for label, game, setup, _, _ in SETUPS:
        if "rules" in setup or not isinstance(game, str):
            continue
        shape = numbering.shape(game, **setup)
        rng = random.Random(0)
        most_actions = most_outcomes = widest = longest = 0
        for _ in range(games):
            state = shape.new_game(rng.getrandbits(32), explicit_chance=True)
            length = 0
            while not state.is_terminal:
                if state.current_player == core.CHANCE:
                    outcomes = state.chance_outcomes()
                    most_outcomes = max(most_outcomes, len(outcomes))
                    state = state.apply(core.sample_outcome(outcomes, rng))
                else:
                    actions = state.legal_actions()
                    most_actions = max(most_actions, len(actions))
                    widest = max(
                        widest,
                        *(len(numbering.observation_text(state.observation(p)).encode()) for p in range(shape.players)),
                    )
                    state = state.apply(rng.choice(actions))
                length += 1
            longest = max(longest, length)
        print(
            f"{shape.name:10} actions {most_actions:5} (bound {shape.num_actions}), chance {most_outcomes:3} "
            f"(bound {shape.chance.size}), observation {widest:5} bytes (bound {shape.observation_bytes}), "
            f"length {longest:5} (bound {shape.max_game_length})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of every way per game (medians over them)")
    parser.add_argument("--scale", type=float, default=1.0, help="games per run, times each game's default")
    parser.add_argument("--only", nargs="*", help="only these games (labels as printed)")
    parser.add_argument("--bounds", action="store_true", help="print the bounds random games meet instead")
    parser.add_argument("--games", type=int, default=200, help="games per game for --bounds")
    arguments = parser.parse_args()
    if arguments.bounds:
        bounds(arguments.games)
    else:
        speeds(arguments.repeats, arguments.scale, arguments.only)
