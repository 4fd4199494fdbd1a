"""Kesse Rügen (Dijkstra & Van Dijk, 2015): a tactical guessing game for 2–4 players on a 5×5 field.

`rules.KesseRuegen` is the game; `state`, `actions`, `views`, `legal` and `waits` hold its parts, `board` and
`data/board.toml` the board, `geometry` the square names (a1..e5) and directions.
"""
