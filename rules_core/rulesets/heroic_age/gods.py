"""Invoke the Gods: the god pack, its card effects, the holy person, and the retained cards.

The god pack is one deck of 52 cards and two Jokers (``DECK``), made at the first Invoke the
Gods through the verifiable card API. Each turn every side draws ``god_draws`` cards in the
turn's side order (the sheet does not say who draws or how often: a parameter). A card is
drawn into the side's hand (privately). A Five or a Seven ("may be retained to play later")
stays there, unseen by the enemy, until it is played; every other card is turned face up and
its row of ``gods_tables.GOD_PACK`` applies at once ("Results applied immediately").

A card turned face up may be cancelled by a holy person: each side with a leader who is a holy
person and has an LP left is asked (topic ``holy``, which standing instructions answer) whether
to call on him (1 LP) to cancel the card, and optionally to draw another; if both sides call
they cancel each other out and the card stands.

The Seven is offered through ``reroll``, which the other phases call at each set of dice a
side throws: a private question (topic ``seven``) a standing instruction can answer ("use the
Seven when a set of dice scores below 4"). The Five is played with the side's ``skilled_archer``
order in the Leadership step: it marks one unit ``skilled_archer`` and the missile exchange
doubles one stand's dice of that unit.
"""

from __future__ import annotations

from dataclasses import replace

from rules_core.cards import Card, EmptyDeckError
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.events import TestResolved, logged_test
from rules_core.plugin import Parameter
from rules_core.rulesets.heroic_age import duel, lps, units
from rules_core.rulesets.heroic_age.gods_tables import (
    BAD_OMEN_LEVELS,
    DRINKING_DPS,
    FAVOURED_LPS,
    HOLY_PERSON_LPS,
    RAIN_TURNS,
    TERROR_LEVELS,
    WOMAN_LEVELS,
    GodCard,
    god_card,
)
from rules_core.rulesets.heroic_age.retained import (
    DECK,
    SEVEN,
    SEVEN_WORDS,
    log_count,
    play_five,
    reroll,
)
from rules_core.rulesets.heroic_age.status import (
    AGGRESSION,
    AGGRESSION_ORDER,
    CINC,
    HOLY_PERSON,
    LPS_SPENT,
    SKILLED_ARCHER,
)
from rules_core.standing import AUTO, Condition, Predicate, Topic
from rules_core.state import BattleState, Leader, Unit

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter(
        "god_draws", 1, "cards each side draws from the god pack each turn, in side order", SILENT
    ),
    Parameter("hero_lps", 1, "LPs of the new hero the King reveals", SILENT),
    Parameter(
        "seven_hours", 8.0, "hours to answer whether to use the Seven on a set of dice", SILENT
    ),
)

HOLY = "holy"
GOD_CHOICE = "god_choice"
HOLY_WORDS = {
    "pass": "let the card stand",
    "cancel": "call on the holy person (1 LP) to cancel it",
    "cancel_draw": "call on the holy person (1 LP) to cancel it and draw another",
}
# Which cards help or harm the side that drew them (for the holy person's conditions).
HARMS_DRAWER = frozenset({"bad_omen", "hard_drinking"})
HELPS_DRAWER = frozenset({"beautiful_woman", "new_hero", "favoured"})
# The Jack's DP is the night's drinking telling, not combat, shooting or morale: like fatigue
# it never turns into a lost level under the 4-DP rule.
DRINKING_CAUSE = "fatigue"


def _holy_card(decision: Decision) -> tuple[str, str]:
    """The drawer and the card a holy-person question is about (its id:
    ``holy:<drawer>:<card>:<n>:<side>``); KeyError for another question."""
    parts = decision.id.split(":")
    if len(parts) < 3 or parts[0] != HOLY:
        raise KeyError(decision.id)
    try:
        Card.from_code(parts[2])
    except ValueError as error:
        raise KeyError(decision.id) from error
    return parts[1], parts[2]


def _judged(test: Predicate) -> Predicate:
    """A condition that is False for a question it cannot read."""

    def holds(state: BattleState, decision: Decision) -> bool:
        try:
            return test(state, decision)
        except (KeyError, ValueError):
            return False

    return holds


def _bad_for_us(state: BattleState, decision: Decision) -> bool:
    drawer, code = _holy_card(decision)
    effect = god_card(code).effect
    return effect in (HARMS_DRAWER if drawer == decision.who else HELPS_DRAWER)


def _no_impact(state: BattleState, decision: Decision) -> bool:
    drawer, code = _holy_card(decision)
    return drawer == decision.who and god_card(code).effect == "none"


def _joker(state: BattleState, decision: Decision) -> bool:
    return Card.from_code(_holy_card(decision)[1]).is_joker


def _seven_scores(decision: Decision) -> tuple[float, float]:
    """The score and the average score of the dice a Seven question is about (its id:
    ``seven:<side>:<n>:<score>:<average>``); KeyError for another question."""
    parts = decision.id.split(":")
    if len(parts) != 5 or parts[0] != SEVEN:
        raise KeyError(decision.id)
    return float(parts[3]), float(parts[4])


def _below(limit: int) -> Condition:
    return Condition(
        f"below_{limit}",
        f"if the dice score below {limit}",
        _judged(lambda state, decision: _seven_scores(decision)[0] < limit),
    )


TOPICS = (
    Topic.computed(
        GOD_CHOICE, "the unit or leader a card of the god pack asks for (Three, Queen, Ace, King)"
    ),
    Topic.of(
        HOLY,
        "call on a holy person to cancel a card of the god pack",
        HOLY_WORDS,
        (
            Condition(
                "bad_for_us", "if the card harms us or helps the enemy", _judged(_bad_for_us)
            ),
            Condition("no_impact", "if our own card has no impact", _judged(_no_impact)),
            Condition("joker", "if the card is a Joker", _judged(_joker)),
        ),
    ),
    Topic.of(
        SEVEN,
        "play the Seven (Fortune smiles) to re-roll a set of dice",
        SEVEN_WORDS,
        (
            Condition(
                "below_average",
                "if the dice score below their average",
                _judged(lambda state, d: _seven_scores(d)[0] < _seven_scores(d)[1]),
            ),
            Condition(
                "nothing",
                "if the dice score nothing",
                _judged(lambda state, decision: _seven_scores(decision)[0] <= 0),
            ),
            *(_below(limit) for limit in range(2, 8)),
        ),
    ),
)


# -- the step ---------------------------------------------------------------------------------


def resolve_invoke(ctx: Context) -> None:
    """Invoke the Gods: this turn's LP spending starts afresh, then each side draws its cards
    in the turn's side order (the sheet: "Results applied immediately")."""
    lps.new_allowance(ctx)
    if not any(deck.id == DECK for deck in ctx.state.decks):
        ctx.cards(DECK).create(jokers=True)
    order = ctx.state.cursor.side_order or tuple(side.id for side in ctx.state.sides)
    for side in order:
        for _ in range(int(ctx.number("god_draws"))):
            invoke(ctx, side)


def draw(ctx: Context, side: str) -> str:
    """One card of the god pack into the side's hand; the discards are shuffled back when the
    pile is empty."""
    cards = ctx.cards(DECK)
    if not cards.remaining:
        cards.shuffle()
    try:
        return cards.draw(side)
    except EmptyDeckError:  # every card is held back: nothing to draw
        return ""


def invoke(ctx: Context, side: str) -> None:
    """A side draws a card: a Five or Seven is kept back, any other card is shown, may be
    cancelled by a holy person, and otherwise takes effect."""
    code = draw(ctx, side)
    if not code:
        return
    row = god_card(code)
    cards = ctx.cards(DECK)
    name = ctx.state.side(side).name
    if row.retained:
        kept = TestResolved(
            side, f"The god pack: {Card.from_code(code)}", 0, False, row.text, False
        )
        ctx.emit_private(side, kept)
        return
    cards.play(side, code)
    shown = f"{name}: {Card.from_code(code)}, {row.title}"
    ctx.set_battle_status("the god pack", god_card=shown)
    score = Card.from_code(code).value
    ctx.emit(
        TestResolved(side, f"The god pack: {Card.from_code(code)}", score, False, row.text, False)
    )
    cancelled, again = holy_person(ctx, side, code)
    cards.discard(None, code)
    if cancelled:
        if again:
            invoke(ctx, side)
        return
    apply(ctx, side, code, row)


# -- the holy person ---------------------------------------------------------------------------


def holy_leader(state: BattleState, side: str) -> Leader | None:
    """The side's first holy person able to spend an LP now (one left this turn, not in
    combat: "allocate LPs if not in combat"), or None."""
    for leader in state.leaders:
        if leader.side != side or not HOLY_PERSON.of(leader):
            continue
        if lps.in_combat(state, leader):
            continue
        if lps.available(state, leader) >= HOLY_PERSON_LPS:
            return leader
    return None


def worth_cancelling(drawer: str, side: str, code: str) -> bool:
    """Whether cancelling a card could serve a side, so that it is asked: its own card that
    harms it or has no impact (to draw again), an enemy card that helps the enemy, a Joker."""
    effect = god_card(code).effect
    if Card.from_code(code).is_joker:
        return True
    if side == drawer:
        return effect in HARMS_DRAWER or effect == "none"
    return effect in HELPS_DRAWER


def holy_person(ctx: Context, drawer: str, code: str) -> tuple[bool, bool]:
    """Whether a holy person cancels the card, and whether another is drawn: each side with a
    holy person is asked in turn (side order, seeing the earlier answers); both calling cancel
    each other out."""
    order = ctx.state.cursor.side_order or tuple(s.id for s in ctx.state.sides)
    askers = [
        (side, ld)
        for side in order
        if worth_cancelling(drawer, side, code) and (ld := holy_leader(ctx.state, side))
    ]
    if not askers:
        return False, False
    card = Card.from_code(code)
    count = sum(1 for e in ctx.events if logged_test(e))
    questions = [
        Decision(
            f"holy:{drawer}:{code}:{count}:{side}",
            f"{ctx.state.side(drawer).name} drew {card} ({god_card(code).title}). Does "
            f"{leader.name} call on the gods to cancel it (1 LP)?",
            tuple(Option(k, v) for k, v in HOLY_WORDS.items()),
            "pass",
            side,
            topic=HOLY,
            unit=leader.id,
        )
        for side, leader in askers
    ]
    answers = [ctx.ask(question) for question in questions]  # one at a time, in side order
    callers = [(side, ld, a) for (side, ld), a in zip(askers, answers, strict=True) if a != "pass"]
    for side, leader, _ in callers:
        spent = LPS_SPENT.of(ctx.state.leader(leader.id)) + HOLY_PERSON_LPS
        ctx.set_leader_status(leader.id, "called on the gods", lps_spent=spent)
        ctx.set_side_status(side, None, holy_called=True)
    if len(callers) != 1:
        if callers:
            ctx.emit(
                TestResolved(
                    drawer,
                    "Holy persons",
                    len(callers),
                    False,
                    "If both sides do this they cancel each other out.",
                    False,
                )
            )
        return False, False
    side, leader, answer = callers[0]
    row = "leader with Holy Person may use 1 LP to cancel the card and optionally draw another"
    ctx.emit(TestResolved(leader.id, f"Holy person cancels {card}", 1, True, row, False))
    return True, answer == "cancel_draw"


# -- the effects ----------------------------------------------------------------------------


def apply(ctx: Context, side: str, code: str, row: GodCard) -> None:
    """A card shown face up takes effect for the side that drew it."""
    card = Card.from_code(code)
    reason = f"{row.title} ({card})"
    if row.effect == "bad_omen":
        _bad_omen(ctx, side, reason)
    elif row.effect == "hard_drinking":
        for unit in retinues(ctx.state, side):
            units.add_dps(ctx, unit.id, DRINKING_DPS, reason, DRINKING_CAUSE)
    elif row.effect == "beautiful_woman":
        _woman(ctx, side, reason)
    elif row.effect == "new_hero":
        _new_hero(ctx, side, reason)
    elif row.effect == "favoured":
        _favoured(ctx, side, reason)
    elif row.effect == "heavy_rain":
        ctx.set_battle_status(reason, rain_until_turn=ctx.state.cursor.turn + RAIN_TURNS - 1)
    elif row.effect == "terror":
        for unit in list(ctx.state.units):
            if unit.id in {u.id for u in ctx.state.units}:
                units.change_aggression(ctx, unit.id, -TERROR_LEVELS, reason)


def retinues(state: BattleState, side: str) -> list[Unit]:
    """A side's retinues on the table."""
    return [unit for unit in state.units_of(side) if unit.type == "retinue"]


def _level(unit: Unit) -> int:
    level = AGGRESSION.of(unit)
    return AGGRESSION_ORDER.index(level) if level in AGGRESSION_ORDER else 0


def _auto(name: str) -> Option:
    return Option(AUTO, f"let the rules choose: {name}")


def _chosen(answer: str, default: str) -> str:
    """The unit or leader an answer names (``auto``: the computed default)."""
    return default if answer == AUTO else answer


def _unit_options(found: list[Unit]) -> tuple[Option, ...]:
    return tuple(Option(u.id, f"{u.name} ({AGGRESSION.of(u) or 'present'})") for u in found)


def _god_choice(
    ctx: Context,
    key: str,
    who: str,
    question: str,
    default: Unit | Leader,
    options: tuple[Option, ...],
) -> str:
    """The unit or leader ``who`` chooses for a card of the god pack (``auto``: ``default``),
    asked once per card drawn: the question's id is ``key``, the turn and the log's length."""
    asked = Decision(
        f"{key}:{ctx.state.cursor.turn}:{log_count(ctx.events)}",
        question,
        (_auto(default.name), *options),
        AUTO,
        who,
        "unit" if isinstance(default, Unit) else "leader",
        topic=GOD_CHOICE,
    )
    return _chosen(ctx.ask(asked), default.id)


def _bad_omen(ctx: Context, side: str, reason: str) -> None:
    """Three: the OPPOSING player chooses one of the drawer's units to lose a level (by
    default the most aggressive)."""
    found = list(ctx.state.units_of(side))
    if not found:
        return
    enemy = other_side(ctx.state, side)
    default = max(found, key=_level)
    question = (
        f"A bad omen for {ctx.state.side(side).name}: choose which of their units drops one"
        " aggression level"
    )
    chosen = _god_choice(ctx, f"bad_omen:{side}", enemy, question, default, _unit_options(found))
    units.change_aggression(ctx, chosen, -BAD_OMEN_LEVELS, reason)


def _woman(ctx: Context, side: str, reason: str) -> None:
    """Queen: one retinue of the drawer's choice raises its aggression level (by default the
    least aggressive)."""
    found = retinues(ctx.state, side)
    if not found:
        return
    default = min(found, key=_level)
    chosen = default.id
    if len(found) > 1:
        question = (
            "A beautiful woman inspires the men: choose the retinue that raises its aggression"
            " level"
        )
        options = _unit_options(found)
        chosen = _god_choice(ctx, f"woman:{side}", side, question, default, options)
    units.change_aggression(ctx, chosen, WOMAN_LEVELS, reason)


def living_leaders(state: BattleState, side: str) -> list[Leader]:
    """A side's leaders (a killed leader leaves the battle)."""
    return [ld for ld in state.leaders if ld.side == side]


def _favoured(ctx: Context, side: str, reason: str) -> None:
    """Ace: one of the drawer's leaders, of his choice, gains an LP (by default the
    commander-in-chief)."""
    found = living_leaders(ctx.state, side)
    if not found:
        return
    default = next((ld for ld in found if CINC.of(ld)), found[0])
    chosen = default.id
    if len(found) > 1:
        question = "A leader is favoured by the Gods: choose the leader who gains 1 LP"
        options = tuple(Option(ld.id, f"{ld.name} ({ld.points} LP)") for ld in found)
        chosen = _god_choice(ctx, f"favoured:{side}", side, question, default, options)
    lps.change_lps(ctx, chosen, FAVOURED_LPS, reason)


def other_side(state: BattleState, side: str) -> str:
    """The enemy of a side (there are exactly two)."""
    return next(s.id for s in state.sides if s.id != side)


def _new_hero(ctx: Context, side: str, reason: str) -> None:
    """King: a new hero joins the drawer's commander-in-chief and challenges an enemy leader
    of the drawer's choice (by default the enemy commander-in-chief) at once."""
    enemy = other_side(ctx.state, side)
    targets = living_leaders(ctx.state, enemy)
    own = living_leaders(ctx.state, side)
    home = next((ld for ld in own if CINC.of(ld)), own[0] if own else None)
    if not targets or home is None:
        return
    number = sum(1 for ld in ctx.state.leaders if ld.id.startswith(f"{side}_hero")) + 1
    taken = {ld.id for ld in ctx.state.leaders}
    while f"{side}_hero{number}" in taken:  # a fallen hero's number is free, a living one's not
        number += 1
    hero = replace(
        home,
        id=f"{side}_hero{number}",
        name=f"Hero {number} of {ctx.state.side(side).name}",
        points=int(ctx.number("hero_lps")),
        wounds=0,
        status={},
    )
    ctx.add_leader(hero, reason)
    default = next((ld for ld in targets if CINC.of(ld)), targets[0])
    chosen = default.id
    if len(targets) > 1:
        question = f"{hero.name} challenges an enemy leader to personal combat: choose him"
        options = tuple(Option(ld.id, ld.name) for ld in targets)
        chosen = _god_choice(ctx, f"hero:{side}", side, question, default, options)
    duel.challenge(ctx, hero.id, chosen)


__all__ = ["PARAMETERS", "SKILLED_ARCHER", "TOPICS", "play_five", "reroll", "resolve_invoke"]
