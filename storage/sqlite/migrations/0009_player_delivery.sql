-- Schema 9: where a player's prompts and reminders reach them, and their daily digest (issue 27, goals 5, 6, 8).
--
-- player_delivery: one row per person (not per server: the choice follows them to every server), written by
-- `/me notify` and `/me digest`; a person without a row has the defaults (pings in the thread, no digest).
-- - notify: 'thread' (pinged in the table's thread), 'dm' (a DM; the thread when DMs are closed) or 'digest'
--   (only the daily digest; the thread's status still shows the wait).
-- - digest_at / digest_zone: the local time of day ('HH:MM') and the IANA time zone of the digest, NULL when off.
-- - digest_next: the digest's next run (UTC), indexed: the digest loop sleeps until the soonest one. It is moved on
--   to the next day in the same statement that claims a run, so a run is never sent twice (across restarts and
--   processes alike).

CREATE TABLE player_delivery (
    player_id   INTEGER PRIMARY KEY,
    notify      TEXT    NOT NULL DEFAULT 'thread' CHECK (notify IN ('thread', 'dm', 'digest')),
    digest_at   TEXT,
    digest_zone TEXT,
    digest_next TEXT,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX player_delivery_next ON player_delivery (digest_next) WHERE digest_next IS NOT NULL;
