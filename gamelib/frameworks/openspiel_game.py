"""Pangu, Chakra, Nagaraja and any contract game as OpenSpiel Python games (``pyspiel.register_game``).

``register_all()`` registers ``python_gamelib_pangu``, ``python_gamelib_chakra`` (parameter ``players``,
2 to 4) and ``python_gamelib_nagaraja``; ``register(module)`` registers any contract game (a studio game)
as ``python_gamelib_<name>``. Then ``pyspiel.load_game(name, params)`` works as for OpenSpiel's own games.

What OpenSpiel is told, and why:

* chance mode EXPLICIT_STOCHASTIC: the gamelib game is built with ``explicit_chance=True``, so every
  shuffle, die and stick throw is an OpenSpiel chance node whose ``chance_outcomes()`` are the gamelib
  Fractions turned into floats (the exact Fractions stay on the gamelib side:
  ``state.gamelib_state.chance_outcomes()``).
* information: PERFECT_INFORMATION for Pangu (in explicit-chance mode nothing is hidden: the deck's order
  is drawn card by card) and for contract games whose ``hides_information`` is False; otherwise
  IMPERFECT_INFORMATION (Chakra's plenitude values, Nagaraja's hands and face-down relics).
* utility: Pangu (one player) GENERAL_SUM, returns 1 for a win and 0 for a loss, as gamelib. Games of two
  or more players are ZERO_SUM: OpenSpiel's return is gamelib's ``returns()`` (1/k to each of k winners,
  so they sum to 1) minus 1/n, so two-player values are P(win) - 1/2 (what ``value_iteration`` and
  CFR need: they accept only zero-sum games of two players).
* reward model TERMINAL: gamelib pays only at the end.
* actions and chance outcomes: :mod:`gamelib.frameworks.numbering` (Pangu numbers every placement;
  the others number the fixed legal listing).
* observation string and tensor of a player: ``observation(player)`` as canonical JSON, and its UTF-8
  bytes as a float tensor zero-padded to the game's bound. Information-state string: the player's
  current observation plus a SHA-256 chain over every observation the player received and every
  number they played (perfect recall, one hash instead of the whole history's text, so a state's
  string costs the same at move 1 and move 900). Information-state tensor: the observation tensor followed by
  the 256 bits of that hash (a perfect-recall history of gamelib observations has no fixed size; its hash has):
  equal information states give equal tensors, different ones different tensors (but for a SHA-256
  collision). Exact, not a learner's feature set: the bytes keep the observation's text, the bits only tell
  histories apart.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
from fractions import Fraction
from itertools import repeat
from operator import is_
from types import ModuleType

import numpy as np

from gamelib.core import CHANCE, TERMINAL
from gamelib.frameworks import require
from gamelib.frameworks.numbering import GameShape, Listings, observation_text, shape as game_shape

pyspiel = require("pyspiel")

PREFIX = "python_gamelib_"


class _Shared:
    """Holds an immutable value that OpenSpiel's clone (``copy.deepcopy``) may share instead of copying."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_Shared, (self.value,))


def game_type(short_name: str, shape: GameShape, parameters: dict) -> "pyspiel.GameType":
    """The GameType of a shape (see the module docstring for each choice)."""
    Type = pyspiel.GameType
    return Type(
        short_name=short_name,
        long_name=f"gamelib {shape.name}",
        dynamics=Type.Dynamics.SEQUENTIAL,
        chance_mode=Type.ChanceMode.EXPLICIT_STOCHASTIC,
        information=Type.Information.IMPERFECT_INFORMATION
        if shape.hides_information
        else Type.Information.PERFECT_INFORMATION,
        utility=Type.Utility.GENERAL_SUM if shape.players == 1 else Type.Utility.ZERO_SUM,
        reward_model=Type.RewardModel.TERMINAL,
        max_num_players=shape.players if not parameters else 4,
        min_num_players=shape.players if not parameters else 2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def game_info(shape: GameShape) -> "pyspiel.GameInfo":
    share = 0.0 if shape.players == 1 else 1 / shape.players
    return pyspiel.GameInfo(
        num_distinct_actions=shape.num_actions,
        max_chance_outcomes=shape.chance.size,
        num_players=shape.players,
        min_utility=-share,
        max_utility=1.0 - share,
        utility_sum=None if shape.players == 1 else 0.0,
        max_game_length=shape.max_game_length,
    )


class GamelibGame(pyspiel.Game):
    """A gamelib game for OpenSpiel. Subclasses made by :func:`register` fix the shape's maker."""

    make_shape = None  # params -> GameShape
    short_name = None
    parameters: dict = {}

    def __init__(self, params=None):
        params = {**self.parameters, **(params or {})}
        self.game_shape = type(self).make_shape(params)
        super().__init__(
            game_type(self.short_name, self.game_shape, self.parameters), game_info(self.game_shape), params
        )

    registration: tuple = ()  # register()'s arguments, so that another process can register the game again

    def new_initial_state(self):
        return GamelibState(self, self.gamelib_start)

    @property
    def gamelib_start(self):
        """The gamelib game's start in explicit-chance mode, made once per game: gamelib states are immutable, so
        every initial state shares it (OpenSpiel makes one per game played, and one per state it deserialises)."""
        try:
            return self._gamelib_start
        except AttributeError:
            self._gamelib_start = self.game_shape.new_game(seed=0, explicit_chance=True)
            return self._gamelib_start

    def __reduce__(self):
        # the class is made by register(), so pickle names it by its registration, not by its (local) class
        return (_registered_game, (self.registration, self.get_parameters()))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return GamelibObserver(self.game_shape, iig_obs_type, params)


class GamelibState(pyspiel.State):
    """An OpenSpiel state around an immutable gamelib state (``gamelib_state``)."""

    def __init__(self, game: GamelibGame, state):
        super().__init__(game)
        self._shape = _Shared(game.game_shape)
        self._state = _Shared(state)
        self._status = _status(state)
        self._recall = ("",) * game.game_shape.players  # per player: SHA-256 chain of observations and own moves...
        # ...up to the moves in this chain of (earlier link, state after, mover, number), folded in when a string is
        # asked for; immutable and shared, so a clone does not copy a long history
        self._unrecalled = _Shared(None)
        self._listings = Listings()  # legal_actions and apply_action read one listing of a position

    @property
    def gamelib_state(self):
        return self._state.value

    def current_player(self):
        return self._status[0]

    def is_chance_node(self):
        """``current_player() == PlayerId.CHANCE``, as OpenSpiel's ``State.IsChanceNode`` says, answered here: the
        inherited method crosses into C++ and back into :meth:`current_player` (about 1.5 us a call, and a random
        game asks at every node)."""
        return self._status[0] == _CHANCE_ID

    def legal_actions(self, *player):
        """OpenSpiel's ``legal_actions()`` / ``legal_actions(player)``. At a decision, for the player to act, the numbers
        of :meth:`_legal_actions` themselves (OpenSpiel's ``LegalActions`` returns just these, after four crossings
        into C++ and back: about 8 us a call against 1.5); everywhere else (a chance node, the end, another player)
        OpenSpiel's own method answers. tests/test_frameworks.py checks the two agree at every node of random games."""
        current, terminal = self._status
        if not terminal and current >= 0 and (not player or player[0] == current):
            return self._legal_actions(current)
        return super().legal_actions(*player)

    shortlist_width = None  # set by shortlisted(): decisions then offer only shortlist()'s moves

    def _shortlist(self) -> list:
        state = self._state.value
        cached = getattr(self, "_shortlisted", _Shared((None, None))).value  # shared: a clone does not copy it
        if cached[0] is not state:
            cached = (state, shortlist(state, self.shortlist_width))
            self._shortlisted = _Shared(cached)
        return cached[1]

    def _legal_actions(self, player):
        if self.shortlist_width:
            return list(range(len(self._shortlist())))
        state = self._state.value
        return self._shape.value.numbering.legal_numbers(state, self._listings.actions(state))

    def chance_outcomes(self):
        state = self._state.value
        outcomes = self._shape.value.chance.outcomes(state, self._listings.outcomes(state))
        return list(enumerate(_floats(outcomes)))

    def gamelib_move(self, number):
        """The gamelib action or chance outcome a number stands for here."""
        shape, state = self._shape.value, self._state.value
        if state.current_player == CHANCE:
            return shape.chance.outcome(state, number, self._listings.outcomes(state))
        if self.shortlist_width:
            return self._shortlist()[number]
        return shape.numbering.action(state, number, self._listings.actions(state))

    def _apply_action(self, number):
        before = self._state.value
        mover = before.current_player
        after = before.apply(self.gamelib_move(number))
        self._state = _Shared(after)
        self._status = _status(after)
        self._unrecalled = _Shared((self._unrecalled.value, after, mover, number))

    def _action_to_string(self, player, number):
        move = self.gamelib_move(number)
        return f"chance: {move}" if player == pyspiel.PlayerId.CHANCE else str(move)

    def is_terminal(self):
        return self._status[1]

    _texts = _Shared((None, None))  # (a gamelib state, its observation texts by seat): see observation_text

    def observation_text(self, player: int) -> str:
        """``observation(player)`` of this position as canonical JSON text, built once per position and player:
        OpenSpiel asks a position for every player's observation string and tensor, information-state string and
        tensor, and ``str`` (random_sim_test asks for each at every step). The texts are kept beside the gamelib
        state they belong to, and replaced with it, so random play that never asks for them pays nothing; a clone
        shares them with its original while both hold that state (strings: nothing either could change)."""
        state = self._state.value
        held, texts = self._texts.value
        if held is not state:
            texts = {}
            self._texts = _Shared((state, texts))
        text = texts.get(player)
        if text is None:
            text = texts[player] = observation_text(state.observation(player), self._shape.value.float_free)
        return text

    def _text_of(self, state, player: int) -> str:
        """``observation_text`` of a gamelib state of this game's history (kept only for the present one)."""
        if state is self._state.value:
            return self.observation_text(player)
        return observation_text(state.observation(player), self._shape.value.float_free)

    def returns(self):
        state = self._state.value
        players = self._shape.value.players
        if not state.is_terminal:
            return [0.0] * players
        shift = 0.0 if players == 1 else 1 / players
        return [float(value) - shift for value in state.returns()]

    def recall_digest(self, player: int) -> str:
        """The hash chain of ``player``'s observations and own moves so far (computed when first asked for:
        random play and search that never read information states do not pay for it)."""
        moves, link = [], self._unrecalled.value
        while link is not None:
            link, after, mover, number = link
            moves.append((after, mover, number))
        recall = list(self._recall)
        for after, mover, number in reversed(moves):
            recall = [
                _chained(digest, self._text_of(after, seat), number if seat == mover else None)
                for seat, digest in enumerate(recall)
            ]
        self._recall, self._unrecalled = tuple(recall), _Shared(None)
        return self._recall[player]

    def __str__(self):
        """The text board, and what identifies the position: ``key()`` where the game has one (studio
        games), else every player's observation (OpenSpiel's ``get_all_states`` and ``value_iteration``
        merge states by this string, so two different positions may not share it)."""
        state = self._state.value
        if hasattr(state, "key"):
            return f"{state}\nkey {state.key()!r}"
        seen = "\n".join(self.observation_text(player) for player in range(self._shape.value.players))
        return f"{state}\n{seen}"


def _floats(outcomes) -> list:
    """The probabilities of ``(outcome, probability)`` pairs as floats, each ``float(probability)``: a
    ``Fraction`` is divided out as ``float`` divides it (numerator / denominator, correctly rounded, read with
    one ``as_integer_ratio()`` call instead of two property reads), once for a run of outcomes sharing one
    probability object; when every outcome shares it (a draw from a pile of 26 cards: one ``Fraction``), that
    is seen by one identity test of the whole list in C and the one float is repeated."""
    probabilities = [probability for _, probability in outcomes]
    if not probabilities:
        return []
    first = probabilities[0]
    if all(map(is_, probabilities, repeat(first))):
        return [_float(first)] * len(probabilities)
    floats, last, value = [], None, 0.0
    for probability in probabilities:
        if probability is not last:
            last = probability
            value = _float(probability)
        floats.append(value)
    return floats


def _float(probability) -> float:
    if type(probability) is Fraction:
        numerator, denominator = probability.as_integer_ratio()
        return numerator / denominator
    return float(probability)


def _status(state) -> tuple:
    """OpenSpiel's current player (``PlayerId.CHANCE`` -1, ``PlayerId.TERMINAL`` -4, else the seat) and whether the game
    is over, read once per position: OpenSpiel asks for the player three or four times a move (``is_chance_node``,
    ``legal_actions``, ``apply_action``), and a studio game computes it from its state each time. Plain numbers, so a
    clone copies them for nothing."""
    player = state.current_player
    return (_PLAYER_IDS.get(player, player), bool(state.is_terminal))


_PLAYER_IDS = {
    CHANCE: int(pyspiel.PlayerId.CHANCE),
    TERMINAL: int(pyspiel.PlayerId.TERMINAL),
}  # gamelib's -> OpenSpiel's
_CHANCE_ID = _PLAYER_IDS[CHANCE]


def _chained(digest: str, observation: str, own_move) -> str:
    text = f"{digest}\n{observation}\n{'' if own_move is None else own_move}"
    return hashlib.sha256(text.encode()).hexdigest()


class GamelibObserver:
    """OpenSpiel's PyObserver: ``observation(player)`` as JSON text and bytes; perfect recall (the information
    state) adds the hash chain of the player's history, as text and as its 256 bits."""

    DIGEST_BITS = 256

    def __init__(self, shape: GameShape, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.shape = shape
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(shape.observation_bytes + (self.DIGEST_BITS if self.perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[: shape.observation_bytes]}
        if self.perfect_recall:
            self.dict["history_digest"] = self.tensor[shape.observation_bytes :]

    def set_from(self, state, player):
        data = state.observation_text(player).encode()
        seen = self.dict["observation"]
        if len(data) > seen.size:
            raise ValueError(f"this observation takes {len(data)} bytes, more than the {seen.size} allowed")
        seen.fill(0)
        seen[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        if self.perfect_recall:
            digest = bytes.fromhex(state.recall_digest(player)) or bytes(32)  # an empty history: no hash yet, 0 bits
            self.dict["history_digest"][:] = np.unpackbits(np.frombuffer(digest, dtype=np.uint8))

    def string_from(self, state, player):
        text = state.observation_text(player)
        if self.perfect_recall:
            return f"p{player} history {state.recall_digest(player)}\n{text}"
        return text


_REGISTERED: dict[str, type] = {}


def register(
    game: str | ModuleType = "pangu",
    short_name: str | None = None,
    rules=None,
    parameters: dict | None = None,
    perfect_information: bool | None = None,
    **setup,
) -> str:
    """Register a game with ``pyspiel.register_game`` (once) and return its short name.

    ``parameters`` are OpenSpiel game parameters passed on to ``new_game`` (Chakra: ``{"players": 2}``);
    ``setup`` is fixed setup for every game of this name. A contract game that does not say whether it
    hides information (a studio game's ``hides_information``) is taken to hide some, unless
    ``perfect_information=True`` says otherwise (value iteration needs a perfect-information game).
    """
    if isinstance(game, str) and "." in game:
        game = importlib.import_module(game)
    name = game if isinstance(game, str) else game.__name__.rsplit(".", 1)[-1]
    short_name = short_name or PREFIX + name
    if short_name in _REGISTERED:
        return short_name
    parameters = dict(parameters or {})

    def make_shape(params, _game=game, _rules=rules, _setup=setup):
        made = game_shape(_game, _rules, **_setup, **params)
        if perfect_information is not None:
            made = dataclasses.replace(made, hides_information=not perfect_information)
        return made

    registration = (
        game if isinstance(game, str) else game.__name__,
        short_name,
        rules,
        parameters,
        perfect_information,
        setup,
    )
    cls = type(
        f"Gamelib_{name}",
        (GamelibGame,),
        {
            "make_shape": staticmethod(make_shape),
            "short_name": short_name,
            "parameters": parameters,
            "registration": registration,
        },
    )
    probe = make_shape(parameters)
    pyspiel.register_game(game_type(short_name, probe, parameters), cls)
    _REGISTERED[short_name] = cls
    return short_name


def _registered_game(registration: tuple, params: dict):
    """Unpickling a game: register it (in this process too) and load it with its parameters."""
    game, short_name, rules, parameters, perfect_information, setup = registration
    register(game, short_name, rules, parameters, perfect_information, **setup)
    return pyspiel.load_game(short_name, params)


def register_all() -> list[str]:
    """Register the three games; returns their short names."""
    return [register("pangu"), register("chakra", parameters={"players": 2}), register("nagaraja")]


# --------------------------------------------------------------------------- OpenSpiel's bots as gamelib policies


def rollout_evaluator(policy, seed: int = 0):
    """An MCTS evaluator (``open_spiel.python.algorithms.mcts.Evaluator``) that plays a gamelib policy to the end
    from the leaf, directly on the gamelib state (chance drawn exactly), and returns OpenSpiel's returns there.
    With gamelib's greedy bot as ``policy`` the rollouts are informed; with ``random_policy`` they are MCTS's own."""
    import random

    from open_spiel.python.algorithms import mcts

    from gamelib.core import play

    class RolloutEvaluator(mcts.Evaluator):
        def __init__(self):
            self.rng = random.Random(seed)

        def evaluate(self, state):
            final = play(state.gamelib_state, policy, seed=self.rng.getrandbits(63))
            players = len(final.returns())
            shift = 0.0 if players == 1 else 1 / players
            return np.array([value - shift for value in final.returns()])

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions(state.current_player())
            return [(action, 1.0 / len(legal)) for action in legal]

    return RolloutEvaluator()


def search_policy(spiel_game, bot):
    """A gamelib policy ``(state, rng) -> action`` that asks an OpenSpiel bot (``bot.step(state)``) for its move.

    The bot searches an explicit-chance copy of the position (``state.with_explicit_chance()``: the deck's order
    and scripted rolls forgotten), so it never reads the future from a default-mode game's seed, while the game
    itself goes on drawing from its seed: a bot and gamelib's bots then meet the same deals. Only for games that
    hide nothing (a perfect-information search would read hidden cards)."""
    if spiel_game.get_type().information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise ValueError(f"{spiel_game} hides information: a perfect-information search would read what is hidden")

    def policy(state, rng):
        searched = GamelibState(spiel_game, state.with_explicit_chance())
        return searched.gamelib_move(bot.step(searched))

    return policy


def determinising_resampler(spiel_game, seed: int = 0, width: int | None = None):
    """A resampler for OpenSpiel's ``ismcts.ISMCTSBot`` (``bot.set_resampler(...)``): ``(state, player) ->`` an
    OpenSpiel state the player cannot tell from ``state``, what they cannot know dealt again by gamelib's own
    determinisation (``gamelib.studio.determinise.determinised``: Chakra's unseen plenitude values, Nagaraja's
    unseen cards, relics and amulets, a studio game's ``sample_hidden``), with a fresh future.

    The sample keeps the game's log where the observation shows it (Nagaraja's events: the determinisation drops
    the log for search speed), so the player's observation is the same; a sample with a different observation
    raises ValueError. Build the bot with ``use_observation_string=True``: the sample has no history of its own,
    so its tree is keyed by the observation (which in Nagaraja carries the game's events), not by the
    perfect-recall information state. With ``width`` the samples are :func:`shortlisted` states."""
    import random

    from gamelib.core import replace_fields
    from gamelib.studio.determinise import determinised

    rng = random.Random(seed)

    def resample(state, player):
        inner = state.gamelib_state
        seen = inner.observation(player)
        sampled = determinised(inner, player, rng)
        if sampled.observation(player) != seen and hasattr(inner, "log"):
            sampled = replace_fields(sampled, log=inner.log)
        if sampled.observation(player) != seen:
            raise ValueError(f"the determinised {type(inner).__name__} does not look the same to seat {player}")
        return shortlisted(spiel_game, sampled, width) if width else GamelibState(spiel_game, sampled)

    return resample


def score_lead_evaluator(
    temperature: float = 3.0, rollout_policy=None, rollout_actions: int = 0, seed: int = 0, first_share: float = 0.0
):
    """A cheap leaf evaluator for OpenSpiel's MCTS and ISMCTS (``mcts.Evaluator``: ``evaluate`` and ``prior``).

    At a terminal state it returns the game's OpenSpiel returns exactly. Elsewhere it reads the lead in
    ``scores()`` (gamelib's provisional score, "as if the game stopped now": Chakra's and Nagaraja's ``scores``) and
    turns it into shares of the win that sum to 1, a softmax of the scores over ``temperature`` points
    (``exp(score / temperature)`` normalised: equal scores share equally, a lead of ``temperature`` points is worth
    e = 2.7 times the share), minus ``1/n`` like the returns. So every value lies between the game's least and
    greatest return (``-1/n`` and ``1 - 1/n``, inside [-1, 1]) and the values sum to 0, as the zero-sum returns do.
    With ``rollout_policy`` (gamelib's greedy bot, say) it first plays up to ``rollout_actions`` actions of it from
    the leaf, chance drawn from the state's seed or its listed outcomes. A game without ``scores`` scores 0 for all.
    The prior is uniform over the legal actions (OpenSpiel's random-rollout evaluator's), or with ``first_share``
    that share to the first legal action and the rest shared equally (on a :func:`shortlisted` state the first is the
    greedy bot's move), the chance outcomes' probabilities at chance nodes. Costs one ``scores()`` (plus the rollout), against a whole random game for
    ``rollout_evaluator(random_policy)``."""
    import random

    from open_spiel.python.algorithms import mcts

    from gamelib.core import sample_outcome

    class ScoreLeadEvaluator(mcts.Evaluator):
        def __init__(self):
            self.rng = random.Random(seed)

        def evaluate(self, state):
            if state.is_terminal():
                return np.array(state.returns())
            inner = state.gamelib_state
            for _ in range(rollout_actions if rollout_policy is not None else 0):
                if inner.is_terminal:
                    break
                if inner.current_player == CHANCE:
                    inner = inner.apply(sample_outcome(inner.chance_outcomes(), self.rng))
                else:
                    inner = inner.apply(rollout_policy(inner, self.rng))
            return np.array(lead_values(inner, temperature))

        def prior(self, state):
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions(state.current_player())
            if not first_share or len(legal) == 1:
                return [(action, 1.0 / len(legal)) for action in legal]
            rest = (1.0 - first_share) / (len(legal) - 1)
            return [(legal[0], first_share)] + [(action, rest) for action in legal[1:]]

    return ScoreLeadEvaluator()


def lead_values(state, temperature: float = 3.0) -> list[float]:
    """OpenSpiel values of a gamelib state: its returns minus ``1/n`` at the end; before the end a softmax of
    ``scores()`` over ``temperature`` minus ``1/n`` (see :func:`score_lead_evaluator`)."""
    import math

    players = len(state.returns())
    shift = 0.0 if players == 1 else 1 / players
    if state.is_terminal:
        return [float(value) - shift for value in state.returns()]
    if players == 1 or not hasattr(state, "scores"):
        return [0.0] * players
    scores = state.scores()
    top = max(scores)
    weights = [math.exp((score - top) / temperature) for score in scores]
    total = sum(weights)
    return [weight / total - shift for weight in weights]


def ismcts_policy(
    spiel_game,
    simulations: int,
    evaluator=None,
    seed: int = 0,
    uct_c: float = 1.0,
    width: int | None = None,
    puct: bool = False,
):
    """A gamelib policy ``(state, rng) -> action``: OpenSpiel's information-set MCTS (``ismcts.ISMCTSBot``, UCT,
    most-visited move) with ``simulations`` simulations a move, :func:`determinising_resampler` for the worlds it
    searches and :func:`score_lead_evaluator` at the leaves unless ``evaluator`` is given. Every simulation starts
    from a fresh determinisation (hidden part and future chance redrawn), so the bot never reads what its seat
    cannot see, even from a default-mode gamelib state. Its own generators are seeded from ``seed`` and the ``rng``
    of each call, so a seeded tournament replays exactly. With ``width`` it searches only :func:`shortlist`'s
    ``width`` moves at every decision node (:func:`shortlisted`); a decision with one move is played unsearched.
    With ``puct`` the tree policy is OpenSpiel's PUCT (the evaluator's prior weighs the exploration), not UCT."""
    from open_spiel.python.algorithms import ismcts

    evaluator = evaluator or score_lead_evaluator(seed=seed)

    def policy(state, rng):
        call_seed = rng.getrandbits(32)
        searched = shortlisted(spiel_game, state, width) if width else GamelibState(spiel_game, state)
        if len(searched.legal_actions()) == 1:
            return searched.gamelib_move(searched.legal_actions()[0])
        bot = ismcts.ISMCTSBot(
            spiel_game,
            evaluator,
            uct_c,
            simulations,
            random_state=np.random.RandomState((seed * 7919 + call_seed) % 2**32),
            use_observation_string=True,
            allow_inconsistent_action_sets=True,
            child_selection_policy=ismcts.ChildSelectionPolicy.PUCT if puct else ismcts.ChildSelectionPolicy.UCT,
        )
        bot.set_resampler(determinising_resampler(spiel_game, seed=call_seed, width=width))
        return searched.gamelib_move(bot.step(searched))

    policy.__name__ = f"ismcts_{simulations}" + (f"_top{width}" if width else "")
    policy.__qualname__ = policy.__name__
    return policy


# --------------------------------------------------------------------------- search on a shortlist of moves


def shortlist(state, width: int) -> list:
    """The ``width`` moves a search looks at in a gamelib ``state`` (all of them, reordered, if no more), a function of
    what the mover may know, so the same information state gives the same shortlist in every determinisation.

    Chakra: the moves with the best one-action lookahead value of its greedy bot (``chakra.bots.lookahead_values``,
    the value greedy maximises), best first (ties in listing order), so the first is a move greedy may play. Any other game: its greedy bot's move (with a fixed
    generator, ``random.Random(0)``), then the moves after which the mover's lead in ``scores()`` is largest (ties
    in listing order; a game without ``scores`` keeps its listing order). So the greedy move is always on the list."""
    import importlib
    import random

    legal = state.legal_actions()
    if len(legal) == 1:
        return list(legal)
    package = type(state).__module__.rsplit(".", 1)[0]
    player = state.current_player
    if package == "gamelib.chakra":
        from gamelib.chakra.bots import lookahead_values

        values = lookahead_values(state, player)
        ranked = sorted(range(len(values)), key=lambda index: (-values[index][1], index))
        return [values[index][0] for index in ranked[:width]]
    greedy = importlib.import_module(f"{package}.bots").greedy_policy(state, random.Random(0))
    if not hasattr(state, "scores"):
        others = [action for action in legal if action != greedy]
    else:
        step = importlib.import_module(f"{package}.actions").search_step
        leads = {}
        for index, action in enumerate(legal):
            if action != greedy:
                scores = step(state, action).scores()
                leads[index] = scores[player] - max(s for seat, s in enumerate(scores) if seat != player)
        others = [legal[index] for index in sorted(leads, key=lambda index: (-leads[index], index))]
    return [greedy] + others[: width - 1]


def shortlisted(spiel_game, state, width: int) -> "GamelibState":
    """An OpenSpiel state of ``spiel_game`` around the gamelib ``state`` whose decision nodes offer only
    :func:`shortlist`'s ``width`` moves, numbered 0, 1, ... in the shortlist's order (chance nodes as ever), and so
    do its clones and successors (OpenSpiel's clone keeps the instance's attributes, not its class). Search on it
    looks at ``width`` moves a node instead of hundreds or thousands: OpenSpiel's ISMCTS tries every untried move
    once, in random order, before it compares any, so on the full listing a budget below the number of moves is a
    best of random moves. The numbers are sound for OpenSpiel's algorithms because the shortlist is a function of
    the mover's information state."""
    made = GamelibState(spiel_game, state)
    made.shortlist_width = width
    return made
