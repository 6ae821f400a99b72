"""Invoke the Gods: the god pack (owned by wave-gods; this is the skeleton's placeholder)."""

from __future__ import annotations

from typing import TypeVar

from rules_core.context import Context

T = TypeVar("T")


def resolve_invoke(ctx: Context) -> None:
    """The Invoke the Gods step: nothing yet (owned by wave-gods)."""


def reroll(ctx: Context, side: str, description: str, result: T) -> T:
    """The Seven: a side may re-roll one set of dice it threw. Called at each set of dice a side
    throws with the ``result`` already rolled; returns the result to use. Placeholder: the
    result unchanged (owned by wave-gods)."""
    return result
