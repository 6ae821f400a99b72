"""/order and /orders: give, change, withdraw and confirm orders; each is answered privately."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot
from bot.delivery import post_report
from bot.presentation.choices import (
    Complete,
    enemy_units,
    named_actors,
    offer_labelled,
    offer_names,
    own_units,
    turn_steps,
)
from bot.presentation.orders import (
    RESOLVING,
    RESOLVING_TURN,
    order_book_text,
    orders_text,
    preview_text,
    turn_defaults_question,
    waiting_text,
    withdrawn_text,
)
from bot.presentation.replies import (
    ask_confirmation,
    matching_choices,
    place_of,
    reply_privately,
)
from bot.services.order_params import OrderInput
from bot.slash import Callback, SlashCommand, command_name, subcommand

X = app_commands.Range[float, -1000, 1000]
STEP_HELP = "Plan it for a later step of this turn (default: the open step)"
ASK_ME_HELP = "If the planned order cannot be carried out: ask me (default: use the default)"
YOUR_UNIT = "Your unit"

# Every unit, the enemy's first (commands may aim at friends); the orders the step takes.
any_targets = offer_names(lambda s, place, user: s.lookups.any_targets(place, user))
order_kinds = offer_labelled(lambda s, place, _: s.lookups.order_kinds(place))
AIMED = {"unit": own_units, "target": enemy_units}  # a unit of yours at an enemy unit


def order_command(
    name: str, description: str, offers: dict[str, Complete], **helps: str
) -> Callable[[Callback], SlashCommand]:
    """A /order subcommand: every order may be planned for a later ``step`` with ``ask_me``,
    those two explained and the step offered as typed alike; ``helps`` and ``offers`` are the
    order's own parameters' descriptions and autocompletes."""
    planned = {"step": STEP_HELP, "ask_me": ASK_ME_HELP}
    return subcommand(name, description, helps | planned, offers | {"step": turn_steps})


@app_commands.guild_only()
class OrderCog(commands.GroupCog, group_name="order", group_description="Give orders"):
    """One subcommand per kind of order; the ruleset checks each at once."""

    def __init__(self, bot: AideBot) -> None:
        self.bot = bot
        self.play = bot.services.play
        self.lookups = bot.services.lookups

    async def _give(
        self,
        interaction: discord.Interaction,
        kind: str,
        unit: str,
        given: OrderInput,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        await reply_privately(
            interaction,
            lambda place, user: self.play.submit(place, user, kind, unit, given, step, ask_me),
            preview_text,
        )

    @order_command(
        "move",
        "Move a unit to a point",
        {"unit": own_units},
        unit=YOUR_UNIT,
        x="Destination x",
        y="Destination y",
    )
    async def move(
        self,
        interaction: discord.Interaction,
        unit: str,
        x: X,
        y: X,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a move."""
        await self._give(interaction, "move", unit, OrderInput(x=x, y=y), step, ask_me)

    async def _unit_order(
        self,
        interaction: discord.Interaction,
        unit: str,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a unit to do what the subcommand names (hold, rally)."""
        await self._give(interaction, command_name(interaction), unit, OrderInput(), step, ask_me)

    async def _aimed_order(
        self,
        interaction: discord.Interaction,
        unit: str,
        target: str,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a unit to act on an enemy unit as the subcommand names (charge, shoot)."""
        given = OrderInput(target=target)
        await self._give(interaction, command_name(interaction), unit, given, step, ask_me)

    charge = order_command(
        "charge", "Charge an enemy unit", AIMED, unit=YOUR_UNIT, target="The enemy unit"
    )(_aimed_order)
    shoot = order_command(
        "shoot", "Shoot at an enemy unit", AIMED, unit=YOUR_UNIT, target="The enemy unit"
    )(_aimed_order)
    hold = order_command("hold", "Hold position", {"unit": own_units}, unit=YOUR_UNIT)(_unit_order)

    @order_command(
        "place",
        "Re-place a unit during deployment",
        {"unit": own_units},
        unit=YOUR_UNIT,
        x="x",
        y="y",
        facing="Compass degrees, 0 = up",
    )
    async def place(
        self,
        interaction: discord.Interaction,
        unit: str,
        x: X,
        y: X,
        facing: app_commands.Range[float, 0, 360] | None = None,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a deployment move."""
        await self._give(
            interaction, "place", unit, OrderInput(x=x, y=y, number=facing), step, ask_me
        )

    rally = order_command("rally", "Try to rally a unit", {"unit": own_units}, unit=YOUR_UNIT)(
        _unit_order
    )

    @order_command(
        "command",
        "A leader's command action",
        {"target": any_targets},
        unit="Your leader or unit",
        option="The action",
        target="Who it is aimed at",
    )
    async def command(
        self,
        interaction: discord.Interaction,
        unit: str,
        option: str,
        target: str | None = None,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a command action."""
        await self._give(
            interaction, "command", unit, OrderInput(target=target, option=option), step, ask_me
        )

    @order_command(
        "give",
        "Any order the ruleset has, by its kind",
        {
            "kind": order_kinds,
            "target": any_targets,
            "leader": named_actors("leader"),
            "group": named_actors("group"),
        },
        kind="The kind of order (offered for the current step)",
        unit="Your unit, leader, group or side that gives it",
        target="A target unit, if the order takes one",
        x="A destination x",
        y="A destination y",
        number="A number, if the order takes one",
        option="A choice, if the order takes one",
        option2="A second choice, if the order takes two",
        leader="A leader, if the order takes one",
        group="A group (wing, division, command), if the order takes one",
        path="A path of points: x,y x,y …",
        text="Free text, if the order takes it",
    )
    async def give(
        self,
        interaction: discord.Interaction,
        kind: str,
        unit: str,
        target: str | None = None,
        x: X | None = None,
        y: X | None = None,
        number: float | None = None,
        option: str | None = None,
        option2: str | None = None,
        leader: str | None = None,
        group: str | None = None,
        path: app_commands.Range[str, 1, 400] | None = None,
        text: app_commands.Range[str, 1, 300] | None = None,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order anything the ruleset defines."""
        given = OrderInput(
            target=target,
            x=x,
            y=y,
            number=number,
            option=option,
            option2=option2,
            leader=leader,
            group=group,
            path=path,
            text=text,
        )
        await self._give(interaction, kind, unit, given, step, ask_me)

    @app_commands.command(name="withdraw", description="Take back a unit's order")
    @app_commands.describe(
        unit="Your unit, leader, group or side",
        number="Which of its orders this step (1 = first given); default the last",
        step="A later step of this turn it was planned for (default: the open step)",
    )
    @app_commands.autocomplete(step=turn_steps)
    async def withdraw(
        self,
        interaction: discord.Interaction,
        unit: str,
        number: app_commands.Range[int, 1, 50] | None = None,
        step: str | None = None,
    ) -> None:
        """Withdraw an order."""
        await reply_privately(
            interaction,
            lambda place, user: self.play.withdraw(place, user, unit, number, step),
            withdrawn_text,
        )

    @app_commands.command(name="done", description="Your orders are complete for this step")
    @app_commands.describe(turn="Also for every remaining step of this turn (what you planned)")
    async def done(self, interaction: discord.Interaction, turn: bool = False) -> None:
        """Confirm; the step resolves when every player has. Done for the turn with nothing
        planned, the player first confirms what the defaults will do."""
        place, user = place_of(interaction), interaction.user.id
        unplanned = await self.bot.services.turn_defaults.unplanned(place, user) if turn else None
        if unplanned is not None:

            async def pass_turn() -> tuple[str, str | None]:
                confirmed = await self.play.confirm(place, user, turn=True)
                if confirmed.report is None:
                    return waiting_text(confirmed), None
                await post_report(self.bot, confirmed.report)
                return RESOLVING_TURN, None

            await ask_confirmation(interaction, turn_defaults_question(unplanned), pass_turn)
            return
        await interaction.response.defer(ephemeral=True)
        confirmed = await self.play.confirm(place_of(interaction), interaction.user.id, turn)
        if confirmed.report is None:
            await interaction.followup.send(waiting_text(confirmed), ephemeral=True)
            return
        await interaction.followup.send(RESOLVING_TURN if turn else RESOLVING, ephemeral=True)
        await post_report(self.bot, confirmed.report)

    @command.autocomplete("unit")
    @give.autocomplete("unit")
    @withdraw.autocomplete("unit")
    async def giver_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the player's units, leaders, groups or side that give the kind of order."""
        kind = getattr(interaction.namespace, "kind", None)
        if kind is None and interaction.command is not None:
            kind = None if interaction.command.name == "withdraw" else interaction.command.name
        names = await self.lookups.givers(place_of(interaction), interaction.user.id, kind)
        return matching_choices(names, current)

    @give.autocomplete("option")
    @command.autocomplete("option")
    async def option_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the choices of the order kind being given."""
        kind = getattr(interaction.namespace, "kind", None)
        if not kind:
            assert interaction.command is not None  # autocompletion is always for a command
            kind = interaction.command.name
        actor = getattr(interaction.namespace, "unit", None)
        options = await self.lookups.order_options(
            place_of(interaction), str(kind), 0, interaction.user.id, actor
        )
        return matching_choices(options, current)

    @give.autocomplete("option2")
    async def option2_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the choices of the order kind's second choice."""
        kind = str(getattr(interaction.namespace, "kind", None) or "")
        actor = getattr(interaction.namespace, "unit", None)
        options = await self.lookups.order_options(
            place_of(interaction), kind, 1, interaction.user.id, actor
        )
        return matching_choices(options, current)


@app_commands.guild_only()
class OrdersCog(commands.GroupCog, group_name="orders", group_description="Your orders"):
    """Looking at your own orders."""

    def __init__(self, bot: AideBot) -> None:
        self.play = bot.services.play
        self.book = bot.services.order_book

    @app_commands.command(
        name="all", description="Every side's orders: the last resolved step's (GMs: the open one)"
    )
    async def all_(self, interaction: discord.Interaction) -> None:
        """List every side's orders that the user may see, privately."""
        book = await self.book.book(place_of(interaction), interaction.user.id)
        await interaction.response.send_message(order_book_text(book), ephemeral=True)

    @app_commands.command(name="mine", description="Your orders for this step and your plan")
    async def mine(self, interaction: discord.Interaction) -> None:
        """List your orders, privately."""
        await reply_privately(interaction, self.play.mine, orders_text)


async def setup(bot: AideBot) -> None:
    """Load the order commands."""
    await bot.add_cog(OrderCog(bot))
    await bot.add_cog(OrdersCog(bot))
