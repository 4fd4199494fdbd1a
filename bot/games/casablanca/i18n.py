"""Casablanca's words (the `casablanca` catalog domain): `_`, `n_`, `p_`, `N_` (see `bot.i18n`).

The game's own terms follow the glossary (`docs/glossary/casablanca.nl.md`, `.de.md`): agents, buildings (houses,
HQs, the Bazaar), the suitcase, bribes, objections. Agents' names are proper names (the map's data); their colours,
the map's buildings and the ways a building is named in a sentence are words of this domain."""

from bot.i18n import Words

_words = Words("casablanca")
_ = _words._
n_ = _words.n_
p_ = _words.p_
N_ = Words.N_


def and_list(items: list[str]) -> str:
    """ "a, b and c" in the language being spoken."""
    if len(items) <= 1:
        return "".join(items)
    return _("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])
