-- Schema 3: a message reference keeps the token of the interaction that made the message (SQLite's migration 0015;
-- issue 29, goal 2).
--
-- An edit of a message made with an interaction's token (its answer, a follow-up) is outside Discord's global rate
-- limit while the token lives (15 minutes). Kept with the reference, in the write that stores the reference anyway,
-- the token still serves after a restart.
--
-- token / token_expires: the interaction's token and when it expires. NULL, NULL: no token. The message is edited by
--   its id through the interaction's webhook, its answer as its follow-ups: nothing else is needed.
-- A token is a credential: boardroom_deliver, which writes references, also clears the expired ones (through the
--   partial index message_refs_tokens, which holds only references with a token), in the same call.

ALTER TABLE message_refs ADD COLUMN token text;
ALTER TABLE message_refs ADD COLUMN token_expires timestamptz;
CREATE INDEX message_refs_tokens ON message_refs (token_expires) WHERE token_expires IS NOT NULL;

DROP FUNCTION boardroom_deliver(bigint[], timestamptz, bigint[], bigint[], bigint[], text[], integer[], text[],
                                timestamptz[], bigint[]);

CREATE FUNCTION boardroom_deliver(
    ids bigint[], at timestamptz,
    ref_messages bigint[], ref_channels bigint[], ref_games bigint[], ref_kinds text[], ref_seats integer[],
    ref_keys text[], ref_times timestamptz[], ref_tokens text[], ref_token_expires timestamptz[],
    retired bigint[] DEFAULT '{}'
) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    moved integer;
BEGIN
    WITH gone AS (
        DELETE FROM outbox WHERE id = ANY(ids)
        RETURNING id, game_id, kind, target, payload, created_at, attempts, last_error
    )
    INSERT INTO outbox_delivered (id, game_id, kind, target, payload, created_at, attempts, last_error, delivered_at)
    SELECT id, game_id, kind, target, payload, created_at, attempts, last_error, at FROM gone;
    GET DIAGNOSTICS moved = ROW_COUNT;
    FOR i IN 1 .. coalesce(array_length(ref_messages, 1), 0) LOOP
        DELETE FROM message_refs WHERE message_id = ref_messages[i]
            OR (coalesce(game_id, -1) = coalesce(ref_games[i], -1) AND kind = ref_kinds[i]
                AND coalesce(seat, -1) = coalesce(ref_seats[i], -1) AND key = ref_keys[i]);
        INSERT INTO message_refs (message_id, channel_id, game_id, kind, seat, key, created_at, token, token_expires)
        VALUES (ref_messages[i], ref_channels[i], ref_games[i], ref_kinds[i], ref_seats[i], ref_keys[i], ref_times[i],
                ref_tokens[i], ref_token_expires[i]);
    END LOOP;
    IF coalesce(array_length(ref_messages, 1), 0) > 0 THEN
        UPDATE message_refs SET token = NULL, token_expires = NULL
        WHERE token_expires IS NOT NULL AND token_expires <= at;
    END IF;
    IF coalesce(array_length(retired, 1), 0) > 0 THEN
        DELETE FROM message_refs WHERE message_id = ANY(retired);
    END IF;
    RETURN moved;
END $$;
