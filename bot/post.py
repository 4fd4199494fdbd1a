"""What a presentation hands the platform to send: a `Post` (one message: content, an embed's parts, buttons, and
what makes it a tracked message), its `Button`s, and an `Aside` (a narration line said only where it costs no new
message). The hooks that make them are `bot.presentation`'s.
"""

from dataclasses import dataclass, field
from typing import Literal

import discord

MAX_CONTENT = 2000
MAX_EMBED = 4000

ButtonStyle = Literal["primary", "secondary", "success", "danger"]


class Aside(str):
    """A narration line that something else already shows publicly (see `Presentation.event_line`): it is added to
    the thread's newest narration message when that costs no new message, and otherwise left unsaid."""

    __slots__ = ()


@dataclass(frozen=True)
class Task:
    """What an awaited player is to do, in the language being spoken (`Presentation.wait_task`): the platform puts
    it into its own sentences ("@anna, your turn: {task}", "**anna**'s turn (the {role}): {task}", a reminder, a
    DM), so a game words only the task, never the sentence around it."""

    task: str
    """The task as an instruction to the awaited, names already in ("open the deal or roll", "STOP or pass on
    cleo's travel card"); "" when it says no more than "your turn"."""
    role: str | None = None
    """The part the awaited plays in it, if any ("Boss")."""
    named: tuple[int, ...] = ()
    """Seats the task names itself (they are not listed again as awaited)."""


@dataclass(frozen=True)
class Button:
    """A button on a status, tracked or hand message (or a `button_reply`); clicking it asks
    `button_reply(table, seat, key)`, then `button_action(table, seat, key)`. Keys are `[A-Za-z0-9_.:-]{1,64}`."""

    label: str
    key: str
    style: ButtonStyle = "secondary"
    emoji: str | None = None


@dataclass
class Post:
    """One message the platform sends or edits. `ref` (kind, key) makes it a tracked message of the game."""

    content: str = ""
    title: str | None = None
    description: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str | None = None
    colour: int | None = None
    buttons: list[Button] = field(default_factory=list)
    ref: tuple[str, str] | None = None
    """(kind, key) of a tracked message: posted once, then edited in place whenever the same ref comes again."""
    reactions: list[str] = field(default_factory=list)
    """Emoji the bot adds to a newly posted tracked message (e.g. 🤝)."""
    replaces_narration: bool = False
    """A tracked post that tells the table everything the action's public events say (e.g. an offer's own message
    for the `offer` event): when it is new, the platform posts it instead of the action's narration message — as
    the command's reply if the action came with one — and adds the narration's other lines (who is awaited, with
    mentions, and any platform notes) below it. Saves a REST call per action. Ignored for a message already posted
    (that one is only edited) and for a post without `ref`."""
    settled: bool = False
    """The tracked message's last look (e.g. KKK's window closed): once it shows it, the platform retires its
    reference — nothing edits the message again, and a reaction on it is no longer the game's — so that a game holds
    the references of what is still live, however long it runs. A game marks a post settled only when no later event
    brings its `ref` again (it would be posted anew) and no reaction or click on it needs the game any more (a
    stray 🤝 on a settled offer is still answered: not settled)."""

    def embed(self) -> discord.Embed | None:
        if self.title is None and self.description is None and not self.fields:
            return None
        embed = discord.Embed(
            title=cut(self.title or "", 256) or None,
            description=cut(self.description or "", MAX_EMBED) or None,
            colour=self.colour,
        )
        for name, value in self.fields[:25]:
            embed.add_field(name=cut(name, 256) or "\u200b", value=cut(value, 1024) or "\u200b", inline=False)
        if self.footer:
            embed.set_footer(text=cut(self.footer, 2048))
        return embed

    @property
    def text(self) -> str:
        return cut(self.content, MAX_CONTENT)

    def signature(self) -> str:
        """What identifies this message among the bot's messages in a channel (for the restart check)."""
        return self.text if self.text else f"{self.title}|{self.footer}"


def cut(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
