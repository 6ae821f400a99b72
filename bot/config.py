"""Settings, read once from the environment and an optional ``.env`` file."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/aide-de-camp.db"


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
