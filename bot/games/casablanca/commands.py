"""The `/cb` commands: `/cb bribe amounts:` (several agents in one private action), `/cb move agent: to: suitcase:`,
`/cb hit agent: victim:`, `/cb object limit:`, `/cb noobjection`, `/cb dropobjection`, `/cb contest limit:`,
`/cb withdraw`, `/cb endturn`, `/cb hq hq:` (the variant's set-up) and `/cb sheet` (your bribe sheet, privately).

Each command only turns Discord input into an engine action and goes through `GameService` like any move, built from
the player's own view as it is under the game's lock (`Play.act_for_seat`). A bribe, an objection, a limit and
dropping an objection are private: their answer is ephemeral (the table hears "Anna bribed", "Bert has answered",
"Bert dropped their objection" in the thread). Other moves are public: the narration is the reply. Used in a game's
thread a command acts on that game; elsewhere on the player's one Casablanca game in this server, or the `game:`
option says which.
"""

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.hand_answer import hand_answer
from bot.notifier import Carrier
from bot.replies import Answer, answer
from bot.resolve import own_game_choices, resolve_own_game
from bot.service import Refusal
from bot.table import Table
from engine.casablanca.actions import (
    Bribe,
    ChooseHq,
    Contest,
    DropObjection,
    EndTurn,
    Hit,
    Move,
    NoObjection,
    Object,
    Withdraw,
)
from engine.casablanca.rules import Casablanca
from engine.casablanca.views import SeatView
from storage import GameRecord

from .bribe_ideas import bribe_ideas
from .i18n import _
from .maptext import building_key, colour_key, colour_word, money, place

if TYPE_CHECKING:
    from bot.host import Host

NAME = Casablanca.name
"""The game these commands play: the engine's name, not the presentation's (which builds this cog: no circle)."""

PAIR = re.compile(r"([^\W\d_](?:[^\W\d_]| )*?)\s*[:=]?\s*\$?\s*(\d[\d,.]*)\s*(k?)", re.IGNORECASE)
"""An agent (any letters: "grün", "weiß") and an amount."""


def parse_amounts(text: str) -> dict[str, int]:
    """ "purple 1300, green $500, grey=400" (or 1.3k) → {"purple": 1300, …}; `Refusal` naming the fix otherwise."""
    found: dict[str, int] = {}
    rest = text
    for match in PAIR.finditer(text):
        name, number, k = match.group(1).strip(), match.group(2).replace(",", ""), match.group(3)
        try:
            value = float(number) * (1000 if k else 1)
        except ValueError:
            raise Refusal(
                _(
                    "“%(text)s” isn't an amount — write e.g. `%(example)s`.",
                    text=match.group(0).strip(),
                    example=_example(),
                )
            ) from None
        key = colour_key(name).lower()  # a colour typed in the language being spoken reads as the engine's
        if key in found:
            raise Refusal(_("%(agent)s is named twice — give one amount per agent.", agent=name))
        found[key] = int(value)
        rest = rest.replace(match.group(0), " ", 1)
    if not found or rest.strip(" ,;"):
        raise Refusal(_("Write the bribes as agent and amount, e.g. `%(example)s`.", example=_example()))
    return found


def _example() -> str:
    return _("%(a)s 1300, %(b)s 500, %(c)s 400", a=colour_word("purple"), b=colour_word("green"), c=colour_word("grey"))


async def cb_game(bot: "Host", interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The Casablanca game a `/cb` command is about."""
    return await resolve_own_game(bot, interaction, game_id, kind=NAME, group="cb")


@app_commands.guild_only()
class CasablancaCog(commands.GroupCog, group_name="cb", group_description="Casablanca: bribe, move, hit, object"):
    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        super().__init__()

    # --- helpers ----------------------------------------------------------------------------------------

    async def _play(self, interaction: discord.Interaction, game: int | None, make: Any, *, secret: bool) -> None:
        """Apply `make(view)` for the user, the player's own view read under the game's lock
        (`Play.act_for_seat`). Public moves: the narration is the reply. Secret ones (a bribe, an objection, a
        limit): the reply is private and the narration goes to the thread as a normal post."""

        async def work(carrier: Carrier) -> Answer | None:
            record = await cb_game(self.bot, interaction, game)
            self.bot.service.read.require_dealt(record)  # worded as before, when the view was read first
            built: list[Any] = []

            def build(table: Table, seat: int) -> Any:
                view = table.game.view(table.state, seat)
                assert isinstance(view, SeatView)
                built[:] = [make(view)]
                return built[0]

            done = await self.bot.service.play.act_for_seat(record.id, interaction.user.id, build)
            action = built[0]
            carrier.for_rows(done.outbox_ids).private = secret
            await self.bot.notifier.flush(done.game_id, carrier)
            if secret:
                table, seat = await self.bot.service.read.private_view(record.id, interaction.user.id)
                note = _private_note(table.game.view(table.state, seat), action)  # type: ignore[arg-type]
                return Answer(text=note, always=True)
            return None

        await answer(self.bot, interaction, work, game_id=game)

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await own_game_choices(self.bot, interaction, current, NAME)

    async def _my_view(self, interaction: discord.Interaction) -> SeatView | None:
        try:
            record = await cb_game(self.bot, interaction, getattr(interaction.namespace, "game", None))
            table, seat = await self.bot.service.read.private_view(record.id, interaction.user.id)
        except Refusal:
            return None
        if table.state is None:
            return None
        view = table.game.view(table.state, seat)
        return view if isinstance(view, SeatView) else None

    async def _agent_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        view = await self._my_view(interaction)
        if view is None:
            return []
        out = []
        for a in view.agents:
            if a.at is None:
                continue
            label = f"{a.name} ({colour_word(a.colour)}) — {place(a.at)}"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=a.colour))
        return out[:25]

    async def _to_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._my_view(interaction)
        agent = str(getattr(interaction.namespace, "agent", "") or "").lower()
        if view is None:
            return []
        where = next((a.at for a in view.agents if agent in (a.colour, a.name.lower())), None)
        options = view.streets.get(where, []) if where else list(view.streets)
        return [
            app_commands.Choice(name=place(b)[:100], value=b) for b in options if current.lower() in place(b).lower()
        ][:25]

    async def _bribe_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggests a few whole bribes worth making (`bribe_ideas`, from your own sheet and the map) while they match
        what was typed, then the typed text completed with each agent's colour (the capital left is shown, to you
        alone)."""
        view = await self._my_view(interaction)
        if view is None:
            return []
        head, _comma, tail = current.rpartition(",")
        prefix = f"{head.strip()}, " if head.strip() else ""
        typed = tail.strip().lower()
        out = [
            app_commands.Choice(name=f"{idea.text} — {idea.why}"[:100], value=idea.text)
            for idea in bribe_ideas(view)
            if idea.text.startswith(current.strip().lower())
        ]
        if current.strip():
            shown = _("%(typed)s (capital left %(capital)s)", typed=current, capital=money(view.capital))
            out.append(app_commands.Choice(name=shown[:100], value=current[:100]))
        if not typed or not typed[-1].isdigit():  # an agent is being named: offer the colours
            for a in view.agents:
                colour = colour_word(a.colour)
                if a.at is not None and (typed in colour.lower() or typed in a.colour or typed in a.name.lower()):
                    value = f"{prefix}{colour} "
                    have = _(
                        "%(typed)s… (%(agent)s; you have %(amount)s on them)",
                        typed=value,
                        agent=a.name,
                        amount=money(view.bribes[a.index]),
                    )
                    out.append(app_commands.Choice(name=have[:100], value=value[:100]))
        return out[:25]

    # --- the commands -----------------------------------------------------------------------------------

    @app_commands.command(name="bribe", description="Bribe agents in secret (e.g. “purple 1300, green 500, grey 400”)")
    @app_commands.describe(amounts="Agent and amount in $100 steps, several separated by commas")
    @app_commands.autocomplete(amounts=_bribe_autocomplete, game=_game_autocomplete)
    async def bribe(self, interaction: discord.Interaction, amounts: str, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: Bribe(amounts=parse_amounts(amounts)), secret=True)

    @app_commands.command(name="move", description="Announce a move of one agent along one street")
    @app_commands.describe(
        agent="The agent (colour or name)", to="The building next to it", suitcase="Take the suitcase along"
    )
    @app_commands.autocomplete(agent=_agent_autocomplete, to=_to_autocomplete, game=_game_autocomplete)
    async def move(
        self, interaction: discord.Interaction, agent: str, to: str, suitcase: bool = False, game: int | None = None
    ) -> None:
        await self._play(
            interaction,
            game,
            lambda view: Move(agent=colour_key(agent), to=building_key(to), suitcase=suitcase),
            secret=False,
        )

    @app_commands.command(name="hit", description="Announce that one agent hits another in the same building")
    @app_commands.describe(agent="The hitter (you need $1,000 on it)", victim="The agent hit")
    @app_commands.autocomplete(agent=_agent_autocomplete, victim=_agent_autocomplete, game=_game_autocomplete)
    async def hit(self, interaction: discord.Interaction, agent: str, victim: str, game: int | None = None) -> None:
        await self._play(
            interaction, game, lambda view: Hit(agent=colour_key(agent), victim=colour_key(victim)), secret=False
        )

    @app_commands.command(name="object", description="Object to the announcement, with your secret limit")
    @app_commands.describe(limit="The most I may claim for you on the acting agent ($0: a bluff)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def object_(
        self, interaction: discord.Interaction, limit: app_commands.Range[int, 0, 10_000], game: int | None = None
    ) -> None:
        await self._play(interaction, game, lambda view: Object(limit=limit), secret=True)

    @app_commands.command(name="noobjection", description="Let the announcement pass")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def noobjection(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: NoObjection(), secret=True)

    @app_commands.command(name="dropobjection", description="Drop your objection before its auction starts")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def dropobjection(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: DropObjection(), secret=True)

    @app_commands.command(name="contest", description="Contest the objection being taken, with your secret limit")
    @app_commands.describe(limit="The most I may claim for you (not given: all you have on the agent)")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def contest(
        self,
        interaction: discord.Interaction,
        limit: app_commands.Range[int, 0, 10_000] | None = None,
        game: int | None = None,
    ) -> None:
        def make(view: SeatView) -> Contest:
            if limit is not None:
                return Contest(limit=limit)
            ann = view.announcement
            return Contest(limit=view.bribes[ann.agent] if ann is not None else 0)

        await self._play(interaction, game, make, secret=False)

    @app_commands.command(name="withdraw", description="Withdraw your announcement: the objection stands")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def withdraw(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: Withdraw(), secret=False)

    @app_commands.command(name="endturn", description="End your turn after an objection stopped you")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def endturn(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: EndTurn(), secret=False)

    async def _hq_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await self._my_view(interaction)
        if view is None:
            return []
        free = [hq for hq in view.hqs if all(p.hq != hq for p in view.players)]
        return [app_commands.Choice(name=place(hq), value=hq) for hq in free if current.lower() in place(hq).lower()][
            :25
        ]

    @app_commands.command(name="hq", description="Variant: choose your HQ")
    @app_commands.describe(hq="A free HQ (the map's four: e.g. Police Station, Airport, Hotel, Rick's Café)")
    @app_commands.autocomplete(hq=_hq_autocomplete, game=_game_autocomplete)
    async def hq(self, interaction: discord.Interaction, hq: str, game: int | None = None) -> None:
        await self._play(interaction, game, lambda view: ChooseHq(hq=building_key(hq)), secret=False)

    @app_commands.command(name="sheet", description="Your bribe sheet, privately")
    @app_commands.autocomplete(game=_game_autocomplete)
    async def sheet(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def work(carrier: Carrier) -> Answer:
            record = await cb_game(self.bot, interaction, game)
            return await hand_answer(self.bot, record.id, interaction.user.id)

        await answer(self.bot, interaction, work, game_id=game)


def _private_note(view: SeatView, action: Any) -> str:
    match action:
        case Bribe():
            on = ", ".join(f"{a.name} ${view.bribes[a.index]:,}" for a in view.agents if view.bribes[a.index])
            return "💵 " + _(
                "Done — only you know it. Capital left: %(capital)s. On your sheet: %(sheet)s.",
                capital=money(view.capital),
                sheet=on,
            )
        case Object():
            return "✉️ " + _(
                "You object, with a limit of %(limit)s — secret until the window closes.", limit=money(action.limit)
            )
        case NoObjection():
            return "✉️ " + _("No objection from you — noted.")
        case DropObjection():
            return "✉️ " + _("You drop your objection — the table is told, and you won't be contested.")
    return _("Done.")
