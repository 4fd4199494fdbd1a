-- Schema 10: away for days, and a seat handed over (issue 27).
--
-- - `away_mode`: what the table does while the seat's player is away (`away_until`): 'pause' (their turns' clocks
--   stop) or 'autopilot' (the autopilot plays for them until they return); NULL when not away. Taken from the
--   table's `away` option when they said they were away.
-- - `away_pauses`: the intervals their turns' clocks stood still, a JSON list of [start, end] timestamps (ISO 8601),
--   kept after they return: a deadline is worked out from them, and their total is the seat's pause budget spent.
-- - `handover`: the seat's pending handover, a JSON object (a leaver's offer to a person, or a replacement vote;
--   the bot's vocabulary, see `bot.handover`), NULL when none.
-- Existing seats are not away, have paused nothing and have no handover.

ALTER TABLE seats ADD COLUMN away_mode TEXT CHECK (away_mode IN ('pause', 'autopilot'));
ALTER TABLE seats ADD COLUMN away_pauses TEXT NOT NULL DEFAULT '[]';
ALTER TABLE seats ADD COLUMN handover TEXT;
