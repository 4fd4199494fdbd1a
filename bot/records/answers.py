"""The answers of the record commands, built from the store's rows (words in `bot.records.words`).

Each answer is private to whoever asked (an `Answer`, ephemeral) and fits a phone screen: a page of history or of a
game's log is one embed, turned with ◀ ▶ buttons whose `custom_id` names the page (`HistoryButton`, `LogButton`:
registered at start-up, so they work after a restart). Every figure is read from the records the store keeps
(one read each: `store.records.history`, `player_stats`, `top_ratings`); only `/game log` reads a game's log, which is
the account itself.
"""

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.components import unkept_view
from bot.i18n.platform import _
from bot.names import shown
from bot.presentation import Table, said
from bot.records import words
from bot.replies import Answer
from bot.service import Refusal
from engine.events import Event
from engine.text import render
from storage import GameNotFound, GameRecord, LogEntry
from storage.models import OPEN_STATUSES

if TYPE_CHECKING:
    from bot.host import Host

LOG_PAGE_CHARS = 1800
"""A page of a game's account: about a phone screen of text."""


def _titles(bot: "Host") -> dict[str, str]:
    return {name: g.title for name, g in bot.service.read.games.items()}


# --- /game history -------------------------------------------------------------------------------------------


async def history(bot: "Host", guild_id: int | None, page: int, guild_name: str | None = None) -> Answer:
    if guild_id is None:
        raise Refusal(words.NOT_IN_A_SERVER)
    await bot.recorder.settled()
    per = words.HISTORY_PER_PAGE
    results, total = await bot.store.records.history(guild_id, offset=(page - 1) * per, limit=per)
    if total == 0:
        return Answer(text=words.NO_HISTORY)
    pages = -(-total // per)
    if not results:
        raise Refusal(_no_page(page, pages))
    titles = _titles(bot)
    embed = discord.Embed(
        title=words.history_title(guild_name),
        description="\n\n".join(words.history_entry(r, titles.get(r.kind, r.kind)) for r in results),
    )
    embed.set_footer(text=words.history_footer(page, pages, total))
    return Answer(embed=embed, view=_pager(HistoryButton, page, pages))


HISTORY_TEMPLATE = re.compile(r"hist:(?P<page>\d{1,6})")


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button], template=HISTORY_TEMPLATE):  # type: ignore[type-arg]
    """◀ / ▶ under a `/game history` answer: that answer turns to `page` (of the server where it is clicked)."""

    def __init__(self, page: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page), custom_id=f"hist:{page}", disabled=disabled, style=discord.ButtonStyle.grey
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
        /,
    ) -> "HistoryButton":
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: Host = interaction.client  # type: ignore[assignment]
        guild = interaction.guild.name if interaction.guild else None
        await _turn(interaction, lambda: history(bot, interaction.guild_id, self.page, guild))


# --- /game log -----------------------------------------------------------------------------------------------


async def game_log(bot: "Host", record: GameRecord, page: int) -> Answer:
    """A finished game's public account, page by page: what the table was told, nothing a rule kept secret."""
    game = bot.service.read.game(record.kind)
    if not record.started:
        raise Refusal(words.LOG_NOT_STARTED.format(title=game.title, id=record.id))
    if record.status in OPEN_STATUSES:
        raise Refusal(words.LOG_NOT_OVER.format(title=game.title, id=record.id))
    await bot.recorder.settled()
    seats = await bot.store.seats.of_game(record.id)
    names = [s.display_name for s in seats]
    table = await bot.service.read.table(record.id, record=record)
    lines = public_lines(bot, table, names, await bot.store.log.entries(record.id))
    pages = paginate(lines, LOG_PAGE_CHARS)
    if page > len(pages):
        raise Refusal(_no_page(page, len(pages)))
    result = await bot.store.records.game_result(record.id)
    body = pages[page - 1]
    if page == 1:
        body = words.log_heading(record, result, names) + "\n\n" + body
    embed = discord.Embed(title=words.log_title(record, game.title), description=body)
    embed.set_footer(text=words.log_footer(page, len(pages)))
    return Answer(embed=embed, view=_pager(lambda p, **kw: LogButton(record.id, p, **kw), page, len(pages)))


def public_lines(bot: "Host", table: Table, names: list[str], entries: list[LogEntry]) -> list[str]:
    """The account's lines: each entry's public events (as the table read them, names for seats), moderators' notes
    and undos, with the time whenever an hour or more has passed. Events addressed to some seats only (a hand, a
    secret choice) are left out: the account holds nothing the table wasn't told."""
    shown_names = [shown(n) for n in names]
    lines: list[str] = []
    record = table.record
    game = bot.service.read.game(record.kind)
    presentation = bot.service.read.presentation(record.kind)
    if record.setup_at is not None and record.seed is not None and record.seat_count is not None:
        lines.append(words.log_time(record.setup_at))
        try:
            state = game.setup(record.seat_count, game.parse_options(record.options), record.seed, record.setup_at)
            setup = [said(presentation, table, e) for e in game.setup_events(state) if e.public]
        except Exception:  # a game whose set-up no longer builds still has its log to read
            setup = []
        lines += [t for t in setup if t] or [words.SETUP_LINE]
    last = record.setup_at
    for entry in entries:
        told: list[str] = []
        if entry.kind == "action":
            events = (Event.model_validate(e) for e in entry.events if e.get("to") is None)
            told = [line for line in (said(presentation, table, e) for e in events) if line]
        elif entry.kind == "undo":
            told = [words.UNDO_LINE]
        elif entry.note and not entry.note.startswith("reaction:"):
            told = [words.log_note(render(entry.note, shown_names))]
        if not told:
            continue
        if last is None or (entry.at - last).total_seconds() >= 3600:
            lines.append(words.log_time(entry.at))
            last = entry.at
        lines += told
    return lines


def paginate(lines: list[str], limit: int) -> list[str]:
    """Lines gathered into pages of at most `limit` characters (a longer line is cut)."""
    pages: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            pages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    pages.append(current or "—")
    return pages


LOG_TEMPLATE = re.compile(r"glog:(?P<game>\d{1,19}):(?P<page>\d{1,6})")


class LogButton(discord.ui.DynamicItem[discord.ui.Button], template=LOG_TEMPLATE):  # type: ignore[type-arg]
    """◀ / ▶ under a `/game log` answer: that answer turns to `page` of the game's account."""

    def __init__(self, game_id: int, page: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                custom_id=f"glog:{game_id}:{page}",
                disabled=disabled,
                style=discord.ButtonStyle.grey,
            )
        )
        self.game_id = game_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
        /,
    ) -> "LogButton":
        return cls(int(match["game"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: Host = interaction.client  # type: ignore[assignment]

        async def page() -> Answer:
            try:
                record = await bot.store.games.get(self.game_id)
            except GameNotFound:
                raise Refusal(_("There's no game #%(id)d any more.", id=self.game_id)) from None
            if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
                raise Refusal(_("There's no game #%(id)d in this server.", id=self.game_id))
            return await game_log(bot, record, self.page)

        await _turn(interaction, page)


# --- /game top -----------------------------------------------------------------------------------------------


async def top(bot: "Host", guild_id: int | None, kind: str) -> Answer:
    if guild_id is None:
        raise Refusal(words.NOT_IN_A_SERVER)
    games = bot.service.read.games
    engine = games.get(kind.strip().lower()) or next(
        (g for g in games.values() if g.title.lower() == kind.strip().lower()), None
    )
    if engine is None:
        known = ", ".join(g.title for g in games.values())
        raise Refusal(words.UNKNOWN_GAME.format(game=kind, known=known))
    await bot.recorder.settled()
    best = await bot.store.records.top_ratings(guild_id, engine.name, limit=words.TOP_SIZE)
    if not best:
        return Answer(text=words.NO_RATINGS.format(title=engine.title))
    embed = discord.Embed(
        title=words.top_title(engine.title), description="\n".join(words.top_line(n, r) for n, r in enumerate(best, 1))
    )
    embed.set_footer(text=words.TOP_FOOTER)
    return Answer(embed=embed)


# --- /me profile ---------------------------------------------------------------------------------------------


async def profile(bot: "Host", asker: int, player: discord.abc.User, guild_id: int | None, *, is_self: bool) -> Answer:
    """A person's record: across every server for oneself, within this server for anyone else (unless private)."""
    if not is_self:
        if guild_id is None:
            raise Refusal(words.PROFILE_OTHER_SERVER)
        if await bot.store.settings.profile_private(player.id):
            raise Refusal(words.PROFILE_PRIVATE.format(name=shown(player.display_name)))
    await bot.recorder.settled()
    where = None if is_self else guild_id
    stats = await bot.store.records.player_stats(player.id, where)
    ratings = {r.kind: r for r in await bot.store.records.player_ratings(player.id, guild_id)} if guild_id else {}
    titles = _titles(bot)
    embed = discord.Embed(title=words.profile_title(player.display_name, is_self and guild_id is None))
    if not stats:
        embed.description = words.NO_GAMES_YET
    for s in stats:
        name, value = words.profile_game(s, titles.get(s.kind, s.kind), ratings.get(s.kind))
        embed.add_field(name=name, value=value, inline=False)
    if stats:
        name, value = words.profile_overall(stats)
        embed.add_field(name=name, value=value, inline=False)
    seats = await bot.store.seats.of_player(player.id, statuses=list(OPEN_STATUSES))
    current = [await bot.store.games.get(s.game_id) for s in seats]
    if not is_self:
        current = [g for g in current if g.guild_id == guild_id]
    name, value = words.profile_current(sorted(current, key=lambda g: g.id), titles)
    embed.add_field(name=name, value=value, inline=False)
    embed.set_footer(text=words.PROFILE_FOOTER_SELF if is_self else words.PROFILE_FOOTER_OTHER)
    return Answer(embed=embed)


# --- paging --------------------------------------------------------------------------------------------------


def _pager(make: Any, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = unkept_view()
    view.add_item(make(max(page - 1, 1), label="◀ Back", disabled=page <= 1))
    view.add_item(make(min(page + 1, pages), label="Next ▶", disabled=page >= pages))
    return view


async def _turn(interaction: discord.Interaction, build: Any) -> None:
    """Edit the answer under the clicked button into another page (a refusal is said privately instead)."""
    try:
        shown_page: Answer = await build()
    except Refusal as refusal:
        await interaction.response.send_message(refusal.message, ephemeral=True)
        return
    await interaction.response.edit_message(content=shown_page.text, embed=shown_page.embed, view=shown_page.view)


def _no_page(page: int, pages: int) -> str:
    if pages == 1:
        return words.NO_SUCH_PAGE_ONE.format(page=page)
    return words.NO_SUCH_PAGE.format(page=page, pages=pages)
