"""The lobby message: who has joined, the table's options, and the Join / Leave / Start buttons.

It is the platform's (the same for every game) and is edited in place on every join and leave; once the game has
started it says so, points to the table thread and loses its buttons. It lists the table's settings: the reaction
time only for a game that has reaction windows (`Game.uses_reaction_time`), an option that names a player (e.g. the
first player) by that person's name.
"""

from collections.abc import Sequence
from datetime import timedelta

from bot import game_options
from bot.presentation import Button, Post, Table


def _duration(td: timedelta) -> str:
    minutes = int(td.total_seconds() // 60)
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def lobby_post(table: Table, *, random_order: bool, picks: Sequence[tuple[str, game_options.PlayerPick]] = ()) -> Post:
    game, record = table.game, table.record
    options = game.parse_options(record.options)
    max_seats = table.lobby_max or game.max_seats
    joined = [s for s in table.seats if s.player_id is not None]
    players = "\n".join(f"{i + 1}. <@{s.player_id}>" for i, s in enumerate(joined)) or "nobody yet"
    thread = f"<#{record.thread_id}>" if record.thread_id else "the thread below"
    reaction = f"reaction time {_duration(options.reaction_time)} · " if game.uses_reaction_time else ""
    settings = (
        f"Seats: {game.min_seats}–{max_seats} · turn deadline {_duration(options.turn_deadline)} · "
        f"{reaction}seat order {'random' if random_order else 'as joined'}"
    )
    marks = game_options.player_fields(game)
    for name, pick in picks:
        if name in marks:
            settings += f" · {marks[name].label}: {pick.shown(joined)}"
    own = game_options.chosen(game, record.options)
    if own:
        settings += " · options: " + ", ".join(own)
    footer = f"Game #{record.id} · {game.name}"
    if record.status == "lobby":
        return Post(
            title=f"{game.title} #{record.id} — looking for players",
            description=(
                f"Opened by <@{record.created_by}>. {settings}.\n\n**Players ({len(joined)}/{max_seats})**\n{players}"
                f"\n\nPress **Join** to take a seat; the table plays in {thread}."
            ),
            footer=footer,
            colour=0x38A169,
            buttons=[
                Button("Join", "join", "success"),
                Button("Leave", "leave", "secondary"),
                Button("Start", "start", "primary"),
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
