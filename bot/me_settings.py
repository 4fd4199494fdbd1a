"""A person's own settings, the same in every server: where prompts and reminders reach them (`/me notify`), their
daily digest (`/me digest`), and all of them at a glance (`/me settings`).

Decisions where the issue is silent:

- `/me settings` shows them (a bare `/me` can't be run: Discord runs only a group's subcommands).
- "Digest only" needs a digest: `/me notify mode:digest` without one is refused, naming the command that sets it,
  and turning the digest off while it is the chosen place (`/me digest at:off`) moves prompts back to the thread —
  so no setting ever leaves a player hearing of nothing.
- A digest's time zone is remembered: `/me digest at:07:30` later keeps the zone given before.
- Every refusal is private, names the fix, and changes nothing (the input is read before anything is written).
"""

from typing import TYPE_CHECKING

from bot import quiet as quietness
from bot.local_time import BadInput, next_local, parse_time_of_day, parse_zone
from bot.service import Refusal
from bot.table import timestamp
from storage import NotifyMode, PlayerDelivery

if TYPE_CHECKING:
    from bot.host import Host

NOTIFY_WORDS: dict[str, str] = {
    "thread": "pinged in each table's thread (the default)",
    "dm": "by DM, with a link to the table (pinged in the thread where your DMs are closed)",
    "digest": "only in your daily digest (named in the thread without a ping; the table's status shows every deadline)",
}
OFF = ("off", "no", "none", "stop")


def _digest_words(d: PlayerDelivery) -> str:
    if d.digest_at is None or d.digest_next is None:
        return "off"
    return f"every day at {d.digest_at} ({d.digest_zone}), next {timestamp(d.digest_next, 'f')}"


async def set_notify(bot: "Host", user_id: int, mode: NotifyMode) -> str:
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)  # the digest loop may have moved the digest on: read it as it is
    current = await deliveries.get(user_id)
    if mode == "digest" and current.digest_next is None:
        raise Refusal(
            "“Digest only” needs your daily digest first: `/me digest at:08:00 timezone:Europe/Berlin` (your hour "
            "and your time zone), then `/me notify mode:digest`. Nothing was changed."
        )
    await deliveries.put(current.model_copy(update={"notify": mode}), now=bot.clock())
    said = f"✅ Your prompts and reminders now reach you {NOTIFY_WORDS[mode]}, in every server."
    if mode == "digest":
        said += (
            " A wait shorter than a day (a reaction window, a short turn) may end before your digest comes: the "
            "table then goes on as the game's rules say for a missed deadline."
        )
    return said


async def set_digest(bot: "Host", user_id: int, at: str, zone_name: str | None) -> str:
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)
    current = await deliveries.get(user_id)
    now = bot.clock()
    if at.strip().lower() in OFF:
        update: dict[str, object] = {"digest_at": None, "digest_next": None}
        said = "✅ Your daily digest is off."
        if current.notify == "digest":
            update["notify"] = "thread"
            said += " Your prompts and reminders now ping you in each table's thread again (`/me notify` changes it)."
        await deliveries.put(current.model_copy(update=update), now=now)
        bot.digests.poke()
        return said
    try:
        when = parse_time_of_day(at)
        name = zone_name if zone_name else current.digest_zone
        if not name:
            raise BadInput(
                "Which time zone is your hour in? Add `timezone:` with its IANA name, e.g. `/me digest at:08:00 "
                "timezone:Europe/Berlin` (the suggestions list them)."
            )
        zone = parse_zone(name)
    except BadInput as exc:
        raise Refusal(f"{exc} Nothing was changed.") from None
    next_at = next_local(when, zone, now)
    stored = await deliveries.put(
        current.model_copy(
            update={"digest_at": when.strftime("%H:%M"), "digest_zone": zone.key, "digest_next": next_at}
        ),
        now=now,
    )
    bot.digests.poke()
    return (
        f"✅ Your digest comes every day at {stored.digest_at} ({zone.key}) — the next {timestamp(next_at, 'f')} "
        f"({timestamp(next_at)}) — by DM, listing what waits on you in every server. On a day when nothing does, "
        "none is sent. `/me digest at:off` stops it."
    )


async def settings_text(bot: "Host", user_id: int, *, profile_private: bool) -> str:
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)
    d = await deliveries.get(user_id)
    quiet = quietness.describe(await bot.service.read.quiet.get(user_id))
    lines = [
        "**Your settings** (the same in every server)",
        f"• Prompts and reminders: {NOTIFY_WORDS[d.notify]} — `/me notify`",
        f"• Daily digest: {_digest_words(d)} — `/me digest`",
        f"• Profile: {'private (only you see it)' if profile_private else 'public'} — `/me private`",
        f"• {quiet[:1].upper()}{quiet[1:]} — `/me quiet`",
    ]
    return "\n".join(lines)
