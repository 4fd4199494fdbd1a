"""Fixes from the review of the KKK table: typed counts and numbers, suggestions that must just work, 🤝 on old
offers, the over-payout refusal by command, and long messages.

The tables are those of `tests/engine/kkk/tables.py` (see `test_table`'s docstring: space 8, anna to move, investors
Heiermann anna / Knetowitz bert / Liebgeld cleo / Piepenbrok dave, Raffzahn and Talerfeld beside the board).
"""

import time
from datetime import UTC, datetime

import pytest
import simcord

from bot.games.kkk import posts
from bot.presentation import Table
from engine import registry
from engine.errors import RuleError
from engine.kkk import actions as A
from engine.kkk.cards import JOKER, STOP, clan, travel
from storage.models import GameRecord, SeatRecord
from tests.bot.games.kkk.helpers import KkkTable, prepare, start
from tests.engine.kkk import tables
from tests.engine.kkk.helpers import Table as EngineTable
from tests.engine.kkk.helpers import prepared, rng_for_face

KKK = registry.get("kkk")
NOW = datetime(2025, 1, 1, tzinfo=UTC)

SHAKE = "🤝"


async def table(env: simcord.Env, build=tables.turn_a) -> KkkTable:  # type: ignore[no-untyped-def]
    t = await start(env)
    await prepare(t, build().state, "Prepared table.")
    return t


# --- typed counts and numbers ----------------------------------------------------------------------------------


async def test_a_discard_count_beyond_the_hand_is_refused_at_once_with_the_fix(env: simcord.Env) -> None:
    t = await table(env, tables.over_c)  # anna drew to 15 cards: she must discard 3
    anna = t.players[0]
    for typed in ("99999999999999999999 STOP", "9" * 3000 + " STOP", "30000000 STOP", "30000000x STOP"):
        began = time.perf_counter()
        text = await t.refused(anna, "kkk discard", cards=typed)
        assert time.perf_counter() - began < 1.0  # no list of millions of cards is built
        assert "Sorry" not in text and "far more cards than anyone holds" in text and "“2× STOP”" in text
    text = await t.refused(anna, "kkk discard", cards="2 STOP, 14 Boss")
    assert text.startswith("You hold 15 cards, so “2 STOP, 14 Boss” asks for more than you have")
    assert "“0 Boss” discards no card" in await t.refused(anna, "kkk discard", cards="0 Boss, 3 STOP")
    # A sensible count still works.
    await t.ok(anna, "kkk discard", cards="2× STOP, Boss")
    assert len((await t.state()).hands[0]) == 12


async def test_typed_numbers_have_bounds_discord_enforces(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert = t.players[:2]
    await t.ok(anna, "kkk open")
    with pytest.raises(simcord.OptionError, match="price"):
        await bert.slash(t.thread, "kkk offer", price=1000, family="K")
    with pytest.raises(simcord.OptionError, match="offer"):
        await bert.slash(t.thread, "kkk shake", offer=10**15)
    with pytest.raises(simcord.OptionError, match="offer"):
        await bert.slash(t.thread, "kkk withdraw", offer=0)
    # Inside the bounds, the engine says why a price is too high.
    assert "more than the whole deal pays ($12M)" in await t.refused(bert, "kkk offer", price=999, family="K")
    # The Boss's own assignment (`use:`) with an absurd seat is unreadable, not a crash.
    text = await t.refused(anna, "kkk close", use="R" + "9" * 5000 + "i")
    assert text.startswith("Pick an assignment from the suggestions")


# --- suggestions that just work --------------------------------------------------------------------------------


async def test_picking_a_travel_suggestion_needs_no_other_option(env: simcord.Env) -> None:
    t = await table(env)
    anna, _bert, _cleo, dave = t.players
    await t.ok(anna, "kkk open")
    got = await dave.autocomplete(t.thread, "kkk travel", "family", "")
    names = [c["name"] for c in got]
    assert "Liebgeld — cleo's investor (with your Liebgeld travel card)" in names
    pick = next(c for c in got if c["name"].startswith("Liebgeld — cleo's investor"))
    await t.ok(dave, "kkk travel", family=pick["value"])
    state = await t.state()
    assert state.pending and state.pending[-1].target == 2 and state.pending[-1].family == "L"
    assert travel("L") not in state.hands[3]


async def test_picking_a_joker_suggestion_plays_the_joker(env: simcord.Env) -> None:
    t = await table(env)
    anna, _bert, cleo, _dave = t.players
    await t.ok(anna, "kkk open")
    got = await anna.autocomplete(t.thread, "kkk travel", "family", "", target=cleo.mention)
    joker = next(c for c in got if "joker" in c["name"])
    assert joker["name"] == "Liebgeld — investor (with your travel joker)"
    before = (await t.state()).hands[0].count(JOKER)
    await t.ok(anna, "kkk travel", family=joker["value"], target=cleo.mention)
    assert (await t.state()).hands[0].count(JOKER) == before - 1


async def test_typed_travel_fills_in_the_one_possibility_and_names_the_missing_option(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, dave = t.players
    await t.ok(anna, "kkk open")
    # An explicit joker:False is the player's word: the refusal names the option that would work.
    text = await t.refused(anna, "kkk travel", family="Liebgeld", target=cleo.mention, joker=False)
    assert "you can play your travel joker instead" in text and "Add `joker:True`" in text
    # Typed by hand: cleo's Liebgeld investor is the only Liebgeld card on the table; anna holds no Liebgeld travel
    # card but a joker — so "Liebgeld" alone means the joker on cleo's investor.
    await t.ok(anna, "kkk travel", family="Liebgeld")
    pending = (await t.state()).pending[-1]
    assert (pending.target, pending.cards) == (2, [JOKER])
    await t.ok(bert, "kkk stop")  # bert STOPs it; anna's joker is spent
    # Two Knetowitz cards on the table (bert's investor and his clan card): a target alone can't pick one.
    await t.ok(bert, "kkk clan", family="K")
    text = await t.refused(anna, "kkk travel", family="Knetowitz", target=bert.mention)
    assert "say which one goes on travel" in text and "Add `card:`" in text
    # An investor that isn't beside the board, with cards of two players on the table: name the target.
    await t.ok(cleo, "kkk clan", family="T")
    await t.ok(dave, "kkk clan", family="P")
    state = await t.state()
    assert state.investors["P"] == 3
    text = await t.refused(anna, "kkk travel", family="Piepenbrok", joker=True)
    assert "isn't beside the board" in text and "Add `target:@dave` with `card:`" in text


async def test_the_boss_picking_an_offer_suggestion_needs_no_to(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, _dave = t.players
    await t.ok(anna, "kkk open")
    got = await anna.autocomplete(t.thread, "kkk offer", "family", "")
    pick = next(c for c in got if c["name"] == "Liebgeld — cleo's investor")
    await t.ok(anna, "kkk offer", price=3, family=pick["value"])
    offer = (await t.state()).offers[-1]
    assert (offer.seller, offer.boss, offer.family) == (2, 0, "L")
    # Typed by hand with one possible seller: filled in.
    await t.ok(anna, "kkk offer", price=2, family="Knetowitz")
    assert (await t.state()).offers[-1].seller == 1
    # Two players with Liebgeld on the table: the refusal says which `to:` to add.
    await t.ok(bert, "kkk clan", family="L")
    text = await t.refused(anna, "kkk offer", price=2, family="Liebgeld")
    assert "As the Boss, say who the offer is for" in text and "Add `to:@bert` or `to:@cleo`" in text
    assert "Add `to:@player`" in await t.refused(anna, "kkk offer", price=2)
    # A Boss's suggestion picked by someone who isn't the Boss doesn't send an offer to that seat.
    await t.ok(cleo, "kkk offer", price=1, family=pick["value"])
    offer = (await t.state()).offers[-1]
    assert (offer.seller, offer.boss) == (2, 0)
    await t.assert_hands_secret()


# --- 🤝 on an offer of a round that is over ------------------------------------------------------------------------


def shakes(message) -> int:  # type: ignore[no-untyped-def]
    return sum(r.count for r in message.reactions if str(r.emoji) == SHAKE)


async def test_a_shake_on_an_offer_of_a_past_round_is_stray_whoever_gives_it(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, _cleo, dave = t.players
    await t.ok(anna, "kkk open")
    await t.ok(bert, "kkk offer", price=4, family="K")
    await t.ok(anna, "kkk fail")  # the round is over: offer #1 lapsed
    version = await t.version()
    posted = len(t.thread.history())
    for member in (dave, bert, anna):  # an onlooker, then both parties
        await t.react(member, await t.offer_message(1))
    assert len(t.thread.history()) == posted  # no "doesn't count" post, no ping
    assert await t.version() == version
    assert shakes(await t.offer_message(1)) == 1  # each was taken off: only the bot's own 🤝 stays


# --- the over-payout refusal, however the shake came ----------------------------------------------------------


async def refused_once(t: KkkTable, member, command: str, **options) -> str:  # type: ignore[no-untyped-def]
    """A refused command sent once (`KkkTable.refused` also replays it on a twin table, which would post twice)."""
    version = await t.version()
    result = await member.slash(t.thread, command, **options)
    assert result.response is not None and result.response.ephemeral
    assert await t.version() == version
    return result.response.content


async def test_a_shake_over_the_payout_by_command_is_told_to_the_table_too(env: simcord.Env) -> None:
    t = await table(env)
    anna, bert, cleo, _dave = t.players
    await t.ok(anna, "kkk open")  # the deal pays $12M
    await t.ok(bert, "kkk offer", price=8, family="K")  # bert's offer is his 🤝
    await t.ok(anna, "kkk shake", offer=1)  # #1 binds: $8M promised
    await t.ok(cleo, "kkk offer", price=8, family="L")  # anna's shake on #2 would promise $16M
    before = {m.id for m in t.thread.history()}
    text = await refused_once(t, anna, "kkk shake", offer=2)
    reason = (
        "Shaking on #2 would promise $16M, but the deal pays only $12M ($8M already promised): make a lower "
        "counter-offer to #2 for the same Liebgeld card (it replaces this one), or withdraw this one."
    )
    assert text == reason  # the shaker's own answer, ephemeral
    # The table hears it too, naming anna without a ping (she just tried), and without the advice to withdraw an
    # offer that isn't hers to withdraw (cleo made it).
    told = "🤝 anna's shake on offer #2 doesn't count: " + reason.removesuffix(", or withdraw this one.") + "."
    public = [m for m in t.thread.history() if m.id not in before and not m.flags.ephemeral]
    assert told in t.narration() and not [m for m in public if anna.id in {u.id for u in m.mentions}]
    # The same line as for the 🤝 (which the bot then takes off).
    await t.react(anna, await t.offer_message(2))
    assert t.narration().count(told) == 2
    # Other refused shakes stay private: an onlooker, a party who already shook, a binding agreement.
    posted = len(t.thread.history())
    await refused_once(t, bert, "kkk shake", offer=2)
    await refused_once(t, cleo, "kkk shake", offer=2)
    await refused_once(t, bert, "kkk shake", offer=1)
    assert len([m for m in t.thread.history() if not m.flags.ephemeral]) == len(
        [m for m in t.thread.history()[:posted] if not m.flags.ephemeral]
    )
    await t.assert_hands_secret()


# --- long messages: a big last call, and the end of a big game ---------------------------------------------------

LONG_NAMES = tuple(f"{'W' * 27}{c}{i:04d}" for i, c in enumerate("abcdef"))  # 32 characters, Discord's longest


def crowded_round(deals: int = 0):  # type: ignore[no-untyped-def]
    """Six players, space 16, every clan card played and about twenty $0M agreements, all binding."""
    inv = {"H": 0, "K": 1, "L": 2, "P": 3, "R": 4, "T": 5}
    fams = "HKLPRT"
    hands = [
        [clan(fams[s]), clan(fams[(s + 1) % 6]), clan(fams[(s + 2) % 6]), travel(fams[(s + 3) % 6]), STOP]
        for s in range(6)
    ]
    done = [n for n in range(1, 16)][:deals]
    state = prepared(6, inv, hands, deals=deals, marker=16, turn=0, done_spaces=done, money=[5, 6, 7, 8, 9, 10])
    state.rng = rng_for_face(1)
    t = EngineTable(state)
    t(0, A.Open())
    for s in range(6):
        for f in (fams[s], fams[(s + 1) % 6], fams[(s + 2) % 6]):
            t(s, A.PlayClan(family=f))
    for s in range(1, 6):
        for f in [*"HKPRLT", None]:
            try:
                t(s, A.Offer(price=0, family=f))
            except RuleError:
                continue
            t(0, A.Shake(offer=t.state.offers[-1].id))
    return t


def test_a_last_call_shows_payout_share_and_deadline_first_and_cuts_the_list() -> None:
    t = crowded_round()
    binding = [o for o in t.state.offers if o.status == "binding"]
    assert len(binding) >= 20
    events = t(0, A.Close())
    record = GameRecord(
        id=1, kind="kkk", status="active", seed=7, seat_count=6, setup_at=NOW, version=3, created_at=NOW, updated_at=NOW
    )
    seats = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=n, joined_at=NOW)
        for i, n in enumerate(LONG_NAMES)
    ]
    (call,) = [
        p for p in posts.event_posts(Table(KKK, record, seats, t.state, NOW), events) if p.ref[0] == posts.WINDOW
    ]  # type: ignore[index]
    lines = call.content.splitlines()
    assert len(call.content) <= posts.LAST_CALL_BUDGET and call.text == call.content  # nothing cut by Discord's limit
    assert lines[1].startswith("The bank pays **$") and f"**{LONG_NAMES[0]}** keeps **$" in lines[1]
    assert lines[2].startswith("⏳ Let it go, or play a card to stop it")
    assert lines[3] == f"**{len(binding)} agreements** to pay:"
    shown = [line for line in lines if line.startswith("• ")]
    assert 0 < len(shown) < len(binding) and lines[-1] == f"… and {len(binding) - len(shown)} more"


async def test_the_end_of_a_big_game_shows_every_players_money_in_the_thread(env: simcord.Env) -> None:
    t = await start(env, names=("a1", "b2", "c3", "d4", "e5", "f6"))
    for seat, name in enumerate(LONG_NAMES):
        await t.bot.store.seats.update(1, seat, display_name=name)
    await prepare(t, crowded_round(deals=14).state, "The 15th deal, with many agreements.")
    await t.ok(t.players[0], "kkk close")
    for member in t.players[1:]:
        await member.slash(t.thread, "kkk pass")
    state = await t.state()
    assert state.phase == "over"
    messages = [m.content for m in t.thread.history() if m.content and not m.flags.ephemeral]
    assert all(len(m) <= 2000 and not m.endswith("…") for m in messages)
    narration = "\n".join(messages)
    for seat, name in enumerate(LONG_NAMES):
        assert f"**{name}** — ${state.money[seat]}M" in narration  # each player's line of the standings
    # How it ended, once: the game's own last line says it, so the standings' reason line doesn't again (issue 26).
    assert narration.count("Deal 15 ends the game.") == 1 and "Final money" not in narration
