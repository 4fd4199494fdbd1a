"""Forms: a button that opens a Discord modal (a few short text fields) instead of answering with more buttons —
for a move with several free amounts, which a phone player would otherwise have to type as a command (Casablanca's
bribe of several agents at once: an amount per agent).

A game offers one through `Controls.button_form(table, seat, key)` (a `Form`: a title and at most five fields)
and reads the answer with `Controls.form_action(table, seat, key, values)`, which gives the engine action (or
raises `Refusal`). The platform opens the modal as the click's response and applies the action on submission
through the same path as a button (`Play.act_for_seat`), then answers privately. The modal lives as long as the
bot process: after a restart the player opens it again.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n.platform import N_, _
from bot.replies import Answer, answer

if TYPE_CHECKING:
    from bot.host import Host

MAX_FIELDS = 5
"""Discord's limit of text fields in one modal."""
DONE = N_("✅ Done. Your DM shows where you stand.")


@dataclass(frozen=True)
class FormField:
    label: str
    """At most 45 characters (Discord's limit)."""
    placeholder: str = ""
    required: bool = False


@dataclass(frozen=True)
class Form:
    title: str
    key: str
    """Passed back to `form_action` with the answers; like a button's key."""
    fields: tuple[FormField, ...]


class GameForm(discord.ui.Modal):
    """The modal of one `Form` for one game; its submission is that seat's move."""

    def __init__(self, bot: "Host", game_id: int, form: Form) -> None:
        super().__init__(title=form.title[:45], custom_id=f"brf:{game_id}:{form.key}"[:100], timeout=None)
        self.bot = bot
        self.game_id = game_id
        self.form = form
        self.inputs: list[discord.ui.TextInput[Any]] = []
        for n, field in enumerate(form.fields[:MAX_FIELDS]):
            text: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=field.label[:45],
                placeholder=field.placeholder[:100] or None,
                required=field.required,
                custom_id=f"field{n}",
            )
            self.inputs.append(text)
            self.add_item(text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = [str(i.value or "").strip() for i in self.inputs]
        bot, game_id, key = self.bot, self.game_id, self.form.key

        async def work(carrier: Any) -> Answer | None:
            record = await bot.store.games.get(game_id)
            controls = bot.service.read.presentation(record.kind).controls
            make: Callable[[Any, int], Any] = lambda table, seat: controls.form_action(table, seat, key, values)  # noqa: E731
            done = await bot.service.play.act_for_seat(game_id, interaction.user.id, make)
            carrier.for_rows(done.outbox_ids).private = True
            await bot.notifier.flush(game_id, carrier)
            return Answer(text=_(DONE), always=True)

        await answer(bot, interaction, work, game_id=game_id)
