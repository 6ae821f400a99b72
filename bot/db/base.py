"""The declarative base, its naming convention, and column types shared by all models."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, MetaData
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from bot.db.encoded import Encoded

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The one declarative base; constraint names follow NAMING_CONVENTION."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime that survives a round trip through SQLite (which drops zones)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Refuse naive datetimes and store everything in UTC."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column; attach a zone")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Give back an aware UTC datetime whatever the backend returned."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class StateJSON(TypeDecorator[Any]):
    """JSON for a battle's state: a new state is told from the stored one by their texts
    (``Encoded``), not by comparing the two decoded trees, which cost a resolution's keeping
    write about 1 ms of its flush at 2 x 60 units with the write lock held (#38). Texts that
    differ for equal data only write the same data again."""

    impl = JSON
    cache_ok = True

    def compare_values(self, x: Any, y: Any) -> bool:
        """Whether the attribute is unchanged (no UPDATE of the column)."""
        if x is y:
            return True
        if isinstance(x, Encoded) and isinstance(y, Encoded):
            return x.text == y.text
        return bool(x == y)


def utcnow() -> datetime:
    """The current time as an aware UTC datetime (the default for timestamp columns)."""
    return datetime.now(UTC)
