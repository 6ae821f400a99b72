"""A unit off the table through Discord: a GM takes it off and puts it back; the battle card
lists it by side with where and when it left, and it is not lost when the battle ends."""

from __future__ import annotations

import pytest

from tools.harness import Harness
from tools.skirmish_battle import BATTLE, CAMPAIGN, field, refused, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
LEFT = "Off the table: Red Horse (left turn 0 near (32, 10))"


async def test_a_unit_off_the_table_is_listed_and_not_lost(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)

    offered = await h.autocomplete(h.gm, "gm off-table", "unit", channel=where, unit="horse")
    assert "Red Horse" in [c["value"] for c in offered]
    taken = await h.slash(
        h.gm, "gm off-table", channel=where, unit="Red Horse", reason="pursues off the table"
    )
    assert not taken.ephemeral
    assert f"{h.gm.mention} took **Red Horse** off the table: pursues off the table" in taken.text
    assert "After: off the table" in taken.text

    card = await h.slash(h.alice, "battle status", channel=where)
    red = field(card, "Red")
    assert red.splitlines()[-1] == LEFT
    assert "Off the table" not in field(card, "Blue")
    assert card.embeds[0]["footer"]["text"].startswith("5 units on the table")
    shown = await h.slash(h.bob, "battle map", channel=where)
    assert shown.files and shown.files[0].filename.endswith(".png")

    # Refusals: privately, saying why.
    only_gm = await refused(h, h.alice, where, "gm off-table", unit="Red Spearmen", reason="x")
    assert only_gm == f"Only a GM of **{CAMPAIGN}** can do that; `/campaign info` names its GMs."
    twice = await refused(h, h.gm, where, "gm off-table", unit="Red Horse", reason="again")
    assert twice == "**Red Horse** is not on the table (off the table)."
    standing = await refused(
        h, h.gm, where, "gm on-table", unit="Red Archers", at="20,10", reason="back"
    )
    assert standing == "**Red Archers** is on the table already; move it with `/gm move`."
    far = await refused(h, h.gm, where, "gm on-table", unit="Red Horse", at="99,10", reason="x")
    assert far == "(99, 10) is off the table."

    back_offered = await h.autocomplete(h.gm, "gm on-table", "unit", channel=where, unit="")
    assert [c["value"] for c in back_offered] == ["Red Horse"]
    back = await h.slash(
        h.gm, "gm on-table", channel=where, unit="Red Horse", at="30,11", reason="returns"
    )
    assert "put **Red Horse** back on the table: returns" in back.text
    assert "Before: off the table\nAfter: (30, 11) facing 0°" in back.text
    card = await h.slash(h.alice, "battle status", channel=where)
    assert "Off the table" not in field(card, "Red")

    await h.slash(h.gm, "gm off-table", channel=where, unit="Red Horse", reason="pursues again")
    asked = await h.slash(h.gm, "battle end", channel=where, reason="dusk", winner="Blue")
    await h.click(h.gm, asked, label="Confirm")
    ending = h.messages(where)[-1]
    assert ending.embeds[0]["title"] == f"🏁 {BATTLE}: Blue wins: dusk"
    assert field(ending, "Losses") == "Red Host lost nothing.\nBlue Host lost nothing."
    army = await h.slash(h.alice, "army show", channel=where, name="Red Host")
    assert "3. Red Horse — type cavalry" in army.text.splitlines()
    assert "destroyed" not in army.text
