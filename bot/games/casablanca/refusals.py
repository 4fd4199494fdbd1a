"""A refused move in the reader's words: every code the engine raises (`engine/casablanca/`), naming the fix, and
the game's own options (`option_help`). The values are the engine's: agents by index, seats by number, buildings by
their map names (translated here), never anyone's secret amount."""

from typing import Any

from bot.presentation import Table
from engine.errors import RuleError

from .i18n import _, and_list, n_
from .maptext import colour_word, in_words, money, place


def _agents(table: Table) -> list[Any]:
    state = table.state
    if state is not None and hasattr(state, "agents"):
        return list(state.agents)
    return list(getattr(getattr(table.game, "map", None), "agents", []))


def refusal_words(table: Table, error: RuleError) -> str | None:
    """`error` as the player who tried reads it (None: not one of this game's codes)."""
    v = error.values
    agents = _agents(table)
    names = table.names

    def agent(key: str = "agent") -> str:
        i = v.get(key)
        return agents[i].name if isinstance(i, int) and 0 <= i < len(agents) else "?"

    def seat(key: str = "seat") -> str:
        s = v.get(key)
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "?"

    match error.code:
        case "no_such_agent":
            colours = ", ".join(colour_word(c) for c in v.get("colours", []))
            return _(
                "There's no agent “%(name)s” — name one by colour (%(colours)s) or by name.",
                name=v.get("name", ""),
                colours=colours,
            )
        case "no_such_building":
            return _(
                "There's no building “%(name)s” on the map — houses are 1 to 12, the HQs and the Bazaar.",
                name=v.get("name", ""),
            )
        case "not_in_steps" if v.get("what") == "limit":
            return _("A limit goes in steps of $100 (e.g. $300 or $1,200).")
        case "not_in_steps":
            return _("A bribe goes in steps of $100 (e.g. $300 or $1,200).")
        case "bribe_agent_out":
            return _("%(agent)s was hit and is out of the game — bribe an agent still in it.", agent=agent())
        case "agent_named_twice":
            return _("%(agent)s is named twice — give one amount per agent.", agent=agent())
        case "no_bribe_after_objection":
            return _(
                "An objection stopped you this turn, so you can't bribe any more — announce something else or end it."
            )
        case "bribe_nothing":
            return _("Put at least $100 on an agent.")
        case "variant_one_agent":
            return _("In the variant you bribe one agent per turn — pick one.")
        case "first_bribe_three":
            return _("Your first bribe must go on at least three different agents.")
        case "not_enough_capital":
            return _("You don't have that much capital left — bribe less (your sheet shows what you have).")
        case "agent_out":
            return _("%(agent)s was hit and is out of the game.", agent=agent())
        case "victim_out":
            return _("%(agent)s was already hit and is out of the game.", agent=agent("victim"))
        case "already_there":
            return _(
                "%(agent)s is already in %(building)s — a move goes along a street to another building.",
                agent=agent(),
                building=in_words(str(v.get("building"))),
            )
        case "not_adjacent":
            return _(
                "%(agent)s can't get from %(source)s to %(to)s in one move — try %(ways)s.",
                agent=agent(),
                source=in_words(str(v.get("source"))),
                to=in_words(str(v.get("to"))),
                ways=and_list([in_words(b) for b in v.get("ways", [])]),
            )
        case "no_suitcase_here":
            return _(
                "The suitcase isn't in %(building)s — %(agent)s can't take it along.",
                building=in_words(str(v.get("source"))),
                agent=agent(),
            )
        case "hit_itself":
            return _("An agent can't hit itself — pick another agent in the same building.")
        case "not_together":
            return _(
                "%(victim)s isn't in %(building)s with %(agent)s — an agent only hits one in the same building (and "
                "moving there is a turn of its own).",
                victim=agent("victim"),
                building=in_words(str(v.get("building"))),
                agent=agent(),
            )
        case "hit_needs_money":
            return _(
                "You need at least %(cost)s on %(agent)s to hit with them — a hit costs %(cost)s of that bribe.",
                cost=money(v.get("cost", 1_000)),
                agent=agent(),
            )
        case "already_stopped":
            return _("An objection already stopped that this turn — announce something else, or end your turn.")
        case "limit_above_bribe":
            return _(
                "You can't claim more than you have on %(agent)s — give a lower limit (your sheet shows your bribes).",
                agent=agent(),
            )
        case "window_still_open":
            return _("The window is still open — answer “no objection” instead (it stays secret until it closes).")
        case "no_objection_waiting":
            return _("You have no objection waiting to be taken.")
        case "objection_being_taken":
            return _("Your objection is being taken — %(player)s is deciding whether to contest it.", player=seat())
        case "nothing_to_object_to":
            return _("There's nothing to object to right now.")
        case "own_announcement":
            return _("You can't object to your own announcement — wait for the others' answers.")
        case "sheet_face_down":
            return _("Your sheet lies face down, so you can't object — you can again after your next turn.")
        case "not_asked":
            return _("You weren't asked about this announcement.")
        case "no_objection_to_answer":
            return _("There's no objection for you to answer right now.")
        case "not_your_announcement":
            return _("Only %(player)s contests or withdraws their own announcement.", player=seat())
        case "player_count" if v.get("variant"):
            count = int(v.get("count", 0))
            return n_(
                "The HQ variant of Casablanca is for %(least)d to %(most)d players, not %(n)d — with more players, "
                "play the main game (no `variant=hq`).",
                "The HQ variant of Casablanca is for %(least)d to %(most)d players, not %(n)d — with more players, "
                "play the main game (no `variant=hq`).",
                count,
                least=v.get("least", 2),
                most=v.get("most", 4),
            )
        case "player_count":
            count = int(v.get("count", 0))
            return n_(
                "Casablanca is for %(least)d to %(most)d players, not %(n)d.",
                "Casablanca is for %(least)d to %(most)d players, not %(n)d.",
                count,
                least=v.get("least", 2),
                most=v.get("most", 8),
            )
        case "variant_first_seat":
            return _("In the HQ variant the Police Station's owner begins — open it without `first_seat`.")
        case "first_seat_range":
            return _("The first player must be one of the %(seats)s seats.", seats=v.get("seats", "?"))
        case "game_over":
            return _("The game is over.")
        case "clock_only":
            return _("Only the game's clock applies deadlines.")
        case "clock_deadlines_only":
            return _("The game's clock can only apply deadlines.")
        case "not_playing":
            return _("You're not playing in this game.")
        case "not_a_move":
            return _("That's not a Casablanca move.")
        case "choose_hq_first":
            return _("First everyone chooses an HQ — it's %(player)s's turn to choose.", player=seat())
        case "announced_already":
            return _("You've announced something already — it's waiting for objections.")
        case "waiting_for_objections":
            return _("%(player)s's announcement is waiting for objections first.", player=seat())
        case "one_hit_per_turn":
            return _("One hit per turn — your hit ended your turn.")
        case "separate_turns" if v.get("deed") == "hit":
            return _("Moving and hitting are separate turns — your hit ended your turn.")
        case "separate_turns":
            return _("Moving and hitting are separate turns — your move ended your turn.")
        case "not_your_turn":
            return _("It's %(player)s's turn.", player=seat())
        case "first_turn_bribe":
            return _("Your first turn is a bribe of at least three agents — nothing else this turn.")
        case "hqs_chosen":
            return _("The HQs are already chosen.")
        case "not_your_hq_turn":
            return _("It's %(player)s's turn to choose an HQ — yours comes in seat order.", player=seat())
        case "not_an_hq":
            return _(
                "%(building)s isn't an HQ — choose one of %(free)s.",
                building=place(str(v.get("building"))),
                free=", ".join(place(b) for b in v.get("free", [])),
            )
        case "hq_taken":
            return _(
                "%(building)s is %(player)s's HQ — choose a free one.", building=place(str(v.get("hq"))), player=seat()
            )
        case "cannot_end_now":
            return _("You can't end your turn now.")
        case "end_turn_needs_objection":
            return _("A turn is a bribe, a move or a hit — you can end it without one only after an objection.")
        case "stale_deadline":
            return _("That deadline has passed its moment — the game has moved on.")
        case "deadline_not_due":
            return _("That deadline hasn't passed yet.")
        case "already_left":
            return _("%(player)s has already left the game.", player=seat())
    return None


def option_help(name: str) -> str | None:
    """What Casablanca's own option `name` does, in the language being spoken."""
    match name:
        case "variant":
            return _("`main`: the main game for 2–8 players; `hq`: the variant for 2–4 players, each owning an HQ")
        case "first_seat":
            return _("Main game only: who begins (not set: drawn at random); in the variant the Police Station begins")
        case "deal_hqs":
            return _("Variant only: deal the HQs at random instead of letting each player choose one in seat order")
    return None
