"""“What can I do now?”: the private answer of `/game help` and of the status message's “❓ What can I do?” button.

The game says what the caller may do (`Presentation.help_lines`: one line per kind of legal move, with the exact
command or button); this module puts it together with what the table waits for, so a player reads in one place
whether it is their move, what else they may do meanwhile, and who else is awaited — and an onlooker reads who is
awaited and how to follow the game. It is pure rendering: no Discord calls, no database.

The button is the platform's (key `help`, answered by `bot.help_answer.HelpButton` for anyone, before any seat
check), added to the status message by the notifier and to `/game status`'s answer (`with_help`), so every game has
it.
"""

from collections.abc import Sequence
from dataclasses import replace

from bot.awaiting import about_words, help_words
from bot.i18n.platform import N_, _
from bot.presentation import Button, Post, Presentation, Table, moment

HELP_KEY = "help"
HELP_BUTTON = Button(N_("What can I do?"), HELP_KEY, "secondary", "❓")
"""Its label is translated where it is shown (`with_help`)."""
MAX_BUTTONS = 25
"""Discord's limit per message (5 rows of 5)."""
FOOTER = N_("Your hand: /game hand · the table: /game status · the rules: /game rules")


def with_help(table: Table, buttons: Sequence[Button]) -> list[Button]:
    """The status message's buttons plus “❓ What can I do?” while the game is being played (not in the lobby, not
    after the end), if there is room for it."""
    out = list(buttons)
    playing = table.state is not None and table.result is None and table.record.status not in ("finished", "abandoned")
    if playing and len(out) < MAX_BUTTONS and all(b.key != HELP_KEY for b in out):
        out.append(replace(HELP_BUTTON, label=_(HELP_BUTTON.label)))
    return out


def help_post(presentation: Presentation, table: Table, seat: int | None) -> Post:
    """The answer for `seat` (None: someone who doesn't play in this game), shown to them alone."""
    post = Post(title=_("What can I do? — %(title)s", title=table.title), colour=0x4A5568, footer=_(FOOTER))
    if table.state is None:
        post.description = _(
            "The game hasn't started yet. Take a seat with the **Join** button on the lobby message (or "
            "`/game join`); its creator starts it with **Start** (or `/game start`)."
        )
        return post
    if table.result is not None or table.record.status in ("finished", "abandoned"):
        post.description = _("The game is over: nothing more to play. `/game status` shows the final standings.")
        return post
    lines: list[str] = []
    paused = table.record.status == "paused"
    if paused:
        lines.append(_("⏸️ **Paused by a moderator**: no move can be made until it goes on."))
    if seat is None:
        lines += _awaited(table, None, paused)
        thread = f"<#{table.record.thread_id}>" if table.record.thread_id else _("the game's thread")
        lines += [
            "",
            _(
                "You don't play in this game. Follow it in %(thread)s: its status message is kept up to date, and "
                "`/game status` shows it to you anywhere.",
                thread=thread,
            ),
        ]
        post.description = "\n".join(lines)
        return post
    mine = [] if paused else presentation.help_lines(table, seat)
    waits_on_me = any(seat in w.seats for w in table.waits)
    lines += _awaited(table, seat, paused)
    if mine:
        lines += ["", _("**What you can do now:**") if waits_on_me else _("**Meanwhile you can** (or just wait):")]
        lines += mine
    elif not paused:
        lines += ["", _("Nothing for you to do right now: you'll be mentioned in the thread when it's your move.")]
    post.description = _fit(lines)
    return post


def _awaited(table: Table, seat: int | None, paused: bool) -> list[str]:
    """What the game waits for, the caller's own wait first ("The game waits for you: open the deal or roll"), each
    awaited player named once (`bot.awaiting`)."""
    mine, others = [], []
    for i, wait in enumerate(table.waits):
        when = "" if paused else f" — {moment(table.deadline(i, wait))}"
        if seat is not None and seat in wait.seats:
            rest = [table.names[s] for s in wait.seats if s != seat]
            task = help_words(table, wait, table.names)
            if rest:
                said = _("**The game waits for you** (and **%(others)s**): %(task)s", others=", ".join(rest), task=task)
            else:
                said = _("**The game waits for you**: %(task)s", task=task)
            mine.append(f"⏳ {said}{when}")
        else:
            others.append(f"⏳ {about_words(table, wait, table.names)}{when}")
    return mine + others


def _fit(lines: list[str], limit: int = 3900) -> str:
    """The lines, cut at a whole line to fit an embed's description (4096; a long list of moves is cut)."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append(_("… (more: `/game move` lists every move)"))
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)
