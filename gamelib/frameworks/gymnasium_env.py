"""Gymnasium single-agent environments: Pangu (solo), and Chakra or Nagaraja against a chosen bot.

``SingleAgentEnv("pangu")``; ``SingleAgentEnv("chakra", players=3, opponent=greedy_policy, seat=1)``.
The learner sits in ``seat``; every other seat is played by ``opponent`` (a gamelib policy
``(state, rng) -> action``, by default the game's ``greedy_policy``), with a generator seeded from the
game's seed, so ``reset(seed=s)`` gives gamelib's ``new_game(seed=s)`` and the same opponent moves every
time. Observations and actions are those of the PettingZoo env (:mod:`gamelib.frameworks.numbering`):
``{"observation": bytes of the JSON, "action_mask": int8}`` (or with ``features="numeric"`` the float32 vector of
:mod:`gamelib.frameworks.features`), ``Discrete(n)``; ``info["observation"]``
holds the readable dict. The reward is the seat's share of the win when the game ends (Pangu: 1 for a
win, 0 for a loss). An action outside the mask ends the episode with reward -1 and
``info["illegal_move"]`` (the engine's reason), or raises with ``illegal_action="raise"``.
"""

from __future__ import annotations

import importlib
import random

import numpy as np

from gamelib.core import IllegalMove
from gamelib.frameworks import require
from gamelib.frameworks.features import observation_box
from gamelib.frameworks.numbering import Listings, shape as game_shape

_gym = require("gymnasium")


class SingleAgentEnv(_gym.Env):
    """One seat of a gamelib game as a Gymnasium environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game="pangu",
        rules=None,
        *,
        seat: int = 0,
        opponent=None,
        render_mode=None,
        illegal_action: str = "end",
        features: str = "bytes",
        **setup,
    ):
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action is 'end' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game_shape = game_shape(game, rules, **setup)
        if not 0 <= seat < self.game_shape.players:
            raise ValueError(f"seat {seat} does not exist in a {self.game_shape.players}-player game")
        self.seat = seat
        self.opponent = opponent or _greedy(self.game_shape.module)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.action_space = _gym.spaces.Discrete(self.game_shape.num_actions)
        box, self._encode = observation_box(self.game_shape, features)
        self.observation_space = _gym.spaces.Dict(
            {
                "observation": box,
                "action_mask": _gym.spaces.Box(0, 1, (self.game_shape.num_actions,), np.int8),
            }
        )
        self._seeds = random.Random()
        self._listings = Listings()  # the mask and the step read one listing of a position
        self.state = None

    def reset(self, *, seed=None, options=None):
        """Gamelib's ``new_game(seed=seed)`` (a seed drawn from the last one's generator when None), played by the opponents up to the learner's turn."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = seed if seed is not None else self._seeds.getrandbits(63)
        self.state = self.game_shape.new_game(game_seed)
        self._opponent_rng = random.Random(game_seed)
        self._play_opponents()
        return self._observed()

    def step(self, action):
        try:
            move = self.game_shape.numbering.action(self.state, action, self._listings.actions(self.state))
            self.state = self.state.apply(move)
        except IllegalMove as illegal:
            if self.illegal_action == "raise":
                raise
            observation, info = self._observed()
            return observation, -1.0, True, False, {**info, "illegal_move": illegal.reason}
        self._play_opponents()
        reward = float(self.state.returns()[self.seat]) if self.state.is_terminal else 0.0
        observation, info = self._observed()
        return observation, reward, self.state.is_terminal, False, info

    def _play_opponents(self):
        state = self.state
        while not state.is_terminal and state.current_player != self.seat:
            state = state.apply(self.opponent(state, self._opponent_rng))
        self.state = state

    def _observed(self) -> tuple:
        """The observation and the info of the learner's seat, from one ``observation(seat)`` a call (a fresh dict each
        time: Gymnasium's check_env asks that no two calls return shared objects)."""
        seen = self.state.observation(self.seat)
        return self._observation(seen), {"observation": seen}

    def _observation(self, seen=None):
        if not self.state.is_terminal and self.state.current_player == self.seat:
            mask = self.game_shape.numbering.legal_mask(self.state, self._listings.actions(self.state))
        else:
            mask = np.zeros(self.game_shape.num_actions, dtype=np.int8)
        if seen is None:
            seen = self.state.observation(self.seat)
        return {"observation": self._encode(seen), "action_mask": mask}

    def action_masks(self):
        """The legal actions' mask (the name sb3-contrib's MaskablePPO reads)."""
        return self._observation()["action_mask"].astype(bool)

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self.state)
            return None
        return str(self.state)


def _greedy(module):
    return importlib.import_module(module.__name__ + ".bots").greedy_policy
