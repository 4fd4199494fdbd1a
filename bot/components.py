"""Persistent buttons: every button carries its game and purpose in its `custom_id` ("br:<game>:<key>").

Buttons are routed by registration. Each feature declares its buttons next to itself as a `bot.clicks.GameButton`
subclass naming the keys it answers (`class HandButton(GameButton, keys="hand")`): a `discord.ui.DynamicItem` whose
template is "br:<game>:<one of those keys>", registered once at start-up (`bot.add_dynamic_items`), so a click on
any message the bot ever posted is understood after any restart: no per-message view is kept in memory and no
button goes dead. The platform's keys (`join`, `leave`, `start`, `addbot`, `dropbot`, `hand`, `help`, `details`,
`rematch`, `modundo.…`) each have their feature's button; every other key is the game's own and goes to its
presentation (`bot.game_buttons`). The templates never overlap — discord.py runs every item whose template matches
— so the game's own keys are "any key the platform's buttons don't claim" (`unclaimed`). The same buttons serve the
status and tracked messages in the thread, the hand DMs and ephemeral answers: the seat is always the clicker's.

This module holds the custom ids and `view_for`, which builds a message's buttons from the presentation's `Button`
values, each as the registered button class that answers its key (`ROUTES`, filled as the features declare them).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.ids import NUMBER
from bot.presentation import Button

if TYPE_CHECKING:
    from bot.clicks import GameButton

PREFIX = "br"
KEY = r"[A-Za-z0-9_.:\-]{1,64}"
"""What a button's key may be (in a custom id of at most 100 characters)."""
TEMPLATE = re.compile(rf"br:(?P<game>{NUMBER}):(?P<key>{KEY})")
"""Every game button's custom id. The game's number as any number: one that names no game (forged, beyond 64 bits,
negative) is answered as a game that isn't there (`bot.clicks.button_game`), not left unanswered."""
_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
ROUTES: list[type[GameButton]] = []
"""Every declared `bot.clicks.GameButton` class, in the order of declaration (each adds itself)."""


def key_template(keys: str) -> str:
    """The custom-id template of the game buttons whose key fully matches the regular expression `keys` (and is a
    `KEY`)."""
    return rf"{PREFIX}:(?P<game>{NUMBER}):(?P<key>(?={KEY}$)(?:{keys}))"


def unclaimed(claimed: tuple[type[GameButton], ...]) -> str:
    """The keys (a regular expression) that none of the `claimed` button classes answers."""
    taken = "|".join(f"(?:{route.keys})" for route in claimed)
    return rf"(?!(?:{taken})$){KEY}"


def custom_id(game_id: int, key: str) -> str:
    cid = f"{PREFIX}:{game_id}:{key}"
    if not TEMPLATE.fullmatch(cid):
        raise ValueError(f"button key {key!r} is not usable in a custom_id")
    return cid


def button_class(key: str) -> type[GameButton]:
    """The declared button class that answers `key` (exactly one does, once the features are imported)."""
    for route in ROUTES:
        if re.fullmatch(route.keys, key):
            return route
    raise LookupError(f"no button answers the key {key!r}: is the module that declares it imported?")


def unkept_view() -> discord.ui.View:
    """An empty view for registered (dynamic) buttons that discord.py won't keep: stopped before it is sent.

    Its buttons are answered by their registered classes, so a per-message view in memory serves nothing; and
    discord.py keeps every unfinished view sent with an interaction's response, giving an ephemeral one a
    15-minute expiry task (`timeout=None` becomes 900 s). A table's worth of private answers (Move… → the agent
    → where) would leave one sleeping task each: memory for nothing, and work for every test harness that
    watches the bot's tasks (SimCord's settle grew slower with each, step after step of a whole game)."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def view_for(game_id: int, buttons: list[Button]) -> discord.ui.View:
    """The message's buttons; empty (which clears a message's old buttons when it is edited) when there are none."""
    view = unkept_view()
    for b in buttons[:25]:
        custom_id(game_id, b.key)  # a key no custom id can carry is refused first, as such
        view.add_item(button_class(b.key)(game_id, b.key, label=b.label, style=b.style, emoji=b.emoji))
    return view


def style(name: str) -> discord.ButtonStyle:
    return _STYLES.get(name, discord.ButtonStyle.secondary)
