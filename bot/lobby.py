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
from bot.names import shown
from bot.presentation import Button, Post, Table
from engine.options import GameOptions
from engine.policy import LEVELS, Level, policy_for
from storage import SeatRecord


def _duration(td: timedelta) -> str:
    minutes = int(td.total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


ADD_BOT = "addbot"
REMOVE_BOT = "dropbot"
"""The keys of the lobby's buttons for computer players (answered in `bot.lobby_buttons`)."""
LEVEL_WORDS: dict[Level, tuple[str, str]] = {
    "easy": ("Easy", "a gentle opponent for learning the game"),
    "normal": ("Normal", "plays to win, a fair match for most players"),
    "hard": ("Hard", "the strongest: it calculates its bluffs and timing"),
}
"""Each level's button label and its one-line description in the level choice."""


def add_bot_key(level: Level) -> str:
    """The key of the level choice's button that adds a computer player at `level`."""
    return f"{ADD_BOT}:{level}"


def added_level(key: str) -> Level | None:
    """The level a level choice's button adds (None: not such a button)."""
    prefix, _, level = key.partition(":")
    return next((x for x in LEVELS if x == level), None) if prefix == ADD_BOT else None


def level_choice() -> Post:
    """The private answer to "Add a computer player": which level, one button each."""
    lines = "\n".join(f"**{label}**: {what}" for label, what in LEVEL_WORDS.values())
    return Post(
        content=f"How well should the computer player play?\n{lines}",
        buttons=[
            Button(label, add_bot_key(level), "primary" if level == "normal" else "secondary", "🤖")
            for level, (label, _) in LEVEL_WORDS.items()
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
        buttons.append(Button("Add a computer player", ADD_BOT, "secondary", "🤖"))
    if any(s.bot for s in table.seats):
        buttons.append(Button("Remove a computer player", REMOVE_BOT, "secondary"))
    return buttons


def turn_deadline_text(options: GameOptions) -> str:
    """The table's turn deadline in words: a duration or a daily time, its time zone, and weekends off."""
    if options.deadline is not None:
        text = f"daily {options.deadline:%H:%M} ({options.timezone})"
    else:
        text = _duration(options.turn_deadline)
    if options.weekdays_only:
        text += ", weekends off" + ("" if options.deadline is not None else f" ({options.timezone})")
    return text


def lobby_post(table: Table, *, random_order: bool, picks: Sequence[tuple[str, game_options.PlayerPick]] = ()) -> Post:
    game, record = table.game, table.record
    options = game.parse_options(record.options)
    max_seats = table.lobby_max or game.max_seats
    joined = [s for s in table.seats if s.player_id is not None]
    players = "\n".join(f"{i + 1}. {_seated(s)}" for i, s in enumerate(table.seats)) or "nobody yet"
    thread = f"<#{record.thread_id}>" if record.thread_id else "the thread below"
    windows = reaction_windows.summary(game, options)
    reaction = f"{windows} · " if windows else ""
    settings = (
        f"Seats: {game.min_seats}–{max_seats} · turn deadline {turn_deadline_text(options)} · "
        f"{reaction}seat order {'random' if random_order else 'as joined'} · away: {options.away}"
    )
    marks = game_options.player_fields(game)
    for name, pick in picks:
        if name in marks:
            settings += f" · {marks[name].label}: {pick.shown(joined)}"
    own = game_options.chosen(game, record.options)
    if own:
        settings += " · options: " + ", ".join(own)
    footer = f"Game #{record.id} · {game.name} · {LANGUAGE_NAMES.get(options.language, options.language)}"
    if record.status == "lobby":
        return Post(
            title=f"{game.title} #{record.id} — looking for players",
            description=(
                f"Opened by <@{record.created_by}>. {settings}.\n\n**Players ({len(table.seats)}/{max_seats})**\n"
                f"{players}"
                f"\n\nPress **Join** to take a seat; the table plays in {thread}."
            ),
            footer=footer,
            colour=0x38A169,
            buttons=[
                Button("Join", "join", "success"),
                Button("Leave", "leave", "secondary"),
                Button("Start", "start", "primary"),
                *_bot_buttons(table, max_seats),
            ],
        )
    if not record.started:  # closed before it started: by its creator, a moderator, or idleness
        return Post(
            title=f"{game.title} #{record.id} — closed",
            description="This lobby was closed before the game started. `/game new` opens a new one.",
            footer=footer,
            colour=0x718096,
        )
    names = ", ".join(table.names)
    state = {"active": "under way", "paused": "paused", "finished": "finished", "abandoned": "ended"}[record.status]
    won = ""
    if record.status in ("finished", "abandoned") and table.state is not None:
        result = table.result or game.standings(table.state)  # type: ignore[arg-type]
        winners = " and ".join(f"**{table.names[s]}**" for s in result.winners)
        won = f"\n🏆 {'Won by' if table.result is not None else 'Leading when it ended:'} {winners}."
    return Post(
        title=f"{game.title} #{record.id} — {state}",
        description=f"Players: {names}. The table is in {thread}.{won}",
        footer=footer,
        colour=0x718096,
    )
