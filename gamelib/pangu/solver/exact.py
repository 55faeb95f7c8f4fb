"""Pangu solved in pure Python: the exact optimal chance of winning of a position, and of every move.

An exact expectimax over the compact positions of ``model`` with ``Fraction`` values, memoised per
rule set, deck and centre. Under the default rules it stops at the shipped turn-start tables of
turns 1-3 (``tables``); under other rules it answers from turn 3 on (and the start of a game whose
whole-game value ``records`` holds), and earlier positions raise :class:`OutOfReach` naming the
command that computes the whole game. See docs/pangu_solver.md.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from gamelib.core import CHANCE, replace_fields
from gamelib.pangu.actions import search_chance, search_successor
from gamelib.pangu.cards import LAYOUTS, ROLLS
from gamelib.pangu.rules import SINGLE_VARIANTS, Rules, State, new_game
from gamelib.pangu.solver.model import Model, build_model, hand_size, popcount
from gamelib.pangu.solver.records import bot_values, variant_values
from gamelib.pangu.solver.tables import SHIPPED_LEVELS, ShippedTables, SolverTableError

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
    """The solver's model of ``state``'s rules, deck and laid centre."""
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
        """The card indices of ``mask``, in increasing order."""
        return [c for c in range(self.cards) if mask >> c & 1]

    def _turn_start(self, filled: int, colours: int, unseen: int, karma: int) -> Fraction:
        """The mean over the hands a turn start may reveal (a table lookup at the shipped levels)."""
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
            raise OutOfReach(
                f"the exact value before turn 3 under {self.model.rules} needs whole-game tables, "
                "which are shipped only for the default rules; the whole game's value is computed by "
                "python -m gamelib.pangu.solver optimal --variant NAME"
            )
        hands = list(combinations(self.members(unseen), hand_size(left)))
        allowance = self.ceiling - karma if self.before_turn else 0
        total = sum(self.roll_node(filled, colours, unseen & ~_mask(h), _mask(h), karma, allowance) for h in hands)
        return total / len(hands)

    def blocks(self, hand: int, roll) -> bool:
        """The roll blocks every card of ``hand`` (the stuck rule applies)."""
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
        """The best placement's value after a roll: every card of the hand, cell and orientation."""
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
    """The bit mask of card indices ``cards``."""
    return sum(1 << c for c in cards)


@lru_cache(maxsize=None)
def _solver(rules: Rules, centre: str, cards) -> Solver:
    """The one memoised solver of a rule set, centre and deck; the shipped tables (the defaults) or the
    recorded whole-game value (a teaching-deck variant) where they exist."""
    model = build_model(rules, centre, cards)
    laid = replace(rules, centre_config=centre)  # once the centre is laid, RANDOM plays as that configuration
    teaching = cards.name == _teaching_deck_name()  # the name means these cards (cards.py refuses edited copies)
    shipped = laid == Rules() and teaching
    recorded = (lambda: _recorded_root(laid)) if teaching and not shipped else None
    return Solver(model, default_tables if shipped else None, recorded_root=recorded)


def forget_solvers() -> None:
    """Drop every memoised solver (a cold start: benches time the first look at a position)."""
    _solver.cache_clear()


def _recorded_root(rules: Rules) -> Fraction | None:
    """The recorded exact whole-game value of ``rules`` (a fixed-centre ``SINGLE_VARIANTS`` entry), or None."""
    name = next((name for name, variant in SINGLE_VARIANTS.items() if variant == rules), None)
    value = variant_values().get(name)
    return value if isinstance(value, Fraction) else None


def default_tables() -> ShippedTables:
    """The shipped default tables, read and checked once per process. A refusal is remembered too, so a
    board asking at every click does not read and hash the 10 MB file again."""
    loaded = _load_default_tables()
    if isinstance(loaded, SolverTableError):
        raise type(loaded)(*loaded.args)
    return loaded


@lru_cache(maxsize=1)
def _load_default_tables() -> ShippedTables | SolverTableError:
    try:
        return ShippedTables()
    except SolverTableError as error:
        return error


default_tables.cache_clear = _load_default_tables.cache_clear  # forget the load (tests using another file)


@lru_cache(maxsize=1)
def _teaching_deck_name() -> str:
    """The teaching deck's name (the shipped tables and records are of its cards)."""
    return new_game(explicit_chance=True).cards.name


# --------------------------------------------------------------------------- the public contract


def _check_pangu(state) -> None:
    """A clear refusal of anything but a Pangu position (another game's state has no ring nor Karma)."""
    if not isinstance(state, State):
        raise TypeError(
            f"the Pangu solver answers Pangu positions (a gamelib.pangu State), not a "
            f"{type(state).__module__}.{type(state).__name__}"
        )


def win_probability(state) -> Fraction:
    """The exact chance of winning from ``state`` with optimal play (an expectation at chance nodes)."""
    _check_pangu(state)
    if state.is_terminal:
        return ONE if state.status == "WON" else ZERO
    if state.current_player == CHANCE:
        return _chance_value(state)
    filled, colours, unseen, hand, roll, karma, allowance = position_of(state)
    return solver_of(state).decision(filled, colours, unseen, hand, roll, karma, allowance)


def action_values(state) -> dict:
    """``{action: Fraction}``: every legal action's exact value (play it, then optimally)."""
    _check_pangu(state)
    if state.is_terminal or state.current_player == CHANCE:
        return {}
    solver = solver_of(state)
    filled, colours, unseen, hand, roll, karma, allowance = position_of(state)
    model = solver.model
    index = {cell: x for x, cell in enumerate(model.ring)}
    values = {}
    for action in state.legal_actions():
        card = model.card_ids.index(action.card)
        cost = state.cost(action.card, action.die)
        o = model.orientations.index(action.orientation)
        values[action] = solver.after(
            filled, colours, unseen, hand, roll, karma, allowance, card, cost, index[tuple(action.cell)], o
        )
    return values


def solver_of(state) -> Solver:
    """The memoised :class:`Solver` of ``state``'s rules, deck and centre (its nodes are the tests' handle)."""
    model = model_for(state)
    return _solver(state.rules, model.centre, state.cards)


def _chance_value(state) -> Fraction:
    """A chance node's value: a turn start or a roll node from the memo, else the mean over its outcomes."""
    if state.centre_cells and not state.revealed and state.roll is None and _at_turn_start(state):
        filled, colours, unseen, _, _, karma, _ = position_of(state)
        return solver_of(state).turn_start(filled, colours, unseen, karma)
    if state.centre_cells and state.revealed and state.roll is None and _waiting_for_roll(state):
        filled, colours, unseen, hand, _, karma, allowance = position_of(state)
        return solver_of(state).roll_node(filled, colours, unseen, hand, karma, allowance)
    return sum(p * win_probability(state.apply(outcome)) for outcome, p in state.chance_outcomes())


def _at_turn_start(state) -> bool:
    """The chance node draws the next hand (its outcomes are the unseen cards)."""
    outcomes = state.chance_outcomes()
    return len(outcomes) == len(state.unseen_cards()) and all(isinstance(o, str) for o, _ in outcomes)


def _waiting_for_roll(state) -> bool:
    """The chance node rolls the dice (36 outcomes)."""
    return len(state.chance_outcomes()) == 36


# --------------------------------------------------------------------------- bots, exactly


def _node_key(node) -> tuple:
    """What ``evaluate_policy`` memoises a node by: every field the rest of the game depends on."""
    fields = (node.grid, node.revealed, node.roll, node.karma, node.turn_start_karma, node.gained_this_turn)
    return (*fields, node.deck, node.current_player)


def _hand_set_key(node) -> tuple:
    """``_node_key`` with the revealed cards sorted: what ``evaluate_policy`` memoises ``random_policy``'s nodes
    by. That bot is uniform over the legal actions, which the engine lists per revealed card (the order only
    orders the list), and a placement removes its card from the hand keeping the rest; a draw appends its card
    and removes it from the deck wherever it lies (the deck left is the same in any order of draws). So hands
    holding the same cards in another order have the same value, and each is computed once, not once per
    order (a turn start's 3 cards were 6 orders of the same subtrees)."""
    fields = (node.grid, tuple(sorted(node.revealed)), node.roll, node.karma, node.turn_start_karma)
    return (*fields, node.gained_this_turn, node.deck, node.current_player)


def exact_sum(values) -> Fraction:
    """The exact sum of ``values`` (Fractions): the numerators over each distinct denominator are added as
    integers first, then one Fraction per denominator. The same sum as ``sum(values)``, which reduces by a
    gcd at every addition; a node's children share a few denominators, so this is several times cheaper."""
    numerators: dict[int, int] = {}
    for value in values:
        numerators[value.denominator] = numerators.get(value.denominator, 0) + value.numerator
    return sum((Fraction(n, d) for d, n in numerators.items()), ZERO)


def _search_step_of(state):
    """``step(node, move)``: the state ``node.apply(move)`` builds, without its log, by the engine's unchecked
    search path (``actions.search_chance`` / ``search_successor``, which tests/test_pangu_bots.py proves build
    the positions ``apply`` builds under every variant). ``evaluate_policy`` uses it for ``random_policy``, whose
    positions no policy reads, and passes it only the outcomes and actions the engine listed, where the
    checks of ``apply`` would only repeat themselves (about a fifth of the evaluation's time)."""
    by_id, index_of = state.cards.by_id, LAYOUTS[state.rules.grid].index_of

    def step(node, move):
        if node.pending:
            return search_chance(node, move)
        return search_successor(node, by_id[move[0]], move[1], index_of[move[2]], move[3])

    return step


def evaluate_policy(policy, rules: Rules | None = None, state=None) -> Fraction:
    """A bot's exact chance of winning: every chance outcome followed with its probability.

    ``policy(state, rng) -> Action`` is called once per distinct decision state (so it must be
    deterministic), except ``random_policy``, which is uniform over the legal actions. From the
    start of a game (``state=None``) the bots' recorded whole-game values (:func:`bot_values`,
    computed by the numba evaluators ``greedy``, ``lookahead`` and
    ``random_bot``) are returned; otherwise this enumerates every
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
    if uniform:  # no policy reads these states: the engine's search path, without a log
        state = replace_fields(state, log=())
        step, node_key = _search_step_of(state), _hand_set_key
    else:  # a policy may read the log (State.placements, last_event) and the hand's order: apply, as in a game
        step, node_key = State.apply, _node_key

    def value(node) -> Fraction:
        if node.is_terminal:
            return ONE if node.status == "WON" else ZERO
        key = node_key(node)
        if key in memo:
            return memo[key]
        if node.current_player == CHANCE:  # a free stuck reroll comes back here: V = S / (1 - p_back)
            by_chance, back = {}, ZERO  # the outcomes' values, grouped by their probability
            for outcome, p in node.chance_outcomes():
                child = step(node, outcome)
                if not child.is_terminal and node_key(child) == key:
                    back += p
                else:
                    by_chance.setdefault(p, []).append(value(child))
            total = exact_sum(p * exact_sum(values) for p, values in by_chance.items())
            result = total / (1 - back)
        elif uniform:
            actions = node.legal_actions()
            result = exact_sum([value(step(node, a)) for a in actions]) / len(actions)
        else:
            result = value(node.apply(policy(node, rng)))
        memo[key] = result
        return result

    return value(state)
