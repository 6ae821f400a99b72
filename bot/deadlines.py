"""Deadlines as data: what a fired deadline hands its handler, and which one is firing.

Below both the services (which read them) and the scheduler (which fires them), so neither
imports the other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.db.models import DeadlineKind

# The deadline whose handler runs in this task: it is marked fired, not cancelled, by the
# scheduler once its handler is done (services read it to leave that deadline alone).
FIRING: ContextVar[int] = ContextVar("firing_deadline", default=-1)


@dataclass(frozen=True)
class DueDeadline:
    """A deadline as its handler sees it."""

    id: int
    battle_id: int
    stage: int
    kind: DeadlineKind
    due_at: datetime
    note: dict[str, Any]


Handler = Callable[[DueDeadline], Awaitable[None]]
