"""The presentation without Discord: what the status, the hand and the narration say, what a button means, what
`/sm trade` reads — and that nothing the table or another player sees depends on a hidden hand."""

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.schwarzmarkt.commands import parse_cards
from bot.games.schwarzmarkt.presentation import SchwarzmarktPresentation
from bot.presentation import Post, Table
from bot.service import Refusal
from engine.schwarzmarkt.actions import Give, Pick, Play, Target, Trade
from engine.schwarzmarkt.state import SchwarzmarktState
from storage.models import GameRecord, SeatRecord
from tests.engine.schwarzmarkt.helpers import GAME, arrange, hand, new_game, open_offer, play, play_event
from tests.engine.schwarzmarkt.test_secrecy import SHOWN, shared_moves, twins

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
NAMES = ("anna", "bert", "cleo", "dave")
P = SchwarzmarktPresentation()


def table_for(state: SchwarzmarktState, status: str = "active") -> Table:
    record = GameRecord(
        id=1,
        kind="schwarzmarkt",
        status=status,  # type: ignore[arg-type]
        seed=7,
        seat_count=4,
        setup_at=NOW,
        version=3,
        created_at=NOW,
        updated_at=NOW,
    )
    seats = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=n, joined_at=NOW) for i, n in enumerate(NAMES)
    ]
    return Table(GAME, record, seats, state, NOW)


def shown(post: Post) -> tuple[str, list[tuple[str, str]], list[tuple[str, str]]]:
    return post.text + (post.description or ""), post.fields, [(b.label, b.key) for b in post.buttons]


def labels(post: Post) -> list[str]:
    return [b.label for b in post.buttons]


def test_the_status_shows_track_offer_events_turn_totals_and_piles() -> None:
    state = play_event(new_game(), "limit")
    waiting = P.status(table_for(state)).description or ""
    assert "`[1] 2 3 4 5 6 8 10 12 15 20 25🏁 35 50`" in waiting, "Limit waits face up for the next round"
    assert "In force: 🛑 Limit" in waiting and "**bert** starts: play a black-market card" in waiting
    state = open_offer(state, [0, 0, 3, 0, 0])
    post = P.status(table_for(state))
    text = post.description or ""
    assert "Game round 1 of 2" in text
    assert "`[1] 2 3 4 5 6 8 10 12 15 20 25🏁 35 50`" in text, "Limit: the round ends at 25"
    assert "**Offer:** ☕ 3 coffee" in text and "Still wanted: ☕ 3 coffee" in text
    assert "In force: 🛑 Limit" in text
    assert "**bert**'s trading turn" in text and "⏳ **bert**'s turn" in text
    (players,) = [v for k, v in post.fields if k.startswith("Players")]
    assert "**anna** — 💰 0 · 9 goods · 3 black-market cards" in players
    assert f"goods pile {sum(state.goods_pile)}" in (post.footer or "")
    assert f"black-market pile {len(state.black_pile)}" in (post.footer or "")


def test_the_hand_shows_goods_by_kind_cards_with_their_effect_luxury_and_the_turn_buttons() -> None:
    state = arrange(new_game(), {0: hand("2 coffee", "sugar", "potatoes")}, luxury=[12, 0, 0, 0])
    state = open_offer(state, [0, 0, 3, 0, 0])
    post = P.private_view(table_for(state), 0)
    text = post.description or ""
    assert "**Your goods** (4): 🥔 1 potato · ☕ 2 coffee · 🍬 1 sugar" in text
    assert "**Your luxury goods:** 💰 12" in text
    assert text.count("• ") == 3, "each black-market card on its own line"
    assert "Your trading turn at price 1" in text
    assert labels(post) == [
        "Sell 1 coffee",
        "Sell 2 coffee",
        "No trade, move 1",
        "No trade, move 2",
        "No trade, move 3",
        "No trade, move 4",
    ]
    assert labels(P.private_view(table_for(state), 1)) == [], "no buttons while the game waits on someone else"


def test_a_button_is_the_engine_action_and_an_old_one_is_refused() -> None:
    state = arrange(new_game(), {0: hand("2 coffee")})
    state = open_offer(state, [0, 0, 3, 0, 0])
    table = table_for(state)
    keys = {b.label: b.key for b in P.private_view(table, 0).buttons}
    assert P.controls.button_action(table, 0, keys["Sell 2 coffee"]) == Trade(cards=("coffee", "coffee"), move=1)
    assert P.controls.button_action(table, 0, keys["No trade, move 3"]) == Trade(cards=(), move=3)
    later = play(state, (0, Trade(cards=(), move=1)))
    with pytest.raises(Refusal, match="earlier turn"):
        P.controls.button_action(table_for(later), 0, keys["No trade, move 3"])


def test_an_event_s_choices_are_buttons_on_the_chooser_s_hand_only() -> None:
    state = arrange(new_game(), {0: hand("coffee", "sugar"), 2: hand("3 flour")}, luxury=[9, 0, 0, 0])
    swap = play_event(state, "forced_swap")
    table = table_for(swap)
    assert labels(P.private_view(table, 0)) == ["bert", "cleo", "dave"]
    for other in (1, 2, 3):
        assert labels(P.private_view(table, other)) == []
    key = next(b.key for b in P.private_view(table, 0).buttons if b.label == "cleo")
    assert P.controls.button_action(table, 0, key) == Target(seat=2)
    swap = play(swap, (0, Target(seat=2)))
    gives = P.private_view(table_for(swap), 0).buttons
    assert [b.label for b in gives] == ["Give 1 coffee", "Give 1 sugar", "Give 1 coffee + 1 sugar"]
    assert P.controls.button_action(table_for(swap), 0, gives[2].key) == Give(cards=("coffee", "sugar"))

    found = play_event(state, "new_goods")
    mine = P.private_view(table_for(found), 0)
    assert "The goods pile (only you see it)" in (mine.description or "")
    assert all("only you see it" not in (P.private_view(table_for(found), s).description or "") for s in (1, 2, 3))
    assert "pile (only you" not in (P.status(table_for(found)).description or "")
    first = mine.buttons[0]
    assert isinstance(P.controls.button_action(table_for(found), 0, first.key), Pick)


def test_the_starter_s_buttons_are_their_cards() -> None:
    state = new_game()
    post = P.private_view(table_for(state), 0)
    assert len(post.buttons) == 3 and "You start the trading round" in (post.description or "")
    action = P.controls.button_action(table_for(state), 0, post.buttons[0].key)
    assert isinstance(action, Play) and action.card in state.black_market[0]


@pytest.mark.parametrize(
    ("typed", "cards"),
    [
        ("2 coffee, sugar", ("coffee", "coffee", "sugar")),
        ("coffee,coffee,sugar", ("coffee", "coffee", "sugar")),
        ("1 potato + 2 flour", ("potatoes", "flour", "flour")),
        ("none", ()),
        (None, ()),
    ],
)
def test_sm_trade_reads_the_cards_as_people_type_them(typed: str | None, cards: tuple[str, ...]) -> None:
    assert parse_cards(typed) == cards


def test_sm_trade_refuses_what_isnt_goods() -> None:
    with pytest.raises(Refusal, match="“tea” isn't a kind of goods"):
        parse_cards("2 tea")


def test_nothing_the_table_or_another_player_sees_depends_on_a_hidden_hand() -> None:
    """The twins of the engine's secrecy test, rendered: the status, every public narration line, and the hands
    (with their buttons) of everyone but the twin hand's owner read the same, move after move, until a reveal."""
    for seed in range(6):
        a, b = twins(seed)
        now = NOW
        for step in range(40):
            ta, tb = table_for(a), table_for(b)
            assert shown(P.status(ta)) == shown(P.status(tb))
            for seat in (0, 2, 3):
                assert shown(P.private_view(ta, seat)) == shown(P.private_view(tb, seat))
            moves = shared_moves(a, b)
            if not moves:
                break
            actor, action = moves[(seed * 7 + step * 13) % len(moves)]
            now += timedelta(minutes=17)
            out_a, out_b = GAME.apply(a, actor, action, now), GAME.apply(b, actor, action, now)
            if any(e.reveals or e.kind in SHOWN for e in out_a.events + out_b.events):
                break
            lines_a = [P.event_line(ta, e) for e in out_a.events if e.public]
            lines_b = [P.event_line(tb, e) for e in out_b.events if e.public]
            assert lines_a == lines_b
            a, b = out_a.state, out_b.state
