"""The permission matrix's player-versus-player write cells: on a Hail Caesar side shared by
two players (Alice commands the legion, Oscar the horse) and against Gaul's player (Bob),
another player of the same side and a player of the other side try to change what is Alice's:
her army, her order for the open step, her order planned for a later step, her standing
instruction, and her answer to the question the dice put to her. Every attempt goes through the
real bot; each is refused privately and changes no row of the database.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.sheet_battle import confirm, give, question, reports, start
from tests.e2e.test_deferred_replies import first_response_before_work
from tests.e2e.test_hail_caesar_shared_side import assign_divisions
from tests.e2e.test_hail_caesar_turn import BATTLE, ROMANS, set_up
from tests.e2e.test_outsider_writes import rows
from tests.e2e.test_plan_ahead import step_keys
from tools.fake_discord import FakeUser
from tools.harness import Harness, InteractionResult

pytestmark = pytest.mark.usefixtures("fixed_seed")
cells: list[tuple[str, str, str]] = []  # (what of Alice's, who tried, command)


async def refused_cell(
    h: Harness, db: str, what: str, user: FakeUser, command: str, **options: Any
) -> InteractionResult:
    """A command by someone not Alice, aimed at something of hers: refused privately, no row
    changed (a confirmation it asks for is pressed, and must change nothing either)."""
    where = h.channel("punic-wars")
    before = rows(db)
    tried = await h.slash(user, command, channel=where, **options)
    buttons = [c.get("label") for c in tried.message.interactive] if tried.message else []
    if "Confirm" in buttons:
        tried = await h.click(user, tried, label="Confirm")
    assert rows(db) == before, (what, user.username, command, tried)
    shown = [m for m in tried.messages if not m.deleted]
    assert shown and all(m.ephemeral for m in shown), (what, user.username, command, tried)
    assert not tried.text.startswith(("✅", "🗓️", "Something went wrong")), tried
    cells.append((what, user.username, command))
    return tried


async def test_no_player_changes_another_players_army_orders_plans_or_answers(
    aide: Harness,
) -> None:
    h, db, where = aide, aide.database_url, aide.channel("punic-wars")
    alice, oscar, bob = h.alice, h.outsider, h.bob
    others = {"same side": oscar, "other side": bob}
    await set_up(h)
    await assign_divisions(h)
    await start(h, where, BATTLE, bytes(range(32)))
    await confirm(h, where, BATTLE, alice, bob, oscar)  # deployment
    await confirm(h, where, BATTLE, alice, oscar)  # the General Advance
    keys = await step_keys(h, alice)

    # Her army: neither removed nor replaced by a file of the same name.
    copy = {"name": ROMANS, "units": [{"name": "Impostors"}]}
    for user in others.values():
        await refused_cell(h, db, "army", user, "army remove", name=ROMANS)
        upload = h.upload("legio.json", json.dumps(copy))
        await refused_cell(h, db, "army", user, "army import", file=upload)

    # Her order for the open step (the legion's): not changed, replaced nor withdrawn.
    moved = await give(h, alice, where, "move", "First Cohort", x=5, y=12)
    assert moved.startswith('moves 6" to (5, 12)')
    for user in others.values():
        await refused_cell(h, db, "order", user, "order move", unit="First Cohort", x=6, y=12)
        await refused_cell(h, db, "order", user, "order give", kind="hold", unit="First Cohort")
        await refused_cell(h, db, "order", user, "order withdraw", unit="First Cohort")
    # Oscar may say he is done, but that does not confirm the legion's step for Alice.
    done = await h.slash(oscar, "order done", channel=where)
    assert done.content == f"Confirmed. Still waiting for Rome ({alice.mention}).", done

    # Her answer: the legate's re-roll is hers to take or not.
    await confirm(h, where, BATTLE, alice)
    asked = question(h, where)
    for user in others.values():
        await refused_cell(h, db, "answer", user, "answer", answer="keep the result")
        before = rows(db)
        clicked = await h.click(user, asked, label="keep the result")
        assert rows(db) == before and clicked.ephemeral, (user.username, clicked)
        assert question(h, where) is asked and asked.interactive, "the question still waits"
        cells.append(("answer", user.username, "question button"))
    answered, wrote = await first_response_before_work(
        h, db, alice, "answer", "punic-wars", answer="keep the result"
    )  # deferred before the answer resolves the step
    assert wrote and answered.type == 5 and not answered.ephemeral, answered
    assert answered.content == f"{alice.mention} answered: **keep the result**.", answered
    assert "Resolved: answered" in reports(h, where, BATTLE)[-1].text

    # Her plan for a later step (her archers' shooting) and her standing instruction.
    planned = await h.slash(
        alice, "order shoot", channel=where, unit="Cretan Archers", target="Slingers",
        step=keys["Shooting"],
    )  # fmt: skip
    assert planned.content.startswith("🗓️ Planned for **Shooting**"), planned
    standing = await h.slash(alice, "standing set", channel=where, topic="reroll", choice="keep")
    assert standing.ephemeral and not standing.content.startswith("Something"), standing
    for user in others.values():
        shooting = {"step": keys["Shooting"]} if user is oscar else {}
        await refused_cell(h, db, "plan", user, "order withdraw", unit="Cretan Archers",
                           **shooting)  # fmt: skip
        await refused_cell(h, db, "plan", user, "order shoot", unit="Cretan Archers",
                           target="Slingers", step=keys["Shooting"])  # fmt: skip
        await refused_cell(h, db, "standing", user, "standing clear", unit="Cretan Archers")
        await refused_cell(h, db, "standing", user, "standing clear", side="Rome")
        await refused_cell(h, db, "standing", user, "standing set", topic="reroll",
                           choice="re-roll", side="Rome")  # fmt: skip

    mine = await h.slash(alice, "orders mine", channel=where)
    assert "**Cretan Archers** (shoot)" in mine.content, mine
    kinds = sorted({what for what, _, _ in cells})
    print(f"\n{len(cells)} player-versus-player write cells ({', '.join(kinds)}; same side and "
          "other side) refused privately, no row changed")  # fmt: skip
