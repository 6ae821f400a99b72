"""Tree of Battles' army break default became 0.5 (round 48): the migration pins the old 1.0
into every stored Tree of Battles state without the key, so no stored battle changes its rule;
a campaign's setting and other rulesets are left byte for byte."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from alembic import command
from sqlalchemy.engine import Connection

from bot.db.migrate import run_alembic, upgrade_to_head
from bot.db.session import create_engine
from rules_core import registry
from rules_core.rulesets.tree_of_battles.forces import prepare
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState
from tests.bot.test_migrations import _insert
from tests.databases import query

BEFORE_PIN = "6a3f9c2e7d14"  # the revision before the pin
STAGES = 450  # more than two of the migration's batches (200 rows)


def tree_state(parameters: dict[str, Any]) -> str:
    """A Tree of Battles sample state's JSON text with these parameters."""
    return json.dumps(replace(prepare(sample_battle()), parameters=parameters).to_dict())


def hail_caesar_state() -> str:
    """Hail Caesar's sample state's JSON text (its parameters lack any army break share)."""
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    return json.dumps(sample.to_dict())


def _battle(conn: Connection, ruleset: str, state: str, initial: str | None) -> int:
    # One campaign holds them all: one battle still running (no first state yet), the rest over.
    campaign = conn.exec_driver_sql("SELECT min(id) FROM campaign").scalar_one()
    return _insert(conn, "battle", campaign_id=campaign, ruleset_id=ruleset, state=state,
                   initial_state=initial, status="finished" if initial else "running")  # fmt: skip


def _stored(db_url: str) -> dict[str, list[str]]:
    """Every battle's stored texts, by what they are: states, stage logs, record entries."""
    return {
        "battle": [
            f"{row[0]} {row[1]} {row[2]}"
            for row in query(db_url, "SELECT id, state, initial_state FROM battle ORDER BY id")
        ],
        "stage_log": [
            f"{row[0]} {row[1]}"
            for row in query(db_url, "SELECT battle_id, start_state FROM stage_log ORDER BY id")
        ],
        "record_entry": [
            f"{row[0]} {row[1]}"
            for row in query(db_url, "SELECT battle_id, entry FROM record_entry ORDER BY id")
        ],
    }


def _share(text: str | None) -> object:
    assert text is not None
    return json.loads(text)["parameters"].get("army_break_share", "absent")


async def test_stored_tree_of_battles_battles_keep_the_break_of_every_contingent(
    db_url: str,
) -> None:
    await run_alembic(db_url, lambda cfg: command.upgrade(cfg, BEFORE_PIN))
    engine = create_engine(db_url)
    plain, other = tree_state({"max_turns": 8}), hail_caesar_state()
    set_by_campaign = tree_state({"army_break_share": 0.7})

    def before(conn: Connection) -> dict[str, int]:
        _insert(conn, "campaign", status="open", settings="{}")
        ids = {
            "running": _battle(conn, "tree_of_battles", plain, None),
            "plain": _battle(conn, "tree_of_battles", plain, plain),
            "campaign": _battle(conn, "tree_of_battles", set_by_campaign, set_by_campaign),
            "other": _battle(conn, "hail_caesar", other, other),
        }
        for name, state in (("plain", plain), ("campaign", set_by_campaign), ("other", other)):
            for number in range(STAGES if name == "plain" else 2):
                _insert(conn, "stage_log", battle_id=ids[name], number=number, start_state=state)
            entries = [{"action": "resolve", "turn": 1, "step": "command", "attempt": 0},
                       {"action": "edit", "turn": 1, "step": "command", "attempt": 1,
                        "reason": "undo: x", "state": json.loads(state)}]  # fmt: skip
            for seq, entry in enumerate(entries):
                _insert(conn, "record_entry", battle_id=ids[name], seq=seq,
                        turn=1, step="command", attempt=seq, entry=json.dumps(entry))  # fmt: skip
        return ids

    try:
        async with engine.begin() as conn:
            ids = await conn.run_sync(before)
        await engine.dispose()
        kept = _stored(db_url)

        await upgrade_to_head(db_url)
        after = _stored(db_url)
    finally:
        await engine.dispose()

    # Other rulesets' and campaign-set rows are byte for byte as they were.
    untouched = (f"{ids['campaign']} ", f"{ids['other']} ")
    for table, rows in kept.items():
        was = [row for row in rows if row.startswith(untouched)]
        assert len(was) == (2 if table == "battle" else 4)
        assert [row for row in after[table] if row.startswith(untouched)] == was
    states = query(db_url, "SELECT id, state, initial_state FROM battle ORDER BY id")
    by_id = {row[0]: row[1:] for row in states}
    assert [_share(text) for text in by_id[ids["plain"]]] == [1.0, 1.0]
    assert _share(by_id[ids["running"]][0]) == 1.0 and by_id[ids["running"]][1] is None
    assert _share(by_id[ids["campaign"]][0]) == 0.7
    assert _share(by_id[ids["other"]][0]) == "absent"
    logs = query(db_url, "SELECT start_state FROM stage_log WHERE battle_id = ?", ids["plain"])
    assert len(logs) == STAGES and {_share(text) for (text,) in logs} == {1.0}
    entries = query(db_url, "SELECT entry FROM record_entry WHERE battle_id = ?", ids["plain"])
    found = [json.loads(text) for (text,) in entries]
    assert found[0] == {"action": "resolve", "turn": 1, "step": "command", "attempt": 0}
    assert found[1]["state"]["parameters"] == {"max_turns": 8, "army_break_share": 1.0}

    # The pinned battle breaks as it did: 3 of 6 French contingents broken is no army break.
    pinned = BattleState.from_dict(json.loads(by_id[ids["plain"]][0]))
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    for unit in [x for x in pinned.units_of("french") if x.type != "baggage"][:3]:
        pinned = pinned.with_unit(unit.with_status(broken=True))
    assert not rules.army_broken(pinned, "french")
    assert rules.army_broken(replace(pinned, parameters={}), "french")  # the new default would
