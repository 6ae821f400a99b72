"""Draw the README's example odds chart to ``docs/odds/``: ``python -m tools.odds_sample``.

The Tree of Battles sample (Agincourt): Vendôme's Horse asks the odds of charging the
English right-wing archers, as the French player sees the battle.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.rendering.odds_chart import chart
from rules_core import registry
from rules_core.odds import Odds, OddsQuery
from rules_core.secrets import Viewer, view

OUT = Path(__file__).resolve().parents[1] / "docs" / "odds"
SAMPLE = ("tree_of_battles", "f1", "e1")  # ruleset, charger, target
NAME = "tree_of_battles_charge.png"


def sample_chart() -> bytes:
    """The example chart's PNG bytes."""
    ruleset, charger, target = SAMPLE
    rules = registry.get(ruleset).rules
    assert rules is not None
    state = rules.sample_battle()
    assert state is not None
    seen = view(state, Viewer.of_side(state.unit(charger).side))
    odds = rules.odds(seen, OddsQuery("charge", charger, target))
    assert isinstance(odds, Odds), odds
    return chart(odds)


def main(argv: list[str] | None = None) -> None:
    """Write the chart (to ``--out``, by default the README's picture in docs/)."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.odds_sample", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write to")
    folder = parser.parse_args(argv).out
    folder.mkdir(parents=True, exist_ok=True)
    (folder / NAME).write_bytes(sample_chart())
    print(folder / NAME)


if __name__ == "__main__":
    main()
