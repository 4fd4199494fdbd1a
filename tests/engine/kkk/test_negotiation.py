"""Offers and agreements: making an offer is the proposer's 🤝, agreements add up, counter-offers, unshake,
withdrawal, the payout cap, void and reopened agreements."""

from engine.kkk import actions as A

from .helpers import GAME
from .tables import binding, offered, ready_b, round_a, round_b


def statuses(t) -> dict[int, str]:  # type: ignore[no-untyped-def]
    return {o.id: o.status for o in t.state.offers}


# --- making an offer is the proposer's consent (issue 9, point 2) -----------------------------------------


def test_making_an_offer_is_the_proposers_shake_and_it_binds_when_the_other_party_shakes() -> None:
    t = round_a()
    events = t(1, A.Offer(price=4, family="K"))  # seat 1 offers its Knetowitz investor to the Boss (seat 0)
    [offer] = t.state.offers
    assert (offer.seller, offer.boss, offer.family, offer.price) == (1, 0, "K", 4)
    assert (offer.status, offer.shaken) == ("shaken", [1])
    assert events[0].kind == "offer" and (events[0].data["proposer"], events[0].data["boss"]) == (1, 0)
    events = t(0, A.Shake(offer=1))  # one 🤝, the Boss's, and it binds
    assert statuses(t) == {1: "binding"} and events[0].kind == "agreement"
    assert all(e.public for e in events)


def test_the_bosss_offer_binds_when_the_seller_shakes() -> None:
    t = round_a()
    events = t(0, A.Offer(price=3, family="K", to=1))
    assert events[0].kind == "offer" and (events[0].data["proposer"], events[0].data["seller"]) == (0, 1)
    assert GAME.view(t.state, None).round.offers[0].awaited == [1]  # type: ignore[union-attr]
    t(1, A.Shake(offer=1))
    assert statuses(t) == {1: "binding"}


def test_the_proposer_may_withdraw_until_the_other_party_shakes_but_not_after() -> None:
    t = offered()
    t(1, A.Withdraw(offer=1))
    assert statuses(t) == {1: "withdrawn"}
    t(1, A.Offer(price=5, family="K"))
    t(0, A.Shake(offer=2))
    t.refused(1, A.Withdraw(offer=2), r"withdraw_binding\(offer=2\)")


def test_a_counter_offer_replaces_the_open_one() -> None:
    t = offered()
    events = t(0, A.Offer(price=3, family="K", to=1))  # the Boss counters
    assert statuses(t) == {1: "replaced", 2: "shaken"}
    assert t.state.offers[1].replaces == 1 and t.state.offers[1].shaken == [0]
    assert {e.kind for e in events} == {"offer", "offer_replaced"}
    t(1, A.Offer(price=4, unit="dividends", family="K"))  # and the holder counters back
    assert statuses(t) == {1: "replaced", 2: "replaced", 3: "shaken"}


# --- agreements add up (issue 9, point 1) -------------------------------------------------------------------


def test_two_shares_agreed_with_the_same_player_are_both_paid() -> None:
    t = ready_b()  # the Boss (seat 0) has Heiermann and a played Piepenbrok clan card; the deal pays $6M
    t(0, A.Offer(price=1, to=2))
    t(2, A.Shake(offer=1))
    events = t(0, A.Offer(price=2, to=2))
    assert t.state.offers[1].counters is None and events[0].data["counters"] is None  # a share stands on its own
    t(2, A.Shake(offer=2))
    assert statuses(t) == {1: "binding", 2: "binding"}
    assert GAME.view(t.state, None).round.promised == 3  # type: ignore[union-attr]
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.money == [3, 0, 3, 0]  # $1M + $2M, not just the last one


def test_a_counter_offer_naming_an_agreement_replaces_it_only_when_it_binds() -> None:
    t = ready_b()
    t(0, A.Offer(price=2, to=3))
    t(3, A.Shake(offer=1))  # agreement #1: a $2M share for seat 3
    events = t(3, A.Offer(price=3, counter=1))  # seat 3 asks for more, instead of #1
    counter = t.state.offers[1]
    assert (counter.family, counter.seller, counter.counters, counter.status) == (None, 3, 1, "shaken")
    assert events[0].data["counters"] == 1  # if agreed, it replaces agreement #1
    assert statuses(t) == {1: "binding", 2: "shaken"}  # #1 stands until the counter-offer binds
    assert GAME.view(t.state, None).round.promised == 2  # type: ignore[union-attr]
    events = t(0, A.Shake(offer=2))
    assert statuses(t) == {1: "replaced", 2: "binding"}
    assert events[0].kind == "agreement" and events[0].data["superseded"] == [1]
    [replaced] = [e for e in events if e.kind == "offer_replaced"]
    assert replaced.data["offer"] == 1 and replaced.data["replaced_by"] == 2
    assert GAME.view(t.state, None).round.promised == 3  # type: ignore[union-attr]


def test_a_turned_down_counter_offer_leaves_the_agreement_standing() -> None:
    t = ready_b()
    t(0, A.Offer(price=2, to=3))
    t(3, A.Shake(offer=1))
    t(0, A.Offer(price=1, counter=1))  # the Boss would rather pay less
    t(3, A.Withdraw(offer=2))  # seat 3 turns it down
    assert statuses(t) == {1: "binding", 2: "withdrawn"}
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.money == [4, 0, 0, 2]


def test_a_second_offer_for_a_card_under_an_agreement_names_the_agreement_it_would_replace() -> None:
    t = binding()  # agreement #1: seat 1's Knetowitz for $4M
    events = t(1, A.Offer(price=6, family="K"))  # no counter named: one card, one agreement
    assert t.state.offers[1].counters == 1
    assert events[0].data["counters"] == 1
    assert statuses(t) == {1: "binding", 2: "shaken"}
    t(0, A.Shake(offer=2))
    assert statuses(t) == {1: "replaced", 2: "binding"}
    assert GAME.view(t.state, None).round.promised == 6  # type: ignore[union-attr]


def test_a_rival_counter_offer_to_a_replaced_agreement_becomes_void() -> None:
    t = ready_b()
    t(0, A.Offer(price=2, to=3))
    t(3, A.Shake(offer=1))
    t(3, A.Offer(price=3, counter=1))  # #2: $3M instead of #1
    t(0, A.Offer(price=1, counter=1))  # #3: $1M instead of #1
    t(0, A.Shake(offer=2))  # #2 takes #1's place; #3 would now add up instead of replacing: void
    assert statuses(t) == {1: "replaced", 2: "binding", 3: "void"}
    void = t.events[-1]
    assert void.kind == "offer_void" and (void.data["reason"], void.data["was"], void.data["replaced_by"]) == (
        "replaced",
        1,
        2,
    )


def test_the_payout_cap_counts_every_agreement_in_force_and_allows_the_exact_payout() -> None:
    t = round_a()  # payout $12M
    t(1, A.Offer(price=5, family="K"))
    t(0, A.Offer(price=4, to=3))  # a share for seat 3
    t(0, A.Offer(price=3, to=2))  # and one for seat 2
    for offer, seat in ((1, 0), (2, 3), (3, 2)):
        t(seat, A.Shake(offer=offer))
    assert statuses(t) == {1: "binding", 2: "binding", 3: "binding"}  # 5 + 4 + 3 = 12: exactly the payout
    t(3, A.Offer(price=1))  # one more share for seat 3 would make $13M
    t.refused(
        0,
        A.Shake(offer=4),
        r"shake_over_payout\(offer=4, would=13, payout=12, promised=12, family=None\)",
    )
    t(3, A.Offer(price=5, counter=2))  # $5M instead of the $4M share: also $13M
    t.refused(0, A.Shake(offer=5), r"shake_over_payout\(offer=5, would=13, payout=12, promised=8")
    t(0, A.Offer(price=4, counter=5))  # the Boss counters the counter-offer: $4M, still instead of #2
    assert t.state.offers[-1].counters == 2
    t(3, A.Shake(offer=6))
    assert statuses(t) == {1: "binding", 2: "replaced", 3: "binding", 4: "shaken", 5: "replaced", 6: "binding"}
    assert GAME.view(t.state, None).round.promised == 12  # type: ignore[union-attr]


def test_renegotiating_a_binding_agreement_replaces_it_only_once_the_new_terms_bind() -> None:
    t = round_a()  # payout $12M
    t(1, A.Offer(price=8, family="K"))
    t(0, A.Shake(offer=1))
    t(0, A.Offer(price=10, family="K", to=1))  # the Boss proposes other terms
    assert statuses(t) == {1: "binding", 2: "shaken"}
    t(1, A.Shake(offer=2))  # $10M fits: the old $8M no longer counts
    assert statuses(t) == {1: "replaced", 2: "binding"}


def test_offers_on_other_cards_or_with_other_players_stand_side_by_side() -> None:
    t = offered()
    t(2, A.Offer(price=2, family="L"))
    t(0, A.Offer(price=1, to=3))  # a share for a player who brings no card
    assert statuses(t) == {1: "shaken", 2: "shaken", 3: "shaken"}
    assert t.state.offers[2].family is None and t.state.offers[2].seller == 3


def test_unshake_takes_back_a_hand_given_shake_before_binding() -> None:
    t = binding()
    t(2, A.Boss())
    for s in (0, 1, 3):
        t(s, A.Pass())  # seat 2 is Boss: agreement #1 reopens, and both shake again
    t(1, A.Shake(offer=1))
    t(1, A.Unshake(offer=1))
    assert statuses(t) == {1: "open"}
    t(2, A.Shake(offer=1))
    assert statuses(t) == {1: "shaken"}  # still waiting for seat 1


def test_a_dividend_price_is_worth_the_current_tiles_value_and_is_paid_at_conclusion() -> None:
    t = round_b()  # space 10 (H, P): 3 dividends × $2M; seat 3 owns Piepenbrok
    t(3, A.Offer(price=1, unit="dividends", family="P"))
    assert GAME.view(t.state, None).round.offers[0].value == 2  # type: ignore[union-attr]
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
    t(0, A.Close())
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.money == [5, 0, 1, 0]


def test_an_agreement_is_void_when_its_investor_goes_on_travel() -> None:
    t = offered()
    t(0, A.Shake(offer=1))
    t(0, A.Travel(target=1, family="K"))  # the Boss himself, why not
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert statuses(t) == {1: "void"}
    [void] = [e for e in t.events if e.kind == "offer_void"]
    assert void.public and (void.data["seller"], void.data["boss"], void.data["reason"]) == (1, 0, "no_card")
    assert void.data["was_binding"] is True


def test_an_agreement_stands_while_the_seller_still_has_a_clan_card_of_that_family() -> None:
    t = round_a()
    t(1, A.PlayClan(family="K"))
    t(1, A.Offer(price=4, family="K"))
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
    t(0, A.Shake(offer=1))
    t(3, A.Offer(price=1, family="P"))
    assert statuses(t) == {1: "binding", 2: "shaken"} and t.state.pending


def test_a_boss_change_reopens_agreements_to_the_new_boss_and_voids_unbound_offers() -> None:
    t = offered()  # #1: seat 1's Knetowitz to Boss 0
    t(0, A.Shake(offer=1))
    t(3, A.Offer(price=2, family="P"))  # #2, not agreed yet
    t(2, A.Boss())
    for s in (0, 1, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 2  # type: ignore[union-attr]
    first, second = t.state.offers
    assert (first.id, first.status, first.boss, first.reopened, first.shaken) == (1, "open", 2, 1, [])
    assert not first.by_offer  # nobody made this offer to the new Boss: both shake again
    assert second.status == "void"
    reopened = next(e for e in t.events if e.kind == "offer_reopened")
    assert reopened.data["offer"] == 1 and reopened.data["reopened"] == 1
    t(2, A.Shake(offer=1))
    assert t.state.offers[0].status == "shaken", "the new Boss's 🤝 alone doesn't bind it (issue 23, part 5)"
    t(1, A.Shake(offer=1))
    assert t.state.offers[0].status == "binding"


def test_an_agreement_whose_seller_becomes_boss_is_void() -> None:
    t = offered()
    t(0, A.Shake(offer=1))
    t(1, A.Boss())
    for s in (0, 2, 3):
        t(s, A.Pass())
    assert t.state.round.boss == 1 and statuses(t) == {1: "void"}  # type: ignore[union-attr]


def test_a_new_agreement_during_a_last_call_cancels_it() -> None:
    t = ready_b()
    t(2, A.Offer(price=1))
    t(0, A.Close())
    t(1, A.Pass())
    t(0, A.Shake(offer=1))
    assert t.state.round.last_call is None and t.state.passes == []  # type: ignore[union-attr]
    assert any(e.kind == "last_call_cancelled" for e in t.events)


def test_an_offer_stored_before_the_proposers_shake_came_with_it_still_loads_and_binds() -> None:
    """A snapshot from before issue 9: an open offer without `counters` or `by_offer`, its proposer's 🤝 still to
    come. It loads, and binds the old way (both shake); the proposer's hand-given shake can be taken back."""
    import json

    t = offered()
    stored = json.loads(GAME.dump_state(t.state))
    for key in ("counters", "by_offer"):
        del stored["offers"][0][key]
    stored["offers"][0].update(status="open", shaken=[])
    t.state = GAME.load_state(json.dumps(stored))
    [offer] = t.state.offers
    assert (offer.status, offer.shaken, offer.by_offer, offer.counters) == ("open", [], False, None)
    t(1, A.Shake(offer=1))
    t(1, A.Unshake(offer=1))
    t(1, A.Shake(offer=1))
    t(0, A.Shake(offer=1))
    assert statuses(t) == {1: "binding"}
