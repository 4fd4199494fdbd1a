"""The optional HTTP port (`HTTP_PORT`, off by default): `/healthz` and `/metrics`, served inside the bot's own event
loop by aiohttp's web server (aiohttp comes with discord.py), for a process supervisor, a load balancer's check or
Prometheus.

- `GET /healthz`: 200 with JSON when the store answers (a real query: the due timers and the undelivered outbox
  rows) and the scheduler's lag (how late the most overdue timer is) and the delivery backlog (undelivered outbox
  rows) are within `HEALTH_MAX_LAG` seconds and `HEALTH_MAX_BACKLOG` rows; 503 with the same JSON (and the reason)
  otherwise. Overdue timers are normal for a moment after start-up (the catch-up fires them), so the lag allows
  minutes by default.
- `GET /metrics`: Prometheus's text format (`bot.metrics`), with the store's figures read at the scrape; 404 with
  one line saying what to install when prometheus-client is missing.

The port is bound first thing in the bot's `login`, before Discord is asked anything: a port that can't be bound
stops the start with `HttpPortError` (exit code 2: a configuration error, see `bot.__main__`). It listens on
`HTTP_HOST` (127.0.0.1 by default: put a reverse proxy in front to expose it). Port 0 takes a free port (tests read
`HttpPort.port`). Until the store is open (the login's `setup_hook`) `/healthz` answers 503.
"""

import logging
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from aiohttp import web

from bot import metrics

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.http")
CAP = 10_000
"""At most this many rows are counted per query (a backlog beyond it reads as this many)."""


class HttpPortError(Exception):
    """The HTTP port can't be opened (in use, not allowed): a configuration error."""


@dataclass
class Health:
    database: str
    """"ok", or why the store did not answer."""
    scheduler_lag_seconds: float = 0.0
    timers_due: int = 0
    delivery_backlog: int = 0
    healthy: bool = False
    problems: tuple[str, ...] = ()


async def probe(bot: "Host") -> Health:
    """Ask the store, now: the due timers (soonest first) and the undelivered outbox rows, each capped at `CAP`."""
    now = bot.clock()
    try:
        due = await bot.store.timers.due(now, limit=CAP)
        backlog = len(await bot.store.outbox.undelivered(limit=CAP))
    except Exception as exc:  # any failure of the store is an unhealthy bot, said in one line
        metrics.store_figures(up=False)
        reason = " ".join(str(exc).split())[:300]
        return Health(database=f"unreachable: {type(exc).__name__}: {reason}", problems=("database",))
    lag = max(0.0, (now - due[0].due_at).total_seconds()) if due else 0.0
    metrics.store_figures(up=True, backlog=backlog, due=len(due), lag=lag)
    settings = bot.settings
    problems = tuple(
        name
        for name, bad in (
            ("scheduler_lag", lag > settings.health_max_lag),
            ("delivery_backlog", backlog > settings.health_max_backlog),
        )
        if bad
    )
    return Health("ok", round(lag, 3), len(due), backlog, not problems, problems)


class HttpPort:
    """The web server on `host:port`; `start` binds it, `close` stops it."""

    def __init__(self, bot: "Host", host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            raise HttpPortError(
                f"the setting HTTP_PORT {self.port} cannot be used on {self.host} ({exc.strerror or exc})"
            ) from None
        self.port = self._runner.addresses[0][1]
        log.info("serving /healthz and /metrics on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def healthz(self, _request: web.Request) -> web.Response:
        health = await probe(self.bot)
        return web.json_response(asdict(health), status=200 if health.healthy else 503)

    async def metrics(self, _request: web.Request) -> web.Response:
        if not metrics.ENABLED:
            return web.Response(status=404, text=metrics.MISSING + "\n")
        await probe(self.bot)
        body, content_type = metrics.rendered()  # type: ignore[misc]
        return web.Response(body=body, headers={"Content-Type": content_type})
