"""A unit's card on the war table: its sheet (``/battle unit``'s words), its badges explained as
the map's legend explains them, and its orders this step when it is the reader's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.rendering.badges import badges_for, shown
from bot.services.intake import OrderView
from bot.services.unit_sheet import UnitSheet, sheet_of
from rules_core.secrets import Viewer
from rules_core.state import BattleState, Unit
from rules_core.status import StatusSheet


def profile_words(sheet: UnitSheet) -> list[str]:
    """The unit's profile as lines: type, quality, size, footprint, then the roster's values."""
    lines = [
        f"{sheet.type} ({sheet.quality})" if sheet.quality else sheet.type,
        ", ".join(
            w
            for w in (f"{sheet.stands} stand{'s' if sheet.stands != 1 else ''}", sheet.formation)
            if w
        ),
        f"{sheet.frontage:g} × {sheet.depth:g} {sheet.measure}",
    ]
    lines += [f"{key}: {value}" for key, value in sheet.profile]
    return [line for line in lines if line]


def badge_words(unit: Unit, ruleset: str) -> list[dict[str, str]]:
    """Each badge the map draws on the unit, with the legend's words for it."""
    status = {"formation": unit.formation, **unit.status}
    found = []
    for badge, value in shown(status, badges_for(ruleset)):
        word = badge.text(value)
        if word is not None:
            found.append({"word": word, "meaning": badge.meaning})
    return found


def order_lines(orders: Iterable[OrderView], unit_id: str) -> list[str]:
    """The reader's orders for this unit: this step's, then those planned for later steps."""
    return [
        f"{o.summary} ({o.step})" if o.step else o.summary for o in orders if o.unit_id == unit_id
    ]


def unit_card(
    state: BattleState,
    unit: Unit,
    statuses: StatusSheet,
    sides: Mapping[str, str],
    viewer: Viewer,
    orders: Sequence[OrderView] = (),
) -> dict[str, Any]:
    """One unit's card as JSON-ready data, from a state the viewer may see."""
    sheet = sheet_of(state, unit, statuses, sides, viewer)
    return {
        "id": unit.id,
        "name": sheet.name,
        "side": unit.side,
        "side_name": sheet.side_name,
        "group": sheet.group_name,
        "profile": profile_words(sheet),
        "status": list(sheet.status),
        "badges": badge_words(unit, state.ruleset),
        "leaders": list(sheet.leaders),
        "secret": list(sheet.secret),
        "orders": order_lines(orders, unit.id),
        "at": f"{sheet.x:g}, {sheet.y:g} facing {sheet.facing:g}°",
        "xy": [sheet.x, sheet.y],  # where the page's order lines start
        "base": [sheet.frontage, sheet.depth, sheet.facing],  # the aiming ghost's footprint
    }
