"""The optional HTTP port (`bot.http_port`): `/healthz` and `/metrics` answered by a running bot (SimCord), over a
real HTTP request on 127.0.0.1, port 0 (a free one). prometheus-client is in the test extra."""

import json
import socket
from pathlib import Path

import aiohttp
import pytest
import simcord

from bot import metrics
from bot.__main__ import run
from bot.settings import Settings
from storage.models import NewOutbox
from tests.bot.helpers import make_server, move, start_toy, state, thread_of
from tests.bot.toygame import Toy


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(_env_file=None, discord_token="test-token", database_path=db_path, http_port=0)  # type: ignore[call-arg]


async def get(env: simcord.Env, path: str) -> tuple[int, str, str]:
    port = env.bot.http_port
    assert port is not None
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


def sample(text: str, name: str) -> float:
    """The value of the metric line `name` (with its labels, as written) in Prometheus's text format."""
    (line,) = [x for x in text.splitlines() if x.startswith(name + " ")]
    return float(line.split()[-1])


async def test_healthz_and_metrics_of_a_running_bot_then_lag_and_a_closed_database(env: simcord.Env) -> None:
    assert metrics.ENABLED
    server = make_server(env)
    status, _type, text = await get(env, "/metrics")
    moves_before = sample(text, 'boardroom_moves_total{game="toy"}') if 'game="toy"' in text else 0.0
    acks_before = sample(text, "boardroom_ack_seconds_count")

    players = await start_toy(server)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread_of(server), "game move", action=move({"type": "play", "card": card}))

    status, content_type, body = await get(env, "/healthz")
    assert status == 200 and content_type.startswith("application/json")
    health = json.loads(body)
    assert health == {
        "database": "ok",
        "scheduler_lag_seconds": 0.0,
        "timers_due": 0,
        "delivery_backlog": 0,
        "healthy": True,
        "problems": [],
    }

    status, content_type, text = await get(env, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    assert sample(text, 'boardroom_moves_total{game="toy"}') == moves_before + 1
    # /game new, two Joins, Start and the move: five interactions answered (how fast is the machine's: it's shared).
    assert sample(text, "boardroom_ack_seconds_count") == acks_before + 5
    assert sample(text, "boardroom_ack_seconds_sum") > 0
    assert sample(text, "boardroom_delivery_backlog") == 0 and sample(text, "boardroom_database_up") == 1
    assert "boardroom_rest_calls_total" in text  # declared; SimCord's REST bypasses aiohttp (see the trace test)

    # The scheduler stops (a stuck loop): the move's 10-minute STOP window closes unfired, and /healthz says so.
    env.bot.scheduler.close()
    await env.advance_time(3600)
    status, _type, body = await get(env, "/healthz")
    health = json.loads(body)
    assert status == 503 and health["problems"] == ["scheduler_lag"] and health["database"] == "ok"
    assert health["timers_due"] >= 1 and 2990 <= health["scheduler_lag_seconds"] <= 3010
    _status, _type, text = await get(env, "/metrics")
    assert sample(text, "boardroom_timers_due") >= 1 and sample(text, "boardroom_scheduler_lag_seconds") >= 2990

    # The database goes away: 503, naming it; /metrics still answers, with the database down.
    await env.bot.store.close()
    status, _type, body = await get(env, "/healthz")
    health = json.loads(body)
    assert status == 503 and health["healthy"] is False and health["problems"] == ["database"]
    assert health["database"].startswith("unreachable: StorageError:") and "closed" in health["database"]
    status, _type, text = await get(env, "/metrics")
    assert status == 200 and sample(text, "boardroom_database_up") == 0


async def test_metrics_without_prometheus_client_is_404_and_healthz_still_works(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_server(env)
    monkeypatch.setattr(metrics, "ENABLED", False)  # as if the extra were not installed
    status, _type, text = await get(env, "/metrics")
    assert status == 404 and text.strip() == metrics.MISSING and "boardroom[metrics]" in text
    status, _type, _body = await get(env, "/healthz")
    assert status == 200
    # A message waits in the outbox (queued beside the notifier, which was not told) beyond HEALTH_MAX_BACKLOG.
    env.bot.settings.health_max_backlog = 0
    await env.bot.store.outbox.add(None, [NewOutbox(kind="post", target={"channel_id": 1}, payload={"text": "x"})])
    status, _type, body = await get(env, "/healthz")
    health = json.loads(body)
    assert status == 503 and health["problems"] == ["delivery_backlog"] and health["delivery_backlog"] == 1


async def test_the_rest_trace_counts_calls_and_429s_over_real_http(tmp_path: Path) -> None:
    """`metrics.http_trace` on an aiohttp session (as discord.py's `http_trace` puts it), against a local server
    answering a bucket's last request, a global 429 with Retry-After, and an ordinary 200."""
    from aiohttp import web

    answers = [
        web.Response(status=200, headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.25"}),
        web.Response(status=429, headers={"Retry-After": "1.5", "X-RateLimit-Scope": "global"}),
        web.Response(status=200, headers={"X-RateLimit-Remaining": "4"}),
    ]

    async def handler(_request: web.Request) -> web.Response:
        return answers.pop(0)

    app = web.Application()
    app.router.add_post("/x", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]

    def read() -> tuple[float, ...]:
        text = metrics.rendered()[0].decode()  # type: ignore[index]

        def value(name: str) -> float:
            return sample(text, name) if any(x.startswith(name + " ") for x in text.splitlines()) else 0.0

        return (
            value('boardroom_rest_calls_total{method="POST",status="200"}'),
            value('boardroom_rest_calls_total{method="POST",status="429"}'),
            value('boardroom_rest_rate_limit_waits_total{reason="429_global"}'),
            value('boardroom_rest_rate_limit_wait_seconds_total{reason="429_global"}'),
            value('boardroom_rest_rate_limit_waits_total{reason="bucket"}'),
            value('boardroom_rest_rate_limit_wait_seconds_total{reason="bucket"}'),
        )

    before = read()
    try:
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as session:  # type: ignore[list-item]
            for _ in range(3):
                async with session.post(f"http://127.0.0.1:{port}/x") as response:
                    await response.read()
    finally:
        await runner.cleanup()
    after = read()
    assert [b - a for a, b in zip(before, after, strict=True)] == [2, 1, 1, 1.5, 1, 0.25]


async def test_an_http_port_in_use_stops_the_start_with_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None, discord_token="x", database_path=tmp_path / "db.sqlite3", http_port=port
        )
        # No Discord at all: the port is bound in setup_hook, before the login.
        code = await run(settings, games={"toy": Toy()})
    assert code == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"Boardroom: the setting HTTP_PORT {port} cannot be used on 127.0.0.1")
