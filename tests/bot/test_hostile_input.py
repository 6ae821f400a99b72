"""Hypothesis over what users type and attach: every refusal is specific and deliverable.

Files (random JSON/YAML-ish bytes and generated bombs), positions, zoom areas, status values
and reminder lists go through the real parsers; the only way out is a value in bounds or an
``InvalidInput`` whose message fits in a Discord message.
"""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.errors import InvalidInput, UserError
from bot.services.armies import parse_roster
from bot.services.campaigns import _deadline_changes
from bot.services.data_files import MAX_DEPTH, MAX_NUMBER_CHARS
from bot.services.gm import MAX_STATUS_NUMBER, parse_value
from bot.services.settings import DeadlinePolicy, validated
from bot.services.shapes import parse_point, zoom_area
from rules_core.state import Battlefield

LIMIT = 2000
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIELD = Battlefield(48.0, 36.0, "inch", 25.4)
CORNERS = r"-?\d{1,6}(\.\d{1,4})?,-?\d{1,6}(\.\d{1,4})? -?\d{1,6},-?\d{1,6}"


def within_bounds(value: object, depth: int = 0) -> bool:
    """Whether a parsed document keeps to the limits: shallow, finite, short numbers."""
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, dict):
        return all(within_bounds(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(within_bounds(v, depth + 1) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return len(str(abs(value))) <= MAX_NUMBER_CHARS
    return True


def bomb(kind: str, size: int) -> bytes:
    """A hostile file of one kind, scaled by size."""
    if kind == "deep":
        return b"[" * size * 50 + b"]" * size * 50
    if kind == "number":
        return b'{"n": ' + b"7" * size * 100 + b"}"
    if kind == "alias":
        lines = ["a: &a [x, x, x, x]"] + [f"b{i}: &b{i} [*a, *a, *a]" for i in range(size)]
        return "\n".join(lines).encode()
    return b"- " * size * 30 + b"x"


@FAST
@given(
    content=st.one_of(
        st.binary(max_size=2000),
        st.recursive(
            st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=20),
            lambda children: (
                st.lists(children, max_size=4)
                | st.dictionaries(st.text(max_size=8), children, max_size=4)
            ),
            max_leaves=60,
        ).map(lambda v: json.dumps(v, allow_nan=True).encode()),
        st.tuples(st.sampled_from(["deep", "number", "alias", "yaml"]), st.integers(1, 40)).map(
            lambda t: bomb(*t)
        ),
    ),
    filename=st.sampled_from(["a.json", "a.yaml", "a.yml", "a.txt", "x" * 500 + ".json"]),
)
def test_any_file_parses_within_bounds_or_is_refused_deliverably(
    content: bytes, filename: str
) -> None:
    try:
        parsed = parse_roster(content, filename)
    except InvalidInput as refusal:
        assert 0 < len(refusal.message) <= LIMIT
        return
    assert within_bounds(parsed)


@FAST
@given(st.text(max_size=80))
def test_any_status_value_is_bounded_or_refused(text: str) -> None:
    try:
        value = parse_value(text)
    except InvalidInput as refusal:
        assert "status number" in refusal.message
        return
    if isinstance(value, int | float) and not isinstance(value, bool):
        assert math.isfinite(value) and abs(value) <= MAX_STATUS_NUMBER


@FAST
@given(
    st.text(max_size=60)
    | st.from_regex(
        r"-?\d{1,6}(\.\d{1,4})?,-?\d{1,6}(\.\d{1,4})? -?\d{1,6},-?\d{1,6}", fullmatch=True
    )
)
def test_any_zoom_is_inside_the_table_and_drawable_or_refused(text: str) -> None:
    try:
        x0, y0, x1, y1 = zoom_area(text, FIELD)
    except InvalidInput as refusal:
        assert len(refusal.message) <= LIMIT
        return
    assert 0 <= x0 < x1 <= FIELD.width and 0 <= y0 < y1 <= FIELD.depth
    assert min(x1 - x0, y1 - y0) >= FIELD.width / 12


@FAST
@given(st.text(max_size=60))
def test_any_position_is_finite_or_refused(text: str) -> None:
    try:
        x, y = parse_point(text)
    except InvalidInput as refusal:
        assert len(refusal.message) <= LIMIT
        return
    assert math.isfinite(x) and math.isfinite(y)


@FAST
@given(st.text(max_size=40))
def test_any_reminder_list_is_bounded_or_refused(text: str) -> None:
    try:
        changes = _deadline_changes(None, text, None, None)
        policy = validated(DeadlinePolicy, changes)
    except UserError as refusal:
        assert len(refusal.message) <= LIMIT
        return
    assert all(0 < h <= 1440 and math.isfinite(h) for h in policy.reminder_hours)
