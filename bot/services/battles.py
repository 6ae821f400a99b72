"""Setting up a battle: create it from the campaign's armies, lay terrain, deploy units."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from bot.db.models import Army, Battle, BattleSide, BattleStatus, Campaign, Role
from bot.errors import Conflict, InvalidInput, NotFound
from bot.services.ai_seat import AI_GENERAL, holder_id, is_ai
from bot.services.armies import parse_roster
from bot.services.base import ClockedService
from bot.services.battle_state import (
    BattleView,
    Loaded,
    load_battle,
    rules_of,
    view_of,
)
from bot.services.campaigns import (
    Place,
    clean_text,
    find_member,
    load_open_campaign,
    require_gm,
)
from bot.services.deployment import (
    army_rows,
    deployment_rows,
    place_rows,
    place_unit,
    roster_entries,
    roster_unit,
    with_unit,
)
from bot.services.names import name_key
from bot.services.numbers import check_finite
from bot.services.order_params import resolve
from bot.services.parameters import battle_parameters, table_size
from bot.services.settings import MAX_TABLE, MIN_TABLE
from bot.services.shapes import (
    TypedTerrain,
    laid_feature,
    next_number,
    parse_point,
)
from rules_core import registry, secrets
from rules_core.dice import Dice, Roll
from rules_core.plugin import Rules
from rules_core.seeding import commitment, new_seed, stream
from rules_core.state import (
    RESERVE,
    BattleState,
    Group,
    Side,
    TerrainFeature,
    Unit,
)
from rules_core.terrain_tables import roll_terrain

SIDE_IDS = "abcdefgh"
MIN_SCALE_MM, MAX_SCALE_MM = 1.0, 1000.0  # a battle's own scale: millimetres per measure unit


@dataclass(frozen=True)
class BattleSummary:
    """One battle of a campaign as /battle list shows it."""

    name: str
    status: BattleStatus
    sides: tuple[str, ...]
    turn: int
    step: str  # the title of the step play stands at
    deadline_at: datetime | None
    result: str  # how it ended, "" while it is not over


@dataclass(frozen=True)
class Table:
    """The table a new battle is fought on; None is the ruleset's (or campaign's) usual one."""

    width: float | None = None
    depth: float | None = None
    scale: float | None = None  # millimetres in one unit of the measure


USUAL_TABLE = Table()


@dataclass(frozen=True)
class TerrainRoll:
    """What ``/battle terrain roll`` rolled and laid: the table, every roll, the new pieces and
    the pieces rolled that found no room on the table."""

    table: str
    rolls: tuple[Roll, ...]
    laid: tuple[TerrainFeature, ...]
    left_out: tuple[str, ...]


@dataclass(frozen=True)
class Assignment:
    """A group of a side given to one of its players by ``/battle assign``."""

    group_name: str
    side_name: str
    user_id: int
    previous_id: int | None  # who commanded it before, if anyone was assigned


@dataclass(frozen=True)
class HandOver:
    """A battle side given by ``/battle hand-over`` to a GM or another player."""

    side_name: str
    user_id: int  # who plays it now
    previous_id: int  # who played it before (they keep their place in the campaign)
    groups: tuple[str, ...]  # groups the previous player commanded, now the new player's
    to_gm: bool  # the new player is a GM of the campaign (the GM takes the side over)
    battle_id: int = 0


class BattleService(ClockedService):
    """Battle set-up commands; each call is one database session."""

    async def create(
        self,
        place: Place,
        user_id: int,
        name: str,
        armies: list[str],
        width: float | None = None,
        depth: float | None = None,
        scale: float | None = None,
        ai_side: str | None = None,
    ) -> BattleView:
        """A new battle in set-up, one side per named army (a GM only); the table's size
        defaults to the ruleset's usual one, and its scale (millimetres in one unit of the
        measure: a base width in Impetus) to the ruleset's. With ``ai_side``, the AI general
        plays that side (a solo battle, #36): a name that is no side refuses it all."""
        name = clean_text(name, "battle name", 100)
        if scale is not None and not (
            math.isfinite(scale) and MIN_SCALE_MM <= scale <= MAX_SCALE_MM
        ):
            raise InvalidInput(
                f"A scale runs from {MIN_SCALE_MM:g} to {MAX_SCALE_MM:g} millimetres per unit "
                "of the ruleset's measure."
            )
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            table = Table(width, depth, scale)
            loaded = await new_battle(session, campaign, user_id, name, armies, table)
            if ai_side is not None:
                _side_named(loaded, ai_side).owner_id = AI_GENERAL
            return view_of(loaded)

    async def list(self, place: Place) -> list[BattleSummary]:
        """Every battle of this channel's campaign, newest first."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            found = await session.scalars(
                select(Battle)
                .where(Battle.campaign_id == campaign.id)
                .options(selectinload(Battle.sides))
                .order_by(Battle.id.desc())
            )
            return [_summary(b) for b in found]

    async def view(self, place: Place) -> BattleView:
        """The channel's battle as it stands, as the one who asks may see it: their seat, and
        the state without what their viewer may not see (other sides' hidden state, hands,
        sealed orders of a stopped step, private questions); the bot itself sees all."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            shown = view_of(loaded)
            if place.user_id is None:
                return shown
            seat = loaded.seat(place.user_id)
            return replace(shown, seat=seat, state=secrets.view(shown.state, seat.viewer()))

    async def add_terrain(self, place: Place, user_id: int, piece: TypedTerrain) -> TerrainFeature:
        """Lay a piece of terrain during set-up (a GM only)."""
        points = piece.outline()
        async with self.db.write() as session:
            loaded = await _setting_up(session, place, user_id)
            title = clean_text(piece.name, "terrain name", 60) if piece.name else None
            feature = laid_feature(loaded.state, piece.kind, points, title)
            loaded.save(replace(loaded.state, terrain=(*loaded.state.terrain, feature)))
            return feature

    async def roll_terrain(self, place: Place, user_id: int) -> TerrainRoll:
        """Roll the terrain on the ruleset's terrain table and lay it (a GM only, set-up).

        The dice come from the battle's secret seed, keyed by the next terrain id, so the same
        table rolls the same terrain (rolling again once pieces are laid rolls anew)."""
        async with self.db.write() as session:
            loaded = await _setting_up(session, place, user_id)
            state = loaded.state
            table = loaded.rules.terrain_table(state)
            if table is None:
                raise InvalidInput(
                    f"The {loaded.battle.ruleset_id} ruleset has no terrain tables; lay terrain "
                    "with `/battle terrain add`."
                )
            first = next_number(f.id for f in state.terrain)
            rolls: list[Roll] = []
            key = f"{state.battle_id}:setup:terrain:{first}"
            dice = Dice(stream(bytes.fromhex(loaded.battle.seed), key), rolls.append)
            zones = [
                zone
                for side in state.sides
                if (zone := loaded.rules.deployment_zone(state, side.id)) is not None
            ]
            rolled = roll_terrain(table, state, dice, zones, first)
            loaded.save(replace(state, terrain=(*state.terrain, *rolled.features)))
            return TerrainRoll(table.name, tuple(rolls), rolled.features, rolled.left_out)

    async def remove_terrain(self, place: Place, user_id: int, terrain_id: str) -> TerrainFeature:
        """Take a piece of terrain off the table during set-up (a GM only)."""
        async with self.db.write() as session:
            loaded = await _setting_up(session, place, user_id)
            feature = next((f for f in loaded.state.terrain if terrain_id in (f.id, f.name)), None)
            if feature is None:
                raise NotFound(f"There is no terrain `{terrain_id}`; see `/battle terrain list`.")
            kept = tuple(f for f in loaded.state.terrain if f.id != feature.id)
            loaded.save(replace(loaded.state, terrain=kept))
            return feature

    async def deploy(
        self, place: Place, user_id: int, unit: str, at: str, facing: float | None
    ) -> Unit:
        """Place one of your units (or any, for a GM) at a position and facing during set-up."""
        check_finite(facing=facing)
        point = parse_point(at)
        async with self.db.write() as session:
            loaded = await _in_set_up(session, place)
            placed = place_unit(loaded, user_id, unit, point, facing)
            loaded.save(with_unit(loaded.state, placed))
            return placed

    async def deploy_many(self, place: Place, user_id: int, content: bytes, filename: str) -> int:
        """Place several units from a file of ``{unit, at: [x, y], facing}``; all or nothing."""
        rows = deployment_rows(parse_roster(content, filename))
        async with self.db.write() as session:
            loaded = await _in_set_up(session, place)
            state = place_rows(loaded, user_id, rows)
            loaded.save(state)
            return len(rows)

    async def deploy_from_army(self, place: Place, user_id: int) -> int:
        """Place units at the ``at`` places their army lists give (a GM every side's, a
        player their own), checked like any deployment; all or nothing."""
        async with self.db.write() as session:
            loaded = await _in_set_up(session, place)
            rows = army_rows(loaded, user_id)
            loaded.save(place_rows(loaded, user_id, rows))
            return len(rows)

    async def assign(self, place: Place, user_id: int, group: str, member_id: int) -> Assignment:
        """Give a group (wing, division, command) of a side to one of that side's players (a
        GM only); from then on only they order it, and the step waits for them."""
        async with self.db.write() as session:
            loaded = await load_battle(session, place)
            loaded.require_gm(user_id)
            found = resolve(loaded.state.groups, "group", group)
            assert isinstance(found, Group)
            row = loaded.side_row(found.side)
            if row is None:
                raise NotFound(f"**{found.name}** belongs to no side of this battle.")
            member = find_member(loaded.campaign, member_id)
            if found.side not in loaded.side_of(member_id):
                if member is not None and member.role is Role.GM:
                    raise InvalidInput(
                        f"That member is a GM, not a player of **{row.name}**: a GM may order "
                        f"any unit already. Assign **{found.name}** to a player who joined "
                        f"**{row.name}**."
                    )
                raise InvalidInput(
                    f"That member is not a player of **{row.name}**: only its players "
                    f"(`/campaign join side:{row.name}`) can command **{found.name}**."
                )
            commanders = dict(row.commanders or {})
            previous = commanders.get(found.id)
            commanders[found.id] = member_id
            row.commanders = commanders
            return Assignment(found.name, row.name, member_id, previous)

    async def hand_over(self, place: Place, user_id: int, side: str, member_id: int) -> HandOver:
        """Give a battle side to a GM (taking it over) or another player (a GM only), e.g.
        while its player is away: from then on the steps wait for them, and the groups the
        previous player commanded are theirs too. The previous player stays in the campaign;
        handing the side back is the same command."""
        async with self.db.write() as session:
            loaded = await load_battle(session, place)
            loaded.require_gm(user_id)
            row = _side_named(loaded, side)
            campaign = loaded.campaign
            member = find_member(campaign, member_id)
            if is_ai(member_id):  # the AI general (#36): no member, plays no other side
                member = None
            elif member is None or member.role is Role.OBSERVER:
                raise InvalidInput(
                    f"That member is not a player or GM of **{campaign.name}**: a side goes to "
                    f"a GM or a player (`/campaign join side:{row.name}`, then try again)."
                )
            plays = [
                s.name
                for s in loaded.battle.sides
                if s is not row and s.side_id in loaded.side_of(member_id)
            ]
            if plays and not is_ai(member_id):  # the AI may play both sides (AI against AI)
                raise Conflict(
                    f"That member plays **{plays[0]}** in this battle, so cannot play its enemy "
                    f"too: give **{row.name}** to a GM or to one of its own players."
                )
            previous = row.owner_id
            if previous == member_id:
                raise Conflict(
                    f"That member already plays **{row.name}**; `/battle hand-over` gives it "
                    "to someone else."
                )
            names = {g.id: g.name for g in loaded.state.groups}
            commanders = dict(row.commanders or {})
            moved = tuple(names.get(g, g) for g, u in commanders.items() if u == previous)
            row.owner_id = member_id
            away = [u for u in row.handed_away or () if u != member_id]
            if not loaded.is_gm(previous) and not is_ai(previous):  # refused till handed back
                away.append(previous)
            row.handed_away = away or None
            if moved:
                row.commanders = {g: u for g, u in commanders.items() if u != previous}
            await session.flush()
            to_gm = member is not None and member.role is Role.GM
            return HandOver(row.name, member_id, previous, moved, to_gm, loaded.battle.id)

    async def hand_over_to(self, place: Place, user_id: int, side: str, member: str) -> HandOver:
        """``hand_over`` to whom ``member`` names: a member (mention or id) or ``ai``."""
        return await self.hand_over(place, user_id, side, holder_id(member))

    async def check_gm(self, place: Place, user_id: int) -> BattleView:
        """The channel's battle, if the user is one of its GMs; refuses anyone else."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            loaded.require_gm(user_id)
            return view_of(loaded)


def _side_named(loaded: Loaded, name: str) -> BattleSide:
    """The battle's side of this name (any case), or a refusal naming the sides."""
    for row in loaded.battle.sides:
        if name_key(name) in (name_key(row.name), row.side_id.casefold()):
            return row
    names = ", ".join(f"**{s.name}**" for s in sorted(loaded.battle.sides, key=lambda s: s.name))
    raise NotFound(f"No side called **{name}** in this battle; one of: {names}.")


async def _in_set_up(session: AsyncSession, place: Place) -> Loaded:
    """The channel's battle, refusing once it has started."""
    loaded = await load_battle(session, place)
    if loaded.battle.status is not BattleStatus.SETUP:
        raise Conflict(
            "The battle has started: units move by orders now, or by a GM with `/gm move`."
        )
    if loaded.rules.setup_in_rules:
        raise Conflict(
            f"{registry.get(loaded.battle.ruleset_id).name} places units by orders in its "
            "set-up steps: once the GM runs `/battle start`, give `/order give kind:place`."
        )
    return loaded


def _with_forces(
    rules: Rules, state: BattleState, sides: list[BattleSide], armies: list[Army]
) -> BattleState:
    """Add the groups and leaders each army list brings (divisions, wings, generals)."""
    groups, leaders = list(state.groups), list(state.leaders)
    for side, army in zip(sides, armies, strict=True):
        more_groups, more_leaders = rules.forces_from_roster(army.roster, side.side_id)
        groups += more_groups
        leaders += more_leaders
    return replace(state, groups=tuple(groups), leaders=tuple(leaders))


def sides_words(ruleset_id: str, rules: Rules) -> str:
    """``Tree of Battles takes exactly 2 sides``: how many sides a ruleset's battles take."""
    low, high = rules.sides
    high = min(high, len(SIDE_IDS))
    count = f"exactly {low}" if low == high else f"{low} to {high}"
    return f"{registry.get(ruleset_id).name} takes {count} sides"


def with_reserves(loaded: Loaded) -> BattleState:
    """The state with every roster unit not yet on the table added in reserve (for a ruleset
    that places units by orders in its set-up steps)."""
    state = loaded.state
    present = {u.id for u in state.units}
    added = [
        replace(roster_unit(loaded, unit_id, loaded.battle.created_by), location=RESERVE)
        for unit_id, _, _ in roster_entries(loaded)
        if unit_id not in present
    ]
    return replace(state, units=(*state.units, *added))


def undeployed(loaded: Loaded) -> list[str]:
    """Names of the units of every side's army not yet on the table."""
    on_table = {u.id for u in loaded.state.units_on_table}  # a unit in reserve is not placed
    return [name for unit_id, name, _ in roster_entries(loaded) if unit_id not in on_table]


async def new_battle(
    session: AsyncSession,
    campaign: Campaign,
    user_id: int,
    name: str,
    armies: list[str],
    table: Table = USUAL_TABLE,
) -> Loaded:
    """A new battle in set-up in the campaign, one side per named army (the caller checked the
    user is a GM; the name is clean); the campaign map fights its battles through this too."""
    rules = rules_of(campaign.ruleset_id)
    usual_width, usual_depth = table_size(campaign, rules)
    width, depth, scale = table.width or usual_width, table.depth or usual_depth, table.scale
    for size in (width, depth):
        if not MIN_TABLE <= size <= MAX_TABLE:
            raise InvalidInput(f"Table sizes run from {MIN_TABLE:g} to {MAX_TABLE:g}.")
    await _refuse_second_battle(session, campaign)
    chosen = _chosen_armies(campaign, armies, rules)
    seed = new_seed()
    battle = Battle(
        campaign_id=campaign.id,
        name=name,
        ruleset_id=campaign.ruleset_id,
        seed=seed.hex(),
        seed_sha256=commitment(seed),
        state={},
        created_by=user_id,
    )
    battle.sides = [
        BattleSide(
            side_id=SIDE_IDS[i], name=_side_name(campaign, a), army_id=a.id, owner_id=a.owner_id
        )
        for i, a in enumerate(chosen)
    ]
    session.add(battle)
    await session.flush()
    sides = [Side(s.side_id, s.name) for s in battle.sides]
    state = rules.new_battle(f"battle-{battle.id}", campaign.ruleset_id, width, depth, sides)
    if scale is not None:
        field = replace(state.battlefield, mm_per_measure=float(scale))
        state = replace(state, battlefield=field)
    state = state.with_status(name=name)  # the map's title
    state = replace(state, parameters=battle_parameters(campaign, rules))
    state = _with_forces(rules, state, battle.sides, chosen)
    battle.state = state.to_dict()
    return Loaded(campaign, battle, rules, state)


async def _refuse_second_battle(session: AsyncSession, campaign: Campaign) -> None:
    open_one = await session.scalar(
        select(Battle).where(
            Battle.campaign_id == campaign.id, Battle.status != BattleStatus.FINISHED
        )
    )
    if open_one is not None:
        raise Conflict(
            f"**{open_one.name}** is still being played; end it with `/battle end` first."
        )


def _chosen_armies(campaign: Campaign, names: list[str], rules: Rules) -> list[Army]:
    keys = [name_key(n) for n in names if n.strip()]
    if len(keys) < 2 or len(set(keys)) != len(keys):
        raise InvalidInput("A battle needs at least two different armies.")
    low, high = rules.sides
    if not low <= len(keys) <= min(high, len(SIDE_IDS)):
        raise InvalidInput(f"{sides_words(campaign.ruleset_id, rules)}; {len(keys)} were named.")
    by_name = {name_key(a.name): a for a in campaign.armies}
    missing = [n for n, k in zip(names, keys, strict=True) if k not in by_name]
    if missing:
        raise NotFound(f"No army called {', '.join(f'**{m}**' for m in missing)} in this campaign.")
    return [by_name[k] for k in keys]


def _side_name(campaign: Campaign, army: Army) -> str:
    owner = next((m for m in campaign.members if m.user_id == army.owner_id), None)
    return owner.side if owner is not None and owner.side else army.name


async def _setting_up(session: AsyncSession, place: Place, user_id: int) -> Loaded:
    loaded = await load_battle(session, place)
    loaded.require_gm(user_id)
    if loaded.battle.status is not BattleStatus.SETUP:
        raise Conflict("The battle has started; terrain can only change during set-up.")
    return loaded


def _summary(battle: Battle) -> BattleSummary:
    """A battle row in a few words: status, sides, where play stands, how it ended."""
    state = BattleState.from_dict(battle.state)
    ruleset = registry.get(battle.ruleset_id)
    try:
        step = ruleset.rules.sequence.step(state.cursor.step).title if ruleset.rules else ""
    except KeyError:
        step = state.cursor.step
    result = str((battle.result or {}).get("text") or (battle.result or {}).get("reason") or "")
    sides = tuple(s.name for s in sorted(battle.sides, key=lambda s: s.side_id))
    return BattleSummary(
        battle.name, battle.status, sides, state.cursor.turn, step, battle.deadline_at, result
    )
