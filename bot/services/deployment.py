"""Deploying units from their armies' rosters: finding a roster unit by name, who may deploy
it, placing it where the ruleset allows, and reading a deployment file's rows."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.services.battle_state import Loaded, check_commands
from bot.services.names import name_key
from rules_core.state import BattleState, Unit


def roster_entries(loaded: Loaded) -> list[tuple[str, str, str]]:
    """(unit id, name, side id) for every unit of every side's army, in roster order."""
    armies = {a.id: a for a in loaded.campaign.armies}
    found = []
    for side in sorted(loaded.battle.sides, key=lambda s: s.side_id):
        army = armies.get(side.army_id or -1)
        for index, entry in enumerate(army.roster["units"] if army else []):
            if entry.get("status") != "destroyed":  # lost in an earlier battle
                found.append((f"{side.side_id}{index + 1}", str(entry["name"]), side.side_id))
    return found


def roster_unit(loaded: Loaded, ref: str, user_id: int) -> Unit:
    """A fresh unit from its side's roster, found by id or name: the user's own first, and
    a name that still means several is refused with their ids."""
    key = name_key(ref)
    found = [e for e in roster_entries(loaded) if key in (e[0].casefold(), name_key(e[1]))]
    own = [e for e in found if e[2] in loaded.side_of(user_id)]
    found = own or found
    if len(found) > 1:
        shown = ", ".join(f"`{unit_id}` ({name})" for unit_id, name, _ in found)
        raise InvalidInput(f"**{ref}** names several units; give one by id: {shown}.")
    if not found:
        raise NotFound(f"No unit called **{ref}** in this battle's armies.")
    unit_id, _, side_id = found[0]
    return roster_unit_of(loaded, unit_id, side_id)


def roster_unit_of(loaded: Loaded, unit_id: str, side_id: str) -> Unit:
    """A fresh unit from a roster entry of ``roster_entries`` (its id and side)."""
    side = next(s for s in loaded.battle.sides if s.side_id == side_id)
    army = next(a for a in loaded.campaign.armies if a.id == side.army_id)
    entry = army.roster["units"][int(unit_id[1:]) - 1]
    return loaded.rules.unit_from_roster(entry, unit_id, side_id, f"{side_id}_main")


def may_deploy(loaded: Loaded, user_id: int, unit: Unit) -> bool:
    """Whether the user may deploy a unit: a GM any, a player their side's, but not one of a
    group another player of the side commands."""
    if loaded.is_gm(user_id):
        return True
    commander = loaded.commander_of(unit)
    return unit.side in loaded.side_of(user_id) and commander in (None, user_id)


def place_unit(loaded: Loaded, user_id: int, ref: str, at: Any, facing: Any) -> Unit:
    """The unit named ``ref`` placed at ``at`` facing ``facing`` (its default when None), if the
    user may deploy it there; refused with the reason otherwise."""
    unit = roster_unit(loaded, ref, user_id)
    if not loaded.is_gm(user_id) and unit.side not in loaded.side_of(user_id):
        loaded.require_not_handed_away(user_id)
        raise PermissionDenied(f"**{unit.name}** is not yours to deploy.")
    check_commands(loaded, user_id, unit, loaded.is_gm(user_id))
    current = next((u for u in loaded.state.units if u.id == unit.id), None)
    if facing is not None:
        turn = float(facing)
    else:
        default = loaded.rules.deployment_facing(loaded.state, unit.side)
        turn = current.facing if current else default
    placed = replace(unit, x=float(at[0]), y=float(at[1]), facing=turn % 360)
    problem = loaded.rules.deployment_problem(loaded.state, placed)
    if problem is not None:
        other = f" **{problem.other.name}**" if problem.other is not None else ""
        raise InvalidInput(f"**{placed.name}** {problem.reason}{other}.")
    return placed


def with_unit(state: BattleState, unit: Unit) -> BattleState:
    """The state with the unit placed (replacing it if it is on the table already)."""
    if any(u.id == unit.id for u in state.units):
        return state.with_unit(unit)
    return replace(state, units=(*state.units, unit))


def deployment_rows(data: object) -> list[dict[str, Any]]:
    """The rows of a deployment file, each checked for its shape (refused naming the row)."""
    rows = data.get("deploy") if isinstance(data, dict) else data
    if not isinstance(rows, list) or not rows:
        raise InvalidInput("A deployment file is a list of `{unit, at: [x, y], facing}` rows.")
    checked = []
    for index, row in enumerate(rows, 1):
        at = row.get("at") if isinstance(row, dict) else None
        if (
            not isinstance(row, dict)
            or not isinstance(row.get("unit"), str)
            or not isinstance(at, list)
            or len(at) != 2
            or not all(isinstance(v, int | float) for v in at)
        ):
            raise InvalidInput(f"Row {index}: write it as `{{unit: Name, at: [x, y], facing: 0}}`.")
        facing = row.get("facing")
        if facing is not None and (isinstance(facing, bool) or not isinstance(facing, int | float)):
            raise InvalidInput(
                f"Row {index} ({row['unit']}): `facing` must be a number of degrees, "
                f"not `{json.dumps(facing)[:40]}`."
            )
        checked.append({"unit": row["unit"], "at": at, "facing": row.get("facing")})
    return checked


def army_rows(loaded: Loaded, user_id: int) -> list[dict[str, Any]]:
    """Deployment rows from the army lists' ``at`` places: every side's for a GM, else the
    units of the user's side they may deploy; refused when no such unit gives a place."""
    rows = []
    for unit_id, name, side_id in roster_entries(loaded):
        if not loaded.is_gm(user_id) and side_id not in loaded.side_of(user_id):
            continue
        side = next(s for s in loaded.battle.sides if s.side_id == side_id)
        army = next(a for a in loaded.campaign.armies if a.id == side.army_id)
        at = army.roster["units"][int(unit_id[len(side_id) :]) - 1].get("at")
        unit = roster_unit_of(loaded, unit_id, side_id)
        if isinstance(at, list) and len(at) >= 2 and may_deploy(loaded, user_id, unit):
            facing = at[2] if len(at) == 3 else None
            rows.append({"unit": unit_id, "name": name, "at": at[:2], "facing": facing})
    if not rows:
        whose = "the armies'" if loaded.is_gm(user_id) else "your army's"
        raise InvalidInput(
            f"No unit of {whose} lists that you may deploy gives an `at` place: add "
            "`at: [x, y, facing]` to its units in the army file, or use `/battle deploy`."
        )
    return rows


def place_rows(loaded: Loaded, user_id: int, rows: list[dict[str, Any]]) -> BattleState:
    """The state with every row's unit placed, checked like any deployment, one after the
    other (so two rows may not overlap); the first refused row is named in the refusal."""
    state = loaded.state
    for index, row in enumerate(rows, 1):
        try:
            placed = place_unit(
                Loaded(loaded.campaign, loaded.battle, loaded.rules, state),
                user_id,
                row["unit"],
                row["at"],
                row["facing"],
            )
        except (InvalidInput, NotFound, PermissionDenied, Conflict) as error:
            raise InvalidInput(f"{_row_label(row, index)}: {error.message}") from None
        state = with_unit(state, placed)
    return state


def _row_label(row: dict[str, Any], index: int) -> str:
    """How a refusal names a deployment row: a file's by its number, an army list's by the
    unit and the place its list gives."""
    if "name" in row:
        x, y = row["at"]
        return f"{row['name']} ({row['unit']}), `at: [{x:g}, {y:g}]` in its army list"
    return f"Row {index} ({row['unit']})"
