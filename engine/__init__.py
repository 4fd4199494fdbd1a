"""The games: pure, deterministic rules with no I/O, no Discord, no asyncio and no clock of their own.

Shared parts live at this level: the `Game` interface every game implements (`game`), the registry of games
(`registry`), the serialisable random generator (`rng`), the rule-error type (`errors`), events and waits
(`events`), seat references in player-facing text (`text`) and the data-file loader (`data`).
"""
