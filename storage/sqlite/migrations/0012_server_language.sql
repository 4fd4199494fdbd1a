-- Schema 12: the server's language (issue 28).
--
-- - guild_settings.language: the language of new tables and of private answers to readers whose Discord language is
--   none of ours (`en`, `nl` or `de`; NULL: the server's preferred locale where it is one of ours, else English),
--   set with `/mod defaults language:`. A table's own language is one of its options.

ALTER TABLE guild_settings ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'nl', 'de'));
