"""The presentation alone (no Discord): the map as text, the variant's HQs and face-down sheets, the sheet's
buttons of the moment, the same objection buttons for everyone asked, the compact claims line, the score text."""

from datetime import UTC, datetime

from bot.games.casablanca import presentation
from bot.games.casablanca.presentation import auction_line
from bot.presentation import Table, hand_fingerprint
from engine.casablanca.actions import ChooseHq, Object
from engine.casablanca.state import Auction, CasablancaState
from engine.casablanca.views import PublicView
from storage.models import GameRecord, SeatRecord
from tests.engine.casablanca.helpers import GAME, new_game, opened
from tests.engine.casablanca.helpers import Table as Play

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "bert", "cleo", "dave"]


def table(state: CasablancaState) -> Table:
    record = GameRecord(
        id=7, kind="casablanca", status="active", version=3, thread_id=99, created_at=NOW, updated_at=NOW
    )
    seats = [
        SeatRecord(game_id=7, joined_at=NOW, seat=s, player_id=100 + s, display_name=NAMES[s], dm_ok=True)
        for s in range(state.seats)
    ]
    return Table(GAME, record, seats, state, NOW)


def test_the_details_show_the_map_as_text_and_the_status_keeps_to_one_screen() -> None:
    play = opened(3)
    play.move(0, "purple", "10")
    play.nobody_objects()
    status = presentation.status(table(play.state))
    # The status beside its picture: what is awaited and the suitcase, not the map again.
    assert "Rick's Café" not in (status.description or "") and "Details" in [b.label for b in status.buttons]
    assert len((status.description or "").splitlines()) <= 6
    details = presentation.status_details(table(play.state))
    assert details is not None
    text = details.description or ""
    assert "**Rick's Café** (HQ): 🟢 Don Greenwood\n" in text
    assert "**house 10**: 🟣 Lila Sheela" in text
    assert "**Bazaar**: 💼 suitcase" in text
    assert "Nobody has carried it yet. The game can end only once two different agents have carried it." in text


def test_the_variant_status_names_hq_owners_and_face_down_sheets() -> None:
    play = Play(new_game(3, variant="hq", first=None))
    for seat, hq in enumerate(["Hotel", "Airport", "Police Station"]):
        play.do(seat, ChooseHq(hq=hq))
    play.state.face_down[1] = True
    post = presentation.status(table(play.state))
    assert "**bert** — HQ Airport · sheet face down (loses the next turn)" in (post.description or "")
    details = presentation.status_details(table(play.state))
    assert details is not None and "**Hotel** (HQ of anna)" in (details.description or "")


def test_everyone_asked_gets_the_same_objection_buttons_whatever_they_hold() -> None:
    play = opened(4, s1={"red": 900, "green": 100, "blue": 100})
    play.move(0, "red", "2")
    t = table(play.state)
    sheets = [presentation.private_view(t, s) for s in (1, 2, 3)]
    assert all([b.label for b in p.buttons] == ["Object…", "No objection"] for p in sheets)
    assert [b.key for b in sheets[0].buttons] == [b.key for b in sheets[2].buttons]
    assert presentation.private_view(t, 0).buttons == []
    # The thread's post asks all three in the same words, with Object… and No objection (answered privately).
    post = presentation.live_posts(t)[0]
    assert "Do you object? bert ⏳, cleo ⏳, dave ⏳" in post.content
    assert [b.key for b in post.buttons] == ["obj.1", "askno.1"]
    # The private limit buttons go up to the clicker's own bribe, for them alone.
    limits = presentation.controls.button_reply(t, 1, "obj.1")
    assert limits is not None and [b.label for b in limits.buttons][-2:] == ["$900", "No objection"]
    assert "you have $900 on them" in limits.content
    # Answering changes the sheets' fingerprints the same way for nobody but the one who answered.
    before = [hand_fingerprint(presentation, t, s) for s in (2, 3)]
    play.do(1, Object(limit=900))
    after = [hand_fingerprint(presentation, table(play.state), s) for s in (2, 3)]
    assert before == after


def test_a_long_auction_is_one_compact_line() -> None:
    view = GAME.view(opened(2).state, None)
    assert isinstance(view, PublicView)
    line = auction_line(view, Auction(objector=1, ending="active_passed", top=3_000), 0, 4, ["anna", "bert"])
    assert line == (
        "⚖️ Claims on Rudy Red: bert $100 · anna matches · bert $200 · anna matches · … · bert $2,900 · anna matches · "
        "bert $3,000 · anna passes → the objection succeeds."
    )
    bluff = auction_line(view, Auction(objector=1, ending="no_opening"), 0, 4, ["anna", "bert"])
    assert bluff == "⚖️ bert passes without a claim — the objection fails."


def test_scores_read_as_money_in_the_main_game() -> None:
    t = table(opened(2).state)
    assert presentation.score_text(t, 2_000) == "$2,000"
