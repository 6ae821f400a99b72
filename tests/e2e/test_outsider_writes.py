"""Every slash command the bot syncs, tried in a running battle by two people with no seat in
its campaign (a member of the server, and another campaign's GM): none of them changes a row.

The commands come from the synced schema, so a new command is tried as soon as it exists; its
required options are filled from the schema with values that make sense in this battle. Only
the commands meant for outsiders (joining, watching an open campaign, and creating a campaign
where there is none) are left out, by name. Reading commands may answer them (whether outsiders
may read a campaign is a campaign setting, not checked here); writing ones must refuse. Every
answer fits Discord's 2,000 characters.
"""

from __future__ import annotations

import json
from typing import Any

from tests.databases import snapshot
from tests.e2e.conftest import MakeHarness
from tools.fake_discord import FakeUser, World
from tools.harness import Harness
from tools.skirmish_battle import RED, set_up_battle

FOR_OUTSIDERS = {
    "campaign join",
    "campaign watch",
    "campaign create",
}  # how someone with no seat gets one
SUBCOMMAND, GROUP = 1, 2


def leaves(commands: list[dict], *, gm_only: bool = False) -> dict[str, list[dict]]:
    """'group sub' path → that command's options, for every command a user can run (with
    gm_only: those of the /gm group and those whose description says "(GMs only)")."""
    found: dict[str, list[dict]] = {}

    def walk(prefix: str, node: dict) -> None:
        options = node.get("options", [])
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            is_gms = prefix.startswith("gm ") or "(GMs only)" in node.get("description", "")
            if is_gms or not gm_only:
                found[prefix] = options
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command)
    return found


def sample(h: Harness, option: dict) -> Any:
    """A plausible value for one option in this battle."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind == 3:
        text = "Red Horse"
        return text[: option.get("max_length", len(text))].ljust(option.get("min_length", 0), "x")
    if kind in (4, 10):
        low = option.get("min_value", 1)
        return max(low, min(1, option.get("max_value", 1)))
    if kind == 5:
        return True
    if kind == 6:
        return h.alice
    if kind == 11:
        return h.upload("army.json", json.dumps(RED), "application/json")
    raise AssertionError(f"no sample for option type {kind} ({option['name']})")


def rows(database_url: str) -> dict[str, list[str]]:
    """Every row of every table."""
    return snapshot(database_url)


async def test_no_command_lets_someone_without_a_seat_change_anything(
    make_aide: MakeHarness,
) -> None:
    world = World()
    other_gm = FakeUser("olga", "Olga of another campaign")
    world.add_member(other_gm, [])
    h = await make_aide(world)
    where = h.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    created = await h.slash(
        other_gm, "campaign create", channel=h.channel("general"), name="Elsewhere",
        ruleset="skirmish",
    )  # fmt: skip
    assert "Elsewhere" in created.text, created

    commands = leaves(h.synced_commands())
    assert len(commands) > 30
    tried = 0
    for user in (h.outsider, other_gm):
        for path, options in sorted(commands.items()):
            if path in FOR_OUTSIDERS:
                continue
            values = {o["name"]: sample(h, o) for o in options if o.get("required")}
            before = rows(h.database_url)
            answer = await h.slash(user, path, channel=where, **values)
            assert rows(h.database_url) == before, f"/{path} by {user.username}: {answer}"
            assert all(len(m.content) <= 2000 for m in answer.messages), (path, answer)
            tried += 1
    print(f"\n{tried} commands tried by someone without a seat; no row changed")


async def test_gm_commands_change_nothing_for_players_and_observers(
    make_aide: MakeHarness,
) -> None:
    """The /gm group and every command described "(GMs only)", by the owning player, another
    player of the same side, the other side and an observer: refused, no row changed."""
    world = World()
    carol, dave = FakeUser("carol", "Carol"), FakeUser("dave", "Dave")
    for user in (carol, dave):
        world.add_member(user, [])
    h = await make_aide(world)
    where = h.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    await h.slash(carol, "campaign join", channel=where, side="Red")
    await h.slash(dave, "campaign join", channel=where)

    commands = leaves(h.synced_commands(), gm_only=True)
    assert "gm end" in commands or "battle end" in commands
    assert len(commands) >= 15
    tried = 0
    for user in (h.alice, carol, h.bob, dave):
        for path, options in sorted(commands.items()):
            values = {o["name"]: sample(h, o) for o in options if o.get("required")}
            before = rows(h.database_url)
            answer = await h.slash(user, path, channel=where, **values)
            assert rows(h.database_url) == before, f"/{path} by {user.username}: {answer}"
            assert answer.ephemeral, (path, user.username, answer)  # a private refusal
            assert all(len(m.content) <= 2000 for m in answer.messages), (path, answer)
            tried += 1
    print(f"\n{tried} GM commands tried by players and an observer; each refused privately")
