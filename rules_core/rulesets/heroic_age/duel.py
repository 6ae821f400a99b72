"""Personal combat between leaders: the challenge, the hands dealt in secret, the exchanges.

A challenge (a leader's ``challenge`` order in the Leadership step, or the King's new hero) is
put to the challenged side: accept (3 LP, if he has them and is not in combat) or refuse,
which rolls on the refusal table (1-3 lose 1 LP, 4-5 a champion accepts, 6 no effect).

Accepted, each fighter is dealt a hand from his own deck (``duel<n>_<side>``, 52 cards and two
Jokers) into his leader's hand, seen by his side alone: 8 cards discarding 3 for a leader with
a special weapon, 7 discarding 2 for another leader or a heroic champion, 6 discarding 1 for
another champion. Each discard is a private question; the discarded cards are set aside face
down (the deck's retained pile), never shown. A dice-off gives the advantage (+1 for a heroic
champion). In each exchange the fighter without advantage plays a card face up (a private
question), then the other answers having seen it; red parries, black strikes and a Joker is
either, as its player declares. ``duel_tables.exchange`` gives the wounds and the advantage;
three wounds kill. Every card play and discard is a private question with its own deadline
(``duel_hours``), and every one's id starts ``duel`` (the pace report counts them apart).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.cards import Card
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import LeaderHit, MeleeResolved, TestResolved
from rules_core.plugin import Parameter
from rules_core.rulesets.heroic_age import lps, units
from rules_core.rulesets.heroic_age.duel_tables import (
    BLACK,
    CHALLENGE_LPS,
    DOUBLE,
    HANDS,
    HEROIC_CHAMPION_BONUS,
    KILL_AGGRESSION,
    KILL_DPS,
    KILL_LPS,
    RED,
    REFUSAL_LPS,
    REFUSED,
    TWO_WOUNDS,
    TWO_WOUNDS_LPS,
    WOUNDS_TO_KILL,
    card_value,
    colour,
    exchange,
    hand_row,
)
from rules_core.rulesets.heroic_age.retained import log_count, reroll
from rules_core.rulesets.heroic_age.status import (
    CHALLENGE,
    CINC,
    HEROIC_CHAMPION,
    SPECIAL_WEAPON,
)
from rules_core.rulesets.heroic_age.tables import whole
from rules_core.standing import AUTO, Condition, Topic
from rules_core.state import BattleState, Leader

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("duel_ace_value", 14, "an Ace's value in a personal combat (above the King)", SILENT),
    Parameter("duel_joker_value", 15, "a Joker's value in a personal combat (above all)", SILENT),
    Parameter(
        "duel_rounds",
        0,
        "exchanges before a personal combat without a kill ends (0: until"
        " the hands are played out)",
        SILENT,
    ),
    Parameter("duel_hours", 8.0, "hours to answer each discard and card play of a duel", SILENT),
    Parameter(
        "duel_dice_offs", 20, "dice-offs for the advantage before the challenger keeps it", SILENT
    ),
)

TABLES = (REFUSED, HANDS)  # gathered by rules.py into the ruleset's tables
CHALLENGE_TOPIC = "challenge"
DUEL_CARD = "duel_card"
KILLED, HONOUR_SATISFIED = "killed", "honour_satisfied"  # what a personal combat ends in
CHALLENGE_WORDS = {"accept": "accept the challenge (3 LP)", "refuse": "refuse the challenge"}


def _better_hand(state: BattleState, decision: Decision) -> bool:
    """Whether the challenged leader is dealt at least as many cards as his challenger
    (False for a question not about two leaders)."""
    try:
        mine = cards_dealt(Fighter.of(state.leader(decision.unit)))
        theirs = cards_dealt(Fighter.of(state.leader(decision.other)))
    except KeyError:
        return False
    return mine >= theirs


def _not_cinc(state: BattleState, decision: Decision) -> bool:
    """Whether the challenged leader is not his side's commander-in-chief."""
    try:
        return not CINC.of(state.leader(decision.unit))
    except KeyError:
        return False


PACE_APART = (DUEL_CARD, CHALLENGE_TOPIC)  # personal combat: counted apart by the pace report
TOPICS = (
    Topic.computed(DUEL_CARD, "the card to discard or play in a personal combat"),
    Topic.of(
        CHALLENGE_TOPIC,
        "accept or refuse a challenge to personal combat",
        CHALLENGE_WORDS,
        (
            Condition(
                "as_good_a_hand", "if our leader is dealt at least as many cards", _better_hand
            ),
            Condition(
                "not_cinc", "if the challenged leader is not our commander-in-chief", _not_cinc
            ),
        ),
    ),
)


@dataclass(frozen=True)
class Fighter:
    """Who fights for a leader: the leader himself or his champion (heroic or not)."""

    leader: str
    side: str
    name: str
    champion: bool = False
    heroic: bool = False  # a heroic champion fights (+1 in the dice-off)
    special_weapon: bool = False

    @classmethod
    def of(cls, leader: Leader, *, champion: bool = False) -> Fighter:
        """The leader himself, or his champion (heroic if he has a heroic champion)."""
        if champion:
            heroic = HEROIC_CHAMPION.of(leader)
            what = "heroic champion" if heroic else "champion"
            return cls(leader.id, leader.side, f"{leader.name}'s {what}", True, heroic)
        return cls(leader.id, leader.side, leader.name, special_weapon=SPECIAL_WEAPON.of(leader))

    @property
    def row(self) -> str:
        """The row of the hands table this fighter reads."""
        return hand_row(
            leader=not self.champion, special_weapon=self.special_weapon, heroic=self.heroic
        )


def cards_dealt(fighter: Fighter) -> int:
    """How many cards a fighter is dealt."""
    return whole(HANDS, fighter.row, "cards")


def cards_discarded(fighter: Fighter) -> int:
    """How many cards a fighter discards."""
    return whole(HANDS, fighter.row, "discard")


# -- the step -----------------------------------------------------------------------------------


def resolve(ctx: Context) -> None:
    """The personal combats of this turn: every challenge issued in the Leadership step, in
    roster order of the challengers. Then this turn's LP spending is over: the count starts
    afresh, so orders planned for the next Leadership step are judged against whole LPs."""
    _fight_challenges(ctx)
    lps.new_allowance(ctx)


def _fight_challenges(ctx: Context) -> None:
    for leader in list(ctx.state.leaders):
        if not CHALLENGE.of(leader) or not _present(ctx.state, leader.id):
            continue
        target = CHALLENGE.of(ctx.state.leader(leader.id))
        ctx.set_leader_status(leader.id, None, challenge="")
        challenge(ctx, leader.id, target)


def _present(state: BattleState, leader_id: str) -> bool:
    """Whether a leader is still in the battle (a killed leader leaves it)."""
    return any(ld.id == leader_id for ld in state.leaders)


def challenge(ctx: Context, challenger_id: str, target_id: str) -> None:
    """A challenge put to the challenged side: accept (3 LP) and fight, or refuse and roll.
    The challenger has paid already (or owes nothing, as the King's hero)."""
    challenger = ctx.state.leader(challenger_id)
    target = next((ld for ld in ctx.state.leaders if ld.id == target_id), None)
    if target is None or target.side == challenger.side:
        return
    free = lps.available(ctx.state, target) >= CHALLENGE_LPS and not lps.in_combat(
        ctx.state, target
    )
    answer = "refuse"
    if free:
        mine, theirs = Fighter.of(target), Fighter.of(challenger)
        default = "accept" if cards_dealt(mine) >= cards_dealt(theirs) else "refuse"
        asked = Decision(
            f"duel:challenge:{challenger.id}:{target.id}:{log_count(ctx.events)}",
            f"{challenger.name} challenges {target.name} to personal combat. Accept (3 LP)"
            " or refuse (a D6: 1-3 lose 1 LP, 4-5 a champion accepts, 6 no effect)?",
            tuple(Option(k, v) for k, v in CHALLENGE_WORDS.items()),
            default,
            target.side,
            topic=CHALLENGE_TOPIC,
            unit=target.id,
            other=challenger.id,
        )
        answer = ctx.ask(asked)
    else:
        ctx.emit(
            TestResolved(
                target.id,
                "Challenge",
                lps.available(ctx.state, target),
                False,
                f"{target.name} cannot accept: accepting needs 3 LPs and a leader not in combat",
                False,
            )
        )
    if answer == "accept":
        lps.spend(ctx, target.id, CHALLENGE_LPS, "accepts the challenge")
        fight(ctx, Fighter.of(challenger), Fighter.of(target))
        return
    refused(ctx, challenger, target)


def refused(ctx: Context, challenger: Leader, target: Leader) -> None:
    """The refusal table's "Challenge not accepted, leader who refused rolls a D6"."""
    why = Purpose(target.id, "challenge refused", challenger.id)
    roll = ctx.dice.d6(f"Challenge refused: {target.name}", purpose=why)
    roll = reroll(ctx, target.side, "the die for the refused challenge", roll)
    band = ctx.test(target.id, REFUSED.name, roll, REFUSED, ())
    if band.result == "lose_lp":
        lps.change_lps(ctx, target.id, -REFUSAL_LPS, "refused a challenge")
    elif band.result == "champion":
        fight(ctx, Fighter.of(challenger), Fighter.of(ctx.state.leader(target.id), champion=True))


# -- the fight -----------------------------------------------------------------------------------


def fight(ctx: Context, a: Fighter, b: Fighter) -> None:
    """A personal combat between two fighters, to a kill or the end of the hands."""
    number = sum(1 for deck in ctx.state.decks if deck.id.startswith("duel")) // 2 + 1
    decks = {a.side: f"duel{number}_{a.side}", b.side: f"duel{number}_{b.side}"}
    fighters = (a, b)
    for f in fighters:
        ctx.set_leader_status(f.leader, None, duel_wounds=0)
        ctx.set_leader_status(f.leader, "fights a personal combat", in_duel=True)
        cards = ctx.cards(decks[f.side])
        cards.create(jokers=True)
        cards.deal(f.leader, cards_dealt(f))
    _discards(ctx, number, fighters, decks)
    advantage = dice_off(ctx, a, b)
    wounds = {a.leader: 0, b.leader: 0}
    limit = int(ctx.number("duel_rounds"))
    exchange_no = 0
    while all(wounds[f.leader] < WOUNDS_TO_KILL for f in fighters):
        hands = [ctx.cards(decks[f.side]).hand(f.leader) for f in fighters]
        if not all(hands) or (limit and exchange_no >= limit):
            break
        exchange_no += 1
        first = b if advantage is a else a
        second = advantage
        played = play(ctx, number, exchange_no, first, decks[first.side], None)
        answer = play(ctx, number, exchange_no, second, decks[second.side], (first, played))
        result = exchange(played[1:], answer[1:])
        wounds[first.leader] += result.wounds_first
        wounds[second.leader] += result.wounds_second
        words = (
            f"Personal combat, exchange {exchange_no}: {first.name} {_shown(played)} against"
            f" {second.name} {_shown(answer)}"
        )
        ctx.emit(TestResolved(first.leader, words, played[2], False, result.row, False))
        for f, hurt in ((first, result.wounds_first), (second, result.wounds_second)):
            if hurt:
                ctx.set_leader_status(
                    f.leader, f"wounded in personal combat ({f.name})", duel_wounds=wounds[f.leader]
                )
                if not f.champion:  # the leader's own wound: on the map's badge too
                    units.add_wound(ctx, f.leader, "personal combat")
        for f, card in ((first, played[0]), (second, answer[0])):
            ctx.cards(decks[f.side]).discard(None, card)
        if result.advantage == "first":
            advantage = first
        elif result.advantage == "second":
            advantage = second
        else:
            advantage = dice_off(ctx, a, b)
    settle(ctx, a, b, wounds)


def _shown(played: tuple[str, str, int]) -> str:
    code, tint, value = played
    return f"{Card.from_code(code)} ({tint}, {value})"


def _discards(
    ctx: Context, number: int, fighters: tuple[Fighter, Fighter], decks: dict[str, str]
) -> None:
    """Each fighter discards in secret, one card per question (the challenger first)."""
    hours = ctx.number("duel_hours")
    rounds = max(cards_discarded(f) for f in fighters)
    for k in range(1, rounds + 1):
        due = [f for f in fighters if cards_discarded(f) >= k]
        questions = []
        for f in due:
            hand = ctx.cards(decks[f.side]).hand(f.leader)
            questions.append(
                Decision(
                    f"duel{number}:discard{k}:{f.side}",
                    f"Personal combat: {f.name} discards a card ({k} of {cards_discarded(f)})."
                    f" Your hand: {_hand_words(hand)}",
                    (
                        _auto(str(Card.from_code(lowest(hand, ctx)))),
                        *(Option(code, str(Card.from_code(code))) for code in hand),
                    ),
                    AUTO,
                    f.side,
                    topic=DUEL_CARD,
                    private=True,
                    deadline_hours=hours,
                )
            )
        for f, question in zip(due, questions, strict=True):  # one question at a time
            hand = ctx.cards(decks[f.side]).hand(f.leader)
            card = _chosen(ctx.ask(question), lowest(hand, ctx))
            ctx.cards(decks[f.side]).retain(f.leader, card)


def _auto(label: str) -> Option:
    return Option(AUTO, f"let the rules choose: {label}")


def _chosen(answer: str, default: str) -> str:
    """The card an answer names (``auto``: the computed default)."""
    return default if answer == AUTO else answer


def _hand_words(hand: tuple[str, ...]) -> str:
    return ", ".join(str(Card.from_code(code)) for code in hand)


def value(code: str, ctx: Context) -> int:
    """A card's value in a comparison (Ace and Joker from the parameters)."""
    return card_value(code, int(ctx.number("duel_ace_value")), int(ctx.number("duel_joker_value")))


def lowest(hand: tuple[str, ...], ctx: Context) -> str:
    """The lowest card of a hand (the default discard)."""
    return min(hand, key=lambda code: (value(code, ctx), code))


def options(hand: tuple[str, ...], ctx: Context) -> tuple[Option, ...]:
    """The plays a hand allows: each card, a Joker as red or as black."""
    found = []
    for code in hand:
        card = Card.from_code(code)
        if card.is_joker:
            found.append(Option(f"{code}:{RED}", f"{card} as red (parry, {value(code, ctx)})"))
            found.append(Option(f"{code}:{BLACK}", f"{card} as black (strike, {value(code, ctx)})"))
        else:
            what = "parry" if colour(code) == RED else "strike"
            found.append(Option(code, f"{card} ({what}, {value(code, ctx)})"))
    return tuple(found)


def _read(choice: str, ctx: Context) -> tuple[str, str, int]:
    code, _, tint = choice.partition(":")
    return code, colour(code, tint), value(code, ctx)


def default_play(plays: tuple[Option, ...], seen: tuple[str, int] | None, ctx: Context) -> str:
    """The computed default: leading, the strongest strike; answering a strike, the lowest
    parry that holds it (else a strike of double or more, else the lowest card); answering a
    parry, the lowest strike above it (else the lowest card)."""
    read = [(_read(o.id, ctx), o.id) for o in plays]
    lowest_play = min(read, key=lambda r: (r[0][2], r[1]))[1]
    if seen is None:
        strikes = [r for r in read if r[0][1] == BLACK]
        return max(strikes, key=lambda r: (r[0][2], r[1]))[1] if strikes else lowest_play
    tint, score = seen
    if tint == BLACK:
        parries = [r for r in read if r[0][1] == RED and r[0][2] >= score]
        doubles = [r for r in read if r[0][1] == BLACK and r[0][2] >= DOUBLE * score]
        pick = parries or doubles
    else:
        pick = [r for r in read if r[0][1] == BLACK and r[0][2] > score]
    return min(pick, key=lambda r: (r[0][2], r[1]))[1] if pick else lowest_play


def play(
    ctx: Context,
    number: int,
    exchange_no: int,
    fighter: Fighter,
    deck: str,
    seen: tuple[Fighter, tuple[str, str, int]] | None,
) -> tuple[str, str, int]:
    """A fighter's card for this exchange, asked privately and then played face up: its
    code, colour and value."""
    cards = ctx.cards(deck)
    hand = cards.hand(fighter.leader)
    plays = options(hand, ctx)
    if seen is None:
        before = "You play first (you do not have the advantage)."
        default = default_play(plays, None, ctx)
    else:
        other, (code, tint, score) = seen
        before = f"{other.name} played {Card.from_code(code)} ({tint}, {score})."
        default = default_play(plays, (tint, score), ctx)
    asked = Decision(
        f"duel{number}:play{exchange_no}:{fighter.side}",
        f"Personal combat, exchange {exchange_no}: {fighter.name} plays a card. {before}"
        f" Your hand: {_hand_words(hand)}",
        (_auto(next(o.label for o in plays if o.id == default)), *plays),
        AUTO,
        fighter.side,
        topic=DUEL_CARD,
        private=True,
        deadline_hours=ctx.number("duel_hours"),
    )
    code, tint, score = _read(_chosen(ctx.ask(asked), default), ctx)
    cards.play(fighter.leader, code)
    return code, tint, score


def dice_off(ctx: Context, a: Fighter, b: Fighter) -> Fighter:
    """A dice-off for the advantage: a D6 each, +1 for a heroic champion; the same dice
    again (up to ``duel_dice_offs`` times, then ``a`` keeps it)."""
    for _ in range(int(ctx.number("duel_dice_offs"))):
        scores: list[Roll] = []
        for f in (a, b):
            bonus = [Modifier(HEROIC_CHAMPION_BONUS, "heroic champion")] if f.heroic else []
            foe = b if f is a else a
            why = Purpose(f.leader, "personal combat advantage", foe.leader)
            roll = ctx.dice.d6(f"Advantage: {f.name}", bonus, purpose=why)
            scores.append(reroll(ctx, f.side, "the dice-off for the advantage", roll))
        if scores[0].total != scores[1].total:
            winner = a if scores[0].total > scores[1].total else b
            row = "Dice off to determine advantage. +1 if heroic champion"
            ctx.emit(
                TestResolved(
                    winner.leader, "Advantage", max(s.total for s in scores), True, row, False
                )
            )
            return winner
    return a


# -- the consequences ---------------------------------------------------------------------------


def _resolved(
    ctx: Context, a: Fighter, b: Fighter, wounds: dict[str, int], dead: list[Fighter]
) -> None:
    """Log the personal combat's outcome: the winner (the one left alive when one was
    killed), the wounds each gave and what came of it; "Personal combat" reads as before when
    nobody was killed, and a kill has no line of its own (the leader's fate says it)."""
    dealt = ((a.leader, wounds[b.leader]), (b.leader, wounds[a.leader]))
    winner = loser = None
    if len(dead) == 1:
        loser = dead[0].leader
        winner = b.leader if loser == a.leader else a.leader
    test, row = ("", "") if dead else ("Personal combat", "No kills: honour is satisfied.")
    next_ = KILLED if dead else HONOUR_SATISFIED
    ctx.emit(MeleeResolved(a.leader, test, 0, False, row, False, winner, loser, dealt, next_))


def contingent(state: BattleState, leader_id: str) -> list[str]:
    """The ids of the units of a leader's contingent."""
    leader = state.leader(leader_id)
    return [u.id for u in state.units_of(leader.side) if u.group == leader.group]


def settle(ctx: Context, a: Fighter, b: Fighter, wounds: dict[str, int]) -> None:
    """Kills, LPs, aggression and DPs once a personal combat ends."""
    fighters = (a, b)
    dead = [f for f in fighters if wounds[f.leader] >= WOUNDS_TO_KILL]
    champion_fought = any(f.champion for f in fighters)
    troops = {f.leader: contingent(ctx.state, f.leader) for f in fighters}
    for f in fighters:
        ctx.set_leader_status(f.leader, None, in_duel=False, duel_wounds=0)
    for f in dead:
        if f.champion:
            ctx.emit(LeaderHit(f.leader, "his champion is killed", "personal combat"))
            if f.heroic:
                ctx.set_leader_status(
                    f.leader, "his heroic champion is killed", heroic_champion=False
                )
        else:
            units.kill_leader(ctx, f.leader, "in personal combat")
        for unit_id in troops[f.leader]:  # DP list: "1 DP if their leader lost personal combat"
            units.add_dps(ctx, unit_id, KILL_DPS, "their leader lost personal combat", "morale")
    survivors = [f for f in fighters if f not in dead]
    _resolved(ctx, a, b, wounds, dead)
    for f in survivors:
        if not dead:
            break
        two = wounds[f.leader] >= TWO_WOUNDS
        if not champion_fought and not two:
            lps.change_lps(ctx, f.leader, KILL_LPS, "killed his opponent in personal combat")
        for unit_id in troops[f.leader]:
            units.change_aggression(ctx, unit_id, KILL_AGGRESSION, "won personal combat")
    for f in survivors:
        if wounds[f.leader] >= TWO_WOUNDS:
            who = "his champion" if f.champion else "he"
            reason = f"{who} took 2 wounds in personal combat"
            lps.change_lps(ctx, f.leader, -TWO_WOUNDS_LPS, reason)
