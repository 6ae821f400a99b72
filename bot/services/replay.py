"""Engine calls noted while a resolution is rehearsed, and given back when it is kept.

A rehearsal (``bot.services.rehearsal``) runs a resolution's code in a read session: every
call to the engine's worker is made and noted here. The write that keeps the resolution runs
the same code again; each engine call that is the same call with equal arguments as the next
one noted gets the noted result back instead of running (the engine is pure and seeded, so it
would answer the same). A call that differs runs in the engine as before, and every later one
too: the write is then as it was before rehearsals, slower but never wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Script:
    """The engine calls of one rehearsal, in order, and how far the keeping run has come."""

    calls: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], Any]] = field(
        default_factory=list
    )
    taken: int = 0
    recording: bool = True
    diverged: bool = False
    ran: int = 0  # engine calls the keeping run had to make itself

    def recall(
        self, work: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        """The noted result of this call if it is the next one noted, else ``MISS``."""
        if self.recording or self.diverged or self.taken >= len(self.calls):
            return MISS
        noted_work, noted_args, noted_kwargs, result = self.calls[self.taken]
        # A ruleset's method (``rules.judge``) is bound anew at each call: equal, not the same.
        if noted_work != work or noted_args != args or noted_kwargs != kwargs:
            self.diverged = True
            return MISS
        self.taken += 1
        return result

    def note(
        self, work: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], result: Any
    ) -> None:
        """Keep a call the rehearsal made (or count one the keeping run had to make)."""
        if self.recording:
            self.calls.append((work, args, kwargs, result))
        else:
            self.ran += 1


MISS = object()
_SCRIPT: ContextVar[Script | None] = ContextVar("engine_script", default=None)


@contextmanager
def scripted(script: Script, *, recording: bool) -> Iterator[Script]:
    """Engine calls in this block are noted in (or given back from) ``script``."""
    script.recording = recording
    token = _SCRIPT.set(script)
    try:
        yield script
    finally:
        _SCRIPT.reset(token)


def recall(work: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The noted result for this engine call, or ``MISS`` (no script, or not noted)."""
    script = _SCRIPT.get()
    return MISS if script is None else script.recall(work, args, kwargs)


def note(
    work: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], result: Any
) -> None:
    """Note an engine call that ran (if a script is on)."""
    script = _SCRIPT.get()
    if script is not None:
        script.note(work, args, kwargs, result)
