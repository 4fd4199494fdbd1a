"""A refused move in the player's words, naming the fix: every code the KKK engine raises (`engine.errors.rule`).

The engine refuses with a code and its values (seats as seat numbers, families as letters, cards as codes); this
module words each one in the language being spoken. `CODES` lists them all: a test checks it against the engine's
`raise rule(...)` sites, and that each has words.
"""

from collections.abc import Callable, Mapping
from typing import Any

from bot.games.kkk import telling
from bot.games.kkk.i18n import _, n_
from bot.games.kkk.words import and_list, card, card_with_article, family, money, or_list
from bot.presentation import Table
from engine.errors import RuleError

Words = Callable[[Mapping[str, Any], telling.Who], str]


def _i(v: Any) -> int:
    return v if isinstance(v, int) else 0


def _offer_name(v: Mapping[str, Any]) -> str:
    if v.get("binding"):
        return _("Agreement #%(offer)d", offer=_i(v.get("offer")))
    return _("Offer #%(offer)d", offer=_i(v.get("offer")))


def _status(status: Any) -> str:
    return {
        "withdrawn": _("withdrawn"),
        "void": _("void"),
        "replaced": _("replaced"),
        "binding": _("binding"),
        "open": _("open"),
        "shaken": _("open"),
    }.get(str(status), str(status))


def _move(move: Any) -> str:
    return {"open": _("open a deal"), "roll": _("roll"), "draw": _("draw")}.get(str(move), str(move))


def _cannot_close(v: Mapping[str, Any], who: telling.Who) -> str:
    parts = [family(f) for f in v.get("lacking") or []]
    more = _i(v.get("more"))
    if more:
        group = "/".join(family(f) for f in v.get("group") or [])
        parts.append(_("%(n)d more of %(group)s", n=more, group=group))
    return _(
        "You can't close yet: you still need %(missing)s. Your own investors, your played clan cards and the cards "
        "under binding agreements count.",
        missing=and_list(parts),
    )


def _fail_pending(v: Mapping[str, Any], who: telling.Who) -> str:
    e = v.get("effect") if isinstance(v.get("effect"), dict) else {}
    boss = e.get("kind") == "boss"  # type: ignore[union-attr]
    if v.get("own"):
        if boss:
            return _(
                "You can't fail the deal yet: your own Boss card is pending. Wait until its window closes; if you are "
                "still the Boss then, you can declare the deal failed."
            )
        return _(
            "You can't fail the deal yet: your own recruitment triple is pending. Wait until its window closes; then "
            "you can declare the deal failed."
        )
    what = telling.effect_of(v, who)
    if boss:
        return _(
            "You can't fail the deal yet: %(effect)s is pending (a Boss card takes effect unless STOPped). STOP it, or "
            "wait until its window closes; if you are still the Boss then, you can declare the deal failed.",
            effect=what,
        )
    return _(
        "You can't fail the deal yet: %(effect)s is pending (a recruitment triple takes effect unless STOPped). STOP "
        "it, or wait until its window closes; then you can declare the deal failed.",
        effect=what,
    )


def _shake_over_payout(v: Mapping[str, Any], who: telling.Who, *, may_withdraw: bool = True) -> str:
    values = {
        "offer": _i(v.get("offer")),
        "would": money(_i(v.get("would"))),
        "payout": money(_i(v.get("payout"))),
        "promised": money(_i(v.get("promised"))),
    }
    fam = v.get("family")
    if fam:
        values["family"] = family(fam)
        if may_withdraw:
            return _(
                "Shaking on #%(offer)d would promise %(would)s, but the deal pays only %(payout)s (%(promised)s "
                "already promised): make a lower counter-offer to #%(offer)d for the same %(family)s card (it "
                "replaces this one), or withdraw this one.",
                **values,
            )
        return _(
            "Shaking on #%(offer)d would promise %(would)s, but the deal pays only %(payout)s (%(promised)s already "
            "promised): make a lower counter-offer to #%(offer)d for the same %(family)s card (it replaces this one).",
            **values,
        )
    if may_withdraw:
        return _(
            "Shaking on #%(offer)d would promise %(would)s, but the deal pays only %(payout)s (%(promised)s already "
            "promised): make a lower counter-offer to #%(offer)d for a smaller share (it replaces this one), or "
            "withdraw this one.",
            **values,
        )
    return _(
        "Shaking on #%(offer)d would promise %(would)s, but the deal pays only %(payout)s (%(promised)s already "
        "promised): make a lower counter-offer to #%(offer)d for a smaller share (it replaces this one).",
        **values,
    )


def _not_enough(v: Mapping[str, Any], who: telling.Who) -> str:
    return n_(
        "That takes %(count)d × %(card)s; you hold %(n)d.",
        "That takes %(count)d × %(card)s; you hold %(n)d.",
        _i(v.get("held")),
        count=_i(v.get("count")),
        card=card(str(v.get("card"))),
    )


def _no_round(v: Mapping[str, Any], who: telling.Who) -> str:
    if v.get("turn") is None:
        return _("No negotiation round is open: offers and shakes wait until the player to move opens a deal.")
    return _(
        "No negotiation round is open: offers and shakes wait until the player to move opens a deal (%(who)s is to "
        "move).",
        who=who(_i(v.get("turn"))),
    )


def _family_not_needed(v: Mapping[str, Any], who: telling.Who) -> str:
    return _(
        "This deal (space %(space)d) has no use for %(family)s.",
        space=_i(v.get("space")),
        family=family(v.get("family")),
    )


WORDS: dict[str, Words] = {
    # the game and the system
    "game_over": lambda v, w: _("The game is over."),
    "system_timeouts_only": lambda v, w: _("The system can only apply timeouts."),
    "not_seated": lambda v, w: _("You're not seated in this game."),
    "timer_only": lambda v, w: _("Only the game's timer can apply a timeout."),
    "stale_timer": lambda v, w: _("That timer is stale: the game has moved on."),
    "deadline_not_passed": lambda v, w: _("That deadline hasn't passed yet."),
    "player_count": lambda v, w: _(
        "Kohle, Kies & Knete is for %(low)d to %(high)d players, not %(n)d.",
        low=_i(v.get("low")),
        high=_i(v.get("high")),
        n=_i(v.get("seats")),
    ),
    "no_such_player": lambda v, w: _("There is no such player: name one of the players at this table."),
    # set-up and turns
    "marker_placed_already": lambda v, w: _("The dollar marker has already been placed."),
    "not_placer": lambda v, w: _("%(who)s places the dollar marker.", who=w(_i(v.get("placer")))),
    "no_such_space": lambda v, w: _(
        "Pick a space from %(low)d to %(high)d.", low=_i(v.get("low")), high=_i(v.get("high"))
    ),
    "marker_first": lambda v, w: _("First %(who)s places the dollar marker.", who=w(_i(v.get("placer")))),
    "round_open": lambda v, w: _("A negotiation round is open: this is for a turn without one."),
    "recruit_pending": lambda v, w: _("Wait until the recruitment triple on the table is resolved: STOP it or pass."),
    "not_your_turn": lambda v, w: _(
        "It's %(who)s's turn — you can %(move)s when it's yours.", who=w(_i(v.get("turn"))), move=_move(v.get("move"))
    ),
    "rolled_already": lambda v, w: _("You've rolled already: open the deal here or draw 3 cards."),
    "roll_first": lambda v, w: _("Roll first: you may draw 3 cards only after rolling (or open the deal here)."),
    # hands and the hand limit
    "not_held": lambda v, w: _("You don't hold %(card)s.", card=card_with_article(str(v.get("card")))),
    "not_enough_cards": _not_enough,
    "over_hand_limit": lambda v, w: n_(
        "First get down to %(limit)d cards: discard %(n)d or play a recruitment triple.",
        "First get down to %(limit)d cards: discard %(n)d or play a recruitment triple.",
        _i(v.get("extra")),
        limit=_i(v.get("limit")),
    ),
    "waiting_for_discard": lambda v, w: _(
        "Waiting for %(who)s to get down to %(limit)d cards.", who=w(_i(v.get("seat"))), limit=_i(v.get("limit"))
    ),
    "no_discard_needed": lambda v, w: _(
        "You don't need to discard: you hold %(limit)d cards or fewer.", limit=_i(v.get("limit"))
    ),
    "unknown_cards": lambda v, w: _("Unknown card code: %(cards)s.", cards=", ".join(map(str, v.get("cards") or []))),
    "discard_exactly": lambda v, w: n_(
        "You hold %(held)d cards: discard exactly %(n)d (or play a recruitment triple).",
        "You hold %(held)d cards: discard exactly %(n)d (or play a recruitment triple).",
        _i(v.get("extra")),
        held=_i(v.get("held")),
    ),
    # offers and agreements
    "no_round": _no_round,
    "offer_to_whom": lambda v, w: _("As the Boss, say who the offer is for."),
    "offer_to_self": lambda v, w: _("You can't make an offer to yourself."),
    "offer_to_boss": lambda v, w: _(
        "Only the Boss pays out of this deal: make your offer to %(boss)s.", boss=w(_i(v.get("boss")))
    ),
    "family_not_needed": _family_not_needed,
    "you_lack_family": lambda v, w: _(
        "You have no %(family)s on the table to offer: an investor of yours not on travel, or a clan card you have "
        "played.",
        family=family(v.get("family")),
    ),
    "seller_lacks_family": lambda v, w: _(
        "%(who)s has no %(family)s on the table to offer.", who=w(_i(v.get("seller"))), family=family(v.get("family"))
    ),
    "over_payout": lambda v, w: _(
        "That's more than the whole deal pays (%(payout)s).", payout=money(_i(v.get("payout")))
    ),
    "no_such_offer": lambda v, w: _("There is no offer #%(offer)d in this round.", offer=_i(v.get("offer"))),
    "counter_same_thing": lambda v, w: (
        _(
            "%(name)s is about %(family)s: a counter-offer to it is about the same, so leave the family out (or make a "
            "new offer without countering).",
            name=_offer_name(v),
            family=family(v.get("family")),
        )
        if v.get("family")
        else _(
            "%(name)s is about a share without a card: a counter-offer to it is about the same, so leave the family "
            "out (or make a new offer without countering).",
            name=_offer_name(v),
        )
    ),
    "counter_same_pair": lambda v, w: _(
        "%(name)s is between %(who)s and the Boss: only they can counter it, with an offer between the same two.",
        name=_offer_name(v),
        who=w(_i(v.get("seller"))),
    ),
    "counter_dead": lambda v, w: _(
        "Offer #%(offer)d is %(status)s: there is nothing to counter. Make a new offer instead.",
        offer=_i(v.get("offer")),
        status=_status(v.get("status")),
    ),
    "counter_not_party": lambda v, w: _(
        "Only %(seller)s and the Boss %(boss)s can counter #%(offer)d.",
        seller=w(_i(v.get("seller"))),
        boss=w(_i(v.get("boss"))),
        offer=_i(v.get("offer")),
    ),
    "shake_not_party": lambda v, w: _(
        "Only %(seller)s and the Boss %(boss)s can shake on offer #%(offer)d.",
        seller=w(_i(v.get("seller"))),
        boss=w(_i(v.get("boss"))),
        offer=_i(v.get("offer")),
    ),
    "shake_binding": lambda v, w: _("Offer #%(offer)d is already binding.", offer=_i(v.get("offer"))),
    "shake_dead": lambda v, w: _(
        "Offer #%(offer)d is %(status)s: make a new offer.", offer=_i(v.get("offer")), status=_status(v.get("status"))
    ),
    "shake_own_offer": lambda v, w: _(
        "Making offer #%(offer)d was your 🤝 already: it binds when %(who)s shakes.",
        offer=_i(v.get("offer")),
        who=w(_i(v.get("other"))),
    ),
    "shaken_already": lambda v, w: _(
        "You've already shaken on #%(offer)d: waiting for %(who)s.", offer=_i(v.get("offer")), who=w(_i(v.get("other")))
    ),
    "shake_over_payout": _shake_over_payout,
    "unshake_binding": lambda v, w: _(
        "Offer #%(offer)d is already binding: removing your 🤝 changes nothing.", offer=_i(v.get("offer"))
    ),
    "unshake_dead": lambda v, w: _(
        "Offer #%(offer)d is %(status)s.", offer=_i(v.get("offer")), status=_status(v.get("status"))
    ),
    "not_shaken": lambda v, w: _("You haven't shaken on #%(offer)d.", offer=_i(v.get("offer"))),
    "unshake_own_offer": lambda v, w: _(
        "Offer #%(offer)d is your own: making it was your 🤝. To take it back, withdraw it.", offer=_i(v.get("offer"))
    ),
    "withdraw_not_party": lambda v, w: _(
        "Only %(seller)s and the Boss %(boss)s can withdraw offer #%(offer)d.",
        seller=w(_i(v.get("seller"))),
        boss=w(_i(v.get("boss"))),
        offer=_i(v.get("offer")),
    ),
    "withdraw_binding": lambda v, w: _(
        "Offer #%(offer)d is binding: it stands until the round ends or the Boss changes.", offer=_i(v.get("offer"))
    ),
    "withdraw_dead": lambda v, w: _(
        "Offer #%(offer)d is already %(status)s.", offer=_i(v.get("offer")), status=_status(v.get("status"))
    ),
    # cards in a round
    "no_round_for_cards": lambda v, w: _(
        "Cards can be played only while a deal is open (or to get down to %(limit)d cards).", limit=_i(v.get("limit"))
    ),
    "only_stop_now": lambda v, w: _(
        "%(effect)s is pending: only a STOP may be played until its window closes.", effect=telling.effect_of(v, w)
    ),
    "investor_not_beside": lambda v, w: _(
        "The %(family)s investor isn't beside the board: name the player whose card it is.",
        family=family(v.get("family")),
    ),
    "clan_not_beside": lambda v, w: _("Clan cards lie in front of players, not beside the board."),
    "travel_which": lambda v, w: _(
        "%(who)s has both the %(family)s investor and a %(family)s clan card on the table: say which one goes on "
        "travel.",
        who=w(_i(v.get("seat"))),
        family=family(v.get("family")),
    ),
    "nothing_to_travel": lambda v, w: _(
        "%(who)s has no %(family)s investor or %(family)s clan card on the table.",
        who=w(_i(v.get("seat"))),
        family=family(v.get("family")),
    ),
    "not_investor_owner": lambda v, w: _(
        "%(who)s doesn't own the %(family)s investor.", who=w(_i(v.get("seat"))), family=family(v.get("family"))
    ),
    "no_clan_on_table": lambda v, w: _(
        "%(who)s has no %(family)s clan card on the table.", who=w(_i(v.get("seat"))), family=family(v.get("family"))
    ),
    "already_on_travel": lambda v, w: _(
        "The %(family)s investor is already on travel.", family=family(v.get("family"))
    ),
    "use_joker": lambda v, w: _(
        "You don't hold a %(family)s travel card; you can play your travel joker instead.",
        family=family(v.get("family")),
    ),
    "recruit_clan": lambda v, w: _("Clan cards can't be recruited: a recruitment triple takes an investor card."),
    "own_investor": lambda v, w: _("You already own the %(family)s investor.", family=family(v.get("family"))),
    "recruit_beside_first": lambda v, w: _(
        "While investors lie beside the board, a recruitment must take one of those first: %(families)s.",
        families=or_list([family(f) for f in v.get("families") or []]),
    ),
    "boss_card_newest": lambda v, w: _("Your Boss card is already the newest one."),
    "already_boss": lambda v, w: _("You're already the Boss."),
    "stop_on_stop": lambda v, w: _("A STOP can't be stopped."),
    "nothing_to_stop": lambda v, w: _(
        "There's nothing to STOP right now: a STOP answers a pending travel, recruitment or Boss card."
    ),
    "stop_own_card": lambda v, w: _("You can't STOP your own card."),
    # passing
    "nothing_to_pass": lambda v, w: _("There's nothing to pass on right now."),
    "own_card_pass": lambda v, w: _("It's your own card: the others decide whether to STOP it."),
    "own_last_call_pass": lambda v, w: _("It's your own last call: wait for the others, or call it off."),
    "already_passed": lambda v, w: _(
        "You've already passed; waiting for %(who)s.", who=and_list([w(_i(s)) for s in v.get("waiting") or []])
    ),
    "no_round_for_always_pass": lambda v, w: _("Always-pass lasts for a negotiation round, and none is open."),
    "always_pass_already": lambda v, w: _("You already pass on everything for the rest of this round."),
    "always_pass_not_set": lambda v, w: _("You haven't set always-pass."),
    # closing and failing
    "only_boss_close": lambda v, w: _("Only the Boss (%(boss)s) can close the deal.", boss=w(_i(v.get("boss")))),
    "close_pending": lambda v, w: _("A played card is still pending: wait until its window closes, then close."),
    "last_call_running": lambda v, w: _("Your last call is already running."),
    "cannot_close_yet": _cannot_close,
    "only_boss_cancel": lambda v, w: _(
        "Only the Boss (%(boss)s) can call off their last call.", boss=w(_i(v.get("boss")))
    ),
    "no_last_call": lambda v, w: _("There is no last call to cancel."),
    "only_boss_fail": lambda v, w: _(
        "Only the Boss (%(boss)s) can declare the deal failed.", boss=w(_i(v.get("boss")))
    ),
    "fail_pending": _fail_pending,
    # the Boss's own assignment
    "assigned_twice": lambda v, w: _(
        "%(family)s is assigned twice: a family counts once.", family=family(v.get("family"))
    ),
    "no_agreement_with": lambda v, w: _(
        "You have no binding agreement with %(who)s for %(family)s.",
        who=w(_i(v.get("seat"))),
        family=family(v.get("family")),
    ),
    "investor_on_travel": lambda v, w: _("The %(family)s investor is on travel.", family=family(v.get("family"))),
    "assignment_leaves_out": lambda v, w: _(
        "The assignment leaves out %(families)s.", families=and_list([family(f) for f in v.get("families") or []])
    ),
    "group_count": lambda v, w: _(
        "Assign exactly %(k)d of %(group)s (you assigned %(n)d).",
        k=_i(v.get("k")),
        group="/".join(family(f) for f in v.get("group") or []),
        n=_i(v.get("assigned")),
    ),
}
CODES = frozenset(WORDS)
"""Every refusal code of the KKK engine."""


def refusal_words(table: Table, error: RuleError, *, seat: int | None = None) -> str:
    """`error` as the player who tried reads it, in the language being spoken; `seat` (who tried) refines the advice
    where it depends on them (only an offer's proposer is told to withdraw it)."""
    words = WORDS.get(error.code)
    if words is None:
        return table.render(error.message)  # not one of ours (e.g. the platform's unreadable action)
    who = telling.plain(table.names)
    if error.code == "shake_over_payout" and seat is not None:
        offer = error.values.get("offer")
        proposer = _proposer(table, offer)
        return _shake_over_payout(error.values, who, may_withdraw=proposer is None or proposer == seat)
    return words(error.values, who)


def _proposer(table: Table, offer: Any) -> int | None:
    from bot.games.kkk import reading

    if table.state is None or not isinstance(offer, int):
        return None
    found = reading.offer(reading.public(table), offer)
    return found.proposer if found is not None else None


def reworded(table: Table, seat: int, action: Any, fallback: str, *, for_table: bool = False) -> str:
    """The words of the refusal `action` met on `table` (tried again: a try changes nothing), or `fallback` if it
    goes through now. For the places that hold only the refusal's fallback message, not its code and values.
    `for_table`: the words the table hears (advice only the player themselves may follow is left out)."""
    from datetime import UTC, datetime

    if table.state is None:
        return fallback
    try:
        table.game.apply(table.state, seat, action, datetime.now(UTC))
    except RuleError as exc:
        return refusal_words(table, exc, seat=seat if for_table else None)
    return fallback
