"""The words a person reads that were never marked for translation, found in a text shown under the pseudo-language.

Under `qps` (`bot.i18n.PSEUDO`) every translated message comes out wrapped in ⟦…⟧, its values filled in after the
wrapping (so a message that holds another message nests: ⟦Anna plays ⟦the Boss⟧.⟧). Whatever a person reads outside
every ⟦…⟧ was never looked up, so it would stay English at a Dutch or German table — unless it is no word at all:

- a seat's or player's name (passed in: `names`), a number, an emoji (unicode, or Discord's own `<:name:id>`),
  punctuation and symbols, Markdown (`**`, `-#`, `>`, backticks…);
- a mention (`<@id>`, `<@!id>`, `<#id>`, `<@&id>`), a command mention (`</game hand:id>`), a Discord timestamp
  (`<t:1700000000:R>`), a URL;
- one of `GAME_TERMS`, the few proper names (and the games' ids) that are the same in every language;
- a single capital letter (a badge on a picture: an agent's or a seat's letter, a grid's column) or an `x` glued to
  a number (`3x`, `x2`): marks, not words.

`unwrapped(text, names)` gives the words left, in order; `Offenders` gathers them over a whole game.

A ⟦ never closed runs to the end of the text (a picture's label cut with an ellipsis by `bot.drawing.fit`); a ⟧
never opened is ignored.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

OPEN, CLOSE = "⟦", "⟧"

GAME_TERMS: tuple[str, ...] = (
    # The four games' titles: the original German titles are the games' names in every edition's language here
    # (the Dutch rulebooks in /work/shared/seeds keep them, and German is their own language).
    "Kohle, Kies & Knete",
    "Kesse Rügen",
    "Casablanca",
    "Schwarzmarkt",
    # The languages, each named in its own words wherever it is offered or shown (a reader finds their own).
    "English",
    "Nederlands",
    "Deutsch",
    # The bot's own name, a brand.
    "Boardroom",
    # The games' ids, typed as they are in every language (`/game new game:kesse_ruegen`).
    "kkk",
    "kesse_ruegen",
    "casablanca",
    "schwarzmarkt",
)
"""Proper names that stay the same in every language. Keep it short: a word that a Dutch or German table would read
differently (a card, a good, a family, a phase) is NOT one of these — it goes through the catalogs."""

_PATTERNS = [
    r"https?://\S+",  # a URL (before anything eats its letters)
    r"<t:-?\d+(?::[tTdDfFR])?>",  # a Discord timestamp
    r"<@[!&]?\d+>",  # a user or role mention
    r"<#\d+>",  # a channel mention
    r"</[^<>:]+:\d+>",  # a command mention
    r"<a?:\w+:\d+>",  # a custom emoji
    r":[a-z0-9_+-]+:",  # an emoji shortcode
    r"(?<![^\W\d_])\d+x(?![^\W\d_])|(?<![^\W\d_])x\d+",  # 3x, x2
]
_NOT_WORDS = re.compile("|".join(f"(?:{p})" for p in _PATTERNS))
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
"""A run of letters (any script), with inner apostrophes (don't, it’s)."""


def outside(text: str) -> str:
    """`text` with everything inside ⟦…⟧ (nested or not) blanked out, so the words around keep their places."""
    out, depth = [], 0
    for c in text:
        if c == OPEN:
            depth += 1
            out.append(" ")
        elif c == CLOSE:
            depth = max(depth - 1, 0)
            out.append(" ")
        else:
            out.append(" " if depth else c)
    return "".join(out)


def unwrapped(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` outside every ⟦…⟧ that are not names, numbers, emoji, symbols, Markdown, mentions,
    timestamps, URLs or `GAME_TERMS` (see the module's docstring)."""
    rest = _NOT_WORDS.sub(" ", outside(text))
    for known in sorted({*names, *GAME_TERMS}, key=len, reverse=True):
        if known:
            rest = rest.replace(known, " ")
    words = [w for w in _WORD.findall(rest) if any(c.isalpha() for c in w)]  # not ½ or Ⅻ: numbers
    return [w for w in words if not (len(w) == 1 and w.isupper())]


@dataclass
class Offenders:
    """The unwrapped words of many texts: each text that has some, once, with where it was seen."""

    names: set[str] = field(default_factory=set)
    found: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    """text -> (where it was seen first, its unwrapped words)."""
    seen: set[str] = field(default_factory=set)

    @property
    def checked(self) -> int:
        return len(self.seen)

    def check(self, where: str, text: str) -> None:
        if not text or text in self.seen:
            return
        self.seen.add(text)
        words = unwrapped(text, self.names)
        if words:
            self.found[text] = (where, words)

    @property
    def count(self) -> int:
        """How many distinct texts hold an unwrapped word."""
        return len(self.found)

    def report(self, first: int = 20) -> str:
        counts: dict[str, int] = {}
        for _where, words in self.found.values():
            for word in set(words):
                counts[word] = counts.get(word, 0) + 1
        common = sorted(counts.items(), key=lambda kv: -kv[1])[:60]
        lines = [f"{self.count} of {self.checked} distinct texts hold unwrapped words; the first {first}:"]
        lines.append("words (texts holding each): " + ", ".join(f"{w} ({n})" for w, n in common))
        for text, (where, words) in list(self.found.items())[:first]:
            lines.append(f"- {where}: {' '.join(words)[:120]!r} in {text[:200]!r}")
        shown = {w for _t, (_w, words) in list(self.found.items())[:first] for w in words}
        for word, _n in common:  # one example of each word the first ones don't show
            if word in shown:
                continue
            text, (where, words) = next((t, f) for t, f in self.found.items() if word in f[1])
            shown |= set(words)
            lines.append(f"- e.g. {word!r}, {where}: {text[:300]!r}")
        return "\n".join(lines)
