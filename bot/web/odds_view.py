"""The odds beside a judged order on the war table: what ``/odds`` answers for a charge or a
shot as it is aimed, in ``/odds``'s own words, on what the reader may see.

Shape: ``{"odds": {"title", "lines": [[label, percent], ...], "assumes"}}``, where a line with
no percent is a table's title (the rows under it are its results); ``{}`` when the order has no
odds.
"""

from __future__ import annotations

from typing import Any

from bot.presentation.odds import assumptions, chance_rows
from rules_core.odds import Odds


def odds_json(odds: Odds) -> dict[str, Any]:
    """The odds as the page shows them: each table's title, then its results and chances."""
    lines: list[list[str]] = []
    for table in odds.tables:
        lines.append([table.title, ""])
        lines += [[label, chance] for label, chance in chance_rows(table)]
    return {"title": odds.title, "lines": lines, "assumes": "\n".join(assumptions(odds))}
