"""A campaign's strategic map: regions imported from a file, armies marching between them by
sealed orders, campaign turns resolved by a GM, battles fought where armies of different sides
meet, and the holder of a region changed by the battle fought over it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Army, Battle, BattleSide, BattleStatus, Campaign, CampaignMap, MapMove
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied, UserError
from bot.services.armies import require_not_fighting
from bot.services.base import Service
from bot.services.battle_state import SetUp, set_up_of
from bot.services.battles import new_battle
from bot.services.campaigns import Place, find_member, load_open_campaign, require_gm
from bot.services.map_files import Region, checked_background, parse_map
from bot.services.map_sides import fitted_holders
from bot.services.names import name_key

MARCHES_LATER = "it marches again once that battle has ended (`/battle status`)"


@dataclass(frozen=True)
class ArmyMarker:
    """An army on the map: where it stands, its side, and units left of its roster."""

    name: str
    side: str
    region: str
    units_left: int
    units: int


@dataclass(frozen=True)
class MapPicture:
    """Everything the map image and its text show; no secrets (pending moves are not in it)."""

    campaign: str
    name: str
    turn: int
    regions: tuple[Region, ...]
    holders: dict[str, str]
    armies: tuple[ArmyMarker, ...]
    sides: tuple[str, ...]  # in the order their colours are given
    background: bytes | None = None  # a PNG under the regions; its pixels are map units
    battles: tuple[str, ...] = ()  # regions where a battle of the map is being fought


@dataclass(frozen=True)
class PendingMove:
    """A sealed move: the army, where it stands (None: not on the map yet) and where it goes."""

    army: str
    start: str | None
    to: str


@dataclass(frozen=True)
class MoveInfo(PendingMove):
    """What /campaign map move did: the move kept (or cancelled, when to is where it stands)."""

    turn: int
    replaced: bool
    cancelled: bool


@dataclass(frozen=True)
class Settled:
    """A battle of the map that has ended: the region, its new holder (None: a draw)."""

    battle: str
    region: str
    holder: str | None


@dataclass(frozen=True)
class TurnReport:
    """A resolved campaign turn: the moves revealed, regions taken, the battle created and the
    meetings still to fight, and the map as it now stands."""

    turn: int
    moves: tuple[PendingMove, ...]
    taken: tuple[tuple[str, str], ...]  # region, side
    battle: str | None
    battle_region: str | None
    waiting: tuple[str, ...]  # regions where armies meet and no battle could be made yet
    settled: tuple[Settled, ...]
    picture: MapPicture
    set_up: SetUp | None = None  # how the battle created is set up (its ruleset's way)


@dataclass(frozen=True)
class MapView:
    """The map for one member: the picture, their own pending moves, the map's battles."""

    picture: MapPicture
    mine: tuple[PendingMove, ...]
    settled: tuple[Settled, ...]


# -- reading a map file ----------------------------------------------------------------------


def _stored(region: Region) -> dict[str, Any]:
    return {
        "name": region.name,
        "at": list(region.at),
        "polygon": [list(p) for p in region.polygon],
        "adjacent": list(region.adjacent),
    }


def _regions(cmap: CampaignMap) -> list[Region]:
    return [
        Region(
            r["name"],
            (r["at"][0], r["at"][1]),
            tuple((p[0], p[1]) for p in r["polygon"]),
            tuple(r["adjacent"]),
        )
        for r in cmap.regions
    ]


# -- the service -----------------------------------------------------------------------------


class CampaignMapService(Service):
    """The campaign map; each call is one database session."""

    async def import_map(
        self,
        place: Place,
        user_id: int,
        content: bytes,
        filename: str,
        background: tuple[bytes, str] | None = None,
    ) -> MapPicture:
        """Import (or replace) the campaign's map (a GM only), with a background picture (its
        pixels are the map file's coordinates) if given; replacing starts it afresh."""
        name, regions, holders = parse_map(content, filename)
        picture = checked_background(*background) if background is not None else None
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            # Checked before the old map goes: a refused file changes nothing.
            holders = fitted_holders(
                filename, regions, holders, campaign.name, _campaign_sides(campaign)
            )
            cmap = await _map_of(session, campaign)
            if cmap is not None:
                await _settle(session, cmap)
                if cmap.battles:
                    raise Conflict(
                        "The map is waiting on a battle; end it with `/battle end` first."
                    )
                await session.execute(delete(MapMove).where(MapMove.map_id == cmap.id))
                await session.delete(cmap)
                await session.flush()
            cmap = CampaignMap(
                campaign_id=campaign.id,
                name=name,
                regions=[_stored(r) for r in regions],
                holders=holders,
                positions={},
                battles={},
                turn=1,
                background=picture,
                created_by=user_id,
            )
            session.add(cmap)
            await session.flush()
            return _picture(campaign, cmap)

    async def show(self, place: Place, user_id: int) -> MapView:
        """The map as it stands, with the asker's own sealed moves (members only)."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            if find_member(campaign, user_id) is None:
                raise PermissionDenied(
                    f"Join **{campaign.name}** with `/campaign join` to see its map."
                )
            cmap = await _require_map(session, campaign)
            settled = await _settle(session, cmap)
            mine = await _moves(session, cmap, campaign, owner_id=user_id)
            return MapView(_picture(campaign, cmap), tuple(mine), tuple(settled))

    async def move(self, place: Place, user_id: int, army_name: str, to: str) -> MoveInfo:
        """Order one's army to an adjacent region for this campaign turn, sealed until the GM
        resolves the turn; an army not on the map yet enters in a region its side holds; to
        where it stands cancels its move."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            cmap = await _require_map(session, campaign)
            await _settle(session, cmap)
            army = _own_army(campaign, user_id, army_name)
            region = _region_named(cmap, to)
            await require_not_fighting(session, army, MARCHES_LATER)
            start = cmap.positions.get(str(army.id))
            regions = {r.name: r for r in _regions(cmap)}
            if start is None:
                side = _side_of(campaign, army)
                held = [r for r, s in cmap.holders.items() if s.casefold() == side.casefold()]
                if region not in held:
                    where = (
                        f"one of: {', '.join(sorted(held))}"
                        if held
                        else "none: a GM gives its side a region with `holder:` in the map "
                        "file (`/campaign map import`)"
                    )
                    raise InvalidInput(
                        f"**{army.name}** is not on the map yet; it enters in a region "
                        f"**{side}** holds, {where}."
                    )
            elif region != start and region not in regions[start].adjacent:
                raise InvalidInput(
                    f"**{army.name}** is in **{start}**; it can march to one of: "
                    f"{', '.join(regions[start].adjacent)} (or stay: `to:{start}`)."
                )
            found = await session.scalar(
                select(MapMove).where(
                    MapMove.map_id == cmap.id, MapMove.turn == cmap.turn, MapMove.army_id == army.id
                )
            )
            cancelled = region == start
            if cancelled:
                if found is not None:
                    await session.delete(found)
            elif found is not None:
                found.to_region, found.user_id = region, user_id
            else:
                session.add(
                    MapMove(
                        map_id=cmap.id,
                        turn=cmap.turn,
                        army_id=army.id,
                        user_id=user_id,
                        to_region=region,
                    )
                )
            return MoveInfo(army.name, start, region, cmap.turn, found is not None, cancelled)

    async def check_can_resolve(self, place: Place, user_id: int) -> tuple[str, int, int]:
        """Raise unless the user may resolve the campaign turn now; the map's name, the turn
        and how many moves are sealed for it."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            cmap = await _require_map(session, campaign)
            await _refuse_unsettled(session, cmap)
            moves = await _moves(session, cmap, campaign)
            return cmap.name, cmap.turn, len(moves)

    async def resolve_turn(self, place: Place, user_id: int, turn: int | None = None) -> TurnReport:
        """Resolve the campaign turn (a GM only; ``turn``: only if that is still the one to
        resolve, so a second confirmation does nothing): every sealed move at once; a region
        where armies of different sides meet gets a battle (one at a time: the others wait); a
        region entered by one side alone passes to it."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            cmap = await _require_map(session, campaign)
            if turn is not None and cmap.turn != turn:
                raise Conflict(
                    f"Campaign turn {turn} has already been resolved; `/campaign map show` "
                    "shows the map as it stands."
                )
            settled = await _settle(session, cmap)
            await _refuse_unsettled(session, cmap)
            moves = await _moves(session, cmap, campaign)
            came_from, present = await _march(session, cmap, campaign)
            taken, contested = _take_regions(cmap, present)
            battle_name = battle_region = set_up = None
            waiting = list(contested)
            for region in contested:
                fighting = [a for side in present[region].values() for a in side]
                try:
                    loaded = await new_battle(
                        session,
                        campaign,
                        user_id,
                        f"Battle of {region}"[:100],
                        [a.name for a in fighting],
                    )
                except UserError:
                    continue
                battle_name, battle_region = loaded.battle.name, region
                set_up = set_up_of(loaded.rules, loaded.state)
                cmap.battles = {
                    str(loaded.battle.id): {
                        "region": region,
                        "from": {
                            str(a.id): came_from[str(a.id)]
                            for a in fighting
                            if str(a.id) in came_from
                        },
                    }
                }
                waiting.remove(region)
                break
            resolved = cmap.turn
            cmap.turn += 1
            return TurnReport(
                resolved,
                tuple(moves),
                tuple(taken),
                battle_name,
                battle_region,
                tuple(waiting),
                tuple(settled),
                _picture(campaign, cmap),
                set_up,
            )

    async def region_names(self, place: Place) -> list[str]:
        """The map's region names (autocomplete)."""
        async with self.db.read() as session:
            try:
                campaign = await load_open_campaign(session, place)
                cmap = await _map_of(session, campaign)
            except UserError:
                return []
            return [] if cmap is None else [r["name"] for r in cmap.regions]


# -- helpers ---------------------------------------------------------------------------------


async def _map_of(session: AsyncSession, campaign: Campaign) -> CampaignMap | None:
    found: CampaignMap | None = await session.scalar(
        select(CampaignMap).where(CampaignMap.campaign_id == campaign.id)
    )
    return found


async def _require_map(session: AsyncSession, campaign: Campaign) -> CampaignMap:
    cmap = await _map_of(session, campaign)
    if cmap is None:
        raise NotFound(
            f"**{campaign.name}** has no campaign map yet; a GM imports one with "
            "`/campaign map import`."
        )
    return cmap


async def _refuse_unsettled(session: AsyncSession, cmap: CampaignMap) -> None:
    """Refuse a campaign turn while a battle of the map is still being fought."""
    for battle_id in cmap.battles:
        battle = await session.get(Battle, int(battle_id))
        if battle is not None and battle.status is not BattleStatus.FINISHED:
            raise Conflict(
                f"**{battle.name}** is still being fought; the next campaign turn comes once "
                "it has ended (`/battle status`, `/battle end`)."
            )


async def _settle(session: AsyncSession, cmap: CampaignMap) -> list[Settled]:
    """Apply the result of every battle of the map that has ended: the winner holds the
    region; the armies that lost (and, in a draw, those that marched in) fall back to where
    they came from, or off the map when they held it."""
    settled: list[Settled] = []
    battles = dict(cmap.battles)
    positions = dict(cmap.positions)
    holders = dict(cmap.holders)
    for battle_id, entry in list(battles.items()):
        battle = await session.get(Battle, int(battle_id))
        if battle is not None and battle.status is not BattleStatus.FINISHED:
            continue
        del battles[battle_id]
        if battle is None:
            continue
        sides = (
            await session.scalars(select(BattleSide).where(BattleSide.battle_id == battle.id))
        ).all()
        winner = (battle.result or {}).get("winner")
        region, came = entry["region"], entry["from"]
        won = next((s for s in sides if s.side_id == winner), None)
        if won is not None:
            holders[region] = won.name
        for side in sides:
            key = str(side.army_id)
            if side.army_id is None or positions.get(key) != region:
                continue
            if won is not None and side.side_id == won.side_id:
                continue
            if won is None and key not in came:
                continue  # a draw: those who stood there stay
            back = came.get(key)
            if back is None:
                positions.pop(key)
            else:
                positions[key] = back
        settled.append(Settled(battle.name, region, won.name if won else None))
    cmap.battles, cmap.positions, cmap.holders = battles, positions, holders
    return settled


async def _march(
    session: AsyncSession, cmap: CampaignMap, campaign: Campaign
) -> tuple[dict[str, str | None], dict[str, dict[str, list[Army]]]]:
    """Every sealed move carried out at once: where each army that marched came from, and
    the armies in each region by side."""
    armies = {a.id: a for a in campaign.armies}
    came_from: dict[str, str | None] = {}
    positions = dict(cmap.positions)
    for move in await _move_rows(session, cmap):
        came_from[str(move.army_id)] = positions.get(str(move.army_id))
        positions[str(move.army_id)] = move.to_region
    positions = {a: r for a, r in positions.items() if int(a) in armies}
    cmap.positions = positions
    present: dict[str, dict[str, list[Army]]] = {}
    for army_id, region in positions.items():
        army = armies[int(army_id)]
        present.setdefault(region, {}).setdefault(_side_of(campaign, army), []).append(army)
    return came_from, present


def _take_regions(
    cmap: CampaignMap, present: dict[str, dict[str, list[Army]]]
) -> tuple[list[tuple[str, str]], list[str]]:
    """A region entered by one side alone passes to it: the regions taken (with the side),
    and those where armies of different sides meet."""
    holders = dict(cmap.holders)
    taken: list[tuple[str, str]] = []
    contested: list[str] = []
    for region in (r.name for r in _regions(cmap)):
        sides = present.get(region, {})
        if len(sides) == 1:
            (side,) = sides
            if holders.get(region) != side:
                holders[region] = side
                taken.append((region, side))
        elif len(sides) > 1:
            contested.append(region)
    cmap.holders = holders
    return taken, contested


async def _move_rows(session: AsyncSession, cmap: CampaignMap) -> list[MapMove]:
    found = await session.scalars(
        select(MapMove)
        .where(MapMove.map_id == cmap.id, MapMove.turn == cmap.turn)
        .order_by(MapMove.id)
    )
    return list(found)


async def _moves(
    session: AsyncSession, cmap: CampaignMap, campaign: Campaign, *, owner_id: int | None = None
) -> list[PendingMove]:
    armies = {a.id: a for a in campaign.armies}
    return [
        PendingMove(armies[m.army_id].name, cmap.positions.get(str(m.army_id)), m.to_region)
        for m in await _move_rows(session, cmap)
        if m.army_id in armies and (owner_id is None or armies[m.army_id].owner_id == owner_id)
    ]


def _own_army(campaign: Campaign, user_id: int, name: str) -> Army:
    mine = sorted((a for a in campaign.armies if a.owner_id == user_id), key=lambda a: a.name)
    key = name_key(name)
    for army in mine:
        if name_key(army.name) == key:
            return army
    if not mine:
        raise PermissionDenied(
            f"You have no army in **{campaign.name}**; a player imports one with `/army import`."
        )
    names = ", ".join(f"**{a.name}**" for a in mine)
    if any(name_key(a.name) == key for a in campaign.armies):
        raise PermissionDenied(f"**{name}** is not yours; you can move one of: {names}.")
    raise NotFound(f"You have no army called **{name}**; you can move one of: {names}.")


def _region_named(cmap: CampaignMap, name: str) -> str:
    key = name_key(name)
    for region in cmap.regions:
        if name_key(region["name"]) == key:
            return str(region["name"])
    names = ", ".join(r["name"] for r in cmap.regions[:30])
    raise NotFound(f"There is no region **{name}** on **{cmap.name}**; its regions: {names}.")


def _side_of(campaign: Campaign, army: Army) -> str:
    owner = find_member(campaign, army.owner_id)
    return owner.side if owner is not None and owner.side else army.name


def _campaign_sides(campaign: Campaign) -> list[str]:
    """The sides players have joined, in joining order."""
    joined = [m.side for m in sorted(campaign.members, key=lambda m: m.id) if m.side]
    return list(dict.fromkeys(joined))


def _picture(campaign: Campaign, cmap: CampaignMap) -> MapPicture:
    armies = {a.id: a for a in campaign.armies}
    markers = []
    for army_id, region in sorted(cmap.positions.items(), key=lambda p: int(p[0])):
        army = armies.get(int(army_id))
        if army is None:
            continue
        units = list(army.roster.get("units", []))
        left = sum(1 for u in units if u.get("status") != "destroyed")
        markers.append(ArmyMarker(army.name, _side_of(campaign, army), region, left, len(units)))
    members = _campaign_sides(campaign)
    sides = list(dict.fromkeys([*members, *cmap.holders.values(), *(m.side for m in markers)]))
    return MapPicture(
        campaign.name,
        cmap.name,
        cmap.turn,
        tuple(_regions(cmap)),
        dict(cmap.holders),
        tuple(markers),
        tuple(sides),
        cmap.background,
        tuple(entry["region"] for entry in cmap.battles.values()),
    )
