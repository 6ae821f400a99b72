"""/army and /roll commands: success paths and refusals, through the real cogs."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import discord
import pytest

from bot.client import AideBot
from bot.services.campaigns import Place
from bot.services.dice import DiceService
from cogs.army import ArmyCog
from cogs.roll import RollCog
from rules_core.dice import Dice
from rules_core.dice_expr import roll_expression
from tests.conftest import ALICE, BOB, GM, OUTSIDER
from tests.discord_mocks import attachment, invoke, make_interaction, reply

ROSTER = {"name": "English Army", "units": [{"name": "Archers", "grade": "B", "stands": 6}]}


@pytest.fixture
async def cog(bot: AideBot, place: Place) -> ArmyCog:
    """The army cog, in a channel whose campaign has Alice (English) and Bob (French)."""
    campaigns = bot.services.campaigns
    await campaigns.create(place, GM, "Agincourt", "tree_of_battles")
    await campaigns.join(place, ALICE, "English")
    await campaigns.join(place, BOB, "French")
    return ArmyCog(bot)


async def import_as(cog: ArmyCog, user: int, roster: object, name: str = "a.json") -> tuple:
    """Run /army import with a JSON attachment and return the reply."""
    interaction = make_interaction(user)
    await invoke(cog.import_, cog, interaction, file=attachment(json.dumps(roster).encode(), name))
    return reply(interaction)


async def test_import_show_list_remove(cog: ArmyCog, place: Place) -> None:
    text, _ = await import_as(cog, ALICE, ROSTER)
    assert text == f"<@{ALICE}> imported **English Army** (1 units)."
    text, _ = await import_as(cog, ALICE, ROSTER)
    assert "updated **English Army**" in text

    show = make_interaction(BOB)
    await invoke(cog.show, cog, show, name="english army")
    _, kwargs = reply(show)
    embed: discord.Embed = kwargs["embed"]
    assert kwargs["ephemeral"] is True
    assert embed.title == "English Army"
    assert embed.description == "1. Archers — grade B, stands 6"

    listing = make_interaction(GM)
    await invoke(cog.list, cog, listing)
    assert reply(listing)[0] == f"**English Army** — <@{ALICE}>, 1 units"

    choices = await cog.name_autocomplete(make_interaction(BOB), "eng")
    assert [c.value for c in choices] == ["English Army"]

    remove = make_interaction(ALICE)
    await invoke(cog.remove, cog, remove, name="English Army")
    view = reply(remove)[1]["view"]
    await view.confirm.callback(make_interaction(ALICE))
    assert await cog.services.armies.names(place) == []


async def test_malformed_roster_refused_with_paths(cog: ArmyCog) -> None:
    bad = {"name": "Bad", "units": [{"name": "X", "grade": "Z"}, {"stands": "many"}]}
    text, kwargs = await import_as(cog, ALICE, bad)
    assert kwargs["ephemeral"] is True
    assert "`units[0].grade: must be one of A, B, C, D`" in text
    assert "`units[1].name: is required`" in text
    assert "`units[1].stands: must be a whole number`" in text


async def test_import_refused_for_non_players(cog: ArmyCog) -> None:
    text, kwargs = await import_as(cog, OUTSIDER, ROSTER)
    assert kwargs["ephemeral"] is True and "Only players with a side" in text


async def test_remove_refused_for_others(cog: ArmyCog) -> None:
    await import_as(cog, ALICE, ROSTER)
    interaction = make_interaction(BOB)
    await invoke(cog.remove, cog, interaction, name="English Army")
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True and "Only the owner of **English Army**" in text
    assert "view" not in kwargs


async def test_show_unknown_army(cog: ArmyCog) -> None:
    interaction = make_interaction(ALICE)
    await invoke(cog.show, cog, interaction, name="Ghosts")
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True and "no army called **Ghosts**" in text


async def test_roll_shows_every_die(bot: AideBot) -> None:
    cog = RollCog(bot)
    cog.services = replace(cog.services, dice=DiceService(random.Random(7)))
    interaction = make_interaction(ALICE)
    await invoke(cog.roll, cog, interaction, expression="6d6>=4", label="Volley")
    text, kwargs = reply(interaction)
    expected = roll_expression(Dice(random.Random(7)), "6d6>=4", "Volley")
    assert text == f"<@{ALICE}> 🎲 {expected.describe()}"
    assert len(re.findall(r"\d", text.split("(", 1)[1].split(")")[0])) == 6
    assert not kwargs.get("ephemeral")


@pytest.mark.parametrize(
    ("expression", "reason"),
    [("101d6", "at most 100 dice"), ("2x6", ""), ("", ""), ("4d6kh5", "")],
)
async def test_roll_refuses_malformed(bot: AideBot, expression: str, reason: str) -> None:
    cog = RollCog(bot)
    interaction = make_interaction(ALICE)
    await invoke(cog.roll, cog, interaction, expression=expression, label="Roll")
    text, kwargs = reply(interaction)
    assert kwargs["ephemeral"] is True
    assert text.startswith(f"Cannot roll `{expression}`: ") and reason in text


def test_map_options_from_the_command() -> None:
    from bot.db.models import BattleStatus
    from bot.errors import InvalidInput
    from bot.services.battle_state import BattleView
    from bot.services.battle_state import SideView as Seat
    from cogs.battle import map_options
    from rules_core.rulesets.skirmish.sample import sample_battle

    state = sample_battle()
    view = BattleView(
        1, "Ford", "C", "skirmish", BattleStatus.RUNNING, 2, "0" * 64, 1, None,
        (Seat("red", "Red", ALICE, "Red Host"), Seat("blue", "Blue", BOB, "Blue Host")),
        state, "Movement", (), (GM,),
    )  # fmt: skip
    options = map_options(view, ALICE, "30,20 10,5", "Red Archers", "range", True)
    assert options.area == (10.0, 5.0, 30.0, 20.0)
    assert options.reach is not None and (options.reach.unit, options.reach.kind) == ("r2", "range")
    assert options.side_view is not None and options.side_view.side == "red"
    assert map_options(view, GM, None, None, "move", False).side_view is None
    with pytest.raises(InvalidInput, match="two corners"):
        map_options(view, ALICE, "1,2 3,4 5,6", None, "move", False)
    with pytest.raises(InvalidInput, match="no side"):
        map_options(view, GM, None, None, "move", True)
