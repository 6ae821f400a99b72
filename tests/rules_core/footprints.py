"""Ground laid against a unit's base for the footprint-path tests of every ruleset: terrain
that the centre line of a straight move misses but the base would go into (#39 item 2)."""

from __future__ import annotations

from dataclasses import replace

from rules_core.geometry import Footprint, Placed
from rules_core.state import LINEAR_KINDS, BattleState, TerrainFeature

BEYOND = 1.0  # how far past the base's right side the ground reaches


def beside(
    unit: Placed,
    kind: str,
    ahead: float,
    *,
    deep: float = 30.0,
    key: str = "brush",
) -> TerrainFeature:
    """Ground of ``kind`` from ``ahead`` before the unit's front edge, ``deep`` deep, under
    only the right quarter of its frontage (and past its right side): a move straight ahead
    keeps its centre line clear, while its base's right front corner reaches the ground after
    ``ahead``. A linear kind (hedge, stream) is a line across that quarter, ``ahead`` before it."""
    base = Footprint.of(unit)
    near, far = base.depth / 2 + ahead, base.depth / 2 + ahead + deep
    inner, outer = base.frontage / 4, base.frontage / 2 + BEYOND
    if kind in LINEAR_KINDS:
        return TerrainFeature(key, kind, (base.at(near, inner), base.at(near, outer)))
    corners = ((near, inner), (near, outer), (far, outer), (far, inner))
    return TerrainFeature(key, kind, tuple(base.at(f, r) for f, r in corners))


def across(
    unit: Placed, kind: str, ahead: float, *, deep: float = 30.0, key: str = "ahead"
) -> TerrainFeature:
    """Ground of ``kind`` across the unit's whole front, from ``ahead`` before its front edge."""
    base = Footprint.of(unit)
    near, far = base.depth / 2 + ahead, base.depth / 2 + ahead + deep
    wide = base.frontage / 2 + BEYOND
    corners = ((near, -wide), (near, wide), (far, wide), (far, -wide))
    return TerrainFeature(key, kind, tuple(base.at(f, r) for f, r in corners))


def laid(state: BattleState, *features: TerrainFeature) -> BattleState:
    """The state with these features added to its terrain."""
    return replace(state, terrain=(*state.terrain, *features))
