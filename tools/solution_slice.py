"""Which cells of a solved notebook its exercises depend on (issue 26: the solved copies' cost).

A solved copy (tools/make_solutions.py) is its student notebook with the exercise cells filled in;
every other cell is the student's, byte for byte, and nbval runs the student notebook whole in
`make test`. What only the solved copy can show is that each solution makes its check say right.
That needs the exercise cells and what they depend on, not the rest: :func:`slice_for_exercises`
keeps, as whole cells,

- every exercise cell;
- every later cell that reads (directly or through other such cells) a name an exercise cell binds,
  since those cells see the solutions' values, which the student run never saw;
- every cell that binds a name a kept cell reads before binding it itself, if that binding comes
  before the reading cell;
- every cell, before the last kept one, that reads a name a kept cell reads, or a name a kept cell
  before it binds: reading may change the object (``rng.random()``, ``hand.append(card)``,
  ``board[0] = x``, ``note(card)`` where ``note`` appends to a list), and the name a kept cell binds
  may be a second name for what it read (``other = hand``), so such a cell counts as changing it;
  its own names are followed in turn.

Some names cannot change, so reading them keeps nothing: names the notebook binds only by ``import``
(every import statement of a skipped cell is still run, in its place, so they are bound as in the
full run), names bound once to an immutable literal (``GAMES = 40``, ``Z, W = 1.96, 0.84``), and functions defined once
whose bodies read only such names. Names the notebook never binds are Python's built-ins or come
from a ``from module import *``; gamelib keeps no mutable state at module level (README: "one way
to build a state"), so they count as unchanging too. None of these counts if a cell assigns to an
attribute or an item of it (``Tally.count += 1``, ``module.X = 3``). A notebook that declares ``global``/``nonlocal`` or calls the global random
streams (``random.seed``, ``random.random``, ``np.random.seed``...) or IPython's magics cannot be
sliced this way: every cell of it is kept.
"""

from __future__ import annotations

import ast
import re
import symtable

from IPython.core.inputtransformer2 import TransformerManager

# the module-level random streams (a call on them changes state no name shows), and IPython's magics
# (their code is a string)
HIDDEN_STATE = re.compile(
    r"(?<![\w.])random\.(?!Random\b|SystemRandom\b)[a-z]\w*\("
    r"|\b(np|numpy)\.random\.(?!default_rng\b|RandomState\b|Generator\b|SeedSequence\b)\w+\("
    r"|\bget_ipython\(\)"
)


class Unsliceable(ValueError):
    """A notebook whose dependencies a reading of its names cannot bound."""


def _global_loads(table: symtable.SymbolTable) -> set[str]:
    """Names a nested scope (function, class, comprehension, lambda) reads from the module."""
    names = set()
    for child in table.get_children():
        names |= {s.get_name() for s in child.get_symbols() if s.is_referenced() and s.is_global()}
        names |= _global_loads(child)
    return names


class Statement:
    """The names one top-level statement of a cell reads and binds at module level."""

    def __init__(self, node: ast.stmt):
        table = symtable.symtable(ast.unparse(node), "<cell>", "exec")
        symbols = table.get_symbols()
        self.node = node
        self.loads = {s.get_name() for s in symbols if s.is_referenced()} | _global_loads(table)
        self.binds = {s.get_name() for s in symbols if s.is_assigned() or s.is_imported()}
        self.kind = _kind(node)
        # names whose object this statement changes through an attribute or an item (``Tally.count += 1``)
        self.changes = {
            _root(target)
            for sub in ast.walk(node)
            if isinstance(sub, (ast.Attribute, ast.Subscript)) and not isinstance(sub.ctx, ast.Load)
            for target in [sub.value]
            if _root(target)
        }
        # a name bound by this statement for certain (not inside an if, a loop or a try)
        self.surely_binds = (
            self.binds if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)) else set()
        )
        if self.kind == "definition":
            self.surely_binds = {node.name}


def _root(node: ast.expr) -> str | None:
    """The name at the root of ``a.b[c].d``, if there is one."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _kind(node: ast.stmt) -> str:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return "import"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return "definition"
    if isinstance(node, ast.Assign) and all(isinstance(target, ast.Name) for target in node.targets):
        return "literal" if _immutable_literal(node.value) else "other"
    if isinstance(node, ast.Assign) and _unpacks_literals(node):
        return "literal"
    return "other"


def _immutable_literal(node: ast.expr) -> bool:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return False
    return _immutable(value)


def _unpacks_literals(node: ast.Assign) -> bool:
    """``A, B = 1.96, 0.84``: each name bound to an immutable literal of its own."""
    [target] = node.targets if len(node.targets) == 1 else [None]
    return (
        isinstance(target, ast.Tuple | ast.List)
        and isinstance(node.value, ast.Tuple | ast.List)
        and len(target.elts) == len(node.value.elts)
        and all(isinstance(name, ast.Name) for name in target.elts)
        and all(_immutable_literal(value) for value in node.value.elts)
    )


def _immutable(value) -> bool:
    if isinstance(value, tuple | frozenset):
        return all(_immutable(item) for item in value)
    return isinstance(value, int | float | complex | str | bytes | bool | type(None))


class Cell:
    """One code cell: what it reads before binding it itself (exposed), and what it binds."""

    def __init__(self, source: str):
        code = TransformerManager().transform_cell(source)
        if HIDDEN_STATE.search(code):
            raise Unsliceable(f"a cell changes state no name shows: {HIDDEN_STATE.search(code)[0]}")
        tree = ast.parse(code)
        if any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in ast.walk(tree)):
            raise Unsliceable("a cell declares a name global or nonlocal")
        self.statements = [Statement(node) for node in tree.body]
        self.exposed, self.binds, bound = set(), set(), set()
        for statement in self.statements:
            # a function reads its globals when it is called, maybe after another cell changed them
            self.exposed |= statement.loads - (set() if statement.kind == "definition" else bound)
            self.exposed |= statement.changes  # a module imported again is the same object
            self.binds |= statement.binds
            bound |= statement.surely_binds

    def imports_only(self) -> str:
        """The cell's top-level import statements, in order (run in place of a skipped cell)."""
        return "\n".join(ast.unparse(s.node) for s in self.statements if s.kind == "import")


def binding_kinds(cells: dict[int, Cell]) -> dict[str, list[str]]:
    """For each name the notebook binds at module level, how each binding does it: ``import``,
    ``literal`` (``NAME = 30``, an immutable constant), ``definition`` (a function) or ``other``."""
    kinds = {}
    for cell in cells.values():
        for statement in cell.statements:
            for name in statement.binds:
                kinds.setdefault(name, []).append(statement.kind)
    return kinds


def imported_only(cells: dict[int, Cell]) -> set[str]:
    """Names bound only by import statements, which run in every slice (so never keep a cell)."""
    return {name for name, kinds in binding_kinds(cells).items() if set(kinds) == {"import"}}


def unchanging_names(cells: dict[int, Cell]) -> set[str]:
    """Names no cell can change by reading them: bound only by imports, or once, to an immutable
    literal or by a function whose body reads only unchanging names; or never bound by the notebook
    (built-ins, star imports); and in no cell the root of an attribute or item assigned to."""
    kinds = binding_kinds(cells)
    statements = [statement for cell in cells.values() for statement in cell.statements]
    read = {name for statement in statements for name in statement.loads}
    changed_in_place = {name for statement in statements for name in statement.changes}
    unchanging = (read - set(kinds)) | imported_only(cells)
    unchanging |= {name for name, found in kinds.items() if found == ["literal"]}
    bodies = {
        statement.node.name: statement.loads
        for cell in cells.values()
        for statement in cell.statements
        if statement.kind == "definition" and kinds[statement.node.name] == ["definition"]
    }
    changed = True
    while changed:  # a function is unchanging once everything it reads is
        changed = False
        for name, body in bodies.items():
            if name not in unchanging and body - {name} <= unchanging:
                unchanging.add(name)
                changed = True
    return unchanging - changed_in_place


def kept_cells(notebook, exercises: list[int]) -> list[int]:
    """The indexes of the code cells to run whole so that every exercise cell runs as in the full
    notebook (see the module's docstring); every code cell where :class:`Unsliceable`."""
    try:
        cells = {i: Cell(cell.source) for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"}
    except Unsliceable:
        return [i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    unchanging, always_bound = unchanging_names(cells), imported_only(cells)
    kept = set(exercises)
    while True:
        size = len(kept)
        solved = set(exercises)
        for index in sorted(cells):  # the cells that read what a solution (or such a cell) binds
            bound = {name for i in solved if i < index for name in cells[i].binds}
            if index > min(exercises) and cells[index].exposed & bound:
                solved.add(index)
        kept |= solved
        read = {name for index in kept for name in cells[index].exposed} - unchanging
        for index, cell in cells.items():
            read_later = {name for k in kept if k > index for name in cells[k].exposed}
            # what a kept cell before it bound: maybe a second name for what it read (``other = hand``)
            bound_before = {name for k in kept if k < index for name in cells[k].binds} - unchanging
            if cell.binds & (read_later - always_bound) or (index < max(kept) and cell.exposed & (read | bound_before)):
                kept.add(index)
        if len(kept) == size:
            return sorted(kept)


def slice_for_exercises(notebook, exercises: list[int]):
    """A copy of ``notebook`` that runs only :func:`kept_cells`; every other code cell is replaced by
    its import statements (or emptied). Cell indexes stay the same. Returns (copy, kept indexes)."""
    import copy

    kept = kept_cells(notebook, exercises)
    sliced = copy.deepcopy(notebook)
    for index, cell in enumerate(sliced.cells):
        if cell.cell_type == "code" and index not in kept:
            cell.source = Cell(cell.source).imports_only()
    return sliced, kept
