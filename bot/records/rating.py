"""Ratings: a multiplayer rating per server and game, from openskill's Plackett-Luce model (Weng & Lin).

Each player has a skill estimate `mu` and an uncertainty `sigma` (a newcomer: 25 and 25/3); a rated game moves them
by where each seat finished against the others (ties share a place). The figure shown and ranked by is the
"ordinal", mu - 3 sigma: a newcomer starts at 0 and climbs as results prove them, so one lucky win doesn't top the
table. Computer players are rated like people, under their own names, and marked as such wherever ratings show.
Pure: the recorder (`bot.records.recorder`) reads the current ratings and stores what this returns.
"""

from openskill.models import PlackettLuce

from storage import GameResult, Rating, player_key

MODEL = PlackettLuce()


def rate(result: GameResult, current: dict[str, Rating]) -> tuple[list[Rating], list[tuple[int, str, float, float]]]:
    """The new ratings of a rated game's seat holders, and each seat's rating after it: (seat, key, mu, sigma).
    A rating is dated by the game that made it (not the moment it was computed), so a rebuild gives the same rows."""
    seats = [s for s in result.seats if s.rank is not None and (s.bot or s.id is not None)]
    keys = [player_key(s.id, s.name, s.bot) for s in seats]
    teams = []
    for key in keys:
        old = current.get(key)
        teams.append([MODEL.rating(mu=old.mu, sigma=old.sigma) if old else MODEL.rating()])
    rated = MODEL.rate(teams, ranks=[float(s.rank or 0) for s in seats])
    ratings: list[Rating] = []
    after: list[tuple[int, str, float, float]] = []
    for key, seat, (new,) in zip(keys, seats, rated, strict=True):
        old = current.get(key)
        ratings.append(
            Rating(
                guild_id=result.guild_id or 0,
                kind=result.kind,
                player=key,
                player_id=seat.id,
                name=seat.name,
                bot=seat.bot,
                mu=new.mu,
                sigma=new.sigma,
                ordinal=new.ordinal(),
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + (seat.rank == 1),
                updated_at=result.ended_at,
            )
        )
        after.append((seat.seat, key, new.mu, new.sigma))
    return ratings, after
