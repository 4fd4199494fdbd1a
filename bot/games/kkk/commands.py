"""The `/kkk` commands: every move of Kohle, Kies & Knete, translated into an engine action and nothing more.

Each command resolves the game (the thread it is used in, or `game:`) and hands `Play.act_for_seat` the way to build
its action: from the table read under the game's lock (the player's own view, the seats `to:` and `target:` name),
never from reads of its own before; the engine accepts or refuses it (the refusal, with names, comes back
ephemeral). Options autocomplete from the player's own view (`suggestions`, over `choices`). `to:` and `target:`
name any seat, computer players too (`bot.seat_choice`: suggestions by name, or a typed mention, name or seat
number). A picked suggestion for `/kkk travel` or the Boss's `/kkk offer` carries the options it decided (target,
card, joker, `to:`), and options left out are filled in where the player's view leaves one possibility; a refusal
for a missing option names the option to add (`picks`).

Typed numbers are bounded where Discord can enforce it (price 0–999, offer numbers 1–9999, space 1–16) and counts in
`/kkk discard` are read only up to the hand's size (a count such as "99999999999999999999 STOP" is refused with the
fix, never expanded into a list).

Beyond the issue's table: `/kkk shake offer:` (the 🤝 for someone who can't react, e.g. a screen reader), `/kkk
cancel` (the Boss calls off their own last call), `/kkk pass always:` (pass on everything for the rest of the round,
or stop doing so), `/kkk close use:` (the Boss's own assignment of cards instead of the bot's) and `/kkk travel card:`
(when the target has both the investor and a clan card of that family). `/kkk travel` without `target:` aims at an
investor beside the board (allowed, if pointless).

The 🤝 reactions themselves are the platform's (`bot.cogs.reactions`): this package's presentation says what a 🤝
means (`reaction_action`), which ones are stray (`reaction_allowed`) and how a refused one is answered in the thread
(`reaction_refused`).
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import seat_choice
from bot.games.kkk import choices, picks, reading, refusals
from bot.games.kkk import suggestions as suggest
from bot.games.kkk.i18n import _
from bot.games.kkk.words import Unreadable, parse_cards, parse_family
from bot.notifier import Carrier
from bot.people import dm_note
from bot.replies import Answer, answer
from bot.service import Refusal, RuleRefusal
from bot.table import Table
from engine.kkk import actions as A
from storage import GameRecord

if TYPE_CHECKING:
    from bot.host import Host

Make = Any | Callable[[Table, int], Any]
"""A move: the engine action itself, or `make(table, seat)` building it from the table under the game's lock."""
Hint = Callable[[Table, int, Any], str]
UNITS = [app_commands.Choice(name="$M", value="money"), app_commands.Choice(name="dividends", value="dividends")]
CARDS = [app_commands.Choice(name="investor", value="investor"), app_commands.Choice(name="clan card", value="clan")]
MAX_PRICE = 999
"""A price in $M or dividends: a deal pays well under $1000M, so anything above is a typo (the engine says why a
smaller one is too much)."""
MAX_OFFER = 9999
"""Offer numbers run up through a whole game: a few hundred at most."""
ALWAYS = [
    app_commands.Choice(name="on: pass on everything for the rest of this round", value="on"),
    app_commands.Choice(name="off: wait for me again", value="off"),
]


@app_commands.guild_only()
class KkkCog(commands.GroupCog, group_name="kkk", group_description="Kohle, Kies & Knete: your moves at the table"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    # --- plumbing ---------------------------------------------------------------------------------------

    async def _record(self, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
        return await suggest.kkk_game(self.bot, interaction, game_id)

    async def _play(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        make: Make,
        hint: Hint | None = None,
        *,
        own_view: bool = False,
    ) -> None:
        """Build the action from the table under the game's lock (`Play.act_for_seat`), let the engine decide.
        `make` is the action itself or `make(table, seat)`. `hint(table, seat, action)`: what to add to a refusal
        when the player left out an option the move needs (see `picks`), from the table the move was refused on.
        `own_view`: the move is built from the player's own view (a lobby's refusal says hands aren't dealt yet)."""

        async def work(carrier: Carrier) -> Answer:
            record = await self._record(interaction, game_id)
            if own_view:  # worded as before, when the view was read first
                self.bot.service.read.require_dealt(record)
            built: list[tuple[Table, int, Any]] = []

            def build(table: Table, seat: int) -> Any:
                try:
                    action = make(table, seat) if callable(make) else make
                except Unreadable as exc:
                    raise Refusal(str(exc)) from None
                built[:] = [(table, seat, action)]
                return action

            try:
                done = await self.bot.service.play.act_for_seat(record.id, interaction.user.id, build)
            except RuleRefusal as exc:
                if built:  # the engine refused with a code: the player reads its words, naming the fix
                    table, seat, action = built[0]
                    fallback = table.render(exc.rule_message)
                    words = refusals.reworded(table, seat, action, fallback)
                    exc.message = exc.message.replace(fallback, words)
                if hint is not None and built:
                    extra = hint(*built[0])
                    if extra:
                        exc.message = f"{exc.message} {extra}"
                raise
            report = await self.bot.notifier.flush(done.game_id, carrier.for_rows(done.outbox_ids))
            note = dm_note(report.dm_closed, interaction.user.id)
            return Answer(text=note.strip() or _("Done — see the table thread."), always=bool(note))

        await answer(self.bot, interaction, work)

    # --- the turn ---------------------------------------------------------------------------------------

    @app_commands.command(name="place", description="Set-up: put the dollar marker on a space")
    @app_commands.describe(space="The space (1–16)", game="Which game (only needed outside its thread)")
    @app_commands.autocomplete(space=suggest.place, game=suggest.game)
    async def place(
        self, interaction: discord.Interaction, space: app_commands.Range[int, 1, 16], game: int | None = None
    ) -> None:
        await self._play(interaction, game, A.PlaceMarker(space=space))

    @app_commands.command(name="open", description="Let's make a deal! Open the deal on the marker's space")
    @app_commands.autocomplete(game=suggest.game)
    async def open(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Open())

    @app_commands.command(name="roll", description="Roll the die and move the marker; then open or draw")
    @app_commands.autocomplete(game=suggest.game)
    async def roll(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Roll())

    @app_commands.command(name="draw", description="After rolling: draw 3 cards (the turn passes on)")
    @app_commands.autocomplete(game=suggest.game)
    async def draw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Draw())

    # --- cards ------------------------------------------------------------------------------------------

    @app_commands.command(name="clan", description="Play a clan card face up in front of you")
    @app_commands.describe(family="The clan card's family (from your hand)")
    @app_commands.autocomplete(family=suggest.clan, game=suggest.game)
    async def clan(self, interaction: discord.Interaction, family: str, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Any:
            return A.PlayClan(family=parse_family(family))  # type: ignore[arg-type]

        await self._play(interaction, game, make)

    @app_commands.command(name="travel", description="Send an investor or a played clan card on travel")
    @app_commands.describe(
        family="The family of the card to send away",
        target="Whose card (a picked suggestion says it; leave out for an investor beside the board)",
        joker="Use your travel joker instead of the family's travel card (a picked suggestion says it)",
        card="Only if they have both: the investor or the clan card",
    )
    @app_commands.choices(card=CARDS)
    @app_commands.autocomplete(family=suggest.travel, target=suggest.player, game=suggest.game)
    async def travel(
        self,
        interaction: discord.Interaction,
        family: str,
        target: str | None = None,
        joker: bool | None = None,
        card: str | None = None,
        game: int | None = None,
    ) -> None:
        def make(table: Table, seat: int) -> Any:
            pick = picks.read(family)
            named = _named(table, seat, "target", target)
            named, on, use_joker = picks.travel_options(reading.mine(table, seat), pick, named, card, joker)
            return A.Travel(target=named, family=pick.family, joker=use_joker, on=on)  # type: ignore[arg-type]

        def hint(table: Table, seat: int, action: Any) -> str:
            view = reading.mine(table, seat)
            return picks.travel_hint(view, action.family, action.target, action.on, action.joker, table.names)

        await self._play(interaction, game, make, hint, own_view=True)

    @app_commands.command(name="recruit", description="Play a recruitment triple to take an investor")
    @app_commands.describe(family="The investor to take (beside the board first)")
    @app_commands.autocomplete(family=suggest.recruit, game=suggest.game)
    async def recruit(self, interaction: discord.Interaction, family: str, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Any:
            return A.Recruit(family=parse_family(family))  # type: ignore[arg-type]

        await self._play(interaction, game, make)

    @app_commands.command(name="boss", description="“I'm the Boss now!” — play a Boss card")
    @app_commands.autocomplete(game=suggest.game)
    async def boss(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Boss())

    @app_commands.command(name="stop", description="STOP the travel, recruitment or Boss card that is pending")
    @app_commands.autocomplete(game=suggest.game)
    async def stop(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Stop())

    @app_commands.command(name="pass", description="No STOP from you / let the last call go")
    @app_commands.describe(always="Pass on everything for the rest of this round (or stop doing so)")
    @app_commands.choices(always=ALWAYS)
    @app_commands.autocomplete(game=suggest.game)
    async def pass_(self, interaction: discord.Interaction, always: str | None = None, game: int | None = None) -> None:
        action = A.Pass() if always is None else A.AlwaysPass(on=always == "on")
        await self._play(interaction, game, action)

    # --- negotiating ------------------------------------------------------------------------------------

    @app_commands.command(name="offer", description="Put terms on the table for one card (or a share without a card)")
    @app_commands.describe(
        price="The price, in $M or in dividends of this deal",
        family="The card's family; leave out for a share to a player who brings no card (the Boss, with to:)",
        unit="$M (default) or dividends",
        to="The Boss offering: the player to pay. Everyone else offers to the Boss.",
        counter="A counter-offer to agreement #N: it replaces #N if it binds (same card or share, same player)",
    )
    @app_commands.choices(unit=UNITS)
    @app_commands.autocomplete(
        family=suggest.offer_family, to=suggest.player, counter=suggest.counter, game=suggest.game
    )
    async def offer(
        self,
        interaction: discord.Interaction,
        price: app_commands.Range[int, 0, MAX_PRICE],
        family: str | None = None,
        unit: str = "money",
        to: str | None = None,
        counter: app_commands.Range[int, 1, MAX_OFFER] | None = None,
        game: int | None = None,
    ) -> None:
        def make(table: Table, seat: int) -> Any:
            pick = picks.read(family) if family else None
            named = _named(table, seat, "to", to)
            if counter is None:  # a counter-offer's card and player are the agreement's (the engine fills them in)
                named = picks.offer_to(reading.mine(table, seat), pick, named)
            fam = pick.family if pick else None
            return A.Offer(price=price, unit=unit, family=fam, to=named, counter=counter)  # type: ignore[arg-type]

        def hint(table: Table, seat: int, action: Any) -> str:
            if action.counter is not None:
                return ""
            return picks.offer_hint(reading.mine(table, seat), action.family, action.to, table.names)

        await self._play(interaction, game, make, hint, own_view=True)

    @app_commands.command(name="withdraw", description="Take back (or turn down) an offer not yet shaken on")
    @app_commands.describe(offer="The offer's number")
    @app_commands.autocomplete(offer=suggest.withdraw, game=suggest.game)
    async def withdraw(
        self, interaction: discord.Interaction, offer: app_commands.Range[int, 1, MAX_OFFER], game: int | None = None
    ) -> None:
        await self._play(interaction, game, A.Withdraw(offer=offer))

    @app_commands.command(name="shake", description="🤝 Agree to an offer (same as reacting 🤝 on its message)")
    @app_commands.describe(offer="The offer's number")
    @app_commands.autocomplete(offer=suggest.shake, game=suggest.game)
    async def shake(
        self, interaction: discord.Interaction, offer: app_commands.Range[int, 1, MAX_OFFER], game: int | None = None
    ) -> None:
        await self._play(interaction, game, A.Shake(offer=offer))

    @app_commands.command(name="unshake", description="Take your 🤝 back from an offer that isn't binding yet")
    @app_commands.describe(offer="The offer's number")
    @app_commands.autocomplete(offer=suggest.unshake, game=suggest.game)
    async def unshake(
        self, interaction: discord.Interaction, offer: app_commands.Range[int, 1, MAX_OFFER], game: int | None = None
    ) -> None:
        await self._play(interaction, game, A.Unshake(offer=offer))

    # --- the Boss ---------------------------------------------------------------------------------------

    @app_commands.command(name="close", description="The Boss: close the deal (a last call with the distribution)")
    @app_commands.describe(use="Your own choice of cards (leave out for the bot's choice)")
    @app_commands.autocomplete(use=suggest.use, game=suggest.game)
    async def close(self, interaction: discord.Interaction, use: str | None = None, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Any:
            return A.Close(assignment=choices.decode(use) if use else None)

        await self._play(interaction, game, make)

    @app_commands.command(name="cancel", description="The Boss: call off your own last call")
    @app_commands.autocomplete(game=suggest.game)
    async def cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.CancelClose())

    @app_commands.command(name="fail", description="The Boss: give the deal up")
    @app_commands.autocomplete(game=suggest.game)
    async def fail(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, A.Fail())

    @app_commands.command(name="discard", description="Over 12 cards: discard down to 12")
    @app_commands.describe(cards="The cards, e.g. “STOP, Heiermann clan” (pick them one by one from the list)")
    @app_commands.autocomplete(cards=suggest.discard, game=suggest.game)
    async def discard(self, interaction: discord.Interaction, cards: str, game: int | None = None) -> None:
        def make(table: Table, seat: int) -> Any:
            return A.Discard(cards=tuple(parse_cards(cards, most=len(reading.mine(table, seat).hand))))

        await self._play(interaction, game, make, own_view=True)


def _named(table: Table, me: int, option: str, named: str | None) -> int | None:
    """The seat the `option` (`to:` or `target:`) names: anyone at the table but the player, computer players too
    (`seat_choice`); None when it is left out, refused when it is given blank."""
    where = f"Kohle, Kies & Knete #{table.record.id}"
    return seat_choice.resolve(table.seats, named, where=where, option=option, exclude=me)
