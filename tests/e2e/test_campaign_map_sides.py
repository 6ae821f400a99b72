"""/campaign map import through Discord refuses a map whose sides are not the campaign's
(#33 item 7): privately, naming both sets of sides and the file's keys, and storing nothing."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_campaign_map import campaign_with_armies, imported
from tools.harness import Harness

SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "campaign_map" / "marches.yaml"


async def test_a_map_of_england_and_wales_is_refused_by_red_and_blue(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await campaign_with_armies(h, where)  # Alice joined Red, Bob Blue
    before = len(h.messages(where))
    refused = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("marches.yaml", SAMPLE.read_bytes()),
    )  # fmt: skip
    assert refused.ephemeral and not refused.files
    assert refused.text.startswith(
        "`marches.yaml` does not fit **Border Raids**: the map's sides are **England** and "
        "**Wales**; the campaign's are **Red** and **Blue**. Nothing was imported.\n"
    )
    assert "• **England** (regions[0].holder (Chester), regions[3].holder (Shrewsbury), " in (
        refused.text
    )
    assert "Rename each `holder:` in the file to one of the campaign's sides" in refused.text
    assert [m for m in h.messages(where)[before:] if not m.ephemeral] == []
    shown = await h.slash(h.alice, "campaign map show", channel=where)
    assert shown.ephemeral and "has no campaign map yet" in shown.text

    # Renamed to the campaign's sides, the same file imports.
    renamed = SAMPLE.read_text(encoding="utf-8").replace("England", "Red")
    fixed = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("marches.yaml", renamed.replace("Wales", "Blue")),
    )  # fmt: skip
    assert (
        not fixed.ephemeral
        and "**The Welsh Marches**: 7 regions, 6 held (by **Red**, **Blue**)" in fixed.text
    )
    await imported(h, where)  # and a map of Red and Blue replaces it
