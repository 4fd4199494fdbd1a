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
from bot.i18n.platform import N_, _
from bot.local_time import BadInput, next_local, parse_time_of_day, parse_zone
from bot.service import Refusal
from bot.table import timestamp
from storage import NotifyMode, PlayerDelivery

if TYPE_CHECKING:
    from bot.host import Host

NOTIFY_WORDS: dict[str, str] = {
    "thread": N_("pinged in each table's thread (the default)"),
    "dm": N_("by DM, with a link to the table (pinged in the thread where your DMs are closed)"),
    "digest": N_(
        "only in your daily digest (named in the thread without a ping; the table's status shows every deadline)"
    ),
}
"""Where prompts reach a person (marked: shown with `_()`)."""
OFF = ("off", "no", "none", "stop")


def _digest_words(d: PlayerDelivery) -> str:
    if d.digest_at is None or d.digest_next is None:
        return _("off")
    return _(
        "every day at %(time)s (%(zone)s), next %(next)s",
        time=d.digest_at,
        zone=d.digest_zone,
        next=timestamp(d.digest_next, "f"),
    )


async def set_notify(bot: "Host", user_id: int, mode: NotifyMode) -> str:
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)  # the digest loop may have moved the digest on: read it as it is
    current = await deliveries.get(user_id)
    if mode == "digest" and current.digest_next is None:
        raise Refusal(
            _(
                "“Digest only” needs your daily digest first: `/me digest at:08:00 timezone:Europe/Berlin` (your "
                "hour and your time zone), then `/me notify mode:digest`. Nothing was changed."
            )
        )
    await deliveries.put(current.model_copy(update={"notify": mode}), now=bot.clock())
    said = _("✅ Your prompts and reminders now reach you %(where)s, in every server.", where=_(NOTIFY_WORDS[mode]))
    if mode == "digest":
        said += " " + _(
            "A wait shorter than a day (a reaction window, a short turn) may end before your digest comes: the "
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
        said = _("✅ Your daily digest is off.")
        if current.notify == "digest":
            update["notify"] = "thread"
            said += " " + _(
                "Your prompts and reminders now ping you in each table's thread again (`/me notify` changes it)."
            )
        await deliveries.put(current.model_copy(update=update), now=now)
        bot.digests.poke()
        return said
    try:
        when = parse_time_of_day(at)
        name = zone_name if zone_name else current.digest_zone
        if not name:
            raise BadInput(
                _(
                    "Which time zone is your hour in? Add `timezone:` with its IANA name, e.g. `/me digest at:08:00 "
                    "timezone:Europe/Berlin` (the suggestions list them)."
                )
            )
        zone = parse_zone(name)
    except BadInput as exc:
        raise Refusal(_("%(problem)s Nothing was changed.", problem=exc)) from None
    next_at = next_local(when, zone, now)
    stored = await deliveries.put(
        current.model_copy(
            update={"digest_at": when.strftime("%H:%M"), "digest_zone": zone.key, "digest_next": next_at}
        ),
        now=now,
    )
    bot.digests.poke()
    return _(
        "✅ Your digest comes every day at %(time)s (%(zone)s) — the next %(next)s (%(relative)s) — by DM, listing "
        "what waits on you in every server. On a day when nothing does, none is sent. `/me digest at:off` stops it.",
        time=stored.digest_at,
        zone=zone.key,
        next=timestamp(next_at, "f"),
        relative=timestamp(next_at),
    )


async def settings_text(bot: "Host", user_id: int, *, profile_private: bool) -> str:
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)
    d = await deliveries.get(user_id)
    quiet = quietness.describe(await bot.service.read.quiet.get(user_id))
    profile = _("private (only you see it)") if profile_private else _("public")
    lines = [
        _("**Your settings** (the same in every server)"),
        _("• Prompts and reminders: %(where)s — `/me notify`", where=_(NOTIFY_WORDS[d.notify])),
        _("• Daily digest: %(digest)s — `/me digest`", digest=_digest_words(d)),
        _("• Profile: %(profile)s — `/me private`", profile=profile),
        _("• %(quiet)s — `/me quiet`", quiet=f"{quiet[:1].upper()}{quiet[1:]}"),
    ]
    return "\n".join(lines)
