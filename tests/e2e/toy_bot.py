"""A tiny throwaway bot exercising every kind of interaction, used to test the harness itself."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("bot.toy")
FRUITS = ["apple", "apricot", "banana", "blackberry", "cherry"]


class Refused(app_commands.CheckFailure):
    """A check said no; the user sees the reason, ephemerally."""


def is_owner_check(interaction: discord.Interaction) -> bool:
    """Only the guild owner may run admin commands."""
    if interaction.guild is None or interaction.user.id != interaction.guild.owner_id:
        raise Refused("Only the server owner can do that.")
    return True


class VoteView(discord.ui.View):
    """Yes/No buttons and a select."""

    def __init__(self) -> None:
        """No timeout: the test decides when to click."""
        super().__init__(timeout=None)

    @discord.ui.button(label="Yes", custom_id="vote:yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        """Update the message in place (callback type 7)."""
        button.disabled = True
        await interaction.response.edit_message(
            content=f"Yes from {interaction.user.display_name}", view=self
        )

    @discord.ui.select(
        custom_id="vote:colour",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        """Deferred update, then a followup."""
        await interaction.response.defer()
        await interaction.followup.send(f"colour {select.values[0]}", ephemeral=True)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    """One short and one long text input."""

    subject = discord.ui.TextInput(label="Subject", custom_id="fb:subject", max_length=40)
    body = discord.ui.TextInput(
        label="Body", custom_id="fb:body", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Thank the user ephemerally."""
        await interaction.response.send_message(
            f"Thanks: {self.subject.value}|{self.body.value}", ephemeral=True
        )


class Toy(commands.Cog):
    """Commands covering options, autocomplete, views, modals, files and failures."""

    admin = app_commands.Group(name="admin", description="Owner-only tools")
    roles = app_commands.Group(name="roles", description="Role tools", parent=admin)

    @app_commands.command(description="Greet someone")
    @app_commands.describe(who="Who to greet", times="How often", loud="Shout?")
    async def greet(
        self,
        interaction: discord.Interaction,
        who: discord.Member,
        times: app_commands.Range[int, 1, 5],
        loud: bool = False,
    ) -> None:
        """Typed options: member, ranged int, bool."""
        text = " ".join([f"Hello {who.display_name}"] * times)
        await interaction.response.send_message(text.upper() if loud else text)

    @app_commands.command(description="Pick a fruit")
    async def pick(self, interaction: discord.Interaction, fruit: str) -> None:
        """Echo the chosen fruit."""
        await interaction.response.send_message(f"You picked {fruit}")

    @pick.autocomplete("fruit")
    async def pick_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Fruits starting with what was typed."""
        return [
            app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current)
        ]

    @app_commands.command(description="Choose a size")
    @app_commands.choices(
        size=[
            app_commands.Choice(name="Small", value="s"),
            app_commands.Choice(name="Large", value="l"),
        ]
    )
    async def size(self, interaction: discord.Interaction, size: app_commands.Choice[str]) -> None:
        """A choice option."""
        await interaction.response.send_message(f"size {size.name}")

    @app_commands.command(description="Start a vote")
    async def vote(self, interaction: discord.Interaction) -> None:
        """A message with buttons and a select."""
        await interaction.response.send_message("Vote now", view=VoteView())

    @app_commands.command(description="Send feedback")
    async def feedback(self, interaction: discord.Interaction) -> None:
        """Answer with a modal."""
        await interaction.response.send_modal(FeedbackModal())

    @app_commands.command(description="Count the lines of a file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Read an attachment from the CDN."""
        data = await file.read()
        lines = data.decode().splitlines()
        await interaction.response.send_message(
            f"{file.filename}: {len(lines)} lines, first {lines[0]!r}"
        )

    @app_commands.command(description="A report as a file and an embed")
    async def report(self, interaction: discord.Interaction) -> None:
        """Defer (thinking), then a followup with an embed and a file."""
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Report", description="All quiet")
        embed.add_field(name="Units", value="3")
        report = discord.File(io.BytesIO(b"line one\nline two\n"), filename="report.txt")
        await interaction.followup.send(embed=embed, file=report)
        await interaction.followup.send("and a secret", ephemeral=True)

    @app_commands.command(description="Where am I")
    async def where(
        self, interaction: discord.Interaction, channel: discord.TextChannel, role: discord.Role
    ) -> None:
        """Channel and role options, plus a public channel message."""
        await interaction.response.send_message(f"{channel.name} / {role.name}", ephemeral=True)
        await channel.send(f"Pinged from {interaction.channel.name}")

    @app_commands.command(description="Always fails")
    async def explode(self, interaction: discord.Interaction) -> None:
        """A deliberately broken handler."""
        raise RuntimeError("boom")

    @app_commands.command(description="Calls an endpoint the fake does not know")
    async def mkrole(self, interaction: discord.Interaction) -> None:
        """Create a role (unsupported by the fake)."""
        await interaction.response.defer(ephemeral=True)
        await interaction.guild.create_role(name="New")
        await interaction.followup.send("made")

    @app_commands.command(description="Downloads the user's avatar from the real CDN")
    async def avatar(self, interaction: discord.Interaction) -> None:
        """Reaches for cdn.discordapp.com, which the harness blocks."""
        await interaction.response.defer(ephemeral=True)
        data = await interaction.user.display_avatar.read()
        await interaction.followup.send(f"{len(data)} bytes")

    @app_commands.command(description="Sends an invalid embed")
    async def toolong(self, interaction: discord.Interaction) -> None:
        """A message Discord would refuse (title > 256)."""
        await interaction.response.send_message(embed=discord.Embed(title="x" * 300))

    @roles.command(name="grant", description="Give a member a role")
    @app_commands.check(is_owner_check)
    async def grant(
        self, interaction: discord.Interaction, member: discord.Member, role: discord.Role
    ) -> None:
        """A subcommand in a group in a group, guarded by a check."""
        await interaction.response.send_message(f"{member.display_name} would get {role.name}")


class ToyBot(commands.Bot):
    """Syncs its commands to the fake guild in setup_hook, like the real bot."""

    def __init__(self, guild_id: int, *, fail_setup: bool = False) -> None:
        """Build with the default intents and a short ready wait."""
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.guild_id = guild_id
        self.fail_setup = fail_setup
        self.tree.error(self.on_tree_error)

    async def setup_hook(self) -> None:
        """Add the cog and sync to the dev guild."""
        if self.fail_setup:
            raise RuntimeError("setup failed")
        await self.add_cog(Toy())
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        self.tree.clear_commands(guild=None)
        await self.tree.sync(guild=guild)

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Refusals become ephemeral messages; anything else is logged and apologised for."""
        if isinstance(error, Refused):
            await interaction.response.send_message(str(error), ephemeral=True)
            return
        log.error("command failed", exc_info=error)
        if not interaction.response.is_done():
            await interaction.response.send_message("Something went wrong", ephemeral=True)
