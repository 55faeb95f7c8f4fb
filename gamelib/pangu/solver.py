"""Pangu solved: the exact optimal chance of winning of any position, and of every move in it.

Public contract::

    from gamelib.pangu import solver
    solver.win_probability(state)      # Fraction; at a chance node the expectation over its outcomes
    solver.action_values(state)        # {action: Fraction} for every legal action, then optimal play
    solver.evaluate_policy(policy, rules=None, state=None)   # a bot's exact chance of winning

How (research note ``shared/notes/pangu_solver.md``): positions are compressed to ``(F, C, D)``
plus Karma (see ``solver_model``). Under the default rules the package ships the turn-start
values of turns 1 (the root), 2 and 3 (``data/solver_default.npz``, checksummed, built
by ``python -m gamelib.pangu.solver_build --write`` with numba); everything else is an exact
expectimax in pure Python with ``Fraction`` values, memoised, which stops at those tables.
Under any other rules, positions from turn 3 on are solved on demand the same way (turn 3
needs no table); the start of a game whose whole-game value is recorded in
``data/solver_variants.json`` is answered from that record; other earlier positions need tables
this package does not ship and raise :class:`OutOfReach`, naming the command that computes the
whole-game value. Every shipped file is checked against the package's checksums before it is used
(:mod:`gamelib.datafiles`); a damaged one raises :class:`~gamelib.pangu.solver_tables.DamagedTable`.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from pathlib import Path

from gamelib import datafiles
from gamelib.core import CHANCE
from gamelib.pangu.cards import ROLLS
from gamelib.pangu.rules import SINGLE_VARIANTS, Rules, State, new_game
from gamelib.pangu.solver_model import Model, build_model, popcount
from gamelib.pangu.solver_tables import SHIPPED_LEVELS, DamagedTable, ShippedTables, SolverTableError

ONE, ZERO = Fraction(1), Fraction(0)


class OutOfReach(ValueError):
    """A position whose exact value needs whole-game tables that are not shipped for these rules."""


# --------------------------------------------------------------------------- the adapter State -> key


def position_of(state):
    """The compact position of a decision or roll node: the one place that reads a ``State``.

    Returns ``(F, C, D, H, roll, karma, allowance)``: ring fill and frontier colours, the unseen
    cards and the revealed ones (card-index masks), the roll (None at a roll node), Karma and the
    ``before_turn`` allowance left this turn (0 under the other cap rules).
    """
    _check_pangu(state)
    model = model_for(state)
    cells = {cell: (card.id, orientation) for cell, (card, orientation) in state.placed_cards().items()}
    filled, colours, unseen = model.key_of(cells, set(state.unseen_cards()))
    hand = sum(1 << model.card_ids.index(card_id) for card_id in state.revealed)
    allowance = 0
    if state.rules.cap_rule == "before_turn":
        allowance = state.rules.starting_karma - state.turn_start_karma - state.gained_this_turn
    return filled, colours, unseen, hand, state.roll, state.karma, allowance


def model_for(state) -> Model:
    centres = state.centre_cells
    first = state.geometry.centre_cells[0]
    centre = "YIN_LEFT" if centres[first] == "YIN" else "YANG_LEFT"
    return _solver(state.rules, centre, state.cards).model


# --------------------------------------------------------------------------- the expectimax


class Solver:
    """Exact optimal values for one rule set, deck and centre configuration (memoised)."""

    def __init__(self, model: Model, load_tables=None, table_levels=SHIPPED_LEVELS, recorded_root=None):
        self.model = model
        self.load_tables = load_tables  # the shipped whole-game tables, read only when a position needs them
        self.recorded_root = recorded_root  # () -> the recorded whole-game value or None, read only at the start
        self.table_levels = frozenset(table_levels) if load_tables is not None else frozenset()
        self.ceiling = model.rules.starting_karma
        self.cards = len(model.card_ids)
        self.full = (1 << model.size) - 1
        rules = model.rules
        self.per_placement = rules.roll_timing == "per_placement"
        self.penalty = rules.stuck_rule == "reroll_penalty_1"
        self.before_turn = rules.cap_rule == "before_turn"
        self.turn_start = lru_cache(maxsize=None)(self._turn_start)
        self.roll_node = lru_cache(maxsize=None)(self._roll_node)
        self.decision = lru_cache(maxsize=None)(self._decision)

    def members(self, mask: int) -> list[int]:
        return [c for c in range(self.cards) if mask >> c & 1]

    def _turn_start(self, filled: int, colours: int, unseen: int, karma: int) -> Fraction:
        if karma <= 0:
            return ZERO
        level = popcount(filled)
        if level in self.table_levels:  # turn starts 1-3 of the default game: a lookup
            return self.load_tables().value(level, filled, colours, unseen, karma)
        left = popcount(unseen)
        if level == 0 and karma == self.ceiling and self.recorded_root is not None:
            recorded = self.recorded_root()  # the start of a variant whose whole game was solved with numba
            if recorded is not None:
                return recorded
        if level < 6 and 6 not in self.table_levels:  # pure Python from turn 1 or 2 would take CPU-hours
            raise OutOfReach(f"the exact value before turn 3 under {self.model.rules} needs whole-game tables, "
                             "which are shipped only for the default rules; the whole game's value is computed by "
                             "python -m gamelib.pangu.solver_build --variant NAME")
        size = min(3, left - 1) if left > 1 else 1
        hands = list(combinations(self.members(unseen), size))
        allowance = self.ceiling - karma if self.before_turn else 0
        total = sum(self.roll_node(filled, colours, unseen & ~_mask(h), _mask(h), karma, allowance) for h in hands)
        return total / len(hands)

    def blocks(self, hand: int, roll) -> bool:
        return all(self.model.cheapest_cost(c, roll) == 0 for c in self.members(hand))

    def _roll_node(self, filled, colours, unseen, hand, karma, allowance) -> Fraction:
        """Expectation over the 36 rolls, with the stuck rule (pangu.md#placing, pangu.md#parameters)."""
        if karma <= 0:
            return ZERO
        total, blocked = ZERO, 0
        for roll in ROLLS:
            if self.blocks(hand, roll):
                blocked += 1
            else:
                total += self.decision(filled, colours, unseen, hand, roll, karma, allowance)
        if not blocked:
            return total / 36
        if not self.penalty:
            return total / (36 - blocked)  # a free reroll comes back to this very node
        return (total + blocked * self.roll_node(filled, colours, unseen, hand, karma - 1, allowance)) / 36

    def _decision(self, filled, colours, unseen, hand, roll, karma, allowance) -> Fraction:
        best = ZERO
        for card in self.members(hand):
            cost = self.model.cheapest_cost(card, roll)  # the cheaper die dominates (pangu.md#karma note)
            if cost == 0:
                continue
            for x in range(self.model.size):
                if not self.model.legal(filled, x):
                    continue
                for o in range(len(self.model.orientations)):
                    value = self.after(filled, colours, unseen, hand, roll, karma, allowance, card, cost, x, o)
                    if value > best:
                        best = value
                        if best == ONE:
                            return best
        return best

    def after(self, filled, colours, unseen, hand, roll, karma, allowance, card, cost, x, o) -> Fraction:
        """The value after placing ``card`` on ring cell ``x`` paying ``cost`` (pangu.md#karma, pangu.md#parameters)."""
        rules = self.model.rules
        paid = karma - cost
        if paid <= 0 and rules.defeat_check == "after_payment":
            return ZERO
        rec = self.model.rec(filled, colours, card, o, x)
        if rules.cap_rule == "before_placement":
            gain = min(rec, cost)
        elif self.before_turn:
            gain = min(rec, self.ceiling - paid, allowance)
        else:
            gain = min(rec, self.ceiling - paid)
        karma, allowance = paid + gain, allowance - gain if self.before_turn else 0
        if karma <= 0:
            return ZERO
        filled, colours = self.model.place(filled, colours, card, o, x)
        if filled == self.full:
            return ONE
        hand &= ~(1 << card)
        if not hand:
            return self.turn_start(filled, colours, unseen, karma)
        if self.per_placement:
            return self.roll_node(filled, colours, unseen, hand, karma, allowance)
        if self.blocks(hand, roll):  # the stuck rule: reroll (paying 1 under reroll_penalty_1)
            return self.roll_node(filled, colours, unseen, hand, karma - 1 if self.penalty else karma, allowance)
        return self.decision(filled, colours, unseen, hand, roll, karma, allowance)


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


_SOLVERS: dict = {}


def _solver(rules: Rules, centre: str, cards) -> Solver:
    key = (rules, centre, cards)
    if key not in _SOLVERS:
        model = build_model(rules, centre, cards)
        laid = replace(rules, centre_config=centre)  # once the centre is laid, RANDOM plays as that configuration
        teaching = cards.name == _teaching_deck_name()  # the name means these cards (cards.py refuses edited copies)
        shipped = laid == Rules() and teaching
        recorded = (lambda: _recorded_root(laid)) if teaching and not shipped else None
        _SOLVERS[key] = Solver(model, default_tables if shipped else None, recorded_root=recorded)
    return _SOLVERS[key]


def _recorded_root(rules: Rules) -> Fraction | None:
    """The recorded exact whole-game value of ``rules`` (a fixed-centre ``SINGLE_VARIANTS`` entry), or None."""
    name = next((name for name, variant in SINGLE_VARIANTS.items() if variant == rules), None)
    value = variant_values().get(name)
    return value if isinstance(value, Fraction) else None


_TABLES: list = []  # the one load of the shipped tables: [ShippedTables], or [the error that refused them]


def default_tables() -> ShippedTables:
    """The shipped default tables, read and checked once per process. A refusal is remembered too, so a
    board asking at every click does not read and hash the 10 MB file again."""
    if not _TABLES:
        try:
            _TABLES.append(ShippedTables())
        except SolverTableError as error:
            _TABLES.append(error)
    if isinstance(_TABLES[0], SolverTableError):
        raise type(_TABLES[0])(*_TABLES[0].args)
    return _TABLES[0]


default_tables.cache_clear = _TABLES.clear  # forget the load (tests that point the module at another file)


@lru_cache(maxsize=1)
def _teaching_deck_name() -> str:
    return new_game(explicit_chance=True).cards.name


# --------------------------------------------------------------------------- the public contract


def _check_pangu(state) -> None:
    """A clear refusal of anything but a Pangu position (another game's state has no ring nor Karma)."""
    if not isinstance(state, State):
        raise TypeError(f"the Pangu solver answers Pangu positions (a gamelib.pangu State), not a "
                        f"{type(state).__module__}.{type(state).__name__}")


def win_probability(state) -> Fraction:
    """The exact chance of winning from ``state`` with optimal play (an expectation at chance nodes)."""
    _check_pangu(state)
    if state.is_terminal:
        return ONE if state.status == "WON" else ZERO
    if state.current_player == CHANCE:
        return _chance_value(state)
    filled, colours, unseen, hand, roll, karma, allowance = position_of(state)
    return _solver_of(state).decision(filled, colours, unseen, hand, roll, karma, allowance)


def action_values(state) -> dict:
    """``{action: Fraction}``: every legal action's exact value (play it, then optimally)."""
    _check_pangu(state)
    if state.is_terminal or state.current_player == CHANCE:
        return {}
    solver = _solver_of(state)
    filled, colours, unseen, hand, roll, karma, allowance = position_of(state)
    model = solver.model
    index = {cell: x for x, cell in enumerate(model.ring)}
    values = {}
    for action in state.legal_actions():
        card = model.card_ids.index(action.card)
        cost = state.cost(action.card, action.die)
        o = model.orientations.index(action.orientation)
        values[action] = solver.after(filled, colours, unseen, hand, roll, karma, allowance, card, cost,
                                      index[tuple(action.cell)], o)
    return values


def _solver_of(state) -> Solver:
    model = model_for(state)
    return _solver(state.rules, model.centre, state.cards)


def _chance_value(state) -> Fraction:
    if state.centre_cells and not state.revealed and state.roll is None and _at_turn_start(state):
        filled, colours, unseen, _, _, karma, _ = position_of(state)
        return _solver_of(state).turn_start(filled, colours, unseen, karma)
    if state.centre_cells and state.revealed and state.roll is None and _waiting_for_roll(state):
        filled, colours, unseen, hand, _, karma, allowance = position_of(state)
        return _solver_of(state).roll_node(filled, colours, unseen, hand, karma, allowance)
    return sum(p * win_probability(state.apply(outcome)) for outcome, p in state.chance_outcomes())


def _at_turn_start(state) -> bool:
    outcomes = state.chance_outcomes()
    return len(outcomes) == len(state.unseen_cards()) and all(isinstance(o, str) for o, _ in outcomes)


def _waiting_for_roll(state) -> bool:
    return len(state.chance_outcomes()) == 36


# --------------------------------------------------------------------------- bots, exactly


def evaluate_policy(policy, rules: Rules | None = None, state=None) -> Fraction:
    """A bot's exact chance of winning: every chance outcome followed with its probability.

    ``policy(state, rng) -> Action`` is called once per distinct decision state (so it must be
    deterministic), except ``random_policy``, which is uniform over the legal actions. From the
    start of a game (``state=None``) the bots' recorded whole-game values (:func:`bot_values`,
    computed by ``solver_policies`` with numba) are returned; otherwise this enumerates every
    deal and roll the bot meets: exact, but only feasible in pure Python from late positions
    (pass ``state``, e.g. a turn-3 position).
    """
    from gamelib.pangu.bots import POLICIES, random_policy

    if state is None:  # the whole game: the value computed over every deal and roll, if it is recorded
        name = next((name for name, bot in POLICIES.items() if bot is policy), None)
        shipped = bot_values(rules)
        if name in shipped:
            return shipped[name]
    if state is None:
        state = new_game(rules=rules or Rules(), explicit_chance=True)
    else:
        _check_pangu(state)
        state = state.with_explicit_chance() if state.current_player != CHANCE else state
    memo: dict = {}
    rng = random.Random(0)
    uniform = policy is random_policy

    def key_of(node):
        return (node.grid, node.revealed, node.roll, node.karma, node.turn_start_karma, node.gained_this_turn,
                node.deck, node.current_player)

    def value(node) -> Fraction:
        if node.is_terminal:
            return ONE if node.status == "WON" else ZERO
        key = key_of(node)
        if key in memo:
            return memo[key]
        if node.current_player == CHANCE:  # a free stuck reroll comes back here: V = S / (1 - p_back)
            total, back = ZERO, ZERO
            for outcome, p in node.chance_outcomes():
                child = node.apply(outcome)
                if not child.is_terminal and key_of(child) == key:
                    back += p
                else:
                    total += p * value(child)
            result = total / (1 - back)
        elif uniform:
            actions = node.legal_actions()
            result = sum(value(node.apply(a)) for a in actions) / len(actions)
        else:
            result = value(node.apply(policy(node, rng)))
        memo[key] = result
        return result

    return value(state)


# --------------------------------------------------------------------------- the bots' recorded values

BOTS_PATH = Path(__file__).with_name("data") / "solver_bots.json"
VARIANTS_PATH = Path(__file__).with_name("data") / "solver_variants.json"
BOTS_NAME, VARIANTS_NAME = "pangu/data/solver_bots.json", "pangu/data/solver_variants.json"  # in the manifest
BOT_NAMES = ("random", "greedy", "lookahead", "optimal")


def records() -> dict:
    """The solver's shipped records as they are written, checked against the package's checksums:
    ``{"bots": data/solver_bots.json, "variants": data/solver_variants.json}`` (each value with its
    command, and the wall and processor time of the run where one was timed)."""
    return {"bots": datafiles.read_json(BOTS_NAME, datafiles.PACKAGE / BOTS_NAME, DamagedTable),
            "variants": datafiles.read_json(VARIANTS_NAME, datafiles.PACKAGE / VARIANTS_NAME, DamagedTable)}


def _rules_name(rules) -> str | None:
    """The ``SINGLE_VARIANTS`` name of ``rules`` (None: the defaults; a name is accepted as is)."""
    if rules is None:
        return "defaults"
    if isinstance(rules, str):
        return rules
    return next((name for name, variant in SINGLE_VARIANTS.items() if variant == rules), None)


def _recorded_chance(entry: dict, path: Path, where: str) -> Fraction:
    """A recorded chance of winning: its "value" p/q with 0 <= p/q <= 1, which its "decimal" (written
    beside it, to 10 places) confirms; anything else is a damaged file."""
    text, decimal = entry.get("value"), entry.get("decimal")
    exact = isinstance(text, str) and re.fullmatch(r"[0-9]{1,60}/0*[1-9][0-9]{0,59}", text)  # no zero denominator
    value = Fraction(text) if exact else None
    if value is None or not 0 <= value <= 1:
        raise DamagedTable(f"the solver's record {path} is damaged: {where} should be a chance p/q between 0 and 1, "
                           f"not {str(text)[:40]!r}")
    if type(decimal) is not float or abs(float(value) - decimal) > 1e-10:
        raise DamagedTable(f"the solver's record {path} is damaged: {where} is {text}, but its decimal says "
                           f"{str(decimal)[:20]}")
    return value


def _mapping(value, path: Path, where: str) -> dict:
    if not isinstance(value, dict):
        raise DamagedTable(f"the solver's record {path} is damaged: {where} should be a JSON object")
    return value


def _reasons(value, path: Path, where: str) -> dict:
    """``{name: sentence}`` (why a value is missing), every entry text."""
    reasons = _mapping(value, path, where)
    if not all(isinstance(reason, str) for reason in reasons.values()):
        raise DamagedTable(f"the solver's record {path} is damaged: every entry of {where} should be a sentence")
    return reasons


def _bots_record() -> tuple[Path, str, dict]:
    """The bots' record (``data/solver_bots.json``), checked: where it was read, its command and
    ``{rules name: entry}``."""
    path = datafiles.PACKAGE / BOTS_NAME
    data = _mapping(datafiles.read_json(BOTS_NAME, path, DamagedTable), path, "the file")
    command = data.get("command")
    if not isinstance(command, str):
        raise DamagedTable(f"the solver's record {path} is damaged: it names no command")
    return path, command, _mapping(data.get("rules"), path, "'rules'")


def _bot_entries(rules) -> tuple[dict, dict]:
    """``({bot: Fraction}, {bot: reason})`` for one rule set, from ``data/solver_bots.json`` (and the optimal
    value of a variant from ``data/solver_variants.json``)."""
    name = _rules_name(rules)
    path, command, recorded = _bots_record()
    entry = _mapping(recorded.get(name, {}) if name else {}, path, f"the entry of {name}")
    values = {}
    for bot, item in _mapping(entry.get("values", {}), path, f"{name}'s values").items():
        where = f"{name}'s value of the {bot} bot"
        values[bot] = _recorded_chance(_mapping(item, path, where), path, where)
    missing = dict(_reasons(entry.get("missing", {}), path, f"{name}'s missing values"))
    if "optimal" not in values and name:
        variant = variant_values().get(name)
        if isinstance(variant, Fraction):
            values["optimal"] = variant
            missing.pop("optimal", None)
    beating = [bot for bot, value in values.items() if value > values.get("optimal", ONE)]
    if beating:  # no bot wins more often than perfect play
        raise DamagedTable(f"the solver's record {path} is damaged: the {beating[0]} bot's value under {name} "
                           "is above perfect play's")
    for bot in BOT_NAMES:
        if bot not in values and bot not in missing:
            missing[bot] = (f"no exact value of the {bot} bot is recorded for {rules if name is None else name}; "
                            f"{command} computes it where supported")
    return values, missing


def bot_values(rules=None) -> dict[str, Fraction]:
    """The exact whole-game chance of winning of each bot whose value is recorded (keys among
    "random", "greedy", "lookahead", "optimal"), under ``rules`` (a ``Rules``, a ``SINGLE_VARIANTS``
    name, or None for the defaults). Computed over every deal and roll, not simulated."""
    values, _ = _bot_entries(rules)
    return values


def bot_values_missing(rules=None) -> dict[str, str]:
    """Why each bot absent from :func:`bot_values` has no exact value under ``rules``."""
    _, missing = _bot_entries(rules)
    return missing


# --------------------------------------------------------------------------- single-variant whole-game values


def variant_values(path: Path | None = None) -> dict[str, Fraction | str]:
    """Each ``SINGLE_VARIANTS`` entry's whole-game optimal value, as recorded by
    ``python -m gamelib.pangu.solver_build --variant NAME --record`` (numba, not at import).

    Maps a variant's name to its exact ``Fraction``, or to a string saying why it is not an exact
    value: the reason it is out of reach, or for an approximation, "approximate: ..." with its
    float value and error bound. The timings and thread counts are in the file itself. ``path``
    reads a copy standing for the shipped record (checked against the package's checksums all the same).
    """
    path = datafiles.PACKAGE / VARIANTS_NAME if path is None else Path(path)
    data = _mapping(datafiles.read_json(VARIANTS_NAME, path, DamagedTable), path, "the file")
    values: dict[str, Fraction | str] = {}
    for name, entry in _mapping(data.get("variants", {}), path, "'variants'").items():
        entry = _mapping(entry, path, f"the entry of {name}")
        if entry.get("approximate"):
            decimal, bound = entry.get("decimal"), entry.get("error_bound")
            if not all(type(x) is float and 0 <= x <= 1 for x in (decimal, bound)) or not isinstance(
                    entry["approximate"], str):
                raise DamagedTable(f"the solver's record {path} is damaged: {name}'s approximation needs a decimal, "
                                   "an error bound and a sentence")
            values[name] = f"approximate: {decimal} (error below {bound:.1e}); {entry['approximate']}"
        else:
            values[name] = _recorded_chance(entry, path, f"the value of {name}")
    for name, reason in _reasons(data.get("out_of_reach", {}), path, "'out_of_reach'").items():
        values.setdefault(name, reason)
    return values
