"""Every command, from the synced schema, given bad values: a refusal is private and says
what would be accepted.

In a running battle, each command is sent by a player (Alice) with every option it has
filled with a value it cannot take (`zzz` for text, an outsider for a member, a junk file,
the lowest number the client allows). A command that refuses must answer only Alice, and
its answer must point at what it would take: a value, a form, a list or a command to use.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_outsider_writes import leaves
from tools.fake_discord import FakeUser
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")

# What a refusal says when it shows what would be accepted: a command to run, a list of what
# there is, a form with an example, a range, or what a value must be. (Any code span, or
# words such as "only", "use" or "another", passed before: "Only a GM … can do that" did.)
SAYS_WHAT = re.compile(
    r"`/|: [^.]+, [^.]+|still to come: |\bone of\b|\be\.g\.|for example|such as|\btry\b"
    r"|\bfrom -?\d|\bbetween\b|at most|at least|\bmust be\b|\bis commanded by\b"
    r"|\bwrite it as\b",
    re.IGNORECASE,
)


def bad_value(h: Harness, option: dict) -> Any:
    """A value the client lets through but the command cannot take."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind == 3:
        return "zzz".ljust(option.get("min_length", 0), "z")
    if kind in (4, 10):
        return option.get("min_value", -1)
    if kind == 5:
        return False
    if kind == 6:
        return h.outsider
    if kind == 11:
        return h.upload("junk.txt", "zzz")
    raise AssertionError(f"no bad value for option type {kind}")


async def walk(h: Harness, user: FakeUser, paths: dict[str, list[dict]]) -> dict[str, str]:
    """Send each command with bad values as ``user``; the refusals that say nothing of what
    would be taken (each refusal must reach only ``user``)."""
    where = h.channel("hundred-years")
    errors: list[Any] = []
    tree = h.bot.tree  # type: ignore[union-attr]
    handler = tree.on_error

    async def watched(interaction: Any, error: Exception) -> None:
        errors.append(error)
        await handler(interaction, error)

    tree.on_error = watched
    vague: dict[str, str] = {}
    try:
        for path, options in sorted(paths.items()):
            values = {o["name"]: bad_value(h, o) for o in options}
            before = len(errors)
            answer = await h.slash(user, path, channel=where, options=values)
            if len(errors) == before:
                continue  # taken (these values suit it) or asked to confirm
            shown = [m for m in answer.messages if not m.deleted]
            assert shown and all(m.ephemeral for m in shown), (path, answer)
            if not SAYS_WHAT.search(answer.text):
                vague[path] = answer.text
    finally:
        tree.on_error = handler
    print("\n".join(f"{p}: {t}" for p, t in vague.items()))
    return vague


async def test_every_refusal_is_private_and_says_what_would_do(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    assert await walk(h, h.alice, leaves(h.synced_commands())) == {}


async def test_every_gm_commands_refusal_to_the_gm_says_what_would_do(aide: Harness) -> None:
    """The GM's own commands with bad values (the walk above meets only 'GMs only')."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    assert await walk(h, h.gm, leaves(h.synced_commands(), gm_only=True)) == {}
