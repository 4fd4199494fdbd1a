"""Schwarzmarkt's words: `_`, `n_`, `p_`, `N_` in the `schwarzmarkt` domain (see `bot.i18n`); the catalogs are
`bot/locale/<lang>/LC_MESSAGES/schwarzmarkt.po`, their terms those of `docs/glossary/schwarzmarkt.<lang>.md`."""

from bot.i18n import Words

_words = Words("schwarzmarkt")
_ = _words._
n_ = _words.n_
p_ = _words.p_
N_ = Words.N_
