"""/odds: the exact chances of a charge, a shot, a test or an order, on what the asking side
may see.

The ruleset computes them (``Rules.odds``) from the same roll specs its resolvers roll, on
``secrets.view`` of the battle for the asker's side (a GM sees everything), so another
side's hidden state never enters the figures. The chart is drawn off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import InvalidInput, NotFound, PermissionDenied, UserError
from bot.rendering.odds_chart import chart
from bot.services.base import Service
from bot.services.battle_state import Loaded, find_giver, load_battle
from bot.services.campaigns import Place
from bot.services.intake import Wanted, command_action, order_kind_of
from bot.services.numbers import check_finite
from bot.services.order_params import params_for, resolve
from bot.services.plans import planned_rows
from bot.services.resolving import off_loop
from bot.services.stages import stage_orders
from rules_core.odds import QUERY_KINDS, Odds, OddsQuery, Refused
from rules_core.orders import Order
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState, Unit


@dataclass(frozen=True)
class OddsAnswer:
    """The chances, the battle they were asked in, what they were asked for and the chart."""

    battle_name: str
    odds: Odds
    chart: bytes
    planned_for: str = ""  # the later step an asked-about order is planned for


class OddsService(Service):
    """Answers /odds; reads only, never changes a battle."""

    async def ask(
        self,
        place: Place,
        user_id: int,
        kind: str,
        unit: str,
        target: str | None = None,
        option: str | None = None,
    ) -> OddsAnswer:
        """The odds of ``kind`` (charge, shoot, melee, test) by one of the user's units."""
        if kind not in QUERY_KINDS:
            raise InvalidInput(f"`/odds` answers {', '.join(QUERY_KINDS)}, not `{kind}`.")
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
        seen, sides = _seen(loaded, user_id)
        mine = _unit(seen, unit, sides)
        found = _unit(seen, target, None) if target else None
        params = {"option": option} if option else {}
        query = OddsQuery(kind, mine.id, found.id if found else None, params)
        return await _answer(loaded, seen, query)

    async def of_order(self, place: Place, user_id: int, number: int) -> OddsAnswer:
        """The odds of the user's ``number``-th order, as ``/orders mine`` lists them (orders
        for the open step first, then those planned for later steps)."""
        check_finite(number=number)
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            given = [
                (r.actor, r.kind, dict(r.params), "")
                for r in await stage_orders(session, loaded.battle.id, loaded.battle.stage)
                if r.user_id == user_id
            ]
            given += [
                (r.actor, r.kind, dict(r.params), r.step_title)
                for r in await planned_rows(session, loaded.battle.id)
                if r.user_id == user_id
            ]
        if not given:
            raise NotFound(
                "You have no orders given or planned in this battle: give one with `/order`, "
                "then ask again."
            )
        if not 1 <= number <= len(given):
            raise InvalidInput(f"You have {len(given)} order(s); give 1 to {len(given)}.")
        actor, kind, params, step = given[number - 1]
        seen, _ = _seen(loaded, user_id)
        target = params.get("target")
        query = OddsQuery(kind, actor, target if isinstance(target, str) else None, params)
        answer = await _answer(loaded, seen, query)
        return OddsAnswer(answer.battle_name, answer.odds, answer.chart, step)

    async def aimed(self, place: Place, user_id: int, wanted: Wanted) -> Odds | None:
        """The odds of an order as the war table draws it (a charge, a shot: whatever
        ``/odds`` answers for its kind), on what the user may see; None when the order has
        none, or cannot be read yet (its refusal is the judge's to give)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
        return await aimed_odds(loaded, user_id, wanted)


async def aimed_odds(loaded: Loaded, user_id: int, wanted: Wanted) -> Odds | None:
    """``OddsService.aimed`` on a battle already read (the war table's judge reads it once)."""
    try:
        seen, sides = _seen(loaded, user_id)
        kind, given = command_action(loaded, wanted.kind, wanted.given)
        order_kind = order_kind_of(loaded, kind)
        actor = find_giver(seen, order_kind.actor, wanted.unit, sides)
        # Names resolve on the viewed state: a unit the user cannot see is no target.
        order = Order(actor.id, kind, params_for(order_kind, given, seen))
    except UserError:
        return None
    found = await off_loop(loaded.rules.odds, seen, OddsQuery.of_order(order))
    return found if isinstance(found, Odds) else None


def _seen(loaded: Loaded, user_id: int) -> tuple[BattleState, tuple[str, ...] | None]:
    """The state as the user may see it, and the sides whose units they may ask about (None:
    any, for a GM)."""
    seat = loaded.seat(user_id)
    if seat.is_gm:
        return view(loaded.state, Viewer.game_master()), None
    if not seat.sides:
        raise PermissionDenied("Only a player of this battle (or a GM) can ask for odds.")
    # A player of two sides (rare: a hot seat) sees each side's secrets; odds use the first.
    return view(loaded.state, Viewer.of_side(seat.sides[0])), seat.sides


def _unit(state: BattleState, ref: str | None, sides: tuple[str, ...] | None) -> Unit:
    """The unit a name or id means, among the asker's own units when ``sides`` is given; the
    lookup's refusal names the units that may be asked about."""
    assert ref is not None
    found = resolve(state.units, "unit", ref, sides)
    assert isinstance(found, Unit)
    return found


async def _answer(loaded: Loaded, seen: BattleState, query: OddsQuery) -> OddsAnswer:
    """Ask the ruleset on the viewed state and draw the chart, both off the event loop."""
    found = await off_loop(loaded.rules.odds, seen, query)
    if found is None:
        raise InvalidInput(
            f"The {loaded.battle.ruleset_id.replace('_', ' ')} rules give no odds for "
            f"`{query.kind}`."
        )
    if isinstance(found, Refused):
        raise InvalidInput(f"No odds: {found.reason}.")
    return OddsAnswer(loaded.battle.name, found, await off_loop(chart, found))
