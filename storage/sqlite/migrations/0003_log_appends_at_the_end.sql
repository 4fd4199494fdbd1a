-- Schema 3: a commit's log entry is appended at the end of the file instead of inside it (measured by
-- benchmarks/store.py).
--
-- The log was clustered by (game, seq) (WITHOUT ROWID): with several games under way, every entry went into the
-- middle of the tree, and a full page split across its neighbours, so a commit wrote about three pages of log.
-- Now the rows go in insertion order (rowid) and a unique index on (game_id, seq) finds a game's entries: the
-- entry lands on the last page of the table and one small index entry; rows up to a page long stay on their
-- page instead of overflowing at 1 KB. Reading a whole game's log reads more pages (its entries are spread among
-- the other games'), which only replay, undo and export do.
--
-- The same guarantees, kept by the database whatever the code does:
-- - append-only: entries are never updated or deleted (triggers, as before);
-- - gap-free: an entry after the first needs its predecessor (same game, seq - 1) to be there, and (game, seq) is
--   unique, so a game's entries are always exactly 1…n. This replaces the check `seq = 1 + max(seq)`: the same
--   rule, found with one lookup of the new index.

CREATE TABLE action_log_v3 (
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
    CHECK ((kind = 'action') = (action IS NOT NULL)),
    CHECK ((kind = 'undo') = (undo_to IS NOT NULL)),
    CHECK (undo_to IS NULL OR (undo_to >= 0 AND undo_to < seq))
);

-- Old entries keep their clustering by game (they are read together, if ever).
INSERT INTO action_log_v3 (game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note)
SELECT game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note
FROM action_log ORDER BY game_id, seq;

DROP TABLE action_log;  -- its triggers go with it
ALTER TABLE action_log_v3 RENAME TO action_log;

CREATE UNIQUE INDEX action_log_seq ON action_log (game_id, seq);

CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: entries are never updated');
END;
CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: entries are never deleted');
END;
CREATE TRIGGER action_log_no_gap BEFORE INSERT ON action_log
WHEN NEW.seq <> 1 AND NOT EXISTS (SELECT 1 FROM action_log WHERE game_id = NEW.game_id AND seq = NEW.seq - 1)
BEGIN
    SELECT RAISE(ABORT, 'the action log must stay gap-free: seq must follow the last entry');
END;
