"""Schwarzmarkt (Stefan Dorra, Amigo 1996): secret goods hands, black-market cards and a climbing price, 3–5 players.

`rules.Schwarzmarkt` is the game. Its parts: `market` (the data file `data/market.toml`: price track, goods and the
30 black-market cards), `state`, `actions`, `options`; one module per rule — `playing` (the starter plays a card),
`trading` (trading turns), `eventcards` (the nine events), `rounds` (the end of a game round, the refill and the end
of the game), `leaving` (a player who leaves); and `views`, `legal`, `waits`; `turns` (what every rule needs),
and `randomplay` (a seeded random player for the benchmark).

The engine speaks no language: events carry a `kind` and values, refusals are `rule(code, **values)`, a wait's
`what` is a code with its values in `about`; the words are the presentation's (`bot/games/schwarzmarkt`).

The game registers itself here, once: `ENTRY` (see `engine.entry`).
"""

from engine.entry import Entry
from engine.schwarzmarkt.policy import SchwarzmarktPolicy
from engine.schwarzmarkt.rules import Schwarzmarkt

ENTRY = Entry(game=Schwarzmarkt, policy=SchwarzmarktPolicy, listed=4)
