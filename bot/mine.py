"""What waits on a player across every server: `/mine`'s answer and the daily digest's DM.

Read in one store call (`store.games.of_player`: the running games where they hold a seat, with every seat and the
pending timers), so the answer costs the same whether they play one game or twenty. What a game waits for is read
from its deadline timers, which the move path rewrites with every commit from `game.waiting_on`: each names the
awaited seats, what for, and the effective deadline (after extensions and pauses). A paused game's waits are its
frozen timers: shown without a deadline, as paused. A seat on autopilot waits on nobody.

The list is most urgent first (the soonest deadline; paused games last), one line per wait: the game, what for in
words, the deadline as Discord timestamps (`<t:…:f>` and `<t:…:R>`: each reader's own time zone) and a link to the
table's thread.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from bot import timers as timing
from bot.awaiting import own_words, stored_wait
from bot.i18n.platform import _, n_
from bot.names import shown
from bot.routing import jump_link
from bot.table import Table, timestamp
from storage import GameRecord

if TYPE_CHECKING:
    from bot.host import Host

RUNNING = ("active", "paused")
LIMIT = 1900
"""Characters of a list before it is cut short (Discord's limit is 2000)."""


@dataclass(frozen=True)
class Waiting:
    """One wait on the player: in which game, what for, by when (None: the game is paused)."""

    record: GameRecord
    title: str
    task: str
    due: datetime | None
    link: str | None
    server: str | None


async def waiting_on(bot: "Host", player_id: int) -> tuple[list[Waiting], int]:
    """The waits on the player in every running game they hold a seat in, most urgent first, and how many running
    games they are in."""
    games = await bot.store.games.of_player(player_id, statuses=RUNNING)
    found: list[Waiting] = []
    for held in games:
        game = bot.service.read.games.get(held.record.kind)
        if game is None:
            continue  # a game this bot no longer hosts
        mine = {s.seat for s in held.seats if s.player_id == player_id and not s.autopilot}
        names = [_("seat %(n)d", n=n + 1) for n in range(max((s.seat for s in held.seats), default=-1) + 1)]
        for s in held.seats:
            if s.display_name:
                names[s.seat] = shown(s.display_name)
        guild = bot.get_guild(held.record.guild_id) if held.record.guild_id is not None else None
        read = bot.service.read
        table = Table(game, held.record, list(held.seats), None, read.now(), words=read.presentation(held.record.kind))
        for timer in held.timers:
            if timer.kind not in (timing.DEADLINE, timing.FROZEN):
                continue
            for seat in sorted(mine & {int(s) for s in timer.payload.get("seats", [])}):
                wait = stored_wait({**timer.payload, "seats": [seat]}, kind="wait_kind")
                task = own_words(table, wait, names)
                found.append(
                    Waiting(
                        record=held.record,
                        title=f"{game.title} #{held.record.id}",
                        task=task,
                        due=timer.due_at if timer.kind == timing.DEADLINE and held.record.status == "active" else None,
                        link=jump_link(held.record.guild_id, held.record.thread_id),
                        server=guild.name if guild is not None else None,
                    )
                )
    found.sort(key=lambda w: (w.due is None, w.due.timestamp() if w.due is not None else 0.0, w.record.id))
    return found, len(games)


def line(w: Waiting) -> str:
    """ "**Kesse Rügen #4** (Board games) — your turn: guess the total · deadline <t:…:f> (<t:…:R>) · [table](…)"."""
    where = f" ({shown(w.server)})" if w.server else ""
    if w.due is not None:
        when = _("deadline %(when)s", when=f"{timestamp(w.due, 'f')} ({timestamp(w.due)})")
    else:
        when = _("paused by a moderator")
    link = " · " + _("[table](%(link)s)", link=w.link) if w.link else ""
    return f"**{w.title}**{where} — {w.task} · {when}{link}"


def listing(waits: list[Waiting], head: str) -> str:
    """`head` and one numbered line per wait, cut short (naming how many more) before Discord's limit."""
    text = head
    for n, w in enumerate(waits, 1):
        more = f"\n{n}. {line(w)}"
        if len(text) + len(more) > LIMIT:
            return text + "\n" + _("… and %(n)d more: `/mine` lists them from the most urgent.", n=len(waits) - n + 1)
        text += more
    return text


def mine_text(waits: list[Waiting], games: int) -> str:
    """`/mine`'s answer."""
    if not waits:
        if games == 0:
            return _("✅ Nothing waits on you: you aren't in any running game. `/game list` shows a server's games.")
        return n_(
            "✅ Nothing waits on you: none of your %(n)d running game needs you now.",
            "✅ Nothing waits on you: none of your %(n)d running games needs you now.",
            games,
        )
    head = n_(
        "⏳ **%(n)d thing waits on you**, most urgent first:",
        "⏳ **%(n)d things wait on you**, most urgent first:",
        len(waits),
    )
    return listing(waits, head)


def digest_text(waits: list[Waiting]) -> str:
    """The daily digest's DM (sent only when something waits)."""
    head = n_(
        "🗞️ **Your Boardroom digest:** %(n)d thing waits on you, most urgent first:",
        "🗞️ **Your Boardroom digest:** %(n)d things wait on you, most urgent first:",
        len(waits),
    )
    return listing(waits, head) + "\n-# " + _("`/me digest at:off` stops this digest; `/mine` shows the list any time.")
