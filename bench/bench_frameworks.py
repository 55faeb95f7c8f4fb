"""Games per second through each framework adapter against gamelib played directly (issue 27).

    PYTHONPATH=. python bench/bench_frameworks.py [--games N] [--bounds]

Every line plays the same seeded random games (uniform random moves, chance as the game draws it) in one
run, one way after the other, so the ratios compare like with like on the same machine:

* gamelib: ``core.play(new_game(seed), random_policy)``, default mode (chance from the seed), and the same in
  explicit-chance mode (every chance event drawn from ``chance_outcomes()``), the mode OpenSpiel plays;
* PettingZoo: the AEC env, a random choice among the mask each turn (``last()`` builds the observation
  bytes and the mask, as a learner would read them);
* Gymnasium: the single-agent env (Pangu; Chakra and Nagaraja against gamelib's random policy);
* OpenSpiel: the registered game, ``random`` over ``legal_actions()`` and the chance outcomes' floats,
  explicit chance (no information-state strings asked for: search and random play never read them).

``--bounds`` plays random explicit-chance games (``--games``, default 200, per game and player count) and
prints the largest listing, chance node, observation and length met (gamelib/frameworks/numbering.py's
bounds rest on these).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from gamelib import core
from gamelib.frameworks import numbering, openspiel_game, pettingzoo_env
from gamelib.frameworks.gymnasium_env import SingleAgentEnv

SETUPS = [
    ("pangu", {}),
    ("chakra", {"players": 2}),
    ("chakra", {"players": 3}),
    ("chakra", {"players": 4}),
    ("nagaraja", {}),
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


def through_gymnasium(env, seeds):
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            observation, _, done, _, _ = env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


def spiel_game_of(game, setup):
    import pyspiel

    openspiel_game.register_all()
    return pyspiel.load_game(openspiel_game.PREFIX + game, dict(setup))


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


def rate(run, games: int) -> float:
    start = time.perf_counter()
    run(range(games))
    return games / (time.perf_counter() - start)


def speeds(games_by_game: dict) -> None:
    print(
        f"{'game':10} {'games':>5} {'gamelib/s':>10} {'explicit/s':>10} {'PettingZoo/s':>13} {'Gymnasium/s':>12} "
        f"{'OpenSpiel/s':>12}   ratios to gamelib (PZ, Gym, OS; OS to gamelib explicit)"
    )
    for game, setup in SETUPS:
        shape = numbering.shape(game, **setup)
        games = games_by_game[game]
        base = rate(lambda seeds: direct(shape, seeds), games)
        explicit = rate(lambda seeds, shape=shape: direct_explicit(shape, seeds), games)
        # the adapters are built before the clock starts (building a shape plays a game)
        aec, single, spiel_game = (
            pettingzoo_env.env(game, **setup),
            SingleAgentEnv(game, opponent=core.random_policy, **setup),
            spiel_game_of(game, setup),
        )
        pz = rate(lambda seeds: through_pettingzoo(aec, seeds), games)
        gym = rate(lambda seeds: through_gymnasium(single, seeds), games)
        spiel = rate(lambda seeds: through_openspiel(spiel_game, seeds), games)
        print(
            f"{shape.name:10} {games:5} {base:10.1f} {explicit:10.1f} {pz:13.1f} {gym:12.1f} {spiel:12.1f}"
            f"   {pz / base:.2f}, {gym / base:.2f}, {spiel / base:.2f}; {spiel / explicit:.2f}",
            flush=True,
        )


def bounds(games: int) -> None:
    for game, setup in SETUPS:
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
    parser.add_argument(
        "--games", type=int, default=0, help="games per game and way (default: 200 Pangu, 20 Chakra, 50 Nagaraja)"
    )
    parser.add_argument("--bounds", action="store_true", help="print the bounds random games meet instead")
    arguments = parser.parse_args()
    if arguments.bounds:
        bounds(arguments.games or 200)
    else:
        default = {"pangu": 200, "chakra": 20, "nagaraja": 50}
        speeds({game: arguments.games or count for game, count in default.items()})
