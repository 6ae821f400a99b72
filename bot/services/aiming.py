"""Aiming an order on the war table: the judge's verdict with the rules' facts (the path taken,
distance used and left, terrain crossed, where an "as far as possible" move stops), and the
ground a move can reach. Read only, the same checks as ``PlayService.judge``, the rules' work
in the engine's worker."""

from __future__ import annotations

from dataclasses import dataclass

from bot.db.session import Database
from bot.errors import InvalidInput, RefusedOrder
from bot.services.campaigns import Place
from bot.services.intake import (
    OrderView,
    Wanted,
    found_order,
    intake_of,
    judge_order,
    judged_view,
    order_kind_of,
)
from bot.services.odds import aimed_odds
from bot.services.order_params import OrderInput
from bot.services.players_part import running
from bot.services.resolving import off_loop
from rules_core import aim
from rules_core.odds import Odds
from rules_core.orders import Illegal, Order, Verdict
from rules_core.plugin import Rules
from rules_core.state import BattleState

Point = tuple[float, float]


@dataclass(frozen=True)
class Aimed:
    """An order as drawn: its preview (``view``) or why it is refused (``refused``), and the
    rules' facts of its line (None when it has none on the map)."""

    view: OrderView | None
    refused: RefusedOrder | None
    facts: aim.Aim | None
    odds: Odds | None = None  # a charge's or a shot's, as ``/odds`` gives them


async def aimed(
    db: Database, place: Place, user_id: int, wanted: Wanted, step: str | None
) -> Aimed:
    """The verdict on an order as drawn with its facts and odds, keeping nothing: one read."""
    async with db.read() as session:
        loaded = await running(session, place)
        intake = intake_of(loaded, user_id, step)
        _actor, _kind, order = found_order(loaded, user_id, wanted, intake)
        odds = await aimed_odds(loaded, user_id, wanted)  # a refused charge's too, as /odds
        try:
            judged = await judge_order(session, loaded, user_id, wanted, intake)
        except RefusedOrder as refused:
            facts = await off_loop(_facts, loaded.rules, intake.state, order, None)
            return Aimed(None, refused, facts, odds)
        facts = await off_loop(_facts, loaded.rules, intake.state, order, judged.verdict)
        return Aimed(judged_view(judged, intake), None, facts, odds)


async def reach(
    db: Database, place: Place, user_id: int, unit: str, kind: str, step: str | None
) -> tuple[Point, ...]:
    """The outline of where the user's ``unit`` can get with an order of ``kind`` (one taking
    a point ``to`` or a ``path``), sampled with the ruleset's judge."""
    async with db.read() as session:
        loaded = await running(session, place)
        intake = intake_of(loaded, user_id, step)
        params = order_kind_of(loaded, kind).params
        taken = [p.name for p in params if p.name in aim.POINT_PARAMS]
        if not taken:
            raise InvalidInput(f"`{kind}` takes no point or path: there is no reach to show.")
        placeholder = Wanted(kind, unit, OrderInput(named={taken[0]: "0,0"}))
        _actor, _kind, order = found_order(loaded, user_id, placeholder, intake)
        return await off_loop(aim.reach, loaded.rules, intake.state, order)


def _facts(
    rules: Rules, state: BattleState, order: Order, verdict: Verdict | None
) -> aim.Aim | None:
    """The facts of an order: as judged, or (refused) along the line it was drawn."""
    return aim.facts(rules, state, order, verdict or Illegal(order, ""))
