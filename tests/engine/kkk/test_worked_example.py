"""The rulebook's worked example (the 13th deal: Axel, Bert, Chris and Doris), played move by move.

Source: the English rulebook's "Example of a Round of Negotiations". Twelve deals are
done, one dividend is worth $5M, and the marker stands on the space "R, L, K + 2 of T/P/H, 6 dividends" (space 8).
"""

from collections import Counter

from engine.kkk import actions as A
from engine.kkk.cards import BOSS, RECRUIT, STOP, clan, travel

from .helpers import GAME, Table, prepared, rng_for_face

AXEL, BERT, CHRIS, DORIS = 0, 1, 2, 3


def start() -> Table:
    hands = [
        [clan("H"), clan("R"), STOP, BOSS, RECRUIT, RECRUIT, RECRUIT],  # Axel
        [BOSS, BOSS, clan("T"), clan("P")],  # Bert
        [travel("L")],  # Chris: no STOP cards ("Chris feels stupid for not having kept any")
        [travel("L"), clan("L")],  # Doris
    ]
    investors = {"L": AXEL, "P": AXEL, "K": BERT, "R": CHRIS, "H": CHRIS, "T": DORIS}
    state = prepared(4, investors, hands, deals=12, marker=8, turn=AXEL)
    state.rng = rng_for_face(5)  # "He rolls a 5, so it continues."
    return Table(state)


def offer_ids(t: Table) -> dict[int, str]:
    return {o.id: o.status for o in t.state.offers}


def test_the_thirteenth_deal() -> None:
    t = start()
    pile_before = Counter(t.state.discard)
    hand_sizes = [len(h) for h in t.state.hands]

    # Axel opens: Liebgeld and Piepenbrok are his, automatically in play; he plays Heiermann and Raffzahn clans.
    t(AXEL, A.Open())
    assert t.state.round is not None and t.state.round.boss == AXEL
    view = GAME.view(t.state, None)
    assert view.round is not None and view.round.payout == 30  # 6 × $5M
    t(AXEL, A.PlayClan(family="H"))
    t(AXEL, A.PlayClan(family="R"))

    # "If you let me use Knetowitz, I'll pay you one share for $5M." — "Nothing less than $8M."
    t(AXEL, A.Offer(price=1, unit="dividends", family="K", to=BERT))
    assert GAME.view(t.state, None).round.offers[0].value == 5  # type: ignore[union-attr]
    t(BERT, A.Offer(price=8, family="K"))
    assert offer_ids(t) == {1: "replaced", 2: "shaken"}  # Bert's counter-offer is his own 🤝
    t(AXEL, A.Shake(offer=2))  # accepts with gritted teeth
    assert offer_ids(t)[2] == "binding"

    # Chris sends Axel's Liebgeld on vacation; Axel fends it off with a STOP (both cards discarded).
    t(CHRIS, A.Travel(target=AXEL, family="L"))
    assert t.state.pending and t.state.pending[0].kind == "travel"
    t(AXEL, A.Stop())
    assert not t.state.pending and "L" not in t.state.round.travel  # type: ignore[union-attr]
    assert Counter(t.state.discard) - pile_before == Counter({travel("L"): 1, STOP: 1})

    # Doris also plays a travel card on Liebgeld; Axel has no more STOP cards. Everyone else passes.
    t(DORIS, A.Travel(target=AXEL, family="L"))
    for s in (AXEL, BERT, CHRIS):
        t(s, A.Pass())
    assert t.state.round.travel == {"L": travel("L")}  # type: ignore[union-attr]

    # Doris plays a Liebgeld clan card instead, for $9M.
    t(DORIS, A.PlayClan(family="L"))
    t(DORIS, A.Offer(price=9, family="L"))
    assert offer_ids(t)[3] == "shaken"

    # Bert: "I'm the Boss!" — Axel answers with a Boss card — Bert plays another. Nobody else plays one.
    t(BERT, A.Boss())
    t(AXEL, A.Boss())
    t(BERT, A.Boss())
    assert [e.by for e in t.state.pending] == [BERT, AXEL, BERT]
    for s in (AXEL, CHRIS, DORIS):
        t(s, A.Pass())
    assert t.state.round.boss == BERT and t.state.turn == BERT  # type: ignore[union-attr]
    # Bert's Knetowitz agreement was with Axel as Boss: Bert is now the Boss himself, so it is void; Doris's offer
    # to Axel was never agreed, so it is void too (she offers anew).
    assert offer_ids(t) == {1: "replaced", 2: "void", 3: "void"}

    # Bert lays Talerfeld and Piepenbrok clans; his Knetowitz investor is automatically in play.
    t(BERT, A.PlayClan(family="T"))
    t(BERT, A.PlayClan(family="P"))
    round_view = GAME.view(t.state, None).round
    assert round_view is not None and not round_view.can_close
    lacking = {r.family for r in round_view.requirements if r.block == "required" and not r.sources}
    assert lacking == {"R", "L"}

    # Doris: Liebgeld for $10M. Axel: his Raffzahn clan card for $10M. Chris: his Raffzahn investor for $8M.
    t(DORIS, A.Offer(price=10, family="L"))
    t(AXEL, A.Offer(price=10, family="R"))
    t(CHRIS, A.Offer(price=8, family="R"))
    assert offer_ids(t) == {1: "replaced", 2: "void", 3: "void", 4: "shaken", 5: "shaken", 6: "shaken"}

    # Axel plays 3 recruitment cards on Chris and takes his Raffzahn investor (Chris has no STOP).
    t(AXEL, A.Recruit(family="R"))
    for s in (BERT, CHRIS, DORIS):
        t(s, A.Pass())
    assert t.state.investors["R"] == AXEL
    assert offer_ids(t)[6] == "void"  # Chris has no Raffzahn any more
    assert t.state.round.clans[AXEL] == ["H", "R"]  # type: ignore[union-attr]

    # "Usury!" — Bert agrees quickly to both $10M offers and declares the deal closed.
    t(BERT, A.Shake(offer=5))
    t(BERT, A.Shake(offer=4))
    assert offer_ids(t)[4] == offer_ids(t)[5] == "binding"
    t(BERT, A.Close())
    uses = {(u.family, u.seat, u.card) for u in t.state.round.last_call.uses}  # type: ignore[union-attr]
    # Axel's newly recruited Raffzahn investor is used, not his clan card of the same name.
    assert uses == {
        ("R", AXEL, "investor"),
        ("L", DORIS, "clan"),
        ("K", BERT, "investor"),
        ("T", BERT, "clan"),
        ("P", BERT, "clan"),
    }
    last_call = t.events[-1]
    assert last_call.kind == "last_call" and last_call.data["payout"] == 30 and last_call.data["keeps"] == 10
    for s in (AXEL, CHRIS, DORIS):
        t(s, A.Pass())

    # The banker pays $30M to Bert, who pays Doris and Axel $10M each and keeps $10M.
    assert t.state.money == [10, 10, 0, 10]
    assert t.state.paid_out == 30
    paid = [(e.data["to_seat"], e.data["amount"]) for e in t.events if e.kind == "paid"]
    assert sorted(paid) == [(AXEL, 10), (DORIS, 10)]
    assert any(e.kind == "boss_keeps" and e.data == {"seat": 1, "amount": 10} for e in t.events)

    # Discarded: Bert's Talerfeld and Piepenbrok and Doris's Liebgeld (used), all played influence cards, and the
    # travel card that covered Axel's Liebgeld. Axel takes back his Raffzahn and Heiermann clan cards.
    discarded = Counter(t.state.discard) - pile_before
    assert discarded == Counter(
        {
            travel("L"): 2,  # Chris's (STOPped) and Doris's (lay on Liebgeld)
            STOP: 1,
            BOSS: 3,
            RECRUIT: 3,
            clan("T"): 1,
            clan("P"): 1,
            clan("L"): 1,
        }
    )
    assert t.state.hands[AXEL] == sorted([clan("H"), clan("R")])
    assert t.state.hands[BERT] == [] and t.state.hands[CHRIS] == [] and t.state.hands[DORIS] == []
    assert [len(h) for h in t.state.hands] == [hand_sizes[0] - 5, 0, 0, 0]

    # Bert puts the deal tile on the space and rolls: a 5 (deal 13 ends on 1–4), so the game continues.
    assert t.state.tiles[8 - 1] == 13 and t.state.deals == 13
    assert t.state.marker == 14  # the next free space clockwise
    assert t.state.end_roll == 5 and t.state.phase == "turn"
    assert t.state.turn == CHRIS  # left of Bert, the final Boss
    assert t.state.round is None and t.state.offers == []
    assert GAME.result(t.state) is None
