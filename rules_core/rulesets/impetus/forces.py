"""Commands and generals from an army list, and the army's totals as play begins.

Each general of the army list (``generals:``) commands one *command* (a group of kind
``command`` led by him, id ``<side>_<general id>``); a unit entry's ``command`` names its
general. Units naming none join the first command of their side. A general is attached to the
unit his ``with`` names (else to the first unit of his command) and stands where it stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.forces import led_groups, listed_leaders
from rules_core.roster import entries as roster_entries
from rules_core.roster import unit_ids
from rules_core.rulesets.impetus.profiles import current_vbu, general_from_entry
from rules_core.rulesets.impetus.status import ARMY_CS
from rules_core.state import BattleState, Group, Leader, Unit


def command_group(side: str, general_key: str) -> str:
    """The group id of the command a general (by his army-list id) leads."""
    return f"{side}_{general_key}"


def group_of(
    entry: Mapping[str, Json], roster: Mapping[str, Json] | None, side: str, default: str
) -> str:
    """The command a unit entry's ``command`` puts it in, else ``default``."""
    key = entry.get("command")
    return command_group(side, key) if isinstance(key, str) and key else default


def forces(roster: Mapping[str, Json], side: str) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The commands (each led by its general) and the generals an army list brings."""

    def make(entry: Mapping[str, Json], key: str) -> Leader:
        """One general, in command of his command."""
        return general_from_entry(entry, f"{side}_g_{key}", side, command_group(side, key))

    units = unit_ids(roster, side)
    generals = listed_leaders(roster_entries(roster, "generals"), units, "general", make)
    structure = str(roster.get("command_structure") or "average").lower()
    carried: dict[str, Json] = {"command_structure": structure}
    pieces = roster.get("fortifications")
    if isinstance(pieces, int) and not isinstance(pieces, bool):
        carried["fortifications"] = pieces  # the list's own; silent: the parameter
    return led_groups(generals, side, "command", carried), generals


def prepare(state: BattleState) -> BattleState:
    """Units in known commands, each general with a unit of his command, and each side's
    starting VBU (the army break reads it)."""
    commands = [g for g in state.groups if g.kind == "command"]
    for unit in state.units:
        if unit.group not in {g.id for g in commands}:
            mine = next((g for g in commands if g.side == unit.side), None)
            if mine is not None:
                state = state.with_unit(replace(unit, group=mine.id))
    for general in state.leaders:
        if general.attached_to is None or not any(u.id == general.attached_to for u in state.units):
            home = next((u for u in state.units if u.group == general.group), None)
            state = state.with_leader(
                replace(general, attached_to=home.id if home is not None else None)
            )
    for side in state.sides:
        total = sum(current_vbu(u) for u in state.units if u.side == side.id)
        status = {**side.status, "start_vbu": total, "lost_vbu": 0}
        carried = next((ARMY_CS.of(g) for g in commands if g.side == side.id), None)
        if carried and "command_structure" not in side.status:
            status["command_structure"] = carried
        state = state.with_side(replace(side, status=status))
    return follow_generals(state)


def follow_generals(state: BattleState) -> BattleState:
    """Generals stand where the unit they are attached to stands."""
    last = _FOLLOWED[0] if _FOLLOWED else None
    if last is not None and last[0] is state.units and last[1] is state.leaders:
        return state  # the very units and generals it last gave: they stand together
    state = _followed(state)
    _FOLLOWED[:] = [(state.units, state.leaders)]
    return state


# What ``follow_generals`` last gave (frozen tuples: it is called after every step).
_FOLLOWED: list[tuple[tuple[Unit, ...], tuple[Leader, ...]]] = []


def _followed(state: BattleState) -> BattleState:
    """``follow_generals`` worked out."""
    on_table = {u.id: u for u in state.units_on_table}  # looked up once, not per general
    for general in state.leaders:
        home = on_table.get(general.attached_to) if general.attached_to is not None else None
        if home is not None and (general.x, general.y) != (home.x, home.y):
            state = state.with_leader(replace(general, x=home.x, y=home.y))
    return state
