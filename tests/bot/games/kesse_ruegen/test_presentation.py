"""The presentation alone (no Discord): the emoji board, the action buttons, the fist options and where they are
offered (the hand, the status message's private answer), the narration, the prompt after an undo."""

from datetime import UTC, datetime

import pytest

from bot.games.kesse_ruegen import presentation
from bot.games.kesse_ruegen.presentation import action_buttons
from bot.games.kesse_ruegen.prompts import choice_options, prompt_text
from bot.presentation import Table, hand_fingerprint
from bot.service import Refusal
from engine.events import public
from engine.kesse_ruegen.actions import Challenge, Choose, Done, Evict, Guess, Move, Plant, Reclaim
from engine.kesse_ruegen.state import KesseRuegenState
from storage.models import GameRecord, SeatRecord
from tests.engine.kesse_ruegen.helpers import GAME, arrange, placed, play

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "bert", "cleo", "dave"]


def table(state: KesseRuegenState, dm_ok: bool | None = True) -> Table:
    record = GameRecord(
        id=7, kind="kesse_ruegen", status="active", version=3, thread_id=99, created_at=NOW, updated_at=NOW
    )
    seats = [
        SeatRecord(game_id=7, joined_at=NOW, seat=s, player_id=100 + s, display_name=NAMES[s], dm_ok=dm_ok)
        for s in range(state.seats)
    ]
    return Table(GAME, record, seats, state, NOW)


def grid_rows(description: str) -> list[list[str]]:
    board = description.split("\n")
    return [line.split("\u200b")[1:] for line in board[:5]]


def test_the_status_draws_pawns_tubers_and_the_barn() -> None:
    state = arrange(
        placed(3, squares=("a1", "e5", "a5")),
        pawns={2: "c3"},
        tubers={"a1": 1, "b1": 0, "e5": 1, "d4": 2},
        barn={0: 2, 1: 1},
    )
    post = presentation.status(table(state))
    details = presentation.status_details(table(state))
    assert details is not None
    rows = grid_rows(details.description or "")
    # Each square: its pawn (or soil), then its tuber (or soil) — a pawn never hides the tuber under it.
    assert rows[0] == ["🟫🟫", "🟫🟫", "🟫🟫", "🟫🟫", "⚪⬜"]  # row 5: bert's pawn on his own sugar beet at e5
    assert rows[1] == ["🟫🟫", "🟫🟫", "🟫🟫", "🟫🔺", "🟫🟫"]  # row 4: cleo's radish on d4
    assert rows[2] == ["🟫🟫", "🟫🟫", "🛖🛖", "🟫🟫", "🟫🟫"]  # row 3: the barn, holding cleo's pawn
    assert rows[4] == ["🟠⬜", "🟫🔶", "🟫🟫", "🟫🟫", "🟫🟫"]  # row 1: anna on bert's sugar beet, her carrot on b1
    assert "Tubers: 🔶 carrots · ⬜ sugar beets · 🔺 radishes · pawns are circles (🟠⚪🔴)" in (
        details.description or ""
    )
    assert "🛖 Barn (c3): pawns 🔴 cleo; tubers 🔶×2 ⬜×1" in (post.description or "")
    # The board is the picture's and the Details': the status keeps to one phone screen beside the picture.
    assert "🟫" not in (post.description or "") and "**First to 9 fields wins:**" in (post.description or "")
    players = post.description or ""
    assert (
        "🟠🔶 **anna** (carrots) — **1/9** fields · 9 in supply · 2 in the barn · pawn on a1, on bert's ⬜" in players
    )
    assert "pawn on e5, on their own ⬜" in players and "pawn in the barn (c3)" in players
    assert "⚔️ **anna**'s turn: challenge someone with `/kr duel opponent:`" in (post.description or "")


def test_the_status_and_every_other_hand_are_the_same_whatever_a_fist_holds() -> None:
    duel = placed(2)  # two players: the duel is on
    fists = [play(duel, (0, Choose(tubers=n))) for n in (0, 1, 2)]
    statuses = {str(presentation.status(table(s))) for s in fists}
    assert len(statuses) == 1
    assert "anna ✅ closed, bert ⏳ choosing" in (presentation.status(table(fists[2])).description or "")
    assert len({str(presentation.private_view(table(s), 1)) for s in fists}) == 1
    mine = [presentation.private_view(table(s), 0).description or "" for s in fists]
    assert (
        "fist on **0 carrots**" in mine[0] and "fist on **1 carrot**" in mine[1] and "fist on **2 carrots**" in mine[2]
    )


def test_the_fist_buttons_follow_the_supply() -> None:
    fields = ("a2", "a3", "a4", "a5", "b2", "b3", "b4", "b5", "c1", "c2", "c4", "c5", "d1", "d2", "d3")
    low = arrange(placed(2), tubers=dict.fromkeys(fields, 1))
    assert low.supply[1] == 1
    duel = low  # two players: the duel is on
    assert choice_options(table(duel), 0) == [0, 1, 2]
    assert choice_options(table(duel), 1) == [0, 1]
    assert "Choose 0 or 1 (you have only 1 in your supply)" in prompt_text(table(duel), 1)
    assert "⚔️ Your duel with **anna** is on! Close your fist in secret" in prompt_text(table(duel), 1)
    empty = arrange(duel, barn={1: 1})
    assert choice_options(table(empty), 1) == [0]
    assert "Choose 0 (you have only 0 in your supply)" in prompt_text(table(empty), 1)


def acting(state: KesseRuegenState, actor: int, left: int) -> KesseRuegenState:
    state = state.model_copy(deep=True)
    state.phase, state.actor, state.actions_left, state.actions_total = "act", actor, left, 3
    state.duels = 4
    return state


def test_the_action_prompt_offers_exactly_the_legal_actions() -> None:
    state = acting(arrange(placed(2), pawns={0: "b2"}, tubers={"b2": 1}, barn={0: 1}), 0, 2)
    post = presentation.action_prompt(table(state))
    assert post.ref == ("kr.actions", "4")
    assert [b.label for b in post.buttons] == ["Evict", "↖", "↑", "↗", "←", "→", "↙", "↓", "↘"]
    assert "**2 left** of 3" in post.text and "on b2, on bert's ⬜" in post.text
    in_barn = acting(arrange(placed(2), pawns={0: "c3", 1: "d4"}, barn={0: 1}), 0, 1)
    labels = [b.label for b in presentation.action_prompt(table(in_barn)).buttons]
    assert labels == ["Reclaim", "↖", "↑", "←", "→", "↙", "↓", "↘"]  # d4 (↗) holds bert's pawn
    # Done only when nothing else is possible (the engine then ends the turn by itself, so this is a fallback).
    boxed = acting(arrange(placed(4), pawns={0: "a1", 1: "a2", 2: "b1", 3: "b2"}, tubers={"a1": 0}), 0, 2)
    assert [b.label for b in presentation.action_prompt(table(boxed)).buttons] == ["Done"]
    assert action_buttons([Plant(), Move(direction="s")])[0].key == "plant"


def test_buttons_map_to_engine_actions() -> None:
    t = table(placed(3))  # nobody challenged yet
    assert presentation.controls.button_action(t, 0, "plant") == Plant()
    assert presentation.controls.button_action(t, 0, "evict") == Evict()
    assert presentation.controls.button_action(t, 0, "reclaim") == Reclaim()
    assert presentation.controls.button_action(t, 0, "done") == Done()
    assert presentation.controls.button_action(t, 0, "move.sw") == Move(direction="sw")
    assert presentation.controls.button_action(t, 0, "move.up") is None
    assert presentation.controls.button_action(t, 0, "fly") is None
    # A fist button names its duel: it closes that duel's fist, and nothing in another duel.
    duel = table(placed(2))  # two players: the duel is on
    assert presentation.controls.button_action(duel, 1, "fist.1.2") == Choose(tubers=2)
    with pytest.raises(Refusal, match="That duel is over"):
        presentation.controls.button_action(duel, 1, "fist.0.2")
    with pytest.raises(Refusal, match="That duel is over"):
        presentation.controls.button_action(t, 1, "fist.1.2")
    closed = table(play(duel.state, (1, Choose(tubers=1))))  # type: ignore[arg-type]
    with pytest.raises(Refusal, match="already closed on 1"):
        presentation.controls.button_action(closed, 1, "fist.1.2")


def test_choose_in_secret_answers_each_duellist_alone() -> None:
    three = placed(3)
    duel = table(play(three, (0, Challenge(opponent=2))))
    assert [b.label for b in presentation.status(duel).buttons] == ["My hand", "Choose in secret", "Details"]
    mine = presentation.controls.button_reply(duel, 2, "fist")
    assert mine is not None and [b.key for b in mine.buttons] == ["fist.1.0", "fist.1.1", "fist.1.2"]
    assert "**anna** challenges you to a duel!" in mine.text and "Kesse Rügen #7" in mine.text
    with pytest.raises(Refusal, match="Only anna and cleo are in this duel"):
        presentation.controls.button_reply(duel, 1, "fist")
    assert presentation.controls.button_reply(duel, 0, "plant") is None  # other keys are moves
    with pytest.raises(Refusal, match="no fist to close"):
        presentation.controls.button_reply(table(three), 0, "fist")
    assert [b.label for b in presentation.status(table(three)).buttons] == ["My hand", "Details"]


def test_narration_names_the_command_and_the_closed_dms() -> None:
    state = placed(2)
    event = public("challenged", challenger=0, challenged=1, automatic=False, all_placed=False)
    line = presentation.event_line(table(state, dm_ok=False), event) or ""
    assert line.startswith(
        "⚔️ anna challenges bert to a duel! Both of you: secretly close your fist on 0, 1 or 2 tubers. "
        "Your buttons are on your hand DMs"
    )
    assert "📪 anna: I can't DM you — press **Choose in secret** on the status message (or `/kr choose`)" in line
    assert "📪" not in (presentation.event_line(table(state), event) or "")
    closed = public("chosen", seat=1)  # whether bert or the deadline chose
    assert presentation.event_line(table(state), closed) == "✊ bert's fist is closed."
    turn = public("turn", seat=1, step="challenge", all_placed=False)
    assert (presentation.event_line(table(state), turn) or "").endswith("(`/kr duel opponent:`)")


def test_the_hand_asks_for_the_fist_with_buttons_until_it_is_closed() -> None:
    start = placed(3)
    duel = play(start, (0, Challenge(opponent=1)))
    hand = presentation.private_view(table(duel), 1)
    assert "**anna** challenges you to a duel! Close your fist in secret" in (hand.description or "")
    two = presentation.private_view(table(placed(2)), 1)  # two players: nobody chose the opponent
    assert "⚔️ Your duel with **anna** is on! Close your fist in secret" in (two.description or "")
    assert [(b.label, b.key) for b in hand.buttons] == [("0", "fist.1.0"), ("1", "fist.1.1"), ("2", "fist.1.2")]
    closed = play(duel, (1, Choose(tubers=2)))
    hand = presentation.private_view(table(closed), 1)
    assert "you closed your fist on **2 sugar beets**" in (hand.description or "") and not hand.buttons
    assert "Nothing secret right now" in (presentation.private_view(table(start), 1).description or "")
    assert not presentation.private_view(table(start), 1).buttons
    # The hand DM is edited when its buttons come and go, even where its secret (the fist) did not change yet.
    assert presentation.hands.digest(GAME, start, 1) == presentation.hands.digest(GAME, duel, 1)
    assert hand_fingerprint(presentation, table(start), 1) != hand_fingerprint(presentation, table(duel), 1)
    assert hand_fingerprint(presentation, table(duel), 1) != hand_fingerprint(presentation, table(closed), 1)


def test_the_prompt_is_redrawn_from_the_state_after_an_undo() -> None:
    state = acting(arrange(placed(2), pawns={0: "b2"}), 0, 2)
    assert [p.ref for p in presentation.live_posts(table(state))] == [("kr.actions", "4")]
    assert presentation.live_posts(table(placed(3))) == []  # no duel yet: no prompt to keep up to date
    planted = play(state, (0, Plant()))
    (live,) = presentation.live_posts(table(planted))
    assert "Plant" not in [b.label for b in live.buttons] and "**1 left** of 3" in live.text
    # Undone (the state before the plant): the live prompt offers Plant again.
    (live,) = presentation.live_posts(table(state))
    assert "Plant" in [b.label for b in live.buttons] and "**2 left** of 3" in live.text
    # A reveal undone (back to the guesses of that duel): the duel's prompt says so and has no buttons.
    back = play(placed(2), (0, Choose(tubers=1)), (1, Choose(tubers=1)), (0, Guess(total=2)))
    (live,) = presentation.live_posts(table(back))
    assert live.ref == ("kr.actions", "1") and live.text.startswith("↩️") and not live.buttons


def test_a_fist_closed_by_the_deadline_looks_the_same_to_the_table_whatever_it_holds() -> None:
    """Issue 9, point 3, at the table: the narration, the status and the other duellist's and an onlooker's hand
    are the same whether the deadline's random pick was 0, 1 or 2; only the owner's hand tells."""
    from tests.engine.kesse_ruegen.test_deadlines import defaulted

    shown = []
    for fist in (0, 1, 2):
        state, events = defaulted(fist)
        t = table(state)
        lines = [presentation.event_line(t, e) for e in events if e.public]
        others = [str(presentation.private_view(t, s)) for s in (0, 2)]
        shown.append((lines, str(presentation.status(t)), others))
        assert f"fist on **{fist} sugar beet" in (presentation.private_view(t, 1).description or "")
    assert shown[0] == shown[1] == shown[2]
    assert shown[0][0][0] == "✊ bert's fist is closed."


def test_the_status_shows_an_end_by_empty_supplies_and_who_shares_the_win() -> None:
    state = arrange(
        placed(3),
        tubers={
            **{sq: 0 for sq in ("a2", "a3", "a4", "b1", "b2", "b3", "b4")},
            **{sq: 1 for sq in ("d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3")},
            **{sq: 2 for sq in ("b5", "c1", "c2", "c4", "c5")},
        },
        barn={0: 4, 1: 4, 2: 7},
    )
    state = play(
        state,
        (0, Challenge(opponent=2)),
        (0, Choose(tubers=1)),
        (2, Choose(tubers=0)),
        (0, Guess(total=1)),
        (2, Guess(total=0)),
    )
    outcome = GAME.apply(state, 0, Plant(), NOW)
    t = table(outcome.state)  # the table's result is the engine's: the game is over
    line = presentation.event_line(t, outcome.events[-1]) or ""
    assert line.startswith("🏁 No player has a tuber left in their supply, so every duel would total 0")
    assert line.endswith("anna and bert share the win, each with tubers on 8 fields.")
    status = presentation.status(t).description or ""
    assert (
        "🏁 No tubers left in any supply, so the game ended: 🏆 **anna** and **bert** share the win with tubers on "
        "8 fields!" in status
    )
    assert presentation.action_prompt(t).content.endswith(
        "\n🏆 **anna** and **bert** shared the win — the game is over."
    )
