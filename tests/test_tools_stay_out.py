"""Benchmarks and developer tools stay out of the product: ``bench/`` and ``tools/`` import
nothing from ``tests/``, the shipped packages import neither, and neither is installed."""

from __future__ import annotations

import ast
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("bot", "cogs", "rules_core", "migrations")


def imported(folder: str) -> dict[str, set[str]]:
    """Every top-level package each Python file under ``folder`` imports, by file."""
    found = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        tops = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                tops.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = tops
    return found


def test_bench_and_tools_import_nothing_from_tests() -> None:
    for folder in ("bench", "tools"):
        wrong = {path for path, tops in imported(folder).items() if "tests" in tops}
        assert not wrong, wrong


def test_the_product_imports_neither_bench_nor_tools_nor_matplotlib() -> None:
    for folder in SHIPPED:
        wrong = {
            path
            for path, tops in imported(folder).items()
            if tops & {"bench", "tools", "tests", "matplotlib"}
        }
        assert not wrong, wrong


def test_bench_and_tools_are_not_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    # setuptools matches each package name against the patterns with fnmatch
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    installed = {name for name in packages if any(fnmatch(name, pattern) for pattern in include)}
    assert installed == set(SHIPPED)
    assert config["project"]["optional-dependencies"]["compare"] == ["matplotlib"]
