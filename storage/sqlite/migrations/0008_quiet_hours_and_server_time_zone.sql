-- Schema 8: the clock for people who look in a few times a day (issue 27).
--
-- - guild_settings.timezone: the server's default time zone for new tables (an IANA name such as Europe/Amsterdam;
--   NULL: UTC), set with `/mod defaults timezone:`. A table's own time zone is one of its options.
-- - quiet_hours: a person's quiet hours (`/me quiet`), the same in every server: from `start_min` to `end_min`
--   (minutes after local midnight; a span across midnight when end < start) in their IANA `timezone`. Reminders and
--   DMs wait for the end of them, and a turn deadline of theirs that would end inside them moves to their end. No
--   row: no quiet hours.

ALTER TABLE guild_settings ADD COLUMN timezone TEXT;

CREATE TABLE quiet_hours (
    player_id  INTEGER PRIMARY KEY,
    start_min  INTEGER NOT NULL CHECK (start_min BETWEEN 0 AND 1439),
    end_min    INTEGER NOT NULL CHECK (end_min BETWEEN 0 AND 1439 AND end_min <> start_min),
    timezone   TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);
