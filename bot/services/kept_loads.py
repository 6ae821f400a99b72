"""A resolution's battle and campaign loaded once (#38): in its rehearsal, not again in its write.

A step's keeping write loads the battle with its sides and its campaign with its members and
armies (``battle_state.load_battle_by_id``): three SELECTs, a fifth of the statements run with
the write lock held. Its rehearsal loaded the very same rows a moment before. So the rehearsal
notes their column values as loaded (``kept_reads.note``: before it changed anything), and a
keeping write whose claim succeeded is given ORM objects made from them, attached to its session
without a SELECT (``make_transient_to_detached``: the values count as the database's).

The claim is what makes this exact: it checks the battle's version and its campaign's
(``bot.db.versioning.claim``), and every ORM write to the battle, a row of it, the campaign, a
member or an army bumps one of them. JSON values are copied when noted (the rehearsal may
change its objects' in place after) except a battle's state, which is never changed in place
(``bot.db.encoded``); the write is given them once, so it owns them.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.util import identity_key

from bot.db.encoded import Encoded
from bot.db.models import Army, Battle, BattleSide, Campaign, Membership

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Rows:
    """The column values of a loaded battle and campaign, as the database gave them."""

    battle: Row
    sides: tuple[Row, ...]
    campaign: Row
    members: tuple[Row, ...]
    armies: tuple[Row, ...]


def rows_of(battle: Battle, campaign: Campaign) -> Rows | None:
    """What a rehearsal loaded, as plain values; None if any of it was changed already."""
    if any(inspect(row).modified for row in _every(battle, campaign)):
        return None
    return Rows(
        _values(battle),
        tuple(_values(side) for side in battle.sides),
        _values(campaign),
        tuple(_values(member) for member in campaign.members),
        tuple(_values(army) for army in campaign.armies),
    )


def made(session: Session, rows: Rows) -> tuple[Battle, Campaign] | None:
    """The battle and campaign in ``session``, made from ``rows``; None if the session holds
    one of them already (it is loaded instead). The battle is at the version its claim wrote,
    one past the rehearsal's."""
    wanted = [
        (Battle, rows.battle),
        *((BattleSide, row) for row in rows.sides),
        (Campaign, rows.campaign),
        *((Membership, row) for row in rows.members),
        *((Army, row) for row in rows.armies),
    ]
    if any(identity_key(cls, row["id"]) in session.identity_map for cls, row in wanted):
        return None
    # The values were copied when noted, and a write is given them once (``kept_reads``).
    battle = Battle(**{**rows.battle, "version": rows.battle["version"] + 1})
    battle.sides = [BattleSide(**row) for row in rows.sides]
    campaign = Campaign(**rows.campaign)
    campaign.members = [Membership(**row) for row in rows.members]
    campaign.armies = [Army(**row) for row in rows.armies]
    # Every row detached with its values as the database's (no history, nothing to write);
    # what was left out (a deferred column) is loaded when first read, as it was.
    for row in _every(battle, campaign):
        make_transient_to_detached(row)
    session.add(battle)
    session.add(campaign)
    return battle, campaign


def _values(row: Any) -> dict[str, Any]:
    """A row's loaded column values (a deferred one, not loaded, is left out)."""
    state = inspect(row)
    unloaded = state.unloaded
    return {
        attr.key: _copied(state.dict[attr.key])
        for attr in state.mapper.column_attrs
        if attr.key not in unloaded
    }


def _copied(value: Any) -> Any:
    if isinstance(value, Encoded) or not isinstance(value, dict | list):
        return value  # a battle's state is never changed in place; the rest is immutable
    return copy.deepcopy(value)


def _every(battle: Battle, campaign: Campaign) -> list[Any]:
    """The battle, its sides, the campaign, its members and its armies."""
    return [battle, *battle.sides, campaign, *campaign.members, *campaign.armies]
