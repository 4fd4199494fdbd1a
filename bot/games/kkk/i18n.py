"""Kohle, Kies & Knete's words in the language being spoken: `_`, `n_`, `p_`, `N_` in the `kkk` domain (`bot.i18n`).

The catalogs are `bot/locale/{nl,de}/LC_MESSAGES/kkk.po`; their terms follow `docs/glossary/kkk.nl.md` (the Dutch
rulebook's words) and `docs/glossary/kkk.de.md` (the original Schmidt Spiele edition's). The families' names are the
game's own and the same in every language (Heiermann, Knetowitz, Liebgeld, Piepenbrok, Raffzahn, Talerfeld).
"""

from bot.i18n import Words

_words = Words("kkk")
_ = _words._
n_ = _words.n_
p_ = _words.p_
N_ = Words.N_
