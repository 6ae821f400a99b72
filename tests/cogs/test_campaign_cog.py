"""/campaign commands: success paths and refusals, through the real cog and database."""

from __future__ import annotations

from unittest.mock import MagicMock

import discord
import pytest

from bot.client import AideBot
from bot.db.models import CampaignStatus
from bot.presentation.campaigns import sheet_pages
from bot.services.campaigns import Place
from bot.services.parameters import ParameterRow, ParameterSheet
from cogs.campaign import RULESET_CHOICES, CampaignCog
from tests.conftest import ALICE, BOB, GM, OUTSIDER
from tests.discord_mocks import invoke, make_interaction, member, reply


@pytest.fixture
def cog(bot: AideBot) -> CampaignCog:
    """The campaign cog as the bot loads it."""
    return CampaignCog(bot)


async def create(cog: CampaignCog, name: str = "Agincourt") -> MagicMock:
    """Create a campaign as the GM and return the interaction."""
    interaction = make_interaction(GM)
    await invoke(cog.create, cog, interaction, name=name, ruleset="tree_of_battles")
    return interaction


def test_ruleset_choices_come_from_the_registry() -> None:
    assert [c.value for c in RULESET_CHOICES] == [
        "tree_of_battles",
        "pike_and_shot",
        "hail_caesar",
        "impetus",
        "heroic_age",
        "skirmish",
    ]


async def test_create_posts_the_campaign_card(cog: CampaignCog) -> None:
    _, kwargs = reply(await create(cog))
    embed: discord.Embed = kwargs["embed"]
    assert embed.title == "New campaign: Agincourt"
    assert "The Tree of Battles" in (embed.description or "")
    assert {f.name: f.value for f in embed.fields}["GM"] == f"<@{GM}>"
    assert not kwargs.get("ephemeral")


async def test_create_twice_in_a_channel_refused(cog: CampaignCog) -> None:
    await create(cog)
    text, kwargs = reply(await create(cog, "Crécy"))
    assert kwargs["ephemeral"] is True and "already hosts the campaign **Agincourt**" in text


async def test_unknown_ruleset_refused(cog: CampaignCog) -> None:
    interaction = make_interaction(GM)
    await invoke(cog.create, cog, interaction, name="X", ruleset="chess")
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True and text.startswith("Unknown ruleset `chess`")


async def test_direct_messages_refused(cog: CampaignCog) -> None:
    interaction = make_interaction(GM, guild_id=None)
    await invoke(cog.info, cog, interaction)
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True and "server channel" in text


async def test_info_and_list(cog: CampaignCog) -> None:
    await create(cog)
    interaction = make_interaction(OUTSIDER)
    await invoke(cog.info, cog, interaction)
    assert reply(interaction)[1]["embed"].title == "Agincourt"
    interaction = make_interaction(OUTSIDER)
    await invoke(cog.list, cog, interaction)
    text, kwargs = reply(interaction)
    assert "**Agincourt** — The Tree of Battles, lobby" in text and kwargs["ephemeral"] is True


async def test_info_without_campaign(cog: CampaignCog) -> None:
    interaction = make_interaction(ALICE)
    await invoke(cog.info, cog, interaction)
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True and "no campaign in this channel" in text


async def test_join_leave_and_join_twice(cog: CampaignCog) -> None:
    await create(cog)
    interaction = make_interaction(ALICE)
    await invoke(cog.join, cog, interaction, side="English")
    assert reply(interaction)[0] == f"<@{ALICE}> joined **Agincourt** on side **English**."
    again = make_interaction(ALICE)
    await invoke(cog.join, cog, again, side="French")
    text, kwargs = reply(again)
    assert kwargs["ephemeral"] is True and "already joined" in text
    observer = make_interaction(BOB)
    await invoke(cog.join, cog, observer, side=None)
    assert reply(observer)[0].endswith("as an observer.")
    leaving = make_interaction(ALICE)
    await invoke(cog.leave, cog, leaving)
    assert reply(leaving)[0] == f"<@{ALICE}> left **Agincourt**."


async def test_side_autocomplete(cog: CampaignCog) -> None:
    await create(cog)
    await invoke(cog.join, cog, make_interaction(ALICE), side="English")
    await invoke(cog.join, cog, make_interaction(BOB), side="French")
    choices = await cog.side_autocomplete(make_interaction(OUTSIDER), "en")
    assert [c.value for c in choices] == ["English", "French"]
    choices = await cog.side_autocomplete(make_interaction(OUTSIDER), "fr")
    assert [c.value for c in choices] == ["French"]


async def test_gm_add_remove(cog: CampaignCog) -> None:
    await create(cog)
    interaction = make_interaction(GM)
    await invoke(cog.gm_add, cog, interaction, member=member(ALICE))
    assert reply(interaction)[0].startswith(f"<@{ALICE}> is now a GM of **Agincourt**")
    interaction = make_interaction(ALICE)
    await invoke(cog.gm_remove, cog, interaction, member=member(GM))
    assert reply(interaction)[0].startswith(f"<@{GM}> is no longer a GM")


@pytest.mark.parametrize("command", ["gm_add", "gm_remove", "close"])
async def test_gm_commands_refuse_others(cog: CampaignCog, command: str, place: Place) -> None:
    await create(cog)
    interaction = make_interaction(OUTSIDER)
    kwargs = {} if command == "close" else {"member": member(GM)}
    await invoke(getattr(cog, command), cog, interaction, **kwargs)
    text, sent = reply(interaction)
    assert (
        sent["ephemeral"] is True
        and text == "Only a GM of **Agincourt** can do that; `/campaign info` names its GMs."
    )
    assert (await cog.services.campaigns.info(place)).gms == (GM,)


async def test_close_asks_then_closes_on_confirm(cog: CampaignCog, place: Place) -> None:
    await create(cog)
    interaction = make_interaction(GM)
    await invoke(cog.close, cog, interaction)
    question, kwargs = reply(interaction)
    assert "Close **Agincourt**?" in question and kwargs["ephemeral"] is True
    view = kwargs["view"]
    assert (await cog.services.campaigns.info(place)).status is CampaignStatus.LOBBY

    stranger = make_interaction(OUTSIDER)
    assert await view.interaction_check(stranger) is False
    click = make_interaction(GM)
    await view.confirm.callback(click)
    click.response.edit_message.assert_awaited_once_with(content="Closed **Agincourt**.", view=None)
    click.followup.send.assert_awaited_once()
    assert "has been closed by" in click.followup.send.await_args.args[0]
    infos = await cog.services.campaigns.list(place.guild_id, include_finished=True)
    assert [i.status for i in infos] == [CampaignStatus.FINISHED]


async def test_close_cancel_changes_nothing(cog: CampaignCog, place: Place) -> None:
    await create(cog)
    interaction = make_interaction(GM)
    await invoke(cog.close, cog, interaction)
    view = reply(interaction)[1]["view"]
    click = make_interaction(GM)
    await view.cancel.callback(click)
    click.response.edit_message.assert_awaited_once_with(
        content="Cancelled; nothing changed.", view=None
    )
    assert (await cog.services.campaigns.info(place)).status is CampaignStatus.LOBBY


def test_a_parameter_sheet_pages_under_discords_limit() -> None:
    """Many long rows split into pages of at most 2000 characters, every row on one page."""
    rows = tuple(
        ParameterRow(f"p{i}", "d" * 150, [[i, "x" * 20]] * 3, [[0, "y"]], "the sheet")
        for i in range(40)
    )
    pages = sheet_pages(ParameterSheet("Cannae", "Hail Caesar", rows), full=False)
    assert len(pages) > 1 and all(len(page) <= 2000 for page in pages)
    lines = [line for page in pages for line in page.splitlines()]
    assert [line.split("**")[1] for line in lines if line.startswith("• ")] == [
        f"p{i}" for i in range(40)
    ]
    assert '= a table of 3 rows (ruleset: `[[0, "y"]]`)' in pages[0]
