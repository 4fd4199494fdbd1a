"""The words Boardroom says, in the table's or the reader's language: GNU gettext catalogs, one domain per area.

Every word a person reads is an English message id marked where it is written, and looked up in the language being
spoken at that moment:

    from bot.games.kkk.words_i18n import _, n_, N_     # a game's own domain (`words("kkk")`)
    _("%(who)s pays %(amount)s.", who=name, amount=money)
    n_("%(n)d action left", "%(n)d actions left", count)   # gettext's plural forms; `n` is the count
    N_("Pass")    # marked for extraction, translated later where it is shown: `_(PASS)`

Placeholders are `%(name)s` (Babel checks every translation keeps them); the values are filled in after the lookup,
so a translation may move them. A message with no values is not %-formatted (a bare `%` is safe there).

Which language is spoken is the context's (`speaking(lang)`, a `contextvars` variable, so it follows `await` and
`asyncio.to_thread`): the platform speaks the table's language (`table_language`) wherever it words something for
the table thread, its posts, prompts, pictures and reminders; a private answer speaks the reader's (`reader_language`:
their Discord client's locale where it is one of ours, else the table's); a hand DM the player's own `/me language`
else the table's. Nothing else chooses: a presentation never asks which language it is in.

Domains (`DOMAINS`): `platform` (bot/ outside the games), `commands` (slash-command names and descriptions, through
`bot.i18n.commands`' `app_commands.Translator`) and one per game (`bot/games/<game>/`), so a new game adds its own
catalogs and touches no other game's. The catalogs live in `bot/locale/<lang>/LC_MESSAGES/<domain>.po` (sources,
committed) and are compiled to `.mo` by `python -m bot.i18n.catalogs compile` (`make run` and `make test` do it; see
`bot.i18n.catalogs`). English is the message ids themselves (no catalog). `qps` is a test-only pseudo-language that
wraps every translated message in ⟦…⟧, so a test can see any word that was never marked.
"""

import gettext
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache
from pathlib import Path
from typing import Any, Literal

Language = Literal["en", "nl", "de"]
LANGUAGES: tuple[Language, ...] = ("en", "nl", "de")
"""The languages a table or a person can choose, English first (the message ids)."""
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}
"""Each language in its own words (for choices and settings: a reader finds their own)."""
PSEUDO = "qps"
"""The pseudo-language of the tests: every translated message wrapped in ⟦…⟧ (not offered to players)."""
DEFAULT: Language = "en"

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""`bot/locale/<lang>/LC_MESSAGES/<domain>.po|.mo`, and the templates `bot/locale/<domain>.pot`."""

_speaking: ContextVar[str] = ContextVar("boardroom_language", default=DEFAULT)

forced: str | None = None
"""Test-only: a language every context speaks, whatever `speaking` chose (the pseudo-language runs of whole games,
`tests/bot/i18n/pseudo.py`, set it to `PSEUDO` so that every word shown anywhere is looked up in it). Never set by
the bot."""


def current() -> str:
    """The language being spoken here (English unless a caller chose one; `forced` if a test set it)."""
    return forced or _speaking.get()


def switch_to(language: str | None) -> Token[str]:
    """Speak `language` (None or an unknown one: English) from here to the end of the current context (a task's:
    `bot.reader.at_table` uses it inside an answer's own work); `speaking` is the block form."""
    return _speaking.set(language if language in LANGUAGES or language == PSEUDO else DEFAULT)


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Speak `language` (None or an unknown one: English) inside the block."""
    token = switch_to(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def known(language: object) -> Language | None:
    """`language` if it is one of ours, read loosely from a Discord locale too ("nl", "de", "en-GB", "en-US")."""
    if not isinstance(language, str) and language is not None:
        language = str(getattr(language, "value", language))
    if not language:
        return None
    base = language.split("-")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None  # type: ignore[return-value]


def reader_language(locale: object, table: str | None = None) -> str:
    """The language of a private answer: the reader's Discord locale (`interaction.locale`) where it is one of
    ours, else the table's (`table`), else English."""
    return known(locale) or known(table) or DEFAULT


class _Pseudo(gettext.NullTranslations):
    """Every message wrapped, so an unmarked word stands out in a test."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"


@cache
def translation(domain: str, language: str) -> gettext.NullTranslations:
    """The compiled catalog of `domain` in `language` (English: none, the ids themselves). A missing catalog is an
    error for nl and de: `bot.i18n.catalogs.check_compiled` stops the bot at start-up naming it; here English
    stands in so a test of one game does not need another's."""
    if language == PSEUDO:
        return _Pseudo()
    if language == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir=LOCALE_DIR, languages=[language], fallback=True)


def _fill(text: str, values: dict[str, Any]) -> str:
    text = text % values if values else text
    return typed_commands(text) if "`/" in text and current() != DEFAULT else text


_SPAN = re.compile(r"`(/[a-z_]+(?: [a-z_]+(?::[^`\s]*)?)*)`")
OWN_CONTEXT = frozenset({"/me quiet to:", "/cb move to:"})
"""Occurrences that cannot share their word's translation with its other uses, so they get a context of their own
(`parameter_name /me quiet to:`): `to:` is a person where a seat or an offer goes (`/game leave`, `/kkk offer`:
German `an`), but the end of the quiet hours (`bis`) and the building an agent moves to (`nach`)."""


def command_context(location: str, path: str | None) -> str:
    """The `commands` catalog's message context of a string: its location (discord.py's
    `TranslationContextLocation` name, e.g. `parameter_name`), or for an occurrence in `OWN_CONTEXT` its location and
    path (`parameter_name /me quiet to:`). The translator and `typed_commands` both look names up by it."""
    return f"{location} {path}" if path in OWN_CONTEXT else location


def typed_commands(text: str) -> str:
    """Each command as typed in `text` (`` `/kr duel opponent:` ``) in the names the reader's Discord client shows
    in the language spoken (`` `/kr duel tegenstander:` ``): the slash commands are localised (`bot.i18n.commands`),
    so a message that names one must use the same words. Values after a colon stay as typed."""
    return _SPAN.sub(lambda m: f"`{_typed(m.group(1))}`", text)


def _typed(span: str) -> str:
    commands = translation("commands", current())
    path: list[str] = []
    out: list[str] = []
    for i, token in enumerate(span[1:].split(" ")):
        name, colon, value = token.partition(":")
        if colon:
            context = command_context("parameter_name", f"/{' '.join(path)} {name}:")
            out.append(f"{commands.pgettext(context, name)}:{value}")
            continue
        path.append(name)
        kinds = ("group_name", "command_name") if i == 0 else ("command_name", "group_name")
        known = getattr(commands, "_catalog", None)  # a compiled catalog's entries; None: the pseudo-language
        kind = next((k for k in kinds if known is None or f"{k}\x04{name}" in known), None)
        out.append(commands.pgettext(kind, name) if kind is not None else name)
    return "/" + " ".join(out)


class Words:
    """One domain's lookups, in the language being spoken: `_`, `n_` (plural), `p_` (with a context), `N_` (mark)."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def _(self, message: str, **values: Any) -> str:
        return _fill(translation(self.domain, current()).gettext(message), values)

    def n_(self, singular: str, plural: str, n: int, **values: Any) -> str:
        values.setdefault("n", n)
        return _fill(translation(self.domain, current()).ngettext(singular, plural, n), values)

    def p_(self, context: str, message: str, **values: Any) -> str:
        return _fill(translation(self.domain, current()).pgettext(context, message), values)

    @staticmethod
    def N_(message: str) -> str:
        """Mark `message` for extraction only: it is translated where it is shown, with `_(message)`."""
        return message


DOMAINS = ("platform", "commands", "kkk", "kesse_ruegen", "casablanca", "schwarzmarkt")
"""Every catalog's domain; `bot.i18n.catalogs` says which sources each is extracted from."""
