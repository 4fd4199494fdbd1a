"""Slash commands are synced at start-up only when their definitions changed.

The hash of the command tree's payload, translations included (the Dutch and German names and descriptions of
`bot.i18n.commands`), plus where it goes (the development server or global) and the application it belongs to, is
kept in a small file next to the database (`<database>.commands.sha256`), so a restart does not
spend one of Discord's command updates (and their rate limit) on nothing, while a new bot application (a new token)
on the same data folder is synced. With DEV_GUILD_ID set, the commands are copied to that server and synced
there, where they appear at once; otherwise they are synced globally.
"""

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger("boardroom.sync")
MISSING_ACCESS = 50001


class SyncRefused(Exception):
    """Discord refused the commands for the development server (the bot is not in it): a setting to fix."""

    def __init__(self, dev_guild_id: int) -> None:
        super().__init__(
            f"Discord refused to register commands on DEV_GUILD_ID={dev_guild_id}: invite the bot to that server "
            "or clear DEV_GUILD_ID."
        )
        self.dev_guild_id = dev_guild_id


async def payloads(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """The commands as `tree.sync` sends them: with their translations (`name_localizations`, …) when the tree has a
    translator, so a changed Dutch or German word is synced too."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [c.to_dict(tree) for c in commands]
    return [await c.get_translated_payload(tree, translator) for c in commands]


def tree_hash(
    tree: app_commands.CommandTree,
    guild: discord.abc.Snowflake | None,
    payload: list[dict[str, Any]] | None = None,
) -> str:
    """The digest of what a sync would send (`payload`, from `payloads`; without it the untranslated tree)."""
    if payload is None:
        payload = [c.to_dict(tree) for c in tree.get_commands(guild=guild)]
    commands = sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))
    # The application too: commands belong to an application, so a new bot application (a new token) on the same
    # data folder must be synced even though its commands look the same.
    application = getattr(tree.client, "application_id", None)
    payload = {"application": application, "target": guild.id if guild else "global", "commands": commands}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def hash_file(database_path: Path) -> Path | None:
    if str(database_path) == ":memory:":
        return None
    return database_path.with_name(database_path.name + ".commands.sha256")


async def sync_commands(
    tree: app_commands.CommandTree, *, dev_guild_id: int | None, database_path: Path, mode: str
) -> bool:
    """Sync if needed; returns whether a sync happened."""
    guild = discord.Object(id=dev_guild_id) if dev_guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = tree_hash(tree, guild, await payloads(tree, guild))
    path = hash_file(database_path)
    if mode == "never":
        log.info("command sync disabled (COMMAND_SYNC=never)")
        return False
    if mode == "auto" and path is not None and path.is_file() and path.read_text().strip() == digest:
        log.info("slash commands unchanged; not syncing")
        return False
    try:
        synced = await tree.sync(guild=guild)
    except discord.Forbidden as exc:
        if dev_guild_id and exc.code == MISSING_ACCESS:
            raise SyncRefused(dev_guild_id) from exc
        raise
    log.info("synced %d slash commands %s", len(synced), f"to server {dev_guild_id}" if guild else "globally")
    if path is not None:
        # On PostgreSQL (DATABASE_URL) nothing else creates the data folder beside which the hash is kept.
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(digest + "\n")
    return True
