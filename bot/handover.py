"""A seat handed over while the game goes on: a leaver's offer (`/game leave to:@…`) and the replacement vote
(`/game vote replace`), as they are kept on the seat (`SeatRecord.handover`) and shown on the status message.

- An offer names the person who may take the seat; they take it with the **Take seat N** button on the status
  message (or decline with **Decline**, which also lets the leaver withdraw it). Until then the leaver still holds the
  seat and plays. It lapses with the table's next deadline as it was when it was made (`expires`; a `handover` timer,
  planned with every commit from the seats, clears it).
- A vote is open to the other people at the table against a player who has let two turn deadlines in a row pass
  (`SeatRecord.missed`) while no moderator has acted on the seat. It passes with a majority of the others (more
  than half, the one who asked counted as a yes), fails once that can no longer be reached, and expires with the
  next deadline. Passed: the autopilot plays the seat (the player keeps it and may `/game back`), or the named
  substitute is offered the seat as above.

The secrets rule: a handover changes who holds a seat, never what the seat holds; the newcomer gets the seat's hand
DM, the one who leaves stops getting it (their hand message is retired), exactly as a moderator's `/mod substitute`.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from bot.i18n.platform import _
from bot.names import plain, shown
from bot.post import Button
from storage.models import NewSeat

HANDOVER = "handover"
"""The timer kind that ends an offer or a vote at its deadline, and the prefix of its buttons' keys."""
KEYS = r"handover\.(?:take|drop|yes|no)\.\d{1,2}"


class Handover(BaseModel):
    """A seat's pending handover, as stored on the seat (JSON)."""

    kind: Literal["leave", "vote"]
    by: int
    """Who asked: the leaver, or the player who opened the vote."""
    of: int
    """The seat's player when it was asked (a vote is off if the seat changed hands since)."""
    to: int | None = None
    """The person offered the seat (None: the autopilot)."""
    to_name: str = ""
    stage: Literal["voting", "offered"] = "offered"
    expires: datetime
    votes: dict[str, bool] = {}
    """Each voter's yes or no, by user id (a vote only)."""
    voters: list[int] = []
    """Who may vote: the other people at the table when it opened."""

    def needed(self) -> int:
        """The yes votes that pass it: more than half of the others."""
        return len(self.voters) // 2 + 1

    def tally(self) -> tuple[int, int]:
        yes = sum(self.votes.values())
        return yes, len(self.votes) - yes


def of_seat(seat: NewSeat) -> Handover | None:
    return Handover.model_validate(seat.handover) if seat.handover else None


def expiries(seats: Sequence[NewSeat]) -> list[tuple[int, datetime]]:
    """Each pending handover's seat and end (for the `handover` timers)."""
    out = []
    for s in seats:
        h = of_seat(s)
        if h is not None:
            out.append((s.seat, h.expires))
    return out


def receiver(h: Handover) -> str:
    return f"<@{h.to}>" if h.to is not None else _("the autopilot")


def status_lines(seats: Sequence[NewSeat]) -> list[str]:
    """The status's line for each pending handover."""
    lines = []
    for s in seats:
        h = of_seat(s)
        if h is None:
            continue
        name, number, ends = shown(s.display_name), s.seat + 1, f"<t:{int(h.expires.timestamp())}:R>"
        if h.stage == "voting":
            yes, no = h.tally()
            lines.append(
                _(
                    "🗳️ Vote: hand **%(name)s**'s seat to %(to)s — %(yes)d yes, %(no)d no of %(count)d; %(needed)d yes "
                    "pass it; ends %(ends)s",
                    name=name,
                    to=receiver(h),
                    yes=yes,
                    no=no,
                    count=len(h.voters),
                    needed=h.needed(),
                    ends=ends,
                )
            )
        else:
            lines.append(
                _(
                    "🔁 Seat %(number)d (**%(name)s**) is offered to %(to)s: **Take seat %(number)d** — ends %(ends)s",
                    number=number,
                    name=name,
                    to=receiver(h),
                    ends=ends,
                )
            )
    return lines


def buttons(seats: Sequence[NewSeat]) -> list[Button]:
    """The status message's buttons for the pending handovers."""
    out: list[Button] = []
    for s in seats:
        h = of_seat(s)
        if h is None:
            continue
        n = s.seat + 1
        if h.stage == "voting":
            out += [
                Button(_("Yes: replace %(name)s", name=plain(s.display_name))[:80], f"{HANDOVER}.yes.{n}", "success"),
                Button(_("No: keep %(name)s", name=plain(s.display_name))[:80], f"{HANDOVER}.no.{n}", "secondary"),
            ]
        else:
            out += [
                Button(_("Take seat %(n)d", n=n), f"{HANDOVER}.take.{n}", "success"),
                Button(_("Decline"), f"{HANDOVER}.drop.{n}", "secondary"),
            ]
    return out
