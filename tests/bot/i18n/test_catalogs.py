"""The catalogs are complete and sound (issue 28): for every domain, Dutch and German have every message the code
says today (a new English string without its translation fails here), none untranslated, none fuzzy, every
translation keeps its placeholders and plural forms (Babel's checks), and the compiled `.mo` the bot reads says what
its `.po` source says."""

import gettext

import pytest
from babel.messages.pofile import read_po

from bot.i18n import DOMAINS, LOCALE_DIR, catalogs

LANGS = catalogs.TRANSLATED


@pytest.fixture(scope="module")
def fresh() -> dict[str, object]:
    return {domain: catalogs.extracted(domain) for domain in DOMAINS}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_catalog_is_complete_and_sound(domain: str, lang: str, fresh: dict[str, object]) -> None:
    report = catalogs.check(domain, lang, fresh[domain])  # type: ignore[arg-type]
    assert report.total > 0, f"{lang}/{domain} has no messages"
    assert not report.missing, f"{report.line()}: no translation yet for {report.missing[:10]}"
    assert not report.untranslated, f"{report.line()}: {report.untranslated[:10]}"
    assert not report.fuzzy, f"{report.line()}: {report.fuzzy[:10]}"
    assert not report.errors, f"{report.line()}: {report.errors[:10]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_compiled_catalog_says_what_its_source_says(domain: str, lang: str) -> None:
    po = catalogs.po_path(domain, lang)
    with po.open("rb") as f:
        source = read_po(f, locale=lang)
    assert source.plural_forms == "nplurals=2; plural=(n != 1);", f"{po}: Plural-Forms"
    compiled = gettext.translation(domain, localedir=LOCALE_DIR, languages=[lang])
    for message in source:
        if not message.id or message.fuzzy:
            continue
        if message.pluralizable:
            one, many = message.id[0], message.id[1]
            lookup = (
                compiled.npgettext(message.context, one, many, 1)
                if message.context
                else compiled.ngettext(one, many, 1)
            )
            assert lookup == message.string[0], f"{lang}/{domain}: {one!r}"
        else:
            lookup = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert lookup == message.string, f"{lang}/{domain}: {message.id!r}"
