"""The games: pure, deterministic rules with no I/O, no Discord, no asyncio and no clock of their own.

Shared parts live at this level: the `Game` interface every game implements and the `Parts` it forwards to (`game`),
a game's one registration (`entry`: each `engine/<game>/__init__.py` exports `ENTRY`), the registry that finds them
(`registry`), the policy interface (`policy`) and its levels (`levels`), the serialisable random generator (`rng`),
the rule-error type (`errors`), events and waits (`events`), one wait at a time with its deadline (`deadlines`),
seat references in player-facing text (`text`) and the data-file loader (`data`).
"""
