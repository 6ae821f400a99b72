"""Logging set-up: plain lines (the default) or one JSON object a line (``LOG_FORMAT=json``).

A JSON line has ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the process
``pid``, the ``shards`` this process runs when sharded, ``exception`` (the traceback) when
there is one, and any ``extra=`` fields given to the logging call, so a log collector can
filter by level, logger or shard without parsing prose.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Attributes every LogRecord has: anything else on a record came from ``extra=``.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "taskName",
}


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def __init__(self, shards: tuple[int, tuple[int, ...]] | None = None) -> None:
        super().__init__()
        self.shards = shards

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON (never spanning lines: tracebacks are escaped)."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process or os.getpid(),
        }
        if self.shards is not None:
            line["shard_count"], line["shards"] = self.shards[0], list(self.shards[1])
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        return json.dumps(line, default=str, ensure_ascii=False)


def setup_logging(
    level: str,
    log_format: str = "text",
    *,
    shards: tuple[int, tuple[int, ...]] | None = None,
    stream: TextIO | None = None,
) -> None:
    """Send every log record to stderr (or ``stream``) in the chosen format, replacing any
    handler set before."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonFormatter(shards))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    if level != "DEBUG":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # one line per plugin otherwise
