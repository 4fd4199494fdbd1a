-- Schema 6: a computer player's level (issue 31).
--
-- - `level`: how well the seat's computer player plays: 'easy', 'normal' or 'hard' (the bot's
--   `engine.policy.Level`; the store only keeps the word). It means nothing for a person's seat, which keeps
--   'normal'. Existing computer players played the one policy there was: they are 'normal' from here on.

ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'normal' CHECK (level IN ('easy', 'normal', 'hard'));
