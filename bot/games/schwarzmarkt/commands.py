"""The `/sm` commands: `/sm play card:` (your black-market card, autocompleted from your hand) and `/sm trade cards:
move:` (a trading turn: any mix of still-wanted cards you hold, autocompleted, or none; `move` defaults to 1, or 0
at the last call). Event choices come as buttons on the chooser's hand DM (and `/game hand`), which is also where a
trading turn's usual choices are.

Each command only turns Discord input into an engine action and goes through `GameService` like any move; the
narration is the command's public reply, refusals are ephemeral with the engine's message rendered with names.
Used in a game's thread a command acts on that game; elsewhere on the player's one Schwarzmarkt game in this
server, or the `game:` option says which.
"""

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.i18n import LANGUAGES, known, speaking
from bot.notifier import Carrier
from bot.replies import Answer, answer
from bot.resolve import own_game_choices, resolve_own_game
from bot.service import Refusal
from bot.table import Table
from engine.schwarzmarkt.actions import Play, Trade
from engine.schwarzmarkt.market import GOODS, counts_of
from engine.schwarzmarkt.rules import Schwarzmarkt
from engine.schwarzmarkt.views import SeatView
from storage import GameRecord

from .i18n import _
from .look import card_label, public
from .prompts import counts_text
from .refusals import kinds
from .words import amount, good_name

if TYPE_CHECKING:
    from bot.host import Host

NAME = Schwarzmarkt.name
"""The game these commands play: the engine's name, not the presentation's (which builds this cog: no circle)."""

NONE = ("", "none", "nothing", "-", "no", "0", "geen", "niets", "nee", "nichts", "keine", "kein", "nein")
"""What a player types for "no cards", in English, Dutch or German."""


def _names() -> dict[str, str]:
    """Every name a kind of goods goes by, in every language, lower case, singular and plural: its kind."""
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        with speaking(lang):
            for good in GOODS:
                out[good_name(good).lower()] = good
                for n in (1, 2):
                    out[amount(n, good).split(" ", 1)[1].lower()] = good
    return out


def parse_cards(text: str | None) -> tuple[str, ...]:
    """ "2 coffee, sugar", "coffee,coffee,sugar", "1 potato + 2 flour" or "none" as a list of kinds (goods named
    in English, Dutch or German)."""
    if text is None or text.strip().lower() in NONE:
        return ()
    names = _names()
    out: list[str] = []
    for item in re.split(r"[,+;&]|\b(?:and|en|und)\b", text.lower()):
        item = item.strip()
        if not item:
            continue
        number, _sep, kind = item.partition(" ")
        count = 1
        if number.isdigit() and kind:
            count, item = int(number), kind.strip()
        if count > 12:
            example = ", ".join((amount(2, "coffee"), amount(1, "sugar")))
            raise Refusal(
                _("“%(typed)s” names more cards than there are — e.g. `%(example)s`.", typed=text, example=example)
            )
        kind = names.get(item, item)
        if kind not in GOODS:
            raise Refusal(_("“%(good)s” isn't a kind of goods — name %(kinds)s.", good=item, kinds=kinds()))
        out += [kind] * count
    return tuple(out)


async def sm_game(bot: "Host", interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The Schwarzmarkt game an `/sm` command is about."""
    return await resolve_own_game(bot, interaction, game_id, kind=NAME, group="sm")


@app_commands.guild_only()
class SchwarzmarktCog(
    commands.GroupCog, group_name="sm", group_description="Schwarzmarkt: play a black-market card, trade"
):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    async def _mine(self, interaction: discord.Interaction) -> tuple[SeatView, list[object]] | None:
        """The user's own view and legal actions in the game the command is about, for autocomplete."""
        try:
            record = await sm_game(self.bot, interaction, getattr(interaction.namespace, "game", None))
            table, seat = await self.bot.service.read.private_view(record.id, interaction.user.id)
        except Refusal:
            return None
        if table.state is None:
            return None
        return table.game.view(table.state, seat), table.game.legal_actions(table.state, seat)  # type: ignore[return-value]

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await own_game_choices(self.bot, interaction, current, NAME)

    async def _card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        found = await self._mine(interaction)
        if found is None:
            return []
        view = found[0]
        with speaking(known(interaction.locale) or i18n.current()):
            labels = [(card_label(c), c.id) for c in view.black_market]
        shown = [(label, i) for label, i in labels if current.lower() in label.lower()]
        found_ = [app_commands.Choice(name=label[:100], value=i) for label, i in shown]
        return found_[:25]

    async def _cards_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._mine(interaction)
        if found is None:
            return []
        legal = found[1]
        sets = sorted({a.cards for a in legal if isinstance(a, Trade) and a.cards}, key=lambda c: (len(c), c))
        with speaking(known(interaction.locale) or i18n.current()):
            out = [app_commands.Choice(name=_("none (no trade)"), value="none")] if legal else []
            for cards in sets:
                label = counts_text(counts_of(cards))
                if current.lower() in label.lower():
                    out.append(app_commands.Choice(name=label[:100], value=",".join(cards)))
        return out[:25]

    async def _move(self, interaction: discord.Interaction, game: int | None, make: Callable[[Table], Any]) -> None:
        """Apply the action `make(table)` for the user, built from the table under the game's lock
        (`Play.act_for_seat`); the narration is the public reply."""

        async def work(carrier: Carrier) -> Answer | None:
            record = await sm_game(self.bot, interaction, game)
            self.bot.service.read.require_dealt(record)  # worded as before, when the table was read first
            done = await self.bot.service.play.act_for_seat(
                record.id, interaction.user.id, lambda table, seat: make(table)
            )
            await self.bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids))
            return None

        await answer(self.bot, interaction, work, game_id=game)

    @app_commands.command(name="play", description="As the starter, play one of your black-market cards")
    @app_commands.describe(card="One of your black-market cards")
    @app_commands.autocomplete(card=_card_autocomplete, game=_game_autocomplete)
    async def play(self, interaction: discord.Interaction, card: int, game: int | None = None) -> None:
        await self._move(interaction, game, lambda table: Play(card=card))

    @app_commands.command(name="trade", description="Your trading turn: trade wanted goods (or none), move the marker")
    @app_commands.describe(
        cards="The goods you trade, e.g. `2 coffee, 1 sugar` (or none)",
        move="How far the marker moves: 1 after a trade; 1 up to the die symbol without (default 1; 0 at last call)",
    )
    @app_commands.autocomplete(cards=_cards_autocomplete, game=_game_autocomplete)
    async def trade(
        self,
        interaction: discord.Interaction,
        cards: str | None = None,
        move: app_commands.Range[int, 0, 4] | None = None,
        game: int | None = None,
    ) -> None:
        def make(table: Table) -> Trade:
            chosen = parse_cards(cards)
            last_call = table.state is not None and public(table).last_call
            return Trade(cards=chosen, move=move if move is not None else (0 if last_call else 1))

        await self._move(interaction, game, make)
