"""Fifty players on one battle at once: each gives, changes and withdraws the deployment order
of their own unit while the step's deadline fires and the GM forces the step.

A skirmish battle with 25 players on each side (each side's army has a unit per player, so no
two players touch one order; a player waits for each answer before the next command, as a
person does, but the fifty play at the same time). Part-way through, the clock passes the
step's deadline and its handler runs while the GM's ``/gm force`` arrives. Afterwards:

- every interaction was answered (within Discord's 3 s: each is deferred before its work) and
  ended in a message the user sees, none "Something went wrong", none about a locked database
  (the harness also fails on any error the bot logs);
- the step resolved exactly once: one step result posted, one deployment resolution on the
  record, the force and the deadline finding the other had won (or the other finding nothing);
- every acknowledged order is stored and consumed exactly as acknowledged: per unit, the last
  acknowledged change wins (a placement's point, or a withdrawal's "stay where deployed"), both
  in the stored orders of the step and in where the resolution put the unit; nothing
  acknowledged was lost, nothing refused was kept.
"""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta
from typing import Any

import pytest

from tests.databases import query
from tests.e2e.conftest import MakeHarness
from tools.fake_discord import FakeUser, World
from tools.fake_discord.interactions import command_interaction
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness, InteractionResult, answered_in_time
from tools.skirmish_battle import BATTLE, CAMPAIGN, reports

pytestmark = pytest.mark.usefixtures("fixed_seed")

PER_SIDE = 25  # 50 players in all
ACTIONS = 6  # commands per player
FORCE_AFTER = PER_SIDE * 2 * ACTIONS * 2 // 5  # the GM and the deadline act after 40 % of them
COLUMNS = [4 + 6 * c for c in range(7)]
ROWS = {"Red": [2.0, 4.5, 7.0, 9.5], "Blue": [26.5, 29.0, 31.5, 34.0]}


def army(side: str) -> dict[str, Any]:
    """An army with a unit per player of the side."""
    units = [{"name": f"{side} {i:02d}", "type": "infantry", "move": 6, "stamina": 2}
             for i in range(PER_SIDE)]  # fmt: skip
    return {"name": f"{side} Host", "units": units}


def deployed_at(side: str, i: int) -> tuple[float, float]:
    """Where set-up puts unit i of a side: a grid in its deployment zone."""
    return float(COLUMNS[i % 7]), ROWS[side][i // 7]


async def act(h: Harness, user: FakeUser, where: FakeChannel, command: str, **values: Any
              ) -> InteractionResult:  # fmt: skip
    """Send one command and wait for the answer the user sees, without waiting for the other
    players' commands (unlike Harness.slash, which lets every handler finish first)."""
    payload = command_interaction(h.fake, user, where, command, values)
    record = await h.fake.send_interaction(payload)

    def shown() -> bool:
        messages = [record.original, *record.followups]
        visible = [m for m in messages if m is not None and not m.deleted and not m.loading]
        return bool(record.callbacks and visible)

    def settled() -> bool:  # or the bot died or logged an error: h.check() reports it
        died = h.bot_task is None or h.bot_task.done()
        return shown() or died or bool(h._errors.records)

    await h.fake.wait_until(settled, 120, f"an answer to /{command} by {user.username}")
    if not shown():
        h.check()
    late = answered_in_time(record)
    assert late is None, f"/{command} {late}"
    return InteractionResult(record)


def battle_rows(db: str) -> tuple[dict[str, Any], int]:
    """The battle's state and stage."""
    ((state, stage),) = query(db, "SELECT state, stage FROM battle")
    return json.loads(state), stage


def stored_orders(db: str, stage: int) -> dict[str, tuple[str, dict]]:
    """The orders stored for a stage: actor → (kind, params)."""
    rows = query(db, "SELECT actor, kind, params FROM battle_order WHERE stage = ?", stage)
    found: dict[str, tuple[str, dict]] = {}
    for actor, kind, params in rows:
        assert actor not in found, f"two orders stored for {actor}"
        found[actor] = (kind, json.loads(params))
    return found


async def set_up(h: Harness, where: FakeChannel, players: dict[str, list[FakeUser]]) -> None:
    """Campaign, 25 players a side, one army a side, every unit deployed, the battle started."""
    await h.slash(h.gm, "campaign create", channel=where, name=CAMPAIGN, ruleset="skirmish")
    for side, users in players.items():
        for user in users:
            joined = await h.slash(user, "campaign join", channel=where, side=side)
            assert "Something went wrong" not in joined.text, joined
    for side, owner in (("Red", h.alice), ("Blue", h.bob)):
        upload = h.upload(f"{side}.json", json.dumps(army(side)), "application/json")
        imported = await h.slash(owner, "army import", channel=where, file=upload)
        assert f"({PER_SIDE} units)" in imported.content, imported
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE, army_a="Red Host", army_b="Blue Host"
    )
    assert not created.ephemeral, created
    for side, owner in (("Red", h.alice), ("Blue", h.bob)):
        facing = 0 if side == "Red" else 180
        plan = [{"unit": f"{side} {i:02d}", "at": list(deployed_at(side, i)), "facing": facing}
                for i in range(PER_SIDE)]  # fmt: skip
        done = await h.slash(owner, "battle deploy-file", channel=where,
                             file=h.upload("deploy.json", json.dumps(plan)))  # fmt: skip
        assert done.content == f"Deployed {PER_SIDE} units.", done
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral and "Something went wrong" not in started.text, started


def script(side: str, i: int) -> list[tuple[str, tuple[float, float] | None]]:
    """A player's commands: placements at points of their zone, and withdrawals."""
    rng = random.Random(f"{side}{i}")
    low, high = (1.5, 10.5) if side == "Red" else (25.5, 34.5)
    steps: list[tuple[str, tuple[float, float] | None]] = []
    for _ in range(ACTIONS):
        if steps and rng.random() < 0.3:
            steps.append(("withdraw", None))
        else:
            point = (float(rng.randint(3, 45)), float(rng.randint(int(low), int(high))))
            steps.append(("place", point))
    return steps


async def test_fifty_players_deadline_and_force_on_one_battle(
    make_aide: MakeHarness,
) -> None:
    world = World()
    extra = [FakeUser(f"p{n:02d}", f"Player {n}") for n in range(2 * PER_SIDE - 2)]
    for user in extra:
        world.add_member(user, [])
    h = await make_aide(world)
    where = h.channel("hundred-years")
    players = {"Red": [h.alice, *extra[: PER_SIDE - 1]], "Blue": [h.bob, *extra[PER_SIDE - 1 :]]}
    await set_up(h, where, players)
    db = h.database_url
    _, deploy_stage = battle_rows(db)
    assert reports(h, where) == []

    acknowledged: dict[str, list[tuple[str, tuple[float, float] | None]]] = {}
    answers: list[InteractionResult] = []
    sent = [0]
    go = asyncio.Event()

    async def player(side: str, i: int, user: FakeUser) -> None:
        unit = f"{side} {i:02d}"
        acknowledged[unit] = []
        for kind, point in script(side, i):
            if kind == "place":
                x, y = point  # type: ignore[misc]
                answer = await act(h, user, where, "order place", unit=unit, x=x, y=y)
                ok = answer.content.startswith(f"✅ **{unit}**: deploys at ({x:g}, {y:g})")
            else:
                answer = await act(h, user, where, "order withdraw", unit=unit)
                ok = answer.content.startswith(f"Withdrawn: **{unit}**")
            answers.append(answer)
            assert answer.ephemeral, answer
            if ok:
                acknowledged[unit].append((kind, point))
            sent[0] += 1
            if sent[0] >= FORCE_AFTER:
                go.set()

    deadline_fired: list[int] = []

    async def deadline() -> None:
        await go.wait()
        h.clock.advance(timedelta(hours=49))  # past the step's 48 hours
        assert h.bot is not None
        deadline_fired.append(await h.bot.deadlines.run_due())

    async def force() -> InteractionResult:
        await go.wait()
        return await act(h, h.gm, where, "gm force")

    tasks = [player(side, i, u) for side, users in players.items() for i, u in enumerate(users)]
    *_, forced = await asyncio.wait_for(asyncio.gather(*tasks, deadline(), force()), 240)
    await h._handlers_done()
    h.check()

    # Every reply delivered, privately, whole, none an internal error.
    assert len(answers) == 2 * PER_SIDE * ACTIONS
    for answer in [*answers, forced]:
        assert answer.text, answer
        assert "Something went wrong" not in answer.text, answer
        assert "locked" not in answer.text.lower(), answer
        assert all(len(m.content) <= 2000 for m in answer.messages), answer
    accepted = sum(len(a) for a in acknowledged.values())
    assert 0 < accepted < len(answers), "some before the step resolved, some after"

    # The step resolved exactly once.
    step = "Set-up · Deployment"
    posted = reports(h, where)
    deployment = [r for r in posted if r.embeds[0]["title"] == f"{BATTLE} — {step}"]
    assert len(deployment) == 1, [r.embeds[0]["title"] for r in posted]
    if forced.ephemeral:  # the deadline came first: the GM is told, nothing else resolves
        assert forced.text == "That step has just been resolved.", forced
        assert len(posted) == 1, [r.embeds[0]["title"] for r in posted]
    elif f"forced **{step}**" in forced.text:  # the GM came first; the deadline found it done
        assert len(posted) == 1, [r.embeds[0]["title"] for r in posted]
    else:  # the deadline's resolution was over before the GM's command arrived: the next step
        assert len(posted) == 2, (forced, [r.embeds[0]["title"] for r in posted])
    state, stage = battle_rows(db)
    assert stage > deploy_stage
    ((deploys,),) = query(db, "SELECT count(*) FROM battle_order WHERE stage > ?", deploy_stage)
    assert deploys == 0, "no order of a later step came from a placement"

    # The last acknowledged change wins, in the stored orders and on the table.
    _assert_last_change_won(db, deploy_stage, state, players, acknowledged)
    print(
        f"\n{len(answers)} orders, changes and withdrawals by {2 * PER_SIDE} players "
        f"({accepted} acknowledged), a deadline ({deadline_fired[0]} fired) and a GM force "
        f"(won by {'the deadline' if forced.ephemeral else 'the GM'}): one resolution, the last "
        "acknowledged change won for every unit"
    )


def _assert_last_change_won(
    db: str,
    deploy_stage: int,
    state: dict[str, Any],
    players: dict[str, list[FakeUser]],
    acknowledged: dict[str, list[tuple[str, tuple[float, float] | None]]],
) -> None:
    """Each unit's last acknowledged change is its stored order and its place on the table."""
    stored = stored_orders(db, deploy_stage)
    names = {u["id"]: u["name"] for u in state["units"]}
    by_name = {u["name"]: u for u in state["units"]}
    for side, users in players.items():
        for i in range(len(users)):
            unit = f"{side} {i:02d}"
            last = acknowledged[unit][-1] if acknowledged[unit] else ("withdraw", None)
            ids = [k for k, n in names.items() if n == unit]
            (unit_id,) = ids
            placed = by_name[unit]
            if last[0] == "place":
                assert stored.get(unit_id, ("", {}))[0] == "place", (unit, stored.get(unit_id))
                assert stored[unit_id][1]["at"] == list(last[1]), (unit, stored[unit_id])
                assert (placed["x"], placed["y"]) == last[1], (unit, acknowledged[unit])
            else:
                assert unit_id not in stored, (unit, stored[unit_id], acknowledged[unit])
                here = (placed["x"], placed["y"])
                assert here == deployed_at(side, i), (unit, here, acknowledged[unit])
