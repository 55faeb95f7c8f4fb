"""PettingZoo AEC environments for Pangu, Chakra (2-4 players), Nagaraja and any contract game.

``env("chakra", players=3)`` is a ``pettingzoo.AECEnv``. Agents are ``player_0``... in seat order.
Each observation is ``{"observation": uint8 bytes of observation(player)'s JSON, "action_mask": int8}``
(:mod:`gamelib.frameworks.numbering`), or with ``features="numeric"`` a float32 vector with one fixed slot per
field of the observation (:mod:`gamelib.frameworks.features`); ``infos[agent]["observation"]`` holds the readable
dict. Actions
are the game's numbers (``numbering.describe()``). ``reset(seed=s)`` plays gamelib's game
``new_game(seed=s)``: chance is resolved from the seed exactly as in gamelib, so the same seed and the
same moves give the same final save. Rewards are gamelib's ``returns()`` (1/k to each of k winners),
given when the game ends. An action outside the mask ends the game with -1 for the player who sent it
(as PettingZoo's ``TerminateIllegalWrapper`` does) and the engine's reason in its ``infos``, unless the
env was built with ``illegal_action="raise"``, which raises gamelib's ``IllegalMove``.
"""

from __future__ import annotations

import random

import numpy as np

from gamelib.core import IllegalMove, TERMINAL, new_seed
from gamelib.frameworks import require
from gamelib.frameworks.features import observation_box
from gamelib.frameworks.numbering import GameShape, Listings, shape as game_shape

_pettingzoo = require("pettingzoo")
_spaces = require("gymnasium.spaces")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class GamelibAECEnv(_pettingzoo.AECEnv):
    """A gamelib contract game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "gamelib", "is_parallelizable": False}

    def __init__(
        self,
        shape: GameShape,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal_action: str = "penalise",
        features: str = "bytes",
    ):
        super().__init__()
        if illegal_action not in ("penalise", "raise"):
            raise ValueError(f"illegal_action is 'penalise' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.shape_ = shape
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.metadata = {**self.metadata, "name": f"gamelib_{shape.name}"}
        self.possible_agents = [agent_name(seat) for seat in range(shape.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._action_spaces = {agent: _spaces.Discrete(shape.num_actions) for agent in self.possible_agents}
        box, self._encode = observation_box(shape, features)
        self._observation_spaces = {
            agent: _spaces.Dict(
                {
                    "observation": box,
                    "action_mask": _spaces.Box(0, 1, (shape.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._listings = Listings()  # the mask and the step read one listing of a position
        self.state_ = None

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    # ---------------------------------------------------------------- the AEC loop

    def reset(self, seed=None, options=None):
        """A new game: ``new_game(seed=seed)`` when a seed is given, else one drawn from the last seed's generator."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = new_seed(self._seeds)
        self.state_ = self.shape_.new_game(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._steps = 0
        self._after_move()

    def observe(self, agent):
        seat = self._seat[agent]
        if self.state_.current_player == seat and not self.state_.is_terminal:
            mask = self.shape_.numbering.legal_mask(self.state_, self._listings.actions(self.state_))
        else:
            mask = np.zeros(self.shape_.num_actions, dtype=np.int8)
        return {"observation": self._encode(self._listings.observation(self.state_, seat)), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            move = self.shape_.numbering.action(self.state_, action, self._listings.actions(self.state_))
            self.state_ = self.state_.apply(move)
        except IllegalMove as illegal:
            if self.illegal_action == "raise":
                raise
            self._end_illegally(agent, illegal.reason)
        else:
            self._steps += 1
            self._after_move()
        self._accumulate_rewards()

    def _after_move(self):
        """Rewards and terminations at the end; else the next agent; the readable observation in the infos of
        the agent to act (of every agent at the end): an agent's infos are fresh whenever ``last()`` reads them."""
        state = self.state_
        if state.is_terminal:
            for agent in self.agents:
                self.infos[agent] = {"observation": state.observation(self._seat[agent])}
            self.rewards = {agent: float(reward) for agent, reward in zip(self.agents, state.returns())}
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self._steps >= self.max_cycles * len(self.possible_agents):
            self.truncations = dict.fromkeys(self.agents, True)
        if state.current_player != TERMINAL:
            self.agent_selection = agent_name(state.current_player)
            self.infos[self.agent_selection] = {"observation": self._listings.observation(state, state.current_player)}
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _end_illegally(self, agent, reason: str):
        self.rewards = {other: (-1.0 if other == agent else 0.0) for other in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {**self.infos[agent], "illegal_move": reason}

    # ---------------------------------------------------------------- showing

    def render(self):
        """The text board (``str(state)``): returned for ``ansi``, printed for ``human``."""
        if self.render_mode is None:
            return None
        text = str(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    def __str__(self):
        return self.metadata["name"]


def env(
    game="pangu", rules=None, *, render_mode=None, max_cycles=None, illegal_action="penalise", features="bytes", **setup
):
    """The AEC env of ``game`` ("pangu", "chakra", "nagaraja" or a contract game module); ``setup``
    is passed to ``new_game`` (``players=3`` for Chakra); ``features`` is "bytes" or "numeric"."""
    return GamelibAECEnv(
        game_shape(game, rules, **setup),
        render_mode=render_mode,
        max_cycles=max_cycles,
        illegal_action=illegal_action,
        features=features,
    )
