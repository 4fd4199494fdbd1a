"""The private buttons: what the seat the game waits on may do, on its hand DM (and on `/game hand`).

Keys are `sm.<wait>.<what>.<value>`: `<wait>` is the engine's `wait_no`, so a button of an earlier turn (an old
ephemeral answer kept open) is refused instead of acting on a later one. `<what>`:

- `c.<card>`: play this black-market card (the starter);
- `t.<counts>.<move>`: a trading turn — the goods traded as five digits (potatoes, flour, coffee, butter, sugar)
  and the marker's move. One button per amount of each wanted kind the seat holds, one for everything wanted it
  holds, and one per distance without a trade; any other mix is `/sm trade` (with autocomplete);
- `p.<seat>`: an event's player; `k.<kind>`: an event's kind of goods; `g.<counts>`: Forced Swap's cards to give.

Every trading turn gets the same buttons for the same hand whatever the others hold, and the table is asked in the
same words whoever is to trade (see `engine.schwarzmarkt.waits`).
"""

from typing import TYPE_CHECKING, Any, cast

from bot.presentation import Button
from bot.service import Refusal
from engine.schwarzmarkt.actions import Give, Pick, Play, Target, Trade
from engine.schwarzmarkt.market import GOODS, counts_of
from engine.schwarzmarkt.views import EventView, PublicView, SeatView

from .i18n import _
from .look import EMOJI, card_label, goods_line
from .words import amount, event_name, good_name

if TYPE_CHECKING:
    from bot.presentation import Table

PREFIX = "sm"


def seat_view(table: "Table", seat: int) -> SeatView:
    assert table.state is not None
    return cast(SeatView, table.game.view(table.state, seat))


def wait_no(table: "Table") -> int:
    return int(table.state.wait_no)  # type: ignore[union-attr]


def digits(counts: list[int]) -> str:
    return "".join(str(min(n, 9)) for n in counts)


def counts_text(counts: list[int]) -> str:
    return " + ".join(amount(n, g) for g, n in zip(GOODS, counts, strict=True) if n)


def legal(table: "Table", seat: int) -> list[Any]:
    assert table.state is not None
    return table.game.legal_actions(table.state, seat)


def buttons(table: "Table", seat: int) -> list[Button]:
    """The seat's buttons for what the game waits on it for (none when it waits on someone else)."""
    if table.state is None or table.record.status in ("finished", "abandoned", "paused"):
        return []
    actions = legal(table, seat)
    if not actions:
        return []
    w = wait_no(table)
    view = seat_view(table, seat)
    key = f"{PREFIX}.{w}"
    first = actions[0]
    if isinstance(first, Play):
        cards = {c.id: c for c in view.black_market}
        return [Button(card_label(cards[a.card])[:80], f"{key}.c.{a.card}", "primary") for a in actions]
    if isinstance(first, Trade):
        return trade_buttons(key, [a for a in actions if isinstance(a, Trade)])
    if isinstance(first, Target):
        return [Button(table.names[a.seat][:80], f"{key}.p.{a.seat}", "primary") for a in actions]
    if isinstance(first, Pick):
        event = view.event
        assert event is not None
        out = []
        for a in actions:
            label = good_name(a.good)
            if event.kind == "quick_deal":
                label = _("Trade %(goods)s for %(n)d luxury goods", goods=amount(1, a.good), n=view.quick_deal)
            elif event.kind == "new_goods" and view.pile_goods is not None:
                label = _("%(good)s (%(n)d in the pile)", good=label, n=view.pile_goods[a.good])
            out.append(Button(label, f"{key}.k.{GOODS.index(a.good)}", "primary", EMOJI[a.good]))  # type: ignore[arg-type]
        return out
    if isinstance(first, Give):
        return [
            Button(
                _("Give %(goods)s", goods=counts_text(counts_of(a.cards))),
                f"{key}.g.{digits(counts_of(a.cards))}",
                "primary",
            )
            for a in actions
            if isinstance(a, Give)
        ]
    return []


def trade_buttons(key: str, trades: list[Trade]) -> list[Button]:
    """One per amount of a single kind, one for every wanted card held (if that is a mix), one per distance."""
    sets = [counts_of(t.cards) for t in trades if t.cards]
    out: list[Button] = []
    singles = [c for c in sets if sum(1 for n in c if n) == 1]
    for counts in singles:
        good = GOODS[next(i for i, n in enumerate(counts) if n)]
        label = _("Sell %(goods)s", goods=counts_text(counts))
        out.append(Button(label, f"{key}.t.{digits(counts)}.{_after(trades)}", "success", EMOJI[good]))
    if sets:
        most = max(sets, key=sum)
        if most not in singles:
            label = _("Sell %(goods)s", goods=counts_text(most))
            out.append(Button(label, f"{key}.t.{digits(most)}.{_after(trades)}", "success", "💰"))
    for t in trades:
        if not t.cards:
            label = _("No trade (the marker stays)") if t.move == 0 else _("No trade, move %(n)d", n=t.move)
            out.append(Button(label, f"{key}.t.00000.{t.move}", "secondary"))
    return out[:25]


def _after(trades: list[Trade]) -> int:
    """The move that goes with a trade: 1, or 0 at the last call."""
    return 0 if any(t.move == 0 for t in trades) else 1


def action(table: "Table", seat: int, key: str) -> Any | None:
    """The engine action behind a prompt button; None if the key isn't one; `Refusal` for a stale one."""
    parts = key.split(".")
    if len(parts) < 4 or parts[0] != PREFIX or not parts[1].isdigit():
        return None
    if int(parts[1]) != wait_no(table):
        raise Refusal(_("Those buttons are from an earlier turn — `/game hand` shows what you can do now."))
    what, value = parts[2], parts[3]
    try:
        match what:
            case "c":
                return Play(card=int(value))
            case "t":
                return Trade(cards=_cards(value), move=int(parts[4]))
            case "p":
                return Target(seat=int(value))
            case "k":
                return Pick(good=GOODS[int(value)])
            case "g":
                return Give(cards=_cards(value))
    except (ValueError, IndexError):
        return None
    return None


def _cards(digits_: str) -> tuple[str, ...]:
    return tuple(g for g, d in zip(GOODS, digits_, strict=True) for _ in range(int(d)))


def question(table: "Table", seat: int) -> str | None:
    """What the game asks of this seat now, for its hand (None: nothing)."""
    view = seat_view(table, seat)
    if view.turn != seat or view.phase == "over" or seat in view.left:
        return None
    match view.phase:
        case "play":
            return _("🃏 **You start the trading round:** play one of your black-market cards.")
        case "trade":
            if view.last_call:
                return _(
                    "💱 **Your trading turn — last call at price %(price)d:** trade any wanted goods (or none); "
                    "the marker stays and the round ends after you.",
                    price=view.price,
                )
            return _(
                "💱 **Your trading turn at price %(price)d:** trade any wanted goods (or none), then move the "
                "marker. Another mix of cards: `/sm trade`.",
                price=view.price,
            )
        case "event":
            event = view.event
            assert event is not None
            text = asking(view, event, table.names)  # the same words the table reads
            extra = ""
            if event.kind == "new_goods" and view.pile_goods is not None:
                extra = "\n" + _("The goods pile (only you see it): %(goods)s", goods=goods_line(view.pile_goods))
            return f"⚡ **{event_name(event.kind)}:** {text[0].upper()}{text[1:]}.{extra}"
    return None


def asking(view: PublicView, event: EventView, names: "list[str] | tuple[str, ...]") -> str:
    """What an event's player is asked now, as an instruction to them (public: the table sees what is awaited)."""
    from .narration import asking_words

    about = {"event": event.kind, "step": event.step, "target": event.target}
    return asking_words({**about, "quick_deal": view.quick_deal, "cost": view.new_goods_cost}, names)
