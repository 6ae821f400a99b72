"""A campaign's strategic map: regions imported from a file, armies marching between them by
sealed orders, campaign turns resolved by a GM, battles fought where armies of different sides
meet, and the holder of a region changed by the battle fought over it."""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass
from typing import Any

from PIL import Image
from shapely.geometry import Polygon
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Army, Battle, BattleSide, BattleStatus, Campaign, CampaignMap, MapMove
from bot.db.session import Database
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied, UserError
from bot.services.armies import parse_roster
from bot.services.battle_state import SetUp, set_up_of
from bot.services.battles import new_battle
from bot.services.campaigns import Place, find_member, load_open_campaign, require_gm
from bot.services.data_files import shown_name
from bot.services.names import name_key

MAX_MAP_BYTES = 256 * 1024
MIN_REGIONS, MAX_REGIONS = 2, 60
MAX_REGION_NAME = 40
MAX_POLYGON_POINTS = 64
MAX_COORD = 10_000
MAX_SIDE_NAME = 50
MAX_BACKGROUND_BYTES = 4 * 1024 * 1024
MAX_BACKGROUND_SIDE = 2048  # px; the map file's coordinates are the picture's pixels
EXAMPLE = (
    "e.g. `regions: [{name: Ford, at: [100, 80], adjacent: [Hill]}, "
    "{name: Hill, at: [300, 80], holder: Red}]`"
)


@dataclass(frozen=True)
class Region:
    """One region of the map: its name, centre, outline (if given) and neighbours."""

    name: str
    at: tuple[float, float]
    polygon: tuple[tuple[float, float], ...]
    adjacent: tuple[str, ...]


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


@dataclass(frozen=True)
class PendingMove:
    """A sealed move: the army, where it stands (None: not on the map yet) and where it goes."""

    army: str
    start: str | None
    to: str


@dataclass(frozen=True)
class MoveInfo:
    """What /campaign map move did: the move kept (or cancelled, when to is where it stands)."""

    army: str
    start: str | None
    to: str
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


def parse_map(content: bytes, filename: str) -> tuple[str, list[Region], dict[str, str]]:
    """A map file read and checked: its name, regions (adjacency made both ways), holders."""
    if len(content) > MAX_MAP_BYTES:
        raise InvalidInput(
            f"`{shown_name(filename)}` is too large: at most {MAX_MAP_BYTES // 1024} KiB."
        )
    data = parse_roster(content, filename)
    where = f"`{shown_name(filename)}`"
    if not isinstance(data, dict) or not isinstance(data.get("regions"), list):
        raise InvalidInput(
            f"{where} is not a campaign map: it needs a list of `regions`, {EXAMPLE}."
        )
    name = data.get("name", "Campaign map")
    if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= 100:
        raise InvalidInput(f"{where}: `name` must be text of 1 to 100 characters.")
    raw = data["regions"]
    if not MIN_REGIONS <= len(raw) <= MAX_REGIONS:
        raise InvalidInput(
            f"{where} has {len(raw)} regions; a map has at least {MIN_REGIONS} and at most "
            f"{MAX_REGIONS}."
        )
    problems: list[str] = []
    regions: list[dict[str, Any]] = []
    holders: dict[str, str] = {}
    for i, entry in enumerate(raw):
        region = _region(entry, f"regions[{i}]", problems)
        if region is None:
            continue
        if any(r["name"].casefold() == region["name"].casefold() for r in regions):
            problems.append(f"regions[{i}]: the name {region['name']} is used twice")
            continue
        regions.append(region)
        if region["holder"]:
            holders[region["name"]] = region["holder"]
    names = {r["name"].casefold(): r["name"] for r in regions}
    links: dict[str, set[str]] = {r["name"]: set() for r in regions}
    for region in regions:
        for other in region["adjacent"]:
            found = names.get(other.casefold())
            if found is None:
                problems.append(f"{region['name']}: adjacent region {other} is not on the map")
            elif found == region["name"]:
                problems.append(f"{region['name']}: a region is not adjacent to itself")
            else:
                links[region["name"]].add(found)
                links[found].add(region["name"])
    if problems:
        shown = "\n".join(f"• {p}" for p in problems[:20])
        more = f"\n…and {len(problems) - 20} more." if len(problems) > 20 else ""
        raise InvalidInput(
            f"{where} has {len(problems)} problem(s):\n{shown}{more}\nA region is written "
            f"as {EXAMPLE}."
        )
    order = [r["name"] for r in regions]
    built = [
        Region(
            r["name"], r["at"], r["polygon"],
            tuple(sorted(links[r["name"]], key=order.index)),
        )
        for r in regions
    ]  # fmt: skip
    return " ".join(name.split()), built, holders


def _region(entry: object, path: str, problems: list[str]) -> dict[str, Any] | None:
    """One region entry checked; its problems added to the list."""
    if not isinstance(entry, dict):
        problems.append(f"{path}: a region must be a mapping with name, at or polygon, adjacent")
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= MAX_REGION_NAME:
        problems.append(f"{path}.name: must be text of 1 to {MAX_REGION_NAME} characters")
        return None
    name = " ".join(name.split())
    polygon: tuple[tuple[float, float], ...] = ()
    if "polygon" in entry:
        points = entry["polygon"]
        if not isinstance(points, list) or not 3 <= len(points) <= MAX_POLYGON_POINTS:
            problems.append(f"{name}.polygon: must list 3 to {MAX_POLYGON_POINTS} points [x, y]")
            return None
        checked = [_point(p) for p in points]
        if any(p is None for p in checked):
            problems.append(f"{name}.polygon: every point must be [x, y] from 0 to {MAX_COORD}")
            return None
        polygon = tuple(p for p in checked if p is not None)
        if not Polygon(polygon).is_valid or Polygon(polygon).area <= 0:
            problems.append(f"{name}.polygon: the outline must not cross itself")
            return None
    at = _point(entry["at"]) if "at" in entry else None
    if "at" in entry and at is None:
        problems.append(f"{name}.at: must be [x, y] from 0 to {MAX_COORD}")
        return None
    if at is None:
        if not polygon:
            problems.append(f"{name}: give its centre `at: [x, y]` or its outline `polygon`")
            return None
        centre = Polygon(polygon).representative_point()
        at = (round(centre.x, 1), round(centre.y, 1))
    adjacent = entry.get("adjacent", [])
    if not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent):
        problems.append(f"{name}.adjacent: must be a list of region names")
        return None
    if len(adjacent) > MAX_REGIONS:
        problems.append(f"{name}.adjacent: at most {MAX_REGIONS} neighbours")
        return None
    holder = entry.get("holder")
    if holder is not None and (
        not isinstance(holder, str) or not 1 <= len(holder.strip()) <= MAX_SIDE_NAME
    ):
        problems.append(
            f"{name}.holder: must be a side's name of at most {MAX_SIDE_NAME} characters"
        )
        return None
    return {
        "name": name, "at": at, "polygon": polygon,
        "adjacent": [" ".join(a.split()) for a in adjacent],
        "holder": " ".join(holder.split()) if holder else None,
    }  # fmt: skip


def _point(value: object) -> tuple[float, float] | None:
    """[x, y] within the map's bounds, or None."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    x, y = float(value[0]), float(value[1])
    if not all(math.isfinite(v) and 0 <= v <= MAX_COORD for v in (x, y)):
        return None
    return (x, y)


def checked_background(content: bytes, filename: str) -> bytes:
    """A background picture checked (a PNG or JPEG of at most MAX_BACKGROUND_SIDE pixels a
    side) and re-encoded as a plain PNG, so nothing but its pixels is kept."""
    name = f"`{shown_name(filename)}`"
    if len(content) > MAX_BACKGROUND_BYTES:
        raise InvalidInput(
            f"{name} is too large: a background is at most {MAX_BACKGROUND_BYTES // 1024**2} MiB."
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:
                kind, (width, height) = image.format, image.size
                if kind not in ("PNG", "JPEG"):
                    raise ValueError(kind)
                if max(width, height) > MAX_BACKGROUND_SIDE:
                    raise InvalidInput(
                        f"{name} is {width} × {height} pixels; a background is at most "
                        f"{MAX_BACKGROUND_SIDE} × {MAX_BACKGROUND_SIDE}."
                    )
                pixels = image.convert("RGB")
    except InvalidInput:
        raise
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InvalidInput(
            f"{name} is not a picture the bot can use as a background: give a PNG or JPEG file."
        ) from None
    out = io.BytesIO()
    pixels.save(out, format="PNG", optimize=True)
    return out.getvalue()


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
            r["name"], (r["at"][0], r["at"][1]),
            tuple((p[0], p[1]) for p in r["polygon"]), tuple(r["adjacent"]),
        )
        for r in cmap.regions
    ]  # fmt: skip


# -- the service -----------------------------------------------------------------------------


class CampaignMapService:
    """The campaign map; each call is one database session."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
                campaign_id=campaign.id, name=name, regions=[_stored(r) for r in regions],
                holders=holders, positions={}, battles={}, turn=1, background=picture,
                created_by=user_id,
            )  # fmt: skip
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
            await _require_free(session, army)
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
                    MapMove(map_id=cmap.id, turn=cmap.turn, army_id=army.id, user_id=user_id,
                            to_region=region)
                )  # fmt: skip
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
            battle_name = battle_region = set_up = None
            waiting = list(contested)
            for region in contested:
                fighting = [a for side in present[region].values() for a in side]
                try:
                    loaded = await new_battle(
                        session, campaign, user_id, f"Battle of {region}"[:100],
                        [a.name for a in fighting],
                    )  # fmt: skip
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
                resolved, tuple(moves), tuple(taken), battle_name, battle_region,
                tuple(waiting), tuple(settled), _picture(campaign, cmap), set_up,
            )  # fmt: skip

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


async def _require_free(session: AsyncSession, army: Army) -> None:
    battle = await session.scalar(
        select(Battle.name)
        .join(BattleSide, BattleSide.battle_id == Battle.id)
        .where(BattleSide.army_id == army.id, Battle.status != BattleStatus.FINISHED)
    )
    if battle is not None:
        raise Conflict(
            f"**{army.name}** is fighting in **{battle}**; it marches again once that battle "
            "has ended (`/battle status`)."
        )


def _side_of(campaign: Campaign, army: Army) -> str:
    owner = find_member(campaign, army.owner_id)
    return owner.side if owner is not None and owner.side else army.name


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
    members = [m.side for m in sorted(campaign.members, key=lambda m: m.id) if m.side]
    sides = list(dict.fromkeys([*members, *cmap.holders.values(), *(m.side for m in markers)]))
    return MapPicture(
        campaign.name, cmap.name, cmap.turn, tuple(_regions(cmap)), dict(cmap.holders),
        tuple(markers), tuple(sides), cmap.background,
    )  # fmt: skip
