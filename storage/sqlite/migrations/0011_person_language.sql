-- Schema 11: the language a person's hand DM speaks (issue 28, `/me language`).
--
-- player_delivery.language: 'en', 'nl' or 'de' — the person's hand DM, its prompt and their DM reminders are worded
-- in it, in every server; NULL (the default, and `/me language reset`): each table's own language.

ALTER TABLE player_delivery ADD COLUMN language TEXT CHECK (language IN ('en', 'nl', 'de'));
