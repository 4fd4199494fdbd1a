"""What the events tell a renderer: the number of the reaction window or last call they belong to, and the terms of
every offer that ends with its round (formerly the bot's "engine gaps", now part of the events' contract).

The window number is the one in the engine's wait key ("window:N" / "call:N"), so a renderer can match an event to
the message it posted for that window without reading the state.
"""

from engine.kkk import actions as A
from engine.kkk.cards import BOSS

from .helpers import GAME, Table, prepared
from .tables import HANDS, last_call_b, offered, ready_b, round_a


def wait_number(t) -> int:  # type: ignore[no-untyped-def]
    [wait] = GAME.waiting_on(t.state)
    return int(wait.timeout.key.split(":", 1)[1])


def test_window_events_carry_their_window_number() -> None:
    t = round_a()
    opened = t(3, A.Travel(target=2, family="L"))
    window = wait_number(t)
    passed = t(1, A.Pass())
    closed = t(0, A.Stop())
    assert opened[0].kind == "pending" and opened[0].data["window"] == window
    assert opened[0].data["previous_window"] is None
    assert passed[0].kind == "passed" and passed[0].data["window"] == window
    assert closed[0].kind == "stopped" and closed[0].data["window"] == window


def test_the_resolution_and_a_timeout_name_the_window_that_closed() -> None:
    t = round_a()
    t(3, A.Travel(target=2, family="L"))
    window = wait_number(t)
    t(0, A.Pass())
    events = t.timeout()
    kinds = {e.kind: e for e in events}
    assert kinds["timeout"].data["window"] == window
    assert kinds["on_travel"].data["window"] == window


def test_an_answering_boss_card_opens_a_new_window_and_names_the_one_it_replaces() -> None:
    t = round_a()
    t.state.hands[2].append(BOSS)
    t(1, A.Boss())
    first = wait_number(t)
    answered = t(2, A.Boss())
    second = wait_number(t)
    assert second != first
    assert answered[0].data["window"] == second and answered[0].data["previous_window"] == first
    stopped = t(0, A.Stop())  # cancels seat 2's card: seat 1's stands again, in a window of its own
    third = wait_number(t)
    assert [e.kind for e in stopped] == ["stopped", "pending"]
    assert stopped[0].data["window"] == second and stopped[1].data["window"] == third and third != second
    for s in (0, 2, 3):
        events = t(s, A.Pass())
    [changed] = [e for e in events if e.kind == "boss_changed"]
    assert changed.data["window"] == third


def test_a_last_call_its_cancellation_and_the_deal_closed_carry_the_calls_number() -> None:
    t = ready_b()
    called = t(0, A.Close())
    first = wait_number(t)
    assert called[0].kind == "last_call" and called[0].data["window"] == first
    cancelled = t(0, A.CancelClose())
    assert cancelled[0].kind == "last_call_cancelled" and cancelled[0].data["window"] == first
    t(0, A.Close())
    second = wait_number(t)
    assert second != first
    for s in (1, 2):
        t(s, A.Pass())
    events = t(3, A.Pass())
    [closed] = [e for e in events if e.kind == "deal_closed"]
    assert closed.data["window"] == second


def test_a_card_played_in_a_last_call_cancels_that_call_by_number() -> None:
    t = last_call_b()
    call = wait_number(t)
    events = t(1, A.Travel(target=0, family="H"))
    [cancelled] = [e for e in events if e.kind == "last_call_cancelled"]
    [pending] = [e for e in events if e.kind == "pending"]
    assert cancelled.data["window"] == call and pending.data["window"] == wait_number(t) != call


def test_the_end_of_a_round_keeps_each_offers_terms() -> None:
    t = offered()  # seat 1 offers the Boss (seat 0) its Knetowitz for $4M
    t(2, A.Offer(price=3, family="L"))
    events = t(0, A.Fail())
    [ended] = [e for e in events if e.kind == "offers_ended"]
    assert ended.data["dropped"] == [1, 2] and ended.data["paid"] == []
    offers = ended.data["offers"]
    assert isinstance(offers, list)
    first, second = offers
    assert first == {
        "offer": 1,
        "seller": 1,
        "boss": 0,
        "family": "K",
        "price": 4,
        "unit": "money",
        "value": 4,
        "status": "shaken",
        "shaken": [1],
        "replaces": None,
        "counters": None,
        "proposer": 1,
        "by_offer": True,
        "reopened": 0,
        "ended": "dropped",
    }
    assert second["price"] == 3 and second["family"] == "L" and second["seller"] == 2  # type: ignore[index,call-overload]


def test_a_concluded_round_names_the_paid_agreements_with_their_value_at_this_deal() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    t = Table(prepared(4, investors, HANDS, marker=10, turn=0, deals=2))  # the 3rd deal: a dividend is $2M
    t(0, A.Open())  # space 10 (H, P), 3 dividends; seat 0 owns Heiermann, seat 3 Piepenbrok
    t(3, A.Offer(price=1, family="P", unit="dividends"))
    t(0, A.Shake(offer=1))
    t(0, A.Close())
    for s in (1, 2):
        t(s, A.Pass())
    events = t(3, A.Pass())
    [ended] = [e for e in events if e.kind == "offers_ended"]
    assert ended.data["paid"] == [1] and ended.data["dropped"] == []
    [terms] = ended.data["offers"]  # type: ignore[misc]
    assert terms["ended"] == "paid" and terms["status"] == "binding"  # type: ignore[index,call-overload]
    assert terms["unit"] == "dividends" and terms["value"] == 2  # type: ignore[index,call-overload]
    assert t.state.deals == 3 and GAME.data.tile(4).value == 3  # the terms are this deal's, not the next one's


def test_a_reopened_agreement_names_the_previous_boss() -> None:
    t = offered()
    t(0, A.Shake(offer=1))
    t(2, A.Boss())
    for s in (0, 1, 3):
        events = t(s, A.Pass())
    [reopened] = [e for e in events if e.kind == "offer_reopened"]
    assert reopened.data["previous_boss"] == 0 and reopened.data["boss"] == 2 and reopened.data["reopened"] == 1
