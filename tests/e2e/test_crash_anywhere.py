"""Crash anywhere: the real bot, in its own process, killed with SIGKILL at 50+ points of a
scripted battle and restarted on the same SQLite file, ends where an uninterrupted run ends.

The same script (a skirmish battle: set-up, orders, confirmations, deadlines and reminders,
questions answered by buttons and by a deadline, a GM ruling, the GM ending the battle) is
played twice against the fake Discord with the same dice seed: once without a kill, then with
the bot killed at the Nth event of each process it runs (an event: a write transaction before
its commit, just after a commit, just after Discord answered a request), N drawn from a fixed
schedule. A player whose command got no answer tries it again, as a person would, unless
the battle shows it took effect. At the end:

- every acknowledged order is stored for its step (and used when the step resolved);
- the steps are numbered without gap or repeat, each resolved once;
- the channel shows every step result and question, each once, as in the uninterrupted run;
- the database (battle state, step logs, record, orders, confirmations, deadlines, armies)
  equals the uninterrupted run's.

Reminders are the one exception by design: marked sent before they are posted, a kill in
between loses one rather than pinging twice; the test checks none is posted twice.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from tests.e2e.fake_clock import DEFAULT_START
from tests.e2e.fake_discord import BotMessage, World
from tests.e2e.process_harness import BotDied, Outcome, ProcessBot
from tests.e2e.skirmish_battle import BATTLE, BLUE, BLUE_DEPLOYMENT, CAMPAIGN, RED, RED_DEPLOYMENT

SEED = bytes(range(32))
MIN_KILLS = 50
TARGET_KILLS = 50  # kill points are drawn from 1 to 2 x events / TARGET_KILLS
ENOUGH_KILLS = 150  # a safety cap: past it the bot runs unkilled
CHANNEL = "hundred-years"


@dataclass
class Step:
    """One thing a person does: its label and how to do it."""

    label: str
    do: Callable[[ProcessBot, World], Awaitable[Outcome | None]]
    order: tuple[str, str] | None = None  # (user, kind) for an order that must be kept
    moment: str = "set-up"  # what kind of moment a kill during it interrupts


def slash(who: str, command: str, **options: Any) -> Step:
    """A slash command by gm, alice or bob."""

    async def do(pb: ProcessBot, world: World) -> Outcome:
        return await pb.slash(getattr(world, who), command, world.channel(CHANNEL), **options)

    kind = command.removeprefix("order ")
    is_order = command.startswith("order ") and kind != "done"
    moment = {"order done": "a confirmation (and the resolution it starts)"}.get(command, "")
    if command == "gm ruling":
        moment = "a GM ruling a question"
    elif command == "battle start":
        moment = "the battle's start"
    moment = moment or ("an order" if is_order else "set-up")
    return Step(f"{who}: /{command} {options}", do, (who, kind) if is_order else None, moment)


def upload(who: str, command: str, filename: str, data: Any) -> Step:
    """A slash command with a JSON file attached."""

    async def do(pb: ProcessBot, world: World) -> Outcome:
        file = pb.upload(filename, json.dumps(data))
        return await pb.slash(getattr(world, who), command, world.channel(CHANNEL), file=file)

    return Step(f"{who}: /{command} {filename}", do)


def click(who: str, label: str) -> Step:
    """Click a button of the latest channel post showing it."""

    async def do(pb: ProcessBot, world: World) -> Outcome | None:
        showing = [
            m
            for m in pb.posts(world.channel(CHANNEL))
            if any(c.get("label") == label for c in m.interactive)
        ]
        if not showing:
            return None
        return await pb.click(getattr(world, who), showing[-1], label)

    return Step(f"{who}: clicks {label!r}", do, moment="a question answered")


_ELAPSED = [0.0]  # hours the script has let pass so far, while it is written


def wait(hours: float) -> Step:
    """Time passes; the deadlines due fire. The clock is set, not moved, so a step repeated
    after a kill does not let the time pass twice."""
    _ELAPSED[0] += hours
    target = DEFAULT_START + timedelta(hours=_ELAPSED[0])

    async def do(pb: ProcessBot, world: World) -> None:
        await pb.advance_to(target)

    return Step(f"{hours} hours pass", do, moment="a deadline or reminder firing")


def end_battle() -> Step:
    """The GM ends the battle and confirms."""

    async def do(pb: ProcessBot, world: World) -> Outcome | None:
        where = world.channel(CHANNEL)
        asked = await pb.slash(world.gm, "battle end", where, reason="dusk", winner="Blue")
        if not asked.messages or not asked.messages[0].interactive:
            return asked
        return await pb.click(world.gm, asked.messages[0], "Confirm")

    return Step("gm: /battle end + Confirm", do, moment="a GM ending the battle")


SCRIPT = [
    slash("gm", "campaign create", name=CAMPAIGN, ruleset="skirmish"),
    slash("alice", "campaign join", side="Red"),
    slash("bob", "campaign join", side="Blue"),
    upload("alice", "army import", "red.json", RED),
    upload("bob", "army import", "blue.json", BLUE),
    slash("gm", "battle create", name=BATTLE, army_a="Red Host", army_b="Blue Host"),
    *[slash("alice", "battle deploy", unit=u, at=at) for u, at in RED_DEPLOYMENT.items()],
    upload("bob", "battle deploy-file", "blue-deployment.json", BLUE_DEPLOYMENT),
    slash("gm", "battle start"),
    # Deployment: a reminder, then Bob's confirmation resolves it; Bob answers the initiative.
    slash("alice", "order place", unit="Red Archers", x=26, y=11),
    slash("alice", "order done"),
    wait(25),
    slash("bob", "order done"),
    click("bob", "go first"),
    # Turn 1.
    slash("bob", "order move", unit="Blue Slingers", x=24, y=20),
    slash("bob", "order done"),
    slash("bob", "order shoot", unit="Blue Slingers", target="Red Archers"),
    slash("bob", "order done"),
    slash("alice", "order move", unit="Red Horse", x=32, y=16),
    slash("alice", "order done"),
    slash("alice", "order shoot", unit="Red Archers", target="Blue Slingers"),
    slash("alice", "order done"),
    # Turn 2: the initiative question times out; a charge asks Blue a question; a deadline.
    wait(25),
    slash("alice", "order charge", unit="Red Horse", target="Blue Riders"),
    slash("alice", "order move", unit="Red Spearmen", x=16, y=16),
    slash("alice", "order done"),
    click("bob", "stand"),
    wait(25),
    wait(22.5),
    wait(1),
    slash("bob", "order move", unit="Blue Warriors", x=16, y=20),
    slash("bob", "order hold", unit="Blue Riders"),
    slash("bob", "order done"),
    slash("bob", "order shoot", unit="Blue Slingers", target="Red Spearmen"),
    slash("bob", "order done"),
    # Turn 3: a GM ruling, a move, then the GM ends the battle.
    slash("gm", "gm ruling", choice="second"),
    slash("alice", "order move", unit="Red Archers", x=26, y=8),
    slash("alice", "order done"),
    end_battle(),
]


@dataclass
class Run:
    """What a run of the script left behind."""

    before: list[tuple[Any, ...]]  # where play stood before each step
    after: list[tuple[Any, ...]]
    posts: list[dict[str, Any]]
    reminders: list[str]
    database: dict[str, Any]
    events: int
    kept: list[tuple[int, str, str]]  # acknowledged orders: (stage, kind, reply)
    answers: list[str]  # what each step was answered
    interrupted: Counter[str]  # kills by the moment of play they interrupted


def shown(message: BotMessage) -> dict[str, Any]:
    """A channel post as people see it now (after its edits).

    A question answered by a click reads "Answered by …"; if the bot was killed after storing
    the answer but before editing the question, the next post closes it instead ("…
    (closed: answered)"). Either way it is answered and shows no buttons: both read the same.
    """
    content = message.content
    if content.startswith("Answered by ") or content.endswith("\n(closed: answered)"):
        content = "(answered)"
    return {
        "content": content,
        "embeds": message.embeds,
        "files": [(f.filename, hashlib.sha256(f.data).hexdigest()) for f in message.files],
        "buttons": [c.get("label") for c in message.interactive],
    }


def headline(post: dict[str, Any]) -> str:
    """A post's title, or the start of its text."""
    return str(post["embeds"][0]["title"] if post["embeds"] else post["content"][:60])


def first_difference(table: str, got: list[tuple[Any, ...]], want: list[tuple[Any, ...]]) -> str:
    """Where two tables first differ, short enough to read."""
    if len(got) != len(want):
        return f"{table}: {len(got)} rows, uninterrupted {len(want)}"
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        for j, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return f"{table} row {i} column {j}: {str(x)[:300]!r} != {str(y)[:300]!r}"
    return table


def dump(pb: ProcessBot) -> dict[str, Any]:
    """Every row that play writes, without ids and wall-clock times."""
    queries = {
        "battle": "SELECT name, ruleset_id, status, seed, state, initial_state, stage, "
        "stage_started_at, deadline_at, paused_left_s, result, finished_at FROM battle ORDER BY id",
        "stage_log": "SELECT number, turn, step, title, start_state, started_at, orders, events, "
        "resolved_at, trigger, missing, announced_at IS NOT NULL FROM stage_log "
        "ORDER BY battle_id, number",
        "record": "SELECT seq, entry FROM record_entry ORDER BY battle_id, seq",
        # Not seq: an order repeated after a lost answer replaces the first, numbered after it.
        "orders": "SELECT stage, side_id, user_id, actor, kind, params, summary, "
        "submitted_at FROM battle_order ORDER BY battle_id, stage, actor, seq",
        "readiness": "SELECT stage, side_id, user_id, confirmed_at FROM readiness "
        "ORDER BY battle_id, stage, side_id",
        "deadlines": "SELECT stage, kind, due_at, status, fired_at, note FROM deadline "
        "ORDER BY battle_id, stage, kind, due_at",
        "armies": "SELECT name, owner_id, roster FROM army ORDER BY name",
        "members": "SELECT user_id, role FROM membership ORDER BY user_id",
    }
    return {name: pb.read(sql) for name, sql in queries.items()}


async def play(
    tmp: Path, world: World, crash_span: int = 0, expected: Run | None = None
) -> tuple[Run, ProcessBot]:
    """Play the script; with crash_span, every bot process is killed at a drawn event.

    With ``expected`` (the uninterrupted run), a step whose effect is already there (its
    answer was lost to a kill) is not repeated, and play must stand where it stood then."""
    tmp.mkdir()
    pb = ProcessBot(tmp, world, SEED)
    schedule = random.Random(20)
    before: list[tuple[Any, ...]] = []
    after: list[tuple[Any, ...]] = []
    kept: list[tuple[int, str, str]] = []
    answers: list[str] = []
    interrupted: Counter[str] = Counter()
    await pb.open()
    try:

        async def running(soon: bool = False) -> None:
            while not pb.running:
                kills = pb.exits.count(-9)
                at: int | str = 0
                if crash_span and kills < ENOUGH_KILLS:
                    at = schedule.randint(1, 2 if soon else crash_span)
                    if pb.starts % 6 == 5 and not soon:  # now and then at start-up
                        at = f"start:{schedule.randint(1, 12)}"
                if not await pb.start(at):
                    interrupted["a restart (catching up)"] += 1

        for i, step in enumerate(SCRIPT):
            outcome: Outcome | None = None
            if crash_span and step.moment not in interrupted:
                # Every kind of moment is interrupted at least once: the bot is restarted
                # (gracefully) to be killed within the step's first events.
                await pb.stop()
                await running(soon=True)
            while True:
                await running()
                where = pb.where()
                if expected is not None:
                    was, then = expected.before[i], expected.after[i]
                    if where == then != was:
                        break  # it took effect before the kill: nobody asks again
                    assert where == was, f"before {step.label}: {where}, uninterrupted {was}"
                try:
                    outcome = await step.do(pb, world)
                except BotDied:
                    interrupted[step.moment] += 1
                    continue
                if not pb.running:
                    interrupted[step.moment] += 1
                if outcome is not None and not outcome.acknowledged:
                    assert not pb.running, f"{step.label}: the bot answered nothing"
                    continue  # no answer: the user tries again
                break
            before.append(where)
            answers.append(outcome.text if outcome is not None else "")
            if step.order and outcome is not None and outcome.text.startswith("✅"):
                kept.append((pb.where()[-2], step.order[1], outcome.text))
            after.append(pb.where())
            if expected is not None:
                assert after[-1] == expected.after[i], (
                    f"after {step.label}: {after[-1]}, uninterrupted {expected.after[i]}; "
                    f"answered {answers[-1]!r}, uninterrupted {expected.answers[i]!r}"
                )
        # A last restart: anything left unposted goes out, nothing is posted again.
        await running()
        events = pb.status().get("events", 0)
        await pb.stop()
        while not pb.running:
            await pb.start(0)
        await pb.settle()
        await pb.stop()
        channel = world.channel(CHANNEL)
        posts = [m for m in pb.posts(channel) if not m.content.startswith("⏰")]
        reminders = [m.content for m in pb.posts(channel) if m.content.startswith("⏰")]
        shown_posts = [shown(m) for m in posts]
        run = Run(
            before, after, shown_posts, reminders, dump(pb), events, kept, answers, interrupted
        )
        return run, pb
    finally:
        await pb.close()


def test_script_is_a_battle_with_every_kind_of_moment() -> None:
    """The script covers orders, confirmations, deadlines, questions, a ruling and the end."""
    labels = " ".join(s.label for s in SCRIPT)
    for moment in ("/order done", "hours pass", "clicks", "/gm ruling", "/battle end", "/order"):
        assert moment in labels


async def test_killed_anywhere_the_battle_ends_as_if_never_killed(tmp_path: Path) -> None:
    world = World()
    reference, _ = await play(tmp_path / "uninterrupted", world)
    assert reference.database["battle"][-1][2] == "finished"
    span = max(2, 2 * reference.events // TARGET_KILLS)
    print(f"\n{reference.events} events in the uninterrupted run; kill points drawn from 1-{span}")

    crashed, pb = await play(tmp_path / "crashed", world, span, reference)
    kills = [json.loads(line) for line in pb.crash_log.read_text().splitlines()]
    where = Counter(k["where"].split(" /")[0] for k in kills)
    contexts = Counter(c for k in kills for c in k["context"])
    print(f"\nkill points survived: {len(kills)} in {pb.starts} bot processes")
    for place, count in sorted(where.items()):
        print(f"  {count:3d} {place}")
    for place, count in sorted(contexts.items()):
        print(f"  {count:3d} {place}")
    for moment, count in sorted(crashed.interrupted.items()):
        print(f"  {count:3d} during {moment}")
    assert len(kills) >= MIN_KILLS
    assert set(crashed.interrupted) >= {s.moment for s in SCRIPT}, crashed.interrupted
    assert pb.exits.count(-9) == len(kills)
    # Every other process was stopped with SIGTERM (as `docker stop` does) and closed cleanly.
    assert set(pb.exits) == {-9, 0} and pb.exits.count(0) >= 2

    # Every acknowledged order is stored for the step it was given in.
    orders = crashed.database["orders"]
    for stage, kind, reply in crashed.kept:
        assert any(o[0] == stage and o[4] == kind and o[6] in reply for o in orders), reply
    # Steps numbered without gap or repeat, each resolved once, every one announced.
    numbers = [row[0] for row in crashed.database["stage_log"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(row[-1] for row in crashed.database["stage_log"])
    # The channel: every result and question once, as without the kills; no reminder twice.
    assert [headline(p) for p in crashed.posts] == [headline(p) for p in reference.posts]
    assert crashed.posts == reference.posts
    assert Counter(crashed.reminders) <= Counter(reference.reminders)
    # And the database: the same battle, record, orders, deadlines and armies.
    for table, rows in reference.database.items():
        assert crashed.database[table] == rows, first_difference(
            table, crashed.database[table], rows
        )
