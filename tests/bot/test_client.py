"""The bot shell: cogs are found, commands registered, errors reported once and privately."""

from __future__ import annotations

import logging
import re

import discord
import pytest
from discord import app_commands

from bot.client import AideBot, cog_modules
from bot.errors import PermissionDenied
from bot.presentation.replies import error_text, report_error
from tests.discord_mocks import make_interaction


def test_cogs_are_discovered() -> None:
    assert cog_modules() == [
        "cogs.answer",
        "cogs.army",
        "cogs.battle",
        "cogs.campaign",
        "cogs.campaign_map",
        "cogs.gm",
        "cogs.odds",
        "cogs.order",
        "cogs.plan",
        "cogs.reference",
        "cogs.roll",
        "cogs.standing",
    ]


async def test_every_cog_loads_and_registers_its_commands(bot: AideBot) -> None:
    for module in cog_modules():
        await bot.load_extension(module)
    names = {c.qualified_name for c in bot.tree.walk_commands()}
    assert {
        "campaign create",
        "campaign info",
        "campaign list",
        "campaign join",
        "campaign leave",
        "campaign gm add",
        "campaign gm remove",
        "campaign close",
        "campaign map import",
        "campaign map show",
        "campaign map move",
        "campaign map turn",
        "army import",
        "army show",
        "army list",
        "army remove",
        "roll",
        "battle create",
        "battle terrain add",
        "battle deploy",
        "battle start",
        "battle end",
        "order move",
        "order give",
        "order done",
        "orders mine",
        "standing list",
        "standing set",
        "standing clear",
        "gm undo",
        "gm force",
    } <= names
    assert bot.tree.get_command("campaign").guild_only is True  # type: ignore[union-attr]


def command_error(error: Exception) -> app_commands.CommandInvokeError:
    """An error as the command tree hands it to the handler."""

    async def callback(interaction: discord.Interaction) -> None:
        """A command body."""

    command = app_commands.Command(name="test", description="A test.", callback=callback)
    return app_commands.CommandInvokeError(command, error)


async def test_user_error_is_shown_privately_and_not_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = make_interaction(1)
    with caplog.at_level(logging.ERROR):
        await report_error(interaction, command_error(PermissionDenied("Not you.")))
    interaction.response.send_message.assert_awaited_once_with("Not you.", ephemeral=True)
    assert caplog.records == []


async def test_unexpected_error_is_logged_with_reference(
    caplog: pytest.LogCaptureFixture,
) -> None:
    interaction = make_interaction(1)
    with caplog.at_level(logging.ERROR, logger="bot.errors"):
        await report_error(interaction, command_error(ZeroDivisionError("boom")))
    text = interaction.response.send_message.await_args.args[0]
    ref = re.search(r"ref `([0-9a-f]{8})`", text)
    assert ref and text.startswith("Something went wrong")
    assert "boom" not in text and "Traceback" not in text
    (record,) = caplog.records
    assert ref.group(1) in record.getMessage() and record.exc_info is not None


async def test_error_after_a_response_goes_to_a_followup() -> None:
    interaction = make_interaction(1)
    interaction.response.is_done.side_effect = lambda: True  # answered already
    await report_error(interaction, command_error(PermissionDenied("Later.")))
    interaction.followup.send.assert_awaited_once_with("Later.", ephemeral=True)
    interaction.response.send_message.assert_not_awaited()


def test_check_failures_have_their_own_text() -> None:
    interaction = make_interaction(1)
    assert "direct messages" in error_text(interaction, app_commands.NoPrivateMessage())
    denied = app_commands.MissingPermissions(["manage_guild"])
    assert "missing Manage Server permission" in error_text(interaction, denied)


def test_intents_are_not_privileged(bot: AideBot) -> None:
    assert bot.intents.value == discord.Intents.default().value
    assert not bot.intents.members and not bot.intents.message_content


def test_no_voice_library_warnings_at_start(tmp_path) -> None:
    """The bot never joins voice, so PyNaCl and davey are not asked for on every start."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import logging; logging.basicConfig(level=logging.WARNING)\n"
        "from bot.client import AideBot; from bot.config import Settings\n"
        f"AideBot(Settings(discord_token='x', database_url='sqlite+aiosqlite:///{tmp_path}/a.db'))\n"
    )
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert "voice will NOT be supported" not in run.stderr
