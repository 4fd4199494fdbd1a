"""Every text of the record commands (`/game history`, `/game log`, `/game top`, `/me profile`, `/me private`,
`/mod records rebuild`), in one module so that a later translation finds them together.

Pure formatting of the store's rows: no Discord calls, no database. Times are Discord timestamps (each reader sees
their own time zone); people are shown as mentions (`<@id>`: Discord shows their current name and, in an embed or
a private answer, pings nobody), computer players by name with their 🤖.
"""

from collections.abc import Sequence
from datetime import datetime

from bot.names import shown
from bot.presentation import timestamp
from storage import GameRecord, GameResult, PlayerStats, Rating, SeatResult

HISTORY_PER_PAGE = 6
TOP_SIZE = 10

# --- refusals and short answers ------------------------------------------------------------------------------

NOT_IN_A_SERVER = "Use this in a server: its games and ratings are kept per server."
NO_HISTORY = "No game has ended here yet. When one does, `/game history` lists it."
NO_SUCH_PAGE = "There's no page {page}: the history has {pages} page{s}."
LOG_NOT_OVER = (
    "{title} #{id} is still going: its thread tells the story so far. `/game log` gives the whole account once "
    "the game is over."
)
LOG_NOT_STARTED = "{title} #{id} never started: there's no log to read."
NO_RATINGS = "Nobody has a {title} rating here yet: ratings come with each game finished by its rules."
UNKNOWN_GAME = "I don't know the game “{game}”. I host: {known}."
PROFILE_PRIVATE = "{name} keeps their profile private."
PROFILE_OTHER_SERVER = "Use `player:` in a server: others' profiles are shown within the server you share."
PRIVATE_ON = (
    "🔒 Your profile is private now: only you can see it with `/me profile` (moderators can't either). "
    "Your games still show in `/game history` and your rating in `/game top`, as they were played in public. "
    "`/me private on:false` opens it again."
)
PRIVATE_OFF = "🔓 Your profile is open again: anyone in a server you share can see it with `/me profile player:@you`."
REBUILD_REFUSED = "Only the bot's owner can rebuild the records (they hold every server's games)."
REBUILD_DONE = (
    "🧮 Records rebuilt from the logs in {seconds:.1f} s: {recorded} game{s} recorded, {rated} rated{skipped}."
)
REBUILD_SKIPPED = ", {skipped} skipped (their logs don't replay: see the bot's log, or `/mod verify`)"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def who(seat: SeatResult) -> str:
    if seat.bot:
        return f"{shown(seat.name)} 🤖"
    if seat.id is not None:
        return f"<@{seat.id}>"
    return f"~~{shown(seat.name) or f'seat {seat.seat + 1}'}~~"  # nobody holds the seat now (its player was removed)


# --- /game history ---------------------------------------------------------------------------------------------


def history_title(guild_name: str | None) -> str:
    return f"📜 Games played{f' in {guild_name}' if guild_name else ' here'}"


def history_entry(result: GameResult, title: str) -> str:
    """One finished game in two short lines: what, when, where; then who won and who else played."""
    thread = f" · <#{result.thread_id}>" if result.thread_id else ""
    head = f"**#{result.game_id} {title}** · {timestamp(result.ended_at, 'd')}{thread}"
    winners = result.winners
    others = [s for s in result.seats if s not in winners]
    if result.outcome == "finished":
        won = " & ".join(who(s) for s in winners) or "nobody"
        line = f"🏆 {won}"
        if others:
            line += " · " + ", ".join(who(s) for s in others)
    else:
        line = "🛑 ended by a moderator · " + ", ".join(who(s) for s in result.seats)
    return f"{head}\n{line}"


def history_footer(page: int, pages: int, total: int) -> str:
    return f"Page {page} of {pages} · {plural(total, 'game')} · /game log game: for a game's account"


# --- /game log -------------------------------------------------------------------------------------------------


def log_title(record: GameRecord, title: str) -> str:
    return f"📖 {title} #{record.id}"


def log_heading(record: GameRecord, result: GameResult | None, names: Sequence[str]) -> str:
    """Who played, when, and how it ended: the first lines of the account."""
    players = ", ".join(shown(n) for n in names if n)
    parts = [f"Players: {players}"]
    if record.setup_at is not None:
        parts.append(f"Started {timestamp(record.setup_at, 'f')}")
    if record.finished_at is not None:
        parts.append(f"Ended {timestamp(record.finished_at, 'f')}")
    if result is not None:
        if result.outcome == "finished":
            parts.append("🏆 " + (" & ".join(who(s) for s in result.winners) or "nobody"))
        else:
            parts.append("🛑 Ended by a moderator")
    return "\n".join(parts)


def log_time(when: datetime) -> str:
    return f"**{timestamp(when, 'f')}**"


UNDO_LINE = "↩️ A moderator undid the last move (the lines since the move undone no longer stand)."
SETUP_LINE = "🎲 The game was set up."


def log_note(note: str) -> str:
    return f"🛡️ {note}"


def log_footer(page: int, pages: int) -> str:
    return f"Page {page} of {pages} · the public log only: what the table was told"


# --- /game top -------------------------------------------------------------------------------------------------


def top_title(title: str) -> str:
    return f"🏅 Best at {title} here"


def top_line(n: int, rating: Rating) -> str:
    name = f"{shown(rating.name)} 🤖" if rating.bot else f"<@{rating.player_id}>"
    return f"{n}. {name} — **{rating.ordinal:.1f}** · {plural(rating.games, 'game')}, {plural(rating.wins, 'win')}"


TOP_FOOTER = "Rating: skill minus three times its uncertainty (openskill). 🤖: a computer player, rated apart."


# --- /me profile -----------------------------------------------------------------------------------------------


def profile_title(name: str, everywhere: bool) -> str:
    return f"🎲 {shown(name)}'s record{' (all servers)' if everywhere else ''}"


def duration(seconds: float) -> str:
    """A short span: 45 s, 12 min, 3.5 h, 2.1 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def profile_game(stats: PlayerStats, title: str, rating: Rating | None) -> tuple[str, str]:
    """One game's figures as an embed field (name, value)."""
    parts = [f"{plural(stats.played, 'game')}, {stats.won} won"]
    if stats.average_place is not None and stats.finished:
        parts.append(f"average place {stats.average_place:.1f} of {stats.seats_sum / stats.finished:.1f}")
    if stats.left:
        parts.append(f"left {stats.left}")
    if rating is not None:
        parts.append(f"rating **{rating.ordinal:.1f}**")
    return title, " · ".join(parts)


def profile_overall(stats: Sequence[PlayerStats]) -> tuple[str, str]:
    moves = sum(s.moves for s in stats)
    answers = sum(s.answers for s in stats)
    answer_s = sum(s.answer_s for s in stats)
    turns = sum(s.turns for s in stats)
    missed = sum(s.missed for s in stats)
    lines = [f"Moves made: **{moves}**"]
    lines.append(f"Average time to answer: **{duration(answer_s / answers)}**" if answers else "No prompt answered yet")
    if turns + missed:
        lines.append(
            f"Deadlines missed: **{missed}** · reliability **{100 * turns / (turns + missed):.0f}%** "
            f"({turns} of {turns + missed} turns in time)"
        )
    else:
        lines.append("Deadlines missed: **0**")
    return "Overall", "\n".join(lines)


def profile_current(games: Sequence[GameRecord], titles: dict[str, str]) -> tuple[str, str]:
    if not games:
        return "Playing now", "nothing at the moment"
    lines = [
        f"#{g.id} {titles.get(g.kind, g.kind)}{f' · <#{g.thread_id}>' if g.thread_id else ''}"
        + (" (lobby)" if g.status == "lobby" else "")
        for g in games[:10]
    ]
    if len(games) > 10:
        lines.append(f"… and {len(games) - 10} more")
    return "Playing now", "\n".join(lines)


NO_GAMES_YET = "No finished game yet."
PROFILE_FOOTER_SELF = "Only you see this. /me private hides your profile from others."
PROFILE_FOOTER_OTHER = "Only you see this · figures from this server's games"
