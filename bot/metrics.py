"""The bot's Prometheus metrics, in one place: what `/metrics` on the optional HTTP port (`bot.http_port`) shows.

`prometheus-client` is an optional extra (`pip install 'boardroom[metrics]'`): without it every metric here is a
no-op and `ENABLED` is False (`/metrics` then answers 404 saying so; `/healthz` works either way). The metrics live
in a registry of their own (not the library's global one), created once per process: several bots in one process
(the tests) share them, so a test reads differences.

- `boardroom_moves_total{game}`: actions applied and committed, by game kind (`bot.service.moves`);
- `boardroom_ack_seconds`: an interaction's acknowledgement latency, from the command or click coming in to its
  first answer (a reply, the narration in its response, or the "thinking…" deferral) — Discord allows 3 s;
- `boardroom_delivery_backlog`, `boardroom_timers_due`, `boardroom_scheduler_lag_seconds`,
  `boardroom_database_up`: read from the store when `/metrics` is scraped (`bot.http_port.probe`);
- `boardroom_rest_calls_total{method,status}`, `boardroom_rest_rate_limit_waits_total{reason}` and
  `boardroom_rest_rate_limit_wait_seconds_total{reason}`: every REST request discord.py makes (interaction answers
  included: they go through the same session), seen through aiohttp's tracing (`http_trace`, discord.py's documented
  `http_trace` option), and the waits Discord's rate limits cost. discord.py waits in two places
  (`discord/http.py`): after a 429 it sleeps `Retry-After` seconds and retries (reason `429_user`, `429_global` or
  `429_shared`: the answer's `X-RateLimit-Scope`; `global` is the bot token's limit, shared by all its processes);
  and when an answer used its bucket's last request (`X-RateLimit-Remaining: 0`), `Ratelimit.__aexit__` sleeps until
  the bucket resets (`X-RateLimit-Reset-After`) before the request returns (reason `bucket`). Both are read from the
  answer's headers, so the seconds are what Discord asked for (concurrent requests on one bucket share one sleep).
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace
from typing import Any

import aiohttp

try:
    import prometheus_client as prom
except ImportError:  # the optional extra is not installed: no-op metrics
    prom = None

ENABLED = prom is not None
MISSING = "metrics need the optional extra: pip install 'boardroom[metrics]' (prometheus-client)"
ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
"""Seconds; dense below Discord's 3 s limit, where the deferral (`INTERACTION_DEFER_AFTER`) sits."""


class _Noop:
    """Stands for a metric when prometheus-client is missing: every call does nothing."""

    def labels(self, *_args: object, **_kwargs: object) -> _Noop:
        return self

    def inc(self, _amount: float = 1) -> None: ...

    def set(self, _value: float) -> None: ...

    def observe(self, _value: float) -> None: ...


def _make(kind: str, name: str, doc: str, labels: tuple[str, ...] = (), **extra: Any) -> Any:
    if prom is None:
        return _Noop()
    return getattr(prom, kind)(name, doc, labels, registry=REGISTRY, **extra)


REGISTRY: Any = prom.CollectorRegistry(auto_describe=True) if prom is not None else None
MOVES = _make("Counter", "boardroom_moves", "Actions applied and committed, by game kind.", ("game",))
ACK = _make(
    "Histogram",
    "boardroom_ack_seconds",
    "From an interaction coming in to its first answer (reply, response or deferral).",
    buckets=ACK_BUCKETS,
)
BACKLOG = _make("Gauge", "boardroom_delivery_backlog", "Outbox rows not yet delivered (read when scraped).")
TIMERS_DUE = _make("Gauge", "boardroom_timers_due", "Timers due now and not yet fired (read when scraped).")
LAG = _make("Gauge", "boardroom_scheduler_lag_seconds", "How late the most overdue timer is (read when scraped).")
DATABASE_UP = _make("Gauge", "boardroom_database_up", "1 if the store answered the scrape's queries, else 0.")
REST = _make("Counter", "boardroom_rest_calls", "REST requests to Discord, by method and status.", ("method", "status"))
RATE_LIMITS = _make(
    "Counter",
    "boardroom_rest_rate_limit_waits",
    "Rate-limit waits: a 429 (by its scope) or a bucket's last request (bucket).",
    ("reason",),
)
RATE_LIMIT_WAIT = _make(
    "Counter",
    "boardroom_rest_rate_limit_wait_seconds",
    "Seconds Discord asked discord.py to wait (Retry-After, X-RateLimit-Reset-After).",
    ("reason",),
)


def moved(kind: str) -> None:
    MOVES.labels(kind).inc()


def acknowledged(seconds: float) -> None:
    ACK.observe(seconds)


def store_figures(*, up: bool, backlog: int = 0, due: int = 0, lag: float = 0.0) -> None:
    """The figures read from the store at a scrape."""
    DATABASE_UP.set(1 if up else 0)
    if up:
        BACKLOG.set(backlog)
        TIMERS_DUE.set(due)
        LAG.set(lag)


def rendered() -> tuple[bytes, str] | None:
    """The metrics in Prometheus's text format and its content type; None without prometheus-client."""
    if prom is None:
        return None
    return prom.generate_latest(REGISTRY), prom.CONTENT_TYPE_LATEST


def http_trace() -> aiohttp.TraceConfig | None:
    """An aiohttp trace for discord.py's HTTP session (`Client(http_trace=…)`) counting REST requests and
    rate-limit answers; None without prometheus-client (nothing to count into)."""
    if prom is None:
        return None
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_request_end)
    trace.freeze()
    return trace


async def _request_end(_session: aiohttp.ClientSession, _context: SimpleNamespace, params: Any) -> None:
    response = params.response
    REST.labels(params.method, str(response.status)).inc()
    headers = response.headers
    if response.status == 429:
        _waited(f"429_{headers.get('X-RateLimit-Scope', 'user')}", headers.get("Retry-After"))
    elif headers.get("X-RateLimit-Remaining") == "0":
        _waited("bucket", headers.get("X-RateLimit-Reset-After"))


def _waited(reason: str, seconds: str | None) -> None:
    RATE_LIMITS.labels(reason).inc()
    with contextlib.suppress(TypeError, ValueError):  # no header, or not seconds: counted as a wait only
        RATE_LIMIT_WAIT.labels(reason).inc(max(0.0, float(seconds)))  # type: ignore[arg-type]
