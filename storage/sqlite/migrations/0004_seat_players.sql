-- Schema 4: seats that play themselves (issue 16).
--
-- - `autopilot`: a person's seat played safely for them (after a moderator's `/mod kick`, `/mod autopilot on`, or
--   too many missed deadlines in a row) until they (or a moderator) take it back;
-- - `bot`: a computer player, with no Discord user (`player_id` is NULL) and its name in `display_name`;
-- - `missed`: deadlines the seat's player let pass in a row (reset by any move of theirs), which turns the
--   autopilot on at the server's limit.
-- Existing seats are people, not on autopilot, with no missed deadline.

ALTER TABLE seats ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0 CHECK (autopilot IN (0, 1));
ALTER TABLE seats ADD COLUMN bot INTEGER NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);
