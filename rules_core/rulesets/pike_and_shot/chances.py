"""The odds of shooting, melee and the tests (owned by wave-pasB)."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.state import BattleState


def odds(state: BattleState, query: OddsQuery, params: Mapping[str, Json]) -> Odds | Refused | None:
    """None until wave-pasB gives the odds."""
    return None
