"""The god pack: the deck, who draws, every card's effect, the holy person, the retained Five
and Seven, and what the other side may see."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from rules_core.cards import RANKS, Card, DeckState
from rules_core.decisions import Decision
from rules_core.dice import Dice, Roll
from rules_core.events import CardDrawn, Private
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import gods, leadership
from rules_core.rulesets.heroic_age.gods_tables import GOD_PACK, god_card
from rules_core.rulesets.heroic_age.status import (
    AGGRESSION,
    AGGRESSION_ORDER,
    DPS,
    LPS_SPENT,
    RAIN_UNTIL_TURN,
    SKILLED_ARCHER,
)
from rules_core.secrets import Viewer, view, visible_events
from rules_core.standing import Standing, standing_answer
from rules_core.state import BattleState
from tests.rules_core.rulesets.heroic_age.godsplay import (
    RULES,
    battle,
    leader_named,
    run,
    unit_named,
)


def rigged(
    state: BattleState, *codes: str, hands: dict[str, tuple[str, ...]] | None = None
) -> BattleState:
    """The god pack with only ``codes`` left to draw (and the given hands)."""
    return state.with_deck(DeckState(gods.DECK, tuple(codes), hands=hands or {}))


def level(state: BattleState, unit_id: str) -> int:
    return AGGRESSION_ORDER.index(AGGRESSION.of(state.unit(unit_id)))


def levels(state: BattleState) -> dict[str, int]:
    return {u.id: level(state, u.id) for u in state.units}


# -- the table -----------------------------------------------------------------------------------


def test_the_pack_reads_as_the_sheet() -> None:
    for rank in ("2", "4", "6", "8", "9", "10"):
        assert GOD_PACK[rank].effect == "none"
        assert GOD_PACK[rank].text == "Number cards other than 3, 5 or 7: No impact"
    effects = {rank: GOD_PACK[rank].effect for rank in ("3", "5", "7", "J", "Q", "K", "A")}
    assert effects == {
        "3": "bad_omen", "5": "skilled_archer", "7": "fortune", "J": "hard_drinking",
        "Q": "beautiful_woman", "K": "new_hero", "A": "favoured",
    }  # fmt: skip
    assert GOD_PACK["JOKER1"].effect == "heavy_rain" and GOD_PACK["JOKER2"].effect == "terror"
    assert {r for r, row in GOD_PACK.items() if row.retained} == {"5", "7"}
    assert "chosen by the opposing player" in GOD_PACK["3"].text
    assert "4-6, this and following turn" in GOD_PACK["JOKER1"].text
    assert god_card("7H").title == "Fortune smiles" and god_card("JOKER2").title == "Terror"
    assert set(GOD_PACK) == {*RANKS, "JOKER1", "JOKER2"}


def test_each_side_draws_one_card_a_turn_from_a_pack_of_54() -> None:
    done = run(gods.resolve_invoke, battle())
    deck = done.state.deck(gods.DECK)
    assert len(deck.every_card()) == 54
    drawn = [
        e for e in done.ctx.events if isinstance(e, Private) and isinstance(e.event, CardDrawn)
    ]
    assert [e.audience for e in drawn] == ["saxons", "danes"]  # the side order
    assert len(deck.pile) == 52


def test_god_draws_is_a_parameter() -> None:
    state = replace(battle(), parameters={"god_draws": 3})
    done = run(gods.resolve_invoke, state)
    assert len(done.state.deck(gods.DECK).pile) == 48


# -- each card ------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["2C", "4D", "6H", "8S", "9C", "10D"])
def test_number_cards_have_no_impact(code: str) -> None:
    state = rigged(battle(), code)
    done = run(lambda ctx: gods.invoke(ctx, "saxons"), state)
    assert done.state.units == state.units and done.state.leaders == state.leaders
    assert done.state.deck(gods.DECK).discards == (code,)
    assert all(d.topic == "holy" for d in done.asked)  # only the holy person is asked
    assert "No impact" in str(done.state.status.get("god_card"))


def test_the_three_is_chosen_by_the_opponent() -> None:
    state = rigged(battle(), "3C")
    thegns = unit_named(state, "Somerset Thegns")
    done = run(
        lambda ctx: gods.invoke(ctx, "saxons"),
        state,
        lambda d: thegns if d.answer == "unit" else None,
    )
    omen = [d for d in done.asked if d.id.startswith("bad_omen")]
    assert len(omen) == 1 and omen[0].who == "danes" and omen[0].answer == "unit"
    assert set(omen[0].option_ids) - {gods.AUTO} == {u.id for u in state.units_of("saxons")}
    before, after = levels(state), levels(done.state)
    assert after[thegns] == before[thegns] - 1
    assert {k: v for k, v in after.items() if k != thegns} == {
        k: v for k, v in before.items() if k != thegns
    }


def test_the_rules_choose_when_told_and_a_standing_instruction_tells_them() -> None:
    state = rigged(battle(), "3C")
    done = run(lambda ctx: gods.invoke(ctx, "saxons"), state)  # every question: its default
    omen = next(d for d in done.asked if d.id.startswith("bad_omen"))
    assert omen.default == gods.AUTO and omen.topic == gods.GOD_CHOICE
    dropped = [u.id for u in state.units if level(done.state, u.id) < level(state, u.id)]
    most = max(state.units_of("saxons"), key=lambda u: level(state, u.id))
    assert dropped == [most.id]  # the rules' choice: the most aggressive unit
    found = standing_answer(RULES, state, omen, [Standing("danes", gods.GOD_CHOICE, gods.AUTO)])
    assert found is not None and found.choice == gods.AUTO


def test_the_jack_gives_every_retinue_of_the_drawer_a_dp() -> None:
    state = rigged(battle(), "JS")
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    for unit in state.units:
        gained = DPS.of(done.state.unit(unit.id)) - DPS.of(unit)
        assert gained == (1 if unit.side == "danes" and unit.type == "retinue" else 0), unit.name


def test_the_queen_raises_a_retinue_of_the_drawers_choice() -> None:
    state = rigged(battle(), "QD")
    thegns = unit_named(state, "Somerset Thegns")
    done = run(
        lambda ctx: gods.invoke(ctx, "saxons"),
        state,
        lambda d: thegns if d.answer == "unit" else None,
    )
    queen = [d for d in done.asked if d.id.startswith("woman")]
    assert len(queen) == 1 and queen[0].who == "saxons"
    assert set(queen[0].option_ids) - {gods.AUTO} == {
        u.id for u in state.units_of("saxons") if u.type == "retinue"
    }
    assert level(done.state, thegns) == level(state, thegns) + 1


def test_the_ace_raises_a_leader_of_the_drawers_choice() -> None:
    state = rigged(battle(), "AH")
    ubba = leader_named(state, "Ubba Ragnarsson")
    done = run(
        lambda ctx: gods.invoke(ctx, "danes"),
        state,
        lambda d: ubba if d.answer == "leader" else None,
    )
    ace = [d for d in done.asked if d.id.startswith("favoured")]
    assert len(ace) == 1 and ace[0].who == "danes"
    assert done.state.leader(ubba).points == state.leader(ubba).points + 1


def _challenging(leader: str) -> Callable[[Decision], str | None]:
    """Answers for a King card: the new hero challenges ``leader``, who refuses."""

    def choose(decision: Decision) -> str | None:
        if decision.answer == "leader":
            return leader
        return "refuse" if decision.id.startswith("duel:challenge") else None

    return choose


def test_the_king_reveals_a_hero_who_challenges_at_once() -> None:
    state = rigged(battle(), "KC")
    alfred = leader_named(state, "King Alfred")

    done = run(lambda ctx: gods.invoke(ctx, "danes"), state, _challenging(alfred))
    heroes = [ld for ld in done.state.leaders if ld.id.startswith("danes_hero")]
    assert len(heroes) == 1 and heroes[0].side == "danes"
    assert heroes[0].points == RULES.parameter_values()["hero_lps"]
    challenge = [d for d in done.asked if d.id.startswith("duel:challenge")]
    assert len(challenge) == 1 and challenge[0].who == "saxons" and challenge[0].unit == alfred


def test_a_new_hero_takes_a_number_no_leader_on_the_table_has() -> None:
    # The first hero fell, the second still fights: the third must not be named the second.
    state = rigged(battle(), "KC")
    home = next(ld for ld in state.leaders if ld.side == "danes")
    second = replace(home, id="danes_hero2", name="Hero 2 of the Danes", status={})
    state = replace(state, leaders=(*state.leaders, second))
    alfred = leader_named(state, "King Alfred")

    done = run(lambda ctx: gods.invoke(ctx, "danes"), state, _challenging(alfred))
    heroes = sorted(ld.id for ld in done.state.leaders if ld.id.startswith("danes_hero"))
    assert heroes == ["danes_hero2", "danes_hero3"]


def test_the_first_joker_brings_rain_this_and_the_following_turn() -> None:
    state = rigged(battle(), "JOKER1")
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    assert RAIN_UNTIL_TURN.of(done.state) == state.cursor.turn + 1


def test_the_second_joker_terrifies_every_unit_of_both_armies() -> None:
    state = rigged(battle(), "JOKER2")
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    for unit in state.units:
        expected = max(0, level(state, unit.id) - 1)
        assert level(done.state, unit.id) == expected, unit.name


# -- the holy person -------------------------------------------------------------------------------


def test_a_holy_person_may_cancel_a_card_for_one_lp() -> None:
    state = rigged(battle(), "QH")  # the Danes' Queen
    alfred = leader_named(state, "King Alfred")
    done = run(
        lambda ctx: gods.invoke(ctx, "danes"),
        state,
        lambda d: "cancel" if d.topic == "holy" else None,
    )
    holy = [d for d in done.asked if d.topic == "holy"]
    assert [d.who for d in holy] == ["saxons"]  # only the Saxons have a holy person
    assert LPS_SPENT.of(done.state.leader(alfred)) == 1
    assert levels(done.state) == levels(state)  # the Queen had no effect
    assert done.state.deck(gods.DECK).discards == ("QH",)


def test_a_holy_person_may_cancel_and_draw_again() -> None:
    state = rigged(battle(), "4C")
    answers = iter(["cancel_draw", "pass"])
    done = run(
        lambda ctx: gods.invoke(ctx, "saxons"),
        state,
        lambda d: next(answers) if d.topic == "holy" else None,
    )
    drawn = [
        e for e in done.ctx.events if isinstance(e, Private) and isinstance(e.event, CardDrawn)
    ]
    assert len(drawn) == 2  # the 4 was cancelled, the pack reshuffled and drawn again


def test_both_sides_calling_cancel_each_other_out() -> None:
    state = rigged(battle(), "JOKER1")
    guthrum = leader_named(state, "Guthrum")
    g = state.leader(guthrum)
    state = state.with_leader(replace(g, status={**g.status, "holy_person": True}))
    done = run(
        lambda ctx: gods.invoke(ctx, "danes"),
        state,
        lambda d: "cancel" if d.topic == "holy" else None,
    )
    assert sorted(d.who for d in done.asked if d.topic == "holy") == ["danes", "saxons"]
    assert RAIN_UNTIL_TURN.of(done.state) == 2  # the card stood
    assert all(LPS_SPENT.of(ld) == 1 for ld in done.state.leaders if ld.status.get("holy_person"))


def test_a_standing_instruction_answers_the_holy_person() -> None:
    state = rigged(battle(), "QH")
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    asked = next(d for d in done.asked if d.topic == "holy")
    bad = Standing("saxons", "holy", "cancel", "bad_for_us")
    found = standing_answer(RULES, state, asked, [bad])
    assert found is not None and found.choice == "cancel"
    own = rigged(battle(), "QH")
    mine = run(lambda ctx: gods.invoke(ctx, "saxons"), own)
    assert not [d for d in mine.asked if d.topic == "holy"]  # our own Queen: nothing to cancel
    rain = rigged(battle(), "JOKER1")
    wet = run(lambda ctx: gods.invoke(ctx, "saxons"), rain)
    asked_rain = next(d for d in wet.asked if d.topic == "holy")
    assert standing_answer(RULES, rain, asked_rain, [bad]) is None  # rain harms both alike
    always = Standing("saxons", "holy", "pass")
    found = standing_answer(RULES, rain, asked_rain, [bad, always])
    assert found is not None and found.choice == "pass"


def test_the_holy_person_is_asked_only_when_cancelling_could_serve() -> None:
    cases = {("saxons", "4C"): True, ("danes", "4C"): False, ("saxons", "3C"): True,
             ("danes", "3C"): False, ("saxons", "KD"): False, ("danes", "KD"): True,
             ("danes", "JOKER2"): True}  # fmt: skip
    for (drawer, code), asked in cases.items():
        done = run(lambda ctx, d=drawer: gods.invoke(ctx, d), rigged(battle(), code))
        holy = [d for d in done.asked if d.topic == "holy"]
        assert bool(holy) == asked, (drawer, code)


def test_no_holy_question_without_lps_left() -> None:
    state = rigged(battle(), "QH")
    alfred = leader_named(state, "King Alfred")
    a = state.leader(alfred)
    state = state.with_leader(replace(a, status={**a.status, "lps_spent": a.points}))
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    assert not [d for d in done.asked if d.topic == "holy"]


# -- the retained cards ----------------------------------------------------------------------------


def test_a_five_or_seven_is_kept_in_secret() -> None:
    state = rigged(battle(), "7S")
    done = run(lambda ctx: gods.invoke(ctx, "saxons"), state)
    assert done.state.deck(gods.DECK).hand("saxons") == ("7S",)
    assert not done.asked  # nothing shown, nothing to cancel
    seen = view(done.state, Viewer.of_side("danes")).deck(gods.DECK)
    assert seen.hand("saxons") == ("?",)
    shown = " ".join(repr(e) for e in visible_events(done.ctx.events, Viewer.of_side("danes")))
    assert "7S" not in shown and "Fortune" not in shown


def seven_roll(total_low: bool) -> Roll:
    import random

    for seed in range(200):
        roll = Dice(random.Random(seed)).roll("Combat: test", 2)
        if (roll.total < 4) == total_low:
            return roll
    raise AssertionError


def test_the_seven_rerolls_a_set_of_dice_when_played() -> None:
    state = rigged(battle(), hands={"saxons": ("7C",)})
    roll = seven_roll(True)
    out: list[Roll] = []
    done = run(
        lambda ctx: out.append(gods.reroll(ctx, "saxons", "the test dice", roll)),
        state,
        lambda d: "use",
    )
    (asked,) = done.asked
    assert asked.private and asked.topic == "seven" and asked.who == "saxons"
    assert asked.deadline_hours == RULES.parameter_values()["seven_hours"]
    assert all(die.rerolled for die in out[-1].dice)
    assert done.state.deck(gods.DECK).hand("saxons") == ()
    assert done.state.deck(gods.DECK).discards == ("7C",)


def test_the_seven_is_kept_unless_played_and_never_offered_without_one() -> None:
    state = rigged(battle(), hands={"saxons": ("7C",)})
    roll = seven_roll(True)
    out: list[Roll] = []
    done = run(lambda ctx: out.append(gods.reroll(ctx, "saxons", "dice", roll)), state)
    assert out[-1] is roll and done.state.deck(gods.DECK).hand("saxons") == ("7C",)
    none = run(lambda ctx: out.append(gods.reroll(ctx, "danes", "dice", roll)), state)
    assert not none.asked and out[-1] is roll


def test_a_standing_instruction_plays_the_seven_below_a_score() -> None:
    state = rigged(battle(), hands={"saxons": ("7C",)})
    below = Standing("saxons", "seven", "use", "below_4")
    low, high = seven_roll(True), seven_roll(False)
    asked_low = run(lambda ctx: gods.reroll(ctx, "saxons", "dice", low), state).asked[0]
    asked_high = run(lambda ctx: gods.reroll(ctx, "saxons", "dice", high), state).asked[0]
    found = standing_answer(RULES, state, asked_low, [below])
    assert found is not None and found.choice == "use"
    assert standing_answer(RULES, state, asked_high, [below]) is None


def test_the_five_is_played_by_order_and_marks_a_skilled_archer() -> None:
    state = rigged(battle("leadership"), hands={"danes": ("5H",)})
    bowmen = unit_named(state, "Danish Bowmen")
    order = Order("danes", "skilled_archer", {"unit": bowmen})
    assert RULES.judge(state, order).legal
    assert not RULES.judge(state, Order("saxons", "skilled_archer", {"unit": bowmen})).legal
    done = run(leadership.resolve, state, orders=(order,), key="gods-1:1:leadership:0")
    assert SKILLED_ARCHER.of(done.state.unit(bowmen))
    assert done.state.deck(gods.DECK).discards == ("5H",)


def test_every_card_code_reads_a_row() -> None:
    for code in [c.code for c in __import__("rules_core.cards").cards.full_deck()]:
        assert (
            god_card(code)
            is GOD_PACK[code if code.startswith("JOKER") else Card.from_code(code).rank]
        )


def test_the_pack_drives_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GOD_PACK, "2", GOD_PACK["JOKER2"])  # a Two now terrifies
    state = rigged(battle(), "2C")
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    assert all(level(done.state, u.id) == max(0, level(state, u.id) - 1) for u in state.units)
    monkeypatch.setattr(gods, "DRINKING_DPS", 3)
    drunk = run(lambda ctx: gods.invoke(ctx, "danes"), rigged(battle(), "JC"))
    assert {DPS.of(u) for u in drunk.state.units_of("danes") if u.type == "retinue"} == {3}


def test_no_holy_question_when_his_unit_is_in_combat() -> None:
    state = rigged(battle(), "QH")
    alfred = state.leader(leader_named(state, "King Alfred"))
    home = state.unit(str(alfred.attached_to))
    state = state.with_unit(replace(home, status={**home.status, "in_combat": True}))
    done = run(lambda ctx: gods.invoke(ctx, "danes"), state)
    assert not [d for d in done.asked if d.topic == "holy"]
