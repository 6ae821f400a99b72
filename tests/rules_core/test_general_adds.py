"""Orders a ruleset adds to the AI general's scripted ones (#36): Heroic Age's leaders
spend their LPs removing DPs from their most worn units, each order judged legal."""

from __future__ import annotations

from rules_core import engine, general
from rules_core.decisions import GM, Answer
from rules_core.general_hints import GeneralHints
from rules_core.orders import Preview
from rules_core.plugin import Rules
from rules_core.registry import get
from rules_core.rulesets.heroic_age.lps import available
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState

SEED = b"general-adds"


def _heroic() -> Rules:
    rules = get("heroic_age").rules
    assert rules is not None
    return rules


def _leadership(rules: Rules) -> BattleState:
    """The sample battle at its first Leadership step, the questions answered by default."""
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    for _ in range(50):
        if state.pending is not None:
            decision = state.pending.decision
            state = engine.answer(
                rules, SEED, state, Answer(decision.id, decision.default, GM)
            ).state
        elif state.cursor.step == "leadership":
            return state
        else:
            state = engine.run(rules, SEED, state, []).state
    raise AssertionError("no Leadership step")


def _worn(state: BattleState, unit_id: str, dps: int) -> BattleState:
    """The battle with one unit carrying ``dps`` DPs."""
    unit = state.unit(unit_id)
    return state.with_unit(unit.with_status(dps=dps))


def test_a_leader_removes_dps_from_his_most_worn_unit_in_reach() -> None:
    rules = _heroic()
    state = _leadership(rules)
    side = state.sides[0].id
    leader = next(ld for ld in state.leaders if ld.side == side and ld.attached_to)
    state = _worn(state, str(leader.attached_to), 3)
    seen = view(state, Viewer.of_side(side))
    advice = general.plan_side(rules, seen, side, seed=0)
    removed = [a.order for a in advice if a.order.kind == "remove_dp"]
    assert removed and removed[0].actor == leader.id
    assert removed[0].params["unit"] == leader.attached_to
    assert len([o for o in removed if o.actor == leader.id]) <= available(seen, leader) // 2
    assert all(isinstance(rules.judge(seen, o), Preview) for o in removed)


def test_no_dp_removed_where_no_unit_is_worn_and_by_default_nothing_is_added() -> None:
    rules = _heroic()
    state = _leadership(rules)
    side = state.sides[0].id
    seen = view(state, Viewer.of_side(side))
    assert not [a for a in general.plan_side(rules, seen, side) if a.order.kind == "remove_dp"]
    assert GeneralHints().adds(seen, side) == ()
