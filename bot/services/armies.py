"""Army lists: import from a JSON or YAML file, show, list, remove."""

from __future__ import annotations

import builtins
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Army, Battle, BattleSide, BattleStatus, Campaign, Role
from bot.errors import ClosedCampaign, Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services.base import Service
from bot.services.campaigns import Place, find_member, load_open_campaign
from bot.services.data_files import load_json, load_yaml, shown_name
from bot.services.names import name_key, tidy
from rules_core import registry
from rules_core.registry import Ruleset

MAX_ROSTER_BYTES = 256 * 1024
MAX_LISTED_PROBLEMS = 20
REPLACED_LATER = "it can be replaced or removed once that battle has ended"


@dataclass(frozen=True)
class ArmyInfo:
    """An army as the cogs show it."""

    id: int
    name: str
    owner_id: int
    campaign_name: str
    roster: dict[str, Any]
    replaced: bool = False

    @property
    def units(self) -> list[dict[str, Any]]:
        """The roster's units."""
        return list(self.roster.get("units", []))


@dataclass(frozen=True)
class SampleArmies:
    """A campaign's ruleset and the sample armies its package ships (none for some)."""

    ruleset: Ruleset
    armies: tuple[Mapping[str, Any], ...]

    def named(self, name: str) -> Mapping[str, Any]:
        """The sample army of this name (any case); NotFound naming those there are."""
        for army in self.armies:
            if name_key(str(army["name"])) == name_key(name):
                return army
        offered = ", ".join(f"**{a['name']}**" for a in self.armies) or "none"
        raise NotFound(f"No sample army **{name}** in {self.ruleset.name}; there are: {offered}.")


def parse_roster(content: bytes, filename: str) -> object:
    """Read a roster file as JSON or YAML (by its extension; JSON first when unknown)."""
    if len(content) > MAX_ROSTER_BYTES:
        raise InvalidInput(
            f"`{shown_name(filename)}` is too large: at most {MAX_ROSTER_BYTES // 1024} KiB."
        )
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(f"`{shown_name(filename)}` is not UTF-8 text.") from None
    lower = filename.lower()
    if lower.endswith(".json"):
        return load_json(text, filename)
    if lower.endswith((".yaml", ".yml")):
        return load_yaml(text, filename)
    try:
        return load_json(text, filename)
    except InvalidInput:
        return load_yaml(text, filename)


def check_roster(ruleset_id: str, roster: object) -> dict[str, Any]:
    """Validate against the ruleset's roster schema; raise listing every problem with its path."""
    problems = registry.get(ruleset_id).roster_schema.validate(roster)
    if problems:
        shown = problems[:MAX_LISTED_PROBLEMS]
        more = len(problems) - len(shown)
        lines = "\n".join(f"• `{p}`" for p in shown)
        tail = f"\n…and {more} more." if more else ""
        raise InvalidInput(
            f"The army list has {len(problems)} problem(s):\n{lines}{tail}\n"
            "`/army template` sends a file with every field explained."
        )
    assert isinstance(roster, dict)
    return roster


def tidy_names(roster: dict[str, Any]) -> dict[str, Any]:
    """The roster with its name and the name of every entry of its lists (units, leaders,
    divisions …) tidied as lookups compare them; a name of nothing but spaces is refused."""
    tidied = dict(roster)
    if isinstance(roster.get("name"), str):
        tidied["name"] = _tidy_name(roster["name"], "name")
    for key, entries in roster.items():
        if isinstance(entries, list):
            tidied[key] = [
                {**e, "name": _tidy_name(e["name"], f"{key}[{i}].name")}
                if isinstance(e, dict) and isinstance(e.get("name"), str)
                else e
                for i, e in enumerate(entries)
            ]
    return tidied


def _tidy_name(name: str, where: str) -> str:
    """One name tidied, refused when nothing is left."""
    if not tidy(name):
        raise InvalidInput(f"The army list's `{where}` is blank: give it a name.")
    return tidy(name)


class ArmyService(Service):
    """Army lists of a campaign; each call is one database session."""

    async def import_roster(
        self, place: Place, user_id: int, content: bytes, filename: str
    ) -> ArmyInfo:
        """Import (or replace one's own) army from a roster file."""
        parsed = parse_roster(content, filename)
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            _require_player(campaign, user_id)
            roster = tidy_names(check_roster(campaign.ruleset_id, parsed))
            name = str(roster["name"])
            army = _find_army(campaign, name)
            if army is not None and army.owner_id != user_id:
                raise PermissionDenied(
                    f"**{army.name}** belongs to another player; give your army another name."
                )
            replaced = army is not None
            if army is not None:
                await require_not_fighting(session, army, REPLACED_LATER)
            if army is None:
                army = Army(owner_id=user_id, name=name, roster=roster)
                campaign.armies.append(army)
            else:
                army.roster = roster
            await session.flush()
            return _army_info(army, campaign, replaced=replaced)

    async def samples(self, place: Place) -> SampleArmies:
        """The ruleset of this channel's campaign and its sample armies."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            ruleset = registry.get(campaign.ruleset_id)
        armies = ruleset.rules.sample_armies() if ruleset.rules is not None else ()
        return SampleArmies(ruleset, tuple(armies))

    async def import_sample(self, place: Place, user_id: int, name: str) -> ArmyInfo:
        """Import one of the ruleset's sample armies as the player's own."""
        army = (await self.samples(place)).named(name)
        return await self.import_roster(place, user_id, json.dumps(army).encode(), "sample.json")

    async def show(self, place: Place, user_id: int, name: str) -> ArmyInfo:
        """One army of the campaign, for its members."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            _require_member(campaign, user_id)
            return _army_info(_get_army(campaign, name), campaign)

    async def list(self, place: Place, user_id: int) -> list[ArmyInfo]:
        """Every army of the campaign, by name, for its members."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            _require_member(campaign, user_id)
            armies = sorted(campaign.armies, key=lambda a: a.name.casefold())
            return [_army_info(a, campaign) for a in armies]

    async def check_can_remove(self, place: Place, user_id: int, name: str) -> ArmyInfo:
        """Raise unless the user may remove this army; used before asking to confirm."""
        async with self.db.read() as session:
            campaign, army = await _removable(session, place, user_id, name)
            return _army_info(army, campaign)

    async def remove(self, place: Place, user_id: int, name: str) -> ArmyInfo:
        """Delete an army (its owner or a GM)."""
        async with self.db.write() as session:
            campaign, army = await _removable(session, place, user_id, name)
            info = _army_info(army, campaign)
            campaign.armies.remove(army)
            await session.delete(army)
            return info

    async def names(self, place: Place, *, owner_id: int | None = None) -> builtins.list[str]:
        """Army names in this channel's campaign, optionally only one owner's (autocomplete)."""
        async with self.db.read() as session:
            try:
                campaign = await load_open_campaign(session, place)
            except (NotFound, ClosedCampaign):
                return []
            armies = [a for a in campaign.armies if owner_id is None or a.owner_id == owner_id]
            return sorted((a.name for a in armies), key=str.casefold)


def _army_info(army: Army, campaign: Campaign, *, replaced: bool = False) -> ArmyInfo:
    return ArmyInfo(army.id, army.name, army.owner_id, campaign.name, army.roster, replaced)


def _find_army(campaign: Campaign, name: str) -> Army | None:
    key = name_key(name)
    return next((a for a in campaign.armies if name_key(a.name) == key), None)


def _get_army(campaign: Campaign, name: str) -> Army:
    army = _find_army(campaign, name)
    if army is None:
        names = sorted((a.name for a in campaign.armies), key=str.casefold)
        shown = ", ".join(f"**{n}**" for n in names[:10]) + (" …" if len(names) > 10 else "")
        known = f"; its armies: {shown}" if names else "; it has none yet (`/army import`)"
        raise NotFound(f"There is no army called **{name}** in **{campaign.name}**{known}.")
    return army


async def fighting_in(session: AsyncSession, army: Army) -> str | None:
    """The name of a battle the army fields that is not over, or None."""
    return await session.scalar(
        select(Battle.name)
        .join(BattleSide, BattleSide.battle_id == Battle.id)
        .where(BattleSide.army_id == army.id, Battle.status != BattleStatus.FINISHED)
    )


async def require_not_fighting(session: AsyncSession, army: Army, then: str) -> None:
    """Refuse to change or move an army while a battle it fields is not over (losses are
    written to the list it was fought with); ``then`` says what it may do after the battle."""
    battle = await fighting_in(session, army)
    if battle is not None:
        raise Conflict(f"**{army.name}** is fighting in **{battle}**; {then}.")


async def _removable(
    session: AsyncSession, place: Place, user_id: int, name: str
) -> tuple[Campaign, Army]:
    """The campaign and its army ``name``, if the user may remove it now."""
    campaign = await load_open_campaign(session, place)
    army = _get_army(campaign, name)
    _require_owner_or_gm(campaign, army, user_id)
    await require_not_fighting(session, army, REPLACED_LATER)
    return campaign, army


def _require_member(campaign: Campaign, user_id: int) -> None:
    if find_member(campaign, user_id) is None:
        raise PermissionDenied(f"Join **{campaign.name}** with `/campaign join` to see its armies.")


def _require_player(campaign: Campaign, user_id: int) -> None:
    member = find_member(campaign, user_id)
    if member is None or not member.side:
        raise PermissionDenied(
            f"Only players with a side can import armies; use `/campaign join side` in "
            f"**{campaign.name}** first."
        )


def _require_owner_or_gm(campaign: Campaign, army: Army, user_id: int) -> None:
    member = find_member(campaign, user_id)
    if army.owner_id != user_id and (member is None or member.role is not Role.GM):
        raise PermissionDenied(f"Only the owner of **{army.name}** or a GM can remove it.")
