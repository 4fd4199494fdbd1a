"""Nothing Casablanca shows is left unmarked: whole seeded games (main game and HQ variant) rendered in the
pseudo-language, where every translated message is wrapped in ⟦…⟧. What is left outside the brackets may only be
names (players', agents'), numbers, money, emoji, punctuation, markdown, mentions and timestamps. And every refusal
code the engine raises has words."""

import re

import pytest

from bot.i18n import speaking
from tests.bot.games.casablanca import rendering
from tests.engine.casablanca.helpers import new_game

AGENTS = [a.name for a in rendering.GAME.map.agents]
ALLOWED_WORDS = {*rendering.NAMES, *(w for name in AGENTS for w in name.split()), "Casablanca"}
BRACKETS = re.compile(r"⟦[^⟦⟧]*⟧")
TOKEN = re.compile(r"[^\W\d_]+", re.UNICODE)


def unmarked(text: str) -> list[str]:
    """The words of `text` outside every ⟦…⟧ that are not names (empty: all marked). A text cut to Discord's limit
    (ending "…") may have lost its closing brackets."""
    rest = text + "⟧" * (text.count("⟦") - text.count("⟧")) if text.endswith("…") else text
    while True:
        shorter = BRACKETS.sub(" ", rest)
        if shorter == rest:
            break
        rest = shorter
    rest = re.sub(r"<t:\d+(:[a-zA-Z])?>|<@!?\d+>|<#\d+>", " ", rest)
    return [w for w in TOKEN.findall(rest) if w not in ALLOWED_WORDS]


@pytest.mark.parametrize(("seats", "seed", "variant"), [(3, 5, False), (4, 2, True)])
def test_a_whole_seeded_game_in_the_pseudo_language_has_no_unmarked_words(seats: int, seed: int, variant: bool) -> None:
    with speaking("qps"):
        shown = rendering.game_texts(seats, seed, variant=variant, every=3)
    assert len(shown) > 200
    leaks = {(s.what, s.text) for s in shown if unmarked(s.text)}
    assert not leaks, sorted(leaks)[:20]


def test_every_refusal_code_of_the_engine_has_marked_words() -> None:
    codes = rendering.engine_codes()
    assert {"not_enough_capital", "limit_above_bribe", "not_adjacent", "player_count"} <= codes
    with speaking("qps"):
        words = rendering.refusal_texts(new_game(3))
    assert set(words) >= codes
    leaks = {code: text for code, text in words.items() if unmarked(text)}
    assert not leaks, leaks


def test_the_rules_summary_and_the_options_help_are_marked() -> None:
    with speaking("qps"):
        shown = rendering.other_texts()
    assert not [s.text for s in shown if unmarked(s.text)]


def test_the_words_check_itself_catches_an_unmarked_word() -> None:
    assert unmarked("⟦x⟧ anna — $1,300 🟣 **bert** moves") == ["moves"]
    assert unmarked("⟦a ⟦b⟧ c⟧ <t:123:R> Don Greenwood") == []
