"""A game whose data is damaged: a page of the database that SQLite finds malformed (`storage.DamagedData`, or a
game the store's timer scans skipped: `store.timers.damaged_games`).

Nothing in the code can mend it and a traceback would tell the operator nothing more, so it is one error line per
game and process, naming the game and the remedy (the README's "Backups and restoring one"), whichever path meets
the damage first: a player's command or click (`bot.replies`, which also answers the player) or the scheduler. The
other games go on: a damaged game's timers are skipped, never retried in a loop.
"""

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.damage")


def report(bot: "Host", game_id: int | None, problem: str) -> None:
    """Log the damage once per game (every time when the game isn't known)."""
    if game_id is not None:
        if game_id in bot.damaged_reported:
            return
        bot.damaged_reported.add(game_id)
    where = f"game {game_id}" if game_id is not None else "a game"
    log.error(
        "%s: its data is damaged (%s); it can't go on until the newest backup is restored",
        where,
        problem,
        extra={"game": game_id},
    )


def report_skipped(bot: "Host") -> None:
    """Report the games whose timers the store skipped as damaged (new ones only)."""
    skipped = bot.store.timers.damaged_games
    if skipped:  # nearly always empty: nothing else to look at
        for game_id in sorted(skipped - bot.damaged_reported):
            report(bot, game_id, "its timers can't be read")
