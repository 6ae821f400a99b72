"""LOG_FORMAT: plain lines by default, one JSON object a line with ``json``."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.logs import setup_logging

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_lines_carry_level_logger_message_shards_extra_and_traceback() -> None:
    out = io.StringIO()
    setup_logging("INFO", "json", shards=(4, (1, 3)), stream=out)
    log = logging.getLogger("bot.test")
    log.info("deadline %s fired", 7, extra={"battle": 12})
    log.debug("not shown at INFO")
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        log.exception("it failed")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2  # a traceback stays inside its one line
    first, second = (json.loads(line) for line in lines)
    assert first["level"] == "INFO" and first["logger"] == "bot.test"
    assert first["message"] == "deadline 7 fired" and first["battle"] == 12
    assert first["shard_count"] == 4 and first["shards"] == [1, 3]
    assert first["time"].endswith("+00:00") and isinstance(first["pid"], int)
    assert second["level"] == "ERROR" and "ValueError: boom" in second["exception"]


def test_text_is_the_default() -> None:
    out = io.StringIO()
    setup_logging("WARNING", stream=out)
    logging.getLogger("bot.test").warning("plain")
    assert out.getvalue().rstrip().endswith("WARNING bot.test: plain")


def test_an_unknown_log_format_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {"LOG_FORMAT": "xml", "DISCORD_TOKEN": "x", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == "Invalid setting LOG_FORMAT: must be text or json"
