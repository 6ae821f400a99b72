"""A battle's version, bumped in the same flush as every ORM write to the battle or to a row
of it (orders, plans, confirmations, standing instructions, sides, deadlines, ...); and a
campaign's, by every ORM write to the campaign, its members or its armies (what a resolution
loads with its battle: ``bot.services.kept_loads``).

A resolution is worked out from a read, outside any write transaction, and kept only if the
battle's version is still the one it read (``bot.services.rehearsal``). Bumping here, under
every service, means no write path can forget to. Core ``UPDATE``/``DELETE`` statements are
not seen: the few on battle rows (cancelled deadlines, plans of past turns, a GM's undo) run
inside writes that also change the battle itself, which bumps it. No Core statement writes a
campaign, a member or an army.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from sqlalchemy import event, exists, update
from sqlalchemy.orm import Session, UOWTransaction

from bot.db.models import Army, Battle, Campaign, Membership

_BUMPED = "aide_versions_bumped"  # in session.info: battles bumped in this transaction
_CAMPAIGNS_BUMPED = "aide_campaign_versions_bumped"  # and campaigns


def battles_touched(session: Session) -> set[int]:
    """The ids of the battles this flush writes to (itself or one of its rows)."""
    found: set[int] = set()
    for row in chain(session.new, session.dirty, session.deleted):
        if row in session.dirty and not session.is_modified(row):
            continue
        battle_id = row.id if isinstance(row, Battle) else getattr(row, "battle_id", None)
        if isinstance(battle_id, int):
            found.add(battle_id)
    return found


def campaigns_touched(session: Session) -> set[int]:
    """The ids of the campaigns this flush writes to (itself, a member or an army)."""
    found: set[int] = set()
    for row in chain(session.new, session.dirty, session.deleted):
        if isinstance(row, Campaign) and row not in session.new:
            campaign_id = row.id  # a new campaign starts at 0: no one has read it
        elif isinstance(row, Membership | Army):
            campaign_id = row.campaign_id
        else:
            continue
        if isinstance(campaign_id, int) and (row not in session.dirty or session.is_modified(row)):
            found.add(campaign_id)
    return found


def bumped(session: Session, battle_id: int) -> None:
    """Note that this transaction has bumped the battle's version (a claim did)."""
    session.info.setdefault(_BUMPED, set()).add(battle_id)


def _bump(session: Session, _flush: UOWTransaction, _instances: Any) -> None:
    # Once per battle (campaign) and transaction: others read only committed versions, so one
    # bump tells them as much as one per flush did (a resolution's write flushes several times).
    _bump_rows(session, Battle, battles_touched(session), _BUMPED, {})
    # ``updated_at`` kept: the campaign itself may not have changed
    kept = {"updated_at": Campaign.updated_at}
    _bump_rows(session, Campaign, campaigns_touched(session), _CAMPAIGNS_BUMPED, kept)


def _bump_rows(
    session: Session,
    model: type[Battle] | type[Campaign],
    touched: set[int],
    done_key: str,
    kept: dict[str, Any],
) -> None:
    done: set[int] = session.info.setdefault(done_key, set())
    touched -= done
    if touched:
        session.connection().execute(
            update(model)
            .where(model.id.in_(sorted(touched)))
            .values(version=model.version + 1, **kept)
            .execution_options(synchronize_session=False)
        )
        done |= touched


def _forget(session: Session, *_: Any) -> None:
    """A transaction's end (or a rolled back savepoint): the next one bumps again."""
    session.info.pop(_BUMPED, None)
    session.info.pop(_CAMPAIGNS_BUMPED, None)


def claim(battle_id: int, version: int, campaign_version: int | None = None) -> Any:
    """The statement that bumps a battle's version only if it is still ``version`` (and, given
    ``campaign_version``, its campaign's is still that): one row updated, or none when another
    write came first (on PostgreSQL it waits for that write's row lock, then checks again)."""
    where = [Battle.id == battle_id, Battle.version == version]
    if campaign_version is not None:
        same = (Campaign.id == Battle.campaign_id) & (Campaign.version == campaign_version)
        where.append(exists().where(same))
    return (
        update(Battle)
        .where(*where)
        .values(version=version + 1)
        .execution_options(synchronize_session=False)
    )


event.listen(Session, "before_flush", _bump)
for _end in ("after_commit", "after_rollback", "after_soft_rollback"):
    event.listen(Session, _end, _forget)
