"""Every text of the record commands (`/game history`, `/game log`, `/game top`, `/me profile`, `/me private`,
`/mod records rebuild`), in one module so that a later translation finds them together.

Pure formatting of the store's rows: no Discord calls, no database. Times are Discord timestamps (each reader sees
their own time zone); people are shown as mentions (`<@id>`: Discord shows their current name and, in an embed or
a private answer, pings nobody), computer players by name with their 🤖.
"""

from collections.abc import Sequence
from datetime import datetime

from bot.i18n.platform import N_, _, n_
from bot.names import shown
from bot.presentation import timestamp
from storage import GameRecord, GameResult, PlayerStats, Rating, SeatResult

HISTORY_PER_PAGE = 6
TOP_SIZE = 10

# --- refusals and short answers ------------------------------------------------------------------------------
# Read as `words.NAME`: each is translated into the language spoken when it is read (the module's `__getattr__`).
# Their placeholders are `str.format`'s ({page}), filled by the caller after the lookup.

_TEXTS: dict[str, str] = {}

_TEXTS["NOT_IN_A_SERVER"] = N_("Use this in a server: its games and ratings are kept per server.")
_TEXTS["NO_HISTORY"] = N_("No game has ended here yet. When one does, `/game history` lists it.")
_TEXTS["NO_SUCH_PAGE"] = N_("There's no page {page}: the history has {pages} pages.")
_TEXTS["NO_SUCH_PAGE_ONE"] = N_("There's no page {page}: the history has one page.")
_TEXTS["LOG_NOT_OVER"] = N_(
    "{title} #{id} is still going: its thread tells the story so far. `/game log` gives the whole account once "
    "the game is over."
)
_TEXTS["LOG_NOT_STARTED"] = N_("{title} #{id} never started: there's no log to read.")
_TEXTS["NO_RATINGS"] = N_("Nobody has a {title} rating here yet: ratings come with each game finished by its rules.")
_TEXTS["UNKNOWN_GAME"] = N_("I don't know the game “{game}”. I host: {known}.")
_TEXTS["PROFILE_PRIVATE"] = N_("{name} keeps their profile private.")
_TEXTS["PROFILE_OTHER_SERVER"] = N_(
    "Use `player:` in a server: others' profiles are shown within the server you share."
)
_TEXTS["PRIVATE_ON"] = N_(
    "🔒 Your profile is private now: only you can see it with `/me profile` (moderators can't either). "
    "Your games still show in `/game history` and your rating in `/game top`, as they were played in public. "
    "`/me private on:false` opens it again."
)
_TEXTS["PRIVATE_OFF"] = N_(
    "🔓 Your profile is open again: anyone in a server you share can see it with `/me profile player:@you`."
)
_TEXTS["REBUILD_REFUSED"] = N_("Only the bot's owner can rebuild the records (they hold every server's games).")
_TEXTS["REBUILD_DONE"] = N_(
    "🧮 Records rebuilt from the logs in {seconds:.1f} s: {recorded} game{s} recorded, {rated} rated{skipped}."
)
_TEXTS["REBUILD_SKIPPED"] = N_(", {skipped} skipped (their logs don't replay: see the bot's log, or `/mod verify`)")


def __getattr__(name: str) -> str:
    """`words.NO_HISTORY` and the like: the text in the language being spoken (`bot.i18n`)."""
    try:
        return _(_TEXTS[name])
    except KeyError:
        raise AttributeError(name) from None


def games(n: int) -> str:
    return n_("%(n)d game", "%(n)d games", n)


def wins(n: int) -> str:
    return n_("%(n)d win", "%(n)d wins", n)


def who(seat: SeatResult) -> str:
    if seat.bot:
        return f"{shown(seat.name)} 🤖"
    if seat.id is not None:
        return f"<@{seat.id}>"
    # Nobody holds the seat now (its player was removed).
    name = shown(seat.name) or _("seat %(n)d", n=seat.seat + 1)
    return f"~~{name}~~"


# --- /game history ---------------------------------------------------------------------------------------------


def history_title(guild_name: str | None) -> str:
    return _("📜 Games played in %(server)s", server=guild_name) if guild_name else _("📜 Games played here")


def history_entry(result: GameResult, title: str) -> str:
    """One finished game in two short lines: what, when, where; then who won and who else played."""
    thread = f" · <#{result.thread_id}>" if result.thread_id else ""
    head = f"**#{result.game_id} {title}** · {timestamp(result.ended_at, 'd')}{thread}"
    winners = result.winners
    others = [s for s in result.seats if s not in winners]
    if result.outcome == "finished":
        won = " & ".join(who(s) for s in winners) or _("nobody")
        line = f"🏆 {won}"
        if others:
            line += " · " + ", ".join(who(s) for s in others)
    else:
        line = _("🛑 ended by a moderator") + " · " + ", ".join(who(s) for s in result.seats)
    return f"{head}\n{line}"


def history_footer(page: int, pages: int, total: int) -> str:
    return _(
        "Page %(page)d of %(pages)d · %(games)s · /game log game: for a game's account",
        page=page,
        pages=pages,
        games=games(total),
    )


# --- /game log -------------------------------------------------------------------------------------------------


def log_title(record: GameRecord, title: str) -> str:
    return f"📖 {title} #{record.id}"


def log_heading(record: GameRecord, result: GameResult | None, names: Sequence[str]) -> str:
    """Who played, when, and how it ended: the first lines of the account."""
    players = ", ".join(shown(n) for n in names if n)
    parts = [_("Players: %(players)s", players=players)]
    if record.setup_at is not None:
        parts.append(_("Started %(when)s", when=timestamp(record.setup_at, "f")))
    if record.finished_at is not None:
        parts.append(_("Ended %(when)s", when=timestamp(record.finished_at, "f")))
    if result is not None:
        if result.outcome == "finished":
            parts.append("🏆 " + (" & ".join(who(s) for s in result.winners) or _("nobody")))
        else:
            parts.append(_("🛑 Ended by a moderator"))
    return "\n".join(parts)


def log_time(when: datetime) -> str:
    return f"**{timestamp(when, 'f')}**"


_TEXTS["UNDO_LINE"] = N_("↩️ A moderator undid the last move (the lines since the move undone no longer stand).")
_TEXTS["SETUP_LINE"] = N_("🎲 The game was set up.")


def log_note(note: str) -> str:
    return f"🛡️ {note}"


def log_footer(page: int, pages: int) -> str:
    return _("Page %(page)d of %(pages)d · the public log only: what the table was told", page=page, pages=pages)


# --- /game top -------------------------------------------------------------------------------------------------


def top_title(title: str) -> str:
    return _("🏅 Best at %(game)s here", game=title)


def top_line(n: int, rating: Rating) -> str:
    name = f"{shown(rating.name)} 🤖" if rating.bot else f"<@{rating.player_id}>"
    return f"{n}. {name} — **{rating.ordinal:.1f}** · {games(rating.games)}, {wins(rating.wins)}"


_TEXTS["TOP_FOOTER"] = N_(
    "Rating: skill minus three times its uncertainty (openskill). 🤖: a computer player, rated apart."
)


# --- /me profile -----------------------------------------------------------------------------------------------


def profile_title(name: str, everywhere: bool) -> str:
    if everywhere:
        return _("🎲 %(name)s's record (all servers)", name=shown(name))
    return _("🎲 %(name)s's record", name=shown(name))


def duration(seconds: float) -> str:
    """A short span: 45 s, 12 min, 3.5 h, 2.1 days."""
    if seconds < 90:
        return _("%(n)s s", n=f"{seconds:.0f}")
    if seconds < 90 * 60:
        return _("%(n)s min", n=f"{seconds / 60:.0f}")
    if seconds < 36 * 3600:
        return _("%(n)s h", n=f"{seconds / 3600:.1f}")
    return _("%(n)s days", n=f"{seconds / 86400:.1f}")


def profile_game(stats: PlayerStats, title: str, rating: Rating | None) -> tuple[str, str]:
    """One game's figures as an embed field (name, value)."""
    parts = [_("%(games)s, %(won)d won", games=games(stats.played), won=stats.won)]
    if stats.average_place is not None and stats.finished:
        parts.append(
            _(
                "average place %(place)s of %(seats)s",
                place=f"{stats.average_place:.1f}",
                seats=f"{stats.seats_sum / stats.finished:.1f}",
            )
        )
    if stats.left:
        parts.append(_("left %(n)d", n=stats.left))
    if rating is not None:
        parts.append(_("rating **%(rating)s**", rating=f"{rating.ordinal:.1f}"))
    return title, " · ".join(parts)


def profile_overall(stats: Sequence[PlayerStats]) -> tuple[str, str]:
    moves = sum(s.moves for s in stats)
    answers = sum(s.answers for s in stats)
    answer_s = sum(s.answer_s for s in stats)
    turns = sum(s.turns for s in stats)
    missed = sum(s.missed for s in stats)
    lines = [_("Moves made: **%(n)d**", n=moves)]
    if answers:
        lines.append(_("Average time to answer: **%(time)s**", time=duration(answer_s / answers)))
    else:
        lines.append(_("No prompt answered yet"))
    if turns + missed:
        lines.append(
            _(
                "Deadlines missed: **%(missed)d** · reliability **%(percent)s%%** (%(turns)d of %(all)d turns in time)",
                missed=missed,
                percent=f"{100 * turns / (turns + missed):.0f}",
                turns=turns,
                all=turns + missed,
            )
        )
    else:
        lines.append(_("Deadlines missed: **0**"))
    return _("Overall"), "\n".join(lines)


def profile_current(running: Sequence[GameRecord], titles: dict[str, str]) -> tuple[str, str]:
    if not running:
        return _("Playing now"), _("nothing at the moment")
    lines = [
        f"#{g.id} {titles.get(g.kind, g.kind)}{f' · <#{g.thread_id}>' if g.thread_id else ''}"
        + (" " + _("(lobby)") if g.status == "lobby" else "")
        for g in running[:10]
    ]
    if len(running) > 10:
        lines.append(_("… and %(n)d more", n=len(running) - 10))
    return _("Playing now"), "\n".join(lines)


_TEXTS["NO_GAMES_YET"] = N_("No finished game yet.")
_TEXTS["PROFILE_FOOTER_SELF"] = N_("Only you see this. /me private hides your profile from others.")
_TEXTS["PROFILE_FOOTER_OTHER"] = N_("Only you see this · figures from this server's games")
