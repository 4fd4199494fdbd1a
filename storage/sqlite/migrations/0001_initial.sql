-- Boardroom store, schema 1: games, snapshots, seats, the append-only action log, timers, outbox,
-- message references and per-server settings. Timestamps are ISO 8601 text in UTC with microseconds
-- ("2025-01-31T12:00:00.000000+00:00"), so text order is time order. JSON columns hold compact JSON text.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER,
    thread_id   INTEGER,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'paused', 'finished', 'abandoned')),
    options     TEXT    NOT NULL DEFAULT '{}',
    seed        INTEGER,
    seat_count  INTEGER,
    setup_at    TEXT,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_by  INTEGER,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    finished_at TEXT
);
-- Start-up lists the open games through this index, whatever the number of finished ones.
CREATE INDEX games_status ON games (status);
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_guild ON games (guild_id, status);

-- Kept apart from `games` so that listing games never pages through the (large) states.
CREATE TABLE snapshots (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    version INTEGER NOT NULL,
    state   TEXT    NOT NULL
);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    player_id    INTEGER,
    display_name TEXT    NOT NULL DEFAULT '',
    dm_ok        INTEGER CHECK (dm_ok IN (0, 1)),
    away_until   TEXT,
    joined_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_player ON seats (player_id) WHERE player_id IS NOT NULL;

-- The append-only log, clustered by game: seq runs 1, 2, 3… per game; after entry seq the game's version is seq.
CREATE TABLE action_log (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT    NOT NULL CHECK (kind IN ('action', 'undo', 'note')),
    actor_seat INTEGER,
    user_id    INTEGER,
    action     TEXT,
    events     TEXT    NOT NULL DEFAULT '[]',
    at         TEXT    NOT NULL,
    undo_to    INTEGER,
    note       TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seq),
    CHECK ((kind = 'action') = (action IS NOT NULL)),
    CHECK ((kind = 'undo') = (undo_to IS NOT NULL)),
    CHECK (undo_to IS NULL OR (undo_to >= 0 AND undo_to < seq))
) WITHOUT ROWID;

-- Defence in depth: whatever the code does, the database keeps the log append-only and gap-free.
CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: entries are never updated');
END;
CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: entries are never deleted');
END;
CREATE TRIGGER action_log_no_gap BEFORE INSERT ON action_log
WHEN NEW.seq <> 1 + coalesce((SELECT max(seq) FROM action_log WHERE game_id = NEW.game_id), 0)
BEGIN
    SELECT RAISE(ABORT, 'the action log must stay gap-free: seq must follow the last entry');
END;

-- Deadlines, reminders, reaction windows. Not a record: fired or replaced timers are deleted.
CREATE TABLE timers (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    kind       TEXT    NOT NULL,
    due_at     TEXT    NOT NULL,
    payload    TEXT    NOT NULL DEFAULT '{}',
    created_at TEXT    NOT NULL
);
CREATE INDEX timers_due ON timers (due_at);
CREATE INDEX timers_game ON timers (game_id, kind);

-- Messages still to post or edit (delivered_at NULL), and those delivered (pruned after a while).
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games (id),
    kind         TEXT    NOT NULL,
    target       TEXT    NOT NULL DEFAULT '{}',
    payload      TEXT    NOT NULL DEFAULT '{}',
    created_at   TEXT    NOT NULL,
    delivered_at TEXT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT
);
CREATE INDEX outbox_pending ON outbox (id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_delivered ON outbox (delivered_at) WHERE delivered_at IS NOT NULL;

-- What a Discord message stands for: status message, hand messages, offers ("Shake!").
CREATE TABLE message_refs (
    message_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    game_id    INTEGER REFERENCES games (id),
    kind       TEXT    NOT NULL,
    seat       INTEGER,
    key        TEXT    NOT NULL DEFAULT '',
    created_at TEXT    NOT NULL
);
CREATE UNIQUE INDEX message_refs_what ON message_refs (ifnull(game_id, -1), kind, ifnull(seat, -1), key);

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    moderator_role_id INTEGER,
    turn_deadline_s   REAL,
    reaction_time_s   REAL,
    updated_at        TEXT NOT NULL
);
