"""The `/kr` commands: `/kr place square:`, `/kr duel opponent:`, `/kr guess total:`, and `/kr choose` (your secret
fist as ephemeral buttons — like the status message's **Choose in secret**, the way in for a player whose DMs are
closed). The fist buttons themselves come with the duellists' hand messages (see `prompts`), so `/kr duel` only
challenges; a challenger whose DMs are closed also gets their buttons privately with its answer. With two players
the duel starts by itself, so the same goes for the `/kr place` or `/kr guess` whose move starts the next turn.

Each command only turns Discord input into an engine action and goes through `GameService` like any move; the
narration is the command's public reply (the platform's `Carrier`), refusals are ephemeral, worded from the
engine's code by the presentation (`refusal_words`) in the reader's language. Used in a game's thread a command
acts on that game; elsewhere on the player's one Kesse Rügen game in this server, or the `game:` option says which.

`opponent:` names any seat, a computer player too (`bot.seat_choice`: the list offers the table's players by name;
a typed mention, name or seat number works as well).
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import seat_choice
from bot.components import view_for
from bot.notifier import Carrier
from bot.replies import Answer, answer
from bot.resolve import own_game_choices, resolve_own_game
from bot.service import Refusal
from bot.table import Table
from engine.kesse_ruegen.actions import Challenge, Guess, Place
from engine.kesse_ruegen.rules import KesseRuegen
from storage import GameRecord

from .prompts import awaiting_fist, fist_post

if TYPE_CHECKING:
    from bot.host import Host

NAME = KesseRuegen.name
"""The game these commands play: the engine's name, not the presentation's (which builds this cog: no circle)."""

TITLE = "Kesse Rügen"
Make = Callable[[Table, int], Any]
"""A move built from the table under the game's lock: `make(table, seat)` gives the engine action."""


async def kr_game(bot: "Host", interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The Kesse Rügen game a `/kr` command is about."""
    return await resolve_own_game(bot, interaction, game_id, kind=NAME, group="kr")


@app_commands.guild_only()
class KesseRuegenCog(commands.GroupCog, group_name="kr", group_description="Kesse Rügen: place, duel, choose, guess"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    # --- helpers ----------------------------------------------------------------------------------------

    async def _move(self, interaction: discord.Interaction, game: int | None, make: Make) -> None:
        """Apply the action `make(table, seat)` for the user, built from the table under the game's lock
        (`Play.act_for_seat`); the narration is the public reply."""

        async def work(carrier: Carrier) -> Answer | None:
            record = await kr_game(self.bot, interaction, game)
            done = await self.bot.service.play.act_for_seat(record.id, interaction.user.id, make)
            await self.bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids))
            return await self._own_fist(record, interaction.user.id)

        await answer(self.bot, interaction, work, game_id=game)

    async def _own_fist(self, record: GameRecord, user_id: int) -> Answer | None:
        """The player's fist buttons, for their eyes only, when their move left them in a duel awaiting their fist
        and their DMs are closed: after `/kr duel`, and with two players after the move that starts the next turn
        (the last pawn, the last guess or action), whose duel is then on by itself."""
        table, me = await self.bot.service.read.private_view(record.id, user_id)
        if not awaiting_fist(table, me) or not any(s.seat == me and s.dm_ok is False for s in table.seats):
            return None
        post = fist_post(table, me)
        return Answer(text=post.text, view=view_for(record.id, post.buttons), always=True)

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await own_game_choices(self.bot, interaction, current, NAME)

    async def _square_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await kr_game(self.bot, interaction, getattr(interaction.namespace, "game", None))
            table = await self.bot.service.read.table(record.id, record=record)
            seat = await self.bot.service.read.seat_of(record.id, interaction.user.id)
        except Refusal:
            return []
        if table.state is None:
            return []
        squares = [a.square for a in table.game.legal_actions(table.state, seat) if isinstance(a, Place)]
        return [app_commands.Choice(name=sq, value=sq) for sq in squares if sq.startswith(current.strip().lower())][:25]

    # --- the commands -----------------------------------------------------------------------------------

    @app_commands.command(name="place", description="Put your pawn on a free field at the start (e.g. b2)")
    @app_commands.describe(square="A free field, a1 (bottom left) to e5 (top right); not the barn c3")
    @app_commands.autocomplete(square=_square_autocomplete, game=_game_autocomplete)
    async def place(self, interaction: discord.Interaction, square: str, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Place:
            return Place(square=square)

        await self._move(interaction, game, make)

    async def _opponent_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await kr_game(self.bot, interaction, getattr(interaction.namespace, "game", None))
        except Refusal:
            return []
        seats = await self.bot.store.seats.of_game(record.id)
        me = next((s.seat for s in seats if s.player_id == interaction.user.id), None)
        return seat_choice.choices(seats, current, exclude=me)

    @app_commands.command(name="duel", description="Challenge another player to a duel (on your turn)")
    @app_commands.describe(opponent="The player you challenge (a computer player too): pick from the list")
    @app_commands.autocomplete(opponent=_opponent_autocomplete, game=_game_autocomplete)
    async def duel(self, interaction: discord.Interaction, opponent: str, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Challenge:
            where = f"{TITLE} #{table.record.id}"
            target = seat_choice.resolve(table.seats, opponent, where=where, option="opponent", exclude=seat)
            return Challenge(opponent=target)

        # If the challenger's DMs are closed, their buttons come with the answer, for their eyes only (`_move`).
        await self._move(interaction, game, make)

    @app_commands.command(name="choose", description="Close your fist in secret (buttons only you can see)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def choose(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await kr_game(self.bot, interaction, game)
            table, seat = await self.bot.service.read.private_view(record.id, interaction.user.id)
            post = fist_post(table, seat)
            return Answer(text=post.text, view=view_for(record.id, post.buttons))

        await answer(self.bot, interaction, work, game_id=game)

    @app_commands.command(name="guess", description="Guess the total in both fists (0–4)")
    @app_commands.describe(total="How many tubers in both fists together, 0 to 4")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def guess(
        self, interaction: discord.Interaction, total: app_commands.Range[int, 0, 4], game: int | None = None
    ) -> None:
        def make(table: Table, seat: int) -> Guess:
            return Guess(total=total)

        await self._move(interaction, game, make)
