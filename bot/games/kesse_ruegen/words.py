"""Kesse Rügen's narration and refusals in words: the engine's events (`kind` + `data`) and rule errors (`code` +
`values`) as players read them, in the language being spoken (see `i18n`).

Seats become the table's names; a seat's tuber kind comes from the public view (the data file's names, said as the
glossary says them). Each refusal names the fix; a refusal about timing ("not now") adds what the game waits for,
from the public view of the state the move was refused on.
"""

from collections.abc import Sequence
from typing import Any

from engine.errors import MALFORMED_ACTION, UNKNOWN_ACTION, RuleError
from engine.events import Event
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.state import DuelResult
from engine.kesse_ruegen.views import PublicView

from .i18n import _, a_tuber, and_list, counted, kind_name, n_, or_list


class Speaker:
    """Words about one table: its names and each seat's tuber kind (from the public view)."""

    def __init__(self, view: PublicView, names: Sequence[str]) -> None:
        self.view = view
        self.names = list(names)

    def who(self, seat: Any) -> str:
        n = int(seat)
        return self.names[n] if 0 <= n < len(self.names) else str(n + 1)

    def kind(self, seat: int, *, plural: bool = True) -> str:
        p = self.view.players[seat]
        return kind_name(p.tuber, p.tubers, plural=plural)

    def a_tuber(self, seat: int) -> str:
        p = self.view.players[seat]
        return a_tuber(p.tuber, p.tubers)

    def counted(self, seat: int, n: int) -> str:
        p = self.view.players[seat]
        return counted(p.tuber, p.tubers, n)

    # --- narration ---------------------------------------------------------------------------------------

    def guess(self, seat: int, total: int) -> str:
        """A guess made by the player (not by the deadline's default)."""
        return _("%(who)s guesses %(total)d.", who=self.who(seat), total=total)

    def reveal(self, d: DuelResult) -> str:
        opened = _(
            "Fists open: %(challenger)s held %(held)d, %(challenged)s held %(other)d — total %(total)d.",
            challenger=self.who(d.challenger),
            held=d.challenger_choice,
            challenged=self.who(d.challenged),
            other=d.challenged_choice,
            total=d.total,
        )
        if d.winner is None:
            outcome = _("Nobody guessed right.")
        elif d.total == 0:
            outcome = _("%(who)s guessed right, but a total of 0 gives no actions.", who=self.who(d.winner))
        else:
            outcome = n_(
                "%(who)s guessed right and takes %(n)d action.",
                "%(who)s guessed right and takes %(n)d actions.",
                d.total,
                who=self.who(d.winner),
            )
        return f"{opened} {outcome}"

    def fists(self) -> str:
        return _("Both of you: secretly close your fist on 0, 1 or 2 tubers.")

    def event(self, event: Event) -> str | None:
        """One line of narration for an event (None: nothing to say)."""
        d = event.data
        kind = event.kind
        all_placed = _("All pawns are placed.") + " " if d.get("all_placed") else ""
        match kind:
            case "placed":
                if d.get("by_default"):
                    return _(
                        "Time's up: %(who)s's pawn goes to a random free field, %(square)s.",
                        who=self.who(d["seat"]),
                        square=d["square"],
                    )
                return _("%(who)s places their pawn on %(square)s.", who=self.who(d["seat"]), square=d["square"])
            case "turn":
                if d.get("step") == "place":
                    return _("%(who)s, place your pawn on a free field.", who=self.who(d["seat"]))
                return all_placed + _(
                    "%(who)s, it's your turn: challenge another player to a duel.", who=self.who(d["seat"])
                )
            case "challenged":
                a, b = self.who(d["challenger"]), self.who(d["challenged"])
                if d.get("automatic"):
                    said = _("%(who)s's turn: the duel with %(other)s is on (the only opponent).", who=a, other=b)
                else:
                    said = _("%(who)s challenges %(other)s to a duel!", who=a, other=b)
                return f"{all_placed}{said} {self.fists()}"
            case "chosen":
                return _("%(who)s's fist is closed.", who=self.who(d["seat"]))
            case "guess_now":
                return _("Both fists are closed. %(who)s, guess the total (0–4).", who=self.who(d["seat"]))
            case "guessed":
                total = int(d["total"])  # type: ignore[arg-type]
                if d.get("by_default"):
                    said = _("Time's up: %(who)s guesses %(total)d by default.", who=self.who(d["seat"]), total=total)
                else:
                    said = self.guess(int(d["seat"]), total)  # type: ignore[arg-type]
                if d.get("next") is not None:
                    said += " " + _(
                        "%(who)s, your guess — any number from 0 to 4 but %(total)d.",
                        who=self.who(d["next"]),
                        total=total,
                    )
                return said
            case "revealed":
                return self.reveal(DuelResult.model_validate(d))
            case "planted" | "moved" | "evicted" | "reclaimed":
                return self.action(kind, d)
            case "actions_lost":
                lost, who = int(d["lost"]), self.who(d["seat"])  # type: ignore[arg-type]
                match d.get("why"):
                    case "timeout":
                        return n_(
                            "Time's up for %(who)s — %(n)d action lost.",
                            "Time's up for %(who)s — %(n)d actions lost.",
                            lost,
                            who=who,
                        )
                    case "left":
                        return n_(
                            "%(who)s has left — %(n)d action lost.",
                            "%(who)s has left — %(n)d actions lost.",
                            lost,
                            who=who,
                        )
                return n_(
                    "%(who)s has no legal action left — %(n)d action lost.",
                    "%(who)s has no legal action left — %(n)d actions lost.",
                    lost,
                    who=who,
                )
            case "timeout":
                return _("Time's up: %(who)s challenged nobody, so the turn passes.", who=self.who(d["seat"]))
            case "won":
                seat = int(d["seat"])  # type: ignore[arg-type]
                return n_(
                    "%(who)s has %(tubers)s on %(n)d field and wins Kesse Rügen!",
                    "%(who)s has %(tubers)s on %(n)d fields and wins Kesse Rügen!",
                    int(d["fields"]),  # type: ignore[arg-type]
                    who=self.who(seat),
                    tubers=self.kind(seat),
                )
            case "stalled":
                return all_placed + self.stalled(list(d["winners"]), int(d["fields"]))  # type: ignore[arg-type]
            case "left":
                who = self.who(d["seat"])
                if d.get("stay"):
                    return _(
                        "%(who)s has left the game: their pawn leaves the board; their %(tubers)s stay where they are.",
                        who=who,
                        tubers=self.kind(int(d["seat"])),  # type: ignore[arg-type]
                    )
                return _("%(who)s has left the game: their pawn leaves the board.", who=who)
            case "duel_off":
                return _(
                    "The duel between %(challenger)s and %(challenged)s is off; no fist is shown.",
                    challenger=self.who(d["challenger"]),
                    challenged=self.who(d["challenged"]),
                )
        return None

    def stalled(self, winners: Sequence[int], fields: int) -> str:
        said = _("No player has a tuber left in their supply, so every duel would total 0: the game ends.")
        if len(winners) == 1:
            result = n_(
                "%(who)s has the most fields — tubers on %(n)d field — and wins Kesse Rügen!",
                "%(who)s has the most fields — tubers on %(n)d fields — and wins Kesse Rügen!",
                fields,
                who=self.who(winners[0]),
            )
        else:
            result = n_(
                "%(who)s share the win, each with tubers on %(n)d field.",
                "%(who)s share the win, each with tubers on %(n)d fields.",
                fields,
                who=and_list([self.who(w) for w in winners]),
            )
        return f"{said} {result}"

    def action(self, kind: str, d: dict[str, Any]) -> str:
        """An action taken, with the actions left ("… (2 actions left).")."""
        seat, left = int(d["seat"]), int(d.get("left") or 0)
        who = self.who(seat)
        match kind:
            case "planted":
                if left:
                    return n_(
                        "%(who)s plants %(tuber)s on %(square)s (%(n)d action left).",
                        "%(who)s plants %(tuber)s on %(square)s (%(n)d actions left).",
                        left,
                        who=who,
                        tuber=self.a_tuber(seat),
                        square=d["square"],
                    )
                return _(
                    "%(who)s plants %(tuber)s on %(square)s.", who=who, tuber=self.a_tuber(seat), square=d["square"]
                )
            case "moved":
                arrow = geometry.ARROWS.get(d.get("direction"), "")  # type: ignore[call-overload]
                if d.get("barn"):
                    if left:
                        return n_(
                            "%(who)s moves %(arrow)s into the barn (%(n)d action left).",
                            "%(who)s moves %(arrow)s into the barn (%(n)d actions left).",
                            left,
                            who=who,
                            arrow=arrow,
                        )
                    return _("%(who)s moves %(arrow)s into the barn.", who=who, arrow=arrow)
                if left:
                    return n_(
                        "%(who)s moves %(arrow)s to %(square)s (%(n)d action left).",
                        "%(who)s moves %(arrow)s to %(square)s (%(n)d actions left).",
                        left,
                        who=who,
                        arrow=arrow,
                        square=d["target"],
                    )
                return _("%(who)s moves %(arrow)s to %(square)s.", who=who, arrow=arrow, square=d["target"])
            case "evicted":
                owner = int(d["owner"])
                values = {"who": who, "owner": self.who(owner), "tuber": self.kind(owner, plural=False)}
                if left:
                    return n_(
                        "%(who)s evicts %(owner)s's %(tuber)s from %(square)s to the barn (%(n)d action left).",
                        "%(who)s evicts %(owner)s's %(tuber)s from %(square)s to the barn (%(n)d actions left).",
                        left,
                        square=d["square"],
                        **values,
                    )
                return _(
                    "%(who)s evicts %(owner)s's %(tuber)s from %(square)s to the barn.", square=d["square"], **values
                )
        # reclaimed
        if left:
            return n_(
                "%(who)s takes %(tuber)s from the barn back to their supply (%(n)d action left).",
                "%(who)s takes %(tuber)s from the barn back to their supply (%(n)d actions left).",
                left,
                who=who,
                tuber=self.a_tuber(seat),
            )
        return _("%(who)s takes %(tuber)s from the barn back to their supply.", who=who, tuber=self.a_tuber(seat))

    def private(self, event: Event) -> str | None:
        """A private event's words, for its seat alone."""
        d = event.data
        match event.kind:
            case "your_choice":
                held = self.counted(int(d["seat"]), int(d["tubers"]))  # type: ignore[arg-type]
                if d.get("by_default"):
                    return _(
                        "Time ran out, so your fist holds %(tubers)s (a random pick). Secret until the reveal.",
                        tubers=held,
                    )
                return _("Your fist holds %(tubers)s. Secret until the reveal.", tubers=held)
            case "your_fist_back":
                held = self.counted(int(d["seat"]), int(d["tubers"]))  # type: ignore[arg-type]
                return _("Your duel is off: your fist of %(tubers)s goes back unseen.", tubers=held)
        return None

    # --- what the game waits for, and refusals -----------------------------------------------------------

    def waiting(self) -> str:
        """What the game is waiting for, as a clause for refusals (public knowledge only)."""
        view = self.view
        duel = view.duel
        match view.phase:
            case "place":
                return _("it's %(who)s's turn to place a pawn", who=self.who(view.turn))
            case "challenge":
                return _("it's %(who)s's turn to challenge someone", who=self.who(view.turn))
            case "choose" if duel is not None:
                still = [self.who(s) for s in (duel.challenger, duel.challenged) if s not in duel.chosen]
                return _("waiting for %(who)s to close their fist", who=and_list(still))
            case "guess" if duel is not None:
                guesser = duel.challenger if duel.challenger_guess is None else duel.challenged
                return _("it's %(who)s's turn to guess", who=self.who(guesser))
            case "act" if view.actor is not None:
                return _("%(who)s is taking their actions", who=self.who(view.actor))
        return _("the game is over")

    def refusal(self, error: RuleError, seat: int | None = None) -> str | None:
        """A refusal's words, naming the fix; None for a code this game doesn't raise."""
        v = error.values
        code = error.code
        mine = seat if seat is not None else v.get("seat")
        match code:
            case "game_over":
                winners = [self.who(w) for w in v.get("winners") or []]
                if len(winners) == 1:
                    return _("The game is over — %(who)s won.", who=winners[0])
                if winners:
                    return _("The game is over — %(who)s share the win.", who=and_list(winners))
                return _("The game is over.")
            case "clock_only":
                return _("Only the game's clock applies deadlines.")
            case "clock_applies_deadlines_only":
                return _("The game's clock can only apply deadlines.")
            case "not_playing":
                return _("You're not playing in this game.")
            case "not_a_move":
                return _("That's not a Kesse Rügen move.")
            case "stale_deadline":
                return _("That deadline has passed its moment — the game has moved on.")
            case "all_placed":
                return _("All pawns are already placed — %(waiting)s.", waiting=self.waiting())
            case "not_your_placement":
                return _("It's %(who)s's turn to place a pawn — yours comes in seat order.", who=self.who(v["seat"]))
            case "no_such_square":
                return _(
                    "There's no square '%(square)s' — the board runs a1 to %(last)s.",
                    square=v["square"],
                    last=v["last"],
                )
            case "place_in_barn":
                return _("%(square)s is the barn — start your pawn on a field.", square=v["square"])
            case "place_taken":
                return _(
                    "%(who)s's pawn already stands on %(square)s — pick a free field.",
                    who=self.who(v["seat"]),
                    square=v["square"],
                )
            case "no_actions":
                return _("You have no actions to take — %(waiting)s.", waiting=self.waiting())
            case "not_an_action":
                return _("That's not an action.")
            case "nothing_to_finish":
                return _("You have nothing to finish — %(waiting)s.", waiting=self.waiting())
            case "must_take_actions":
                return n_(
                    "You must take all your actions — %(n)d action left. Done is only for when none is possible.",
                    "You must take all your actions — %(n)d actions left. Done is only for when none is possible.",
                    int(v["left"]),
                )
            case "plant_in_barn":
                return _("You can't plant in the barn — move your pawn onto a field first.")
            case "plant_own_tuber_there":
                return _(
                    "There's already your %(tuber)s on %(square)s — a field holds only one tuber.",
                    tuber=self.kind(int(v["seat"]), plural=False),
                    square=v["square"],
                )
            case "plant_field_taken":
                owner = int(v["owner"])
                return _(
                    "%(square)s already holds %(who)s's %(tuber)s — evict it first.",
                    square=v["square"],
                    who=self.who(owner),
                    tuber=self.kind(owner, plural=False),
                )
            case "plant_no_supply":
                return _(
                    "You have no %(tubers)s left in your supply — reclaim one from the barn first.",
                    tubers=self.kind(int(v["seat"])),
                )
            case "move_off_board":
                return _(
                    "You can't move %(arrow)s from %(square)s — that's off the board.",
                    arrow=geometry.ARROWS.get(v["direction"], v["direction"]),
                    square=v["square"],
                )
            case "move_onto_pawn":
                return _(
                    "%(who)s's pawn stands on %(square)s — you can't move onto another pawn's field.",
                    who=self.who(v["seat"]),
                    square=v["square"],
                )
            case "evict_in_barn":
                return _("You're in the barn — you can only evict a tuber from the field your pawn stands on.")
            case "evict_nothing":
                return _("There's no tuber on %(square)s to evict.", square=v["square"])
            case "evict_own":
                return _(
                    "That's your own %(tuber)s on %(square)s — you can only evict other players' tubers.",
                    tuber=self.kind(int(v["seat"]), plural=False),
                    square=v["square"],
                )
            case "reclaim_not_in_barn":
                return _(
                    "You can only reclaim from the barn — move your pawn into the barn (%(barn)s) first.",
                    barn=v["barn"],
                )
            case "reclaim_none_in_barn":
                return _("None of your %(tubers)s lies in the barn.", tubers=self.kind(int(v["seat"])))
            case "challenge_automatic":
                return _(
                    "With two players the challenge is automatic: your duel with %(who)s is already on — close "
                    "your fist.",
                    who=self.who(v["opponent"]),
                )
            case "cannot_challenge_now":
                return _("You can't challenge anyone now — %(waiting)s.", waiting=self.waiting())
            case "challenge_yourself":
                return _("You can't duel yourself — challenge one of the other players.")
            case "challenge_nobody":
                return _("Challenge a player who is in this game.")
            case "challenge_left":
                return _("%(who)s has left the game — challenge a player who is still in it.", who=self.who(v["seat"]))
            case "no_fist_now":
                return _("There's no fist to close now — %(waiting)s.", waiting=self.waiting())
            case "not_in_duel":
                return _(
                    "Only %(challenger)s and %(challenged)s are in this duel.",
                    challenger=self.who(v["challenger"]),
                    challenged=self.who(v["challenged"]),
                )
            case "fist_closed":
                return _("Your fist is already closed — it stays as it is until the reveal.")
            case "supply_too_small":
                have = int(v["have"])
                who = int(v["seat"]) if mine is None else int(mine)
                return _(
                    "You only have %(tubers)s in your supply — choose %(allowed)s.",
                    tubers=self.counted(who, have),
                    allowed=or_list([str(n) for n in v["options"]]),
                )
            case "choose_range":
                return _("Choose 0, 1 or 2 tubers.")
            case "no_guess_now":
                return _("It's not time to guess — %(waiting)s.", waiting=self.waiting())
            case "challenger_guesses_first":
                return _("%(who)s guesses first — then it's your turn.", who=self.who(v["challenger"]))
            case "not_your_guess":
                return _("It's %(who)s's turn to guess.", who=self.who(v["seat"]))
            case "guess_range":
                return _("Guess a total from 0 to 4.")
            case "guess_taken":
                return _(
                    "%(who)s already said %(total)d — pick a different number.",
                    who=self.who(v["challenger"]),
                    total=v["total"],
                )
            case "game_over_no_leaving":
                return _("The game is over — nobody needs to leave it.")
            case "already_left":
                return _("%(who)s has already left the game.", who=self.who(v["seat"]))
            case code if code in (UNKNOWN_ACTION, MALFORMED_ACTION):
                return None
        return None


REFUSAL_CODES = (
    "player_count",  # set-up refusals (no state yet): `presentation.REFUSALS_WITHOUT_STATE`
    "first_seat_out_of_range",
    "game_over",
    "clock_only",
    "clock_applies_deadlines_only",
    "not_playing",
    "not_a_move",
    "stale_deadline",
    "all_placed",
    "not_your_placement",
    "no_such_square",
    "place_in_barn",
    "place_taken",
    "no_actions",
    "not_an_action",
    "nothing_to_finish",
    "must_take_actions",
    "plant_in_barn",
    "plant_own_tuber_there",
    "plant_field_taken",
    "plant_no_supply",
    "move_off_board",
    "move_onto_pawn",
    "evict_in_barn",
    "evict_nothing",
    "evict_own",
    "reclaim_not_in_barn",
    "reclaim_none_in_barn",
    "challenge_automatic",
    "cannot_challenge_now",
    "challenge_yourself",
    "challenge_nobody",
    "challenge_left",
    "no_fist_now",
    "not_in_duel",
    "fist_closed",
    "supply_too_small",
    "choose_range",
    "no_guess_now",
    "challenger_guesses_first",
    "not_your_guess",
    "guess_range",
    "guess_taken",
    "game_over_no_leaving",
    "already_left",
)
"""Every refusal code the engine raises (`engine/kesse_ruegen/`): `Speaker.refusal` words each one."""
