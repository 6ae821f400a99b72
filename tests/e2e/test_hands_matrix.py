"""Who sees what, the whole matrix: a Parley battle (private hands, a private question to each
side) stopped mid-step with both sides' orders sealed. Every surface the bot has (channel posts,
their question buttons, direct messages, ephemeral replies: status, map, log, record, orders,
hand, ``/answer``; autocomplete) is collected for every viewer (the GM, Red's player who takes
direct messages, Blue's player who does not, an observer, an outsider) in an open and then a
closed campaign; no text a viewer can obtain holds another's secret (the other side's cards as
codes or as drawn, its order, the private question's options), while the rightful viewer does
see it. Then the questions are answered (by a DM button and by ``/answer``) and what becomes
public (the played cards, the step's orders in the record) does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import pytest

from rules_core.cards import Card
from rules_core.plugin import Rules
from tests.e2e.sheet_battle import posts, reports
from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness, InteractionResult

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "The Parley"
ARMIES = ({"name": "Red Court", "units": [{"name": "Red Herald"}]},
          {"name": "Blue Court", "units": [{"name": "Blue Herald"}]})  # fmt: skip
CLOSED = "**Parleys** is a closed campaign: ask its GM to admit you."
OPTIONS = ("Keep your lowest card", "Swap it for a draw")  # the private question's options
CODE = re.compile(r"`(JOKER[12]|(?:10|[2-9JQKA])[CDHS])`")
# Reading commands, each answered privately (or, for the map, to the channel).
READS: dict[str, dict[str, object]] = {
    "battle status": {},
    "battle map": {},
    "battle log": {"turn": 1},
    "battle log ": {"turn": 0},  # the deal: every draw
    "battle record": {},
    "battle hand": {},
    "orders mine": {},
    "answer": {},
    "campaign info": {},
}
TYPED = [
    ("answer", "answer"),
    ("answer", "question"),
    ("order give", "kind"),
    ("order give", "unit"),
    ("order withdraw", "unit"),
    ("battle map", "unit"),
]


async def set_up(h: Harness, where: FakeChannel) -> None:
    """Campaign, players, armies, the battle started: each side is dealt its hand."""
    await h.slash(h.gm, "campaign create", channel=where, name="Parleys", ruleset="parley")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in ((h.alice, ARMIES[0]), (h.bob, ARMIES[1])):
        upload = h.upload("army.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
    await h.slash(h.gm, "battle create", channel=where, name=BATTLE,
                  army_a="Red Court", army_b="Blue Court")  # fmt: skip
    for user, name, at in ((h.alice, "Red Herald", "10,4"), (h.bob, "Blue Herald", "10,30")):
        await h.slash(user, "battle deploy", channel=where, unit=name, at=at)
    await h.slash(h.gm, "battle start", channel=where)


async def hand_of(h: Harness, user: FakeUser, where: FakeChannel) -> list[str]:
    """The codes of the user's own hand, from their ``/battle hand``."""
    reply = await h.slash(user, "battle hand", channel=where)
    assert reply.ephemeral, reply
    own = reply.content.split("\n")[3]  # head, blank line, deck title, then their own cards
    return CODE.findall(own)


def secrets_of(codes: Iterable[str]) -> set[str]:
    """A hand's cards as the bot writes them: codes and drawn faces (``K♥``)."""
    return {token for code in codes for token in (code, str(Card.from_code(code)))}


def message_texts(message: BotMessage) -> list[str]:
    """Everything a message shows or carries: text, buttons, every edit, text files."""
    texts = [message.text, json.dumps(message.components), json.dumps(message.edits)]
    texts += [f.text for f in message.files if not f.data.startswith(b"\x89PNG")]
    return texts


def reply_texts(reply: InteractionResult) -> list[str]:
    """Every text of an interaction's messages."""
    return [t for m in reply.messages for t in message_texts(m)]


def leaks(texts: Iterable[str], tokens: Iterable[str]) -> list[tuple[str, str]]:
    """(token, where) for every secret token found in the texts (codes as whole words)."""
    found = []
    for text in texts:
        for token in tokens:
            pattern = re.escape(token)
            if token.isascii():
                pattern = rf"(?<![A-Za-z0-9]){pattern}(?![A-Za-z0-9])"
            if re.search(pattern, text):
                found.append((token, text[:200]))
    return found


async def everything(
    h: Harness,
    user: FakeUser,
    where: FakeChannel,
    reads: dict[str, dict[str, object]] = READS,
    typed: list[tuple[str, str]] = TYPED,
) -> tuple[list[str], dict[str, InteractionResult], list[dict]]:
    """Every text the user can obtain: the channel, their DMs, every reading reply and every
    autocomplete; with the replies and the choices for closer checks."""
    replies = {name: await h.slash(user, name.strip(), channel=where, **opts)
               for name, opts in reads.items()}  # fmt: skip
    offered = []
    for command, option in typed:
        offered += await h.autocomplete(user, command, option, channel=where, **{option: ""})
    texts = [t for m in h.messages(where) if not m.ephemeral for t in message_texts(m)]
    texts += [t for m in h.dms(user) for t in message_texts(m)]
    texts += [t for reply in replies.values() for t in reply_texts(reply)]
    texts += [f"{c['name']} {c['value']}" for c in offered]
    return texts, replies, offered


async def sweep(
    h: Harness,
    where: FakeChannel,
    seats: dict[str, FakeUser],
    secret: dict[str, set[str]],
    allowed: dict[str, set[str]],
    closed: str = "",
    reads: dict[str, dict[str, object]] = READS,
    typed: list[tuple[str, str]] = TYPED,
) -> dict[str, dict[str, InteractionResult]]:
    """Every surface for every seat: each secret found by the seats allowed it and by no other;
    with ``closed`` (the refusal of a closed campaign) the outsider is refused everything.
    The replies, by seat."""
    found_replies = {}
    for seat, user in seats.items():
        texts, replies, offered = await everything(h, user, where, reads, typed)
        shut_out = bool(closed) and seat == "outsider"
        if shut_out:
            for name, reply in replies.items():
                assert reply.ephemeral and reply.content == closed, (name, reply)
                assert not reply.files, name
            assert offered == []
        for kind, tokens in secret.items():
            found = leaks(texts, tokens)
            if kind in allowed[seat] and not shut_out:
                assert found, (closed, seat, kind, "the rightful viewer sees it")
            else:
                assert not found, (closed, seat, kind, found)
        found_replies[seat] = replies
    return found_replies


async def test_no_viewer_sees_another_ones_secret(parley: Rules, aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    observer = h.world.owner
    h.bob.accepts_dms = False  # Blue's player takes no direct messages
    await set_up(h, where)
    await h.slash(observer, "campaign watch", channel=where)
    red, blue = await hand_of(h, h.alice, where), await hand_of(h, h.bob, where)
    assert len(red) == len(blue) == 3 and not set(red) & set(blue)

    # Each side plays its highest card, sealed; both confirm; the step stops on two private
    # questions (keep or swap), with both orders given and not yet carried out.
    played = {}
    for user, hand, side in ((h.alice, red, "Red"), (h.bob, blue, "Blue")):
        card = max(hand, key=lambda code: Card.from_code(code).value)
        given = await h.slash(user, "order give", channel=where, kind="play", unit=side, text=card)
        assert given.ephemeral and given.content.startswith(f"✅ **{side}**: plays {card}"), given
        played[side] = card
    for user in (h.alice, h.bob):
        await h.slash(user, "order done", channel=where)
    stopped = reports(h, where, BATTLE)[-1]
    assert "Red has a private question to answer" in stopped.text

    # The channel learns only that private questions wait: no buttons, no options.
    notes = [m for m in posts(h, where) if "private question is waiting" in m.content]
    assert [n.content.split(": ")[0] for n in notes] == [h.alice.mention, h.bob.mention]
    assert all(not n.interactive for n in notes)
    # Red's player gets the question with its buttons in a DM; Blue's refused DMs, silently.
    (asked,) = [m for m in h.dms(h.alice) if m.interactive]
    assert [c["label"] for c in asked.interactive] == list(OPTIONS)
    assert h.dms(h.bob) == [] and h.bob.id in h.fake.dms_refused

    # Who may see which secret.
    secret = {
        "red": secrets_of(red) | {f"plays {played['Red']}"},
        "blue": secrets_of(blue) | {f"plays {played['Blue']}"},
        "options": set(OPTIONS),
    }
    allowed = {
        "gm": {"red", "blue", "options"},
        "red": {"red", "options"},
        "blue": {"blue", "options"},
        "observer": set(),
        "outsider": set(),
    }
    seats = {"gm": h.gm, "red": h.alice, "blue": h.bob, "observer": observer,
             "outsider": h.outsider}  # fmt: skip

    for visibility in ("open", "closed"):
        if visibility == "closed":
            await h.slash(h.gm, "campaign visibility", channel=where, visibility="closed")
        shut = CLOSED if visibility == "closed" else ""
        seen = await sweep(h, where, seats, secret, allowed, shut)
        maps = {}
        for seat, replies in seen.items():
            if not (shut and seat == "outsider"):
                maps[seat] = replies["battle map"].files[0].data
                assert replies["battle hand"].ephemeral and replies["battle record"].ephemeral
            if seat in ("red", "blue", "gm"):  # /answer: buttons for one's own questions only
                asking = replies["answer"]
                ids = [c["custom_id"] for m in asking.messages for c in m.interactive]
                mine = {"red": ["swap:a:"], "blue": ["swap:b:"], "gm": ["swap:a:", "swap:b:"]}
                assert asking.ephemeral and len(ids) == 2 * len(mine[seat]), (seat, ids)
                assert all(any(k in i for k in mine[seat]) for i in ids), (seat, ids)
            if seat in ("observer", "outsider") and not (shut and seat == "outsider"):
                refusal = replies["answer"]
                assert refusal.ephemeral and "private to **Red**, **Blue**" in refusal.content
        # The public map is the same picture for everyone (nothing secret drawn on it).
        assert len(set(maps.values())) == 1, list(maps)

    # A refused answer changes nothing; Red swaps by its DM button, Blue keeps by /answer.
    await h.slash(h.gm, "campaign admit", channel=where, member=h.outsider)
    refused = await h.slash(h.outsider, "answer", channel=where, answer="swap")
    assert refused.ephemeral and "private to **Red**, **Blue**" in refused.content
    clicked = await h.click(h.alice, asked, label="Swap it for a draw")
    assert clicked.message is not None and "Swap it for a draw" in clicked.message.content
    before = len(reports(h, where, BATTLE))
    kept = await h.slash(h.bob, "answer", channel=where, answer="keep")
    assert kept.ephemeral and "you answered: **keep**" in kept.content
    assert kept.followups[-1].content == f"{h.bob.mention} answered a private question."
    assert not kept.followups[-1].ephemeral
    assert len(reports(h, where, BATTLE)) == before + 1

    # Now public: both played cards in the channel's report and in Blue's record of the step.
    resolved = reports(h, where, BATTLE)[-1]
    for side, card in played.items():
        assert f"{side} plays {Card.from_code(card)}" in resolved.text, resolved.text
    record = json.loads((await h.slash(h.bob, "battle record", channel=where)).files[0].data)
    plays = [o for e in record["entries"] if e["action"] == "resolve" for o in e["orders"]
             if o["kind"] == "play"]  # fmt: skip
    assert {o["params"]["card"] for o in plays} >= set(played.values())
    # Still private: Red's swap (a private draw and its hidden count), for Red only.
    red_log = (await h.slash(h.alice, "battle log", channel=where, turn=1)).text
    blue_log = (await h.slash(h.bob, "battle log", channel=where, turn=1)).text
    assert "cards swapped away" in red_log and "cards swapped away" not in blue_log
    assert "cards swapped away" not in resolved.text
    (drawn,) = [m for m in h.dms(h.alice) if "only your side sees this" in m.content
                and "Turn 1" in m.content and "draws" in m.content]  # fmt: skip
    new_cards = re.findall(r"Red draws (\S+)", drawn.content)
    assert new_cards and not leaks([resolved.text, blue_log], set(new_cards))


async def test_a_private_question_answered_from_answer_and_by_a_gm_ruling(
    parley: Rules, aide: Harness
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    for user, side in ((h.alice, "Red"), (h.bob, "Blue")):
        card = (await hand_of(h, user, where))[0]
        await h.slash(user, "order give", channel=where, kind="play", unit=side, text=card)
        await h.slash(user, "order done", channel=where)
    # Red's player asks /answer: only Red's question, with its buttons, privately.
    shown = await h.slash(h.alice, "answer", channel=where)
    assert shown.ephemeral and "A private question for Blue" in shown.content
    labels = [c["label"] for c in shown.message.interactive]  # type: ignore[union-attr]
    assert labels == list(OPTIONS)
    clicked = await h.click(h.alice, shown, label="Keep your lowest card")
    assert "Keep your lowest card" in clicked.content
    # Blue's question is still open: a GM rules on it, privately; the channel learns only that.
    before = len(reports(h, where, BATTLE))
    ruled = await h.slash(h.gm, "gm ruling", channel=where, choice="swap", reason="Blue is away")
    assert ruled.ephemeral and "ruled: **swap**" in ruled.content
    note = ruled.followups[-1]
    assert not note.ephemeral and note.content == f"{h.gm.mention} answered a private question."
    assert len(reports(h, where, BATTLE)) == before + 1
    public = [t for m in h.messages(where) if not m.ephemeral for t in message_texts(m)]
    assert not leaks(public, {"swap", "Blue is away", *OPTIONS})


PLANNED_READS: dict[str, dict[str, object]] = {
    "battle status": {},
    "battle map": {},
    "battle log": {"turn": 1},
    "battle record": {},
    "orders mine": {},
    "campaign info": {},
}
PLANNED_TYPED = [("order withdraw", "unit"), ("order move", "step"), ("order move", "unit")]


async def test_a_planned_order_is_its_players_alone(aide: Harness) -> None:
    """Rome plans a move for a later step of the turn (Hail Caesar, as in test_plan_ahead):
    its preview and destination reach no other viewer through any surface."""
    from tests.e2e.test_plan_ahead import plan, to_turn_one

    h, where = aide, aide.channel("punic-wars")
    observer = h.world.owner
    await to_turn_one(h)
    assert h.dms(h.alice) == h.dms(h.bob) == []  # a battle without secrets sends no DMs
    await h.slash(observer, "campaign watch", channel=where)
    planned = await plan(h, h.alice, "Command: Orders — Legio", "First Cohort", x=5, y=12)
    summary = planned.split("**First Cohort**: ")[1].split("\n")[0]
    tokens = {summary, "(5, 12)", "[5, 12]", "[5.0, 12.0]"}
    seats = {"gm": h.gm, "rome": h.alice, "gaul": h.bob, "observer": observer,
             "outsider": h.outsider}  # fmt: skip
    for seat, user in seats.items():
        texts, _, _ = await everything(h, user, where, PLANNED_READS, PLANNED_TYPED)
        found = [(token, text[:120]) for text in texts for token in tokens if token in text]
        if seat == "rome":
            assert found, "Rome reads its own plan"
        else:  # nor does the GM: no surface lists another's planned orders (none leaks them)
            assert not found, (seat, found)
