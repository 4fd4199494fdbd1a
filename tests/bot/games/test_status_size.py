"""The status message fits one phone screen, in every game the platform hosts: at most `MAX_LINES` lines and
`MAX_CHARS` characters of embed (title, description, fields, footer), at every step of seeded random games (the
games' whole detail — the full board list, every offer — is behind the status's Details button and the picture).

Games are played on the engine with random legal moves (seat and move drawn by a seeded generator among the waits'
seats; a deadline passes now and then), each state rendered by the game's own presentation."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.games import load_presentations
from bot.presentation import Post, Table
from engine import registry
from storage.models import GameRecord, SeatRecord

MAX_LINES = 25
MAX_CHARS = 1200
NOW = datetime(2025, 1, 1, tzinfo=UTC)
NAMES = ("annabelle", "bert", "cleopatra", "dave", "eve", "fritz")


def shown(post: Post) -> str:
    embed = post.embed()
    parts = [post.text]
    if embed is not None:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
        parts.append(embed.footer.text or "")
    return "\n".join(p for p in parts if p)


def table_for(name: str, game, state, seats: int) -> Table:  # type: ignore[no-untyped-def]
    record = GameRecord(
        id=1,
        kind=name,
        status="active",
        seed=7,
        seat_count=seats,
        setup_at=NOW,
        version=3,
        created_at=NOW,
        updated_at=NOW,
    )
    seat_records = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=NAMES[i], joined_at=NOW) for i in range(seats)
    ]
    return Table(game, record, seat_records, state, NOW)


def largest(name: str, seats: int, games: int = 3, steps: int = 400) -> tuple[int, int, str]:
    game = registry.build()[name]
    presentation = load_presentations([name])[name]
    worst = (0, 0, "")
    for g in range(games):
        rnd = random.Random(g)
        now = NOW
        state = game.setup(seats, game.parse_options({}), 1000 + g, now)
        for _ in range(steps):
            text = shown(presentation.status(table_for(name, game, state, seats)))
            lines = len(text.splitlines())
            if (lines, len(text)) > worst[:2]:
                worst = (lines, len(text), text)
            if game.result(state) is not None:
                break
            waits = game.waiting_on(state)
            if not waits:
                break
            moves = [(s, a) for w in waits for s in w.seats for a in game.legal_actions(state, s)]
            if not moves or rnd.random() < 0.05:
                now = waits[0].until + timedelta(seconds=1)
                state = game.apply(state, None, waits[0].timeout, now).state
                continue
            seat, action = rnd.choice(moves)
            try:
                state = game.apply(state, seat, action, now).state
            except Exception:
                continue
    return worst


@pytest.mark.parametrize(("name", "seats"), [("kkk", 5), ("kesse_ruegen", 2), ("casablanca", 6), ("schwarzmarkt", 5)])
def test_the_status_fits_a_phone_screen(name: str, seats: int) -> None:
    lines, chars, text = largest(name, seats)
    print(f"\n{name}: at most {lines} lines, {chars} characters")
    assert lines <= MAX_LINES and chars <= MAX_CHARS, f"{name}'s status is {lines} lines, {chars} characters:\n{text}"
