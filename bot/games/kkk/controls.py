"""Kohle, Kies & Knete's controls: what a click or a 🤝 means, and what the table hears when the engine refuses one.

- `button_action`: the status and window buttons (Open, Roll, Draw, Close, Fail, and Pass / STOP / Call off keyed by
  the window they were made for: a click on a window that has closed is refused, never applied to a newer one).
- `reaction_allowed`: a 🤝 on an offer's message is stray (removed if the bot may, and never answered in the thread)
  when it comes from someone who isn't one of the offer's two parties, lands on the old message of an agreement that
  reopened (its new message is the one that counts, see `posts`), or on an offer of a round that is over — from
  anyone (offer ids never repeat, so an offer missing from the current round is an old one).
- `reaction_action`: a 🤝 on an offer's message by one of its two parties is `Shake`; taking it off before the offer
  binds is `Unshake`; any other reaction, a 🤝 by a party who already shook (e.g. with `/kkk shake`, or the
  proposer, whose offer is their 🤝), a removal by the proposer (they withdraw instead) or after binding means
  nothing.
- `reaction_refused`: a 🤝 the engine refused (a void or replaced offer, over the deal's payout…) is answered in the
  thread with the engine's reason, mentioning the player; the platform takes the 🤝 off when it may.
- `action_refused`: the same line for a `/kkk shake` refused where a 🤝 would have been (a party not yet shaken on
  a live offer — in practice the shake that would push the promises past the deal's payout); the player also gets
  the refusal ephemerally. Other refused commands stay private.
- `reconcile_refs`: the messages of the offers not yet binding, so a 🤝 added (or taken off) while the bot was
  offline counts once it is back (the platform compares them with the reactions already heard of).
- `away_action`: the generic one (a player who is away passes in reaction windows and last calls).

The engine decides everything: every action built here goes through `GameService` and `game.apply`, which refuses
what the rules refuse, with the reason.
"""

from typing import Any

from bot.controls import Controls
from bot.games.kkk import posts, reading, refusals
from bot.games.kkk.i18n import _
from bot.presentation import Post, Table
from bot.service import Refusal
from engine.kkk import actions as A
from storage.models import MessageRef

SIMPLE_BUTTONS: dict[str, Any] = {
    "open": A.Open(),
    "roll": A.Roll(),
    "draw": A.Draw(),
    "close": A.Close(),
    "fail": A.Fail(),
}


class KkkControls(Controls):
    """The `/kkk` table's buttons and 🤝 reactions; see the module docstring."""

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if table.state is None:
            return None
        if key in SIMPLE_BUTTONS:
            return SIMPLE_BUTTONS[key]
        what, _sep, number = key.partition(":")
        if what not in ("pass", "stop", "cancel") or not number.isdigit():
            return super().button_action(table, seat, key)
        if reading.window_id(reading.public(table)) != int(number):
            raise Refusal(_("That window has already closed — see the latest messages in the thread."))
        return {"pass": A.Pass(), "stop": A.Stop(), "cancel": A.CancelClose()}[what]

    def reaction_allowed(self, table: Table, ref: MessageRef, seat: int | None, emoji: str) -> bool:
        key = _shake_key(table, ref, emoji)
        if key is None:
            return True  # not a 🤝 on an offer: it means nothing, and stays
        if seat is None:
            return False
        offer = reading.offer(reading.public(table), key[0])
        if offer is None:
            return False  # an offer of a round that is over (offer ids never repeat): nothing to agree to
        return key[1] == offer.reopened and seat in (offer.seller, offer.boss)

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool) -> Any | None:
        key = _shake_key(table, ref, emoji)
        if key is None:
            return None
        offer = reading.offer(reading.public(table), key[0])
        if offer is None or key[1] != offer.reopened or seat not in (offer.seller, offer.boss):
            return None
        if added:
            if offer.status == "binding" or (offer.status in ("open", "shaken") and seat in offer.shaken):
                return None  # already agreed (e.g. with `/kkk shake`, or by making it): the 🤝 only shows it
            return A.Shake(offer=offer.id)
        if offer.by_offer and seat == offer.proposer:
            return None  # their consent is the offer itself, not a 🤝: they withdraw it with `/kkk withdraw`
        if offer.status in ("open", "shaken") and seat in offer.shaken:
            return A.Unshake(offer=offer.id)
        return None  # after it binds (or if that side never shook), taking the 🤝 off changes nothing

    def reaction_refused(
        self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool, message: str
    ) -> Post | None:
        key = _shake_key(table, ref, emoji)
        if key is None or not added:
            return super().reaction_refused(table, ref, seat, emoji, added, message)
        return _shake_refused(table, seat, key[0], message)

    def reconcile_refs(self, table: Table) -> list[tuple[str, str, str]]:
        """The messages of the offers not yet binding: a 🤝 added or taken off there while the bot was offline is
        still a shake or an unshake (after binding, a removal changes nothing; a round that is over has none)."""
        if table.state is None:
            return []
        view = reading.public(table)
        if view.round is None:
            return []
        return [
            (posts.OFFER, posts.offer_key(o.id, o.reopened), posts.SHAKE)
            for o in view.round.offers
            if o.status in ("open", "shaken")
        ]

    def action_refused(self, table: Table, seat: int, action: Any, message: str) -> Post | None:
        """A `/kkk shake` refused where a 🤝 would have been (a party's shake on a live offer, e.g. over the deal's
        payout) is told to the table the same way; any other refusal stays the player's own."""
        if not isinstance(action, A.Shake) or table.state is None:
            return None
        offer = reading.offer(reading.public(table), action.offer)
        if offer is None or seat not in (offer.seller, offer.boss):
            return None
        if offer.status not in ("open", "shaken") or seat in offer.shaken:
            return None
        return _shake_refused(table, seat, offer.id, message)


def _shake_refused(table: Table, seat: int, offer_id: int, message: str) -> Post:
    """The thread's line for a refused shake, by 🤝 or by `/kkk shake`. The player is named, not mentioned: they
    just reacted and are looking (a ping for one's own click is noise, and without one the line joins the newest
    narration message instead of posting one more). Only the offer's proposer can withdraw it: the others aren't
    told to. The words are the refusal's own, found again by trying the shake on the table as it is (the engine
    refuses with a code, and a try changes nothing); `message` is the fallback."""
    why = refusals.reworded(table, seat, A.Shake(offer=offer_id), table.render(message), for_table=True)
    return Post(
        content=f"{posts.SHAKE} "
        + _(
            "%(who)s's shake on offer #%(offer)d doesn't count: %(why)s",
            who=table.names[seat],
            offer=offer_id,
            why=why,
        )
    )


def _shake_key(table: Table, ref: MessageRef, emoji: str) -> tuple[int, int] | None:
    """(offer id, reopening) for a 🤝 on an offer's message; None for anything else."""
    if ref.kind != posts.OFFER or emoji != posts.SHAKE or table.state is None:
        return None
    return posts.parse_offer_key(ref.key)
