-- Schema 14: claims with a lease, so that several bot processes on one database fire each timer once and deliver
-- each outbox row once (issue 30, goal 3).
--
-- A claim names its owner (one bot process) and holds until `claimed_until`; a claim whose lease has run out (its
-- process died) may be taken by any process. Times are the store's ISO text in UTC, so text order is time order.
--
-- outbox: the rows a commit writes are born claimed by the committing process (it delivers them behind the move);
--   any other reading of rows for delivery claims them first (`store.outbox.claim`). A delivered row moves to
--   outbox_delivered, where a claim means nothing (it has no claim columns).
-- timer_claims: a game's timers are a JSON list in its games row (migration 0002), which every commit rewrites;
--   their claims live apart, one small row per claimed timer, so that claiming never rewrites the game's row. A
--   fired timer is removed by its move's commit (its id is never used again); the claim left behind is deleted when
--   its lease runs out (by the next claim), or at once by `store.timers.delete`.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until TEXT;

CREATE TABLE timer_claims (
    timer_id      INTEGER PRIMARY KEY,
    claimed_by    TEXT    NOT NULL,
    claimed_until TEXT    NOT NULL
);
CREATE INDEX timer_claims_until ON timer_claims (claimed_until);
