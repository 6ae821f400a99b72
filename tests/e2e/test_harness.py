"""The harness itself, proven against a tiny throwaway bot: every route works, and failures fail."""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import MakeHarness
from tests.e2e.toy_bot import ToyBot
from tools.fake_discord import InteractionRecord, World
from tools.fake_discord.interactions import base_interaction
from tools.fake_discord.schema import validate_commands
from tools.harness import Harness, answered_in_time


@pytest.fixture
async def h(make_harness: MakeHarness) -> Harness:
    """A running fake Discord with the toy bot connected."""
    world = World()
    return await make_harness(lambda: ToyBot(world.guild_id), world)


async def test_login_sync_and_gateway(h: Harness) -> None:
    """The bot logs in, syncs valid commands to the guild and sees the guild over the gateway."""
    assert "GET /api/v10/users/@me" in h.fake.requests
    assert "GET /api/v10/oauth2/applications/@me" in h.fake.requests
    names = {c["name"] for c in h.synced_commands()}
    assert {"greet", "pick", "vote", "admin"} <= names
    assert validate_commands(h.synced_commands()) == []
    assert h.bot.get_guild(h.world.guild_id).name == h.world.guild_name


async def test_typed_options(h: Harness) -> None:
    """Member, ranged integer and boolean options convert."""
    result = await h.slash(h.gm, "greet", who=h.alice, times=2, loud=True)
    assert result.type == 4
    assert result.content == "HELLO ALICE HELLO ALICE"
    assert not result.ephemeral


async def test_option_out_of_range_is_refused_like_the_client(h: Harness) -> None:
    """The synced min_value/max_value stop a value outside Range[1, 5], as Discord's client does."""
    with pytest.raises(AssertionError, match="above max_value 5"):
        await h.slash(h.gm, "greet", who=h.alice, times=9)


async def test_choices(h: Harness) -> None:
    """A choice option arrives as its value; the harness refuses values that are not choices."""
    assert (await h.slash(h.bob, "size", size="l")).content == "size Large"
    with pytest.raises(AssertionError, match="not one of the choices"):
        await h.slash(h.bob, "size", size="xl")


async def test_autocomplete(h: Harness) -> None:
    """Autocomplete (type 4) returns the bot's choices."""
    choices = await h.autocomplete(h.alice, "pick", "fruit", fruit="ap")
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    assert (await h.slash(h.alice, "pick", fruit="apple")).content == "You picked apple"


async def test_buttons_and_selects(h: Harness) -> None:
    """A button edits its message (type 7); a select defers (type 6) and follows up."""
    vote = await h.slash(h.gm, "vote")
    assert [c["custom_id"] for c in vote.message.interactive] == ["vote:yes", "vote:colour"]
    clicked = await h.click(h.alice, vote, label="Yes")
    assert clicked.type == 7
    assert vote.message.content == "Yes from Alice"
    assert len(vote.message.edits) == 1
    assert vote.message.component(custom_id="vote:yes")["disabled"] is True
    with pytest.raises(AssertionError, match="disabled"):
        await h.click(h.bob, vote, custom_id="vote:yes")
    chosen = await h.select(h.bob, vote, ["blue"])
    assert chosen.type == 6
    assert chosen.followups[0].content == "colour blue"
    assert chosen.followups[0].ephemeral


async def test_modal(h: Harness) -> None:
    """A modal is shown (type 9) and its submission routed to on_submit."""
    shown = await h.slash(h.alice, "feedback")
    assert shown.modal["title"] == "Feedback"
    done = await h.submit_modal(h.alice, shown, {"Subject": "Terrain", "fb:body": "More hills"})
    assert done.content == "Thanks: Terrain|More hills"
    assert done.ephemeral
    with pytest.raises(AssertionError, match="required"):
        await h.submit_modal(h.alice, shown, {"fb:body": "no subject"})


async def test_attachment_option(h: Harness) -> None:
    """The bot downloads a user's attachment from the fake CDN."""
    upload = h.upload("army.txt", "Knights\nArchers\n")
    result = await h.slash(h.alice, "upload", file=upload)
    assert result.content == "army.txt: 2 lines, first 'Knights'"


async def test_deferred_followups_with_file_and_embed(h: Harness) -> None:
    """A thinking defer is filled by the first followup; files arrive via multipart."""
    result = await h.slash(h.gm, "report")
    assert result.type == 5
    assert not result.message.loading
    assert result.message.embeds[0]["title"] == "Report"
    assert result.files[0].filename == "report.txt"
    assert result.files[0].text == "line one\nline two\n"
    assert [m.ephemeral for m in result.messages] == [False, True]
    assert "Units\n3" in result.text


async def test_channel_and_role_options_and_channel_message(h: Harness) -> None:
    """Channel and role options resolve; the bot posts in another channel."""
    target = h.channel("punic-wars")
    result = await h.slash(h.gm, "where", options={"channel": target}, role=h.world.wargamer_role)
    assert result.content == "punic-wars / Wargamer"
    assert result.ephemeral
    pinged = await h.wait_for_message(lambda m: m.channel_id == target.id, "the ping")
    assert pinged.content == "Pinged from general" and not pinged.ephemeral
    posted = h.messages(target)
    assert [m.content for m in posted] == ["Pinged from general"]
    assert posted[0].kind == "channel"


async def test_nested_group_and_check(h: Harness) -> None:
    """/admin roles grant: a check refuses a non-owner ephemerally, lets the owner through."""
    refused = await h.slash(
        h.outsider, "admin roles grant", member=h.bob, role=h.world.wargamer_role
    )
    assert refused.ephemeral
    assert refused.content == "Only the server owner can do that."
    allowed = await h.slash(
        h.world.owner, "admin roles grant", member=h.bob, role=h.world.wargamer_role
    )
    assert allowed.content == "Bob would get Wargamer"


async def test_unknown_command_or_option_is_refused_by_the_harness(h: Harness) -> None:
    """Commands and options must exist in the synced schema."""
    with pytest.raises(AssertionError, match="was not synced"):
        await h.slash(h.gm, "nope")
    with pytest.raises(AssertionError, match="has no options"):
        await h.slash(h.gm, "pick", fruit="apple", colour="red")
    with pytest.raises(AssertionError, match="required option 'who' missing"):
        await h.slash(h.gm, "greet", times=1)


async def test_broken_handler_fails_the_test(h: Harness) -> None:
    """A handler that raises makes the harness raise, with the logged error in the message."""
    with pytest.raises(AssertionError, match=r"RuntimeError\('boom'\)"):
        await h.slash(h.gm, "explode")


async def test_unhandled_route_fails_the_test(h: Harness) -> None:
    """A request the fake does not implement is reported, not silently 404ed."""
    with pytest.raises(AssertionError, match="unhandled request: POST /api/v10/guilds/"):
        await h.slash(h.world.owner, "mkrole")


async def test_real_network_is_blocked_and_reported(h: Harness) -> None:
    """Reaching for the real Discord CDN is refused and fails the test."""
    with pytest.raises(AssertionError, match="network access to 'cdn.discordapp.com' blocked"):
        await h.slash(h.alice, "avatar")


async def test_invalid_message_fails_the_test(h: Harness) -> None:
    """A message Discord would reject (embed title too long) is refused with 50035."""
    with pytest.raises(AssertionError, match="50035"):
        await h.slash(h.gm, "toolong")


async def test_dead_bot_task_fails_the_test(h: Harness) -> None:
    """A payload without attachment_size_limit kills the client: the harness says so."""
    payload = base_interaction(h.fake, 2, h.gm, h.channel(), {"name": "vote", "type": 1})
    del payload["attachment_size_limit"]
    with pytest.raises(AssertionError, match="bot task ended: KeyError..attachment_size_limit"):
        await h.send(payload)
    h.bot_task = None  # already reported; let teardown close quietly


async def test_failing_setup_fails_start(make_harness: MakeHarness) -> None:
    """If setup_hook raises, start() raises instead of hanging."""
    world = World()
    with pytest.raises(AssertionError, match="setup failed"):
        await make_harness(lambda: ToyBot(world.guild_id, fail_setup=True), world)


def test_the_answer_deadline_counts_the_bot_s_work_not_the_machine_s_load() -> None:
    """Discord's 3 s is checked in CPU seconds of this process (the bot and the fake Discord):
    time spent waiting while other processes use the machine does not count, work does."""
    record = InteractionRecord(1, "token", 2, 1, 1, {})
    time.sleep(0.3)  # descheduled or waiting: no work done here
    record.answered_after_cpu = time.process_time() - record.sent_cpu
    assert record.answered_after_cpu < 0.3
    assert answered_in_time(record) is None
    record.answered_after_cpu = 3.2  # a handler that worked 3.2 s before answering
    assert answered_in_time(record) == "answered after 3.2 s of work; Discord gives up after 3 s"
