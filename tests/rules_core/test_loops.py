"""Loops over a chain of steps: each subject runs the chain, resolvers change the subjects to
come, end an iteration early or open a step again; every repetition has its own stream."""

from __future__ import annotations

import json

import pytest

from rules_core import engine
from rules_core.context import Context
from rules_core.events import DiceRolled, StepBegan, SubjectsChanged
from rules_core.orders import Order, OrderKind, Param
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.render import Renderer
from rules_core.state import BattleState, Group, Side, Unit
from rules_core.steps import (
    Actors,
    Cursor,
    SequenceOfPlay,
    Step,
    Subject,
    advance,
    end_iteration,
    start,
)
from rules_core.verify import verify

SIDES = ("red", "blue")
COMMANDS = (Subject("r1", "red"), Subject("b1", "blue"), Subject("r2", "red"))

CHAIN = SequenceOfPlay(
    (
        Step("begin", "Begin", next="activate"),
        Step("activate", "Activate", repeat_for="commands", next="move", until="melee"),
        Step("move", "Move", Actors.ACTIVE, next="shoot"),
        Step("shoot", "Shoot", next="melee"),
        Step("melee", "Melee", next="end"),
        Step("end", "End"),
    ),
    first="begin",
)


def commands(step: Step) -> tuple[Subject, ...]:
    return COMMANDS


def walk(cursor: Cursor, count: int) -> list[str]:
    seen = []
    for _ in range(count):
        seen.append(f"{cursor.turn}:{cursor.label(CHAIN)}")
        cursor = advance(CHAIN, cursor, commands)
    return seen


def test_a_chain_of_steps_runs_for_each_subject_then_the_sequence_goes_on() -> None:
    cursor = start(CHAIN, SIDES, commands)
    assert walk(cursor, 12) == [
        "1:begin",
        "1:activate#r1.0", "1:move#r1.0", "1:shoot#r1.0", "1:melee#r1.0",
        "1:activate#b1.1", "1:move#b1.1", "1:shoot#b1.1", "1:melee#b1.1",
        "1:activate#r2.2", "1:move#r2.2", "1:shoot#r2.2",
    ]  # fmt: skip
    assert walk(cursor, 15)[-2:] == ["1:end", "2:begin"]


def test_a_chain_with_no_subjects_is_skipped_whole() -> None:
    cursor = start(CHAIN, SIDES, lambda step: ())
    seen = []
    for _ in range(3):
        seen.append(cursor.step)
        cursor = advance(CHAIN, cursor, lambda step: ())
    assert seen == ["begin", "end", "begin"]


def test_ending_an_iteration_skips_the_rest_of_the_subjects_chain() -> None:
    cursor = advance(CHAIN, start(CHAIN, SIDES, commands), commands)
    assert cursor.label(CHAIN) == "activate#r1.0"
    cursor = end_iteration(CHAIN, cursor, commands)
    assert cursor.label(CHAIN) == "activate#b1.1"


def test_the_same_subject_coming_round_again_has_another_label() -> None:
    cursor = advance(CHAIN, start(CHAIN, SIDES, commands), commands)
    cursor = cursor.with_upcoming((Subject("r1", "red"),))  # r1 passed: it comes again last
    cursor = end_iteration(CHAIN, cursor, commands)
    assert cursor.label(CHAIN) == "activate#r1.1"


def test_chains_are_checked_when_declared() -> None:
    with pytest.raises(ValueError, match="never reaches"):
        SequenceOfPlay(
            (Step("a", "A", repeat_for="x", next="b", until="c"), Step("b", "B"), Step("c", "C")),
            first="a",
        )
    with pytest.raises(ValueError, match="repeats inside"):
        SequenceOfPlay(
            (Step("a", "A", repeat_for="x", next="b", until="b"), Step("b", "B", repeat_for="y")),
            first="a",
        )
    with pytest.raises(ValueError, match="repeats for nothing"):
        SequenceOfPlay((Step("a", "A", until="a"),), first="a")


def test_an_old_cursor_loads_and_keeps_its_label() -> None:
    old = {"turn": 2, "segment": "main", "step": "fatigue", "side_order": ["red", "blue"],
           "player_turn": 0, "subjects": [{"id": "left", "side": "red"}], "subject_index": 0,
           "attempt": 0}  # fmt: skip
    cursor = Cursor.from_dict(old)
    fixed = SequenceOfPlay((Step("fatigue", "Fatigue", repeat_for="wings"),), first="fatigue")
    assert (cursor.iteration, cursor.again) == (0, 0)
    assert cursor.label(fixed) == "fatigue#left"


# -- through the engine ------------------------------------------------------------------

ACTIVATIONS = SequenceOfPlay(
    (
        Step("activate", "Activate", Actors.NOBODY, "activate", "move", repeat_for="commands",
             until="close"),
        Step("move", "Move", Actors.ACTIVE, "move", "close", ("advance", "halt")),
        Step("close", "Close", Actors.NOBODY, "close"),
    ),
    first="activate",
)  # fmt: skip


class Activations(Rules):
    """Each command rolls to activate (a 1 or 2 passes the initiative once: it comes again
    last); an activated unit advances up to three times, each move seen before the next."""

    sequence = ACTIVATIONS
    order_kinds = (
        OrderKind("advance", "Advance", params=(Param("by", "number"),)),
        OrderKind("halt", "Halt"),
    )

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        return tuple(Subject(g.id, g.side) for g in state.groups)

    def resolve_activate(self, ctx: Context) -> None:
        assert ctx.subject is not None
        roll = ctx.dice.roll(f"activation of {ctx.subject.id}", 1)
        passed = ctx.state.status.get("passed", [])
        assert isinstance(passed, list)
        if roll.total <= 2 and ctx.subject.id not in passed:
            ctx.state = ctx.state.with_status(passed=[*passed, ctx.subject.id])
            ctx.insert_subject(ctx.subject, "passes the initiative", len(ctx.upcoming))
            ctx.end_iteration()

    def resolve_move(self, ctx: Context) -> None:
        assert ctx.subject is not None
        ctx.dice.roll(f"pace of {ctx.subject.id}", 4)
        for order in ctx.orders:
            if order.kind != "advance":
                continue
            unit = ctx.state.unit(order.actor)
            by = order.params["by"]
            assert isinstance(by, int | float)
            ctx.move(unit.id, [(unit.x, unit.y), (unit.x, unit.y + by)], unit.facing)
            moves = int(unit.get("moves", 0) or 0) + 1  # type: ignore[arg-type]
            ctx.state = ctx.state.with_unit(ctx.state.unit(unit.id).with_status(moves=moves))
            if moves < 3:
                ctx.again()

    def resolve_close(self, ctx: Context) -> None:
        ctx.dice.roll("closing", 1)

    def outcome(self, state: BattleState) -> None:  # type: ignore[override]
        return None


def battle() -> BattleState:
    rules = Activations()
    sides = (Side("red", "Red"), Side("blue", "Blue"))
    state = rules.new_battle("loops", "activations", 48, 36, sides)
    groups = (Group("r1", "Red One", "red", "command"), Group("b1", "Blue One", "blue", "command"))
    units = (Unit("ru", "Red Foot", "red", "r1", "foot", "", 2, 1, 10, 4, 0),
             Unit("bu", "Blue Foot", "blue", "b1", "foot", "", 2, 1, 10, 30, 180))  # fmt: skip
    return engine.begin(rules, BattleState(**{**state.__dict__, "groups": groups, "units": units}))


def play(seed: bytes) -> tuple[BattleState, engine.Resolution]:
    rules = Activations()
    first = battle()
    result = engine.settle(rules, seed, engine.Resolution(first, (), ()))
    for _ in range(20):
        state = result.state
        if state.cursor.turn > 1:
            break
        side = engine.waiting(rules, state).sides[0]
        unit = next(u for u in state.units if u.side == side)
        result = result.then(engine.run(rules, seed, state, [Order(unit.id, "advance", {"by": 1})]))
    return first, result


def test_activations_pass_moves_repeat_and_every_repetition_has_its_own_stream() -> None:
    _, result = play(b"loops-seed-3")
    began = [e for e in result.events if isinstance(e, StepBegan) and e.turn == 1]
    seen = [(e.step, e.subject) for e in began]
    # Every command activated once; each moved three times, every move its own step.
    assert seen.count(("move", "r1")) == 3 and seen.count(("move", "b1")) == 3
    paces = [r.roll for r in result.events if isinstance(r, DiceRolled)]
    faces = [tuple(d.face for d in r.dice) for r in paces if r.label == "pace of r1"]
    assert len(faces) == 3 and len(set(faces)) == 3  # each move its own random stream
    assert result.state.unit("ru").y == 7 and result.state.unit("bu").y == 33


def test_a_pass_puts_the_command_last_and_the_log_says_so() -> None:
    for number in range(40):
        first, result = play(f"loops-seed-{number}".encode())
        changed = [e for e in result.events if isinstance(e, SubjectsChanged)]
        if changed:
            break
    else:
        pytest.fail("no seed made a command pass")
    began = [(e.step, e.subject) for e in result.events
             if isinstance(e, StepBegan) and e.turn == 1]  # fmt: skip
    passer = changed[0].upcoming[-1]
    activations = [s for step, s in began if step == "activate" and s == passer]
    assert len(activations) == 2  # it came round again
    line = Renderer.for_state(first).line(changed[0])
    assert line.startswith("Still to come: ") and "passes the initiative" in line


def test_a_battle_with_loops_and_repeated_steps_verifies(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_core import registry
    from rules_core.registry import Ruleset
    from rules_core.roster import RosterSchema

    seed = b"loops-seed-5"
    first, result = play(seed)
    registry.get("skirmish")  # the registry has found its rulesets before one is added
    monkeypatch.setitem(
        registry._REGISTRY, "activations",
        Ruleset("activations", "Activations", "inch", RosterSchema(()), rules=Activations()),
    )  # fmt: skip
    record = BattleRecord.start(first, seed).extended(result.entries)
    report = verify(json.loads(json.dumps(record.revealed(seed).to_dict())))
    assert report.ok, report.problem
    tampered = json.loads(json.dumps(record.revealed(seed).to_dict()))
    rolled = next(e for e in tampered["entries"] if e["rolls"])
    rolled["rolls"][0]["dice"][0]["face"] = 7 - rolled["rolls"][0]["dice"][0]["face"]
    assert not verify(tampered).ok


def test_changing_a_fixed_loop_is_refused() -> None:
    class Fixed(Activations):
        sequence = SequenceOfPlay(
            (Step("activate", "Activate", Actors.NOBODY, "activate", repeat_for="commands"),
             Step("move", "Move", Actors.ACTIVE, "move", None, ("advance", "halt")),
             Step("close", "Close", Actors.NOBODY, "close")),
            first="activate",
        )  # fmt: skip

    rules = Fixed()
    state = battle()
    state = engine.begin(rules, state)
    ctx = Context(rules, state, (), (), __import__("random").Random(1))
    with pytest.raises(ValueError, match="fixed"):
        ctx.insert_subject(Subject("b1", "blue"), "no")


def test_subjects_to_come_are_skipped_replaced_and_checked() -> None:
    import random

    rules = Activations()
    state = battle()
    assert state.cursor.label(rules.sequence) == "activate#r1.0"
    ctx = Context(rules, state, (), (), random.Random(1))
    assert [s.id for s in ctx.upcoming] == ["b1"]
    ctx.skip_subject("b1", "routed")
    assert ctx.upcoming == ()
    with pytest.raises(KeyError, match="no subject 'b1' still to come"):
        ctx.skip_subject("b1", "again")
    ctx.set_subjects([Subject("b1", "blue"), Subject("r1", "red")], "reordered")
    assert [s.id for s in ctx.upcoming] == ["b1", "r1"]
    assert ctx.state.cursor.subject == Subject("r1", "red")  # the current one stays
    assert [e.upcoming for e in ctx.events if isinstance(e, SubjectsChanged)] == [(), ("b1", "r1")]


def test_a_step_outside_any_loop_refuses_subject_changes() -> None:
    import random

    rules = Activations()
    state = battle()
    outside = BattleState(**{**state.__dict__, "cursor": Cursor(1, "main", "close", SIDES)})
    ctx = Context(rules, outside, (), (), random.Random(1))
    with pytest.raises(ValueError, match="runs in no loop"):
        ctx.end_iteration()
