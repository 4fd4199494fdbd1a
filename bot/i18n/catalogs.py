"""The catalogs' life cycle with Babel: extract the English message ids from the code, update the Dutch and German
catalogs from them, check them, compile them for the standard library's `gettext`.

    python -m bot.i18n.catalogs extract   # bot/locale/<domain>.pot from the sources (after writing new words)
    python -m bot.i18n.catalogs update    # nl and de .po follow the templates (new ids untranslated, gone ones dropped)
    python -m bot.i18n.catalogs check     # each catalog: untranslated, fuzzy, placeholder errors (exit 1 if any)
    python -m bot.i18n.catalogs compile   # every .po to its .mo (make run and make test do this first)

The `.po` files are the sources and are committed; the `.mo` files are built, never edited or committed. The
`commands` domain is not extracted from the code but from the slash-command tree itself (`bot.i18n.commands`):
names, descriptions and choices are declared in discord.py's decorators, which Babel cannot read.
"""

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n import DOMAINS, LANGUAGES, LOCALE_DIR

BOT_DIR = LOCALE_DIR.parent
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}
"""The marking functions (`bot.i18n.Words`): message, singular and plural, context and message, mark-only."""
COMMENT_TAGS = ["TRANSLATORS:"]


def sources(domain: str) -> tuple[Path, list[tuple[str, str]]] | None:
    """Where a domain's messages are written: a folder and Babel's method map (None: not extracted from code)."""
    if domain == "commands":
        return None
    if domain == "platform":
        return BOT_DIR, [("games/**.py", "ignore"), ("**.py", "python")]
    return BOT_DIR / "games" / domain, [("**.py", "python")]


def template_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


def po_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def extracted(domain: str) -> Catalog:
    """A fresh template of `domain` from its sources as they are now."""
    catalog = Catalog(project="Boardroom", domain=domain, fuzzy=False, charset="utf-8")
    found = sources(domain)
    if found is None:
        from bot.i18n.command_tree import command_catalog

        return command_catalog()
    folder, method_map = found
    for filename, lineno, message, comments, context in extract_from_dir(
        folder, method_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
    ):
        catalog.add(
            message,
            None,
            [(f"{folder.relative_to(BOT_DIR.parent)}/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=120, sort_output=False, omit_header=False, include_lineno=False)


def extract(domains: Iterable[str] = DOMAINS) -> None:
    for domain in domains:
        _write(template_path(domain), extracted(domain))


def update(domains: Iterable[str] = DOMAINS) -> None:
    """Each nl/de catalog follows its template: new ids added untranslated, vanished ones dropped (Babel would keep
    them as obsolete `#~` entries; the history is in git), no fuzzy guesses (a guess is not a translation)."""
    for domain in domains:
        template = _read(template_path(domain))
        for lang in TRANSLATED:
            path = po_path(domain, lang)
            catalog = _read(path, lang) if path.exists() else Catalog(locale=lang, domain=domain, project="Boardroom")
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            _write(path, catalog)


@dataclass
class Report:
    domain: str
    lang: str
    total: int
    untranslated: list[str]
    fuzzy: list[str]
    errors: list[str]
    missing: list[str]
    """Message ids in the code (the fresh template) that the catalog lacks: a new English string without a
    translation."""

    @property
    def ok(self) -> bool:
        return not (self.untranslated or self.fuzzy or self.errors or self.missing)

    def line(self) -> str:
        done = self.total - len(self.untranslated) - len(self.fuzzy)
        return (
            f"{self.lang}/{self.domain}: {done} of {self.total} translated, {len(self.untranslated)} untranslated, "
            f"{len(self.fuzzy)} fuzzy, {len(self.errors)} errors, {len(self.missing)} missing"
        )


def _key(message: object) -> str:
    msgid = message.id  # type: ignore[attr-defined]
    text = msgid[0] if isinstance(msgid, tuple) else msgid
    context = message.context  # type: ignore[attr-defined]
    return f"{context}\x04{text}" if context else text


def check(domain: str, lang: str, fresh: Catalog | None = None) -> Report:
    """One catalog against Babel's checks (placeholders kept, plural forms complete) and against the code."""
    path = po_path(domain, lang)
    fresh = fresh if fresh is not None else extracted(domain)
    if not path.exists():
        ids = [_key(m) for m in fresh if m.id]
        return Report(domain, lang, 0, [], [], [], ids)
    catalog = _read(path, lang)
    messages = [m for m in catalog if m.id]
    untranslated = [_key(m) for m in messages if not m.fuzzy and _untranslated(m.string)]
    fuzzy = [_key(m) for m in messages if m.fuzzy]
    errors = [f"{_key(m)}: {e}" for m, errs in catalog.check() for e in errs]
    have = {_key(m) for m in messages}
    missing = [_key(m) for m in fresh if m.id and _key(m) not in have]
    return Report(domain, lang, len(messages), untranslated, fuzzy, errors, missing)


def _untranslated(string: object) -> bool:
    if isinstance(string, (tuple, list)):
        return any(not s for s in string)
    return not string


def compile_all() -> list[Path]:
    """Every `.po` under bot/locale compiled to its `.mo` (fuzzy entries left out, as gettext would)."""
    written = []
    for lang in TRANSLATED:
        for domain in DOMAINS:
            path = po_path(domain, lang)
            if not path.exists():
                continue
            mo = path.with_suffix(".mo")
            with mo.open("wb") as f:
                write_mo(f, _read(path, lang), use_fuzzy=False)
            written.append(mo)
    return written


def stale() -> bool:
    """Whether some `.po` is newer than its `.mo` (or has none)."""
    for lang in TRANSLATED:
        for domain in DOMAINS:
            path = po_path(domain, lang)
            mo = path.with_suffix(".mo")
            if path.exists() and (not mo.exists() or mo.stat().st_mtime < path.stat().st_mtime):
                return True
    return False


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "compile"
    domains = argv[1:] or list(DOMAINS)
    if what == "extract":
        extract(domains)
    elif what == "update":
        update(domains)
    elif what == "compile":
        for mo in compile_all():
            print(f"compiled {mo.relative_to(BOT_DIR.parent)}")
    elif what == "check":
        reports = [check(d, lang) for d in domains for lang in TRANSLATED]
        for report in reports:
            print(report.line())
            for problem in (report.untranslated + report.fuzzy + report.errors + report.missing)[:20]:
                print(f"    {problem!r}")
        return 0 if all(r.ok for r in reports) else 1
    else:
        print(f"usage: python -m bot.i18n.catalogs extract|update|check|compile [domain ...]; not {what!r}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
