"""The presentation without Discord: what the status, hands, offer and window messages say, what a button or a 🤝
means, what players may type, and — the point of it all — that nothing public depends on what is in a hand."""

from collections import Counter
from datetime import UTC, datetime

import pytest

from bot.games.kkk import choices, hand, narration, posts
from bot.games.kkk.presentation import KkkPresentation
from bot.games.kkk.words import Unreadable, card, cards, hand_block, parse_card, parse_cards, parse_family
from bot.presentation import Post, Table
from bot.service import Refusal
from engine import registry
from engine.kkk import actions as A
from engine.kkk.cards import BOSS, JOKER, RECRUIT, STOP, clan, travel
from engine.kkk.state import KkkState, Use
from storage.models import GameRecord, MessageRef, SeatRecord
from tests.engine.kkk import tables

NOW = datetime(2025, 1, 1, tzinfo=UTC)
NAMES = ("anna", "bert", "cleo", "dave")
KKK = registry.get("kkk")
PRESENTATION = KkkPresentation()


def table_for(state: KkkState) -> Table:
    record = GameRecord(
        id=1, kind="kkk", status="active", seed=7, seat_count=4, setup_at=NOW, version=3, created_at=NOW, updated_at=NOW
    )
    seats = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=n, joined_at=NOW) for i, n in enumerate(NAMES)
    ]
    return Table(KKK, record, seats, state, NOW)


def other_hands(state: KkkState) -> KkkState:
    """The same table with every hand replaced by different cards of the same number (from the draw pile)."""
    other = KKK.copy_state(state)
    pool = list(other.draw)
    for s, h in enumerate(other.hands):
        new = []
        for _ in h:
            pick = next(c for c in pool if c not in h)
            pool.remove(pick)
            new.append(pick)
        other.hands[s] = sorted(new)
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands] and other.hands != state.hands
    return other


def same_post(a: Post, b: Post) -> bool:
    return (a.content, a.title, a.description, a.fields, a.footer, a.buttons) == (
        b.content,
        b.title,
        b.description,
        b.fields,
        b.footer,
        b.buttons,
    )


@pytest.mark.parametrize(
    "build",
    [tables.turn_a, tables.rolled_a, tables.pending_travel, tables.binding, tables.last_call_b, tables.over_c],
)
def test_public_messages_do_not_depend_on_what_is_in_a_hand(build) -> None:  # type: ignore[no-untyped-def]
    t = build()
    mine, theirs = table_for(t.state), table_for(other_hands(t.state))
    assert same_post(PRESENTATION.status(mine), PRESENTATION.status(theirs))
    events = [e for e in t.events if e.public]
    assert [PRESENTATION.event_line(mine, e) for e in events] == [PRESENTATION.event_line(theirs, e) for e in events]
    for a, b in zip(PRESENTATION.event_posts(mine, events), PRESENTATION.event_posts(theirs, events), strict=True):
        assert same_post(a, b) and a.ref == b.ref
    # …while each player's own message does show their hand (so the comparison above is not vacuous).
    assert not same_post(PRESENTATION.private_view(mine, 0), PRESENTATION.private_view(theirs, 0))
    assert PRESENTATION.hands.digest(KKK, t.state, 0) != PRESENTATION.hands.digest(KKK, other_hands(t.state), 0)


def test_the_dm_groups_the_hand_by_type() -> None:
    codes = [clan("H"), clan("H"), clan("K"), travel("L"), JOKER, RECRUIT, RECRUIT, RECRUIT, BOSS, STOP, STOP]
    assert hand_block(codes) == (
        "**Clan:** Heiermann ×2, Knetowitz\n**Travel:** Liebgeld, joker\n**Recruitment:** 3 · **Boss:** 1 · **STOP:** 2"
    )
    assert hand_block([]) == "No influence cards."
    t = tables.binding()
    fields = dict(hand.hand_fields(KKK.view(t.state, 1)))  # type: ignore[arg-type]
    assert fields["💰 Your money"].startswith("**$0M**")
    assert fields["👔 Your investors"] == "Knetowitz"
    assert fields["🤝 Your open agreements"] == "#1 ✅ binding: {seat:0} pays you $4M for Knetowitz"


def test_the_dm_lists_the_players_binding_agreements_and_only_theirs() -> None:
    t = tables.offered()  # bert (seat 1) offers anna, the Boss, his Knetowitz for $4M (his own 🤝)
    # A new offer (its proposer's 🤝 included) changes no DM (the offer's message shows it); the agreement does.
    before = [PRESENTATION.hands.digest(KKK, t.state, s) for s in range(4)]
    t(0, A.Offer(price=1, to=3))  # anna offers dave a share of $1M
    assert [PRESENTATION.hands.digest(KKK, t.state, s) for s in range(4)] == before
    fields = [dict(hand.hand_fields(KKK.view(t.state, s))) for s in range(4)]  # type: ignore[arg-type]
    assert all("🤝 Your open agreements" not in f for f in fields)  # offers not yet agreed live in the thread
    t(0, A.Shake(offer=1))
    after = [PRESENTATION.hands.digest(KKK, t.state, s) for s in range(4)]
    assert [a != b for a, b in zip(before, after, strict=True)] == [True, True, False, False]
    boss, bert, cleo, dave = (dict(hand.hand_fields(KKK.view(t.state, s))) for s in range(4))  # type: ignore[arg-type]
    assert boss["🤝 Your open agreements"] == "#1 ✅ binding: you pay {seat:1} $4M for Knetowitz"
    assert bert["🤝 Your open agreements"] == "#1 ✅ binding: {seat:0} pays you $4M for Knetowitz"
    assert "🤝 Your open agreements" not in cleo and "🤝 Your open agreements" not in dave


def test_what_players_type() -> None:
    assert parse_family("h") == parse_family("Heiermann") == parse_family(" heier ") == "H"
    with pytest.raises(Unreadable, match="I don't know the family “Z”: pick one of Heiermann"):
        parse_family("Z")
    with pytest.raises(Unreadable):
        parse_family("")  # no guessing on an empty word
    assert parse_card("Heiermann clan") == parse_card("clan H") == parse_card("clan:H") == clan("H")
    assert parse_card("travel joker") == parse_card("joker") == JOKER
    assert parse_card("STOP card") == STOP and parse_card("Liebgeld travel") == travel("L")
    assert parse_cards("STOP, 2× recruitment; Heiermann clan") == [STOP, RECRUIT, RECRUIT, clan("H")]
    assert parse_cards("2x boss + stop") == [BOSS, BOSS, STOP]
    assert Counter(parse_cards(cards([STOP, RECRUIT, RECRUIT, clan("H")]))) == Counter(
        [STOP, RECRUIT, RECRUIT, clan("H")]
    )
    with pytest.raises(Unreadable, match="I can't read “banana” as a card"):
        parse_cards("stop, banana")


def test_discard_suggestions_build_the_list_card_by_card_from_the_own_hand() -> None:
    t = tables.over_c()
    view = KKK.view(t.state, 0)
    first = choices.discards(view, "")  # type: ignore[arg-type]
    assert {v for _, v in first} == {card(c) for c in t.state.hands[0]}  # each card of the hand, once
    assert all(name.endswith("(1 of 3)") for name, _ in first)
    assert [v for _, v in choices.discards(view, "Boss, sto")] == ["Boss, STOP"]  # type: ignore[arg-type]
    assert choices.discards(view, "Boss, STOP, Boss") == [("Boss, STOP, Boss (3 of 3)", "Boss, STOP, Boss")]  # type: ignore[arg-type]
    done = choices.discards(view, "Boss, STOP, Boss,")  # type: ignore[arg-type]
    assert done == [("Boss, STOP, Boss — discard these 3", "Boss, STOP, Boss")]
    # Only cards the player holds: once all copies of a card are listed, it is not suggested again.
    held = Counter(t.state.hands[0])
    code = min(held, key=lambda c: held[c])
    typed = ", ".join([card(code)] * held[code]) + ", " + card(code)[:3]
    assert all(not v.endswith(", " + card(code)) for _, v in choices.discards(view, typed))  # type: ignore[arg-type, union-attr]
    # Nobody else gets suggestions from that hand.
    assert choices.discards(KKK.view(t.state, 1), "")[0][1] == ""  # type: ignore[arg-type]


def test_card_suggestions_come_from_the_own_hand_and_the_table() -> None:
    t = tables.round_a()  # space 8 (R, L, K + 2 of T/P/H); seat 0 is the Boss
    v0, v3 = KKK.view(t.state, 0), KKK.view(t.state, 3)
    # Families the Boss has no card for yet first (Knetowitz, Piepenbrok, Raffzahn), then Heiermann (own investor).
    assert [f for _, f in choices.clans(v0, "")] == ["K", "P", "R", "H"]  # type: ignore[arg-type]
    assert [f for _, f in choices.clans(v3, "")] == ["P"]  # type: ignore[arg-type]
    names = list(NAMES)
    # Seat 3 holds Liebgeld and Piepenbrok travel cards: it can aim at cleo's Liebgeld and at its own Piepenbrok.
    # Each value carries the family, whose card and which card (`picks`): picking it needs no other option.
    assert [f for _, f in choices.travels(v3, "", None, names)] == ["L@2/i", "P@3/i"]  # type: ignore[arg-type]
    assert [f for _, f in choices.travels(v3, "", 2, names)] == ["L@2/i"]  # type: ignore[arg-type]
    # Seat 0 has a joker: every family with a card on the table.
    assert len(choices.travels(v0, "", None, names)) == 6  # type: ignore[arg-type]
    # A holder offers what it has on the table; the Boss sees who could sell.
    assert choices.offer_families(v3, "", None, names) == [("Piepenbrok — your investor", "P")]  # type: ignore[arg-type]
    assert ("Knetowitz — bert's investor", "K@1") in choices.offer_families(v0, "", None, names)  # type: ignore[arg-type]
    assert [f for _, f in choices.recruits(v0, "", names)] == ["R", "T"]  # type: ignore[arg-type]  # beside first


def test_clan_suggestions_offer_every_family_held_and_say_which_the_deal_does_not_need() -> None:
    t = tables.round_b()  # space 10 (Heiermann, Piepenbrok): seat 0, the Boss, owns Heiermann
    suggested = choices.clans(KKK.view(t.state, 0), "")  # type: ignore[arg-type]
    assert [f for _, f in suggested] == ["P", "H", "K", "R"]
    assert dict((f, name) for name, f in suggested) == {
        "P": "Piepenbrok (you hold 1)",
        "H": "Heiermann (you hold 1)",
        "K": "Knetowitz (you hold 1) — not needed for this deal",
        "R": "Raffzahn (you hold 1) — not needed for this deal",
    }
    assert [f for _, f in choices.clans(KKK.view(t.state, 0), "knet")] == ["K"]  # type: ignore[arg-type]


def test_the_boss_may_pick_another_assignment() -> None:
    t = tables.round_d()  # space 2 (K + 1 of T/P): the Boss owns Knetowitz, Talerfeld and Piepenbrok
    options = choices.assignments(KKK.view(t.state, None), "", list(NAMES))  # type: ignore[arg-type]
    assert options[0][0].startswith("Bot's choice — ")
    values = [v for _, v in options]
    assert len(values) == len(set(values)) == 2
    for value in values:
        uses = choices.decode(str(value))
        assert choices.encode(uses) == value
        t(0, A.Close(assignment=uses))  # every suggestion is accepted by the engine
        t(0, A.CancelClose())
    assert choices.decode("K0i;T0i") == (
        Use(family="K", seat=0, card="investor"),
        Use(family="T", seat=0, card="investor"),
    )
    with pytest.raises(Unreadable):
        choices.decode("K0x")


def test_offer_messages_follow_the_offer() -> None:
    t = tables.round_a()
    t(1, A.Offer(price=4, family="K"))
    [post] = posts.event_posts(table_for(t.state), t.events[-1:])
    assert post.ref == ("kkk.offer", "1") and post.reactions == ["🤝"]
    assert post.content == (
        "🤝 **Offer #1**: **anna** (the Boss) pays **bert** **$4M** for bert's Knetowitz investor.\n"
        "⏳ Waiting for <@100>'s 🤝 to make it binding — making the offer was **bert**'s own 🤝 (they may withdraw "
        "it until then)."
    )
    counter = t(1, A.Offer(price=5, unit="dividends", family="K"))
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), counter)}
    assert by_ref[("kkk.offer", "1")].endswith("🔁 Replaced by offer #2.")
    assert "**5 dividends ($10M)**" in by_ref[("kkk.offer", "2")]
    t(0, A.Shake(offer=2))
    voided = t(0, A.Travel(target=1, family="K"))
    assert voided[0].kind == "pending"
    for s in (1, 2, 3):
        out = t(s, A.Pass())
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), out)}
    assert "❌ Agreement #2 is void: bert no longer has Knetowitz to bring." in by_ref[("kkk.offer", "2")]


def test_a_counter_offer_message_names_the_agreement_it_would_replace() -> None:
    t = tables.binding()  # agreement #1: anna pays bert $4M for his Knetowitz
    out = t(1, A.Offer(price=6, family="K"))  # a second offer for the same card counters #1
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), out)}
    assert list(by_ref) == [("kkk.offer", "2")]  # #1 stands: its message is untouched
    assert by_ref[("kkk.offer", "2")].endswith(
        "⏳ Waiting for <@100>'s 🤝 to make it binding — making the offer was **bert**'s own 🤝 (they may withdraw "
        "it until then).\n🔁 Counter-offer: if agreed, it **replaces agreement #1** (which stands until then)."
    )
    out = t(0, A.Shake(offer=2))
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), out)}
    assert by_ref[("kkk.offer", "1")].endswith("🔁 Replaced by offer #2.")
    assert by_ref[("kkk.offer", "2")].endswith(
        "✅ **Binding**: anna pays bert $6M when the deal concludes.\n🔁 It replaces agreement #1."
    )
    # A share counters an agreement only when it names it: `/kkk offer counter:` lists what may be countered.
    names = list(NAMES)
    assert choices.counters(KKK.view(t.state, 1), "", names) == [("#2: Knetowitz from bert for $6M (agreement)", 2)]  # type: ignore[arg-type]
    assert choices.counters(KKK.view(t.state, 2), "", names) == []  # type: ignore[arg-type]


def test_a_paid_agreement_and_a_lapsed_offer_after_the_conclusion() -> None:
    t = tables.round_a()
    t(0, A.PlayClan(family="R"))
    t(0, A.PlayClan(family="K"))
    t(0, A.PlayClan(family="P"))
    t(2, A.Offer(price=3, family="L"))
    t(0, A.Shake(offer=1))
    t(3, A.Offer(price=2))  # a share without a card, never agreed
    t(0, A.Close())
    for s in (1, 2):
        t(s, A.Pass())
    out = t(3, A.Pass())
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), out)}
    assert by_ref[("kkk.offer", "1")] == (
        "🤝 **Offer #1**: **anna** (the Boss) paid **cleo** **$3M** for cleo's Liebgeld investor.\n"
        "💸 Paid when the deal concluded."
    )
    assert by_ref[("kkk.offer", "2")] == (
        "🤝 **Offer #2**: **anna** (the Boss) would have paid **dave** **$2M** as a share of this deal (no card).\n"
        "🕳️ Lapsed: the round ended before it was agreed. Nothing was paid."
    )


def test_a_failed_deal_keeps_each_lapsed_offers_terms_on_its_message() -> None:
    t = tables.binding()  # bert's Knetowitz for $4M is binding with anna
    t(2, A.Offer(price=1, unit="dividends", family="L"))
    out = t(0, A.Fail())
    by_ref = {p.ref: p.content for p in posts.event_posts(table_for(t.state), out)}
    assert by_ref[("kkk.offer", "1")] == (
        "🤝 **Offer #1**: **anna** (the Boss) would have paid **bert** **$4M** for bert's Knetowitz card.\n"
        "🕳️ Lapsed: the deal failed. Nothing was paid."
    )
    assert "would have paid **cleo** **1 dividend ($2M)** for cleo's Liebgeld card." in by_ref[("kkk.offer", "2")]


def test_window_messages_carry_their_window_and_close() -> None:
    t = tables.round_a()
    out = t(3, A.Travel(target=2, family="L"))
    table = table_for(t.state)
    [post] = [p for p in posts.event_posts(table, out) if p.ref and p.ref[0] == "kkk.window"]
    wid = t.state.window
    assert post.ref == ("kkk.window", str(wid))
    assert [b.key for b in post.buttons] == [f"pass:{wid}", f"stop:{wid}"]
    assert post.content.startswith("✈️ dave plays a travel card on cleo's Liebgeld investor.\n⏳ Anyone else may")
    assert PRESENTATION.controls.button_action(table, 0, f"pass:{wid}") == A.Pass()
    assert PRESENTATION.controls.button_action(table, 0, f"stop:{wid}") == A.Stop()
    with pytest.raises(Refusal, match="That window has already closed"):
        PRESENTATION.controls.button_action(table, 0, f"stop:{wid - 1}")
    out = t(0, A.Stop())
    [closed] = posts.event_posts(table_for(t.state), out)
    assert closed.ref == ("kkk.window", str(wid)) and not closed.buttons
    assert closed.content == "✋ anna plays STOP: dave's travel card on cleo's Liebgeld investor is cancelled."
    with pytest.raises(Refusal):
        PRESENTATION.controls.button_action(table_for(t.state), 1, f"pass:{wid}")
    # A window opened and closed by one action (everyone else always passes) gets no message at all.
    t2 = tables.round_a()
    for s in (1, 2, 3):
        t2(s, A.AlwaysPass())
    out = t2(0, A.Travel(target=1, family="K"))
    assert [e.kind for e in out][:2] == ["pending", "on_travel"]
    assert not [p for p in posts.event_posts(table_for(t2.state), out) if p.ref and p.ref[0] == "kkk.window"]


def test_a_travel_still_pending_when_the_deal_fails_closes_its_window_message() -> None:
    t = tables.pending_travel()  # dave's Liebgeld travel card on cleo's investor waits for STOPs; anna is the Boss
    wid = t.state.window
    out = t(0, A.Fail())
    by_ref = {p.ref: p for p in posts.event_posts(table_for(t.state), out)}
    closed = by_ref[("kkk.window", str(wid))]
    assert not closed.buttons
    assert closed.content == (
        "🔔 Window closed: dave's travel card on cleo's Liebgeld investor is discarded: the round ended before it "
        "took effect."
    )
    lines = [narration.event_line(table_for(t.state), e) for e in out if e.public]
    assert "🗑️ dave's travel card on cleo's Liebgeld investor is discarded: the round ended before it took effect." in (
        lines
    )
    with pytest.raises(Refusal, match="That window has already closed"):
        PRESENTATION.controls.button_action(table_for(t.state), 1, f"stop:{wid}")


def test_what_a_shake_reaction_means() -> None:
    t = tables.offered()  # offer #1: bert offered Knetowitz to anna (the Boss): his offer is his 🤝
    table = table_for(t.state)
    ref = MessageRef(message_id=1, channel_id=2, game_id=1, kind="kkk.offer", key="1")
    react = PRESENTATION.controls.reaction_action
    assert react(table, ref, 0, "🤝", True) == A.Shake(offer=1)
    assert react(table, ref, 1, "🤝", True) is None  # bert agreed by making the offer
    assert react(table, ref, 1, "🤝", False) is None  # nor does a 🤝 taken off withdraw it (`/kkk withdraw` does)
    assert react(table, ref, 0, "🤝", False) is None  # anna never shook
    assert react(table, ref, 2, "🤝", True) is None  # not a party
    assert react(table, ref, 0, "👍", True) is None
    t(0, A.Shake(offer=1))
    assert react(table_for(t.state), ref, 1, "🤝", False) is None  # after it binds, a removal changes nothing
    window_ref = MessageRef(message_id=1, channel_id=2, game_id=1, kind="kkk.window", key="3")
    assert react(table_for(t.state), window_ref, 1, "🤝", True) is None
    # An agreement reopened to a new Boss waits for two hand-given 🤝s: one taken off before it binds is taken back.
    t = tables.reopened_shaken()  # cleo is the Boss; bert has shaken on #1 again
    reopened = MessageRef(message_id=3, channel_id=2, game_id=1, kind="kkk.offer", key="1.1")
    assert react(table_for(t.state), reopened, 1, "🤝", False) == A.Unshake(offer=1)
    assert react(table_for(t.state), reopened, 2, "🤝", True) == A.Shake(offer=1)


def test_stray_shakes_and_the_old_message_of_a_reopened_agreement() -> None:
    t = tables.binding()  # offer #1: bert's Knetowitz for $4M, binding with anna (the Boss)
    allowed = PRESENTATION.controls.reaction_allowed
    first = MessageRef(message_id=1, channel_id=2, game_id=1, kind="kkk.offer", key="1")
    table = table_for(t.state)
    assert allowed(table, first, 1, "🤝") and allowed(table, first, 0, "🤝")
    assert not allowed(table, first, 2, "🤝")  # not a party
    assert not allowed(table, first, None, "🤝")  # doesn't play
    assert allowed(table, first, 2, "👍")  # other emoji mean nothing and stay
    t.state.hands[2].append(BOSS)
    t(2, A.Boss())
    for s in (0, 1, 3):
        out = t(s, A.Pass())
    table = table_for(t.state)
    by_ref = {p.ref: p for p in posts.event_posts(table, out)}
    moved, fresh = by_ref[("kkk.offer", "1")], by_ref[("kkk.offer", "1.1")]
    assert moved.content.startswith("🤝 **Offer #1**: **anna** (the Boss) pays **bert** **$4M**")
    assert "its new message is below; 🤝 there to agree again" in moved.content
    assert fresh.content.startswith("🤝 **Offer #1**: **cleo** (the Boss) pays **bert** **$4M**")
    assert fresh.reactions == ["🤝"] and "react 🤝 here to agree again" in fresh.content
    # Both parties shake again: the reopened offer says so (issue 23, part 5).
    assert "it no longer binds. Both of you, **cleo** and **bert**" in fresh.content
    assert "the old 🤝 don't count" in fresh.content
    second = MessageRef(message_id=3, channel_id=2, game_id=1, kind="kkk.offer", key="1.1")
    assert not allowed(table, first, 1, "🤝")  # the old message no longer counts
    assert PRESENTATION.controls.reaction_action(table, first, 1, "🤝", True) is None
    assert allowed(table, second, 1, "🤝") and allowed(table, second, 2, "🤝") and not allowed(table, second, 0, "🤝")
    assert PRESENTATION.controls.reaction_action(table, second, 2, "🤝", True) == A.Shake(offer=1)
    # Later events of the offer edit its newest message.
    shaken = t(2, A.Shake(offer=1))
    assert [p.ref for p in posts.event_posts(table_for(t.state), shaken)] == [("kkk.offer", "1.1")]


def test_a_refused_shake_is_answered_with_the_engines_reason() -> None:
    t = tables.over_cap()
    table = table_for(t.state)
    ref = MessageRef(message_id=1, channel_id=2, game_id=1, kind="kkk.offer", key="2")
    post = PRESENTATION.controls.reaction_refused(
        table, ref, 0, "🤝", True, "shake_over_payout(offer=2, would=16, payout=12, promised=12, family=None)"
    )
    assert post is not None
    # The refusal's words come from its code and values (tried again on the table), naming the fix.
    assert post.content.startswith(
        "🤝 anna's shake on offer #2 doesn't count: Shaking on #2 would promise $16M, but the deal pays only $12M"
    )
    assert PRESENTATION.score_text(table, 48) == "$48M"


def test_an_offer_or_a_window_that_is_all_its_action_says_replaces_the_narration() -> None:
    t = tables.round_a()
    out = t(1, A.Offer(price=4, family="K"))
    [post] = posts.event_posts(table_for(t.state), out)
    assert post.replaces_narration
    out = t(0, A.Shake(offer=1))
    assert not posts.event_posts(table_for(t.state), out)[0].replaces_narration  # an edit, never a new message
    out = t(3, A.Travel(target=2, family="L"))
    [window] = posts.event_posts(table_for(t.state), out)
    assert window.ref == ("kkk.window", str(out[0].data["window"])) and window.replaces_narration
    # A card played in a last call: its window's message stands in for the narration too — that the call is off
    # is said by the edit of the last call's own message (issue 26: one new message for the action, not two).
    t2 = tables.last_call_b()
    out = t2(1, A.Travel(target=0, family="H"))
    made = posts.event_posts(table_for(t2.state), out)
    assert {p.ref[0] for p in made if p.ref} == {"kkk.window"} and len(made) == 2
    [new] = [p for p in made if p.buttons]
    assert new.replaces_narration and [p.replaces_narration for p in made].count(True) == 1
    [old] = [p for p in made if not p.buttons]
    assert old.content.startswith("📣 Last call off:")


def test_an_answering_boss_card_moves_the_window_and_a_stop_closes_its_message() -> None:
    t = tables.pending_boss()  # bert's Boss card is pending
    first = t.state.window
    out = t(2, A.Boss())
    by_ref = {p.ref: p for p in posts.event_posts(table_for(t.state), out)}
    old = by_ref[("kkk.window", str(first))]
    assert old.content.startswith("⏭️ 👔 cleo answers with a Boss card") and not old.buttons
    second = t.state.window
    assert [b.key for b in by_ref[("kkk.window", str(second))].buttons] == [f"pass:{second}", f"stop:{second}"]
    out = t(0, A.Stop())  # bert's card stands again, in a new window
    by_ref = {p.ref: p for p in posts.event_posts(table_for(t.state), out)}
    assert by_ref[("kkk.window", str(second))].content.startswith("✋ anna plays STOP: cleo's Boss card")
    assert by_ref[("kkk.window", str(t.state.window))].buttons


def test_narration_is_one_short_line_per_event() -> None:
    t = tables.round_a()
    out = t(3, A.Travel(target=2, family="L"))
    table = table_for(t.state)
    lines = [narration.event_line(table, e) for e in out]
    assert lines == ["✈️ dave plays a travel card on cleo's Liebgeld investor."]
    out = t(1, A.Offer(price=4, family="K"))
    assert narration.event_line(table, out[0]) == (
        "💬 bert offers anna #1: Knetowitz from bert for $4M. It binds when anna shakes 🤝."
    )


def test_rendering_changes_nothing() -> None:
    t = tables.pending_travel()
    before = KKK.dump_state(t.state)
    table = table_for(t.state)
    PRESENTATION.status(table)
    PRESENTATION.private_view(table, 1)
    PRESENTATION.event_posts(table, t.events)
    assert KKK.dump_state(t.state) == before


def test_the_status_fits_discord_with_long_names_and_many_offers() -> None:
    t = tables.round_a()
    t(2, A.PlayClan(family="T"))
    offers = [(0, A.Offer(price=p, to=s)) for s in (1, 2, 3) for p in (1, 2)]
    offers += [(s, A.Offer(price=p, family=f)) for s, f in ((1, "K"), (2, "L"), (2, "T"), (3, "P")) for p in (3, 4)]
    offers += [(s, A.Offer(price=1)) for s in (1, 2, 3)]
    for actor, offer in offers:
        t(actor, offer)
    assert sum(o.live for o in t.state.offers) == 13  # shares add up; a card's second offer replaces its first
    table = table_for(t.state)
    table.seats = [s.model_copy(update={"display_name": f"{'x' * 28}{s.seat:04d}"}) for s in table.seats]
    post = PRESENTATION.status(table)
    embed = post.embed()
    assert embed is not None and len(embed) <= 1500  # one phone screen, even with long names and many offers
    assert len((post.description or "").splitlines()) <= 15 and "💲 Marker on space" in (post.description or "")
    details = PRESENTATION.status_details(table)
    assert details is not None
    embed = details.embed()
    assert embed is not None and len(embed) <= 6000  # the whole table, in Discord's limit
    assert [name for name, _ in details.fields][:2] == ["Board", "Next deal"]


def test_an_oversized_status_drops_the_least_needed_fields() -> None:
    from bot.games.kkk.status import embed_size, fit

    fields = [(name, "y" * 1000) for name in ("Board", "Next deal", "The deal", "Offers", "On the table", "Investors")]
    post = fit(Post(title="t", description="d" * 2000, fields=[*fields, ("Players", "p" * 500)]))
    assert [name for name, _ in post.fields] == ["Board", "Next deal", "The deal", "Players"]
    assert embed_size(post) <= 5800 and len(post.embed()) <= 6000  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build",
    [tables.turn_a, tables.rolled_a, tables.pending_travel, tables.binding, tables.last_call_b, tables.over_c],
)
def test_the_hand_fingerprint_is_what_the_hand_message_shows(build) -> None:  # type: ignore[no-untyped-def]
    """`hands.buttons` says the hand DM has no buttons (so the commit's fingerprint renders no post): it must agree
    with the post, and the digest read from the table's shared fields must be the state's own digest."""
    t = build()
    for seat in range(len(t.state.hands)):
        table = table_for(t.state)
        assert PRESENTATION.hands.buttons(table, seat) == PRESENTATION.private_view(table_for(t.state), seat).buttons
        assert PRESENTATION.hands.table_digest(table, seat) == PRESENTATION.hands.digest(KKK, t.state, seat)
        assert same_post(PRESENTATION.private_view(table, seat), PRESENTATION.private_view(table_for(t.state), seat))
