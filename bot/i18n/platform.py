"""The platform's words (bot/ outside the games): `_`, `n_`, `p_`, `N_` in the `platform` domain (`bot.i18n`)."""

from bot.i18n import Words

_words = Words("platform")
_ = _words._
n_ = _words.n_
p_ = _words.p_
N_ = Words.N_
