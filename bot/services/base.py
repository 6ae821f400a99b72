"""What every service holds: the database each of its calls opens one session on."""

from __future__ import annotations

from bot.clock import Clock
from bot.db.session import Database


class Service:
    """A service whose calls each open one session on ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db


class ClockedService(Service):
    """A service that also reads the time from ``clock`` (deadlines, stamps), so tests set it."""

    def __init__(self, db: Database, clock: Clock) -> None:
        super().__init__(db)
        self.clock = clock
