"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on aiosqlite."""
