"""Offers and agreements: both sides shake, counter-offers, unshake, withdrawal, the payout cap, void and reopened
agreements."""

from engine.kkk import actions as A

from .helpers import GAME
from .tables import offered, ready_b, round_a, round_b


def statuses(t) -> dict[int, str]:  # type: ignore[no-untyped-def]
    return {o.id: o.status for o in t.state.offers}


def test_an_offer_binds_only_when_both_sides_shake() -> None:
    t = offered()  # seat 1 offers the Knetowitz investor to the Boss (seat 0) for $4M
    [offer] = t.state.offers
    assert (offer.seller, offer.boss, offer.family, offer.price, offer.status) == (1, 0, "K", 4, "open")
    events = t(1, A.Shake(offer=1))  # the proposer's own 🤝 is needed too
    assert statuses(t) == {1: "shaken"} and events[0].kind == "shaken"
    events = t(0, A.Shake(offer=1))
    assert statuses(t) == {1: "binding"} and events[0].kind == "agreement"
    assert all(e.public for e in events)


def test_a_counter_offer_replaces_the_open_one() -> None:
    t = offered()
    t(1, A.Shake(offer=1))
    events = t(0, A.Offer(price=3, family="K", to=1))  # the Boss counters
    assert statuses(t) == {1: "replaced", 2: "open"}
    assert t.state.offers[1].replaces == 1 and t.state.offers[1].shaken == []
    assert {e.kind for e in events} == {"offer", "offer_replaced"}
    t(1, A.Offer(price=4, unit="dividends", family="K"))  # and the holder counters back
    assert statuses(t) == {1: "replaced", 2: "replaced", 3: "open"}


def test_offers_on_other_cards_or_with_other_players_stand_side_by_side() -> None:
    t = offered()
    t(2, A.Offer(price=2, family="L"))
    t(0, A.Offer(price=1, to=3))  # a share for a player who brings no card
    assert statuses(t) == {1: "open", 2: "open", 3: "open"}
    assert t.state.offers[2].family is None and t.state.offers[2].seller == 3


def test_unshake_takes_back_consent_before_binding() -> None:
    t = offered()
    t(1, A.Shake(offer=1))
    t(1, A.Unshake(offer=1))
    assert statuses(t) == {1: "open"}
    t(0, A.Shake(offer=1))
    assert statuses(t) == {1: "shaken"}  # still waiting for seat 1


def test_either_party_may_withdraw_an_offer_that_is_not_binding() -> None:
    t = offered()
    t(0, A.Withdraw(offer=1))  # the Boss turns it down
    assert statuses(t) == {1: "withdrawn"}
    t(1, A.Offer(price=5, family="K"))
    t(1, A.Withdraw(offer=2))
    assert statuses(t) == {1: "withdrawn", 2: "withdrawn"}


def test_the_payout_cap_counts_binding_agreements_only_and_allows_the_exact_payout() -> None:
    t = round_a()  # payout $12M
    t(1, A.Offer(price=8, family="K"))
    t(2, A.Offer(price=4, family="L"))
    t(3, A.Offer(price=5, family="P"))
    for seat, offer in ((1, 1), (0, 1), (2, 2), (0, 2), (3, 3)):
        t(seat, A.Shake(offer=offer))
    assert statuses(t) == {1: "binding", 2: "binding", 3: "shaken"}  # 8 + 4 = 12: exactly the payout
    t.refused(
        0,
        A.Shake(offer=3),
        r"promise \$17M, but the deal pays only \$12M \(\$12M already promised\): make a lower offer for the "
        "same card",
    )
    assert GAME.view(t.state, None).round.promised == 12  # type: ignore[union-attr]


def test_renegotiating_a_binding_agreement_replaces_it_only_once_the_new_terms_bind() -> None:
    t = round_a()  # payout $12M
    t(1, A.Offer(price=8, family="K"))
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(0, A.Offer(price=10, family="K", to=1))  # the Boss proposes other terms
    assert statuses(t) == {1: "binding", 2: "open"}
    t(0, A.Shake(offer=2))
    t(1, A.Shake(offer=2))  # $10M fits: the old $8M no longer counts
    assert statuses(t) == {1: "replaced", 2: "binding"}


def test_a_dividend_price_is_worth_the_current_tiles_value_and_is_paid_at_conclusion() -> None:
    t = round_b()  # space 10 (H, P): 3 dividends × $2M; seat 3 owns Piepenbrok
    t(3, A.Offer(price=1, unit="dividends", family="P"))
    assert GAME.view(t.state, None).round.offers[0].value == 2  # type: ignore[union-attr]
    t(3, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(0, A.Close())
    uses = t.state.round.last_call.uses  # type: ignore[union-attr]
    assert {(u.family, u.seat, u.card) for u in uses} == {("H", 0, "investor"), ("P", 3, "investor")}
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.money == [4, 0, 0, 2] and t.state.paid_out == 6


def test_a_share_for_a_player_who_brings_no_card_is_paid_too() -> None:
    t = ready_b()  # the Boss has Heiermann and a played Piepenbrok clan card
    t(0, A.Offer(price=1, to=2))
    t(2, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.money == [5, 0, 1, 0]


def test_an_agreement_is_void_when_its_investor_goes_on_travel() -> None:
    t = offered()
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(0, A.Travel(target=1, family="K"))  # the Boss himself, why not
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert statuses(t) == {1: "void"}
    [void] = [e for e in t.events if e.kind == "offer_void"]
    assert void.public and "{seat:1}" in void.text and "{seat:0}" in void.text


def test_an_agreement_stands_while_the_seller_still_has_a_clan_card_of_that_family() -> None:
    t = round_a()
    t(1, A.PlayClan(family="K"))
    t(1, A.Offer(price=4, family="K"))
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(0, A.Travel(target=1, family="K", on="investor"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert statuses(t) == {1: "binding"}
    sources = next(r for r in GAME.view(t.state, None).round.requirements if r.family == "K").sources  # type: ignore[union-attr]
    assert [(s.seat, s.card, s.offer) for s in sources] == [(1, "clan", 1)]


def test_an_agreement_is_void_when_another_player_recruits_its_investor() -> None:
    t = round_a()
    t(2, A.Offer(price=4, family="L"))
    t(2, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t.state.investors["R"] = 3  # nothing beside the board any more (a contrived table)
    t.state.investors["T"] = 3
    t(0, A.Recruit(family="L"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.investors["L"] == 0 and statuses(t) == {1: "void"}


def test_offers_and_shakes_go_on_while_a_card_is_pending() -> None:
    t = offered()
    t(2, A.Boss())
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(3, A.Offer(price=1, family="P"))
    assert statuses(t) == {1: "binding", 2: "open"} and t.state.pending


def test_a_boss_change_reopens_agreements_to_the_new_boss_and_voids_unbound_offers() -> None:
    t = offered()  # #1: seat 1's Knetowitz to Boss 0
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(3, A.Offer(price=2, family="P"))  # #2, not agreed yet
    t(2, A.Boss())
    for s in (0, 1, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 2  # type: ignore[union-attr]
    first, second = t.state.offers
    assert (first.id, first.status, first.boss, first.reopened, first.shaken) == (1, "open", 2, 1, [])
    assert second.status == "void"
    reopened = next(e for e in t.events if e.kind == "offer_reopened")
    assert reopened.data["offer"] == 1 and reopened.data["reopened"] == 1
    t(2, A.Shake(offer=1))
    t(1, A.Shake(offer=1))
    assert t.state.offers[0].status == "binding"


def test_an_agreement_whose_seller_becomes_boss_is_void() -> None:
    t = offered()
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    t(1, A.Boss())
    for s in (0, 2, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 1 and statuses(t) == {1: "void"}  # type: ignore[union-attr]


def test_a_new_agreement_during_a_last_call_cancels_it() -> None:
    t = ready_b()
    t(2, A.Offer(price=1))
    t(2, A.Shake(offer=1))
    t(0, A.Close())
    t(1, A.Pass())
    t(0, A.Shake(offer=1))
    assert t.state.round.last_call is None and t.state.passes == []  # type: ignore[union-attr]
    assert any(e.kind == "last_call_cancelled" for e in t.events)
