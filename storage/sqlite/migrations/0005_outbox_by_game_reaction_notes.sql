-- Schema 4: the pending outbox indexed by game; the log's reaction notes indexed.
--
-- The notifier asks for one game's pending rows (`undelivered(game_id=…)`); without an index that scanned every
-- pending row of every game, which after an outage (thousands of rows waiting) made each delivery slower the more
-- there was to deliver. The index costs one small entry per row written and removed. Delivered rows
-- (outbox_delivered) are pruned after the retention period by the hourly housekeeping, through their index on
-- delivered_at.
--
-- At start-up the bot reads back, for each active game, which reactions it has applied (log entries whose note
-- starts with "reaction:", `bot.service.play.reaction_note`): a partial index holds just those entries, so that
-- reading them does not read the game's whole log (`GameStore.log_notes`).

CREATE INDEX outbox_game ON outbox (game_id, id);
CREATE INDEX action_log_reactions ON action_log (game_id, seq) WHERE note LIKE 'reaction:%';
