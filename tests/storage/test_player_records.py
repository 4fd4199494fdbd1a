"""The store's side of players' records (`storage.records`): a game is recorded once, counted for the ratings once,
stats are the sums of the placements (one read, per server or across servers), and a rebuild starts from nothing."""

from datetime import UTC, datetime, timedelta

from storage import GameResult, GameStore, NewSeat, Placement, Rating, SeatResult

T0 = datetime(2025, 3, 1, tzinfo=UTC)


async def finished_game(store: GameStore, guild: int, hours: int) -> int:
    record = await store.games.create("toy", guild_id=guild, thread_id=500 + hours, now=T0)
    seats = [NewSeat(seat=0, player_id=1, display_name="anna"), NewSeat(seat=1, player_id=2, display_name="bert")]
    await store.games.start(record.id, seed=1, setup_at=T0, seats=seats, snapshot="{}")
    await store.games.update(record.id, status="finished", now=T0 + timedelta(hours=hours))
    return record.id


def result_of(game_id: int, guild: int, hours: int, winner: int) -> tuple[GameResult, list[Placement]]:
    ranks = {1: 1 if winner == 1 else 2, 2: 1 if winner == 2 else 2}
    result = GameResult(
        game_id=game_id,
        guild_id=guild,
        kind="toy",
        thread_id=500 + hours,
        started_at=T0,
        ended_at=T0 + timedelta(hours=hours),
        outcome="finished",
        rated=True,
        moves=10,
        seats=[SeatResult(seat=s, id=p, name=n, rank=ranks[p]) for s, p, n in ((0, 1, "anna"), (1, 2, "bert"))],
    )
    placements = [
        Placement(
            game_id=game_id,
            seat=s,
            player_id=p,
            name=n,
            held=True,
            rank=ranks[p],
            moves=5,
            answers=4,
            answer_s=400.0,
            turns=3,
            missed=1,
        )
        for s, p, n in ((0, 1, "anna"), (1, 2, "bert"))
    ]
    return result, placements


async def test_a_game_is_recorded_once_and_summed_into_its_players_stats(store: GameStore) -> None:
    first = await finished_game(store, 10, 1)
    second = await finished_game(store, 20, 2)
    assert await store.records.games_to_record() == [first, second]
    assert await store.records.put_result(*result_of(first, 10, 1, winner=1))
    assert not await store.records.put_result(*result_of(first, 10, 1, winner=2))  # already there: nothing changes
    assert await store.records.put_result(*result_of(second, 20, 2, winner=2))
    assert await store.records.games_to_record() == []

    [everywhere] = await store.records.player_stats(1)
    assert (everywhere.played, everywhere.won, everywhere.finished, everywhere.rank_sum) == (2, 1, 2, 3)
    assert (everywhere.moves, everywhere.answers, everywhere.turns, everywhere.missed) == (10, 8, 6, 2)
    assert everywhere.average_answer_s == 100.0 and everywhere.reliability == 0.75
    [here] = await store.records.player_stats(1, 10)
    assert (here.played, here.won) == (1, 1)
    page, total = await store.records.history(10)
    assert total == 1 and [r.game_id for r in page] == [first] and page[0].winners[0].id == 1
    assert await store.records.player_stats(3) == []


async def test_a_game_counts_for_the_ratings_once_and_a_rebuild_starts_afresh(store: GameStore) -> None:
    game = await finished_game(store, 10, 1)
    await store.records.put_result(*result_of(game, 10, 1, winner=1))
    [pending] = await store.records.results_to_rate()
    rating = Rating(
        guild_id=10,
        kind="toy",
        player="u1",
        player_id=1,
        name="anna",
        mu=27.0,
        sigma=8.0,
        ordinal=3.0,
        games=1,
        wins=1,
        updated_at=T0,
    )
    assert await store.records.put_ratings(pending.game_id, [rating], [(0, "u1", 27.0, 8.0)])
    assert not await store.records.put_ratings(pending.game_id, [rating.model_copy(update={"games": 2})], [])
    assert await store.records.results_to_rate() == []
    assert await store.records.top_ratings(10, "toy") == [rating]
    assert [(p.seat, p.mu) for p in await store.records.placements(game)] == [(0, 27.0), (1, None)]

    await store.records.clear()
    assert await store.records.top_ratings(10, "toy") == [] and await store.records.player_stats(1) == []
    assert await store.records.games_to_record() == [game]


async def test_a_private_profile_is_remembered(store: GameStore) -> None:
    assert not await store.settings.profile_private(1)
    await store.settings.set_profile_private(1, True)
    assert await store.settings.profile_private(1)
    await store.settings.set_profile_private(1, False)
    assert not await store.settings.profile_private(1)
