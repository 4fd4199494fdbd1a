"""Kesse Rügen's words (the `kesse_ruegen` catalog domain): `_`, `n_`, `p_`, `N_`, and the game's own nouns.

The engine names each seat's tuber kind by the data file's English words ("carrot", "carrots": see
`engine/kesse_ruegen/data/board.toml`); here they become the words of the language being spoken, as the glossary
(`docs/glossary/kesse_ruegen.<lang>.md`) says: wortel / Möhre, suikerbiet / Zuckerrübe, radijs / Radieschen,
biet / Rote Bete. A kind a server owner's data file adds has no translation: its own words are used as they are.
"""

from collections.abc import Sequence

from bot.i18n import Words

_words = Words("kesse_ruegen")
_ = _words._
n_ = _words.n_
p_ = _words.p_
N_ = Words.N_


def kind_name(one: str, many: str, *, plural: bool = True) -> str:
    """A tuber kind as a bare noun ("carrots"; `plural=False`: "carrot")."""
    match one:
        case "carrot":
            return _("carrots") if plural else _("carrot")
        case "sugar beet":
            return _("sugar beets") if plural else _("sugar beet")
        case "radish":
            return _("radishes") if plural else _("radish")
        case "beet":
            return _("beets") if plural else _("beet")
    return many if plural else one


def initial(one: str) -> str:
    """The letter on a tuber kind's token in the picture (each kind its own, in every language)."""
    match one:
        case "carrot":
            # TRANSLATORS: the letter on a carrot token; the four kinds' letters must differ.
            return p_("initial", "C")
        case "sugar beet":
            return p_("initial", "S")
        case "radish":
            return p_("initial", "R")
        case "beet":
            return p_("initial", "B")
    return one[:1].upper()


def a_tuber(one: str, many: str) -> str:
    """One tuber of a kind with its article, as the object of a sentence ("a carrot")."""
    match one:
        case "carrot":
            return _("a carrot")
        case "sugar beet":
            return _("a sugar beet")
        case "radish":
            return _("a radish")
        case "beet":
            return _("a beet")
    return _("a %(tuber)s", tuber=one)


def counted(one: str, many: str, n: int) -> str:
    """A number of tubers of a kind ("2 carrots", "1 radish")."""
    match one:
        case "carrot":
            return n_("%(n)d carrot", "%(n)d carrots", n)
        case "sugar beet":
            return n_("%(n)d sugar beet", "%(n)d sugar beets", n)
        case "radish":
            return n_("%(n)d radish", "%(n)d radishes", n)
        case "beet":
            return n_("%(n)d beet", "%(n)d beets", n)
    return f"{n} {one if n == 1 else many}"


def and_list(items: Sequence[str]) -> str:
    """ "anna", "anna and bert", "anna, bert and cleo"."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("%(most)s and %(last)s", most=", ".join(items[:-1]), last=items[-1])


def or_list(items: Sequence[str]) -> str:
    """ "0", "0 or 1", "0, 1 or 2"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("%(most)s or %(last)s", most=", ".join(items[:-1]), last=items[-1])
