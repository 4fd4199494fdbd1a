"""The players' rules in Discord: `/game rules` as a short paged embed, read from `docs/rules/<game>.md`, or in
Dutch or German from `docs/rules/<game>.nl.md` / `<game>.de.md` where the game has one (`load(name, language=…)`;
English otherwise: a page not yet translated is better than none).

The pages players read in Discord and the pages the repository keeps (and a server owner may publish, see the
`RULES_URL` setting) are the same text: each `## ` heading of the game's file starts a page, its `# ` heading is the
title and the paragraph under it the game's one-line introduction (shown on the first page and in the list of all
games). Nothing here is written twice, so the two cannot drift apart. A game without a page of its own (a new one,
or a test game) gets one page from its presentation's `rules(game)` summary.

Pages are turned with ◀ ▶ buttons (`RulesButton` in `bot.rules_answer`), which edit the answer in place; `page:` jumps
to a page directly. Buttons, because a player reads the rules on a phone: one tap per page, in one message, with no
command to retype. Their `custom_id` names the game kind and the page, so they work after any restart.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bot.i18n import current
from bot.i18n.platform import _
from bot.presentation import Post

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
COLOUR = 0x2F855A
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_EMBED = 6000


@dataclass(frozen=True)
class Page:
    title: str
    body: str


@dataclass(frozen=True)
class Rules:
    title: str
    intro: str
    pages: tuple[Page, ...]


def parse(text: str, fallback_title: str) -> Rules:
    """A rules file: `# Title`, an introduction, then one page per `## ` heading."""
    title = fallback_title
    intro: list[str] = []
    pages: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("# ") and not pages and title == fallback_title:
            title = line[2:].strip()
        elif line.startswith("## "):
            pages.append((line[3:].strip(), []))
        elif pages:
            pages[-1][1].append(line)
        else:
            intro.append(line)
    return Rules(
        title=title,
        intro=" ".join(" ".join(intro).split()),
        pages=tuple(Page(name, "\n".join(body).strip()) for name, body in pages),
    )


def load(name: str, folder: Path = RULES_DIR, language: str | None = None) -> Rules | None:
    """The game's rules pages in `language` (None: the language being spoken): `docs/rules/<name>.<language>.md`
    where it exists, else the English `docs/rules/<name>.md`; None when neither exists. Read once per process."""
    return _load(name, folder, language or current())


def path_of(name: str, folder: Path = RULES_DIR, language: str = "en") -> Path:
    """The file `load` reads for `name` in `language` (the English one when there is no translation)."""
    translated = folder / f"{name}.{language}.md"
    return translated if language != "en" and translated.is_file() else folder / f"{name}.md"


@cache
def _load(name: str, folder: Path, language: str) -> Rules | None:
    path = path_of(name, folder, language)
    if not path.is_file():
        return None
    return parse(path.read_text(encoding="utf-8"), name)


def rules_post(
    rules: Rules,
    page: int,
    *,
    name: str,
    players: str,
    link: str | None = None,
    options: list[str] | None = None,
) -> Post:
    """Page `page` (0-based, clamped) of the game `name` as an embed: the game's introduction and its own options
    (for `/game new`, where the first page is what someone choosing a game reads) with the first page, and the
    published pages' address when there is one."""
    count = max(len(rules.pages), 1)
    page = min(max(page, 0), count - 1)
    shown = rules.pages[page] if rules.pages else Page(_("Rules"), "")
    parts = []
    if page == 0 and rules.intro:
        parts.append(rules.intro)
    if shown.body:
        parts.append(shown.body)
    if link:
        parts.append(_("📖 All pages: %(link)s", link=link))
    post = Post(
        title=f"{rules.title} — {shown.title}"[:MAX_TITLE],
        description="\n\n".join(parts),
        colour=COLOUR,
        footer=_("Page %(page)d of %(count)d · %(players)s", page=page + 1, count=count, players=players),
    )
    if options and page == 0:
        post.fields.append(
            (
                _("Options for /game new game:%(name)s options:…", name=name),
                "\n".join(f"• {o}" for o in options),
            )
        )
    return post


def embed_size(post: Post) -> int:
    """What Discord counts towards an embed's 6000 characters."""
    fields = sum(len(name) + len(value) for name, value in post.fields)
    return len(post.title or "") + len(post.description or "") + len(post.footer or "") + fields
