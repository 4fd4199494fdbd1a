-- Schema 2: claims with a lease (SQLite's migration 0014), so that several bot processes on one database fire each
-- timer once and deliver each outbox row once (issue 30, goal 3).
--
-- A claim names its owner (one bot process) and holds until `claimed_until`; a claim whose lease has run out (its
-- process died) may be taken by any process. Where SQLite keeps claims of timers in a table apart (its timers are a
-- list in the game's row), PostgreSQL's timers are rows of their own: the claim is two columns of the row, and a
-- timer's claim goes with the row when a commit removes it. Claiming locks rows with FOR UPDATE SKIP LOCKED (a row
-- another process is claiming is skipped, not waited for). A delivered outbox row moves to outbox_delivered, where a
-- claim means nothing (it has no claim columns).
--
-- boardroom_deliver gains `retired`: message ids whose references are deleted in the same transaction, after the
-- rows' references are stored (a settled offer's or window's message, shown for the last time by the pass).

ALTER TABLE outbox ADD COLUMN claimed_by text;
ALTER TABLE outbox ADD COLUMN claimed_until timestamptz;
ALTER TABLE timers ADD COLUMN claimed_by text;
ALTER TABLE timers ADD COLUMN claimed_until timestamptz;

DROP FUNCTION boardroom_deliver(bigint[], timestamptz, bigint[], bigint[], bigint[], text[], integer[], text[],
                                timestamptz[]);
CREATE FUNCTION boardroom_deliver(
    ids bigint[], at timestamptz,
    ref_messages bigint[], ref_channels bigint[], ref_games bigint[], ref_kinds text[], ref_seats integer[],
    ref_keys text[], ref_times timestamptz[], retired bigint[] DEFAULT '{}'
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
        INSERT INTO message_refs (message_id, channel_id, game_id, kind, seat, key, created_at)
        VALUES (ref_messages[i], ref_channels[i], ref_games[i], ref_kinds[i], ref_seats[i], ref_keys[i], ref_times[i]);
    END LOOP;
    IF coalesce(array_length(retired, 1), 0) > 0 THEN
        DELETE FROM message_refs WHERE message_id = ANY(retired);
    END IF;
    RETURN moved;
END $$;
