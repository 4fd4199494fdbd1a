"""The lobby message: who has joined, the table's options, and the Join / Leave / Start buttons.

It is the platform's (the same for every game) and is edited in place on every join and leave; once the game has
started it says so, points to the table thread and loses its buttons. It lists the table's settings: the length of
each kind of reaction window, only for a game that has them (`bot.reaction_windows.summary`), an option that names a
player (e.g. the first player) by that person's name.

Computer players are listed by name (with their 🤖: they have no Discord user to mention, and their level unless
normal), and a game that has them (`engine.policy`) gets the buttons "Add a computer player" (while there is room)
and "Remove a computer player" (while there is one): the lobby's creator or a moderator uses them. "Add" answers
privately with one big button per level (`level_choice`): one more tap on a phone, and the lobby keeps one Add
button however many levels there are.
"""

from collections.abc import Sequence
from datetime import timedelta

from bot import game_options, reaction_windows
from bot.i18n import LANGUAGE_NAMES
from bot.i18n.platform import N_, _, n_
from bot.names import shown
from bot.presentation import Button, Post, Table
from bot.table import speaking_at
from engine.options import GameOptions
from engine.policy import LEVELS, Level, policy_for
from storage import SeatRecord


def _duration(td: timedelta) -> str:
    minutes = int(td.total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        return n_("%(n)d day", "%(n)d days", minutes // (24 * 60))
    if minutes % 60 == 0:
        return n_("%(n)d hour", "%(n)d hours", minutes // 60)
    return n_("%(n)d minute", "%(n)d minutes", minutes)


ADD_BOT = "addbot"
REMOVE_BOT = "dropbot"
"""The keys of the lobby's buttons for computer players (answered in `bot.lobby_buttons`)."""
LEVEL_WORDS: dict[Level, tuple[str, str]] = {
    "easy": (N_("Easy"), N_("a gentle opponent for learning the game")),
    "normal": (N_("Normal"), N_("plays to win, a fair match for most players")),
    "hard": (N_("Hard"), N_("the strongest: it calculates its bluffs and timing")),
}
"""Each level's button label and its one-line description in the level choice (translated where shown)."""


def add_bot_key(level: Level) -> str:
    """The key of the level choice's button that adds a computer player at `level`."""
    return f"{ADD_BOT}:{level}"


def added_level(key: str) -> Level | None:
    """The level a level choice's button adds (None: not such a button)."""
    prefix, _colon, level = key.partition(":")
    return next((x for x in LEVELS if x == level), None) if prefix == ADD_BOT else None


def level_choice() -> Post:
    """The private answer to "Add a computer player": which level, one button each."""
    lines = "\n".join(f"**{_(label)}**: {_(what)}" for label, what in LEVEL_WORDS.values())
    return Post(
        content=_("How well should the computer player play?") + f"\n{lines}",
        buttons=[
            Button(_(label), add_bot_key(level), "primary" if level == "normal" else "secondary", "🤖")
            for level, (label, _what) in LEVEL_WORDS.items()
        ],
    )


def _seated(seat: SeatRecord) -> str:
    """A person by mention; a computer player by its name (it has no Discord user), which carries its 🤖."""
    return f"<@{seat.player_id}>" if seat.player_id is not None else shown(seat.display_name)


def _bot_buttons(table: Table, max_seats: int) -> list[Button]:
    """Add (while there is room) and remove (while there is one) a computer player, for a game that has them."""
    if policy_for(table.game) is None:
        return []
    buttons = []
    if len(table.seats) < max_seats:
        buttons.append(Button(_("Add a computer player"), ADD_BOT, "secondary", "🤖"))
    if any(s.bot for s in table.seats):
        buttons.append(Button(_("Remove a computer player"), REMOVE_BOT, "secondary"))
    return buttons


def turn_deadline_text(options: GameOptions) -> str:
    """The table's turn deadline in words: a duration or a daily time, its time zone, and weekends off."""
    if options.deadline is not None:
        at = f"{options.deadline:%H:%M}"
        if options.weekdays_only:
            return _("daily %(at)s (%(zone)s), weekends off", at=at, zone=options.timezone)
        return _("daily %(at)s (%(zone)s)", at=at, zone=options.timezone)
    text = _duration(options.turn_deadline)
    if options.weekdays_only:
        return _("%(length)s, weekends off (%(zone)s)", length=text, zone=options.timezone)
    return text


def lobby_post(table: Table, *, random_order: bool, picks: Sequence[tuple[str, game_options.PlayerPick]] = ()) -> Post:
    """The lobby message, in the table's language wherever it is shown (`/game new`, a rematch, the notifier)."""
    with speaking_at(table.record):
        return _lobby_post(table, random_order=random_order, picks=picks)


def _lobby_post(table: Table, *, random_order: bool, picks: Sequence[tuple[str, game_options.PlayerPick]]) -> Post:
    game, record = table.game, table.record
    options = game.parse_options(record.options)
    max_seats = table.lobby_max or game.max_seats
    joined = [s for s in table.seats if s.player_id is not None]
    players = "\n".join(f"{i + 1}. {_seated(s)}" for i, s in enumerate(table.seats)) or _("nobody yet")
    thread = f"<#{record.thread_id}>" if record.thread_id else _("the thread below")
    windows = reaction_windows.summary(game, options)
    parts = [
        _("Seats: %(least)d–%(most)d", least=game.min_seats, most=max_seats),
        _("turn deadline %(deadline)s", deadline=turn_deadline_text(options)),
        *([windows] if windows else []),
        _("seat order random") if random_order else _("seat order as joined"),
        _("away: %(mode)s", mode=_(AWAY_WORDS[options.away]) if options.away in AWAY_WORDS else options.away),
    ]
    marks = game_options.player_fields(game)
    for name, pick in picks:
        if name in marks:
            parts.append(f"{marks[name].label}: {pick.shown(joined)}")
    own = game_options.chosen(game, record.options)
    if own:
        parts.append(_("options: %(options)s", options=", ".join(own)))
    settings = " · ".join(parts)
    footer = _("Game #%(id)d · %(game)s", id=record.id, game=game.name)
    footer += f" · {LANGUAGE_NAMES.get(options.language, options.language)}"
    title = f"{game.title} #{record.id}"
    if record.status == "lobby":
        return Post(
            title=_("%(title)s — looking for players", title=title),
            description=_(
                "Opened by %(creator)s. %(settings)s.\n\n**Players (%(count)d/%(most)d)**\n%(players)s\n\n"
                "Press **Join** to take a seat; the table plays in %(thread)s.",
                creator=f"<@{record.created_by}>",
                settings=settings,
                count=len(table.seats),
                most=max_seats,
                players=players,
                thread=thread,
            ),
            footer=footer,
            colour=0x38A169,
            buttons=[
                Button(_("Join"), "join", "success"),
                Button(_("Leave"), "leave", "secondary"),
                Button(_("Start"), "start", "primary"),
                *_bot_buttons(table, max_seats),
            ],
        )
    if not record.started:  # closed before it started: by its creator, a moderator, or idleness
        return Post(
            title=_("%(title)s — closed", title=title),
            description=_("This lobby was closed before the game started. `/game new` opens a new one."),
            footer=footer,
            colour=0x718096,
        )
    names = ", ".join(table.names)
    state = _(STATE_WORDS[record.status])
    won = ""
    if record.status in ("finished", "abandoned") and table.state is not None:
        result = table.result or game.standings(table.state)  # type: ignore[arg-type]
        winners = _(" and ").join(f"**{table.names[s]}**" for s in result.winners)
        if table.result is not None:
            won = "\n" + _("🏆 Won by %(winners)s.", winners=winners)
        else:
            won = "\n" + _("🏆 Leading when it ended: %(winners)s.", winners=winners)
    return Post(
        title=f"{title} — {state}",
        description=_("Players: %(names)s. The table is in %(thread)s.", names=names, thread=thread) + won,
        footer=footer,
        colour=0x718096,
    )


STATE_WORDS = {"active": N_("under way"), "paused": N_("paused"), "finished": N_("finished"), "abandoned": N_("ended")}
"""A started game's state on its lobby message."""
AWAY_WORDS = {"pause": N_("pause"), "autopilot": N_("autopilot")}
"""The table's `away` option in words."""
