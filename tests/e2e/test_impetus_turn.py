"""Impetus through Discord: two players and a GM, the sample army files, the pre-battle
procedure played as set-up steps by the players' orders, then one full turn of command
activations: initiative questions (one side answering by hand, the other by a standing
instruction), moves given in the open step and one planned ahead for a later activation of
the turn; the GM ends the battle and its record verifies. The seed is fixed (``fixed_seed``).
"""

from __future__ import annotations

from importlib.resources import files

import pytest

from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from rules_core import registry
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group
from tests.e2e.sheet_battle import (
    end_and_verify,
    full_log,
    posts,
    question,
    reports,
    start,
    typed_options,
)
from tools.fake_discord.world import FakeChannel, FakeUser
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Gergovia"
ARMIES = files("rules_core.rulesets.impetus").joinpath("armies")
ROME, GAUL = "Caesar's Legions", "The Arverni and their allies"


def impetus() -> Rules:
    found = registry.get("impetus").rules
    assert found is not None
    return found


async def set_up(h: Harness, where: FakeChannel) -> None:
    """Campaign, Rome and Gaul, the sample army files and the battle, at 40 mm an H."""
    created = await h.slash(h.gm, "campaign create", channel=where, name="Gallic War",
                            ruleset="impetus")  # fmt: skip
    assert "(`impetus`)" in created.text
    await h.slash(h.alice, "campaign join", channel=where, side="Rome")
    await h.slash(h.bob, "campaign join", channel=where, side="Gaul")
    for user, name, army in ((h.alice, "romans", ROME), (h.bob, "gauls", GAUL)):
        upload = h.upload(f"{name}.json", ARMIES.joinpath(f"{name}.json").read_bytes())
        imported = await h.slash(user, "army import", channel=where, file=upload)
        assert imported.content.startswith(f"{user.mention} imported **{army}**"), imported
    made = await h.slash(h.gm, "battle create", channel=where, name=BATTLE, army_a=ROME,
                         army_b=GAUL, scale=40)  # fmt: skip
    assert made.embeds[0]["title"] == f"{BATTLE} (setup)", made.text


async def view(h: Harness, where: FakeChannel) -> BattleView:
    services = h.bot.services  # type: ignore[union-attr]
    return await services.battles.view(Place(h.world.guild_id, where.id))


async def play_stage(
    h: Harness, where: FakeChannel, users: dict[str, FakeUser], planned: str = ""
) -> list[str]:
    """Answer the open question with its default, or give every waiting side the script's
    orders (none in the command's Movement step ``planned`` for: its orders are in) and
    confirm; the log lines of what resolved."""
    rules = impetus()
    current = await view(h, where)
    state = current.state
    before = len(reports(h, where, BATTLE))
    if state.pending is not None:
        for decision in state.pending.open:  # questions asked together: each its own post
            asked = next(
                m for m in posts(h, where)
                if decision.question in m.content
                and any(c.get("custom_id", "").startswith("decide:") for c in m.interactive)
            )  # fmt: skip
            label = next(o.label for o in decision.options if o.id == decision.default)
            await h.click(users[decision.who], asked, label=label)
    else:
        waiting = [side for side, user in users.items() if user.id in current.waiting_for]
        assert waiting, state.cursor
        subject = state.cursor.subject
        done = state.cursor.step == "move" and subject is not None and subject.id == planned
        for side in [] if done else waiting:
            for order in rules.demo_orders(state, side):
                name, given = typed_options(rules, state, order)
                await h.slash(users[side], "order give", channel=where, kind=order.kind,
                              unit=name, **given)  # fmt: skip
        for side in waiting:
            await h.slash(users[side], "order done", channel=where)
    posted = reports(h, where, BATTLE)
    return [line for m in posted[before:] for line in full_log(m)]


async def later_movement(
    h: Harness, where: FakeChannel, state: BattleState
) -> tuple[Group, str, str] | None:
    """In a Roman command's Movement step with no question open, a Roman command that has not
    activated yet, the name of its Movement step and the value ``/order give step:`` offers for
    it (checked against the autocomplete); None at other times."""
    subject = state.cursor.subject
    if state.pending is not None or state.cursor.step != "move" or subject is None:
        return None
    if subject.side != "a":
        return None
    later = [
        g for g in state.groups
        if g.side == "a" and g.kind == "command" and g.id != subject.id
        and not g.status.get("activated")
    ]  # fmt: skip
    if not later:
        return None
    steps = await h.autocomplete(h.alice, "order give", "step", channel=where, step="")
    wanted = f"Movement — {later[0].name}"
    found = [c for c in steps if c["name"] == wanted]
    assert found, [c["name"] for c in steps]
    return later[0], wanted, found[0]["value"]


async def test_the_pre_battle_and_a_turn_of_impetus_through_discord(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    users = {"a": h.alice, "b": h.bob}  # Rome is side a, Gaul side b
    # Gaul names its command for every initiative contest by a standing instruction.
    standing = await h.slash(h.bob, "standing set", channel=where, topic="initiative_command",
                             choice="strongest")  # fmt: skip
    assert standing.ephemeral, standing

    published, _ = await start(h, where, BATTLE, fixed_seed)

    # The pre-battle procedure: set-up steps played by the players' orders and answers.
    log: list[str] = []
    for _ in range(60):
        if (await view(h, where)).state.cursor.turn >= 1:
            break
        log += await play_stage(h, where, users)
    else:
        pytest.fail("the set-up did not end")
    state = (await view(h, where)).state
    assert all(u.location == "table" for u in state.units)
    assert {side.status.get("role") for side in state.sides} == {"attacker", "defender"}
    assert any("is placed on the table" in line for line in log), log[:20]
    assert any("is deployed at" in line for line in log)

    # Turn 1: the initiative question for Rome (Gaul's is answered by its instruction).
    asked_rome = False
    planned, planned_for, planned_unit = False, "", ""
    for _ in range(80):
        current = await view(h, where)
        state = current.state
        if state.cursor.turn >= 2:
            break
        pending = state.pending
        if pending is not None and pending.decision.topic == "initiative_command":
            assert pending.decision.who == "a"  # Gaul's instruction answered its own
            asked = question(h, where)
            assert asked.content.startswith(f"{h.alice.mention}: Rome: which command"), asked
            assert "the command nearest the enemy" in [c["label"] for c in asked.interactive]
            intruder = await h.click(h.bob, asked, label="the command nearest the enemy")
            assert intruder.ephemeral and "not yours to answer" in intruder.content
            asked_rome = True
        # Plan ahead: a move for the Roman command that has not yet activated.
        later = None if planned else await later_movement(h, where, state)
        if later is not None:
            command, wanted, step = later
            mover = next(u for u in state.units_on_table if u.group == command.id)
            given = await h.slash(h.alice, "order give", channel=where, kind="move",
                                  unit=mover.name, option="forward", number=1,
                                  step=step)  # fmt: skip
            assert given.ephemeral and given.content.startswith(
                f"🗓️ Planned for **{wanted}** — **{mover.name}**"
            ), given.content
            planned_unit, planned_for = mover.name, command.id
            planned = True
        log += await play_stage(h, where, users, planned_for)
    else:
        pytest.fail("turn 1 did not end")

    assert asked_rome and planned
    assert any("answered by standing instruction" in line for line in log), log
    assert any(line.startswith("Initiative of ") for line in log)
    assert any(line.startswith(f"{planned_unit} moves 1 H") for line in log), log
    assert "— Turn 1: End of turn —" in log

    ending, _ = await end_and_verify(h, where, BATTLE, fixed_seed, published, "impetus")
    assert ending.embeds[0]["title"] == f"🏁 {BATTLE}: A draw: one turn played"
