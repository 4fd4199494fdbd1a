"""Per-game presentation packages: `bot/games/<game>/` mirrors `engine/<game>/`.

A game plugs in by exposing `presentation` from `bot/games/<game name>/__init__.py` (the name is the engine's
`Game.name`, the name of its package `engine/<game>/` whose `ENTRY` registers it, e.g. `bot/games/kkk/`). Nothing in
the platform changes. Start-up (`load_presentations`) refuses, with a one-line `RegistrationError`, a folder here
without a game registered under `engine/`, or a registered game without its folder here. Every folder has the same
layout: `presentation.py`, `commands.py` (the slash-command group), `helps.py`, `picture.py`, and `prompts.py` where
the game asks for choices privately, `controls.py` where it has buttons or reactions of its own (see
docs/adding-a-game.md). A sketch:

    # bot/games/kkk/__init__.py
    from bot.games.kkk.presentation import KkkPresentation
    presentation = KkkPresentation()

    # bot/games/kkk/presentation.py
    class KkkPresentation(GenericPresentation):
        controls_type = KkkControls                    # `controls.py`: what clicks and reactions mean
        hands_type = KkkHands                          # the hand DM's fingerprint
        def status(self, table): ...                   # the one status message (Post: embed + Buttons)
        def private_view(self, table, seat): ...       # DM / `/game hand` + buttons (only game.view(state, seat)!)
        def event_line(self, table, event): ...        # one narration line per public event
        def event_posts(self, table, events): ...      # tracked: Post(ref=("offer", "7"), reactions=["🤝"])
        def live_posts(self, table): ...               # tracked posts re-rendered after any change (e.g. an undo)
        def cog(self, bot): return KkkCog(bot)         # `commands.py`: the `/kkk` group, added and synced at start-up

    # bot/games/kkk/controls.py (`bot.controls.Controls`; `self.presentation` is the game's presentation)
    class KkkControls(Controls):
        def reaction_action(self, table, ref, seat, emoji, added): ...  # 🤝 on ("offer", "7") -> engine action
        def reaction_allowed(self, table, ref, seat, emoji): ...  # False: stray (removed if the bot may)
        def button_action(self, table, seat, key): ...  # Button("Roll", "roll") on the status -> engine action
        def button_reply(self, table, seat, key): ...  # Button("Bid in secret", "bid") -> a private Post instead
        def away_action(self, table, seat, wait): ...  # what an away player does in a reaction window

    # `bot.hands.Hands`, the fingerprint of the hand DM: it is edited only when this changes
    class KkkHands(Hands):
        def digest(self, game, state, seat): ...       # what the DM shows, as text

A game's commands call the same platform pieces as `/game move` does (see `bot/cogs/game.py`):
`bot.replies.answer(bot, interaction, work)` to answer in time, `bot.resolve.resolve_game(...)` for the game of the
thread, `bot.service.play.act(game_id, user_id, action)` to play, `bot.notifier.flush(game_id, carrier.for_rows(ids))`
to deliver (the narration becomes the command's reply). `bot.service.read.private_view(game_id, user_id)` gives the
table and seat for autocompleting from a player's own hand. A game that is not registered (a test's toy game) is
served by `GenericPresentation`, playable with `/game move`.
"""

import importlib
import logging
import pkgutil
from collections.abc import Iterable
from pathlib import Path

from bot.presentation import GenericPresentation, Presentation
from engine import registry
from engine.errors import RegistrationError

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


def presentation_packages() -> list[str]:
    """The names of the game folders under `bot/games/`."""
    return sorted(info.name for info in pkgutil.iter_modules([str(Path(__file__).parent)]) if info.ispkg)


def check_registration() -> None:
    """Every folder here has its game registered under `engine/`, and every registered game its folder here;
    otherwise a `RegistrationError` in one line naming the first folder that is missing its other half."""
    games, packages = set(registry.entries()), set(presentation_packages())
    for name in sorted(packages - games):
        raise RegistrationError(
            f"bot/games/{name}/ has no game: no package engine/{name}/ registers one (its ENTRY); "
            "see docs/adding-a-game.md"
        )
    for name in sorted(games - packages):
        raise RegistrationError(
            f"engine/{name}/ registers a game without a presentation: bot/games/{name}/ is missing; "
            "see docs/adding-a-game.md"
        )


def load_presentations(names: Iterable[str]) -> dict[str, Presentation]:
    """The presentations of the games called `names`, at start-up: the registration is checked first."""
    check_registration()
    return {name: load_presentation(name) for name in names}
