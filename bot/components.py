"""Persistent buttons: every button carries its game and purpose in its `custom_id` ("br:<game>:<key>").

`GameButton` is a `discord.ui.DynamicItem` registered once at start-up (`bot.add_dynamic_items`), so a click on
any message the bot ever posted is understood after any restart: no per-message view is kept in memory and no
button goes dead. Keys `join`, `leave`, `start`, `addbot`, `dropbot` and `hand` are the platform's; any other key
is the game's own and goes to its presentation's `button_reply`, then `button_action` (see `bot.presentation`, and
`BoardroomBot.on_game_button` for clicks on hand DMs and ephemeral answers). The same buttons serve the status and
tracked messages in the thread, the hand DMs and ephemeral answers: the seat is always the clicker's.
"""

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.ids import NUMBER
from bot.presentation import Button

if TYPE_CHECKING:
    from bot.client import BoardroomBot

PREFIX = "br"
TEMPLATE = re.compile(rf"br:(?P<game>{NUMBER}):(?P<key>[A-Za-z0-9_.:\-]{{1,64}})")
"""The game's number as any number: one that names no game (forged, beyond 64 bits, negative) is answered as a game
that isn't there (`BoardroomBot._button_game`), not left unanswered."""
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, key: str) -> str:
    cid = f"{PREFIX}:{game_id}:{key}"
    if not TEMPLATE.fullmatch(cid):
        raise ValueError(f"button key {key!r} is not usable in a custom_id")
    return cid


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):  # type: ignore[type-arg]
    def __init__(self, game_id: int, key: str, *, label: str = "", style: str = "secondary", emoji: str | None = None):
        super().__init__(
            discord.ui.Button(
                label=label or key,
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
                emoji=emoji,
                custom_id=custom_id(game_id, key),
            )
        )
        self.game_id = game_id
        self.key = key

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
        /,
    ) -> "GameButton":
        return cls(int(match["game"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: BoardroomBot = interaction.client  # type: ignore[assignment]
        await bot.on_game_button(interaction, self.game_id, self.key)


def view_for(game_id: int, buttons: list[Button]) -> discord.ui.View:
    """The message's buttons; empty (which clears a message's old buttons when it is edited) when there are none."""
    view = discord.ui.View(timeout=None)
    for b in buttons[:25]:
        view.add_item(GameButton(game_id, b.key, label=b.label, style=b.style, emoji=b.emoji))
    return view


RULES_TEMPLATE = re.compile(rf"rules:(?P<kind>[a-z0-9_]{{1,40}}):(?P<page>{NUMBER})")
"""Any page number: one outside the rules shows the nearest page (`BoardroomBot.rules_answer`)."""


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=RULES_TEMPLATE):  # type: ignore[type-arg]
    """◀ / ▶ under a `/game rules` answer: shows page `page` of the game `kind` by editing that answer. It names no
    game in play (the rules are the same for every table), so it works anywhere, for anyone, after any restart."""

    def __init__(self, kind: str, page: int, *, label: str = "", disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                label=label or str(page + 1),
                style=discord.ButtonStyle.secondary,
                custom_id=f"rules:{kind}:{page}",
                disabled=disabled,
            )
        )
        self.kind = kind
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
        /,
    ) -> "RulesButton":
        return cls(match["kind"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: BoardroomBot = interaction.client  # type: ignore[assignment]
        await bot.on_rules_button(interaction, self.kind, self.page)


def rules_view(kind: str, page: int, count: int) -> discord.ui.View | None:
    """◀ ▶ for a rules page (None for a single page). Each button's id names the page it turns to; at either end
    the button that would leave the pages is disabled (ids stay distinct: the targets differ)."""
    if count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(kind, max(page - 1, 0), label="◀ Back", disabled=page == 0))
    view.add_item(RulesButton(kind, min(page + 1, count - 1), label="Next ▶", disabled=page >= count - 1))
    return view
