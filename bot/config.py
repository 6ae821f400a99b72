"""Settings, read once from the environment and an optional ``.env`` file."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/aide-de-camp.db"
# ENGINE_WORKERS' bounds: one worker at least; past 64 a process's memory (about 90 MB a
# worker process) outgrows any machine the bot is meant for.
ENGINE_WORKERS_MIN, ENGINE_WORKERS_MAX = 1, 64
GC_REFRESH_MAX = 24 * 60  # GC_REFRESH_MINUTES: at least one full collection a day
# The settings that take one of two words, and the words.
_CHOICES = {"log_format": ("text", "json"), "engine": ("process", "thread")}


class Settings(BaseSettings):
    """The bot's configuration; every field can be set as an upper-case environment variable."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="The bot token from the Developer Portal.")
    database_url: str = Field(
        default=DEFAULT_DATABASE_URL,
        description="SQLAlchemy async URL; SQLite by default, PostgreSQL via asyncpg.",
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this server only (instant, for testing)."
    )
    log_level: str = Field(default="INFO", description="Python logging level.")
    heartbeat_file: str = Field(
        default="", description="A file touched every 30 s while connected (for health checks)."
    )
    log_format: str = Field(default="text", description="text, or json: one JSON object a line.")
    shard_count: int | None = Field(
        default=None, description="Shards the bot runs on in all (unset: one process, unsharded)."
    )
    engine: str = Field(
        default="process",
        description="Where resolutions run: process (a worker process, about 90 MB more "
        "memory; the event loop never waits for the rules) or thread (in the bot's process).",
    )
    engine_workers: int = Field(
        default_factory=lambda: min(os.cpu_count() or 1, ENGINE_WORKERS_MAX),
        ge=ENGINE_WORKERS_MIN,
        le=ENGINE_WORKERS_MAX,
        description="Engine workers (default: one per core): two battles resolve at once in "
        "two workers; each worker process takes its own memory (docs/operations.md).",
    )
    ai_seconds_per_turn: float = Field(
        default=2.0,
        gt=0,
        le=60,
        description="CPU seconds the AI general may think for one side in one game turn, "
        "shared by the side's steps of the turn (#36).",
    )
    gc_refresh_minutes: int = Field(
        default=60,
        ge=0,
        le=GC_REFRESH_MAX,
        description="Once started, the bot freezes its start-up heap out of the garbage "
        "collector's sight (no 100 ms stall every few seconds) and collects everything once "
        "every this many minutes; 0 switches this off (Python's own collection).",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, e.g. 0,1 (default: all of them)."
    )
    web_enabled: bool = Field(
        default=True, description="Serve the war table (battle pages in a browser) from the bot."
    )
    web_host: str = Field(
        default="127.0.0.1",
        description="The address the war table listens on (0.0.0.0 in a container; put a "
        "reverse proxy with TLS in front).",
    )
    web_port: int = Field(
        default=8080, description="The war table's port (0: any free port, for tests)."
    )
    public_url: str = Field(
        default="",
        description="The address players open, as the reverse proxy serves it, e.g. "
        "https://table.example.org (default: http://localhost:WEB_PORT).",
    )

    @field_validator(*_CHOICES)
    @classmethod
    def _one_of_its_choices(cls, value: str, info: ValidationInfo) -> str:
        """A word setting in any case, checked against its field's choices."""
        word = value.strip().lower()
        first, second = _CHOICES[str(info.field_name)]
        if word not in (first, second):
            raise ValueError(f"must be {first} or {second}")
        return word

    @field_validator("shard_count", mode="before")
    @classmethod
    def _blank_count_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """``0,2,3`` (or ``0 2 3``) from the environment; blank is unset."""
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if not isinstance(value, str):
            return value
        parts = [p for p in re.split(r"[,\s]+", value.strip()) if p]
        if not parts:
            return None
        if not all(p.isdigit() for p in parts):
            raise ValueError(f"must be shard numbers separated by commas, e.g. 0,1 (not {value!r})")
        return tuple(int(p) for p in parts)

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        count, ids = self.shard_count, self.shard_ids
        if count is not None and count < 1:
            raise ValueError("SHARD_COUNT must be at least 1")
        if ids is None:
            return self
        if count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
        if not ids:
            raise ValueError("SHARD_IDS names no shard")
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"SHARD_IDS names shard {', '.join(map(str, twice))} twice")
        outside = sorted(i for i in ids if i >= count)
        if outside:
            raise ValueError(
                f"SHARD_IDS {', '.join(map(str, outside))} not below SHARD_COUNT {count} "
                f"(shards are numbered 0 to {count - 1})"
            )
        self.shard_ids = tuple(sorted(ids))
        return self

    @field_validator("web_port")
    @classmethod
    def _a_port(cls, value: int) -> int:
        if not 0 <= value <= 65535:
            raise ValueError(f"must be a port number from 1 to 65535 (or 0 for any), not {value}")
        return value

    @field_validator("web_host")
    @classmethod
    def _a_host(cls, value: str) -> str:
        host = value.strip()
        if not host or any(c.isspace() or c in "/@" for c in host):
            raise ValueError(f"must be an address such as 127.0.0.1 or 0.0.0.0, not {value!r}")
        return host

    @field_validator("public_url")
    @classmethod
    def _a_public_url(cls, value: str) -> str:
        url = value.strip().rstrip("/")
        if not url:
            return ""
        scheme, _, rest = url.partition("://")
        if scheme.lower() not in ("http", "https") or not rest or rest.startswith("/"):
            raise ValueError(
                f"must start with https:// or http:// and name a host, "
                f"e.g. https://table.example.org (not {value!r})"
            )
        return url

    @property
    def web_url(self) -> str:
        """Where links to the war table point: PUBLIC_URL, or this machine's port."""
        return self.public_url or f"http://localhost:{self.web_port}"

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, this process's shards), or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        return self.shard_count, self.shard_ids or tuple(range(self.shard_count))

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if value in ("", None) else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level


def ensure_sqlite_folder(database_url: str) -> None:
    """Create the folder that holds a file-based SQLite database, if it is missing."""
    prefix = "sqlite+aiosqlite:///"
    if not database_url.startswith(prefix):
        return
    path = database_url.removeprefix(prefix).split("?", 1)[0]
    if path and path != ":memory:":
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)


def database_problem(database_url: str) -> str | None:
    """One line saying why DATABASE_URL cannot be used, before the bot logs in; None if fine."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        url = make_url(database_url)
        dialect = url.get_dialect()
        dialect.import_dbapi()
    except ArgumentError:
        return (
            f"DATABASE_URL {database_url!r} is not a database URL; "
            f"expected e.g. {DEFAULT_DATABASE_URL}."
        )
    except NoSuchModuleError:
        return f"DATABASE_URL names an unknown database driver {url.drivername!r}."
    except ImportError as error:
        return f"DATABASE_URL needs the {error.name or 'database'} package: pip install it."
    if not dialect.is_async:
        return (
            f"DATABASE_URL must name an async driver (sqlite+aiosqlite:// or "
            f"postgresql+asyncpg://), not {url.drivername!r}."
        )
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return _sqlite_file_problem(Path(url.database).expanduser())
    return None


def _sqlite_file_problem(path: Path) -> str | None:
    """Why the bot could not create or write this SQLite file; None if it can."""
    if any(p.exists() and not p.is_dir() for p in path.parents):
        return f"DATABASE_URL: {path.parent} cannot be a folder: a file is in the way."
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"DATABASE_URL: cannot create the folder {path.parent} ({error.strerror})."
    target = path if path.exists() else path.parent
    if path.exists() and path.is_dir():
        return f"DATABASE_URL: {path} is a folder, not a database file."
    if not os.access(target, os.W_OK):
        return f"DATABASE_URL: {target} is not writable by this user."
    return None
