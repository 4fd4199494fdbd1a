"""The secret choice: "how many tubers in your fist?" with buttons 0 / 1 / 2 (only what the supply allows).

The buttons are platform buttons (`bot.presentation.Button`, persistent `GameButton`s) with the key
`fist.<duel>.<tubers>`, offered in three places, all rendered here:

- on the duellist's hand message (`private_view`): the platform delivers it through the outbox with the commit
  that opened the duel, so the buttons arrive however the challenge came about (`/kr duel`, `/game move`, a
  moderator's undo back into the choice), survive restarts, and disappear when the hand is next edited (the fist
  closed, by a click or by the deadline's default of 0);
- in `/game hand` and the status message's **My hand** (the same hand, ephemerally);
- in the private answer to the status message's **Choose in secret** button (`button_reply`) and to `/kr choose` —
  the way for a player whose DMs are closed, shown to the clicker alone.

A click closes the fist through the platform (`button_action` → `Choose`, under the game's lock, committed before
anyone is told); the clicked message then turns into the seat's hand, which now says what the fist holds. The
duel's number in the key makes a click on an older prompt (an ephemeral one kept open) harmless: it is refused
with the reason and changes nothing.
"""

from typing import TYPE_CHECKING, cast

from bot.presentation import Button, Post
from bot.service import Refusal
from engine.kesse_ruegen.actions import Choose, Guess
from engine.kesse_ruegen.views import SeatView

from .board import colours
from .i18n import _, counted, kind_name, or_list

if TYPE_CHECKING:
    from bot.presentation import Table

FIST = "fist"
"""Key of the status message's "Choose in secret" button (answered privately)."""
GUESS = "guess"
"""Prefix of a guess button on the guesser's hand (`guess.<duel>.<total>`)."""


def seat_view(table: "Table", seat: int) -> SeatView:
    assert table.state is not None
    return cast(SeatView, table.game.view(table.state, seat))


def choice_options(table: "Table", seat: int) -> list[int]:
    """The numbers this seat may close its fist on now (from the engine's legal actions)."""
    assert table.state is not None
    return [a.tubers for a in table.game.legal_actions(table.state, seat) if isinstance(a, Choose)]


def awaiting_fist(table: "Table", seat: int) -> bool:
    view = seat_view(table, seat)
    duel = view.duel
    return (
        view.phase == "choose"
        and duel is not None
        and seat in (duel.challenger, duel.challenged)
        and seat not in duel.chosen
    )


def question(table: "Table", seat: int) -> str:
    """The question, for the seat's eyes only (its own supply is public anyway)."""
    view = seat_view(table, seat)
    duel = view.duel
    assert duel is not None
    names = table.names
    me = view.players[seat]
    other = duel.challenged if seat == duel.challenger else duel.challenger
    if sum(not p.left for p in view.players) == 2:  # the challenge is automatic: nobody chose anyone
        opening = _("Your duel with **%(who)s** is on!", who=names[other])
    elif seat == duel.challenger:
        opening = _("You challenged **%(who)s** to a duel!", who=names[other])
    else:
        opening = _("**%(who)s** challenges you to a duel!", who=names[other])
    options = choice_options(table, seat)
    allowed = or_list([str(n) for n in options])
    ask = _(
        "Close your fist in secret: how many %(tubers)s %(shape)s?",
        tubers=kind_name(me.tuber, me.tubers),
        shape=colours(view)[seat].tuber,
    )
    if len(options) == 3:
        choose = _("Choose %(allowed)s.", allowed=allowed)
    else:
        choose = _("Choose %(allowed)s (you have only %(supply)d in your supply).", allowed=allowed, supply=me.supply)
    secret = _("Only you see this; the table learns it at the reveal.")
    return f"⚔️ {opening} {ask} {choose} {secret}"


def fist_line(view: SeatView, duel: int, other: str, held: int) -> str:
    """A closed fist, in words that stay true after the reveal (the hand DM isn't edited for the reveal)."""
    me = view.players[view.seat]
    return "✊ " + _(
        "Duel #%(number)d vs **%(who)s**: you closed your fist on **%(tubers)s**",
        number=duel,
        who=other,
        tubers=counted(me.tuber, me.tubers, held),
    )


def prompt_text(table: "Table", seat: int) -> str:
    """The question with the game and its thread, for a message that stands on its own (an ephemeral answer)."""
    if table.record.thread_id:
        thread = f"<#{table.record.thread_id}>"
        return _(
            "**%(title)s** in %(thread)s: %(question)s",
            title=table.title,
            thread=thread,
            question=question(table, seat),
        )
    return f"**{table.title}**: {question(table, seat)}"


def closed_already(held: int) -> str:
    return _("Your fist is already closed on %(held)d — it stays that way until the reveal.", held=held)


def fist_key(duel: int, tubers: int) -> str:
    return f"{FIST}.{duel}.{tubers}"


def fist_buttons(table: "Table", seat: int) -> list[Button]:
    """The seat's choice buttons, or none when its fist isn't awaited."""
    if not awaiting_fist(table, seat):
        return []
    duel = seat_view(table, seat).duels
    return [Button(str(n), fist_key(duel, n), "primary") for n in choice_options(table, seat)]


def fist_post(table: "Table", seat: int) -> Post:
    """The private answer with the seat's choice buttons, or a `Refusal` saying why there is none."""
    view = seat_view(table, seat)
    duel = view.duel
    if duel is None:
        raise Refusal(_("There's no fist to close right now — that comes after a challenge."))
    if seat not in (duel.challenger, duel.challenged):
        names = table.names
        raise Refusal(
            _(
                "Only %(challenger)s and %(challenged)s are in this duel.",
                challenger=names[duel.challenger],
                challenged=names[duel.challenged],
            )
        )
    if view.my_choice is not None:
        raise Refusal(closed_already(view.my_choice))
    if not awaiting_fist(table, seat):
        raise Refusal(_("There's no fist to close right now — that comes after a challenge."))
    return Post(content=prompt_text(table, seat), buttons=fist_buttons(table, seat))


def fist_action(table: "Table", seat: int, key: str) -> Choose | None:
    """The `Choose` behind a fist button (`fist.<duel>.<tubers>`); None if the key isn't one; a `Refusal` for a
    button of a duel that is over or a fist that is already closed."""
    parts = key.split(".")
    if len(parts) != 3 or parts[0] != FIST or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    view = seat_view(table, seat)
    duel = view.duel
    if view.duels != int(parts[1]) or duel is None or seat not in (duel.challenger, duel.challenged):
        raise Refusal(_("That duel is over — these buttons no longer count."))
    if view.my_choice is not None:
        raise Refusal(closed_already(view.my_choice))
    return Choose(tubers=int(parts[2]))


# --- the guesses ------------------------------------------------------------------------------------------
# A duel is played in its duellists' DMs: the fists there, and the guesses too — the guesser's hand carries a button
# for each total still free, and the hand comes down to them as a new DM when it's their guess
# (`KesseRuegenPresentation.prompt_in_hand`). The guess is public: the thread tells it, as after `/kr guess`.


def guess_buttons(table: "Table", seat: int) -> list[Button]:
    """The guesser's buttons, one per total still free; none when the seat isn't the one to guess."""
    assert table.state is not None
    totals = [a.total for a in table.game.legal_actions(table.state, seat) if isinstance(a, Guess)]
    duel = seat_view(table, seat).duels
    return [Button(str(n), f"{GUESS}.{duel}.{n}", "primary") for n in sorted(totals)]


def guess_question(table: "Table", seat: int) -> str:
    """What the guesser reads on their hand: both fists are closed, or the other's guess to avoid."""
    view = seat_view(table, seat)
    duel = view.duel
    assert duel is not None
    names = table.names
    if duel.challenger_guess is None:
        return "🔢 " + _(
            "Both fists are closed. Guess the total in both fists (yours and **%(who)s**'s), 0–4:",
            who=names[duel.challenged],
        )
    return "🔢 " + _(
        "**%(who)s** guessed %(guess)d. Your guess — any total 0–4 but %(guess)d:",
        who=names[duel.challenger],
        guess=duel.challenger_guess,
    )


def guess_action(table: "Table", seat: int, key: str) -> Guess | None:
    """The `Guess` behind a guess button; None if the key isn't one; a `Refusal` for a duel that is over."""
    parts = key.split(".")
    if len(parts) != 3 or parts[0] != GUESS or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    if seat_view(table, seat).duels != int(parts[1]):
        raise Refusal(_("That duel is over — these buttons no longer count."))
    return Guess(total=int(parts[2]))
