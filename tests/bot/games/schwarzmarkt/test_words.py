"""Schwarzmarkt in three languages (issue 28): in the pseudo-language every word is marked (nothing outside ⟦…⟧ but
names, numbers, emoji, punctuation and markdown); in Dutch and German every line reads differently from the English
unless it is only names and numbers; everything within Discord's limits in every language; every refusal code the
engine raises has words; and every event kind the engine emits has a line (see `words_cases`)."""

import re

import pytest

from bot.i18n import speaking

from .words_cases import CODES, EVENTS, NAMES, PRIVATE_KINDS, PROPER, PUBLIC_KINDS, all_cases, engine_codes

ALLOWED = {*NAMES, "Schwarzmarkt"}
"""Words that may stand outside the pseudo-language's brackets: the players' names and the game's."""
WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
INNER = re.compile(r"⟦[^⟦⟧]*⟧")


def unmarked(text: str) -> list[str]:
    """The words of `text` outside every ⟦…⟧ (innermost first: a placeholder's own words are marked inside)."""
    while INNER.search(text):
        text = INNER.sub(" ", text)
    for name in PROPER:
        text = text.replace(name, " ")
    return [w for w in WORD.findall(text) if w not in ALLOWED]


def plain(line: str) -> bool:
    """A line made only of names, numbers, emoji, punctuation and markdown (the same in every language)."""
    for name in (*PROPER, *NAMES):
        line = line.replace(name, " ")
    return not WORD.search(line)


def test_every_refusal_code_the_engine_raises_has_words() -> None:
    raised = engine_codes()
    assert raised, "no rule codes found in engine/schwarzmarkt"
    assert raised <= set(CODES), f"codes without words: {sorted(raised - set(CODES))}"


def test_every_event_kind_has_a_case() -> None:
    kinds = {e.kind for e in EVENTS}
    assert set(PUBLIC_KINDS) | set(PRIVATE_KINDS) <= kinds


def test_the_pseudo_language_finds_no_unmarked_word(monkeypatch: pytest.MonkeyPatch) -> None:
    with speaking("qps"):
        cases = all_cases(monkeypatch)
    bad = [(where, text) for where, text, _limit in cases if unmarked(text)]
    assert not bad, bad[:10]


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_dutch_and_german_say_every_line_in_their_own_words(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with speaking("en"):
        english = all_cases(monkeypatch)
    with speaking(lang):
        spoken = all_cases(monkeypatch)
    assert [w for w, _t, _l in english] == [w for w, _t, _l in spoken], "the same cases in the same order"
    same = []
    for (where, en, _), (_, said, _) in zip(english, spoken, strict=True):
        for en_line, line in zip(en.splitlines(), said.splitlines(), strict=False):
            if line == en_line and not plain(line):
                same.append((where, line))
    assert not same, same[:10]


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_everything_fits_discords_limits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with speaking(lang):
        cases = all_cases(monkeypatch)
    over = [(where, len(text), limit) for where, text, limit in cases if limit is not None and len(text) > limit]
    assert not over, over[:10]
    assert all(text for _w, text, _l in cases if not _w.startswith("option")), "an empty rendering"
