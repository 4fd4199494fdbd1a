"""Who is acting, as the service reads them, and what a player whose DMs are closed is told.

Shared by the commands, the buttons and the notifier (which tells a player behind the answer to their move).
"""

import discord

from bot.i18n.platform import N_, _
from bot.service import Person

DMS_CLOSED = N_(
    "📪 I couldn't send you a DM, so your hand won't arrive there. Use `/game hand` to see it any time; "
    "or allow DMs from this server's members and use `/game dms`."
)


def person(user: discord.abc.User) -> Person:
    return Person(user_id=user.id, name=user.display_name)


def dm_note(report_users: set[int], user_id: int) -> str:
    """The closed-DMs note for `user_id` if their DM failed (`FlushReport.dm_closed`), else nothing."""
    return "\n" + _(DMS_CLOSED) if user_id in report_users else ""
