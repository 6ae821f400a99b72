"""A personal combat through Discord: the Danes' leader challenges King Alfred by an order in
the Leadership step, Wessex accepts by the channel's question, and the hands are dealt in
secret: Guthrum's player is asked privately (a direct message with his hand) which card to
discard, and nothing Wessex's player can read (the channel, their direct messages, their hand,
the log, the record, the status) names a card of Guthrum's hand.
"""

from __future__ import annotations

import re

import pytest

from rules_core.cards import Card
from tests.e2e.sheet_battle import answer, check_post, confirm, full_log, give, question, start
from tests.e2e.test_hands_matrix import leaks, message_texts, reply_texts
from tests.e2e.test_heroic_age_turn import BATTLE, set_up, title
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
CODE = re.compile(r"`(JOKER[12]|(?:10|[2-9JQKA])[CDHS])`")


async def test_a_challenge_accepted_deals_secret_hands(aide: Harness, fixed_seed: bytes) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    await start(h, where, BATTLE, fixed_seed)
    await confirm(h, where, BATTLE, h.alice, h.bob)  # deployment
    chosen = await answer(h, where, BATTLE, h.bob, question(h, where), "go second")
    check_post(h, chosen, title("Initiative"), "Leadership", [h.alice, h.bob])

    # The challenge is an order of the Leadership step, previewed with its LP cost.
    challenge = await give(h, h.bob, where, "challenge", "Guthrum", leader="King Alfred")
    assert challenge == "Guthrum challenges King Alfred to personal combat (3 LP)"
    await confirm(h, where, BATTLE, h.alice, h.bob)
    asked = question(h, where)
    assert asked.content.startswith(f"{h.alice.mention}: Guthrum challenges King Alfred")
    labels = [c["label"] for c in asked.interactive]
    assert labels == ["accept the challenge (3 LP)", "refuse the challenge"]
    stopped = await answer(h, where, BATTLE, h.alice, asked, "accept the challenge (3 LP)")
    assert "Danes has a private question to answer" in full_log(stopped)
    check_post(
        h, stopped, title("Leadership: personal combats"), "Leadership: personal combats", [h.bob]
    )

    # Guthrum's player is asked privately, in a direct message showing his eight cards,
    # which to discard (while a step waits on a question its dealt cards live in the question).
    (dm,) = [m for m in h.dms(h.bob) if m.interactive]
    assert "Guthrum discards a card (1 of 3)" in dm.text
    labels = [c["label"] for c in dm.interactive]
    assert labels[0].startswith("let the rules choose: ") and len(labels) == 8 + 1
    guthrum = labels[1:]

    # Nothing Wessex's player can read names one of Guthrum's cards (beyond the god pack's
    # public cards, which share their names with the cards of Guthrum's own deck).
    alice_hand = await h.slash(h.alice, "battle hand", channel=where)
    public = {str(Card.from_code(code)) for code in CODE.findall(alice_hand.content)}
    tokens = {face for face in guthrum if face not in public}
    assert tokens
    texts = [t for m in h.messages(where) if not m.ephemeral for t in message_texts(m)]
    texts += [t for m in h.dms(h.alice) for t in message_texts(m)]
    for command, options in (
        ("battle hand", {}),
        ("battle log", {"turn": 1}),
        ("battle record", {}),
        ("battle status", {}),
        ("answer", {}),
    ):
        reply = await h.slash(h.alice, command, channel=where, **options)
        texts += reply_texts(reply)
    own_draws = {m for t in texts for m in re.findall(r"(?:King Alfred|Wessex) draws (\S+)", t)}
    assert len(own_draws) >= 7  # Alfred's own seven cards, shown to his side alone
    assert tokens - own_draws and not leaks(texts, tokens - own_draws)
    own = [t for m in h.dms(h.bob) for t in message_texts(m)]
    assert leaks(own, tokens)  # the rightful viewer does see them
