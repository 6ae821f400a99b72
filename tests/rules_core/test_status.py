"""Status declared once: Context refuses undeclared keys and wrong values; every battle keeps
only declared keys; and no ruleset source names a status key its sheet does not declare."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

import rules_core
from rules_core import registry
from rules_core.context import Context
from rules_core.events import Event
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.sample import sample_battle as hc_battle
from rules_core.rulesets.skirmish.sample import sample_battle as skirmish_battle
from rules_core.rulesets.tree_of_battles.sample import sample_battle as tob_battle
from rules_core.state import BattleState, Group
from rules_core.status import (
    Badge,
    Count,
    Flag,
    Scope,
    UndeclaredStatus,
    describe_state,
    sheet,
    undeclared,
)
from tests.rules_core.rulesets.hail_caesar import script as hc_script
from tests.rules_core.rulesets.heroic_age import script as ha_script
from tests.rules_core.rulesets.pike_and_shot import script as pas_script
from tests.rules_core.rulesets.skirmish import script as skirmish_script
from tests.rules_core.rulesets.tree_of_battles import script as tob_script
from tests.rules_core.scripted import Played

RULESETS = ("skirmish", "hail_caesar", "tree_of_battles", "heroic_age", "pike_and_shot")
SCRIPTS = {
    "skirmish": skirmish_script,
    "hail_caesar": hc_script,
    "tree_of_battles": tob_script,
    "heroic_age": ha_script,
    "pike_and_shot": pas_script,
}


def rules_of(ruleset: str) -> Rules:
    """A registered ruleset's rules."""
    found = registry.get(ruleset).rules
    assert found is not None
    return found


def context(ruleset: str, state: BattleState) -> Context:
    """A context on a state, as a resolver gets it."""
    return Context(rules_of(ruleset), state, (), (), random.Random(1))


# -- (1) Context refuses what is not declared ---------------------------------------------------


def test_context_refuses_an_undeclared_unit_key() -> None:
    ctx = context("skirmish", skirmish_battle())
    unit = ctx.state.units[0].id
    with pytest.raises(UndeclaredStatus, match="disordred"):
        ctx.set_status(unit, "a typo", disordred=True)
    ctx.set_status(unit, "declared", disordered=True)
    assert ctx.state.unit(unit).status["disordered"] is True


@pytest.mark.parametrize(
    ("key", "value"), [("disordered", "yes"), ("wounds", "two"), ("wounds", True)]
)
def test_context_refuses_a_wrongly_typed_unit_value(key: str, value: object) -> None:
    ctx = context("skirmish", skirmish_battle())
    with pytest.raises(ValueError, match=key):
        ctx.set_status(ctx.state.units[0].id, "wrong kind", **{key: value})  # type: ignore[arg-type]


def test_context_checks_leader_side_group_and_battle_keys_against_their_scope() -> None:
    ctx = context("hail_caesar", hc_battle())
    leader = next(ld.id for ld in ctx.state.leaders if ld.status.get("rank") == "general")
    side = ctx.state.sides[0].id
    with pytest.raises(ValueError, match="rank"):
        ctx.set_leader_status(leader, "promoted", rank="colonel")  # not one of the levels
    with pytest.raises(UndeclaredStatus):
        ctx.set_leader_status(leader, "a unit key on a leader", disordered=True)
    with pytest.raises(UndeclaredStatus):
        ctx.set_side_status(side, "a typo", reroll_trun=2)
    with pytest.raises(UndeclaredStatus):
        ctx.set_group_status(ctx.state.groups[0].id, "not declared for divisions", won=True)
    with pytest.raises(ValueError, match="name"):
        ctx.set_battle_status("renamed", name=5)
    ctx.set_leader_status(leader, "made C-in-C", rank="army")
    ctx.set_side_status(side, None, reroll_turn=2)
    assert ctx.state.leader(leader).status["rank"] == "army"
    assert ctx.state.side(side).status["reroll_turn"] == 2
    assert [e.field for e in ctx.events] == ["rank"]  # type: ignore[attr-defined]


def test_a_hook_building_a_state_before_play_is_checked_too() -> None:
    statuses = rules_of("skirmish").statuses
    state = skirmish_battle()
    side = state.sides[0].id
    with pytest.raises(UndeclaredStatus):
        statuses.apply(state, Scope.SIDE, side, {"unts": 3})
    assert statuses.apply(state, Scope.SIDE, side, {"units": 3}).side(side).status["units"] == 3


# -- side-, group- and leader-level state in words, for the status view --------------------------


def test_describe_state_words_side_group_and_leader_values_per_side() -> None:
    will = Count("will", "General Will", scope=Scope.SIDE)
    fatigued = Flag("fatigued", "fatigued", Badge("tag", "TIRED"), Scope.GROUP)
    statuses = sheet(will, fatigued)
    base = skirmish_battle()
    side = base.sides[0]
    wing = Group("left", "Left wing", side.id, "wing", status={"fatigued": True})
    state = replace(
        base,
        sides=(replace(side, status={"will": 7}), *base.sides[1:]),
        groups=(wing,),
    )
    assert describe_state(statuses, state) == {side.id: ["General Will: 7", "Left wing: fatigued"]}
    assert describe_state(statuses, state, (Scope.GROUP,)) == {side.id: ["Left wing: fatigued"]}
    assert describe_state(statuses, base) == {}


def test_describe_state_names_the_divisions_a_note_lists() -> None:
    statuses = rules_of("hail_caesar").statuses
    state = hc_battle()
    division = next(g for g in state.groups if g.side == state.sides[0].id)
    side = replace(state.sides[0], status={"broken_divisions": [division.id]})
    state = replace(state, sides=(side, *state.sides[1:]))
    words = describe_state(statuses, state)[side.id]
    assert f"broken divisions: {division.name}" in words
    assert not any(division.id in line for line in words)


def test_describe_state_words_a_leaders_declared_state_but_not_bookkeeping() -> None:
    statuses = rules_of("tree_of_battles").statuses
    state = tob_battle()
    leader = state.leaders[0]
    kept = {**leader.status, "orders": "hold the line", "spent": 2}
    state = replace(state, leaders=(replace(leader, status=kept),))
    words = describe_state(statuses, state)[leader.side]
    assert f"{leader.name}: orders: hold the line" in words
    assert not any("spent" in line for line in words)  # CPs spent: private bookkeeping


# -- (2) every state of every scripted battle keeps only declared keys -------------------------


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[tuple[str, Scope, str]]]:
    """Undeclared keys of the state as it is after every event a resolver emits."""
    found: set[tuple[str, Scope, str]] = set()
    emit = Context.emit

    def checked(self: Context, event: Event) -> None:
        emit(self, event)
        found.update(
            (self.state.ruleset, *slot) for slot in undeclared(self.rules.statuses, self.state)
        )

    monkeypatch.setattr(Context, "emit", checked)
    yield found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_state_of_the_scripted_battle_keeps_only_declared_keys(
    ruleset: str, watched: set[tuple[str, Scope, str]]
) -> None:
    rules = rules_of(ruleset)
    played: Played = SCRIPTS[ruleset].play(rules)  # type: ignore[attr-defined]
    assert played.result.state.outcome is not None
    for state in (played.first, played.result.state):
        watched.update((ruleset, *slot) for slot in undeclared(rules.statuses, state))
    assert not watched, f"undeclared status keys: {sorted(watched, key=str)}"


# -- (3) no ruleset source names a status key its sheet does not declare ----------------------

RULESETS_DIR = Path(rules_core.__file__).parent / "rulesets"
SCOPE_OF_WRITER = {
    "set_status": Scope.UNIT,
    "with_status": Scope.UNIT,
    "set_flags": Scope.UNIT,  # Tree of Battles: ctx.set_status if the contingent is alive
    "mark": Scope.UNIT,  # Tree of Battles: quiet ctx.set_status
    "set_leader_status": Scope.LEADER,
    "set_leader": Scope.LEADER,  # Tree of Battles: leader fields or ctx.set_leader_status
    "set_group_status": Scope.GROUP,
    "set_side_status": Scope.SIDE,
    "set_battle_status": Scope.BATTLE,
}
LEADER_FIELDS = {"points", "attached_to", "x", "y", "wounds"}  # fields of Leader, not status
# Receivers of ``.get("k")`` that are plain mappings (army-file entries, order parameters).
MAPPINGS = {"entry", "data", "roster", "props", "params", "units", "counts", "found"}


@dataclass(frozen=True)
class Use:
    """A string-literal status key named in a ruleset's source."""

    where: str
    key: str
    scope: Scope | None  # None: read from some status mapping whose owner is not known here


def _writer(call: ast.Call) -> str:
    """The called function's name (``ctx.set_status`` -> ``set_status``)."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _keyword_keys(call: ast.Call) -> Iterator[str]:
    """Keys given as keywords or as a ``**{"k": v}`` literal."""
    for keyword in call.keywords:
        if keyword.arg is not None:
            yield keyword.arg
        elif isinstance(keyword.value, ast.Dict):
            yield from (k.value for k in keyword.value.keys if isinstance(k, ast.Constant))


def _reads(node: ast.AST) -> Iterator[tuple[str, bool]]:
    """(key, on a status mapping) for ``x.status.get("k")``, ``x.status["k"]``, ``u.get("k")``."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "status":
            yield str(node.slice.value), True
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return
    if node.func.attr != "get" or not node.args or not isinstance(node.args[0], ast.Constant):
        return
    key, owner = str(node.args[0].value), node.func.value
    if isinstance(owner, ast.Attribute) and owner.attr == "status":
        yield key, True
    elif isinstance(owner, ast.Name) and owner.id not in MAPPINGS and owner.id.islower():
        yield key, False


def hidden(source: str, where: str) -> Iterator[Use]:
    """Keys read with ``profile.number/flag/text/value(unit, "k")``: roster values only."""
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Name) and owner.id == "profile" and len(node.args) > 1:
            key = node.args[1]
            if isinstance(key, ast.Constant):
                yield Use(f"{where}:{node.lineno}", str(key.value), Scope.UNIT)


def uses(source: str, where: str) -> Iterator[Use]:
    """Every string-literal status key a module reads or writes."""
    for node in ast.walk(ast.parse(source)):
        for key, on_status in _reads(node):
            yield Use(
                f"{where}:{getattr(node, 'lineno', 0)}", key, None if on_status else Scope.UNIT
            )
        if isinstance(node, ast.Call) and _writer(node) in SCOPE_OF_WRITER:
            scope = SCOPE_OF_WRITER[_writer(node)]
            for key in _keyword_keys(node):
                if not (scope is Scope.LEADER and key in LEADER_FIELDS):
                    yield Use(f"{where}:{node.lineno}", key, scope)


def problems(ruleset: str, source: str, where: str) -> list[str]:
    """The uses in a module whose key is neither declared for its scope nor a roster field."""
    found = registry.get(ruleset)
    assert found.rules is not None
    statuses = found.rules.statuses
    schema = found.roster_schema
    roster = {f.name for f in schema.unit_fields} | set(schema.extra_unit_fields)
    bad = []
    for use in uses(source, where):
        scopes = list(Scope) if use.scope is None else [use.scope]
        declared = any(statuses.declares(use.key, scope) for scope in scopes)
        if not declared and not (use.scope in (None, Scope.UNIT) and use.key in roster):
            bad.append(f"{use.where}: {use.key!r}")
    # A status key must be read through its declaration, never behind the profile accessor.
    bad += [
        f"{use.where}: {use.key!r} is status, read through the profile"
        for use in hidden(source, where)
        if statuses.declares(use.key, Scope.UNIT)
    ]
    return bad


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_status_key_named_in_a_rulesets_source_is_declared(ruleset: str) -> None:
    bad = []
    for path in sorted((RULESETS_DIR / ruleset).rglob("*.py")):
        where = str(path.relative_to(RULESETS_DIR))
        bad += problems(ruleset, path.read_text(encoding="utf-8"), where)
    assert not bad, "status keys not declared in status.py: " + ", ".join(bad)


@pytest.mark.parametrize(
    "line",
    [
        'ctx.set_status(unit.id, "why", disordred=True)',
        'unit.status.get("disordred")',
        'unit.status["disordred"]',
        'unit.get("disordred")',
        "ctx.set_side_status(side.id, None, disordered=True)",
        'unit.with_status(**{"disordred": True})',
    ],
)
def test_the_scan_finds_each_kind_of_undeclared_use(line: str) -> None:
    assert len(problems("skirmish", line, "typo.py")) == 1


def test_the_scan_finds_a_status_key_read_through_the_profile() -> None:
    found = problems("skirmish", 'profile.flag(unit, "disordered")', "hidden.py")
    assert found == ["hidden.py:1: 'disordered' is status, read through the profile"]


def test_the_scan_accepts_declared_keys_roster_fields_and_plain_mappings() -> None:
    source = (
        'ctx.set_status(unit.id, "why", disordered=True, wounds=1)\n'
        'unit.get("stamina")\n'
        'profile.value(unit, "range", 0)\n'
        'entry.get("anything")\n'
        'order.params.get("facing")\n'
        'state.side(side).status.get("deploy_zone")\n'
    )
    assert problems("skirmish", source, "fine.py") == []
