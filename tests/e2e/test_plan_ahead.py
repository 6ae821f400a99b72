"""Planning ahead through Discord (issue 14): a player plans a whole Hail Caesar turn in one
visit, a planned order that has become illegal by its step falls back with a note, and a
player who asked to be consulted is asked instead.

Gergovia as in test_hail_caesar_turn (same armies, deployment and fixed seed).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.e2e.sheet_battle import check_post, confirm, posts, reports, start
from tests.e2e.test_hail_caesar_turn import BATTLE, set_up
from tests.e2e.test_outbox import failing_sends
from tools.fake_discord import BotMessage
from tools.harness import Harness
from tools.skirmish_battle import field, lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
ROMAN_STEPS = [
    "Command: General Advance",
    "Command: Orders — Legio",
    "Command: Orders — Equites",
    "Shooting",
]


def calls(h: Harness, where: object) -> list[BotMessage]:
    """The calls to arms posted so far."""
    return [
        p for p in posts(h, where)  # type: ignore[arg-type]
        if p.embeds and p.embeds[0]["title"].startswith("📯 Call to arms")
    ]  # fmt: skip


async def to_turn_one(h: Harness) -> None:
    """Set up, start, both sides confirm deployment: Rome's part of turn 1 opens."""
    where = h.channel("punic-wars")
    await set_up(h)
    await start(h, where, BATTLE, bytes(range(32)))
    deployed = await confirm(h, where, BATTLE, h.alice, h.bob)
    check_post(
        h, deployed, f"{BATTLE} — Set-up · Deployment", "Command: General Advance", [h.alice]
    )


async def step_keys(h: Harness, user: object) -> dict[str, str]:
    """The steps ``/order move`` offers to plan for: {words: key}."""
    where = h.channel("punic-wars")
    offered = await h.autocomplete(user, "order move", "step", channel=where, step="")  # type: ignore[arg-type]
    return {c["name"]: c["value"] for c in offered}


async def plan(h: Harness, user: object, step: str, unit: str, **options: object) -> str:
    """``/order move`` for a later step; the private preview."""
    where = h.channel("punic-wars")
    keys = await step_keys(h, user)
    given = await h.slash(user, "order move", channel=where, unit=unit, step=keys[step], **options)  # type: ignore[arg-type]
    assert given.ephemeral, given
    return given.content


async def done_for_turn(h: Harness, user: object) -> str:
    """``/order done turn:true``; the private answer."""
    where = h.channel("punic-wars")
    done = await h.slash(user, "order done", channel=where, turn=True)  # type: ignore[arg-type]
    assert done.ephemeral, done
    if done.content.startswith("You have planned nothing"):  # the defaults, confirmed (#40)
        done = await h.click(user, done, label="Confirm")  # type: ignore[arg-type]
    return done.content


async def test_a_whole_hail_caesar_turn_planned_in_one_visit(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    # Both players are called as the turn opens: Gaul, whose part comes after Rome's, may plan
    # it while Rome plays, so the battle does not stop for Gaul again (#40).
    roman_call, gallic_call = calls(h, where)
    assert roman_call.content == h.alice.mention
    assert gallic_call.embeds[0]["title"] == "📯 Call to arms: Gaul"
    assert "comes after the others' steps now open" in gallic_call.embeds[0]["description"]
    assert "orders are due" not in gallic_call.embeds[0]["description"]
    assert roman_call.embeds[0]["title"] == "📯 Call to arms: Rome"
    listed = roman_call.embeds[0]["description"]
    assert all(f"• {step}" in listed for step in ROMAN_STEPS), listed
    assert "/order done turn:true" in listed
    # Only Rome's steps are offered to Rome, in the order they come (then the next turn's).
    assert list(await step_keys(h, h.alice)) == [
        *ROMAN_STEPS,
        *(f"Next turn: {step}" for step in ROMAN_STEPS),
    ]
    assert "Shooting" in await step_keys(h, h.bob)  # Gaul's own shooting, later this turn

    # One visit: orders for both divisions' steps, then done for the turn.
    legio = await plan(h, h.alice, "Command: Orders — Legio", "First Cohort", x=5, y=12)
    assert legio.startswith("🗓️ Planned for **Command: Orders — Legio** — **First Cohort**: ")
    assert "checked again when its step comes" in legio and "the default is used" in legio
    horse = await plan(h, h.alice, "Command: Orders — Equites", "Gallic Horse", x=33, y=14)
    assert horse.startswith("🗓️ Planned for **Command: Orders — Equites** — **Gallic Horse**")
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert "Command: Orders — Legio · **First Cohort** (move)" in mine.content
    assert "Command: Orders — Equites · **Gallic Horse** (move)" in mine.content
    theirs = await h.slash(h.bob, "orders mine", channel=where)
    assert theirs.content == "You have given no orders for this step."  # secret from Gaul
    for command, options in (("battle status", {}), ("battle record", {}),
                             ("battle log", {"turn": 1})):  # fmt: skip
        seen = await h.slash(h.bob, command, channel=where, **options)
        shown = seen.text + "".join(f.text for f in seen.files if f.filename.endswith("json"))
        assert "(5, 12)" not in shown and "[5, 12]" not in shown and "[5.0, 12.0]" not in shown
    refused = await plan(h, h.alice, "Command: Orders — Legio", "Gallic Horse", x=33, y=14)
    assert refused.startswith("**Gallic Horse** cannot move in Command: Orders — Legio: ")

    # A failed order test asks about the army commander's re-roll: a standing answer, set now.
    standing = await h.slash(h.alice, "standing set", channel=where, topic="reroll", choice="keep")
    assert standing.ephemeral, standing
    before = len(reports(h, where, BATTLE))
    answered = await done_for_turn(h, h.alice)
    assert answered.startswith("Done for the turn: every order is in, resolving")
    posted = reports(h, where, BATTLE)
    assert len(posted) == before + 1  # one result for Rome's whole part of the turn
    result = posted[-1]
    check_post(
        h, result, f"{BATTLE} — Turn 1 · Command: General Advance (Rome)",
        "Command: General Advance", [h.bob],
    )  # fmt: skip
    assert "— Turn 1: Command: Orders (Legio) —" in lines(result) or "log.txt" in [
        f.filename for f in result.files
    ]
    assert len(calls(h, where)) == 2  # Gaul was called as the turn opened, not again now

    # Gaul too, in one visit: nothing planned, done for the turn (defaults): turn 2 begins.
    before = len(reports(h, where, BATTLE))
    await done_for_turn(h, h.bob)
    posted = reports(h, where, BATTLE)
    assert len(posted) == before + 1
    check_post(
        h, posted[-1], f"{BATTLE} — Turn 1 · Command: General Advance (Gaul)",
        "Command: General Advance", [h.alice],
    )  # fmt: skip
    assert "— Turn 2: Command: Rally Elite (Rome) —" in lines(posted[-1]) or "log.txt" in [
        f.filename for f in posted[-1].files
    ]
    turn_two = [call.embeds[0]["title"] for call in calls(h, where)[2:]]
    assert turn_two == ["📯 Call to arms: Rome", "📯 Call to arms: Gaul"]


async def _horse_sent_away(h: Harness) -> None:
    """The GM moves the Gallic Horse far from where its planned move goes."""
    where = h.channel("punic-wars")
    moved = await h.slash(
        h.gm, "gm move", channel=where, unit="Gallic Horse", at="2,20", reason="scouting"
    )
    assert not moved.ephemeral or "Gallic Horse" in moved.content


async def test_a_planned_order_illegal_by_its_step_falls_back_with_a_note(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    await plan(h, h.alice, "Command: Orders — Equites", "Gallic Horse", x=33, y=14)
    await _horse_sent_away(h)
    await done_for_turn(h, h.alice)
    result = reports(h, where, BATTLE)[-1]
    log = lines(result)
    logs = [f for f in result.files if f.filename == "log.txt"]
    if logs:
        log = logs[0].text.splitlines()
    (note,) = [line for line in log if "planned move could not be carried out" in line]
    assert note.startswith("Gallic Horse: planned move could not be carried out, ")
    assert note.endswith("; default used")
    assert field(result, "Now") == "Command: General Advance"  # on to Gaul without stopping


async def test_a_player_who_asked_to_be_consulted_is_asked(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    asked_for = await plan(
        h, h.alice, "Command: Orders — Equites", "Gallic Horse", x=33, y=14, ask_me=True
    )
    assert "you will be asked" in asked_for
    await _horse_sent_away(h)
    await done_for_turn(h, h.alice)
    result = reports(h, where, BATTLE)[-1]
    check_post(
        h, result, f"{BATTLE} — Turn 1 · Command: General Advance (Rome)",
        "Command: Orders — Equites", [h.alice],
    )  # fmt: skip
    log = lines(result)
    logs = [f for f in result.files if f.filename == "log.txt"]
    if logs:
        log = logs[0].text.splitlines()
    assert "Rome: a planned order cannot be carried out; asked for new orders" in log
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert "Gallic Horse" not in mine.content  # the order that could not be carried out is gone
    # A new order for the step, and done: the rest of Rome's turn (shooting) follows at once.
    given = await h.slash(h.alice, "order hold", channel=where, unit="Gallic Horse")
    assert given.content.startswith("✅ **Gallic Horse**")
    await h.slash(h.alice, "order done", channel=where)
    after = reports(h, where, BATTLE)[-1]
    assert field(after, "Now") == "Command: General Advance"
    assert h.bob.mention in field(after, "Waiting for")


async def test_the_call_to_arms_deadline_covers_the_part_and_reminders_name_what_is_missing(
    aide: Harness,
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    call, gallic = calls(h, where)
    assert "orders are due" not in gallic.embeds[0]["description"]  # Gaul's part: later
    due = field(reports(h, where, BATTLE)[-1], "Deadline")
    assert due in call.embeds[0]["description"]  # the call names the part's deadline
    await plan(h, h.alice, "Command: Orders — Legio", "First Cohort", x=5, y=12)
    await h.slash(h.alice, "standing set", channel=where, topic="reroll", choice="keep")
    # The General Advance confirmed alone: the planned Legio step follows at once, and the
    # Equites step (nothing planned) waits, with the deadline of the call, not a fresh one.
    await h.advance(timedelta(hours=2))
    done = await h.slash(h.alice, "order done", channel=where)
    assert done.content == "Confirmed: every order is in, resolving."
    result = reports(h, where, BATTLE)[-1]
    assert field(result, "Now") == "Command: Orders — Equites"
    assert field(result, "Deadline") == due
    # The reminder names only what is still missing: the Equites step and shooting.
    assert await h.advance(timedelta(hours=23)) == 1
    (reminder,) = [p for p in posts(h, where) if p.content.startswith("⏰")]
    assert reminder.content.endswith(
        f"{h.alice.mention}, still missing: Command: Orders — Equites; Shooting."
    ), reminder.content
    assert "Legio" not in reminder.content


async def test_a_call_to_arms_lost_to_discord_goes_out_with_its_result(
    aide: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    await start(h, where, BATTLE, bytes(range(32)))
    await h.slash(h.alice, "order done", channel=where)
    failing_sends(monkeypatch, 1)
    await h.slash(h.bob, "order done", channel=where)
    assert calls(h, where) == []  # Discord refused the result; the call never went out
    monkeypatch.undo()
    await h.stop_bot()
    await h.start_bot()
    call, gallic = calls(h, where)
    assert call.content == h.alice.mention
    assert call.embeds[0]["title"] == "📯 Call to arms: Rome"
    assert gallic.content == h.bob.mention  # Gaul's part comes later: called now, no deadline
    assert "comes after the others' steps now open" in gallic.embeds[0]["description"]
    assert all(f"• {step}" in call.embeds[0]["description"] for step in ROMAN_STEPS)
    count = len(posts(h, where))
    await h.stop_bot()
    await h.start_bot()
    assert len(posts(h, where)) == count  # never twice


async def test_done_for_the_turn_before_ones_part_opens(aide: Harness) -> None:
    """Gaul says it is done for the turn during Rome's part; a planned order is withdrawn.
    Rome's one visit then plays the whole turn: Gaul's steps resolve as they come."""
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    early = await done_for_turn(h, h.bob)
    assert early.startswith("Done for the turn: each of your remaining steps this turn")
    await plan(h, h.alice, "Command: Orders — Legio", "Second Cohort", x=12, y=12)
    keys = await step_keys(h, h.alice)
    taken = await h.slash(
        h.alice, "order withdraw", channel=where, unit="Second Cohort",
        step=keys["Command: Orders — Legio"],
    )  # fmt: skip
    assert taken.content == (
        "Withdrawn: **Second Cohort**'s move order planned for Command: Orders — Legio."
    )
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert mine.content == "You have given no orders for this step."
    await h.slash(h.alice, "standing set", channel=where, topic="reroll", choice="keep")
    before = len(reports(h, where, BATTLE))
    await done_for_turn(h, h.alice)
    posted = reports(h, where, BATTLE)
    assert len(posted) == before + 1  # both parts of turn 1 in one result
    check_post(
        h, posted[-1], f"{BATTLE} — Turn 1 · Command: General Advance (Rome)",
        "Command: General Advance", [h.alice],
    )  # fmt: skip
    turn_two = [call.embeds[0]["title"] for call in calls(h, where)[2:]]
    assert turn_two == ["📯 Call to arms: Rome", "📯 Call to arms: Gaul"]


async def test_players_answering_step_by_step_get_a_fresh_deadline_each_step(
    aide: Harness,
) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    due = field(reports(h, where, BATTLE)[-1], "Deadline")
    await h.advance(timedelta(hours=2))
    await h.slash(h.alice, "order done", channel=where)
    result = reports(h, where, BATTLE)[-1]
    assert field(result, "Now") == "Command: Orders — Legio"
    assert field(result, "Deadline") != due  # 48 hours from now, as before planning existed
    # Each player's call came once, as the turn opened (Gaul's for its part to come).
    assert len(calls(h, where)) == 2


async def test_a_call_to_arms_comes_by_direct_message_to_who_asked(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h)
    outsider = await h.slash(h.outsider, "campaign dm", channel=where, on=True)
    assert outsider.ephemeral and "not in" in outsider.content, outsider
    asked = await h.slash(h.alice, "campaign dm", channel=where, on=True)
    assert asked.ephemeral and "direct message" in asked.content, asked
    off = await h.slash(h.bob, "campaign dm", channel=where, on=False)
    assert off.ephemeral and "only in the campaign's channel" in off.content, off
    await start(h, where, BATTLE, bytes(range(32)))
    await confirm(h, where, BATTLE, h.alice, h.bob)
    channel_call, _ = calls(h, where)  # Rome's, and Gaul's for its part later in the turn
    (dm_call,) = [m for m in h.dms(h.alice) if m.embeds and "Call to arms" in m.embeds[0]["title"]]
    assert dm_call.embeds[0] == channel_call.embeds[0]
    assert not [m for m in h.dms(h.bob) if m.embeds and "Call to arms" in m.embeds[0]["title"]]
