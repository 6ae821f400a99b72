"""Which edge of a base another base touches, kept per pair of bases: a melee asks it of the
same bases again and again (joining, support, flanks, the enemy to the front)."""

from __future__ import annotations

from functools import lru_cache

from rules_core.geometry import Footprint, contact_edge


@lru_cache(maxsize=4096)
def touching_edge(a: Footprint, b: Footprint) -> str | None:
    """``geometry.contact_edge`` of two bases, worked out once per pair (a footprint is a
    frozen value: the same fields give the same answer)."""
    return contact_edge(a, b)
