"""/order and /orders: give, change, withdraw and confirm orders; each is answered privately."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import AideBot, Served
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
    alternative_text,
    next_turn_text,
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
    reply_with,
)
from bot.services.campaigns import Place
from bot.services.intake import Wanted
from bot.services.order_params import OrderInput
from bot.slash import Callback, SlashCommand, command_name, subcommand

X = app_commands.Range[float, -1000, 1000]
# An order as PlayService.submit takes it: kind, unit, what was typed, step, ask_me.
Order = tuple[str, str, OrderInput, str | None, bool]
STEP_HELP = "Plan it for a later step of this turn (default: the open step)"
STEP_HELP_ALTERNATIVE = "The later step of this turn the order is planned for"
ASK_ME_HELP = "If the planned order cannot be carried out: ask me (default: use the default)"
YOUR_UNIT = "Your unit"
FAR_HELP = "If it cannot go all the way: go as far as the rules allow (the preview says where)"
CHARGE_HELPS = {
    "unit": YOUR_UNIT,
    "target": "The enemy unit",
    "as_far_as_possible": "If it is out of reach: advance toward it as far as the rules allow",
}

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
class OrderCog(Served, commands.GroupCog, group_name="order", group_description="Give orders"):
    """One subcommand per kind of order; the ruleset checks each at once."""

    async def _give(self, interaction: discord.Interaction, *order: *Order) -> None:
        """Submit an order as the user and show it, privately (see PlayService.submit)."""
        await reply_privately(interaction, self.services.play.submit, preview_text, *order)

    @order_command(
        "move",
        "Move a unit to a point",
        {"unit": own_units},
        unit=YOUR_UNIT,
        x="Destination x",
        y="Destination y",
        as_far_as_possible=FAR_HELP,
    )
    async def move(
        self,
        interaction: discord.Interaction,
        unit: str,
        x: X,
        y: X,
        as_far_as_possible: bool = False,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a move."""
        given = OrderInput(x=x, y=y, as_far_as_possible=as_far_as_possible)
        await self._give(interaction, "move", unit, given, step, ask_me)

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

    @order_command("charge", "Charge an enemy unit", AIMED, **CHARGE_HELPS)
    async def charge(
        self,
        interaction: discord.Interaction,
        unit: str,
        target: app_commands.Range[str, 1, 200],
        as_far_as_possible: bool = False,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order a charge."""
        given = OrderInput(target=target, as_far_as_possible=as_far_as_possible)
        await self._give(interaction, "charge", unit, given, step, ask_me)

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
            "else_": order_kinds,
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
        as_far_as_possible=FAR_HELP,
        else_="Planned for a later step: a plain order (hold…) to try if it cannot be carried out",
    )
    @app_commands.rename(else_="else")
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
        as_far_as_possible: bool = False,
        else_: str | None = None,
        step: str | None = None,
        ask_me: bool = False,
    ) -> None:
        """Order anything the ruleset defines (with ``else``, a plain order to fall back on)."""
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
            as_far_as_possible=as_far_as_possible,
        )
        if else_ is None:
            await self._give(interaction, kind, unit, given, step, ask_me)
            return
        order, service = Wanted(kind, unit, given), self.services.alternatives
        await reply_privately(
            interaction, service.give_else, alternative_text, order, step, ask_me, else_
        )

    @subcommand(
        "alternative",
        "What a planned order tries next if it cannot be carried out when its step comes",
        {
            "step": STEP_HELP_ALTERNATIVE,
            "kind": "The kind of order to try instead",
            "unit": "Your unit, leader, group or side with an order planned for that step",
            "target": "A target unit, if the order takes one",
            "x": "A destination x",
            "y": "A destination y",
            "number": "A number, if the order takes one",
            "option": "A choice, if the order takes one",
            "path": "A path of points: x,y x,y …",
            "which": "Which of its planned orders there (1 = first); default the last",
        },
        {"step": turn_steps, "kind": order_kinds, "target": any_targets},
    )
    async def alternative(
        self,
        interaction: discord.Interaction,
        step: str,
        kind: str,
        unit: str,
        which: app_commands.Range[int, 1, 50] | None = None,
        target: str | None = None,
        x: X | None = None,
        y: X | None = None,
        number: float | None = None,
        option: str | None = None,
        path: app_commands.Range[str, 1, 400] | None = None,
    ) -> None:
        """Add an alternative to a planned order (a conditional plan)."""
        given = OrderInput(target=target, x=x, y=y, number=number, option=option, path=path)
        wanted = Wanted(kind, unit, given)
        await reply_privately(
            interaction, self.services.alternatives.add, alternative_text, step, wanted, which
        )

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
            interaction, self.services.play.withdraw, withdrawn_text, unit, number, step
        )

    @app_commands.command(name="done", description="Your orders are complete for this step")
    @app_commands.describe(
        turn="Also for every remaining step of this turn (what you planned)",
        next_turn="Also for this turn and the whole next one (what you planned for it)",
    )
    async def done(
        self, interaction: discord.Interaction, turn: bool = False, next_turn: bool = False
    ) -> None:
        """Confirm; the step resolves when every player has. Done for the turn with nothing
        planned, the player first confirms what the defaults will do."""
        place, user = place_of(interaction), interaction.user.id
        if next_turn:
            await self._done_next_turn(interaction)
            return
        unplanned = await self.services.turn_defaults.unplanned(place, user) if turn else None
        if unplanned is not None:

            async def pass_turn() -> tuple[str, str | None]:
                confirmed = await self.services.play.confirm(place, user, turn=True)
                if confirmed.report is None:
                    return waiting_text(confirmed), None
                await post_report(self.bot, confirmed.report)
                return RESOLVING_TURN, None

            await ask_confirmation(interaction, turn_defaults_question(unplanned), pass_turn)
            return
        await interaction.response.defer(ephemeral=True)
        confirmed = await self.services.play.confirm(
            place_of(interaction), interaction.user.id, turn
        )
        if confirmed.report is None:
            await interaction.followup.send(waiting_text(confirmed), ephemeral=True)
            return
        await interaction.followup.send(RESOLVING_TURN if turn else RESOLVING, ephemeral=True)
        await post_report(self.bot, confirmed.report)

    async def _done_next_turn(self, interaction: discord.Interaction) -> None:
        """``/order done next_turn:true``: done for the rest of this turn and the next."""

        async def confirm(place: Place, user: int) -> str:
            confirmed = await self.services.play.confirm(place, user, turn=True, next_turn=True)
            if confirmed.report is None:
                return next_turn_text(waiting_text(confirmed))
            await post_report(self.bot, confirmed.report)
            return next_turn_text(RESOLVING_TURN)

        await reply_privately(interaction, confirm, str)

    @command.autocomplete("unit")
    @give.autocomplete("unit")
    @alternative.autocomplete("unit")
    @withdraw.autocomplete("unit")
    async def giver_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the player's units, leaders, groups or side that give the kind of order."""
        kind = getattr(interaction.namespace, "kind", None)
        if kind is None and interaction.command is not None:
            kind = None if interaction.command.name == "withdraw" else interaction.command.name
        names = await self.services.lookups.givers(place_of(interaction), interaction.user.id, kind)
        return matching_choices(names, current)

    @give.autocomplete("option")
    @command.autocomplete("option")
    @alternative.autocomplete("option")
    async def option_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Offer the choices of the order kind being given."""
        kind = getattr(interaction.namespace, "kind", None)
        if not kind:
            assert interaction.command is not None  # autocompletion is always for a command
            kind = interaction.command.name
        actor = getattr(interaction.namespace, "unit", None)
        options = await self.services.lookups.order_options(
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
        options = await self.services.lookups.order_options(
            place_of(interaction), kind, 1, interaction.user.id, actor
        )
        return matching_choices(options, current)


@app_commands.guild_only()
class OrdersCog(Served, commands.GroupCog, group_name="orders", group_description="Your orders"):
    """Looking at your own orders."""

    @app_commands.command(
        name="all", description="Every side's orders: the last resolved step's (GMs: the open one)"
    )
    async def all_(self, interaction: discord.Interaction) -> None:
        """List every side's orders that the user may see, privately."""
        await reply_with(
            interaction, order_book_text, self.services.order_book.book, ephemeral=True
        )

    @app_commands.command(name="mine", description="Your orders for this step and your plan")
    async def mine(self, interaction: discord.Interaction) -> None:
        """List your orders, privately."""
        await reply_privately(interaction, self.services.play.mine, orders_text)


async def setup(bot: AideBot) -> None:
    """Load the order commands."""
    await bot.add_cog(OrderCog(bot))
    await bot.add_cog(OrdersCog(bot))
