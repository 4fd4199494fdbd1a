-- Schema 11: reserved for the players' own language (`/me language`, issue 28), written in another branch. This
-- placeholder only keeps the numbering without gaps in this branch: the merge replaces it with that migration.

SELECT 1;
