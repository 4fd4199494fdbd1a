"""The secrecy checks of `helpers.KkkTable.check_step` can fail: each test slips one realistic leak into the bot
(monkeypatch, in memory) — leaks in ordinary words, which a check for hand blocks and card codes lets through — and
the next step through Discord must fail with the matching message. The tables are those of
`tests/engine/kkk/tables.py` (see `test_table`'s docstring: anna to move on space 8; cleo holds a STOP, dave none).
"""

from collections import Counter

import pytest
import simcord

from bot import service
from bot.games.kkk import hand, narration, status, suggestions
from bot.games.kkk.words import card
from engine.kkk import legal, waits, windows
from engine.kkk.cards import STOP, clan, deck
from engine.kkk.state import KkkState
from tests.bot.games.kkk.helpers import KkkTable, prepare, start
from tests.bot.games.kkk.secrecy import swap_hands
from tests.engine.kkk import tables


async def table(env: simcord.Env, build=tables.turn_a) -> KkkTable:  # type: ignore[no-untyped-def]
    t = await start(env)
    await prepare(t, build().state, "Prepared table.")
    return t


def cards(state: KkkState) -> Counter[str]:
    """Every influence card, wherever it is."""
    on_table = [c for e in state.pending for c in e.cards]
    if state.round is not None:
        on_table += list(state.round.travel.values()) + [clan(f) for fams in state.round.clans for f in fams]
    return Counter([c for h in state.hands for c in h] + state.draw + state.discard + on_table)


def test_a_twin_holds_other_cards_of_the_same_numbers_and_loses_none() -> None:
    state = tables.pending_travel().state  # dave's travel card lies on cleo's Liebgeld
    state.money = [12, 5, 30, 0]
    twin = swap_hands(state, range(4))
    assert twin is not None
    assert cards(twin) == cards(state) == Counter(deck())
    assert [len(h) for h in twin.hands] == [len(h) for h in state.hands] and len(twin.draw) == len(state.draw)
    assert all(Counter(a) != Counter(b) for a, b in zip(twin.hands, state.hands, strict=True))
    # "Holds a STOP" flips both ways: cleo's STOP is gone, dave (who had none) now has one.
    assert STOP in state.hands[2] and STOP not in twin.hands[2]
    assert STOP not in state.hands[3] and STOP in twin.hands[3]
    assert sorted(twin.money) == sorted(state.money) and twin.money != state.money
    # Only the others: anna keeps her hand and her money.
    others = swap_hands(state, [1, 2, 3])
    assert others is not None and others.hands[0] == state.hands[0] and others.money[0] == state.money[0]


async def test_a_draw_line_naming_one_of_the_cards_is_caught(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    original = narration.event_line

    def leaky(tbl, event):  # type: ignore[no-untyped-def]
        line = original(tbl, event)
        if event.kind == "draw" and line:
            line += f" (one of them is a {card(tbl.state.hands[0][-1])})"
        return line

    monkeypatch.setattr(narration, "event_line", leaky)
    t = await table(env)
    await t.ok(t.players[0], "kkk roll")
    with pytest.raises(AssertionError, match="narration depends on a secret"):
        await t.ok(t.players[0], "kkk draw")


async def test_a_status_counting_someones_stop_cards_is_caught(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = status.status_post

    def leaky(tbl):  # type: ignore[no-untyped-def]
        post = original(tbl)
        post.fields.append(("Tip", f"cleo holds {tbl.state.hands[2].count(STOP)} STOP"))
        return post

    t = await table(env)
    monkeypatch.setattr(status, "status_post", leaky)
    with pytest.raises(AssertionError, match="the status depends on a secret"):
        await t.ok(t.players[0], "kkk open")


async def test_a_refusal_naming_another_players_card_is_caught(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = service.Play.act_for_seat

    async def leaky(self, game_id, user_id, make):  # type: ignore[no-untyped-def]
        try:
            return await original(self, game_id, user_id, make)
        except service.RuleRefusal as exc:
            tbl = await self.read.table(game_id)
            exc.message += f" (anna is keeping a {card(tbl.state.hands[0][0])} though.)"
            raise

    t = await table(env)
    monkeypatch.setattr(service.Play, "act_for_seat", leaky)
    with pytest.raises(AssertionError, match="a refusal depends on another player's secrets"):
        await t.refused(t.players[1], "kkk roll")


async def test_suggestions_made_for_the_wrong_seat_are_caught(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = suggestions.asker_table

    async def off_by_one(interaction):  # type: ignore[no-untyped-def]
        found = await original(interaction)
        return None if found is None else (found[0], (found[1] + 1) % 4)

    t = await table(env, tables.round_a)
    monkeypatch.setattr(suggestions, "asker_table", off_by_one)
    with pytest.raises(AssertionError, match="anna's suggestions for /kkk clan family depend on another"):
        await t.autocomplete(t.players[0], "kkk clan", "family", "")


async def test_a_dm_that_tells_about_another_hand_is_caught(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    original = hand.hand_post

    def gossip(tbl, seat):  # type: ignore[no-untyped-def]
        post = original(tbl, seat)
        other = (seat + 1) % 4
        post.fields.append(("Gossip", f"{tbl.names[other]} holds {len(set(tbl.state.hands[other]))} kinds of card"))
        return post

    t = await table(env)
    monkeypatch.setattr(hand, "hand_post", gossip)
    with pytest.raises(AssertionError, match="DM depends on another player's secrets"):
        await t.ok(t.players[0], "kkk roll")


async def test_a_window_that_would_close_for_want_of_stop_cards_is_caught(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rules/kkk.md: the bot must not close a window early because a player holds no STOP."""
    original = windows.awaited

    def awaited(state):  # type: ignore[no-untyped-def]
        seats = original(state)
        return [] if state.pending and all(STOP not in state.hands[s] for s in seats) else seats

    t = await table(env, tables.round_a)
    for module in (windows, legal, waits):
        monkeypatch.setattr(module, "awaited", awaited)
    with pytest.raises(AssertionError, match="the status depends on a secret"):
        await t.ok(t.players[3], "kkk travel", family="L", target=t.players[2].mention)


async def test_a_running_total_of_money_in_public_is_caught(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    original = status.status_post

    def leaky(tbl):  # type: ignore[no-untyped-def]
        post = original(tbl)
        money = tbl.state.money
        post.fields.append(("Tip", f"the richest so far: {tbl.names[money.index(max(money))]}"))
        return post

    state = tables.turn_a().state
    state.money = [12, 40, 7, 40]
    t = await start(env)
    await prepare(t, state, "Prepared table.")
    monkeypatch.setattr(status, "status_post", leaky)
    with pytest.raises(AssertionError, match="the status depends on a secret"):
        await t.ok(t.players[0], "kkk roll")
