"""Commands and generals from the army lists: each general leads one command, units join the
command their entry names, generals stand with their units, and each side starts with its
VBU and its command structure."""

from __future__ import annotations

from dataclasses import replace

from rules_core.rulesets.impetus import forces, generals
from rules_core.rulesets.impetus.profiles import current_vbu, load_army
from rules_core.rulesets.impetus.status import COMMAND_STRUCTURE, START_VBU
from tests.rules_core.rulesets.impetus.helpers import rules


def test_each_general_leads_a_command_of_the_units_that_name_him() -> None:
    army = load_army("romans")
    groups, leaders = forces.forces(army, "red")
    assert [g.id for g in groups] == ["red_caesar", "red_labienus"]
    assert [g.leader for g in groups] == [ld.id for ld in leaders]
    caesar = leaders[0]
    assert generals.kind_of(caesar) == "Charismatic" and generals.traits(caesar) == ("Confident",)
    assert caesar.attached_to == "red1"  # Legio X, the first unit
    unit = rules().unit_from_roster(army["units"][3], "red4", "red", "red_main")  # type: ignore[index, arg-type]
    assert unit.group == "red_labienus" and unit.type == "CM"


def test_play_begins_with_the_starting_vbu_and_command_structure() -> None:
    state = rules().prepare(rules().sample_battle())
    for side, structure in (("romans", "good"), ("gauls", "average")):
        holder = state.side(side)
        assert COMMAND_STRUCTURE.of(holder) == structure
        assert START_VBU.of(holder) == sum(current_vbu(u) for u in state.units if u.side == side)
    for general in state.leaders:
        assert general.attached_to is not None
        assert state.unit(general.attached_to).group == general.group


def test_an_army_list_may_give_its_fortification_pieces() -> None:
    from rules_core.rulesets.impetus import prebattle
    from rules_core.rulesets.impetus.profiles import SCHEMA

    army = {**load_army("romans"), "fortifications": 3}
    assert SCHEMA.validate(army) == []
    assert SCHEMA.validate({**army, "fortifications": -1}) != []
    groups, _ = forces.forces(army, "red")
    assert {g.status.get("fortifications") for g in groups} == {3}
    silent, _ = forces.forces(load_army("gauls"), "blue")
    assert all("fortifications" not in g.status for g in silent)
    state = rules().sample_battle()
    state = replace(state, groups=(*state.groups, *groups))
    params = prebattle.params_of(state)
    assert prebattle.fortification_limit(state, "red", params) == 3
    # A list that is silent: the battle's parameter (default 2).
    assert prebattle.fortification_limit(state, "gauls", params) == 2
    fewer = {**params, "fortification_pieces": 1}
    assert prebattle.fortification_limit(state, "gauls", fewer) == 1
