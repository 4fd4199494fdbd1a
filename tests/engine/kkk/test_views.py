"""Views: the public table carries what the status message needs; a player's view adds only their own secrets."""

from engine.kkk import actions as A
from engine.kkk.options import KkkOptions
from engine.kkk.views import PlayerView, PublicView

from .helpers import GAME, Table, prepared
from .tables import HANDS, offered, pending_travel


def test_the_public_view_of_a_round() -> None:
    t = offered()
    t(0, A.Shake(offer=1))
    t(0, A.PlayClan(family="R"))
    view = GAME.view(t.state, None)
    assert isinstance(view, PublicView) and not isinstance(view, PlayerView)
    assert view.marker == 8 and view.tile is not None and view.tile.value == 2 and len(view.spaces) == 16
    assert view.turn == 0 and view.hand_sizes == [10, 7, 4, 3] and view.draw_pile == 98 - 25
    assert view.money is None
    r = view.round
    assert r is not None and r.boss == 0 and r.payout == 12 and r.promised == 4 and r.boss_keeps == 8
    assert r.clans[0] == ["R"]
    by_family = {req.family: req for req in r.requirements}
    assert [(s.seat, s.card, s.offer) for s in by_family["K"].sources] == [(1, "investor", 1)]
    assert [(s.seat, s.card, s.offer) for s in by_family["R"].sources] == [(0, "clan", None)]
    assert by_family["H"].assigned is not None and by_family["L"].sources == [] and not r.can_close
    assert [(o.id, o.status, o.value) for o in r.offers] == [(1, "binding", 4)]
    assert view.wait is not None and view.wait.seats == [0]


def test_the_public_view_shows_the_pending_effect_and_its_deadline() -> None:
    t = pending_travel()
    view = GAME.view(t.state, None)
    assert [(e.kind, e.by, e.family, e.target, e.on) for e in view.pending] == [("travel", 3, "L", 2, "investor")]
    assert view.wait is not None and view.wait.kind == "reaction" and view.wait.until == t.state.deadline.until  # type: ignore[union-attr]


def test_a_players_view_adds_their_hand_money_investors_and_offers() -> None:
    t = offered()
    mine = GAME.view(t.state, 1)
    assert isinstance(mine, PlayerView)
    assert mine.hand == t.state.hands[1] and mine.my_money == 0
    assert mine.my_investors == ["K"] and mine.my_offers == [1]
    other = GAME.view(t.state, 2)
    assert isinstance(other, PlayerView) and other.my_offers == [] and other.hand == t.state.hands[2]


def test_hand_sizes_can_be_hidden() -> None:
    investors = {"H": 0, "K": 1, "L": 2, "P": 3, "R": None, "T": None}
    state = prepared(4, investors, HANDS, marker=8, options=KkkOptions(hide_hand_sizes=True))
    assert GAME.view(state, None).hand_sizes is None  # type: ignore[attr-defined]


def test_money_stays_private_until_the_end() -> None:
    investors = {"R": 0, "L": 0, "H": 1, "K": 2, "P": 3, "T": None}
    t = Table(prepared(4, investors, [[], [], [], []], marker=1, money=[5, 7, 0, 0]))
    assert GAME.view(t.state, None).money is None  # type: ignore[attr-defined]
    assert GAME.view(t.state, 1).my_money == 7  # type: ignore[attr-defined]
    assert "7" not in GAME.view(t.state, 0).model_dump_json(include={"my_money", "money"})


def test_a_seat_view_built_on_the_public_view_is_the_seat_view() -> None:
    """`seat_view` (the platform computes the public view once per state and builds each seat's on it) gives
    exactly `view(state, seat)`, at every step of seeded random games."""
    import random
    from datetime import timedelta

    from engine.kkk.randomplay import choose

    from .helpers import NOW

    for seed in range(3):
        rnd = random.Random(seed)
        state = GAME.setup(4 + seed, KkkOptions(), seed, NOW)
        for step in range(150):
            public = GAME.view(state, None)
            for seat in range(state.seats):
                assert GAME.seat_view(state, seat, public) == GAME.view(state, seat)
            if GAME.result(state) is not None:
                break
            actor, action = choose(GAME, state, rnd, timeout_rate=0.0)
            state = GAME.apply(state, actor, action, NOW + timedelta(minutes=step)).state


def test_a_seat_view_built_without_validation_is_the_one_validation_makes() -> None:
    """`player_view` builds the view without validating the public fields again (`engine.built`): it must be the
    very model validation makes of the same data (same fields in the same order, same JSON, same fields set)."""
    import random

    from engine.kkk.randomplay import choose

    from .helpers import NOW

    rnd = random.Random(5)
    state = GAME.setup(5, KkkOptions(), 5, NOW)
    for _ in range(200):
        public = GAME.view(state, None)
        for seat in range(state.seats):
            view = GAME.seat_view(state, seat, public)
            again = PlayerView(**dict(public), **{k: getattr(view, k) for k in ("you", "hand", "my_money")},
                               my_investors=view.my_investors, my_offers=view.my_offers)  # fmt: skip
            assert view == again and list(view.__dict__) == list(again.__dict__)
            assert view.model_dump_json() == again.model_dump_json()
            assert view.model_fields_set == again.model_fields_set
        if GAME.result(state) is not None:
            break
        seat, action = choose(GAME, state, rnd, timeout_rate=0.05)
        try:
            state = GAME.apply(state, seat, action, NOW).state
        except Exception:
            continue
