"""The hand limit of 12: discard or recruit at once, and the game waits for it."""

from collections import Counter

from engine.kkk import actions as A
from engine.kkk.cards import RECRUIT, STOP

from .helpers import GAME
from .tables import over_c


def test_the_game_waits_for_the_player_over_the_limit_only() -> None:
    t = over_c()  # seat 0 drew to 15; the turn passed to seat 1
    [wait] = GAME.waiting_on(t.state)
    assert wait.seats == (0,) and wait.kind == "turn"
    assert all(GAME.legal_actions(t.state, s) == [] for s in (1, 2, 3))
    assert any(isinstance(a, A.Discard) for a in GAME.legal_actions(t.state, 0))
    public = next(e for e in t.events if e.kind == "over_limit")
    private = next(e for e in t.events if e.kind == "must_discard")
    assert public.public and "cards" not in public.data and private.to == (0,)


def test_discarding_the_excess_lets_play_go_on() -> None:
    t = over_c()
    hand_before = Counter(t.state.hands[0])
    events = t(0, A.Discard(cards=(STOP, STOP, "boss")))
    assert len(t.state.hands[0]) == 12 and Counter(t.state.discard) == Counter({STOP: 2, "boss": 1})
    assert hand_before - Counter(t.state.hands[0]) == Counter({STOP: 2, "boss": 1})
    public = next(e for e in events if e.kind == "discarded")
    assert public.public and "cards" not in public.data
    assert next(e for e in events if e.kind == "you_discarded").to == (0,)
    [wait] = GAME.waiting_on(t.state)
    assert wait.seats == (1,) and wait.since == t.now  # the next player's deadline starts now
    t(1, A.Roll())


def test_a_recruitment_triple_gets_down_to_12_even_if_stopped() -> None:
    t = over_c()
    t(0, A.Recruit(family="R"))  # Raffzahn lies beside the board
    assert len(t.state.hands[0]) == 12
    [wait] = GAME.waiting_on(t.state)
    assert wait.kind == "reaction" and wait.seats == (1, 2, 3)
    t.state.hands[2] = [STOP]  # someone with a STOP (a contrived hand)
    t(2, A.Stop())
    assert t.state.investors["R"] is None and len(t.state.hands[0]) == 12
    assert Counter(t.state.discard) == Counter({RECRUIT: 3, STOP: 1})
    t(1, A.Roll())


def test_a_recruitment_triple_outside_a_round_takes_effect_after_the_window() -> None:
    t = over_c()
    t(0, A.Recruit(family="T"))
    for s in (1, 2, 3):
        t(s, A.Pass())
    assert t.state.investors["T"] == 0 and t.state.round is None and t.state.turn == 1


def test_at_the_deadline_random_cards_are_discarded_and_only_the_owner_learns_which() -> None:
    t = over_c()
    before = Counter(t.state.hands[0])
    events = t.timeout()
    assert len(t.state.hands[0]) == 12
    gone = before - Counter(t.state.hands[0])
    assert sum(gone.values()) == 3 and Counter(t.state.discard) == gone
    private = next(e for e in events if e.kind == "you_discarded")
    assert private.to == (0,) and Counter(private.data["cards"]) == gone  # type: ignore[arg-type]
    assert all("cards" not in e.data for e in events if e.public)
