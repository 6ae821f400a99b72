"""Who sees what, the hands matrix for sheet rulesets (the machinery of ``test_hands_matrix``):
Impetus battle plans, sealed from the deployment roll until a side reveals its own, and the
heroic age's hands (a god pack card kept back, the leaders' cards in a personal combat). No
surface a viewer can read (channel posts, direct messages, status, map, log, record, unit
sheets, orders, hands, questions, autocomplete) holds another side's secret, in an open and a
closed campaign; the rightful viewer (and the GM) does find it.
"""

from __future__ import annotations

import re

import pytest

from rules_core.cards import Card
from rules_core.orders import Order
from tests.e2e.sheet_battle import answer, confirm, give, question, start
from tests.e2e.test_hands_matrix import secrets_of, sweep
from tests.e2e.test_heroic_age_turn import BATTLE as ETHANDUN
from tests.e2e.test_heroic_age_turn import set_up as set_up_heroic_age
from tests.e2e.test_impetus_prebattle import PLANS, play_step, state_of
from tests.e2e.test_impetus_prebattle import set_up as set_up_impetus
from tests.e2e.test_impetus_turn import play_stage
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
TYPED = [
    ("order give", "kind"),
    ("order give", "unit"),
    ("order withdraw", "unit"),
    ("battle map", "unit"),
]


def closed(campaign: str) -> str:
    """The refusal an outsider of a closed campaign gets."""
    return f"**{campaign}** is a closed campaign: ask its GM to admit you."


async def test_impetus_battle_plans_are_sealed_until_revealed(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    users = {"a": h.alice, "b": h.bob}
    await set_up_impetus(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    await h.slash(h.world.owner, "campaign watch", channel=where)
    for _ in range(20):
        if (await state_of(h, where)).cursor.step == "battle_plan":
            break
        await play_stage(h, where, users)
    plans = {s: [Order(s, "battle_plan", {"plan": PLANS[s]})] for s in users}
    await play_step(h, where, plans)  # the plans, then the deployment roll and its questions
    state = await state_of(h, where)
    assert state.cursor.step == "deploy_first", state.cursor
    units = {s: next(u.name for u in state.units if u.side == s) for s in users}
    reads: dict[str, dict[str, object]] = {
        "battle status": {},
        "battle map": {},
        "battle log": {"turn": 0},
        "battle record": {},
        "orders mine": {},
        "campaign info": {},
        "battle unit": {"name": units["a"]},
        "battle unit ": {"name": units["b"]},
    }
    seats = {"gm": h.gm, "red": h.alice, "blue": h.bob, "observer": h.world.owner,
             "outsider": h.outsider}  # fmt: skip
    secret = {side: {plan} for side, plan in PLANS.items()}
    allowed = {"gm": {"a", "b"}, "red": {"a"}, "blue": {"b"}, "observer": set(),
               "outsider": set()}  # fmt: skip
    await sweep(h, where, seats, secret, allowed, "", reads, TYPED)
    await h.slash(h.gm, "campaign visibility", channel=where, visibility="closed")
    await sweep(h, where, seats, secret, allowed, closed("Gallic War"), reads, TYPED)

    # Red reveals its plan in its first Movement step: public from then on, Blue's still sealed.
    await h.slash(h.gm, "campaign visibility", channel=where, visibility="open")
    revealed = False
    for _ in range(60):
        state = await state_of(h, where)
        subject = state.cursor.subject
        moving = state.cursor.turn == 1 and state.cursor.step == "move"
        if moving and state.pending is None and subject is not None and subject.side == "a":
            await h.slash(h.alice, "order give", channel=where, kind="reveal_plan",
                          unit=state.side("a").name, text="now")  # fmt: skip
            await play_stage(h, where, users)
            revealed = True
            break
        await play_stage(h, where, users)
    assert revealed and (await state_of(h, where)).side("a").status["plan_revealed"] == PLANS["a"]
    reads["battle log"] = {"turn": 1}
    everyone = {seat: {"a"} | kinds for seat, kinds in allowed.items()}
    await sweep(h, where, seats, secret, everyone, "", reads, TYPED)


async def test_heroic_age_hands_reach_no_other_viewer(aide: Harness, fixed_seed: bytes) -> None:
    """Wessex keeps back the god pack's Five (drawn in Invoke the Gods, the fixed seed's first
    card), then Guthrum challenges King Alfred and the duel's cards are dealt: Guthrum's to his
    player's private question, Alfred's to Wessex's log."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_heroic_age(h)
    await h.slash(h.world.owner, "campaign watch", channel=where)
    await start(h, where, ETHANDUN, fixed_seed)
    await confirm(h, where, ETHANDUN, h.alice, h.bob)  # deployment
    await answer(h, where, ETHANDUN, h.bob, question(h, where), "go second")
    await give(h, h.bob, where, "challenge", "Guthrum", leader="King Alfred")
    await confirm(h, where, ETHANDUN, h.alice, h.bob)
    await answer(h, where, ETHANDUN, h.alice, question(h, where), "accept the challenge (3 LP)")

    # Each secret's cards, from its rightful viewer's own surfaces.
    state = await state_of(h, where)
    gods = state.deck("gods")
    (five,) = gods.hand("a")
    assert Card.from_code(five).rank == "5" and not gods.hand("b")
    (dm,) = [m for m in h.dms(h.bob) if m.interactive]
    guthrum = {c["label"] for c in dm.interactive[1:]}  # after "let the rules choose"
    log = (await h.slash(h.alice, "battle log", channel=where, turn=1)).text
    alfred = set(re.findall(r"King Alfred draws (\S+)", log))
    assert len(guthrum) == 8 and len(alfred) == 7
    shown = secrets_of((*gods.discards, *gods.face_up))  # the god pack's public cards
    secret = {
        "five": (secrets_of([five]) | {"Skilled archer"}) - guthrum - alfred - shown,
        "guthrum": guthrum - alfred - shown - secrets_of([five]),
        "alfred": alfred - guthrum - shown - secrets_of([five]),
    }
    assert all(secret.values()), secret
    seats = {"gm": h.gm, "wessex": h.alice, "danes": h.bob, "observer": h.world.owner,
             "outsider": h.outsider}  # fmt: skip
    allowed = {"gm": set(secret), "wessex": {"five", "alfred"}, "danes": {"guthrum"},
               "observer": set(), "outsider": set()}  # fmt: skip
    await sweep(h, where, seats, secret, allowed)
    await h.slash(h.gm, "campaign visibility", channel=where, visibility="closed")
    await sweep(h, where, seats, secret, allowed, closed("Great Army"))
