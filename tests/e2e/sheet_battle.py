"""Helpers for one turn of a sheet ruleset (Tree of Battles, Hail Caesar) played through Discord.

A sheet battle is set up from the ruleset's own sample army files (uploaded as `/army
import` attachments), deployed with `/battle deploy-file`, and played with `/order give`,
whose ``kind`` autocomplete offers the current step's order kinds.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from importlib.abc import Traversable

from bot.demo import order_input
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState
from rules_core.verify import verify
from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import field, lines

# A roll line: "Control test: Brigands (out of command): D6 (5) -1 D grade = 4".
ROLL = re.compile(
    r"^(?P<label>.+): (?P<expression>\S+) \((?P<dice>[0-9, ~*→]+)\)"
    r"(?P<modifiers>(?: [+-]\d+(?: [^=+-][^=]*?)?)*) = (?P<total>-?\d+)(?P<pool> success(?:es)?)?$"
)
MODIFIER = re.compile(r"(?:^| )([+-]\d+)(?= |$)")


@dataclass(frozen=True)
class Rolled:
    """One roll line of a step result, taken apart."""

    label: str
    expression: str
    dice: tuple[int, ...]  # the faces that count
    modifiers: tuple[int, ...]
    words: str  # the modifiers as written: "-1 new target -1 beyond effective range"
    total: int


def roll_of(line: str) -> Rolled | None:
    """The roll a summary line shows, or None; a sum's total must add up."""
    found = ROLL.match(line)
    if found is None:
        return None
    kept = [d.strip() for d in found["dice"].split(",") if not d.strip().endswith("~~")]
    dice = tuple(int(d.split("→")[-1].strip("*~")) for d in kept)
    words = found["modifiers"].strip()
    modifiers = tuple(int(m) for m in MODIFIER.findall(found["modifiers"]))
    rolled = Rolled(
        found["label"], found["expression"], dice, modifiers, words, int(found["total"])
    )
    if not found["pool"]:
        assert sum(dice) + sum(modifiers) == rolled.total, f"does not add up: {line}"
    return rolled


def rolls(message: BotMessage) -> list[Rolled]:
    """Every roll a step result shows in its summary."""
    return [r for r in map(roll_of, lines(message)) if r is not None]


def posts(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """What the bot posted to the channel on its own (not as an interaction reply)."""
    return [m for m in h.messages(where) if m.kind == "channel"]


def reports(h: Harness, where: FakeChannel, battle: str) -> list[BotMessage]:
    """The step results posted to the channel, oldest first."""
    prefix = f"{battle} — "
    return [m for m in posts(h, where) if m.embeds and m.embeds[0]["title"].startswith(prefix)]


def full_log(message: BotMessage) -> list[str]:
    """Every line of a step result: the summary, or the attached log when it is cut short."""
    logs = [f for f in message.files if f.filename == "log.txt"]
    return logs[0].text.splitlines() if logs else lines(message)


def waiting_for(h: Harness, message: BotMessage) -> list[FakeUser]:
    """Who a post says the battle waits for."""
    value = field(message, "Waiting for")
    return [u for u in (h.alice, h.bob, h.gm) if u.mention in value]


def check_post(h: Harness, post: BotMessage, title: str, now: str, who: list[FakeUser]) -> None:
    """A channel post about the battle: its title, the step now open, who must act, the map."""
    assert post.embeds[0]["title"] == title, post.text
    assert post.kind == "channel" and not post.ephemeral and post.interaction_id is None
    assert field(post, "Now") == now, post.text
    assert waiting_for(h, post) == who, post.text
    assert [f.filename for f in post.files][:1] == ["map.png"], post.files
    assert post.files[0].data.startswith(b"\x89PNG\r\n\x1a\n")
    if lines(post) and lines(post)[-1].endswith("more lines in the attached log"):
        assert [f.filename for f in post.files] == ["map.png", "log.txt"]


async def start(h: Harness, where: FakeChannel, battle: str, seed: bytes) -> tuple[str, BotMessage]:
    """The GM starts the battle: the seed's hash, published; the opening post."""
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral
    published = re.search(r"dice seed's SHA-256 is `([0-9a-f]{64})`", started.text)
    assert published, started.text
    assert published[1] == hashlib.sha256(seed).hexdigest()
    assert seed.hex() not in started.text
    (opened,) = [p for p in posts(h, where) if p.embeds[0]["title"] == f"⚔️ {battle} begins"]
    return published[1], opened


@dataclass(frozen=True)
class Army:
    """A player's side in a sheet battle set up from a sample army file: who, the side they
    join, the army file and the army's name, and where its units deploy."""

    user: FakeUser
    side: str
    file: Traversable
    name: str
    deployment: list[dict]


async def set_up_battle(
    h: Harness, where: FakeChannel, campaign: str, ruleset: str, battle: str,
    armies: tuple[Army, Army],
) -> None:  # fmt: skip
    """A campaign of the ruleset, each player joined and their sample army imported, the
    battle created with both armies and each deployed from its file."""
    created = await h.slash(h.gm, "campaign create", channel=where, name=campaign,
                            ruleset=ruleset)  # fmt: skip
    assert f"(`{ruleset}`)" in created.text
    for army in armies:
        await h.slash(army.user, "campaign join", channel=where, side=army.side)
    for army in armies:
        upload = h.upload(army.file.name, army.file.read_bytes())
        imported = await h.slash(army.user, "army import", channel=where, file=upload)
        count = len(army.deployment)
        assert imported.content == (
            f"{army.user.mention} imported **{army.name}** ({count} units)."
        ), imported
    created = await h.slash(h.gm, "battle create", channel=where, name=battle,
                            army_a=armies[0].name, army_b=armies[1].name)  # fmt: skip
    assert created.embeds[0]["title"] == f"{battle} (setup)", created.text
    for army in armies:
        upload = h.upload("deployment.json", json.dumps(army.deployment))
        deployed = await h.slash(army.user, "battle deploy-file", channel=where, file=upload)
        assert deployed.content == f"Deployed {len(army.deployment)} units.", deployed


async def kinds(h: Harness, user: FakeUser, where: FakeChannel) -> dict[str, str]:
    """The order kinds ``/order give`` offers now: {kind: title}."""
    offered = await h.autocomplete(user, "order give", "kind", channel=where, kind="")
    return {c["value"]: c["name"] for c in offered}


async def give(
    h: Harness, user: FakeUser, where: FakeChannel, kind: str, unit: str, **options: object
) -> str:
    """``/order give`` of a kind the autocomplete offers now; the private preview, checked."""
    offered = await kinds(h, user, where)
    assert kind in offered, (kind, offered)
    given = await h.slash(user, "order give", channel=where, kind=kind, unit=unit, **options)
    assert given.ephemeral, given
    assert given.message is not None and not given.message.interactive, given
    prefix, secret = f"✅ **{unit}**: ", "\n(secret until the step resolves)"
    assert given.content.startswith(prefix) and given.content.endswith(secret), given
    return given.content.removeprefix(prefix).removesuffix(secret)


async def refused_order(
    h: Harness, user: FakeUser, where: FakeChannel, kind: str, unit: str, **options: object
) -> str:
    """``/order give`` that must be refused privately, with no buttons; the reason."""
    answer = await h.slash(user, "order give", channel=where, kind=kind, unit=unit, **options)
    assert answer.ephemeral, answer
    assert answer.message is not None and not answer.message.interactive, answer
    assert not answer.content.startswith(("✅", "Something went wrong")), answer
    return answer.content


async def confirm(h: Harness, where: FakeChannel, battle: str, *users: FakeUser) -> BotMessage:
    """``/order done`` by each user in turn; the last resolves the step; its result."""
    before = len(reports(h, where, battle))
    for user in users[:-1]:
        waiting = await h.slash(user, "order done", channel=where)
        assert waiting.ephemeral and waiting.content.startswith("Confirmed. Still waiting for ")
        assert len(reports(h, where, battle)) == before, "nothing resolves before everyone"
    confirmed = await h.slash(users[-1], "order done", channel=where)
    assert confirmed.ephemeral
    assert confirmed.content == "Confirmed: every order is in, resolving.", confirmed
    posted = reports(h, where, battle)
    assert len(posted) == before + 1, "one step result per resolution"
    return posted[-1]


def question(h: Harness, where: FakeChannel) -> BotMessage:
    """The one question still showing its buttons."""
    (asked,) = [
        m
        for m in posts(h, where)
        if any(c.get("custom_id", "").startswith("decide:") for c in m.interactive)
    ]
    return asked


async def answer(
    h: Harness, where: FakeChannel, battle: str, user: FakeUser, asked: BotMessage, label: str
) -> BotMessage:
    """Click an answer: the question shows who answered; the step result that follows."""
    before = len(reports(h, where, battle))
    clicked = await h.click(user, asked, label=label)
    assert clicked.type == 7  # the question message itself is updated
    assert asked.content == f"Answered by {user.mention}: **{label}**"
    assert asked.interactive == []
    posted = reports(h, where, battle)
    assert len(posted) == before + 1
    assert "Resolved: answered" in posted[-1].text
    return posted[-1]


async def end_and_verify(
    h: Harness, where: FakeChannel, battle: str, seed: bytes, published: str, ruleset: str
) -> tuple[BotMessage, dict]:
    """The GM ends the battle as a draw: the seed revealed, a record that verifies."""
    asked = await h.slash(h.gm, "battle end", channel=where, reason="one turn played")
    assert asked.ephemeral and asked.content.startswith(f"End **{battle}** now (a draw)?")
    await h.click(h.gm, asked, label="Confirm")
    assert asked.message is not None and asked.message.content == f"Ended **{battle}**."
    ending = posts(h, where)[-1]
    assert not ending.ephemeral
    assert ending.embeds[0]["title"] == f"🏁 {battle}: A draw: one turn played"
    assert field(ending, "Seed (revealed)") == f"`{seed.hex()}`"
    (record_file,) = ending.files
    assert record_file.filename == "record.json"
    record = json.loads(record_file.data)
    assert record["ruleset"] == ruleset
    assert record["seed"] == seed.hex() and record["seed_sha256"] == published
    checked = verify(record)
    assert checked.ok, checked.problem
    assert checked.entries == len(record["entries"]) and checked.rolls > 0
    return ending, record


def typed_options(rules: Rules, state: BattleState, order: Order) -> tuple[str, dict[str, object]]:
    """A scripted order as a player types it: the actor's name and the ``/order give``
    options (a target by its name)."""
    actors = (*state.units, *state.leaders, *state.groups, *state.sides)
    name = next(a.name for a in actors if a.id == order.actor)
    given = {k: v for k, v in asdict(order_input(rules, order)).items() if v not in (None, {})}
    if "target" in given:
        given["target"] = next(u.name for u in state.units if u.id == given["target"])
    return name, given
