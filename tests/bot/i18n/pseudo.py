"""Everything a person can read in a SimCord run, collected as Discord holds it; and a run in a forced language.

`Transcript.install(env, monkeypatch)` hooks SimCord's backend so that every version of every text the bot shows is
collected the moment Discord stores it: each message created or edited (its content, its embeds' titles,
descriptions, fields, footers and authors, its components' button labels, select placeholders and options' labels
and descriptions, text displays), in every channel, thread and DM, ephemeral answers included; every modal (its
title and its inputs' labels, placeholders and prefilled values); every autocomplete suggestion's name; every thread's
name; and every word drawn on a picture (`bot.drawing.text`, the one way words get onto a picture).

Under the pseudo-language (`pseudo=True`: `bot.i18n.forced` is `qps`, so every context speaks it) each text is
checked with `unwrapped` as it arrives (`Transcript.offenders`), and then stored without its ⟦ ⟧ marks: the rest of
the test reads exactly what an English run shows (labels to click, lines to find, sizes to measure), so a seeded
game's own assertions hold in the pseudo-language and the same run proves both. Pictures keep the marks (the
bundled font lacks ⟦ ⟧, so `bot.drawing.plain` is told they are drawable; a picture is never compared to English).

`Lookups.install(monkeypatch)` records every catalog lookup (domain, language, message id, what it gave, whether the
catalog holds it), for the Dutch and German games: a message shown at a Dutch table that fell back to its English id.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from simcord import interactions as simcord_interactions
from simcord.backend.models.interaction import Interaction

import bot.i18n
from bot import drawing
from tests.bot.i18n.unwrapped import CLOSE, OPEN, Offenders

_MARKS = str.maketrans("", "", OPEN + CLOSE)
_VISIBLE = ("content", "title", "description", "label", "placeholder", "text")
"""The keys of a message's, embed's, component's or modal's payload whose strings a person reads (with `name` of an
embed's field or author, and `value` of a field or a text input)."""


def unmarked(text: str) -> str:
    """`text` without its ⟦ ⟧ marks: under the pseudo-language, what an English run shows."""
    return text.translate(_MARKS)


def _strip(value: Any) -> Any:
    if isinstance(value, str):
        return unmarked(value)
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items()}
    return value


def visible(payload: Any, where: str) -> list[tuple[str, str]]:
    """(where, text) for each string of a message/embed/component/modal payload that a person reads."""
    out: list[tuple[str, str]] = []

    def walk(node: Any, path: str, kind: str | None) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, path, kind)
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key in ("emoji", "custom_id", "url", "icon_url", "proxy_url", "proxy_icon_url", "media"):
                continue
            if isinstance(value, str):
                readable = key in _VISIBLE
                readable |= key == "name" and kind in ("field", "author")
                readable |= key == "value" and (kind == "field" or node.get("type") == 4)
                if readable and value:
                    out.append((f"{path} {key}", value))
            elif key == "fields":
                walk(value, f"{path} field", "field")
            elif key == "author":
                walk(value, f"{path} author", "author")
            elif key == "footer":
                walk(value, f"{path} footer", "footer")
            elif key == "options" and isinstance(value, list):
                walk(value, f"{path} option", "option")
            elif isinstance(value, list | dict):
                walk(value, path if key != "components" else f"{path} component", kind)

    walk(payload, where, None)
    return out


@dataclass
class Transcript:
    """Every text a person could read during the run, where it was first seen (see the module's docstring)."""

    env: simcord.Env
    pseudo: bool = False
    texts: dict[str, str] = field(default_factory=dict)
    """text (as the bot sent it) -> where it was first seen."""
    drawn: list[str] = field(default_factory=list)
    """Every word drawn on a picture, in order."""
    offenders: Offenders = field(default_factory=Offenders)

    @classmethod
    def install(
        cls, env: simcord.Env, monkeypatch: pytest.MonkeyPatch, *, pseudo: bool = False, names: Iterable[str] = ()
    ) -> "Transcript":
        t = cls(env, pseudo)
        t.offenders.names.update(names)
        backend = env.backend
        commit, edit = backend.commit_message, backend.edit_message
        create_thread, edit_channel = backend.create_thread, backend.edit_channel

        def commit_message(message: Any, *args: Any, **kwargs: Any) -> Any:
            where = t._where(message.channel_id, message.flags)
            t._seen(visible({"content": message.content, "embeds": message.embeds}, where))
            t._seen(visible(message.components, f"{where} component"))
            if pseudo:
                message.content = unmarked(message.content)
                message.embeds, message.components = _strip(message.embeds), _strip(message.components)
            return commit(message, *args, **kwargs)

        def edit_message(channel_id: int, message_id: int, fields: dict[str, Any], *args: Any, **kw: Any) -> Any:
            flags = backend.messages.get(channel_id, {}).get(message_id)
            where = t._where(channel_id, flags.flags if flags is not None else 0) + " (edited)"
            t._seen(visible({k: v for k, v in fields.items() if k in ("content", "embeds")}, where))
            t._seen(visible(fields.get("components") or [], f"{where} component"))
            return edit(channel_id, message_id, _strip(fields) if pseudo else fields, *args, **kw)

        def thread(parent_id: int, name: str, *args: Any, **kwargs: Any) -> Any:
            t._seen([("thread name", name)])
            return create_thread(parent_id, unmarked(name) if pseudo else name, *args, **kwargs)

        def channel(channel_id: int, changes: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(changes.get("name"), str):
                t._seen([("channel name", changes["name"])])
                if pseudo:
                    changes = {**changes, "name": unmarked(changes["name"])}
            return edit_channel(channel_id, changes, *args, **kwargs)

        monkeypatch.setattr(backend, "commit_message", commit_message)
        monkeypatch.setattr(backend, "edit_message", edit_message)
        monkeypatch.setattr(backend, "create_thread", thread)
        monkeypatch.setattr(backend, "edit_channel", channel)

        show_modal, complete = Interaction.show_modal, Interaction.complete_autocomplete

        def modal(self: Interaction, payload: dict[str, Any]) -> None:
            t._seen(visible(payload, "modal"))
            show_modal(self, _strip(payload) if pseudo else payload)

        def suggestions(self: Interaction, choices: list[dict[str, Any]]) -> None:
            t._seen([("autocomplete", c["name"]) for c in choices if isinstance(c.get("name"), str)])
            complete(self, _strip(choices) if pseudo else choices)

        monkeypatch.setattr(Interaction, "show_modal", modal)
        monkeypatch.setattr(Interaction, "complete_autocomplete", suggestions)

        draw_text = drawing.text

        carry = {"open": 0, "lines": 0}

        def text(draw: Any, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
            # A label wrapped over several lines (`_lines` on a picture) is one message: a line that continues an
            # unclosed ⟦ is checked as inside it. The carry lasts a few lines at most (a label cut short by `fit`
            # never closes).
            t.drawn.append(words)
            if len(words.strip()) > 1:  # a lone letter on a picture is a mark: a badge, a board's column (a–e)
                t._seen([("picture", OPEN * carry["open"] + words)])
            depth = carry["open"] + words.count(OPEN) - words.count(CLOSE)
            carry["lines"] = carry["lines"] + 1 if depth > 0 else 0
            carry["open"] = depth if depth > 0 and carry["lines"] <= 4 else 0
            draw_text(draw, xy, words, *args, **kwargs)

        monkeypatch.setattr(drawing, "text", text)
        if pseudo:
            drawable = drawing.drawable
            monkeypatch.setattr(drawing, "drawable", lambda c: c in (OPEN, CLOSE) or drawable(c))
            monkeypatch.setattr(bot.i18n, "forced", bot.i18n.PSEUDO)
        return t

    def _where(self, channel_id: int, flags: int) -> str:
        channel = self.env.backend.channels.get(channel_id)
        kind = "DM" if getattr(channel, "type", None) == 1 else getattr(channel, "name", str(channel_id))
        return f"{kind}{' ephemeral' if flags & (1 << 6) else ''}"

    def _seen(self, found: list[tuple[str, str]]) -> None:
        for where, text in found:
            self.texts.setdefault(text, where)
            if self.pseudo:
                self.offenders.check(where, text)

    def lines(self) -> list[str]:
        """Every distinct line of every text seen (pictures' words included), marks taken off."""
        seen: dict[str, None] = {}
        for text in self.texts:
            for line in unmarked(text).splitlines():
                if line.strip():
                    seen.setdefault(line.strip())
        return list(seen)

    def assert_all_wrapped(self) -> None:
        """The pseudo-language run's verdict: not one word a person reads was left unmarked."""
        assert self.pseudo and self.texts, "nothing was collected: is the transcript installed before the game?"
        assert self.offenders.count == 0, self.offenders.report()


@dataclass(frozen=True)
class Lookup:
    domain: str
    language: str
    message: str
    said: str
    translated: bool
    """The catalog holds the message (a translation equal to its id, "Start" in Dutch, counts: it was chosen)."""


class _Recording:
    def __init__(self, inner: Any, domain: str, language: str, log: list[Lookup]) -> None:
        self.inner, self.domain, self.language, self.log = inner, domain, language, log
        self.catalog: dict[Any, str] = getattr(inner, "_catalog", {})

    def _note(self, message: str, said: str, key: Any) -> str:
        self.log.append(Lookup(self.domain, self.language, message, said, key in self.catalog))
        return said

    def gettext(self, message: str) -> str:
        return self._note(message, self.inner.gettext(message), message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._note(singular, self.inner.ngettext(singular, plural, n), (singular, 0))

    def pgettext(self, context: str, message: str) -> str:
        return self._note(message, self.inner.pgettext(context, message), f"{context}\x04{message}")


@dataclass
class Lookups:
    """Every catalog lookup of the run (`bot.i18n.translation` wrapped)."""

    log: list[Lookup] = field(default_factory=list)

    @classmethod
    def install(cls, monkeypatch: pytest.MonkeyPatch) -> "Lookups":
        lookups = cls()
        translation = bot.i18n.translation

        def recording(domain: str, language: str) -> Any:
            return _Recording(translation(domain, language), domain, language, lookups.log)

        monkeypatch.setattr(bot.i18n, "translation", recording)
        return lookups

    def untranslated(self, language: str) -> list[Lookup]:
        """The messages looked up in `language` that its catalog lacks (shown in English), once each: those with a
        word outside their placeholders."""
        out: dict[tuple[str, str], Lookup] = {}
        for x in self.log:
            bare = re.sub(r"%\(\w+\)[sdfr]|%%", " ", x.message)
            if x.language == language and not x.translated and re.search(r"[^\W\d_]{2,}", bare):
                out.setdefault((x.domain, x.message), x)
        return list(out.values())

    def shown(self, language: str, domain: str) -> list[Lookup]:
        """Distinct translated messages of `domain` looked up in `language`, whose words differ from English."""
        out: dict[str, Lookup] = {}
        for x in self.log:
            if x.language == language and x.domain == domain and x.translated and x.said != x.message:
                out.setdefault(x.message, x)
        return list(out.values())


def discord_locales(monkeypatch: pytest.MonkeyPatch, by_name: dict[str, str], default: str) -> None:
    """Each interaction's `locale` (the reader's Discord client language) by the user's name, `default` for the
    others; the guild's `guild_locale` is `default` too. (SimCord says "en-US" for everyone.)"""
    base_payload = simcord_interactions.base_payload

    def payload(backend: Any, **kwargs: Any) -> Any:
        record, built = base_payload(backend, **kwargs)
        built["locale"] = by_name.get(backend.get_user(kwargs["user_id"]).name, default)
        if "guild_locale" in built:
            built["guild_locale"] = default
        return record, built

    monkeypatch.setattr(simcord_interactions, "base_payload", payload)


def new_table_in(language: str, options: str | None = None) -> dict[str, Any]:
    """The `/game new` parameters that open a table speaking `language`: its own `language` parameter where the
    command has one, else `language=…` among the `options`."""
    from bot.cogs.game import GameCog

    if "language" in [p.name for p in GameCog.new.parameters]:
        return {"language": language, **({"options": options} if options else {})}
    return {"options": " ".join(x for x in (options, f"language={language}") if x)}
