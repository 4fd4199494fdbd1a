"""The players' rules in Discord: `/game rules` as a short paged embed, read from `docs/rules/<game>.md`.

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


@cache
def load(name: str, folder: Path = RULES_DIR) -> Rules | None:
    """The game's rules pages, or None when `docs/rules/<name>.md` doesn't exist. Read once per process."""
    path = folder / f"{name}.md"
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
    current = rules.pages[page] if rules.pages else Page("Rules", "")
    parts = []
    if page == 0 and rules.intro:
        parts.append(rules.intro)
    if current.body:
        parts.append(current.body)
    if link:
        parts.append(f"📖 All pages: {link}")
    post = Post(
        title=f"{rules.title} — {current.title}"[:MAX_TITLE],
        description="\n\n".join(parts),
        colour=COLOUR,
        footer=f"Page {page + 1} of {count} · {players}",
    )
    if options and page == 0:
        post.fields.append((f"Options for /game new game:{name} options:…", "\n".join(f"• {o}" for o in options)))
    return post


def embed_size(post: Post) -> int:
    """What Discord counts towards an embed's 6000 characters."""
    fields = sum(len(name) + len(value) for name, value in post.fields)
    return len(post.title or "") + len(post.description or "") + len(post.footer or "") + fields
