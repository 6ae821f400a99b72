"""The map tells the page how its pixels map to the table, so a click becomes a point."""

from __future__ import annotations

import re

import pytest

from bot.rendering.replay import Frame
from bot.services.battle_state import rules_of
from bot.web.drawing import table_svg
from rules_core.big_battles import big_battle

MAPPING = re.compile(r'<svg [^>]*data-table="([^"]+)"')
BODY = re.compile(r'<g class="unit" data-owner="([^"]+)"[^>]*>.*?<polygon points="([^"]+)"')


def test_each_unit_drawn_maps_back_to_where_it_stands() -> None:
    state = big_battle(rules_of("skirmish"), 12)
    svg = table_svg(Frame(state))
    found = MAPPING.search(svg)
    assert found is not None, svg[:300]
    x0, y0, scale = map(float, found[1].split())
    drawn = dict(BODY.findall(svg))
    assert set(drawn) == {unit.id for unit in state.units}
    for unit in state.units:
        corners = [tuple(map(float, p.split(","))) for p in drawn[unit.id].split()]
        px = sum(c[0] for c in corners) / len(corners)
        py = sum(c[1] for c in corners) / len(corners)
        # What orders.js does with a click: the table's y grows up, the SVG's down.
        assert (x0 + px / scale, y0 - py / scale) == pytest.approx((unit.x, unit.y), abs=0.05)
