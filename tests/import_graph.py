"""The import graph of our packages, read from the source (ast), and the circles in it: shared
by ``test_imports_alone`` (what imports on its own) and ``test_structure`` (no circles, no
hidden imports)."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "rules_core")

MODULE, TYPING, FUNCTION = "module", "typing", "function"  # where an import statement stands


@dataclass(frozen=True)
class Import:
    """One of our modules that a module names in an import statement, and where it stands."""

    target: str
    where: str  # MODULE (run when loaded), TYPING (under ``TYPE_CHECKING``) or FUNCTION
    line: int


def our_modules() -> dict[str, Path]:
    """Every module under our packages, dotted, with its file."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def with_parents(name: str) -> list[str]:
    """A module and the packages importing it runs first (``a.b.c``: ``a``, ``a.b``, itself)."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _named(node: ast.Import | ast.ImportFrom, package: str) -> list[tuple[str, list[str]]]:
    """What one statement names: each base module with the names taken from it."""
    if isinstance(node, ast.Import):
        return [(alias.name, []) for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*anchor, *([base] if base else [])])
    return [(base, [alias.name for alias in node.names])]


def _statements(tree: ast.Module) -> list[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of a module with where it stands."""
    found: list[tuple[ast.Import | ast.ImportFrom, str]] = []

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = FUNCTION
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = TYPING if where == MODULE else where
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, where))
            walk(child, inner)

    walk(tree, MODULE)
    return found


def imports_in(name: str, path: Path, modules: dict[str, Path]) -> list[Import]:
    """Each of our modules that ``name`` names in an import statement, anywhere in it: the
    module taken from (``from a import b``: ``a.b`` when it is a module, else ``a``)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node, where in _statements(tree):
        for base, taken in _named(node, package):
            targets = {f"{base}.{t}" for t in taken if f"{base}.{t}" in modules}
            if len(targets) < len(taken) or not taken:
                targets.add(base)
            found += [Import(t, where, node.lineno) for t in sorted(targets) if t in modules]
    return [i for i in found if i.target != name]


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that ``name`` imports when it is loaded (module level, not in functions or
    ``TYPE_CHECKING``), with their parent packages."""
    loaded = (i.target for i in imports_in(name, path, modules) if i.where == MODULE)
    return {p for target in loaded for p in with_parents(target)} - {name}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The import circles: strongly connected components of more than one module, by
    Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def in_circles(graph: dict[str, set[str]]) -> set[str]:
    """The modules that lie on an import circle."""
    return {module for circle in circles(graph) for module in circle}
