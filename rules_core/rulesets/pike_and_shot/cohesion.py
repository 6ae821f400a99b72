"""Disorder tests, Reform, Fatigue per wing and General Will (owned by wave-pasB)."""

from __future__ import annotations

from rules_core.context import Context


def resolve_reform(ctx: Context) -> None:
    """Reforming from disorder (wave-pasB)."""


def resolve_fatigue(ctx: Context) -> None:
    """Each wing's fatigue test (wave-pasB)."""


def resolve_general_will(ctx: Context) -> None:
    """Both armies' General Will tests at once (wave-pasB)."""
