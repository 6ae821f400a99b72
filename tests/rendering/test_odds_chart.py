"""The odds chart: a PNG with a panel per table, and the README's example kept fresh."""

from __future__ import annotations

import io
from fractions import Fraction

from PIL import Image

from bot.rendering.odds_chart import chart, percent
from rules_core.odds import Chance, Odds, OddsTable
from tools.odds_sample import NAME, OUT, sample_chart


def test_a_chart_grows_with_its_results_and_is_a_png() -> None:
    one = Odds("Test", (OddsTable("Result", (Chance("pass", Fraction(1, 2)),
                                             Chance("fail", Fraction(1, 2)))),))  # fmt: skip
    two = Odds("Test", one.tables * 2)
    small, tall = (Image.open(io.BytesIO(chart(o))) for o in (one, two))
    assert small.format == "PNG" and small.width == tall.width == 640
    assert tall.height > small.height


def test_slivers_and_near_certainties_are_not_rounded_away() -> None:
    assert [percent(v) for v in (0.0, 0.01, 12.345, 99.97, 100.0)] == [
        "0.0%", "<0.1%", "12.3%", ">99.9%", "100.0%",
    ]  # fmt: skip


def test_the_committed_example_chart_is_fresh() -> None:
    """docs/odds holds what `python -m tools.odds_sample` draws today; rerun it if not."""
    assert (OUT / NAME).read_bytes() == sample_chart()
