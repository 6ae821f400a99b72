"""Discord wording lives in bot/presentation: services return data, cogs call presentation.

Services must not build mentions, channel links or timestamps, import discord or build embeds,
files or views; cogs may use discord for the interaction itself but word nothing by hand.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import bot.services
import cogs

SERVICES = Path(bot.services.__file__).parent
COGS = Path(cogs.__file__).parent
ERRORS = SERVICES.parent / "errors.py"

MARKUP = {
    "a user mention": re.compile(r"<@"),
    "a channel link": re.compile(r"<#"),
    "a timestamp": re.compile(r"<t:"),
    "a .mention": re.compile(r"\.mention\b"),
    "an embed": re.compile(r"\bEmbed\b"),
    "a file attachment": re.compile(r"\bdiscord\.File\b"),
    "a view or button": re.compile(r"\bui\.(View|Button|Select|Item|DynamicItem)\b"),
}
KNOWN: dict[tuple[str, str], int] = {}  # no exceptions: every message is worded in presentation


def markup_in(source: str) -> Counter[str]:
    """How often each kind of Discord markup occurs in a module's source."""
    return Counter({kind: n for kind, rx in MARKUP.items() if (n := len(rx.findall(source)))})


def imported_modules(source: str) -> set[str]:
    """The full name of every module a source imports (absolute imports only)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def offenders(paths: list[Path]) -> dict[tuple[str, str], int]:
    """(file, kind of markup) → count, for every file with markup, less the known counts."""
    found: dict[tuple[str, str], int] = {}
    for path in paths:
        for kind, count in markup_in(path.read_text()).items():
            found[(path.name, kind)] = count
    return {key: n for key, n in found.items() if KNOWN.get(key) != n}


def test_the_scanner_finds_each_kind_of_markup() -> None:
    source = (
        'f"<@{uid}> in <#{cid}> at <t:{ts}:R>"\nuser.mention\ndiscord.Embed(title="x")\n'
        'discord.File(data, "a.png")\nclass B(discord.ui.Button): ...\n'
    )
    assert set(markup_in(source)) == set(MARKUP)


def test_the_scanner_leaves_plain_data_alone() -> None:
    source = (
        "class BattleView: ...\nclass DecisionView: ...\n"
        'raise NotFound(f"No unit called **{ref}**; see `/battle terrain list`.")\n'
        "x = a < b and c > d\n"
    )
    assert markup_in(source) == Counter()


def test_services_import_neither_discord_nor_presentation() -> None:
    files = sorted(SERVICES.glob("*.py"))
    assert len(files) > 10
    imports = {path.name: imported_modules(path.read_text()) for path in files}
    bad = {
        name: sorted(m for m in found if m.split(".")[0] == "discord" or "presentation" in m)
        for name, found in imports.items()
    }
    assert {name: found for name, found in bad.items() if found} == {}


def test_services_and_errors_emit_no_discord_markup() -> None:
    assert offenders([*sorted(SERVICES.glob("*.py")), ERRORS]) == {}


def test_cogs_word_nothing_by_hand() -> None:
    files = sorted(COGS.glob("*.py"))
    assert len(files) >= 5
    assert offenders(files) == {}
