"""rules_core stays pure: no Discord, database, imaging or scheduler imports anywhere in it."""

from __future__ import annotations

import ast
from pathlib import Path

import rules_core

FORBIDDEN = {"discord", "sqlalchemy", "PIL", "apscheduler", "aiosqlite", "alembic"}
ROOT = Path(rules_core.__file__).parent


def imported_roots(source: str) -> set[str]:
    """The top-level package of every import statement in a module's source."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_the_scanner_sees_both_import_forms() -> None:
    source = "import discord.ext\nfrom PIL import Image\nfrom . import x\n"
    assert imported_roots(source) == {"discord", "PIL"}


def test_no_module_in_rules_core_imports_a_forbidden_package() -> None:
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path.read_text()) & FORBIDDEN)
        for path in files
    }
    assert {name: found for name, found in offenders.items() if found} == {}
