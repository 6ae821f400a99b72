"""Tree of Battles' hints to the AI general (#36): a march advances, a rally is the
``manoeuvre`` with ``option: rally``; a charge's result bands name "victory", "success",
"inconclusive", "set back", "defeat" and "rout", and the general reads only a victory as a win
and a defeat or a rout as a loss (the results that move the loser). Its army breaks when
``army_break_share`` of its fighting contingents are broken or gone (``Rules.army_broken``; by
default half): the general reads how near that is."""

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.rulesets.tree_of_battles import units
from rules_core.rulesets.tree_of_battles.army_break import SLACK, lost_share, not_broken
from rules_core.state import BattleState, Unit
from rules_core.toolkit import param_number

DISARRAY_WEAR = 0.5  # a contingent in disarray is half-way to its break, to the general


def on_table_unbroken(unit: Unit) -> bool:
    """A contingent the general counts as standing: not broken, and still on the table."""
    return not_broken(unit) and unit.on_table


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """How near the army is to its break (1: broken): the share of its fighting contingents
    broken, gone or off the table, against ``army_break_share`` of those it began with."""
    share = param_number(params, "army_break_share")
    return min(1.0, lost_share(state, side, on_table_unbroken) / max(share, SLACK))


def worn(state: BattleState, unit: Unit) -> float:
    """Stands lost as a share of the contingent's, and half more in disarray (1 at most)."""
    del state
    lost = units.casualties(unit) / unit.stands if unit.stands > 0 else 0.0
    return min(lost + (DISARRAY_WEAR if units.array(unit) == "disarray" else 0.0), 1.0)


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "march": "advance", "restrain": "hold", "manoeuvre": "rally"},
    params={"manoeuvre": {"option": "rally"}},
    weights=Weights(charge=3.5, rally=0.2, urgency=2.5),  # relentless late: 4 of 20 ended, not 1
    # Only a victory (5+) decides: the loser falls back in disarray or breaks; a success (+2/4)
    # leaves it in place with 2 DPs (which count in a charge combat only), and one A grade
    # against another rolls AvD, so their mêlée goes on. Read as wins, successes made a 1 in 4
    # charge look good (ai-bench 40 seeds, AI vs AI ended 6 as a win, 9 without it).
    win_words=("victory",),
    lose_words=("defeat", "rout"),
    breaking=breaking,
    worn=worn,
)
