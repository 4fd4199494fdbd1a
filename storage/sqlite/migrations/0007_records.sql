-- Schema 6: players' records (issue 32): what each finished game came to, each player's figures, the ratings.
--
-- Everything here is derived from the games' logs by the bot (`bot.records`: it replays a game with its engine) and
-- can be thrown away and rebuilt from them (`python -m bot rebuild-records`, `/mod records rebuild`): the logs stay
-- the only record. The tables start empty; at start-up the bot records every game that is over and has no result
-- yet, oldest first, so a database migrated here gets its records from its past games by itself.
--
-- - game_results: one row per started game that is over. `outcome` is 'finished' (by the rules) or 'ended' (by a
--   moderator: `/mod end`, or a removal the game could not go on without). `rated` says whether it counts for the
--   ratings (finished by the rules, two seats or more to compare); `rating_done` whether it has been counted, so a
--   game's ratings are applied exactly once, in the order games ended. `seats` is a JSON list, in seat order, of
--   who held each seat at the end ({"seat", "id", "name", "bot", "rank", "score"}), so that a page of history is
--   one indexed read.
-- - placements: one row per person (or computer player) per game: the seat's holder at the end (`held` 1, with
--   its rank), or someone who left during the game (`held` 0), with the figures of their own moves.
-- - player_stats: per person, server and game, the sums over their placements (refreshed with each game recorded),
--   so a profile is one read whatever the number of games.
-- - ratings: per server, game and player (`player`: "u<user id>", or "bot:<name>" for a computer player).
-- - player_settings: a person's choices about their record (a private profile).

CREATE TABLE game_results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id    INTEGER,
    kind        TEXT    NOT NULL,
    thread_id   INTEGER,
    started_at  TEXT    NOT NULL,
    ended_at    TEXT    NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('finished', 'ended')),
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rating_done INTEGER NOT NULL DEFAULT 0 CHECK (rating_done IN (0, 1)),
    moves       INTEGER NOT NULL,
    seats       TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL
);
-- `/game history`: a server's games, newest first.
CREATE INDEX game_results_guild ON game_results (guild_id, ended_at, game_id);
-- The games still to count for the ratings, in the order they ended.
CREATE INDEX game_results_to_rate ON game_results (ended_at, game_id) WHERE rated = 1 AND rating_done = 0;

CREATE TABLE placements (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    player_id INTEGER,
    name      TEXT    NOT NULL,
    bot       INTEGER NOT NULL CHECK (bot IN (0, 1)),
    held      INTEGER NOT NULL CHECK (held IN (0, 1)),
    rank      INTEGER,
    score     INTEGER,
    moves     INTEGER NOT NULL,
    answers   INTEGER NOT NULL,
    answer_s  REAL    NOT NULL,
    turns     INTEGER NOT NULL,
    missed    INTEGER NOT NULL,
    mu        REAL,
    sigma     REAL
);
CREATE INDEX placements_game ON placements (game_id, seat);
CREATE INDEX placements_player ON placements (player_id) WHERE player_id IS NOT NULL;

CREATE TABLE player_stats (
    player_id INTEGER NOT NULL,
    guild_id  INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    played    INTEGER NOT NULL,
    finished  INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    rank_sum  INTEGER NOT NULL,
    seats_sum INTEGER NOT NULL,
    left_     INTEGER NOT NULL,
    moves     INTEGER NOT NULL,
    answers   INTEGER NOT NULL,
    answer_s  REAL    NOT NULL,
    turns     INTEGER NOT NULL,
    missed    INTEGER NOT NULL,
    last_at   TEXT    NOT NULL,
    PRIMARY KEY (player_id, guild_id, kind)
) WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    player    TEXT    NOT NULL,
    player_id INTEGER,
    name      TEXT    NOT NULL,
    bot       INTEGER NOT NULL CHECK (bot IN (0, 1)),
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    ordinal   REAL    NOT NULL,
    games     INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    updated_at TEXT   NOT NULL,
    PRIMARY KEY (guild_id, kind, player)
) WITHOUT ROWID;
-- `/game top`: a server's best at a game.
CREATE INDEX ratings_top ON ratings (guild_id, kind, ordinal);
CREATE INDEX ratings_player ON ratings (player_id) WHERE player_id IS NOT NULL;

CREATE TABLE player_settings (
    player_id  INTEGER PRIMARY KEY,
    private    INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
    updated_at TEXT    NOT NULL
);
