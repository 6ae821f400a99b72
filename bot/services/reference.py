"""The ruleset reference a channel's campaign plays with: its tables, for /rules and /help."""

from __future__ import annotations

from bot.errors import ClosedCampaign, NotFound
from bot.services.base import Service
from bot.services.campaigns import Place, load_open_campaign
from rules_core import registry
from rules_core.registry import Ruleset
from rules_core.tables import GridTable, ScoreTable

Table = ScoreTable | GridTable


class ReferenceService(Service):
    """Read-only look-ups of the campaign's ruleset; each call is one database session."""

    async def ruleset_here(self, place: Place) -> Ruleset | None:
        """The ruleset of this channel's campaign; None where there is no campaign. An
        outsider of a closed campaign is refused (``ClosedCampaign``), as everywhere."""
        async with self.db.read() as session:
            try:
                campaign = await load_open_campaign(session, place)
            except NotFound:
                return None
            return registry.get(campaign.ruleset_id)

    async def table_names(self, place: Place) -> list[str]:
        """The names of the tables of this channel's ruleset (for autocomplete; none for an
        outsider of a closed campaign)."""
        try:
            ruleset = await self.ruleset_here(place)
        except ClosedCampaign:
            return []
        return list(tables_of(ruleset)) if ruleset is not None else []

    async def table(self, place: Place, name: str) -> tuple[Ruleset, str, Table]:
        """One table of the campaign's ruleset by name (any case); NotFound naming them all."""
        ruleset = await self.ruleset_here(place)
        if ruleset is None:
            raise NotFound("There is no campaign in this channel: `/rules` shows its tables.")
        tables = tables_of(ruleset)
        for key, table in tables.items():
            if key.casefold() == name.strip().casefold():
                return ruleset, key, table
        names = ", ".join(f"`{key}`" for key in tables) or "none"
        raise NotFound(f"{ruleset.name} has no table `{name}`; its tables: {names}.")


def tables_of(ruleset: Ruleset) -> dict[str, Table]:
    """The ruleset's tables by name (none for a ruleset without rules)."""
    return dict(ruleset.rules.tables) if ruleset.rules is not None else {}
