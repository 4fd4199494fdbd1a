"""The store's side of `/me notify`, `/me digest` and `/mine`: delivery choices per person (the defaults for anyone
who never chose), the digests due and claimed exactly once, and a player's games with their seats and timers in one
read."""

from datetime import UTC, datetime, timedelta

from storage import GameStore, NewSeat, NewTimer, PlayerDelivery

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def test_choices_per_person_with_defaults(store: GameStore) -> None:
    assert await store.settings.deliveries([]) == {}
    found = await store.settings.deliveries([1, 2])
    assert found == {1: PlayerDelivery(player_id=1), 2: PlayerDelivery(player_id=2)}
    await store.settings.put_delivery(PlayerDelivery(player_id=2, notify="dm"), now=T0)
    found = await store.settings.deliveries([1, 2])
    assert found[1].notify == "thread" and found[2].notify == "dm" and found[2].updated_at == T0


async def test_digests_due_soonest_first_and_claimed_once(store: GameStore) -> None:
    for player, hour in ((1, 9), (2, 7), (3, 8)):
        due = T0 + timedelta(hours=hour)
        delivery = PlayerDelivery(player_id=player, digest_at=f"{hour:02}:00", digest_zone="UTC", digest_next=due)
        await store.settings.put_delivery(delivery, now=T0)
    await store.settings.put_delivery(PlayerDelivery(player_id=4, notify="dm"), now=T0)  # no digest
    assert await store.settings.soonest_digest() == T0 + timedelta(hours=7)
    due = await store.settings.due_digests(T0 + timedelta(hours=8))
    assert [d.player_id for d in due] == [2, 3]
    run = due[0].digest_next
    assert run is not None
    tomorrow = run + timedelta(days=1)
    # Two passes (or two processes) claiming the same run: exactly one gets it, and the run moves on.
    assert await store.settings.claim_digest(2, run, tomorrow)
    assert not await store.settings.claim_digest(2, run, tomorrow)
    assert [d.player_id for d in await store.settings.due_digests(T0 + timedelta(hours=8))] == [3]
    assert (await store.settings.deliveries([2]))[2].digest_next == tomorrow


async def test_a_players_games_in_one_read(store: GameStore) -> None:
    ids = []
    for guild, players in ((10, (1, 2)), (20, (2, 3)), (10, (1, 3))):
        record = await store.games.create("toy", guild_id=guild, thread_id=guild * 100 + len(ids), now=T0)
        seats = [NewSeat(seat=i, player_id=p, display_name=f"p{p}") for i, p in enumerate(players)]
        timer = NewTimer(kind="deadline", due_at=T0 + timedelta(hours=len(ids) + 1), payload={"seats": [0]})
        await store.games.start(record.id, seed=1, setup_at=T0, seats=seats, snapshot="{}", timers=[timer])
        ids.append(record.id)
    await store.games.update(ids[2], status="finished", now=T0)
    games = await store.games.of_player(2, statuses=("active", "paused"))
    assert [g.record.id for g in games] == ids[:2]
    assert [[s.player_id for s in g.seats] for g in games] == [[1, 2], [2, 3]]
    assert [[t.due_at for t in g.timers] for g in games] == [[T0 + timedelta(hours=1)], [T0 + timedelta(hours=2)]]
    assert [g.record.id for g in await store.games.of_player(1, statuses=("active",))] == ids[:1]
    assert await store.games.of_player(1, statuses=()) == []
    assert await store.games.of_player(99, statuses=("active",)) == []
