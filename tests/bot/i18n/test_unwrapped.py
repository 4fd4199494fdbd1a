"""The pseudo-language checker (`unwrapped`) itself: it finds a bare word and passes everything that is no word."""

from bot.i18n import PSEUDO, Words, speaking
from tests.bot.i18n.unwrapped import Offenders, outside, unwrapped

_ = Words("platform")._


def test_a_bare_english_word_is_found() -> None:
    assert unwrapped("⟦Anna pays $5M.⟧ Next") == ["Next"]
    assert unwrapped("Your turn") == ["Your", "turn"]
    assert unwrapped("**Round 2** — ⟦Anna⟧") == ["Round"]
    assert unwrapped("⟦a⟧ don't ⟦b⟧") == ["don't"]


def test_a_fully_wrapped_text_passes() -> None:
    assert unwrapped("⟦Your turn, **anna**: play a card.⟧") == []
    assert unwrapped("") == []
    with speaking(PSEUDO):
        said = _("%(who)s pays %(amount)s.", who="anna", amount=_("five"))
    assert said == "⟦anna pays ⟦five⟧.⟧"
    assert unwrapped(said) == []


def test_nested_wrapping() -> None:
    assert unwrapped("⟦⟦Kohle⟧ and ⟦coal⟧⟧") == []
    assert unwrapped("⟦outer ⟦inner⟧ still outer⟧ bare") == ["bare"]
    assert outside("a⟦b⟦c⟧d⟧e") == "a       e"
    # A label cut by the picture's ellipsis never closes: it runs to the end. A stray ⟧ is ignored.
    assert unwrapped("⟦Open the de…") == []
    assert unwrapped("⟧ stray") == ["stray"]


def test_names_numbers_emoji_markdown_mentions_timestamps_urls_and_terms_are_no_words() -> None:
    names = {"anna", "Bert Dave", "Zoë"}
    text = (
        "🥇 **anna** — 💰 12, `[1] 2 3 4`, > -# 3x x2 <:coin:123456> :moneybag: <@123> <@!45> <#67> <@&89> "
        "</game hand:99> <t:1700000000:R> <t:1700000000> https://example.com/rules?x=1 Bert Dave, Zoë 🇩🇪 ½ "
        "Kohle, Kies & Knete · Kesse Rügen · Casablanca · Schwarzmarkt · Boardroom · A B · `kesse_ruegen`"
    )
    assert unwrapped(text, names) == []
    # A name is only a name as given: another word is still a word.
    assert unwrapped("anna wins", names) == ["wins"]
    # A word in another script or with accents is still a word.
    assert unwrapped("Spielende für Zoë", names) == ["Spielende", "für"]


def test_offenders_gather_each_text_once() -> None:
    found = Offenders(names={"anna"})
    found.check("thread", "⟦Fine⟧ anna")
    found.check("thread", "Bare words")
    found.check("DM", "Bare words")
    assert found.checked == 2 and found.count == 1
    assert "thread" in found.report() and "'Bare words'" in found.report()
