"""Every module of ours that sits in an import circle imports on its own, first thing in a
fresh interpreter (``import bot.scheduling`` alone used to fail). Only modules in a circle
can depend on what was imported before them, so only they are imported one by one (a module
whose package is on a circle through that package); the circles are found from the
module-level imports in the source."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "rules_core")

# Runs in a child interpreter: imports each named module with none of ours loaded before it
# (third-party modules stay loaded: only our own import order is under test).
ALONE = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m.split(".")[0] in ("bot", "cogs", "rules_core")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ": " + traceback.format_exc().strip().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def our_modules() -> dict[str, Path]:
    """Every module under our packages, dotted, with its file."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _with_parents(name: str) -> list[str]:
    """A module and the packages importing it runs first (``a.b.c``: ``a``, ``a.b``, itself)."""
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that ``name`` imports when it is loaded (module level, not in functions or
    ``TYPE_CHECKING``), with their parent packages."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in [node, *(ast.walk(node) if isinstance(node, ast.If | ast.Try) else [])]:
            if isinstance(inner, ast.Import):
                wanted.update(alias.name for alias in inner.names)
            elif isinstance(inner, ast.ImportFrom):
                base = inner.module or ""
                if inner.level:
                    anchor = package.split(".")[: len(package.split(".")) - inner.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                wanted.add(base)
                wanted.update(f"{base}.{alias.name}" for alias in inner.names)
    return {p for w in wanted if w in modules for p in _with_parents(w)} - {name}


def in_circles(graph: dict[str, set[str]]) -> set[str]:
    """The modules that lie on an import circle (strongly connected components of more than
    one module, or a module importing itself), by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circled: set[str] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
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
                circled.update(component)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circled


def test_the_circle_finder_finds_a_circle_and_only_it() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert in_circles(graph) == {"a", "b", "c"}


def test_every_module_in_an_import_circle_imports_on_its_own() -> None:
    modules = our_modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert "bot.scheduling" in graph["bot.client"]
    circled = in_circles(graph)
    # Importing a module imports its packages first: a module whose package is on a circle
    # starts where importing that package starts, so the package stands for it.
    entries = {m for m in circled if not any(p in circled for p in _with_parents(m)[:-1])}
    assert "bot.services" in entries and "bot.services.play" not in entries
    circled = sorted(entries | {"bot.scheduling"})
    done = subprocess.run(
        [sys.executable, "-c", ALONE, *circled], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
