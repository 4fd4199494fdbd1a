"""`/game rules` as a private answer: a page of a game's rules (`bot.rules`), with ◀ ▶ buttons to turn the pages.

The buttons (`RulesButton`, "rules:<game>:<page>") name no game in play (the rules are the same for every table),
so they work anywhere, for anyone, after any restart; each edits the answer it is under into the page it names.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import game_options, reaction_windows
from bot.components import unkept_view
from bot.ids import NUMBER
from bot.post import Post
from bot.replies import Answer
from bot.rules import Page, Rules, rules_post
from bot.rules import load as load_rules
from bot.service import Refusal
from engine.game import Game

if TYPE_CHECKING:
    from bot.host import Host


def rules_answer(bot: Host, kind: str, page: int = 0) -> Answer:
    """Page `page` of a game's rules (`bot.rules`), with ◀ ▶ to turn the pages."""
    engine = bot.service.read.games.get(kind)
    if engine is None:
        raise Refusal(f"I don't know the game “{kind}”.")
    rules = load_rules(engine.name)
    players = f"{engine.min_seats}–{engine.max_seats} players"
    presentation = bot.service.read.presentation(engine.name)
    options = [*game_options.describe(engine, presentation), *game_options.CLOCK_LINES]
    if rules is None:  # a game without a players' page: its presentation's summary, on one page
        summary = bot.service.read.presentation(engine.name).rules(engine)
        only = Rules(engine.title, "", (Page("Rules", summary),))
        post = rules_post(only, 0, name=engine.name, players=players, options=options)
        _add_windows(post, engine, 0)
        return Answer(embed=post.embed())
    link = bot.settings.rules_link(engine.name)
    post = rules_post(rules, page, name=engine.name, players=players, link=link, options=options)
    shown = min(max(page, 0), len(rules.pages) - 1)
    _add_windows(post, engine, shown)
    return Answer(embed=post.embed(), view=rules_view(engine.name, shown, len(rules.pages)))


def _add_windows(post: Post, engine: Game, page: int) -> None:  # type: ignore[type-arg]
    """The first page also says how long each kind of reaction window stays open (`bot.reaction_windows`)."""
    text = reaction_windows.rules_text(engine)
    if text and page == 0:
        post.fields.append(("Reaction windows", text))


RULES_TEMPLATE = re.compile(rf"rules:(?P<kind>[a-z0-9_]{{1,40}}):(?P<page>{NUMBER})")
"""Any page number: one outside the rules shows the nearest page (`rules_answer`)."""


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=RULES_TEMPLATE):  # type: ignore[type-arg]
    """◀ / ▶ under a `/game rules` answer: shows page `page` of the game `kind` by editing that answer."""

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
    ) -> RulesButton:
        return cls(match["kind"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        bot: Host = interaction.client  # type: ignore[assignment]
        try:
            shown = rules_answer(bot, self.kind, self.page)
        except Refusal as refusal:
            await interaction.response.send_message(refusal.message, ephemeral=True)
            return
        await interaction.response.edit_message(embed=shown.embed, view=shown.view)


def rules_view(kind: str, page: int, count: int) -> discord.ui.View | None:
    """◀ ▶ for a rules page (None for a single page). Each button's id names the page it turns to; at either end
    the button that would leave the pages is disabled (ids stay distinct: the targets differ)."""
    if count <= 1:
        return None
    view = unkept_view()
    view.add_item(RulesButton(kind, max(page - 1, 0), label="◀ Back", disabled=page == 0))
    view.add_item(RulesButton(kind, min(page + 1, count - 1), label="Next ▶", disabled=page >= count - 1))
    return view
