"""Per-game presentation packages: `bot/games/<game>/` mirrors `engine/<game>/`.

A game plugs in by exposing `presentation` from `bot/games/<game name>/__init__.py` (the name is the engine's
`Game.name`, e.g. `bot/games/kkk/`). Nothing in the platform changes. A sketch:

    # bot/games/kkk/__init__.py
    from bot.games.kkk.presentation import KkkPresentation
    presentation = KkkPresentation()

    # bot/games/kkk/presentation.py
    class KkkPresentation(GenericPresentation):
        def status(self, table): ...                   # the one status message (Post: embed + Buttons)
        def private_view(self, table, seat): ...       # DM / `/game hand` + buttons (only game.view(state, seat)!)
        def hand_digest(self, game, state, seat): ...  # what the DM shows, so it is edited only when that changes
        def event_line(self, table, event): ...        # one narration line per public event
        def event_posts(self, table, events): ...      # tracked: Post(ref=("offer", "7"), reactions=["🤝"])
        def live_posts(self, table): ...               # tracked posts re-rendered after any change (e.g. an undo)
        def reaction_action(self, table, ref, seat, emoji, added): ...  # 🤝 on ("offer", "7") -> engine action
        def reaction_allowed(self, table, ref, seat, emoji): ...  # False: stray (removed if the bot may)
        def button_action(self, table, seat, key): ...  # Button("Roll", "roll") on the status -> engine action
        def button_reply(self, table, seat, key): ...  # Button("Bid in secret", "bid") -> a private Post instead
        def away_action(self, table, seat, wait): ...  # what an away player does in a reaction window
        def cog(self, bot): return KkkCog(bot)         # the `/kkk` group, added and synced at start-up

A game's commands call the same platform pieces as `/game move` does (see `bot/cogs/game.py`):
`bot.replies.answer(bot, interaction, work)` to answer in time, `bot.resolve.resolve_game(...)` for the game of the
thread, `bot.service.play.act(game_id, user_id, action)` to play, `bot.notifier.flush(game_id, carrier.for_rows(ids))`
to deliver (the narration becomes the command's reply). `bot.service.read.private_view(game_id, user_id)` gives the
table and seat for autocompleting from a player's own hand. A game without a package is served by
`GenericPresentation`, so it is playable (with `/game move`) before it has a presentation of its own.
"""

import importlib
import logging
from collections.abc import Iterable

from bot.presentation import GenericPresentation, Presentation

log = logging.getLogger("boardroom.games")


def load_presentation(name: str) -> Presentation:
    """The presentation of the game called `name`, or the generic one when the game has no package."""
    try:
        module = importlib.import_module(f"bot.games.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"bot.games.{name}":
            raise
        return GenericPresentation()
    presentation = getattr(module, "presentation", None)
    if not isinstance(presentation, Presentation):
        log.warning("bot.games.%s has no `presentation`; using the generic one", name)
        return GenericPresentation()
    return presentation


def load_presentations(names: Iterable[str]) -> dict[str, Presentation]:
    return {name: load_presentation(name) for name in names}
