"""The README stays a first evening's read: short, its links live, its commands real.

Under 400 lines (operations and benchmark figures live in docs/); every relative link of the
README and of the docs it sends operations and figures to names a file that exists (and a
heading there, for an ``#anchor``); every ``python -m`` command in them names a module that
exists, and for ``python -m bot <command>`` a command the bot's entry point dispatches.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from bot.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, ROOT / "docs" / "operations.md", ROOT / "docs" / "performance.md"]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def test_the_readme_is_under_400_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 400, f"README.md has {len(lines)} lines: move detail to docs/"


def test_the_quick_start_is_on_the_first_screen_before_how_to_play() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text.index("## Quick start")
    assert text[:quick].count("\n") <= 10, "the quick start comes right after the summary"
    assert quick < text.index("## How to play") < text.index("## Set up and test")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links, f"{doc.name} links nowhere"
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        assert path.exists(), f"{doc.name}: {link} names no file"
        if anchor:
            assert anchor in anchors(path), f"{doc.name}: {link} names no heading there"


def test_the_docs_link_back_to_each_other() -> None:
    text = README.read_text(encoding="utf-8")
    for name in ("docs/operations.md", "docs/performance.md", "docs/self-hosting.md"):
        assert f"]({name}" in text, f"the README does not link {name}"


def python_commands() -> list[tuple[str, str, str]]:
    """Every ``python -m module [command]`` of the README and docs: (file, module, command)."""
    out = []
    for doc in DOCS:
        text = re.sub(r"\s*\n\s*", " ", doc.read_text(encoding="utf-8"))
        for module, command in re.findall(
            r"python3? -m ([\w.]+)(?: +([a-z][a-z-]*[a-z])\b)?", text
        ):
            out.append((doc.name, module, command))
    return out


def test_every_python_module_named_exists() -> None:
    found = python_commands()
    assert {m for _, m, _ in found} >= {"bot", "bench", "rules_core.verify", "pytest"}
    for doc, module, _ in found:
        assert importlib.util.find_spec(module) is not None, f"{doc}: no module {module}"


def test_every_bot_command_named_is_one_the_entry_point_runs() -> None:
    commands = {c for _, m, c in python_commands() if m == "bot" and c}
    assert commands >= {"demo", "pace", "backup", "invite", "check"}
    for command in commands:
        assert command in COMMANDS, f"python -m bot {command} is not a command"


def test_ci_runs_the_test_command_the_readme_gives() -> None:
    script = ROOT / ".ci" / "run"
    awk = subprocess.run(
        ["awk", "/<!-- test-command -->/{getline; getline; print; exit}", str(README)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    command = awk.stdout.strip()
    assert "pytest" in command and "pip install" in command, command
    assert "<!-- test-command -->" in script.read_text(encoding="utf-8")
