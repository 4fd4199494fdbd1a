-- Schema 2: a commit writes fewer pages (measured by benchmarks/store.py).
--
-- 1. A game's snapshot and timers move into its games row, which every commit rewrites anyway:
--    - `state`: the snapshot (the engine's JSON after entry `version`; NULL in the lobby), kept last in the row and
--      never selected when listing games, so it is read only by get_snapshot;
--    - `timers`: a JSON list of {"id", "kind", "due_at", "payload", "created_at"}, and `next_due`, the soonest
--      due time, indexed for the scheduler (storage/timerlist.py). A timer's id is (game id << 24) + n, n counted
--      by `timer_seq` and never reused, so a scheduler holding an old id can never delete a newer timer.
--    The snapshots and timers tables go. (Timers get new ids here; they are only held while the bot runs.)
-- 2. The outbox keeps only what is still to deliver, in rowid order with no other index; delivering moves a row
--    to outbox_delivered, where it stays until pruned. Ids stay unique across both tables.

ALTER TABLE games ADD COLUMN timer_seq INTEGER NOT NULL DEFAULT 0 CHECK (timer_seq < 16777216);
ALTER TABLE games ADD COLUMN timers TEXT NOT NULL DEFAULT '[]';
ALTER TABLE games ADD COLUMN next_due TEXT;
ALTER TABLE games ADD COLUMN state TEXT;

UPDATE games SET state = (SELECT s.state FROM snapshots AS s WHERE s.game_id = games.id);

CREATE TEMP TABLE numbered_timers AS
SELECT game_id, kind, due_at, payload, created_at,
       (game_id << 24) + row_number() OVER (PARTITION BY game_id ORDER BY due_at, id) AS new_id,
       row_number() OVER (PARTITION BY game_id ORDER BY due_at, id) AS n
FROM timers;

UPDATE games SET
    timers = (
        SELECT json_group_array(json_object('id', t.new_id, 'kind', t.kind, 'due_at', t.due_at,
                                            'payload', json(t.payload), 'created_at', t.created_at))
        FROM numbered_timers AS t WHERE t.game_id = games.id
    ),
    next_due = (SELECT min(t.due_at) FROM numbered_timers AS t WHERE t.game_id = games.id),
    timer_seq = (SELECT max(t.n) FROM numbered_timers AS t WHERE t.game_id = games.id)
WHERE id IN (SELECT game_id FROM numbered_timers);

DROP TABLE numbered_timers;
DROP TABLE timers;
DROP TABLE snapshots;

-- The scheduler's index: which game has the soonest timer.
CREATE INDEX games_next_due ON games (next_due) WHERE next_due IS NOT NULL;

DROP INDEX outbox_pending;
DROP INDEX outbox_delivered;  -- its name is taken by the new table
CREATE TABLE outbox_delivered (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER REFERENCES games (id),
    kind         TEXT    NOT NULL,
    target       TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    attempts     INTEGER NOT NULL,
    last_error   TEXT,
    delivered_at TEXT    NOT NULL
);
CREATE INDEX outbox_delivered_at ON outbox_delivered (delivered_at);

INSERT INTO outbox_delivered (id, game_id, kind, target, payload, created_at, attempts, last_error, delivered_at)
SELECT id, game_id, kind, target, payload, created_at, attempts, last_error, delivered_at
FROM outbox WHERE delivered_at IS NOT NULL;

DELETE FROM outbox WHERE delivered_at IS NOT NULL;
ALTER TABLE outbox DROP COLUMN delivered_at;
