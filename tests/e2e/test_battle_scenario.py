"""A whole skirmish battle through Discord: a GM, two players, orders, questions, deadlines.

The battle's seed is fixed (``fixed_seed``), so the dice, and so the story below, are the
same on every run: Blue wins the first initiative, Red's horse charges Blue's riders in
turn 2 and is destroyed, and the GM ends the battle in turn 3.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

import pytest

from rules_core.verify import verify
from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import (
    BATTLE,
    field,
    lines,
    open_questions,
    order,
    posts,
    refused,
    reminders,
    reports,
    set_up_battle,
    start_post,
    waiting_for,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")
STEP = timedelta(hours=48)


def stamp(h: Harness, after: timedelta) -> str:
    """The Discord timestamp of a moment ``after`` from now on the fake clock."""
    return f"<t:{int((h.clock.now() + after).timestamp())}:R>"


async def done(h: Harness, user: FakeUser, where: FakeChannel) -> BotMessage:
    """``/order done`` that resolves the step; the step result it posted."""
    before = len(reports(h, where))
    confirmed = await h.slash(user, "order done", channel=where)
    assert confirmed.ephemeral
    assert confirmed.content == "Confirmed: every order is in, resolving.", confirmed
    posted = reports(h, where)
    assert len(posted) == before + 1, "one step result per resolution"
    return posted[-1]


def check_post(h: Harness, report: BotMessage, title: str, now: str, who: list[FakeUser]) -> None:
    """A post about the battle: its exact title, what comes next, who must act, and the map."""
    assert report.embeds[0]["title"] == title, report.text
    assert not report.ephemeral and report.interaction_id is None  # a channel post
    assert field(report, "Now") == now
    assert waiting_for(report, h) == who
    assert [f.filename for f in report.files][:1] == ["map.png"]
    assert report.files[0].data.startswith(b"\x89PNG\r\n\x1a\n")


def check_report(h: Harness, report: BotMessage, title: str, now: str, who: list[FakeUser]) -> None:
    """A step result, titled after the step it resolved (and the side whose turn it was)."""
    check_post(h, report, f"{BATTLE} — {title}", now, who)


async def start(h: Harness, where: FakeChannel, seed: bytes) -> str:
    """The GM starts the battle: the seed's hash is published, deployment is open for 48 h."""
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral
    published = re.search(r"dice seed's SHA-256 is `([0-9a-f]{64})`", started.text)
    assert published, started.text
    assert published[1] == hashlib.sha256(seed).hexdigest()
    assert seed.hex() not in started.text

    opened = start_post(h, where)
    check_post(h, opened, f"⚔️ {BATTLE} begins", "Deployment", [h.alice, h.bob])
    assert lines(opened) == ["The armies stand ready."]
    assert reports(h, where) == []  # no step has been resolved yet
    assert field(opened, "Deadline") == stamp(h, STEP)
    status = await h.slash(h.bob, "battle status", channel=where)
    assert status.embeds[0]["title"] == f"{BATTLE} (running)"
    assert f"dice seed SHA-256 {published[1][:16]}" in status.text
    return published[1]


async def deployment(h: Harness, where: FakeChannel) -> BotMessage:
    """Alice re-places her archers; a reminder pings only Bob; Bob confirms; a question."""
    previewed = await order(h, h.alice, where, "place", unit="Red Archers", x=26, y=11)
    assert previewed.content.startswith("✅ **Red Archers**: deploys at (26, 11) facing 0°")
    outside = await refused(h, h.alice, where, "order place", unit="Red Horse", x=26, y=30)
    assert outside == (
        "**Red Horse** cannot place: (26, 30) is outside Red's deployment zone"
        " (y from 0 to 12 inch, the south edge): its whole base reaches y=31, past the zone's"
        " edge at y=12; move it 19 inch south, to (26, 11)."
    )
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert (
        mine.ephemeral and mine.content == "**Red Archers** (place): deploys at (26, 11) facing 0°"
    )
    waiting = await h.slash(h.alice, "order done", channel=where)
    assert waiting.ephemeral
    assert waiting.content == f"Confirmed. Still waiting for Blue ({h.bob.mention})."

    assert await h.advance(timedelta(hours=25)) == 1  # the 24-hours-left reminder
    (reminder,) = reminders(h, where)
    assert h.bob.mention in reminder.content and h.alice.mention not in reminder.content
    assert "**Ford** (Set-up · Deployment)" in reminder.content
    assert f"due {stamp(h, timedelta(hours=23))}" in reminder.content

    resolved = await done(h, h.bob, where)
    check_report(h, resolved, "Set-up · Deployment", "Initiative", [h.bob])
    assert 'Red Archers moves 2.2" to (26, 11) facing 0°' in lines(resolved)
    assert "Initiative: Blue: D6 (6) = 6" in lines(resolved)
    (question,) = open_questions(h, where)
    assert question.content.startswith(f"{h.bob.mention}: Blue won the initiative")
    assert h.alice.mention not in question.content
    assert [c["label"] for c in question.interactive] == ["go first", "go second"]
    return question


async def answer_initiative(h: Harness, where: FakeChannel, question: BotMessage) -> None:
    """Only Bob may answer; his click answers, removes the buttons and moves the battle on."""
    intruder = await h.click(h.alice, question, label="go second")
    assert intruder.ephemeral and intruder.content == "This question is not yours to answer."
    assert question.interactive, "a refused click leaves the question open"

    clicked = await h.click(h.bob, question, label="go first")
    assert clicked.type == 7  # the question message itself is updated
    assert question.content == f"Answered by {h.bob.mention}: **go first**"
    assert question.interactive == []
    answered = reports(h, where)[-1]
    check_report(h, answered, "Turn 1 · Initiative", "Movement", [h.bob])
    assert "Order of play: Blue, Red (Blue won the initiative and goes first)" in lines(answered)
    assert "Resolved: answered" in answered.text


async def turn_one(h: Harness, where: FakeChannel) -> None:
    """Blue moves (a mistake the GM undoes) and shoots; Red moves and shoots."""
    assert await refused(h, h.alice, where, "order move", unit="Red Horse", x=32, y=14) == (
        "It is not your turn to give orders: the Movement step waits for others."
    )
    assert await refused(
        h, h.bob, where, "order shoot", unit="Blue Slingers", target="Red Archers"
    ) == (
        "**Blue Slingers** cannot shoot: shoot orders are not given in the Movement step;"
        " it takes only move, charge or hold.\n"
        "➡️ The same order is taken later this turn: give it again with `step:Shooting`."
    )
    offered = await h.autocomplete(h.bob, "order move", "unit", channel=where, unit="")
    assert [c["value"] for c in offered] == ["Blue Warriors", "Blue Slingers", "Blue Riders"]
    too_far = await refused(h, h.bob, where, "order move", unit="Blue Warriors", x=16, y=18)
    assert too_far == (
        '**Blue Warriors** cannot move: needs 8" of movement, beyond its 6" move.\n'
        '➡️ Try a shorter move: it has at most 6" of movement; or give it again with'
        " `as_far_as_possible:true` to go as far as the rules allow."
    )

    moved = await order(h, h.bob, where, "move", unit="Blue Slingers", x=24, y=21)
    assert moved.content.startswith('✅ **Blue Slingers**: moves 5" to (24, 21)')
    resolved = await done(h, h.bob, where)
    check_report(h, resolved, "Turn 1 · Movement (Blue)", "Shooting", [h.bob])
    assert 'Blue Slingers moves 5" to (24, 21) facing 180°' in lines(resolved)

    # The GM undoes the move: back to the start of Blue's movement, the order cleared.
    posted = len(posts(h, where))
    asked = await h.slash(h.gm, "gm undo", channel=where, reason="Bob meant 24,20")
    assert asked.ephemeral
    assert [c["label"] for c in asked.message.interactive] == ["Confirm", "Cancel"]
    confirmed = await h.click(h.gm, asked, label="Confirm")
    assert confirmed.type == 7  # the private prompt itself becomes the answer
    assert asked.message.content == "Undone." and asked.message.interactive == []
    assert confirmed.followups == []  # the channel is told by a post, not by a followup
    notice, undone = posts(h, where)[posted:]  # the notice first, then the step result
    assert notice.content == (
        f"🛠️ {h.gm.mention} undid a step: Bob meant 24,20\n"
        "Before: Turn 1 · Shooting (Blue)\nAfter: Turn 1 · Movement (Blue)"
    )
    assert not notice.ephemeral and notice.embeds == []
    assert undone == reports(h, where)[-1]
    check_report(h, undone, "Turn 1 · Shooting (Blue)", "Movement", [h.bob])
    assert "Resolved: undone by a GM" in undone.text
    cleared = await h.slash(h.bob, "orders mine", channel=where)
    assert cleared.content == "You have given no orders for this step."
    # 6" from where the slingers stood before the undone move, not 1" from (24, 21).
    moved = await order(h, h.bob, where, "move", unit="Blue Slingers", x=24, y=20)
    assert moved.content.startswith('✅ **Blue Slingers**: moves 6" to (24, 20)')
    resolved = await done(h, h.bob, where)
    assert 'Blue Slingers moves 6" to (24, 20) facing 180°' in lines(resolved)

    shot = await order(h, h.bob, where, "shoot", unit="Blue Slingers", target="Red Archers")
    assert 'shoots at Red Archers, 7" away: long range, hits on 5+' in shot.content
    resolved = await done(h, h.bob, where)
    check_report(h, resolved, "Turn 1 · Shooting (Blue)", "Movement", [h.alice])
    assert any(
        line.startswith("Shooting: Blue Slingers at Red Archers") for line in lines(resolved)
    )

    await order(h, h.alice, where, "move", unit="Red Horse", x=32, y=16)
    resolved = await done(h, h.alice, where)
    check_report(h, resolved, "Turn 1 · Movement (Red)", "Shooting", [h.alice])
    await order(h, h.alice, where, "shoot", unit="Red Archers", target="Blue Slingers")
    resolved = await done(h, h.alice, where)
    check_report(h, resolved, "Turn 1 · Shooting (Red)", "Initiative", [h.alice])
    assert "— Turn 2: Initiative —" in lines(resolved)


async def turn_two(h: Harness, where: FakeChannel) -> None:
    """The initiative question times out; Red charges; Red's shooting deadline passes."""
    (question,) = open_questions(h, where)
    assert question.content.startswith(f"{h.alice.mention}: Red won the initiative")
    assert f"(default **first** {stamp(h, timedelta(hours=24))})" in question.content
    assert await h.advance(timedelta(hours=25)) == 1  # nobody answered: the default
    defaulted = reports(h, where)[-1]
    check_report(h, defaulted, "Turn 2 · Initiative", "Movement", [h.alice])
    assert "Resolved: deadline" in defaulted.text
    assert "Order of play: Red, Blue (Red won the initiative and goes first)" in lines(defaulted)
    # The question's buttons are taken off once the deadline has answered it.
    assert question.interactive == [] and question.content.endswith("(closed: deadline)")

    charge = await order(h, h.alice, where, "charge", unit="Red Horse", target="Blue Riders")
    assert charge.content.startswith('✅ **Red Horse**: charges Blue Riders, 8" away')
    await order(h, h.alice, where, "move", unit="Red Spearmen", x=16, y=16)
    resolved = await done(h, h.alice, where)
    assert "Blue must decide: Red Horse charges Blue Riders: stand or evade?" in resolved.text
    question = open_questions(h, where)[-1]
    assert question.content.startswith(f"{h.bob.mention}: Red Horse charges Blue Riders")
    assert [c["label"] for c in question.interactive] == ["stand", 'evade 3"']
    assert all(
        re.fullmatch(r"decide:\d+:\d+:(stand|evade)", c["custom_id"]) for c in question.interactive
    )
    blocked = await refused(h, h.alice, where, "order move", unit="Red Archers", x=26, y=14)
    assert blocked == "The battle waits for an answer to a question, not for orders."
    await h.click(h.bob, question, label="stand")
    charged = reports(h, where)[-1]
    # Red's movement, although it waited for Blue's answer to the charge.
    check_report(h, charged, "Turn 2 · Movement (Red)", "Shooting", [h.alice])
    assert 'Red Horse moves 8" to (32, 24) facing 0°; charges home' in lines(charged)

    # Alice gives no shooting orders: reminders 24 h and 1 h before the deadline ping only
    # her, then the deadline resolves the step with defaults and says whose orders were missing.
    shown = len(reminders(h, where))
    deadline = stamp(h, STEP)
    assert await h.advance(timedelta(hours=25)) == 1
    assert await h.advance(timedelta(hours=22, minutes=30)) == 1
    new_reminders = reminders(h, where)[shown:]
    assert len(new_reminders) == 2
    for reminder in new_reminders:
        assert h.alice.mention in reminder.content and h.bob.mention not in reminder.content
        assert f"(Turn 2 · Shooting (Red)) are due {deadline}" in reminder.content
    assert await h.advance(timedelta(hours=1)) == 1
    timed_out = reports(h, where)[-1]
    check_report(h, timed_out, "Turn 2 · Shooting (Red)", "Movement", [h.bob])
    assert lines(timed_out)[0] == "No orders from Red: defaults applied."
    assert "Resolved: deadline" in timed_out.text
    assert any(line.startswith("Melee: Red Horse against Blue Riders") for line in lines(timed_out))
    logged = await h.slash(h.alice, "battle log", channel=where, turn=2)
    assert logged.ephemeral
    assert "**Turn 2 · Shooting (Red)** (deadline)" in logged.text
    assert "No orders from Red: defaults applied." in logged.text
    assert "Red Horse is destroyed: beaten in melee by Blue Riders, 3 hits to 1" in logged.text
    targets = await h.autocomplete(h.bob, "order shoot", "target", channel=where, target="")
    assert [c["value"] for c in targets] == ["Red Spearmen", "Red Archers"]

    await order(h, h.bob, where, "move", unit="Blue Warriors", x=16, y=20)
    held = await order(h, h.bob, where, "hold", unit="Blue Riders")
    assert held.content.startswith("✅ **Blue Riders**: holds its ground")
    mine = await h.slash(h.bob, "orders mine", channel=where)
    assert mine.content.splitlines() == [
        '**Blue Warriors** (move): moves 6" to (16, 20)',
        "**Blue Riders** (hold): holds its ground",
    ]
    await done(h, h.bob, where)
    await order(h, h.bob, where, "shoot", unit="Blue Slingers", target="Red Spearmen")
    resolved = await done(h, h.bob, where)
    check_report(h, resolved, "Turn 2 · Shooting (Blue)", "Initiative", [h.bob])


async def turn_three(h: Harness, where: FakeChannel) -> None:
    """Blue wins the initiative; the GM rules that Blue goes second; Red moves first."""
    question = open_questions(h, where)[-1]
    assert question.content.startswith(f"{h.bob.mention}: Blue won the initiative")
    offered = await h.autocomplete(h.gm, "gm ruling", "choice", channel=where, choice="")
    assert offered == [
        {"name": "go first", "value": "first"},
        {"name": "go second", "value": "second"},
    ]
    ruled = await h.slash(h.gm, "gm ruling", channel=where, choice="second")
    assert not ruled.ephemeral
    assert ruled.content == f"🛠️ {h.gm.mention} ruled: **second**."
    after = reports(h, where)[-1]
    check_report(h, after, "Turn 3 · Initiative", "Movement", [h.alice])
    assert "Resolved: GM ruling" in after.text
    assert "Order of play: Red, Blue (Blue won the initiative and goes second)" in lines(after)
    # The ruling closes the question: its buttons are taken off.
    assert question.interactive == [] and question.content.endswith("(closed: GM ruling)")

    await order(h, h.alice, where, "move", unit="Red Archers", x=26, y=8)
    resolved = await done(h, h.alice, where)
    check_report(h, resolved, "Turn 3 · Movement (Red)", "Shooting", [h.alice])
    assert 'Red Archers moves 3" to (26, 8) facing 180°' in lines(resolved)


async def play_to_turn_three(h: Harness, where: FakeChannel, seed: bytes) -> str:
    """Set up, start and play the first two turns and a half; the published seed hash."""
    await set_up_battle(h, where)
    published = await start(h, where, seed)
    question = await deployment(h, where)
    await answer_initiative(h, where, question)
    await turn_one(h, where)
    await turn_two(h, where)
    await turn_three(h, where)
    return published


async def test_a_skirmish_battle_from_set_up_to_verified_record(
    aide: Harness, fixed_seed: bytes
) -> None:
    """Three turns of play, then the GM ends the battle and the record verifies."""
    h, where = aide, aide.channel("hundred-years")
    published = await play_to_turn_three(h, where, fixed_seed)

    winners = await h.autocomplete(h.gm, "battle end", "winner", channel=where, winner="bl")
    assert [c["value"] for c in winners] == ["Blue"]
    asked = await h.slash(
        h.gm, "battle end", channel=where, reason="Red withdraws at dusk", winner="Blue"
    )
    assert asked.ephemeral and asked.content.startswith("End **Ford** now (winner: Blue)?")
    await h.click(h.gm, asked, label="Confirm")
    assert asked.message.content == "Ended **Ford**."
    ending = h.messages(where)[-1]
    assert ending.kind == "channel" and not ending.ephemeral
    assert ending.embeds[0]["title"] == "🏁 Ford: Blue wins: Red withdraws at dusk"
    assert field(ending, "Losses") == "Red Host lost Red Horse.\nBlue Host lost nothing."
    assert field(ending, "Seed (revealed)") == f"`{fixed_seed.hex()}`"
    assert hashlib.sha256(fixed_seed).hexdigest() == published
    (record_file,) = ending.files
    assert record_file.filename == "record.json"

    record = json.loads(record_file.data)
    assert record["seed"] == fixed_seed.hex() and record["seed_sha256"] == published
    assert record["ruleset"] == "skirmish"
    checked = verify(record)
    assert checked.ok, checked.problem
    assert checked.rolls > 10 and checked.entries == len(record["entries"])

    fetched = await h.slash(h.alice, "battle record", channel=where)
    assert fetched.ephemeral
    assert json.loads(fetched.files[0].data) == record

    # The battle is over: orders are refused and its deadlines are gone.
    gone = await refused(h, h.bob, where, "order move", unit="Blue Riders", x=32, y=30)
    assert gone == "**Border Raids** has no battle in play. A GM starts one: `/battle create`."
    posted = len(posts(h, where))
    assert await h.advance(STEP * 3) == 0
    assert len(posts(h, where)) == posted

    # The loss was written back to Red's army: the horse is not offered for the next battle.
    await h.slash(
        h.gm, "battle create", channel=where, name="Return", army_a="Red Host", army_b="Blue Host"
    )
    offered = await h.autocomplete(h.alice, "battle deploy", "unit", channel=where, unit="")
    assert [c["value"] for c in offered] == ["Red Spearmen", "Red Archers"]
    lost = await refused(h, h.alice, where, "battle deploy", unit="Red Horse", at="32,10")
    assert lost == "No unit called **Red Horse** in this battle's armies."
    shown = await h.slash(h.bob, "army show", channel=where, name="Red Host")
    assert shown.ephemeral
    assert "3. Red Horse — type cavalry, status destroyed" in shown.text.splitlines()


async def test_the_step_result_names_a_destroyed_unit(aide: Harness, fixed_seed: bytes) -> None:
    """The posted summary of the step that destroyed Red's horse says which unit it was."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await start(h, where, fixed_seed)
    await answer_initiative(h, where, await deployment(h, where))
    await turn_one(h, where)
    await turn_two(h, where)
    melee = next(r for r in reports(h, where) if "Melee: Red Horse against" in r.text)
    assert "Red Horse is destroyed: beaten in melee by Blue Riders, 3 hits to 1" in lines(melee)


async def test_army_show_marks_a_unit_lost_in_battle(aide: Harness, fixed_seed: bytes) -> None:
    """After the battle, Red's army list says the horse was destroyed."""
    h, where = aide, aide.channel("hundred-years")
    await play_to_turn_three(h, where, fixed_seed)
    asked = await h.slash(h.gm, "battle end", channel=where, reason="dusk", winner="Blue")
    await h.click(h.gm, asked, label="Confirm")
    shown = await h.slash(h.alice, "army show", channel=where, name="Red Host")
    assert shown.text.splitlines()[1:4] == [
        "1. Red Spearmen — type infantry",
        "2. Red Archers — type archers",
        "3. Red Horse — type cavalry, status destroyed",
    ]
