"""The Tree of Battles' general reads a charge's odds as the sheet's results move troops (#36)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot import ai_bench
from rules_core import registry
from rules_core.general_candidates import Candidate
from rules_core.general_score import charge_chances
from rules_core.odds import Odds, OddsQuery
from rules_core.orders import Order, Preview
from rules_core.secrets import Viewer, view


def test_only_a_victory_reads_as_a_win_and_only_a_defeat_or_rout_as_a_loss() -> None:
    """Two men-at-arms face to face: a success (+2/4) leaves the loser in place, in its mêlée,
    so the general's chance to win is the victory's alone (it read victory and success: here
    1 in 6 where no result of the charge moves the French, and such charges began endless
    mêlées)."""
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    state = ai_bench.start(rules, None)
    target = replace(state.unit("f2"), x=8.5, y=5.5)
    state = replace(
        state,
        cursor=replace(state.cursor, turn=1, step="charges"),
        units=tuple(target if u.id == "f2" else u for u in state.units),
    )
    seen = view(state, Viewer.of_side("english"))
    order = Order("e2", "charge", {"target": "f2"})
    assert isinstance(rules.judge(seen, order), Preview)
    odds = rules.odds(seen, OddsQuery.of_order(order))
    assert isinstance(odds, Odds)
    mine = next(t for t in odds.tables if t.title.startswith(state.unit("e2").name))
    chance = {c.label.split()[-1]: c.chance for c in mine.chances}
    win, lose, _, _ = charge_chances(rules, seen, Candidate("e2", (order,), "charge", target))
    assert win == chance.get("victory", Fraction(0))
    assert lose == chance.get("defeat", Fraction(0)) + chance.get("rout", Fraction(0))
    assert chance["success"] > 0 and chance["back"] > 0  # both there, neither read
