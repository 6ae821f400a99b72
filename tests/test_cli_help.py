"""Every command-line entry point answers ``--help`` with its usage, exits 0 and does nothing else.

The entry points are found, not listed: every module with ``if __name__ == "__main__"`` or a
``__main__.py``, and every subcommand of ``python -m bot`` (its ``COMMANDS`` table), so a new
tool without ``--help`` fails here. Each runs in a subprocess in an empty folder, with a real
SQLite database and a fresh heartbeat named by the settings, so a tool that ignored the flag
would act (``backup --help`` used to write a backup file named ``--help``).
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", ".git", "node_modules", "__pycache__"}
MAIN_GUARD = re.compile(r"^if __name__ == ['\"]__main__['\"]:", re.MULTILINE)


def modules_with_a_main() -> list[str]:
    """``python -m`` names of every module of ours that runs as a program."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if SKIP & set(relative.parts):
            continue
        if path.name == "__main__.py":
            found.append(".".join(relative.parent.parts))
        elif MAIN_GUARD.search(path.read_text(encoding="utf-8")):
            found.append(".".join(relative.with_suffix("").parts))
    return found


ENTRY_POINTS = [[m] for m in modules_with_a_main()] + [["bot", c] for c in sorted(COMMANDS)]


def test_the_entry_points_are_found() -> None:
    names = {" ".join(e) for e in ENTRY_POINTS}
    expected = {"bot", "bot demo", "bot pace", "bot backup", "bot.health", "rules_core.verify"}
    assert expected | {"tools.odds_sample", "bench", "bench.odds"} <= names


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file()
    }


def environment(settings: Path) -> dict[str, str]:
    """Settings under which each tool, had it ignored ``--help``, would do its work."""
    database = settings / "aide.db"
    with closing(sqlite3.connect(database)) as connection:
        connection.execute("CREATE TABLE probe (n INTEGER)")
        connection.commit()
    heartbeat = settings / "heartbeat"
    heartbeat.touch()
    base = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    return base | {
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "HEARTBEAT_FILE": str(heartbeat),
    }


@pytest.mark.parametrize("flag", ["--help", "-h"])
@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=" ".join)
def test_help_prints_usage_exits_0_and_writes_nothing(
    entry: list[str], flag: str, tmp_path: Path
) -> None:
    cwd, settings = tmp_path / "cwd", tmp_path / "settings"
    cwd.mkdir()
    settings.mkdir()
    env = environment(settings)
    docs_before, settings_before = snapshot(ROOT / "docs"), snapshot(settings)
    shown = subprocess.run(
        [sys.executable, "-m", *entry, flag],
        cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("usage: python -m " + " ".join(entry)), shown.stdout
    described = shown.stdout.split("\n\n")[1].strip()  # the paragraph after the usage line
    assert described.endswith("."), f"the description stops mid-sentence: {described!r}"
    assert not list(cwd.iterdir()), "--help wrote into the current folder"
    assert snapshot(ROOT / "docs") == docs_before, "--help rewrote something in docs/"
    assert snapshot(settings) == settings_before, "--help touched the database or heartbeat"
