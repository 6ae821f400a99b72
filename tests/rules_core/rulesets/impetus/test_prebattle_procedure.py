"""The Impetus pre-battle procedure, steps 1-10, played through the engine from the sample
armies in reserve: the attacker roll, terrain chosen from the tables (exploration points, the
attacker's 8H, a question when the row lacks the feature ordered, enemy terrain moved or
removed), baggage, secret battle plans, the deployment roll with its re-rolls, and the commands
deployed biggest first, then alternately. The record of the set-up verifies."""

from __future__ import annotations

from dataclasses import replace

from shapely import Point

from rules_core import engine, planning
from rules_core.decisions import Answer
from rules_core.dice import Roll
from rules_core.engine import Resolution
from rules_core.events import DiceRolled, Private, StatusChanged, StepBegan, TerrainAdded
from rules_core.orders import Illegal, Order, Preview
from rules_core.registry import get
from rules_core.render import Renderer
from rules_core.rulesets.impetus import prebattle
from rules_core.rulesets.impetus.sample import sample_battle
from rules_core.rulesets.impetus.terrain_tables import FEATURES, TERRAIN_TABLES, choices
from rules_core.secrets import Viewer, view, visible_events
from rules_core.state import ON_TABLE, BattleState
from rules_core.terrain import feature_shape
from tests.rules_core.scripted import Played, verified

SEED = bytes.fromhex("ab" * 16)
RULES = get("impetus").rules
assert RULES is not None


def started(structures: tuple[str, str] = ("good", "average"), **params: object) -> Resolution:
    """The sample battle begun: Rome of ``structures[0]`` command structure, Gaul of the
    other, with the parameters given."""
    state = sample_battle()
    sides = tuple(
        replace(s, status={**s.status, "command_structure": cs})
        for s, cs in zip(state.sides, structures, strict=True)
    )
    state = replace(state, sides=sides, parameters={**state.parameters, **params})
    first = engine.begin(RULES, state)
    return Resolution(first, (), ())


def play(
    result: Resolution,
    until: str | None = None,
    orders: dict[str, list[Order]] | None = None,
    seed: bytes = SEED,
    asked: bool = False,
) -> Resolution:
    """Play the scripted set-up (default answers) until step ``until`` is open (with its first
    question pending if ``asked``, else with none), or to the first turn. ``orders`` replace
    the script's at their step."""
    for _ in range(300):
        state = result.state
        if state.cursor.step == until and (state.pending is not None) == asked:
            return result
        if state.pending is None and state.cursor.segment != "setup":
            return result
        if state.pending is not None:
            d = state.pending.decision
            result = result.then(engine.answer(RULES, seed, state, Answer(d.id, d.default, d.who)))
            continue
        sides = engine.waiting(RULES, state).sides
        given = (orders or {}).get(state.cursor.step)
        chosen = (
            given if given is not None else [o for s in sides for o in RULES.demo_orders(state, s)]
        )
        result = result.then(engine.run(RULES, seed, state, chosen))
    raise AssertionError("the set-up did not end")


def log(result: Resolution) -> list[str]:
    return Renderer.for_state(result.state).lines(result.events)


def rolls(result: Resolution) -> list[Roll]:
    return [e.roll for e in result.events if isinstance(e, DiceRolled)]


def test_the_procedure_sets_the_table_and_deploys_every_unit_and_verifies() -> None:
    begun = started()
    result = play(begun)
    state = result.state
    assert state.cursor.segment != "setup" and state.cursor.turn == 1
    roles = {s.id: s.status.get("role") for s in state.sides}
    assert sorted(roles.values()) == ["attacker", "defender"]
    titles = [e.title for e in result.events if isinstance(e, StepBegan)]
    assert titles[:7] == ["1. Attacker and defender", "2. Terrain: the defender",
                          "3. Terrain: the attacker", "4. Terrain: the defender again",
                          "5. Baggage and fortifications", "5. Baggage and fortifications",
                          "6. Battle plans"]  # fmt: skip
    assert all(u.location == ON_TABLE for u in state.units)
    for unit in state.units:
        assert RULES.deployment_problem(state, unit) is None, unit.name
    camps = [f for f in state.terrain if f.properties.get("baggage")]
    assert sorted(str(f.properties["baggage"]) for f in camps) == ["gauls", "romans"]
    assert state.status.get("deploy_first") == state.cursor.side_order[0]
    assert state.status.get("ready") is True
    report = verified(Played(begun.state, result), SEED)
    assert report.ok, report.problem


def test_the_attacker_roll_shows_the_mounted_bonus_and_the_higher_attacks() -> None:
    result = play(started(), until="terrain_defender")
    first, second = rolls(result)[:2]
    assert first.label == "Attacker roll of Rome" and second.label == "Attacker roll of Gaul"
    # Rome has two mounted units (Gallic and Numidian horse): +1; Gaul two as well.
    assert [m.describe() for m in first.modifiers] == [
        "+1 2 mounted units (not EL, W), +1 per two rounded up"]  # fmt: skip
    state = result.state
    winner = "romans" if first.total > second.total else "gauls"
    assert state.side(winner).status["role"] == "attacker"
    assert {s.status["exploration_points"] for s in state.sides} == {2}


def _feature_after(table: str, score: int) -> str | None:
    """A feature the row above ``score`` offers and its own row does not."""
    tables = TERRAIN_TABLES[table]
    here = choices(tables.lookup(score))
    for up in (score + 1, score - 1):
        if 2 <= up <= 12:
            for feature in choices(tables.lookup(up)):
                if feature not in here and feature.kind is not None and not feature.crossing:
                    return feature.key
    return None


def test_exploration_points_reach_the_row_that_offers_the_feature_ordered() -> None:
    at_step = play(started(), until="terrain_defender")
    state = at_step.state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    # Probe the roll: the same seed gives the same roll at the same step.
    probe = engine.run(RULES, SEED, state, [])
    score = next(e.roll.total for e in probe.events if isinstance(e, DiceRolled))
    table = prebattle.table_of(state, side)
    wanted = _feature_after(table, score)
    assert wanted is not None
    spot = prebattle.free_spot(state, side, FEATURES[wanted], 90.0, prebattle.params_of(state))
    assert spot is not None
    order = Order(side, "place_terrain", {"feature": wanted, "at": list(spot), "ep": "1"})
    assert isinstance(RULES.judge(state, order), Preview)
    done = engine.run(RULES, SEED, state, [order])
    assert done.state.pending is None
    added = [e.feature for e in done.events if isinstance(e, TerrainAdded)]
    assert [f.properties["feature"] for f in added] == [wanted]
    assert done.state.side(side).status["exploration_points"] == 1
    assert any(
        "exploration points 2 → 1" in line for line in Renderer.for_state(state).lines(done.events)
    )


def test_a_feature_the_row_lacks_is_asked_for_with_the_rows_choices() -> None:
    at_step = play(started(), until="terrain_defender")
    state = at_step.state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    probe = engine.run(RULES, SEED, state, [])
    score = next(e.roll.total for e in probe.events if isinstance(e, DiceRolled))
    table = TERRAIN_TABLES[prebattle.table_of(state, side)]
    row = choices(table.lookup(score))
    absent = next(f for f in FEATURES.values()
                  if f not in row and f.kind in ("rough", "wood", "gentle_hill", "impassable")
                  and any(f in choices(b) for b in table.bands))  # fmt: skip
    order = Order(side, "place_terrain", {"feature": absent.key, "at": [15, 10]})
    asked = engine.run(RULES, SEED, state, [order])
    pending = asked.state.pending
    assert len(row) > 1 and pending is not None  # (a row of one feature needs no question)
    decision = pending.decision
    assert decision.topic == prebattle.TERRAIN_FEATURE and decision.who == side
    assert decision.option_ids == tuple(f.key for f in row)
    assert f"({absent.label} was not on it)" in decision.question
    choice = next(f for f in row if f.kind is not None and not f.crossing and f.kind != "river")
    answered = engine.answer(RULES, SEED, asked.state, Answer(decision.id, choice.key, side))
    while answered.state.pending is not None:  # the spot, if the ordered one does not suit it
        d = answered.state.pending.decision
        answered = engine.answer(RULES, SEED, answered.state, Answer(d.id, d.default, side))
    added = [e.feature for e in answered.events if isinstance(e, TerrainAdded)]
    assert [f.properties["feature"] for f in added] == [choice.key]


def test_the_attackers_terrain_is_refused_within_8h_of_other_terrain() -> None:
    state = play(started(), until="terrain_attacker").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    assert state.side(side).status["role"] == "attacker"
    near = state.terrain[0]  # the defender's piece
    xs, ys = [x for x, _ in near.points], [y for _, y in near.points]
    c = (max(xs) + 5.0, (min(ys) + max(ys)) / 2)  # 3H clear of it (a small piece is 4H long)
    order = Order(side, "place_terrain", {"feature": "small_imp", "at": [c[0], c[1]]})
    verdict = RULES.judge(state, order)
    assert isinstance(verdict, Illegal)
    assert "at least 8 H from other terrain" in verdict.reason, verdict.reason
    assert "is 3.0 H away" in verdict.reason, verdict.reason
    assert isinstance(RULES.judge(replace(state, terrain=()), order), Preview)


def test_enemy_terrain_is_removed_or_moved_on_the_mtd_table() -> None:
    # Every army with a mounted unit rolls on the Mtd table; ten points reach any row.
    begun = started(mounted_table_share=0.0, exploration_points=10)
    state = play(begun, until="terrain_attacker").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    (target,) = prebattle.enemy_terrain(state, side)  # the defender's piece
    remove = Order(
        side, "place_terrain", {"feature": "remove_enemy", "terrain": target.id, "ep": "10"}
    )
    assert isinstance(RULES.judge(state, remove), Preview)
    done = engine.run(RULES, SEED, state, [remove])
    assert target.id not in {f.id for f in done.state.terrain}
    lines = Renderer.for_state(state).lines(done.events)
    assert any("removed by" in line and target.name.lower() in line.lower() for line in lines), (
        lines
    )
    wrong = Order(side, "place_terrain", {"feature": "remove_enemy", "terrain": "nothing"})
    refused = RULES.judge(state, wrong)
    assert isinstance(refused, Illegal) and "not terrain the enemy placed" in refused.reason

    xs = [x for x, _ in target.points]
    to = [15.0, 5.0] if target.linear else [3.0 if min(xs) > 10 else 26.0, 10.0]
    wanted = {"feature": "move_enemy", "terrain": target.name, "at": to, "ep": "10"}
    move = Order(side, "place_terrain", wanted)
    assert isinstance(RULES.judge(state, move), Preview), RULES.judge(state, move)
    moved = engine.run(RULES, SEED, state, [move])
    after = next(f for f in moved.state.terrain if f.id == target.id)
    assert feature_shape(after).distance(Point(to)) < 0.01  # a road runs through the spot
    assert after.kind == target.kind and after.points != target.points


def test_battle_plans_are_seen_by_their_side_and_the_gm_alone() -> None:
    begun = started()
    result = play(begun, until="deploy_roll")
    state = result.state
    assert state.hidden["romans"]["battle_plan"] == "Hold the centre, strike on the left."
    assert "romans" not in view(state, Viewer.of_side("gauls")).hidden
    assert "romans" in view(state, Viewer.of_side("romans")).hidden
    plans = [e for e in result.events if isinstance(e, Private)
             and isinstance(e.event, StatusChanged) and e.event.field == "battle_plan"]  # fmt: skip
    assert {e.audience for e in plans} == {"romans", "gauls"}
    for seen in visible_events(result.events, Viewer.of_side("gauls")):
        assert not (isinstance(seen, StatusChanged) and seen.subject == "romans"
                    and seen.field == "battle_plan")  # fmt: skip
    # Without the advanced rules the step is skipped.
    plain = play(started(battle_plans=False), until="deploy_roll")
    assert "6. Battle plans" not in [e.title for e in plain.events if isinstance(e, StepBegan)]
    assert not plain.state.hidden


def test_the_deployment_roll_is_rerolled_as_the_command_structure_allows() -> None:
    asked = play(started(("good", "average")), until="deploy_roll", asked=True)
    pending = asked.state.pending
    assert pending is not None
    questions = {d.who: d for d in (pending.decision, *pending.others)}
    assert questions["romans"].option_ids == ("keep", "first", "second", "both")
    assert questions["gauls"].option_ids == ("keep", "both")
    assert all(d.topic == prebattle.DEPLOY_REROLL for d in questions.values())
    after = engine.answer(RULES, SEED, asked.state, Answer(questions["gauls"].id, "both", "gauls"))
    d = after.state.pending.decision if after.state.pending else None
    assert d is not None and d.id == questions["romans"].id
    done = engine.answer(RULES, SEED, after.state, Answer(d.id, "keep", "romans"))
    rerolled = [
        e.roll for e in done.events if isinstance(e, DiceRolled) and "re-rolled" in e.roll.label
    ]
    assert len(rerolled) == 1 and all(die.rerolled for die in rerolled[0].dice)
    assert "average CS" in rerolled[0].label
    assert (
        done.state.pending is not None
        and done.state.pending.decision.topic == prebattle.DEPLOY_ORDER
    )
    # A poor command structure re-rolls nothing: no question.
    quiet = play(started(("poor", "poor")), until="deploy_roll", asked=True)
    assert quiet.state.pending is not None
    assert quiet.state.pending.decision.topic == prebattle.DEPLOY_ORDER


def test_the_winner_chooses_who_deploys_first() -> None:
    asked = play(started(("poor", "poor")), until="deploy_roll", asked=True)
    decision = asked.state.pending.decision  # type: ignore[union-attr]
    winner = decision.who
    done = engine.answer(RULES, SEED, asked.state, Answer(decision.id, "first", winner))
    assert done.state.status["deploy_first"] == winner
    assert done.state.cursor.side_order[0] == winner
    assert done.state.cursor.step == "deploy_first"
    assert done.state.cursor.subject.side == winner  # type: ignore[union-attr]


def test_deployment_orders_are_checked_against_the_command_and_the_zone() -> None:
    state = play(started(), until="deploy_first").state
    subject = state.cursor.subject
    assert subject is not None
    side = subject.side
    biggest = prebattle.biggest_command(state, side)
    assert subject.id == biggest
    mine = next(u for u in state.units if u.group == subject.id)
    other = next(u for u in state.units if u.side == side and u.group != subject.id)
    zone = RULES.deployment_zone(state, side)
    assert zone is not None
    ys = [y for _, y in zone]
    inside_y = (min(ys) + max(ys)) / 2
    outside_y = 10.0
    camp = RULES.judge(state, Order(side, "place", {"unit": mine.id, "at": [15, inside_y]}))
    assert (
        isinstance(camp, Illegal)
        and camp.reason == f"{mine.name} would stand on Rome's baggage camp"
    )
    ok = Order(side, "place", {"unit": mine.id, "at": [8, inside_y]})
    assert isinstance(RULES.judge(state, ok), Preview)
    wrong_command = RULES.judge(
        state, Order(side, "place", {"unit": other.id, "at": [15, inside_y]})
    )
    assert (
        isinstance(wrong_command, Illegal) and "the command deploying now" in wrong_command.reason
    )
    outside = RULES.judge(state, Order(side, "place", {"unit": mine.id, "at": [15, outside_y]}))
    assert isinstance(outside, Illegal) and "must deploy inside" in outside.reason
    enemy = next(u for u in state.units if u.side != side)
    theirs = RULES.judge(state, Order(side, "place", {"unit": enemy.id, "at": [15, inside_y]}))
    assert isinstance(theirs, Illegal)
    done = engine.run(RULES, SEED, state, [ok])
    placed = done.state.unit(mine.id)
    assert (placed.location, placed.x, placed.y) == (ON_TABLE, 8.0, inside_y)
    # The rest of the command went to free spots of the zone; nobody else moved.
    for unit in done.state.units:
        assert (unit.location == ON_TABLE) == (unit.group == subject.id), unit.name


def test_the_set_up_steps_are_planned_ahead_where_they_can_be() -> None:
    state = play(started(), until="terrain_defender").state
    defender = state.cursor.subject.side  # type: ignore[union-attr]
    attacker = prebattle.other_side(state, defender)
    steps = {
        s: [t.step for t in planning.side_steps(RULES, state, s)] for s in (defender, attacker)
    }
    assert steps[defender] == [
        "terrain_defender",
        "terrain_defender_again",
        "baggage",
        "battle_plan",
    ]
    assert steps[attacker] == ["terrain_attacker", "baggage", "battle_plan"]
    # A battle plan written now is judged at its step, and carried out there.
    (plan_step,) = [
        t for t in planning.side_steps(RULES, state, attacker) if t.step == "battle_plan"
    ]
    plan = Order(attacker, "battle_plan", {"plan": "Turn their left."})
    assert isinstance(planning.preview(RULES, state, plan_step, plan), Preview)
    later = play(started(), until="battle_plan").state
    carried = planning.carry_out(RULES, later, [planning.Planned(plan_step.key, attacker, plan)])
    assert carried.orders == (plan,) and not carried.fallbacks
    done = planning.run_planned(RULES, SEED, later, carried)
    assert done.state.hidden[attacker]["battle_plan"] == "Turn their left."
    # Who deploys is known once the deployment roll is made: then every deployment step is
    # planned, the biggest commands first.
    deploying = play(started(), until="deploy_first").state
    first = deploying.status["deploy_first"]
    ahead = planning.side_steps(RULES, deploying, first)
    assert [t.step for t in ahead][:1] == ["deploy_first"]
    assert "deploy_rest" in [t.step for t in ahead]
    # The deployment steps planned are the ones that come, command by command.
    planned = [(t.step, t.subject) for t in planning.turn_steps(RULES, deploying)]
    came = play(Resolution(deploying, (), ()))
    ran = [(e.step, e.subject) for e in came.events
           if isinstance(e, StepBegan) and e.step.startswith("deploy_")]  # fmt: skip
    assert planned == ran and len(ran) == 4


def test_baggage_and_fortifications_go_in_the_zone() -> None:
    state = play(started(), until="baggage").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    assert state.side(side).status["role"] == "defender"  # the defender first
    zone = RULES.deployment_zone(state, side)
    assert zone is not None
    ys = [y for _, y in zone]
    middle = (min(ys) + max(ys)) / 2
    outside = RULES.judge(state, Order(side, "place_baggage", {"at": [15, 10]}))
    assert isinstance(outside, Illegal) and "goes inside" in outside.reason
    camp = Order(side, "place_baggage", {"at": [5, middle]})
    forts = [Order(side, "fortify", {"at": [x, middle]}) for x in (12, 18, 24)]
    assert all(isinstance(RULES.judge(state, o), Preview) for o in (camp, *forts))
    done = engine.run(RULES, SEED, state, [camp, *forts])
    laid = [f for f in done.state.terrain if f not in state.terrain]
    assert [f.kind for f in laid] == ["village", "fortification", "fortification"]  # at most 2
    assert laid[0].properties["baggage"] == side
    xs = [x for x, _ in laid[0].points]
    assert (min(xs) + max(xs)) / 2 == 5
    none = replace(state, parameters={**state.parameters, "fortification_pieces": 0})
    refused = RULES.judge(none, forts[0])
    assert isinstance(refused, Illegal) and "no fortifications" in refused.reason


def test_the_army_lists_fortification_pieces_replace_the_parameter() -> None:
    state = play(started(), until="baggage").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    zone = RULES.deployment_zone(state, side)
    assert zone is not None
    ys = [y for _, y in zone]
    middle = (min(ys) + max(ys)) / 2
    forts = [Order(side, "fortify", {"at": [x, middle]}) for x in (10, 16, 22)]

    def listed(pieces: int) -> BattleState:
        groups = tuple(
            replace(g, status={**g.status, "fortifications": pieces}) if g.side == side else g
            for g in state.groups
        )
        return replace(state, groups=groups)

    three = engine.run(RULES, SEED, listed(3), forts)
    laid = [f.kind for f in three.state.terrain if f not in state.terrain]
    assert laid == ["village", "fortification", "fortification", "fortification"]
    # The list's 0 refuses them, though the parameter would allow two.
    refused = RULES.judge(listed(0), forts[0])
    assert isinstance(refused, Illegal) and "no fortifications" in refused.reason
    # A silent list: the parameter's two.
    two = engine.run(RULES, SEED, state, forts)
    assert [f.kind for f in two.state.terrain if f not in state.terrain].count("fortification") == 2


def test_without_an_order_the_side_chooses_the_feature_then_its_spot() -> None:
    state = play(started(), until="terrain_defender").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    asked = engine.run(RULES, SEED, state, [])
    feature_question = asked.state.pending.decision  # type: ignore[union-attr]
    assert feature_question.topic == prebattle.TERRAIN_FEATURE
    chosen = next(o.id for o in feature_question.options if FEATURES[o.id].kind == "rough")
    spot = engine.answer(RULES, SEED, asked.state, Answer(feature_question.id, chosen, side))
    spot_question = spot.state.pending.decision  # type: ignore[union-attr]
    assert spot_question.topic == prebattle.TERRAIN_SPOT and spot_question.answer == "point"
    assert "it was not the feature ordered" in spot_question.question
    # A spot off the table is refused and the default (a free spot) used, with the reason.
    done = engine.answer(RULES, SEED, spot.state, Answer(spot_question.id, "1,1", side))
    (added,) = [e.feature for e in done.events if isinstance(e, TerrainAdded)]
    x, y = (float(v) for v in spot_question.default.split(","))
    xs, ys = [p[0] for p in added.points], [p[1] for p in added.points]
    assert (min(xs) + max(xs)) / 2 == x and (min(ys) + max(ys)) / 2 == y
    lines = Renderer.for_state(state).lines(done.events)
    assert any("(1, 1) refused: a small brk at (1, 1) would not fit on the table" in line
               for line in lines), lines  # fmt: skip
    # Answered with a good spot, the piece goes there.
    there = engine.answer(RULES, SEED, spot.state, Answer(spot_question.id, "6,6", side))
    (put,) = [e.feature for e in there.events if isinstance(e, TerrainAdded)]
    xs = [p[0] for p in put.points]
    assert (min(xs) + max(xs)) / 2 == 6


def test_a_standing_instruction_answers_the_spot_question_with_the_rules_spot() -> None:
    from rules_core.standing import STANDING_REASON, Standing, standing_problem
    from rules_core.standing_play import play_standing

    state = play(started(), until="terrain_defender").state
    side = state.cursor.subject.side  # type: ignore[union-attr]
    # An order for a spot off the table: the spot question follows the roll.
    offered = prebattle.option_choices(state, side, "place_terrain", "feature") or ()
    feature = next(f for f in offered if FEATURES[f].kind == "rough")
    order = Order(side, "place_terrain", {"feature": feature, "at": [0.5, 0.5], "ep": "2"})
    asked = engine.run(RULES, SEED, state, [order])
    pending = asked.state.pending
    if pending is not None and pending.decision.topic == prebattle.TERRAIN_FEATURE:
        d = pending.decision
        asked = engine.answer(RULES, SEED, asked.state, Answer(d.id, feature, side))
    spot = asked.state.pending.decision  # type: ignore[union-attr]
    assert spot.topic == prebattle.TERRAIN_SPOT and spot.answer == "point"
    assert spot.problem("auto") is None and spot.problem("nowhere") is not None
    standing = Standing(side, prebattle.TERRAIN_SPOT, "auto")
    assert standing_problem(RULES, asked.state, standing) is None
    done = play_standing(RULES, SEED, asked, [standing])
    assert done.state.pending is None or done.state.pending.decision.id != spot.id
    (added,) = [e.feature for e in done.events if isinstance(e, TerrainAdded)]
    x, y = (float(v) for v in spot.default.split(","))
    xs, ys = [p[0] for p in added.points], [p[1] for p in added.points]
    assert (min(xs) + max(xs)) / 2 == x and (min(ys) + max(ys)) / 2 == y
    assert any(STANDING_REASON in line for line in log(done)), log(done)
    # Another side's instruction does not answer it; typing auto does, as the default.
    other = prebattle.other_side(state, side)
    assert play_standing(RULES, SEED, asked, [Standing(other, prebattle.TERRAIN_SPOT, "auto")]
                         ).state.pending == asked.state.pending  # fmt: skip
    typed = engine.answer(RULES, SEED, asked.state, Answer(spot.id, "auto", side))
    (same,) = [e.feature for e in typed.events if isinstance(e, TerrainAdded)]
    assert same.points == added.points


def test_a_battle_plan_is_revealed_to_everyone_when_the_rules_say() -> None:
    import random

    from rules_core.context import Context

    state = play(started(), until="deploy_roll").state
    ctx = Context(RULES, state, (), (), random.Random(0))
    assert prebattle.reveal_plan(ctx, "romans", "its general fell") == PLAN
    (said,) = visible_events(ctx.events, Viewer.of_side("gauls"))
    line = Renderer.for_state(state).lines([said])[0]
    assert line == f"Battle plan revealed (turn) for Rome: 1 → {PLAN} (its general fell)"


PLAN = "Hold the centre, strike on the left."


def _to_move_step(result: Resolution) -> tuple[Resolution, str]:
    """Played on (the script's orders, default answers) to the first movement step of the
    battle; the side whose command moves."""
    for _ in range(200):
        state = result.state
        if state.pending is not None:
            d = state.pending.decision
            result = result.then(engine.answer(RULES, SEED, state, Answer(d.id, d.default, d.who)))
            continue
        sides = engine.waiting(RULES, state).sides
        if state.cursor.step == "move" and sides:
            return result, sides[0]
        orders = [o for s in sides for o in RULES.demo_orders(state, s)]
        result = result.then(engine.run(RULES, SEED, state, orders))
    raise AssertionError("no movement step came")


def test_a_side_reveals_its_battle_plan_by_order_during_the_battle() -> None:
    battle = play(play(started(), until="battle_plan"), orders={"battle_plan": [
        Order("romans", "battle_plan", {"plan": "Romans: hold the ford."}),
        Order("gauls", "battle_plan", {"plan": "Gauls: rush the centre."}),
    ]})  # fmt: skip
    early = RULES.judge(play(started(), until="deploy_roll").state,
                        Order("romans", "reveal_plan", {}))  # fmt: skip
    assert isinstance(early, Illegal)  # not a set-up step's order
    moving, side = _to_move_step(battle)
    state = moving.state
    other = prebattle.other_side(state, side)
    plan = {"romans": "Romans: hold the ford.", "gauls": "Gauls: rush the centre."}[side]
    reveal = Order(side, "reveal_plan", {"reason": "the trap is sprung"})
    assert isinstance(RULES.judge(state, reveal), Preview), RULES.judge(state, reveal)
    # Sealed until then: the other side sees neither plan nor order.
    theirs = view(state, Viewer.of_side(other))
    assert side not in theirs.hidden and not theirs.side(side).status.get("plan_revealed")
    orders = [*RULES.demo_orders(state, side), reveal]
    done = engine.run(RULES, SEED, state, orders)
    after = done.state
    assert after.side(side).status["plan_revealed"] == plan
    assert view(after, Viewer.of_side(other)).side(side).status["plan_revealed"] == plan
    assert view(after, Viewer.public()).side(side).status["plan_revealed"] == plan
    seen = Renderer.for_state(after).lines(visible_events(done.events, Viewer.of_side(other)))
    assert any(plan in line and "the trap is sprung" in line for line in seen), seen
    # The other side's plan stays sealed; a plan is revealed once.
    assert other not in view(after, Viewer.of_side(side)).hidden
    assert not after.side(other).status.get("plan_revealed")
    again = RULES.judge(replace(state, sides=after.sides), reveal)
    assert isinstance(again, Illegal) and "revealed already" in again.reason
    # Without battle plans there is nothing to reveal.
    plain, plain_side = _to_move_step(play(started(battle_plans=False), until="deploy_roll"))
    refused = RULES.judge(plain.state, Order(plain_side, "reveal_plan", {}))
    assert isinstance(refused, Illegal) and "no battle plan" in refused.reason
