"""Personal combat: the refusal table, the hands, every comparison, the consequences, and the
secrecy of the hands and of each card play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.decisions import Decision
from rules_core.events import (
    CardDrawn,
    CardMoved,
    DecisionAnswered,
    DecisionRequested,
    StatusChanged,
    TestResolved,
)
from rules_core.rulesets.heroic_age import duel
from rules_core.rulesets.heroic_age.duel_tables import (
    BLACK,
    BOTH_BLACK_DOUBLE,
    BOTH_BLACK_LESS,
    BOTH_RED,
    CHAMPION,
    HANDS,
    LEADER_OR_HEROIC,
    PARRIED,
    RED,
    REFUSED,
    SPECIAL_WEAPON,
    STRUCK,
    Exchange,
    card_value,
    colour,
    exchange,
    hand_row,
)
from rules_core.rulesets.heroic_age.status import AGGRESSION, AGGRESSION_ORDER, DPS
from rules_core.secrets import Viewer, view, visible_events
from rules_core.state import BattleState
from tests.rules_core.rulesets.heroic_age.godsplay import RULES, battle, leader_named, run

KEY = "gods-1:1:duels:0"


# -- the tables --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "result"),
    [
        (1, "lose_lp"),
        (2, "lose_lp"),
        (3, "lose_lp"),
        (4, "champion"),
        (5, "champion"),
        (6, "no_effect"),
    ],
)
def test_the_refusal_table_row_by_row(score: int, result: str) -> None:
    assert REFUSED.lookup(score).result == result


def test_the_hands_as_printed() -> None:
    assert (
        HANDS.lookup(SPECIAL_WEAPON, "cards") == 8 and HANDS.lookup(SPECIAL_WEAPON, "discard") == 3
    )
    assert (
        HANDS.lookup(LEADER_OR_HEROIC, "cards") == 7
        and HANDS.lookup(LEADER_OR_HEROIC, "discard") == 2
    )
    assert HANDS.lookup(CHAMPION, "cards") == 6 and HANDS.lookup(CHAMPION, "discard") == 1
    assert hand_row(leader=True, special_weapon=True, heroic=False) == SPECIAL_WEAPON
    assert hand_row(leader=True, special_weapon=False, heroic=False) == LEADER_OR_HEROIC
    assert hand_row(leader=False, special_weapon=False, heroic=True) == LEADER_OR_HEROIC
    assert hand_row(leader=False, special_weapon=False, heroic=False) == CHAMPION


def test_who_is_dealt_what_in_the_sample_armies() -> None:
    state = battle()
    guthrum = state.leader(leader_named(state, "Guthrum"))  # special weapon
    ubba = state.leader(leader_named(state, "Ubba Ragnarsson"))  # heroic champion
    alfred = state.leader(leader_named(state, "King Alfred"))
    assert (
        duel.cards_dealt(duel.Fighter.of(guthrum)),
        duel.cards_discarded(duel.Fighter.of(guthrum)),
    ) == (8, 3)
    assert (
        duel.cards_dealt(duel.Fighter.of(alfred)),
        duel.cards_discarded(duel.Fighter.of(alfred)),
    ) == (7, 2)
    heroic = duel.Fighter.of(ubba, champion=True)
    assert heroic.heroic and (duel.cards_dealt(heroic), duel.cards_discarded(heroic)) == (7, 2)
    plain = duel.Fighter.of(alfred, champion=True)
    assert not plain.heroic and (duel.cards_dealt(plain), duel.cards_discarded(plain)) == (6, 1)


def test_colours_and_values() -> None:
    assert colour("9H") == RED and colour("9D") == RED
    assert colour("9S") == BLACK and colour("9C") == BLACK
    assert colour("JOKER1", RED) == RED and colour("JOKER2", BLACK) == BLACK
    with pytest.raises(ValueError):
        colour("JOKER1")
    assert card_value("KS", 14, 15) == 13 and card_value("AS", 14, 15) == 14
    assert card_value("AS", 1, 15) == 1 and card_value("JOKER1", 14, 15) == 15


# -- every comparison ------------------------------------------------------------------------------


def test_both_red_no_result_advantage_to_the_higher() -> None:
    assert exchange((RED, 5), (RED, 9)) == Exchange(0, 0, "second", BOTH_RED)
    assert exchange((RED, 9), (RED, 5)) == Exchange(0, 0, "first", BOTH_RED)
    assert exchange((RED, 7), (RED, 7)) == Exchange(0, 0, "dice", BOTH_RED)


def test_both_black_double_or_better_wounds_the_other() -> None:
    assert exchange((BLACK, 10), (BLACK, 5)) == Exchange(0, 1, "first", BOTH_BLACK_DOUBLE)
    assert exchange((BLACK, 3), (BLACK, 7)) == Exchange(1, 0, "second", BOTH_BLACK_DOUBLE)


def test_both_black_less_than_double_both_take_a_wound() -> None:
    assert exchange((BLACK, 9), (BLACK, 5)) == Exchange(1, 1, "first", BOTH_BLACK_LESS)
    assert exchange((BLACK, 5), (BLACK, 9)) == Exchange(1, 1, "second", BOTH_BLACK_LESS)
    assert exchange((BLACK, 8), (BLACK, 8)) == Exchange(1, 1, "dice", BOTH_BLACK_LESS)


def test_red_same_or_higher_parries() -> None:
    assert exchange((RED, 8), (BLACK, 8)) == Exchange(0, 0, "first", PARRIED)
    assert exchange((BLACK, 6), (RED, 12)) == Exchange(0, 0, "second", PARRIED)


def test_black_higher_wounds() -> None:
    assert exchange((RED, 4), (BLACK, 9)) == Exchange(1, 0, "second", STRUCK)
    assert exchange((BLACK, 13), (RED, 2)) == Exchange(0, 1, "first", STRUCK)


def test_a_joker_is_played_as_either_colour() -> None:
    plays = duel.options(("JOKER1", "5H"), _ctx())
    assert [o.id for o in plays] == ["JOKER1:red", "JOKER1:black", "5H"]


def _ctx():  # a context for the helpers that read parameters
    from rules_core.context import Context
    from rules_core.seeding import stream
    from tests.rules_core.rulesets.heroic_age.godsplay import SEED

    return Context(RULES, battle("duels"), (), (), stream(SEED, KEY))


def test_the_default_answer_reads_the_card_shown() -> None:
    ctx = _ctx()
    plays = duel.options(("3H", "9H", "10S", "4S"), ctx)
    assert duel.default_play(plays, None, ctx) == "10S"  # leading: the strongest strike
    assert duel.default_play(plays, (BLACK, 8), ctx) == "9H"  # the lowest parry that holds
    assert duel.default_play(plays, (RED, 3), ctx) == "4S"  # the lowest strike above a parry


# -- a challenge ------------------------------------------------------------------------


def challenged(state: BattleState, answer: str, choose=lambda d: None):  # type: ignore[no-untyped-def]
    guthrum = leader_named(state, "Guthrum")
    alfred = leader_named(state, "King Alfred")

    def chooser(decision: Decision) -> str | None:
        if decision.id.startswith("duel:challenge"):
            return answer
        return choose(decision)

    return (
        run(lambda ctx: duel.challenge(ctx, guthrum, alfred), state, chooser, key=KEY),
        guthrum,
        alfred,
    )


def test_an_accepted_challenge_deals_secret_hands_of_the_right_size() -> None:
    state = battle("duels")
    done, _, alfred = challenged(state, "accept")
    discards = [d for d in done.asked if ":discard" in d.id]
    by_side = {side: [d for d in discards if d.who == side] for side in ("danes", "saxons")}
    assert len(by_side["danes"]) == 3 and len(by_side["saxons"]) == 2  # Guthrum 8-3, Alfred 7-2
    assert (
        len(by_side["danes"][0].options) == 8 + 1 and len(by_side["saxons"][0].options) == 7 + 1
    )  # + auto
    assert all(
        d.private and d.deadline_hours == 8.0 for d in done.asked if d.id.startswith("duel1")
    )
    plays = [d for d in done.asked if ":play" in d.id]
    assert plays and all(d.private for d in plays)
    assert done.state.leader(alfred).status.get("lps_spent") == 3


def test_the_other_side_never_sees_a_hand_or_a_private_play() -> None:
    state = battle("duels")
    done, guthrum, _ = challenged(state, "accept")
    saxons, danes = Viewer.of_side("saxons"), Viewer.of_side("danes")
    shown = visible_events(done.ctx.events, saxons)
    dealt = [e for e in shown if isinstance(e, CardDrawn) and e.draw.deck == "duel1_danes"]
    assert len(dealt) == 8 and all(e.draw.card == "" for e in dealt)  # Guthrum's eight, unseen
    own = [e for e in shown if isinstance(e, CardDrawn) and e.draw.deck == "duel1_saxons"]
    assert len(own) == 7 and all(e.draw.card for e in own)
    for event in shown:  # a Danish question or answer reaches the Saxons masked
        if isinstance(event, DecisionRequested) and event.decision.who == "danes":
            assert event.decision.option_ids == ("?",)
        if isinstance(event, DecisionAnswered) and event.decision.endswith(":danes"):
            assert event.choice == "?"
    kept = [
        e
        for e in shown
        if isinstance(e, CardMoved) and e.what == "retain" and e.deck == "duel1_danes"
    ]
    assert len(kept) == 3 and all(e.card == "" for e in kept)  # the discards stay face down
    deck = view(done.state, saxons).deck("duel1_danes")
    assert set(deck.hand(guthrum)) <= {"?"} and set(deck.kept(guthrum)) == {"?"}
    assert view(done.state, danes).deck("duel1_danes").kept(guthrum) == done.state.deck(
        "duel1_danes"
    ).kept(guthrum)


def test_a_duel_runs_to_a_kill_or_the_end_of_the_hands() -> None:
    state = battle("duels")
    done, _, _ = challenged(state, "accept")
    exchanges = [e for e in done.ctx.events if isinstance(e, TestResolved) and "exchange" in e.test]
    killed = {ld.id for ld in state.leaders} - {ld.id for ld in done.state.leaders}
    assert 1 <= len(exchanges) <= 5  # five cards each after the discards
    if not killed:
        assert len(exchanges) == 5
    for ld in done.state.leaders:
        assert not ld.status.get("in_duel")


@pytest.mark.parametrize("result", ["lose_lp", "champion", "no_effect"])
def test_a_refused_challenge_rolls_on_the_table(result: str) -> None:
    for attempt in range(60):
        state = battle("duels")
        guthrum = leader_named(state, "Guthrum")
        alfred = leader_named(state, "King Alfred")
        done = run(
            lambda ctx, g=guthrum, a=alfred: duel.challenge(ctx, g, a),
            state,
            lambda d: "refuse" if d.id.startswith("duel:challenge") else None,
            key=f"gods-1:1:duels:{attempt}",
        )
        test = next(
            e for e in done.ctx.events if isinstance(e, TestResolved) and e.test == REFUSED.name
        )
        if REFUSED.lookup(test.score).result != result:
            continue
        plays = [d for d in done.asked if ":play" in d.id]
        lps = done.state.leader(alfred).points
        if result == "lose_lp":
            assert lps == state.leader(alfred).points - 1 and not plays
        elif result == "champion":
            assert plays  # Alfred's (plain) champion fights: 6 cards, discard 1
            discards = [d for d in done.asked if ":discard" in d.id and d.who == "saxons"]
            assert len(discards) == 1 and len(discards[0].options) == 6 + 1  # + auto
        else:
            assert lps == state.leader(alfred).points and not plays
        return
    raise AssertionError(f"no refusal gave {result}")


def test_a_leader_without_3_lps_must_refuse() -> None:
    state = battle("duels")
    alfred = leader_named(state, "King Alfred")
    a = state.leader(alfred)
    state = state.with_leader(replace(a, status={**a.status, "lps_spent": a.points - 2}))
    done, _, _ = challenged(state, "accept")
    assert not [d for d in done.asked if d.id.startswith("duel:challenge")]
    assert any(isinstance(e, TestResolved) and e.test == REFUSED.name for e in done.ctx.events)


# -- the consequences -----------------------------------------------------------------------------


def settled(
    state: BattleState, a: duel.Fighter, b: duel.Fighter, wounds: dict[str, int]
) -> BattleState:
    return run(lambda ctx: duel.settle(ctx, a, b, wounds), state, key=KEY).state


def _level(state: BattleState, unit_id: str) -> int:
    return AGGRESSION_ORDER.index(AGGRESSION.of(state.unit(unit_id)))


def test_a_kill_raises_the_winner_and_his_contingent_and_disorders_the_losers() -> None:
    state = battle("duels")
    guthrum = state.leader(leader_named(state, "Guthrum"))
    alfred = state.leader(leader_named(state, "King Alfred"))
    after = settled(
        state, duel.Fighter.of(guthrum), duel.Fighter.of(alfred), {guthrum.id: 1, alfred.id: 3}
    )
    assert alfred.id not in {ld.id for ld in after.leaders}  # killed: he leaves the battle
    assert after.leader(guthrum.id).points == guthrum.points + 1
    for unit in state.units:
        if unit.group == guthrum.group:
            assert _level(after, unit.id) == min(3, _level(state, unit.id) + 1), unit.name
        if unit.group == alfred.group:
            assert DPS.of(after.unit(unit.id)) >= DPS.of(unit) + 1, unit.name


def test_no_lp_for_a_kill_when_a_champion_fought_or_with_two_wounds() -> None:
    state = battle("duels")
    guthrum = state.leader(leader_named(state, "Guthrum"))
    alfred = state.leader(leader_named(state, "King Alfred"))
    champion = duel.Fighter.of(alfred, champion=True)
    after = settled(state, duel.Fighter.of(guthrum), champion, {guthrum.id: 0, alfred.id: 3})
    assert after.leader(guthrum.id).points == guthrum.points  # a champion fought
    assert after.leader(alfred.id).points == alfred.points  # his champion died, not he
    after = settled(
        state, duel.Fighter.of(guthrum), duel.Fighter.of(alfred), {guthrum.id: 2, alfred.id: 3}
    )
    assert after.leader(guthrum.id).points == guthrum.points - 1  # no +1, and -1 for 2 wounds


def test_no_kill_honour_is_satisfied_two_wounds_cost_an_lp() -> None:
    state = battle("duels")
    guthrum = state.leader(leader_named(state, "Guthrum"))
    alfred = state.leader(leader_named(state, "King Alfred"))
    done = run(
        lambda ctx: duel.settle(
            ctx, duel.Fighter.of(guthrum), duel.Fighter.of(alfred), {guthrum.id: 2, alfred.id: 1}
        ),
        state,
        key=KEY,
    )
    assert any(
        isinstance(e, TestResolved) and "honour is satisfied" in e.row for e in done.ctx.events
    )
    assert done.state.leader(guthrum.id).points == guthrum.points - 1
    assert done.state.leader(alfred.id).points == alfred.points
    assert levels_equal(state, done.state)


def levels_equal(a: BattleState, b: BattleState) -> bool:
    return all(AGGRESSION.of(u) == AGGRESSION.of(b.unit(u.id)) for u in a.units)


def test_the_tables_drive_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_core.tables import Band, GridTable, ScoreTable

    rows = dict(HANDS.rows)
    rows[SPECIAL_WEAPON] = (9, 4)
    monkeypatch.setattr(duel, "HANDS", GridTable(HANDS.name, HANDS.columns, rows))
    done, _, _ = challenged(battle("duels"), "accept")
    danish = [d for d in done.asked if ":discard" in d.id and d.who == "danes"]
    assert len(danish) == 4 and len(danish[0].options) == 9 + 1  # Guthrum now 9 cards, 4 away
    always = ScoreTable(REFUSED.name, (Band(1, 6, "lose_lp", "Loose 1 LP."),))
    monkeypatch.setattr(duel, "REFUSED", always)
    monkeypatch.setattr(duel, "REFUSAL_LPS", 2)
    state = battle("duels")
    alfred = leader_named(state, "King Alfred")
    refused, _, _ = challenged(state, "refuse")
    assert refused.state.leader(alfred).points == state.leader(alfred).points - 2


def test_a_leaders_own_duel_wounds_show_on_his_badge() -> None:
    state = battle("duels")
    done, _, _ = challenged(state, "accept")
    hurt = {
        e.subject: e.new
        for e in done.ctx.events
        if isinstance(e, StatusChanged) and e.field == "duel_wounds" and e.new
    }
    assert hurt  # someone was wounded in this duel
    for leader_id, count in hurt.items():
        survivor = next((ld for ld in done.state.leaders if ld.id == leader_id), None)
        if survivor is not None:
            assert survivor.wounds == state.leader(leader_id).wounds + count
