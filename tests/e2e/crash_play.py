"""The crash-anywhere machinery: a script of things people do, played against the real bot in
its own process (tests/e2e/process_harness.py), once uninterrupted and once with the bot killed
with SIGKILL at drawn events of each process it runs, then the two runs compared.

A script is a list of steps; a ``Phase`` in it is expanded into steps when play reaches it,
from the battle as it stands then (the stored state), so a ruleset's script can follow its own
procedure (give the open step's orders, answer the question asked) without writing every
stage by hand. Both runs expand it alike: play stands where it stood, which is checked.

A player whose command got no answer tries it again, as a person would, unless the battle
shows it took effect. Reminders are the one loss allowed by design: marked sent before they
are posted, a kill in between loses one rather than pinging twice (none is posted twice).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from rules_core.state import BattleState
from tests.e2e.fake_clock import DEFAULT_START
from tests.e2e.process_harness import BotDied, Outcome, ProcessBot
from tools.fake_discord import BotMessage, World

SEED = bytes(range(32))  # the e2e tests' fixed seed: their scripted battles play the same
CHANNEL = "hundred-years"
START_UP_EVERY = 6  # every 6th process is killed during its start-up catch-up instead


@dataclass
class Step:
    """One thing a person does: its label and how to do it."""

    label: str
    do: Callable[[ProcessBot, World], Awaitable[Outcome | None]]
    order: tuple[str, str] | None = None  # (user, kind) for an order that must be kept
    moment: str = "set-up"  # what kind of moment a kill during it interrupts
    answered: bool = True  # the uninterrupted run must find it something to do and answer


Phase = Callable[[ProcessBot, World], Awaitable[list["Step | Phase"]]]
Script = list["Step | Phase"]


@dataclass(frozen=True)
class Kills:
    """How often a run is killed: kill points drawn from 1 to 2 x events / ``target`` (the
    uninterrupted run's events), at least ``least`` kills, no drawn one past ``most`` (a bound
    on the run's time: past it the bot runs unkilled). Besides, the first step of each kind of
    moment in ``every`` (all the script's when None) that no kill has interrupted yet gets a
    bot killed within its first events."""

    target: int
    least: int
    most: int
    every: frozenset[str] | None = None

    def must_interrupt(self, moment: str) -> bool:
        """Whether a kill must land in this kind of moment."""
        return self.every is None or moment in self.every


def slash(who: str, command: str, *, moment: str = "", **options: Any) -> Step:
    """A slash command by gm, alice or bob, in the battle's channel."""

    async def do(pb: ProcessBot, world: World) -> Outcome:
        return await pb.slash(getattr(world, who), command, world.channel(CHANNEL), **options)

    kind = str(options.get("kind", "")) if command == "order give" else ""
    kind = kind or command.removeprefix("order ")
    is_order = command.startswith("order ") and kind != "done"
    if not moment:
        moment = {
            "order done": "a confirmation (and the resolution it starts)",
            "gm ruling": "a GM ruling a question",
            "battle start": "the battle's start",
        }.get(command, "an order" if is_order else "set-up")
    return Step(f"{who}: /{command} {options}", do, (who, kind) if is_order else None, moment)


def upload(who: str, command: str, filename: str, data: Any) -> Step:
    """A slash command with a file attached (``data`` as JSON, or the file's bytes)."""
    text = data.decode() if isinstance(data, bytes) else json.dumps(data)

    async def do(pb: ProcessBot, world: World) -> Outcome:
        file = pb.upload(filename, text)
        return await pb.slash(getattr(world, who), command, world.channel(CHANNEL), file=file)

    return Step(f"{who}: /{command} {filename}", do)


def showing(
    pb: ProcessBot, world: World, label: str, where: str = CHANNEL, text: str = ""
) -> list[BotMessage]:
    """The posts of the channel (or of a user's direct messages: ``where`` "dm:alice") that
    show a button ``label`` (and ``text``), oldest first."""
    if where.startswith("dm:"):
        posted = pb.dms(getattr(world, where.removeprefix("dm:")))
    else:
        posted = pb.posts(world.channel(where))
    return [
        m
        for m in posted
        if text in m.content and any(c.get("label") == label for c in m.interactive)
    ]


def click(
    who: str, label: str, moment: str = "a question answered", where: str = CHANNEL, text: str = ""
) -> Step:
    """Click a button of the latest post showing it (and ``text``) in the channel, or in
    ``who``'s direct messages (``where`` "dm:who")."""

    async def do(pb: ProcessBot, world: World) -> Outcome | None:
        found = showing(pb, world, label, where, text)
        if not found:
            return None
        return await pb.click(getattr(world, who), found[-1], label)

    return Step(f"{who}: clicks {label!r}", do, moment=moment)


class Timeline:
    """A script's time: each wait sets the clock to the script's start plus the hours waited
    so far, so a step repeated after a kill does not let the time pass twice."""

    def __init__(self) -> None:
        self.elapsed = 0.0

    def wait(self, hours: float) -> Step:
        """Time passes; the deadlines due fire."""
        self.elapsed += hours
        target = DEFAULT_START + timedelta(hours=self.elapsed)

        async def do(pb: ProcessBot, world: World) -> None:
            await pb.advance_to(target)

        return Step(f"{hours} hours pass", do, None, "a deadline or reminder firing", False)


def end_battle(winner: str | None = None) -> Step:
    """The GM ends the battle (a draw without ``winner``) and confirms."""
    chosen = {"winner": winner} if winner else {}

    async def do(pb: ProcessBot, world: World) -> Outcome | None:
        where = world.channel(CHANNEL)
        asked = await pb.slash(world.gm, "battle end", where, reason="dusk", **chosen)
        if not asked.messages or not asked.messages[0].interactive:
            return asked
        return await pb.click(world.gm, asked.messages[0], "Confirm")

    return Step("gm: /battle end + Confirm", do, moment="a GM ending the battle")


def battle_state(pb: ProcessBot) -> BattleState:
    """The last battle's stored state (as the bot last committed it)."""
    (data,) = pb.read("SELECT state FROM battle ORDER BY id DESC LIMIT 1")[0]
    return BattleState.from_dict(json.loads(data) if isinstance(data, str) else data)


STAGE = 4  # where the battle's stage is in a position


def position(pb: ProcessBot) -> tuple[Any, ...]:
    """Where play stands (``ProcessBot.where``: campaigns, members, armies, battles, the last
    battle's stage and status) and how many orders are stored: an order whose answer was
    lost shows it took effect (a ruleset may take two for a unit: sent again, it would be a
    third). Not confirmations: one stored before a kill that stopped the resolution it
    started is given again, as the skirmish's script has always done."""
    return (*pb.where(), len(pb.read("SELECT id FROM battle_order")))


@dataclass
class Run:
    """What a run of a script left behind."""

    labels: list[str] = field(default_factory=list)  # the steps played, in order
    moments: list[str] = field(default_factory=list)  # each step's kind of moment
    before: list[tuple[Any, ...]] = field(default_factory=list)  # where play stood before each
    after: list[tuple[Any, ...]] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)
    dms: list[dict[str, Any]] = field(default_factory=list)
    reminders: list[str] = field(default_factory=list)
    database: dict[str, Any] = field(default_factory=dict)
    events: int = 0
    kept: list[tuple[int, str, str]] = field(default_factory=list)  # (stage, kind, reply)
    answers: list[str] = field(default_factory=list)  # what each step was answered
    interrupted: Counter[str] = field(default_factory=Counter)  # kills by moment of play


class Player:
    """Plays a script on one database: uninterrupted (``span`` 0), or with every bot process
    killed at an event drawn from 1 to ``span`` (and every kind of moment interrupted at
    least once), checking against ``expected`` (the uninterrupted run) as it goes."""

    def __init__(self, pb: ProcessBot, kills: Kills, span: int, expected: Run | None) -> None:
        self.pb, self.kills, self.span, self.expected = pb, kills, span, expected
        self.schedule = random.Random(20)
        self.run = Run()

    async def running(self, soon: bool = False) -> None:
        """Start bot processes until one is up (each killed at a drawn event, while kills
        are left; ``soon``: within its first two, to land in the next step)."""
        pb = self.pb
        while not pb.running:
            at: int | str = 0
            if self.span and (soon or pb.exits.count(-9) < self.kills.most):
                at = self.schedule.randint(1, 2 if soon else self.span)
                if pb.starts % START_UP_EVERY == START_UP_EVERY - 1 and not soon:
                    at = f"start:{self.schedule.randint(1, 12)}"
            if not await pb.start(at):
                self.run.interrupted["a restart (catching up)"] += 1

    async def expand(self, phase: Phase, world: World) -> list[Step | Phase]:
        """The steps a phase stands for now (read with a bot up: it has caught up)."""
        await self.running()
        return await phase(self.pb, world)

    async def step(self, step: Step, world: World) -> None:
        """Do a step until it is answered (or shows it took effect), as a person would."""
        pb, run, i = self.pb, self.run, len(self.run.labels)
        if self.expected is not None:
            assert step.label == self.expected.labels[i], (step.label, self.expected.labels[i])
        outcome: Outcome | None = None
        if (
            self.span
            and self.kills.must_interrupt(step.moment)
            and step.moment not in run.interrupted
        ):
            await pb.stop()  # restarted (gracefully) to be killed within the step's first events
            await self.running(soon=True)
        while True:
            await self.running()
            where = position(pb)
            if self.expected is not None:
                was, then = self.expected.before[i], self.expected.after[i]
                if where == then != was:
                    break  # it took effect before the kill: nobody asks again
                assert where == was, f"before {step.label}: {where}, uninterrupted {was}"
            try:
                outcome = await step.do(pb, world)
            except BotDied:
                run.interrupted[step.moment] += 1
                continue
            if not pb.running:
                run.interrupted[step.moment] += 1
            if outcome is not None and not outcome.acknowledged:
                assert not pb.running, f"{step.label}: the bot answered nothing"
                continue  # no answer: the user tries again
            break
        self.record(step, where, outcome)

    def record(self, step: Step, where: tuple[Any, ...], outcome: Outcome | None) -> None:
        """Note where the step left play (checked against the uninterrupted run)."""
        run, now = self.run, position(self.pb)
        run.labels.append(step.label)
        run.moments.append(step.moment)
        run.before.append(where)
        run.answers.append(outcome.text if outcome is not None else "")
        if step.order and outcome is not None and outcome.text.startswith(("✅", "🗓️")):
            run.kept.append((now[STAGE], step.order[1], outcome.text))
        run.after.append(now)
        if self.expected is None:
            assert outcome is not None or not step.answered, f"{step.label}: nothing to do"
        else:
            i = len(run.after) - 1
            assert now == self.expected.after[i], (
                f"after {step.label}: {now}, uninterrupted {self.expected.after[i]}; "
                f"answered {run.answers[-1]!r}, uninterrupted {self.expected.answers[i]!r}"
            )

    async def finish(self, world: World) -> Run:
        """A last restart (anything left unposted goes out, nothing is posted again); what
        the run left behind."""
        pb, run = self.pb, self.run
        await self.running()
        run.events = pb.status().get("events", 0)
        await pb.stop()
        while not pb.running:
            await pb.start(0)
        await pb.settle()
        await pb.stop()
        channel = world.channel(CHANNEL)
        run.posts = [shown(m) for m in pb.posts(channel) if not m.content.startswith("⏰")]
        run.reminders = [m.content for m in pb.posts(channel) if m.content.startswith("⏰")]
        people = (world.alice, world.bob)
        run.dms = [shown(m) for u in people for m in pb.dms(u)]
        run.database = dump(pb)
        return run


async def play(
    script: Script, tmp: Path, world: World, kills: Kills, span: int = 0,
    expected: Run | None = None,
) -> tuple[Run, ProcessBot]:  # fmt: skip
    """Play the script; with ``span``, every bot process is killed at a drawn event.

    With ``expected`` (the uninterrupted run), a step whose effect is already there (its
    answer was lost to a kill) is not repeated, and play must stand where it stood then."""
    tmp.mkdir()
    pb = ProcessBot(tmp, world, SEED)
    player = Player(pb, kills, span, expected)
    await pb.open()
    try:
        todo: list[Step | Phase] = list(script)
        while todo:
            item = todo.pop(0)
            if isinstance(item, Step):
                await player.step(item, world)
            else:
                todo[:0] = await player.expand(item, world)
        return await player.finish(world), pb
    finally:
        await pb.close()


def shown(message: BotMessage) -> dict[str, Any]:
    """A post as people see it now (after its edits).

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


def first_different_post(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    """Where the first post that differs from the uninterrupted run's differs, as shown."""
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            x, y = json.dumps(a, ensure_ascii=False), json.dumps(b, ensure_ascii=False)
            pairs = enumerate(zip(x, y, strict=False))
            at = next((j for j, (p, q) in pairs if p != q), min(len(x), len(y)))
            return f"post {i}: …{x[at - 200 : at + 200]}\nuninterrupted: …{y[at - 200 : at + 200]}"
    return f"{len(got)} posts, uninterrupted {len(want)}"


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


async def killed_anywhere(script: Script, tmp: Path, kills: Kills) -> tuple[Run, Run]:
    """Play the script uninterrupted, then with kills; check the killed run ends where the
    uninterrupted one does (orders kept, steps resolved once, the same posts and database)
    and that every kind of moment of the script was interrupted. Both runs."""
    world = World()
    reference, _ = await play(script, tmp / "uninterrupted", world, kills)
    span = max(2, 2 * reference.events // kills.target)
    print(f"\n{reference.events} events in the uninterrupted run; kill points drawn from 1-{span}")
    crashed, pb = await play(script, tmp / "crashed", world, kills, span, reference)
    log = [json.loads(line) for line in pb.crash_log.read_text().splitlines()]
    report(log, pb, crashed)
    assert len(log) >= kills.least
    forced = {m for m in reference.moments if kills.must_interrupt(m)}
    assert pb.exits.count(-9) == len(log) <= kills.most + len(forced)
    # Every other process was stopped with SIGTERM (as `docker stop` does) and closed cleanly.
    assert set(pb.exits) == {-9, 0} and pb.exits.count(0) >= 2
    assert crashed.labels == reference.labels
    # Every kind of moment asked for was interrupted at least once.
    assert set(crashed.interrupted) >= forced, crashed.interrupted
    check_same_end(reference, crashed)
    return reference, crashed


def report(log: list[dict[str, Any]], pb: ProcessBot, crashed: Run) -> None:
    """Print where the kills landed: the event, its context, the moment of play."""
    where = Counter(k["where"].split(" /")[0] for k in log)
    contexts = Counter(c for k in log for c in k["context"])
    print(f"\nkill points survived: {len(log)} in {pb.starts} bot processes")
    for place, count in sorted((where + contexts).items()):
        print(f"  {count:3d} {place}")
    for moment, count in sorted(crashed.interrupted.items()):
        print(f"  {count:3d} during {moment}")


def check_same_end(reference: Run, crashed: Run) -> None:
    """The killed run kept every acknowledged order, resolved every step once, and left the
    channel, the direct messages and the database as the uninterrupted run did."""
    orders = crashed.database["orders"]
    for stage, kind, reply in crashed.kept:
        assert any(o[0] == stage and o[4] == kind and o[6] in reply for o in orders), reply
    # Steps numbered without gap or repeat, each resolved once, every one announced.
    numbers = [row[0] for row in crashed.database["stage_log"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(row[-1] for row in crashed.database["stage_log"])
    # The channel: every result and question once, as without the kills; no reminder twice.
    got, want = [headline(p) for p in crashed.posts], [headline(p) for p in reference.posts]
    side_by_side = itertools.zip_longest(got, want, fillvalue="")
    assert got == want, "\n".join(f"{a!r:60} {b!r}" for a, b in side_by_side)
    assert crashed.posts == reference.posts, first_different_post(crashed.posts, reference.posts)
    assert crashed.dms == reference.dms, first_different_post(crashed.dms, reference.dms)
    assert Counter(crashed.reminders) <= Counter(reference.reminders)
    for table, rows in reference.database.items():
        assert crashed.database[table] == rows, first_difference(
            table, crashed.database[table], rows
        )
