"""/battle unit: one unit's profile, status in words and position, privately."""

from __future__ import annotations

from tools.harness import Harness
from tools.skirmish_battle import set_up_battle


async def test_a_unit_in_words_with_its_status(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    offered = await aide.autocomplete(aide.bob, "battle unit", "name", channel=where, name="arch")
    assert [c["name"] for c in offered] == ["Red Archers"]
    shown = await aide.slash(aide.bob, "battle unit", channel=where, name=offered[0]["value"])
    assert shown.ephemeral
    lines = shown.text.splitlines()
    assert lines[:2] == [
        "**Red Archers** (`a2`) — Red",
        "archers, B; 2 stand(s), in line; 4 × 2 inch",
    ]
    assert "At (24, 10), facing 0°" in lines
    assert "Status: nothing marked" in lines
    assert any(line.startswith("Profile: ") and "stamina 2" in line for line in lines), lines

    await aide.slash(aide.gm, "battle start", channel=where)
    await aide.slash(
        aide.gm, "gm set", channel=where, unit="Red Archers", field="disordered", value="true",
        reason="fled the wasps",
    )  # fmt: skip
    await aide.slash(
        aide.gm, "gm set", channel=where, unit="Red Archers", field="wounds", value="1",
        reason="a stray arrow",
    )  # fmt: skip
    marked = await aide.slash(aide.alice, "battle unit", channel=where, name="red archers")
    assert "Status: wounds: 1; disordered" in marked.text.splitlines(), marked.text


async def test_unit_refusals_are_private_and_name_what_is_there(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    unknown = await aide.slash(aide.alice, "battle unit", channel=where, name="Nobody")
    assert unknown.ephemeral and "**Nobody**" in unknown.text
    assert unknown.text.endswith("; one of: **Blue Riders**, **Blue Slingers**, **Blue Warriors**, "
                                 "**Red Archers**, **Red Horse**, **Red Spearmen**.")  # fmt: skip
    nowhere = await aide.slash(aide.alice, "battle unit", channel=aide.channel("general"), name="x")
    assert nowhere.ephemeral and "no campaign in this channel" in nowhere.text
