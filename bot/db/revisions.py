"""Our migrations' revisions read from their files, without Alembic: a database already at
head is recognised at start-up without importing Alembic (and Mako and Pygments with it,
about 8 MB of the bot's resident memory that a bot at head never uses)."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from sqlalchemy import Connection, inspect, text

import migrations

VERSIONS_DIR = Path(migrations.__file__).resolve().parent / "versions"


@cache
def revision_graph() -> dict[str, tuple[str, ...]]:
    """Every migration's revision and the revisions it follows (none for the first)."""
    graph: dict[str, tuple[str, ...]] = {}
    for path in sorted(VERSIONS_DIR.glob("*.py")):
        names = _assigned(ast.parse(path.read_text(encoding="utf-8")))
        revision = names.get("revision")
        if isinstance(revision, str):
            graph[revision] = _revisions(names.get("down_revision"))
    return graph


def heads() -> frozenset[str]:
    """The revisions no other migration follows: a database migrated to head is at these."""
    graph = revision_graph()
    followed = {parent for parents in graph.values() for parent in parents}
    return frozenset(graph) - followed


def stamped(connection: Connection) -> frozenset[str] | None:
    """The revisions a database is at (its ``alembic_version`` rows); None before any."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
    return frozenset(str(row) for row in rows)


def _assigned(tree: ast.Module) -> dict[str, object]:
    """The module's top-level constants by name (``revision: str = "..."`` or without type)."""
    found: dict[str, object] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            found[node.target.id] = _literal(node.value)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = _literal(node.value)
    return found


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _revisions(value: object) -> tuple[str, ...]:
    """A ``down_revision``: none, one, or several (a merge)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple | list):
        return tuple(str(item) for item in value)
    return ()
