"""Impetus groups through Discord: the legions deployed side by side are a group, listed in
`/battle status`; a player moves the group with `/order give kind:group_move` naming one
legion, the preview names the group, and both legions move; a sideways group move of foot
is refused with the reason."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus.status import GROUP_NO
from tests.e2e.sheet_battle import start
from tests.e2e.test_impetus_turn import BATTLE, play_stage, set_up, view
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_a_group_of_legions_moves_as_one_through_discord(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    users = {"a": h.alice, "b": h.bob}
    await start(h, where, BATTLE, fixed_seed)
    for _ in range(120):
        state = (await view(h, where)).state
        subject = state.cursor.subject
        if (
            state.pending is None
            and state.cursor.turn >= 1
            and state.cursor.step == "move"
            and subject is not None
            and subject.id.endswith("_caesar")
        ):
            break
        await play_stage(h, where, users)
    else:
        pytest.fail("Caesar's command never came to move")

    shown = await h.slash(h.alice, "battle status", channel=where)
    assert "G1 line: Legio X, Legio IX" in shown.text, shown.text

    # The option offers only the manoeuvres the Group Move row allows the legions (FP: no
    # sideways or backwards), and nothing for a unit standing alone.
    offered = await h.autocomplete(h.alice, "order give", "option", channel=where,
                                   kind="group_move", unit="Legio X", option="")  # fmt: skip
    assert [c["value"] for c in offered] == ["forward", "wheel"], offered
    legion = next(u for u in state.units if u.name == "Legio X")
    alone = next(u for u in state.units_on_table if u.side == legion.side and not GROUP_NO.of(u))
    nothing = await h.autocomplete(h.alice, "order give", "option", channel=where,
                                   kind="group_move", unit=alone.name, option="")  # fmt: skip
    assert nothing == [], nothing

    refused = await h.slash(h.alice, "order give", channel=where, kind="group_move",
                            unit="Legio X", option="sideways", option2="left",
                            number=1)  # fmt: skip
    assert refused.ephemeral
    assert "a sideways is not a group move for Legio X (FP) (only S, CL, CM)" in refused.text

    given = await h.slash(h.alice, "order give", channel=where, kind="group_move",
                          unit="Legio IX", option="forward", number=1)  # fmt: skip
    assert given.ephemeral and "group G1 line: Legio X, Legio IX: forward 1H" in given.text, (
        given.text
    )
    before = {u.name: u.y for u in state.units}
    await h.slash(h.alice, "order done", channel=where)
    after = {u.name: u.y for u in (await view(h, where)).state.units}
    assert after["Legio X"] == pytest.approx(before["Legio X"] + 1)
    assert after["Legio IX"] == pytest.approx(before["Legio IX"] + 1)
