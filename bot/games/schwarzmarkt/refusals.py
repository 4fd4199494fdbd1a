"""A refused move in words: every code the engine raises (`rule(code, **values)`), worded for the player who tried,
in the language being spoken, naming the fix. Seats in the values become the table's names."""

from collections.abc import Sequence
from typing import Any

from engine.errors import RuleError

from .i18n import _, n_
from .narration import asking_words
from .words import amount, event_name, good_name, goods_text


def kinds() -> str:
    """The five kinds, as a player may name them."""
    return _(
        "%(potatoes)s, %(flour)s, %(coffee)s, %(butter)s or %(sugar)s",
        potatoes=good_name("potatoes"),
        flour=good_name("flour"),
        coffee=good_name("coffee"),
        butter=good_name("butter"),
        sugar=good_name("sugar"),
    )


def _waiting(v: dict[str, Any], names: Sequence[str]) -> str:
    """What the game waits for (a refusal's `phase`, `seat`, `event`)."""
    who = _name(names, v.get("seat"))
    match v.get("phase"):
        case "play":
            return _("%(who)s is to play a black-market card", who=who)
        case "trade":
            return _("it's %(who)s's trading turn", who=who)
        case "event":
            return _("%(who)s is choosing for %(event)s", who=who, event=event_name(str(v.get("event"))))
    return _("the game is over")


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def words(error: RuleError, names: Sequence[str]) -> str | None:
    """The refusal in words, or None for a code that isn't Schwarzmarkt's own (the platform words those)."""
    v = error.values
    match error.code:
        case "player_count":
            return _(
                "Schwarzmarkt is for %(low)d to %(high)d players, not %(n)d.",
                low=v["low"],
                high=v["high"],
                n=v["seats"],
            )
        case "dealer_not_seated":
            return n_(
                "The dealer must be one of the %(n)d seat.", "The dealer must be one of the %(n)d seats.", v["seats"]
            )
        case "game_over":
            return _("The game is over.")
        case "clock_only":
            return _("Only the game's clock applies deadlines.")
        case "clock_deadlines_only":
            return _("The game's clock can only apply deadlines.")
        case "not_playing":
            return _("You're not playing in this game.")
        case "cannot_play_now":
            return _("You can't play a black-market card now — %(waiting)s.", waiting=_waiting(v, names))
        case "no_trading_round":
            return _("There's no trading round under way — %(waiting)s.", waiting=_waiting(v, names))
        case "not_your_trading_turn":
            return _("It's %(who)s's trading turn — yours comes in seat order.", who=_name(names, v.get("seat")))
        case "not_a_move":
            return _("That's not a Schwarzmarkt move.")
        case "stale_deadline":
            return _("That deadline has passed its moment — the game has moved on.")
        case "card_not_in_hand":
            return _("That black-market card isn't in your hand — play one of your own.")
        case "not_a_good":
            return _("“%(good)s” isn't a kind of goods — name %(kinds)s.", good=v.get("good"), kinds=kinds())
        case "offer_doesnt_want":
            nothing = _("nothing more")
            return _(
                "The offer doesn't want %(good)s (any more) — it still wants %(still)s.",
                good=good_name(str(v["good"])),
                still=goods_text(v["still"], nothing),
            )
        case "offer_wants_only":
            nothing = _("nothing more")
            return _(
                "The offer wants only %(goods)s more — it still wants %(still)s.",
                goods=amount(int(v["n"]), str(v["good"])),
                still=goods_text(v["still"], nothing),
            )
        case "shortage_one_card":
            return _("%(event)s is in force: you may trade at most one card this turn.", event=event_name("shortage"))
        case "not_enough_goods":
            return _("You have only %(goods)s in your hand.", goods=amount(int(v["n"]), str(v["good"])))
        case "last_call_stays":
            return _("The marker is on the round's last space: it stays there — trade (or not) and move 0.")
        case "trade_moves_one":
            return _("After a trade the price marker moves exactly 1 space.")
        case "move_at_least_one":
            return n_(
                "Without a trade you must move the marker 1 to %(n)d space.",
                "Without a trade you must move the marker 1 to %(n)d spaces.",
                int(v["top"]),
            )
        case "move_past_die":
            return _(
                "The die symbol on space %(space)d lets the marker move at most %(die)d.",
                space=v["space"],
                die=v["die"],
            )
        case "move_past_end":
            return _(
                "The marker can't go past space %(end)d, the end of this trading round: move at most %(top)d.",
                end=v["end"],
                top=v["top"],
            )
        case "target_self":
            return _("Choose another player — an event never targets yourself.")
        case "target_not_playing":
            return _("Choose a player who is in this game.")
        case "target_no_goods":
            return _("%(who)s has no goods cards — choose a player who has some.", who=_name(names, v.get("target")))
        case "no_such_good":
            return _("You have no %(good)s — choose a card from your own hand.", good=good_name(str(v["good"])))
        case "pile_lacks_good":
            return _("The goods pile has no %(good)s — choose a kind that is there.", good=good_name(str(v["good"])))
        case "give_one_or_two":
            return _("Give 1 or 2 of your goods cards.")
        case "target_holds_fewer":
            return n_(
                "%(who)s holds only %(n)d card: give no more than that.",
                "%(who)s holds only %(n)d cards: give no more than that.",
                int(v["n"]),
                who=_name(names, v.get("target")),
            )
        case "no_event_pending":
            return _("There's no event waiting for a choice right now.")
        case "not_your_event":
            return _(
                "It's %(who)s who chooses for %(event)s.",
                who=_name(names, v.get("seat")),
                event=event_name(str(v.get("event"))),
            )
        case "not_that_step":
            return _("Not that yet — %(task)s.", task=asking_words(dict(v), names))
        case "already_left":
            return _("%(who)s has already left the game.", who=_name(names, v.get("seat")))
    return None


CODES = (
    "player_count",
    "dealer_not_seated",
    "game_over",
    "clock_only",
    "clock_deadlines_only",
    "not_playing",
    "cannot_play_now",
    "no_trading_round",
    "not_your_trading_turn",
    "not_a_move",
    "stale_deadline",
    "card_not_in_hand",
    "not_a_good",
    "offer_doesnt_want",
    "offer_wants_only",
    "shortage_one_card",
    "not_enough_goods",
    "last_call_stays",
    "trade_moves_one",
    "move_at_least_one",
    "move_past_die",
    "move_past_end",
    "target_self",
    "target_not_playing",
    "target_no_goods",
    "no_such_good",
    "pile_lacks_good",
    "give_one_or_two",
    "target_holds_fewer",
    "no_event_pending",
    "not_your_event",
    "not_that_step",
    "already_left",
)
"""Every code Schwarzmarkt's engine raises (a test greps the engine for them)."""
