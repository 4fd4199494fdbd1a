-- Schema 15: a message reference keeps the token of the interaction that made the message (issue 29, goal 2).
--
-- An edit of a message made with an interaction's token (its answer, a follow-up) is outside Discord's global rate
-- limit while the token lives (15 minutes). The token was kept in memory only, so after a restart every such edit
-- was the bot's own call; kept with the reference, in the write that stores the reference anyway, it still serves.
--
-- token / token_expires: the interaction's token and when it expires (ISO text in UTC, like every time of this
--   store). NULL, NULL: no token (a message the bot posted, a DM, or a token that expired). The message is edited
--   by its id through the interaction's webhook, its answer as its follow-ups: nothing else is needed.
-- A token is a credential: each transaction that writes references also clears the expired ones, found through the
--   partial index message_refs_tokens (only references holding a token are in it), so the table holds the tokens of
--   the last 15 minutes or so, and none longer than until the next reference is written.

ALTER TABLE message_refs ADD COLUMN token TEXT;
ALTER TABLE message_refs ADD COLUMN token_expires TEXT;
CREATE INDEX message_refs_tokens ON message_refs (token_expires) WHERE token_expires IS NOT NULL;
