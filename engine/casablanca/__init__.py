"""Casablanca (Eric Solomon, Amigo 1990): bribe agents, move them, carry the black suitcase home — main game and HQ
variant.

`rules.Casablanca` is the game. Its parts, one module per rule: `bribes` (putting money on agents), `moves` (moves and
hits: what may be announced and what happens when it takes effect), `objections` (the objection window, contest or
withdraw, and the progressive auction), `ending` (the two ends, the last-agent rule, standings), `turns` (turn order,
the variant's HQ choice and face-down sheets). `board` and `data/map.toml` hold the map and the agents, `state` the
state, `actions` the actions, `views` what each seat may know, `legal` and `waits` what may be done and awaited now.

The game registers itself here, once: `ENTRY` (see `engine.entry`).
"""

from engine.casablanca.policy import CasablancaPolicy
from engine.casablanca.rules import Casablanca
from engine.entry import Entry

ENTRY = Entry(game=Casablanca, policy=CasablancaPolicy, listed=3)
