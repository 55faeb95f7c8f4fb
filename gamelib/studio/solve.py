"""The exact value of a small game: every reachable position's winning chances under optimal play.

>>> solution = solve(pig, pig.Rules(goal=100))          # about half a million positions
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

import random
import time
from array import array
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from gamelib.core import CHANCE, Policy

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
            f"max_positions=... if the machine has the memory (about 300 bytes a position).")
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
    edge_probability: list  # a chance edge's exact probability (Fraction); None on a decision's edges
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
            f"to compute (that needs a solver of information sets, such as counterfactual regret minimisation)")
    if not hasattr(state, "key"):
        raise ValueError(f"{name}'s states have no key(): the solver needs it to recognise a position reached twice")
    players = len(state.returns())
    if players > 2:
        raise ValueError(
            f"{name} has {players} players; this solver solves solo and two-player games only: with three or "
            f"more, a player's best move depends on how the others choose between moves that are equal for "
            f"them, so optimal play has no single value")
    return players


def _end_value(state: Any, players: int, name: str) -> Fraction:
    returns = [Fraction(value).limit_denominator(1_000_000) for value in state.returns()]
    if players == 2 and sum(returns) != 1:
        raise ValueError(
            f"{name} ended with returns {list(state.returns())}, which do not add up to 1: the solver solves "
            f"two-player games where one player's win is the other's loss (a shared win is half each)")
    return returns[0]


def _build_graph(start: Any, players: int, name: str, max_positions: int, fixed: Mapping[int, Policy],
                 progress: bool) -> _Graph:
    """List every position reachable from ``start`` once (breadth first), refusing past ``max_positions``."""
    index = {start.key(): 0}
    frontier = deque([start])
    kinds, movers = array("b"), array("b")
    offsets, targets = array("q", [0]), array("q")
    edge_probability: list = []
    actions: list = []
    end_values: dict = {}
    interned: dict = {}  # equal action tuples are stored once (Pig has two)
    policy_rng = random.Random(0)
    bar = _progress_bar(progress, name)
    node = 0
    while frontier:
        state = frontier.popleft()
        mover = state.current_player
        step = getattr(state, "search_successor", state.apply)  # unchecked: the actions come from the state itself
        if state.is_terminal:
            kinds.append(END)
            movers.append(-1)
            end_values[node] = _end_value(state, players, name)
            actions.append(())
            successors = ()
        elif mover == CHANCE:
            kinds.append(CHANCE_NODE)
            movers.append(-1)
            outcomes = state.chance_outcomes()
            successors = [step(outcome) for outcome, _ in outcomes]
            edge_probability.extend(Fraction(probability) for _, probability in outcomes)
            actions.append(())
        else:
            kinds.append(DECISION)
            movers.append(mover)
            legal = state.legal_actions() if mover not in fixed else [fixed[mover](state, policy_rng)]
            if not legal:
                raise ValueError(f"{name}: a position that is not over has no legal action: {state}")
            legal = tuple(legal)
            actions.append(interned.setdefault(legal, legal))
            successors = [step(action) for action in legal]
            edge_probability.extend([None] * len(legal))
        for successor in successors:
            key = successor.key()
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
    return _Graph(index, np.frombuffer(kinds, dtype=np.int8).copy(), np.frombuffer(movers, dtype=np.int8).copy(),
                  np.frombuffer(offsets, dtype=np.int64).copy(), np.frombuffer(targets, dtype=np.int64).copy(),
                  edge_probability, actions, end_values)


def _progress_bar(shown: bool, name: str):
    from tqdm.auto import tqdm

    # appears only when the listing takes more than two seconds (small games stay quiet)
    return tqdm(desc=f"listing the positions of {name}", unit=" positions", disable=not shown, delay=2,
                mininterval=0.5)


# --------------------------------------------------------------------------- components


def _components(graph: _Graph) -> tuple[np.ndarray, bool]:
    """Each node's strongly connected component (Tarjan, without recursion), numbered so that a
    component's successors have smaller numbers; and whether the graph has a cycle."""
    offsets, targets = graph.offsets.tolist(), graph.targets.tolist()
    count = len(offsets) - 1
    order = [-1] * count
    low = [0] * count
    component = [-1] * count
    stack: list = []
    on_stack = [False] * count
    counter = components = 0
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
    return np.array(component, dtype=np.int64), cyclic


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
    probability = graph.edge_probability
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


def _float_values(graph: _Graph, level: np.ndarray, component: np.ndarray, tolerance: float) -> tuple[np.ndarray, int]:
    """Seat 0's value of every node by value iteration, a level of components at a time; the
    largest number of sweeps any level needed."""
    values = np.zeros(len(level))
    for node, value in graph.end_values.items():
        values[node] = float(value)
    probabilities = np.array([1.0 if p is None else float(p) for p in graph.edge_probability])
    most_sweeps = 0
    order = np.argsort(level, kind="stable")
    boundaries = np.searchsorted(level[order], np.arange(int(level.max()) + 2))
    for lower, upper in zip(boundaries[:-1], boundaries[1:]):
        nodes = order[lower:upper]
        nodes = nodes[graph.kinds[nodes] != END]
        if not len(nodes):
            continue
        sweep = _level_sweep(graph, nodes, probabilities)
        singletons = len(np.unique(component[nodes])) == len(nodes) and not _has_self_loop(graph, nodes)
        sweeps = 0
        while True:
            new = sweep(values)
            change = float(np.max(np.abs(new - values[nodes])))
            values[nodes] = new
            sweeps += 1
            if singletons or change <= tolerance / 10:  # a sweep's change understates the error a little
                break
            if sweeps >= MAX_SWEEPS:
                raise RuntimeError(f"value iteration did not converge in {MAX_SWEEPS} sweeps (last change {change:g})")
        most_sweeps = max(most_sweeps, sweeps)
    return values, most_sweeps


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
    probabilities = np.array([1.0 if p is None else float(p) for p in graph.edge_probability])
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

    # reading
    def _node(self, state: Any) -> int:
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
        successors = graph.targets[graph.offsets[node]:graph.offsets[node + 1]].tolist()
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
            row = {"position": str(key),
                   "to move": {END: "over", CHANCE_NODE: "chance"}.get(kind, f"seat {int(graph.movers[node])}")}
            for seat, value in enumerate(self._seat_values(node)):
                row[f"P(seat {seat} wins)"] = float(value)
            row["best move"] = "" if kind != DECISION else str(self._best_at(node))
            rows.append(row)
        return Table(rows)

    def _best_at(self, node: int) -> Any:
        graph = self._graph
        mover = int(graph.movers[node])
        successors = graph.targets[graph.offsets[node]:graph.offsets[node + 1]].tolist()
        values = [self._seat_values(target)[mover] for target in successors]
        return graph.actions[node][values.index(max(values))]

    def __repr__(self) -> str:
        method = ("exact (no position repeats)" if self.exact else
                  f"value iteration, at most {self.sweeps} sweeps a level, residual {self.residual:.1e}")
        chances = ", ".join(f"seat {seat} {float(value):.6f}" for seat, value in enumerate(self.start_value))
        fixed = f"; seats {list(self.fixed)} play a fixed policy" if self.fixed else ""
        return (f"Solution of {self.game} ({self.rules}): {self.positions:,} positions, {method}; "
                f"from the start: {chances}{fixed} [{self.seconds:.1f} s]")

    __str__ = __repr__


# --------------------------------------------------------------------------- entry points


def solve(game: Any, rules: Any = None, *, max_positions: int = DEFAULT_MAX_POSITIONS,
          tolerance: float = DEFAULT_TOLERANCE, fixed: Mapping[int, Policy] | None = None,
          progress: bool = True) -> Solution:
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
    graph = _build_graph(start, players, name, max_positions, fixed, progress)
    component, cyclic = _components(graph)
    if not cyclic:
        values, sweeps, residual = _exact_values(graph, component), 0, 0.0
    else:
        values, sweeps = _float_values(graph, _levels(graph, component), component, tolerance)
        residual = _residual(graph, values)
    shown_rules = rules if rules is not None else getattr(start, "rules", "default rules")
    return Solution(name, shown_rules, players, not cyclic, len(graph.index), sweeps, residual,
                    time.perf_counter() - started, tuple(sorted(fixed)), graph, values)


def evaluate_policies(game: Any, policies: Sequence[Policy], rules: Any = None, **options: Any) -> Solution:
    """Each seat's exact chance of winning when every seat plays its given deterministic policy
    (one per seat), e.g. both players of Pig holding at 20: a :class:`Solution` whose values are
    the policies' values (nothing left to optimise)."""
    return solve(game, rules, fixed=dict(enumerate(policies)), **options)


__all__ = ["solve", "evaluate_policies", "Solution", "TooManyPositions", "DEFAULT_MAX_POSITIONS",
           "DEFAULT_TOLERANCE"]
