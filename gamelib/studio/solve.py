"""The exact value of a small game: every reachable position's winning chances under optimal play.

>>> solution = solve(pig, pig.Rules(goal=100))  # 2,039,004 positions and chance nodes
>>> solution.value(pig.new_game())                       # (P(seat 0 wins), P(seat 1 wins))
>>> solution.best_action(state), solution.table()

How (the method of Neller and Presser, "Optimal Play of the Dice Game Pig", 2004, for any game):

1. **The position graph, once.** From ``new_game(rules=rules, explicit_chance=True)`` every
   reachable position is listed through the contract (``legal_actions``, ``chance_outcomes``,
   ``apply``), each counted once by ``state.key()``. A game larger than ``max_positions`` is
   refused with the count reached, before memory runs out.
2. **Exact where the graph has no cycle**: each position's value is computed once its successors'
   are known, in :class:`fractions.Fraction` (expectimax: a mean over chance, the mover's best
   over moves).
3. **A fixed point where positions repeat** (Pig returns to a position after two rolls of 1):
   the positions are grouped into strongly connected components; components are solved from the
   end of the game backwards, a level of independent components at a time, each by value
   iteration in floats (numpy) until no value moves by more than ``tolerance`` (default 1e-12).
   The residual of the whole solution (the largest change one more sweep would make) and the
   number of sweeps are reported.

Which games: solo games (the value is the chance of winning) and two-player games whose
returns always add up to 1 (one player's win is the other's loss; a shared win is half each), whose
value is seat 0's chance of winning. Refused, with the reason: games that hide information (a
player's best move then depends on what they believe about the hidden part, not on the position,
so a value per position does not exist) and games of three or more players (a player's best
move then depends on how the others choose between moves that are equal for them: "optimal
play" has no single value).

:func:`evaluate_policies` gives the exact winning chances of fixed policies (Pig's "hold at 20"),
and ``solve(..., fixed={seat: policy})`` the best reply to a fixed opponent.
"""

from __future__ import annotations

import functools
import random
import time
from array import array
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gamelib.core import CHANCE, Policy, returns_for

DEFAULT_MAX_POSITIONS = 3_000_000  # Pig to 100 has about 2 million (positions and chance nodes)
DEFAULT_TOLERANCE = 1e-12
MAX_SWEEPS = 1_000_000  # per level: far above any game that converges (Pig to 100 needs a few hundred)

DECISION, CHANCE_NODE, END = 0, 1, 2


class TooManyPositions(ValueError):
    """The game has more reachable positions than the solver was allowed to list."""

    def __init__(self, reached: int, limit: int):
        super().__init__(
            f"this game has more than {limit:,} reachable positions (the solver stopped after listing {reached:,}): "
            f"too large to solve exactly here. Solve a smaller variant (a lower goal, fewer pieces), or pass "
            f"max_positions=... if the machine has the memory (about 300 bytes a position)."
        )
        self.reached = reached
        self.limit = limit


# --------------------------------------------------------------------------- the graph


@dataclass
class _Graph:
    """Every reachable position as a node: its kind, mover, successors and (at a decision) actions."""

    index: dict  # key -> node id
    kinds: np.ndarray  # DECISION, CHANCE_NODE or END
    movers: np.ndarray  # the seat to move at a decision, else -1
    offsets: np.ndarray  # successors of node n: targets[offsets[n]:offsets[n + 1]]
    targets: np.ndarray
    edge_probability: np.ndarray  # a chance edge's index in ``probabilities``; -1 on a decision's edges
    probabilities: list  # the distinct exact probabilities (Fractions)
    actions: list  # per node: the tuple of actions of its edges (decisions), else ()
    end_values: dict  # END node -> seat 0's exact return (Fraction)


def _new_game(game: Any) -> Callable[..., Any]:
    return game.new_game if hasattr(game, "new_game") else game


def _game_name(game: Any) -> str:
    return str(getattr(game, "GAME", getattr(game, "__name__", "game")))


def _check_solvable(state: Any, name: str) -> int:
    """The number of players, after refusing what this solver cannot solve, with the reason."""
    if getattr(state, "hides_information", False):
        raise ValueError(
            f"{name} hides information, which this solver refuses: a player's best move then depends on what "
            f"they believe about the hidden part, not on the position alone, so there is no value per position "
            f"to compute (that needs a solver of information sets, such as counterfactual regret minimisation)"
        )
    if not hasattr(state, "key"):
        raise ValueError(f"{name}'s states have no key(): the solver needs it to recognise a position reached twice")
    players = len(state.returns())
    if players > 2:
        raise ValueError(
            f"{name} has {players} players; this solver solves solo and two-player games only: with three or "
            f"more, a player's best move depends on how the others choose between moves that are equal for "
            f"them, so optimal play has no single value"
        )
    return players


def _end_value(given: Sequence[float], players: int, name: str) -> Fraction:
    """Seat 0's exact value at the end of a game with returns ``given`` (checked to add up to 1 for two players)."""
    value, adds_up = _exact_end(tuple(given))
    if players == 2 and not adds_up:
        raise ValueError(
            f"{name} ended with returns {list(given)}, which do not add up to 1: the solver solves "
            f"two-player games where one player's win is the other's loss (a shared win is half each)"
        )
    return value


@functools.lru_cache(maxsize=1024)
def _exact_end(given: tuple) -> tuple[Fraction, bool]:
    """(seat 0's return as an exact fraction, whether the exact returns add up to 1), for the
    returns ``given`` (a game has a handful of different endings, each met at many positions)."""
    returns = [Fraction(value).limit_denominator(1_000_000) for value in given]
    return returns[0], sum(returns) == 1


class _StateWalker:
    """The contract's way through a game: states, ``key()``, ``legal_actions``, ``chance_outcomes`` and
    ``search_step`` (or ``apply``)."""

    def __init__(self, start: Any, players: int, name: str):
        self.start, self.players, self.name = start, players, name

    def key(self, state: Any) -> Any:
        return state.key()

    def state(self, state: Any) -> Any:
        return state

    def expand(self, state: Any, fixed: Mapping[int, Policy], policy_rng: random.Random) -> tuple:
        """``(kind, mover, end value, actions, probabilities, successors)`` of one position."""
        step = getattr(state, "search_step", state.apply)  # unchecked: the actions come from the state itself
        if state.is_terminal:
            return END, -1, _end_value(state.returns(), self.players, self.name), (), (), ()
        mover = state.current_player
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            return (
                CHANCE_NODE,
                -1,
                None,
                (),
                [Fraction(p) for _, p in outcomes],
                [step(outcome) for outcome, _ in outcomes],
            )
        legal = state.legal_actions() if mover not in fixed else [fixed[mover](state, policy_rng)]
        if not legal:
            raise ValueError(f"{self.name}: a position that is not over has no legal action: {state}")
        return DECISION, mover, None, tuple(legal), (), [step(action) for action in legal]


class _StudioWalker(_StateWalker):
    """A studio game walked through the student's own functions on bare positions (its ``key()``),
    without building a checked state for each: several times faster for the half million positions
    of Pig. A student function that fails or returns something wrong is run again through the
    checked state, whose error names the function."""

    def __init__(self, start: Any, players: int, name: str):
        super().__init__(start.position, players, name)
        self.game, self.state_class, self.seed = start._game, type(start), start.seed
        # the probabilities of the distribution checked last: the studio hands back the very same checked
        # list while a game returns the same distribution (Pig's die), so they are listed once, not per node
        self._last_outcomes: Any = None
        self._last_probabilities: list = []

    def key(self, position: Any) -> Any:
        return position

    def state(self, position: Any) -> Any:
        return self.state_class._make(self.game, position, self.seed, 0, True, None)

    def expand(self, position: Any, fixed: Mapping[int, Policy], policy_rng: random.Random) -> tuple:
        try:
            return self._expand(position, fixed, policy_rng)
        except Exception:
            return super().expand(self.state(position), fixed, policy_rng)  # raises the named error

    def _expand(self, position: Any, fixed: Mapping[int, Policy], policy_rng: random.Random) -> tuple:
        from gamelib.studio.game import _checked_distribution

        game = self.game
        winners = game.winners(position)
        if winners is not None:
            returns = returns_for(sorted(set(winners)), self.players)
            return END, -1, _end_value(returns, self.players, self.name), (), (), ()
        distribution = game.chance(position)
        if distribution is not None:
            outcomes = _checked_distribution(game, position, distribution)
            if outcomes is not self._last_outcomes:
                self._last_outcomes, self._last_probabilities = outcomes, [p for _, p in outcomes]
            return (
                CHANCE_NODE,
                -1,
                None,
                (),
                self._last_probabilities,
                [game.play(position, outcome) for outcome, _ in outcomes],
            )
        mover = game.to_move(position)
        legal = game.moves(position) if mover not in fixed else [fixed[mover](self.state(position), policy_rng)]
        if type(mover) is not int or not 0 <= mover < self.players or not legal:
            raise ValueError("checked again through the state")
        return DECISION, mover, None, tuple(legal), (), [game.play(position, move) for move in legal]


def _walker(start: Any, players: int, name: str) -> _StateWalker:
    from gamelib.studio.game import GameState

    if isinstance(start, GameState):
        return _StudioWalker(start, players, name)
    return _StateWalker(start, players, name)


def _build_graph(walker: _StateWalker, max_positions: int, fixed: Mapping[int, Policy], progress: bool) -> _Graph:
    """List every position reachable from the start once (breadth first), refusing past ``max_positions``."""
    key_of = None if isinstance(walker, _StudioWalker) else walker.key  # a studio position is its own key
    index = {walker.key(walker.start): 0}
    frontier = deque([walker.start])
    kinds, movers = array("b"), array("b")
    offsets, targets = array("q", [0]), array("q")
    edge_probability = array("i")
    probability_ids: dict = {}  # each distinct probability once, as (numerator, denominator) (Pig has one, 1/6)
    actions: list = []
    end_values: dict = {}
    interned: dict = {}  # equal action tuples are stored once (Pig has two)
    policy_rng = random.Random(0)
    last_probabilities, last_ids = None, []  # a walker may hand back the same list of probabilities (the studio's)
    bar = _progress_bar(progress, walker.name)
    node = 0
    while frontier:
        kind, mover, end_value, legal, probabilities, successors = walker.expand(frontier.popleft(), fixed, policy_rng)
        kinds.append(kind)
        movers.append(mover)
        if kind == END:
            end_values[node] = end_value
        actions.append(interned.setdefault(legal, legal))
        if kind == CHANCE_NODE:
            if probabilities is not last_probabilities:
                # keyed by (numerator, denominator): hashing a Fraction computes a modular inverse each time
                last_probabilities, last_ids = (
                    probabilities,
                    [
                        probability_ids.setdefault((p.numerator, p.denominator), len(probability_ids))
                        for p in probabilities
                    ],
                )
            edge_probability.extend(last_ids)
        else:
            edge_probability.extend([-1] * len(successors))
        for successor in successors:
            key = successor if key_of is None else key_of(successor)
            target = index.get(key)
            if target is None:
                target = index[key] = len(index)
                if target >= max_positions:
                    bar.close()
                    raise TooManyPositions(len(index), max_positions)
                frontier.append(successor)
            targets.append(target)
        offsets.append(len(targets))
        node += 1
        if node % 20_000 == 0:
            bar.update(20_000)
    bar.update(node % 20_000)
    bar.close()
    return _Graph(
        index,
        np.frombuffer(kinds, dtype=np.int8).copy(),
        np.frombuffer(movers, dtype=np.int8).copy(),
        np.frombuffer(offsets, dtype=np.int64).copy(),
        np.frombuffer(targets, dtype=np.int64).copy(),
        np.frombuffer(edge_probability, dtype=np.int32).copy(),
        [Fraction(numerator, denominator) for numerator, denominator in probability_ids],
        actions,
        end_values,
    )


def _progress_bar(shown: bool, name: str):
    from tqdm.auto import tqdm

    # appears only when the listing takes more than two seconds (small games stay quiet)
    return tqdm(desc=f"listing the positions of {name}", unit=" positions", disable=not shown, delay=2, mininterval=0.5)


# --------------------------------------------------------------------------- components


def _components(graph: _Graph) -> tuple[np.ndarray, np.ndarray, bool]:
    """Each node's strongly connected component (Tarjan, without recursion), numbered so that a
    component's successors have smaller numbers; each node's finishing time in the depth-first
    search; and whether the graph has a cycle."""
    offsets, targets = graph.offsets.tolist(), graph.targets.tolist()
    count = len(offsets) - 1
    order = [-1] * count
    low = [0] * count
    component = [-1] * count
    stack: list = []
    on_stack = [False] * count
    finish = [0] * count
    counter = components = finished = 0
    cyclic = False
    for root in range(count):
        if order[root] != -1:
            continue
        order[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, offsets[root])]
        while work:
            node, edge = work[-1]
            end = offsets[node + 1]
            while edge < end:
                target = targets[edge]
                edge += 1
                if order[target] == -1:
                    work[-1] = (node, edge)
                    order[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack[target] = True
                    work.append((target, offsets[target]))
                    break
                if on_stack[target]:
                    cyclic = True  # an edge back into the stack closes a cycle (a self-loop too)
                    if order[target] < low[node]:
                        low[node] = order[target]
            else:
                work.pop()
                finish[node] = finished
                finished += 1
                if low[node] == order[node]:
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        component[member] = components
                        if member == node:
                            break
                    components += 1
                if work:
                    parent = work[-1][0]
                    if low[node] < low[parent]:
                        low[parent] = low[node]
    return np.array(component, dtype=np.int64), np.array(finish, dtype=np.int64), cyclic


def _layers(graph: _Graph, component: np.ndarray, finish: np.ndarray) -> np.ndarray:
    """Each node's layer inside its component, for Gauss-Seidel sweeps: an edge to a node that
    finished earlier in the depth-first search (every edge but those back to an ancestor) never
    closes a cycle, so a node's layer is one more than the highest layer such edges lead to. Sweeping a component
    layer 0 first takes every such edge's newest value; only the edges that close cycles wait for
    the next sweep (in Pig: the rolls of 1, which go back to the start of a turn)."""
    offsets, targets = graph.offsets.tolist(), graph.targets.tolist()
    comp, finished = component.tolist(), finish.tolist()
    layer = [0] * len(comp)
    for node in np.argsort(finish).tolist():  # a node's edges that close no cycle lead to nodes finished before it
        mine, when, highest = comp[node], finished[node], -1
        for target in targets[offsets[node] : offsets[node + 1]]:
            if comp[target] == mine and finished[target] < when and layer[target] > highest:
                highest = layer[target]
        layer[node] = highest + 1
    return np.array(layer, dtype=np.int64)


def _levels(graph: _Graph, component: np.ndarray) -> np.ndarray:
    """Each node's level: 0 for a component with no way out, else one more than the highest
    level of the components it leads to (so components of one level never lead to each other)."""
    count = int(component.max()) + 1 if len(component) else 0
    sources = np.repeat(np.arange(len(component)), np.diff(graph.offsets))
    source_component, target_component = component[sources], component[graph.targets]
    crossing = source_component != target_component
    source_component, target_component = source_component[crossing], target_component[crossing]
    level = np.zeros(count, dtype=np.int64)
    if len(source_component):
        order = np.argsort(source_component, kind="stable")
        source_component, target_component = source_component[order], target_component[order]
        starts = np.searchsorted(source_component, np.arange(count))
        ends = np.searchsorted(source_component, np.arange(count), side="right")
        level_list = level.tolist()
        targets_list = target_component.tolist()
        for comp in range(count):  # successors have smaller numbers: their levels are known
            start, end = int(starts[comp]), int(ends[comp])
            if start < end:
                level_list[comp] = 1 + max(level_list[t] for t in targets_list[start:end])
        level = np.array(level_list, dtype=np.int64)
    return level[component]


# --------------------------------------------------------------------------- values


def _exact_values(graph: _Graph, component: np.ndarray) -> list:
    """Seat 0's exact value of every node of an acyclic graph, successors first."""
    values: list = [None] * len(component)
    offsets, targets = graph.offsets.tolist(), graph.targets.tolist()
    kinds, movers = graph.kinds.tolist(), graph.movers.tolist()
    probability = [None if p < 0 else graph.probabilities[p] for p in graph.edge_probability.tolist()]
    for node in np.argsort(component, kind="stable").tolist():
        kind = kinds[node]
        if kind == END:
            values[node] = graph.end_values[node]
            continue
        edges = range(offsets[node], offsets[node + 1])
        if kind == CHANCE_NODE:
            values[node] = sum((probability[e] * values[targets[e]] for e in edges), Fraction(0))
        else:
            options = [values[targets[e]] for e in edges]
            values[node] = max(options) if movers[node] == 0 else min(options)
    return values


def _float_values(
    graph: _Graph, level: np.ndarray, component: np.ndarray, layer: np.ndarray, finish: np.ndarray, tolerance: float
) -> tuple[np.ndarray, int]:
    """Seat 0's value of every node, a level of components at a time (their successors outside
    the level are solved already). A level with cycles is first solved by policy iteration
    (:func:`_policy_iteration`), then value iteration sweeps its layers in order (Gauss-Seidel)
    until no value moves by more than ``tolerance``/10; returns the most sweeps a level needed."""
    values = np.zeros(len(level))
    for node, value in graph.end_values.items():
        values[node] = float(value)
    probabilities = _edge_weights(graph)
    most_sweeps = 0
    order = np.lexsort((layer, level))
    boundaries = np.searchsorted(level[order], np.arange(int(level.max()) + 2))
    for lower, upper in zip(boundaries[:-1], boundaries[1:]):
        nodes = order[lower:upper]
        nodes = nodes[graph.kinds[nodes] != END]
        if not len(nodes):
            continue
        groups = np.split(nodes, np.flatnonzero(np.diff(layer[nodes])) + 1)
        sweeps_of_layers = [(group, _level_sweep(graph, group, probabilities)) for group in groups]
        singletons = len(np.unique(component[nodes])) == len(nodes) and not _has_self_loop(graph, nodes)
        if not singletons:
            _policy_iteration(graph, nodes, groups, component, finish, values, probabilities)
        sweeps = 0
        while True:
            change = 0.0
            for group, sweep in sweeps_of_layers:
                new = sweep(values)
                change = max(change, float(np.max(np.abs(new - values[group]))))
                values[group] = new
            sweeps += 1
            if singletons or change <= tolerance / 10:  # a sweep's change understates the error a little
                break
            if sweeps >= MAX_SWEEPS:
                raise RuntimeError(f"value iteration did not converge in {MAX_SWEEPS} sweeps (last change {change:g})")
        most_sweeps = max(most_sweeps, sweeps)
    return values, most_sweeps


MAX_FEEDBACK = 16  # cycle-closing positions per component that policy iteration solves for; more: value iteration only
MAX_POLICY_ROUNDS = 50


def _policy_iteration(
    graph: _Graph,
    nodes: np.ndarray,
    groups: list,
    component: np.ndarray,
    finish: np.ndarray,
    values: np.ndarray,
    probabilities: np.ndarray,
) -> None:
    """Solve a level's components by policy iteration, in place in ``values``.

    With every player's move fixed, each position's value is affine in the values of the few
    positions its component's cycles return to (the targets of the edges that close cycles; in Pig,
    the start of each player's turn): one pass through the layers gives those affine forms, a small
    linear system per component gives the returning positions' values, and so every value. The
    moves are then chosen again from the new values, until they no longer change. Value iteration
    (run after this) checks the result and would finish any level this leaves unconverged. One
    function because the steps share a dozen index arrays built once per level."""
    degrees = graph.offsets[nodes + 1] - graph.offsets[nodes]
    edges = _edge_indices(graph, nodes, degrees)
    sources = np.repeat(nodes, degrees)
    targets = graph.targets[edges]
    inside = component[targets] == component[sources]
    closing = inside & (finish[targets] >= finish[sources])  # back to a depth-first ancestor (or itself)
    following = inside & ~closing
    returning = np.unique(targets[closing])  # the positions the cycles come back to
    comps, comp_of_returning = np.unique(component[returning], return_inverse=True)
    order_in_comp = np.argsort(comp_of_returning, kind="stable")
    counts = np.bincount(comp_of_returning)
    starts_of_comp = np.concatenate(([0], np.cumsum(counts)[:-1]))
    slot_of_returning = np.empty(len(returning), dtype=np.int64)
    slot_of_returning[order_in_comp] = np.arange(len(returning)) - np.repeat(starts_of_comp, counts)
    width = int(counts.max()) if len(counts) else 0
    if width == 0 or width > MAX_FEEDBACK:
        return
    # positions inside the level by their index in ``nodes`` (looked up by sorting: no array of the whole graph)
    by_position = np.argsort(nodes)
    sorted_nodes = nodes[by_position]

    def local(positions: np.ndarray) -> np.ndarray:
        return by_position[np.searchsorted(sorted_nodes, positions)]

    edge_local = np.zeros(len(edges), dtype=np.int64)
    edge_local[following] = local(targets[following])
    edge_slot = np.zeros(len(edges), dtype=np.int64)
    edge_slot[closing] = slot_of_returning[np.searchsorted(returning, targets[closing])]
    returning_local = local(returning)
    node_comp_row = np.minimum(np.searchsorted(comps, component[nodes]), len(comps) - 1)  # rows of comps without
    # returning positions are never used: their positions' forms are zero
    is_chance = graph.kinds[nodes] == CHANCE_NODE
    is_seat0 = graph.movers[nodes] == 0
    edge_starts = np.concatenate(([0], np.cumsum(degrees)[:-1]))
    weights_of_chance = probabilities[edges]
    node_of_edge = np.repeat(np.arange(len(nodes)), degrees)
    group_bounds = np.concatenate(([0], np.cumsum([len(group) for group in groups])))
    chosen = None
    for _ in range(MAX_POLICY_ROUNDS):
        successor = values[targets]
        best = np.where(
            is_seat0, np.maximum.reduceat(successor, edge_starts), np.minimum.reduceat(successor, edge_starts)
        )
        candidates = np.where(successor == best[node_of_edge], np.arange(len(edges)), len(edges))
        new_choice = np.minimum.reduceat(candidates, edge_starts)
        if chosen is not None:  # keep a move unless another is strictly better (no flip-flop between equals)
            keep = successor[chosen] == best
            new_choice = np.where(keep, chosen, new_choice)
            if np.array_equal(new_choice, chosen):
                return
        chosen = new_choice
        weight = np.where(is_chance[node_of_edge], weights_of_chance, 0.0)
        weight[chosen[~is_chance]] = 1.0
        constant = np.zeros(len(nodes))
        forms = np.zeros((len(nodes), width))
        for lower, upper in zip(group_bounds[:-1], group_bounds[1:]):
            first_edge = edge_starts[lower]
            last_edge = edge_starts[upper] if upper < len(nodes) else len(edges)
            span = slice(first_edge, last_edge)
            edge_constant = np.where(
                following[span], constant[edge_local[span]], np.where(closing[span], 0.0, values[targets[span]])
            )
            edge_forms = np.where(following[span, None], forms[edge_local[span]], 0.0)
            closing_here = np.flatnonzero(closing[span])
            edge_forms[closing_here, edge_slot[span][closing_here]] = 1.0
            segment = edge_starts[lower:upper] - first_edge
            constant[lower:upper] = np.add.reduceat(weight[span] * edge_constant, segment)
            forms[lower:upper] = np.add.reduceat(weight[span, None] * edge_forms, segment, axis=0)
        system = np.tile(np.eye(width), (len(comps), 1, 1))
        right = np.zeros((len(comps), width))
        system[comp_of_returning, slot_of_returning] -= forms[returning_local]
        right[comp_of_returning, slot_of_returning] = constant[returning_local]
        solved = np.linalg.solve(system, right[..., None])[..., 0]
        values[nodes] = constant + np.einsum("ij,ij->i", forms, solved[node_comp_row])


def _edge_weights(graph: _Graph) -> np.ndarray:
    """Each edge's probability as a float (1 on a decision's edges, which are chosen, not weighed)."""
    table = np.array([float(p) for p in graph.probabilities] + [1.0])
    return table[graph.edge_probability]  # -1 picks the last entry, 1.0


def _has_self_loop(graph: _Graph, nodes: np.ndarray) -> bool:
    degrees = graph.offsets[nodes + 1] - graph.offsets[nodes]
    edges = _edge_indices(graph, nodes, degrees)
    return bool(np.any(graph.targets[edges] == np.repeat(nodes, degrees)))


def _edge_indices(graph: _Graph, nodes: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """The indices of the edges of ``nodes``, node after node."""
    starts = graph.offsets[nodes]
    firsts = np.repeat(starts - np.concatenate(([0], np.cumsum(degrees)[:-1])), degrees)
    return firsts + np.arange(int(degrees.sum()))


def _level_sweep(graph: _Graph, nodes: np.ndarray, probabilities: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """One Bellman sweep over ``nodes``: new values from the current ones (mean over chance,
    seat 0's best at its moves, seat 1's best, i.e. seat 0's worst, at seat 1's)."""
    degrees = graph.offsets[nodes + 1] - graph.offsets[nodes]
    edges = _edge_indices(graph, nodes, degrees)
    edge_targets, edge_weights = graph.targets[edges], probabilities[edges]
    starts = np.concatenate(([0], np.cumsum(degrees)[:-1]))
    is_chance = graph.kinds[nodes] == CHANCE_NODE
    is_seat0 = graph.movers[nodes] == 0

    def sweep(values: np.ndarray) -> np.ndarray:
        successor = values[edge_targets]
        mean = np.add.reduceat(successor * edge_weights, starts)
        best = np.maximum.reduceat(successor, starts)
        worst = np.minimum.reduceat(successor, starts)
        return np.where(is_chance, mean, np.where(is_seat0, best, worst))

    return sweep


def _residual(graph: _Graph, values: np.ndarray) -> float:
    """The largest change one more sweep over every position would make."""
    nodes = np.flatnonzero(graph.kinds != END)
    if not len(nodes):
        return 0.0
    probabilities = _edge_weights(graph)
    return float(np.max(np.abs(_level_sweep(graph, nodes, probabilities)(values) - values[nodes])))


# --------------------------------------------------------------------------- the result


@dataclass
class Solution:
    """Every reachable position's value under optimal play, and the optimal move at each decision.

    ``value(state)`` gives each seat's chance of winning (exact Fractions when ``exact``), and
    ``best_action(state)`` an optimal move; ``policy`` plays optimally; ``table()`` lists positions.
    """

    game: str
    rules: Any
    players: int
    exact: bool  # Fractions from an acyclic graph; else floats from value iteration
    positions: int  # positions and chance nodes listed
    sweeps: int  # value iteration: the most sweeps a level needed (0 when exact)
    residual: float  # the largest change one more sweep would make (0 when exact)
    seconds: float
    fixed: tuple  # seats whose play was fixed by a given policy
    _graph: _Graph = field(repr=False)
    _values: Any = field(repr=False)  # seat 0's value by node: a list of Fractions or a float array
    _start: int = field(default=0, repr=False)
    timings: dict = field(default_factory=dict, repr=False)  # seconds spent listing positions and on values

    # reading
    def _node(self, state: Any) -> int:
        rules = getattr(state, "rules", self.rules)
        if rules != self.rules:
            raise ValueError(f"this position is of {self.game} under {rules}, but the solution is for {self.rules}")
        node = self._graph.index.get(state.key())
        if node is None:
            raise KeyError(f"this position is not reachable in the solved game ({self.game}, {self.rules}): {state}")
        return node

    def _seat_values(self, node: int) -> tuple:
        value = self._values[node]
        value = value if self.exact else float(value)
        return (value,) if self.players == 1 else (value, 1 - value)

    def value(self, state: Any) -> tuple:
        """Each seat's chance of winning from ``state`` under optimal play (seats in ``fixed`` play their policy)."""
        return self._seat_values(self._node(state))

    def win_probability(self, state: Any, seat: int = 0):
        """``seat``'s chance of winning from ``state``."""
        return self.value(state)[seat]

    @property
    def start_value(self) -> tuple:
        """Each seat's chance of winning from the start."""
        return self._seat_values(self._start)

    def action_values(self, state: Any) -> list[tuple[Any, Any]]:
        """``[(action, the mover's chance of winning after it), ...]`` at a decision."""
        node = self._node(state)
        graph = self._graph
        if graph.kinds[node] != DECISION:
            raise ValueError("this position is not a player's decision (it is a chance node or the end)")
        mover = int(graph.movers[node])
        successors = graph.targets[graph.offsets[node] : graph.offsets[node + 1]].tolist()
        return [(action, self._seat_values(target)[mover]) for action, target in zip(graph.actions[node], successors)]

    def best_action(self, state: Any) -> Any:
        """An optimal move at ``state`` (the first in the legal order among equally good ones)."""
        options = self.action_values(state)
        best = max(value for _, value in options)
        return next(action for action, value in options if value == best)

    def policy(self, state: Any, rng: random.Random | None = None) -> Any:
        """The optimal player, as a ``(state, rng) -> action`` policy."""
        return self.best_action(state)

    def table(self, limit: int = 20):
        """The first ``limit`` positions (breadth first from the start): position, mover, values, best move."""
        from gamelib.design.tables import Table

        graph = self._graph
        keys = list(graph.index)[:limit]
        rows = []
        for key in keys:
            node = graph.index[key]
            kind = int(graph.kinds[node])
            row = {
                "position": str(key),
                "to move": {END: "over", CHANCE_NODE: "chance"}.get(kind, f"seat {int(graph.movers[node])}"),
            }
            for seat, value in enumerate(self._seat_values(node)):
                row[f"P(seat {seat} wins)"] = float(value)
            row["best move"] = "" if kind != DECISION else str(self._best_at(node))
            rows.append(row)
        return Table(rows)

    def _best_at(self, node: int) -> Any:
        graph = self._graph
        mover = int(graph.movers[node])
        successors = graph.targets[graph.offsets[node] : graph.offsets[node + 1]].tolist()
        values = [self._seat_values(target)[mover] for target in successors]
        return graph.actions[node][values.index(max(values))]

    def __repr__(self) -> str:
        method = (
            "exact (no position repeats)"
            if self.exact
            else f"value iteration, at most {self.sweeps} sweeps a level, residual {self.residual:.1e}"
        )
        chances = ", ".join(f"seat {seat} {float(value):.6f}" for seat, value in enumerate(self.start_value))
        fixed = f"; seats {list(self.fixed)} play a fixed policy" if self.fixed else ""
        return (
            f"Solution of {self.game} ({self.rules}): {self.positions:,} positions, {method}; "
            f"from the start: {chances}{fixed} [{self.seconds:.1f} s]"
        )

    __str__ = __repr__


# --------------------------------------------------------------------------- entry points


def solve(
    game: Any,
    rules: Any = None,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    tolerance: float = DEFAULT_TOLERANCE,
    fixed: Mapping[int, Policy] | None = None,
    progress: bool = True,
) -> Solution:
    """Solve ``game`` (a game module, or its ``new_game``) under ``rules``: see the module's text.

    ``fixed`` = ``{seat: policy}`` makes those seats play their (deterministic) policy, so the
    others' optimal play is the best reply to it. Raises :class:`TooManyPositions` past
    ``max_positions`` and ``ValueError`` for a game this solver refuses, saying why.
    """
    if type(max_positions) is not int or max_positions < 1:
        raise ValueError(f"max_positions must be a whole number of at least 1, not {max_positions!r}")
    started = time.perf_counter()
    name = _game_name(game)
    start = _new_game(game)(rules=rules, explicit_chance=True)
    players = _check_solvable(start, name)
    fixed = dict(fixed or {})
    for seat in fixed:
        if seat not in range(players):
            raise ValueError(f"fixed names seat {seat!r}, but {name} has seats 0 to {players - 1}")
    graph = _build_graph(_walker(start, players, name), max_positions, fixed, progress)
    built = time.perf_counter()
    component, finish, cyclic = _components(graph)
    if not cyclic:
        values, sweeps, residual = _exact_values(graph, component), 0, 0.0
    else:
        values, sweeps = _float_values(
            graph, _levels(graph, component), component, _layers(graph, component, finish), finish, tolerance
        )
        residual = _residual(graph, values)
    shown_rules = rules if rules is not None else getattr(start, "rules", "default rules")
    finished = time.perf_counter()
    return Solution(
        name,
        shown_rules,
        players,
        not cyclic,
        len(graph.index),
        sweeps,
        residual,
        finished - started,
        tuple(sorted(fixed)),
        graph,
        values,
        timings={"listing positions": built - started, "values": finished - built},
    )


def evaluate_policies(game: Any, policies: Sequence[Policy], rules: Any = None, **options: Any) -> Solution:
    """Each seat's exact chance of winning when every seat plays its given deterministic policy
    (one per seat), e.g. both players of Pig holding at 20: a :class:`Solution` whose values are
    the policies' values (nothing left to optimise)."""
    return solve(game, rules, fixed=dict(enumerate(policies)), **options)


__all__ = ["solve", "evaluate_policies", "Solution", "TooManyPositions", "DEFAULT_MAX_POSITIONS", "DEFAULT_TOLERANCE"]


def optimal_sweep(game: Any, parameter: str, values: Sequence, rules: Any = None, *, seat: int = 0, **options: Any):
    """Seat ``seat``'s advantage under optimal play (its exact chance of winning minus the fair
    share 1/players) at each value of the rule ``parameter``, as a :class:`gamelib.design.Sweep`
    (the metric ``seat_advantage`` of :mod:`gamelib.design`, exact: its interval is the value
    itself and no game is played). E.g. how the first player's edge in Pig shrinks as the goal grows:
    ``optimal_sweep(pig, "goal", range(10, 101, 10)).plot()``. ``options`` go to :func:`solve`."""
    from gamelib.design.sweeps import Sweep, _with_parameter
    from gamelib.simulate import Estimate

    estimates = []
    for value in values:
        value_rules, setup = _with_parameter(game, rules, None, parameter, value)
        if setup:
            raise ValueError(f"{parameter!r} is not a rule parameter of {_game_name(game)}")
        solution = solve(game, value_rules, **options)
        advantage = float(solution.start_value[seat]) - 1 / max(solution.players, 2)
        estimates.append(Estimate(advantage, advantage, advantage, solution.positions))
    return Sweep(parameter, tuple(values), tuple(estimates), (), f"seat {seat} advantage (optimal play, exact)")


__all__.append("optimal_sweep")
