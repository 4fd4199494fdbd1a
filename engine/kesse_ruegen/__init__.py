"""Kesse Rügen (Dijkstra & Van Dijk, 2015): a tactical guessing game for 2–4 players on a 5×5 field.

`rules.KesseRuegen` is the game; `state`, `actions`, `views`, `legal` and `waits` hold its parts, `board` and
`data/board.toml` the board, `geometry` the square names (a1..e5) and directions. One module per rule: `moves`
(pawns placed, the duel winner's actions, the win), `duelling` (challenge, fists, guesses, reveal), `turns` (a
turn's start and end) and `leaving` (a player who leaves). `policy` is the computer player, `duel` its strategy.

The game registers itself here, once: `ENTRY` (see `engine.entry`).
"""

from engine.entry import Entry
from engine.kesse_ruegen.policy import KesseRuegenPolicy
from engine.kesse_ruegen.rules import KesseRuegen

ENTRY = Entry(game=KesseRuegen, policy=KesseRuegenPolicy, listed=2)
