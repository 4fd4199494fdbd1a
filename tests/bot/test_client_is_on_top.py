"""The client is on top of the import graph: it imports every feature, and nothing under `bot/` but the entry
point imports it back (not even for types: features name the running bot `bot.host.Host`). Read from the source, so
an import under `TYPE_CHECKING` or inside a function is found too."""

import ast
from pathlib import Path

import bot

BOT = Path(bot.__file__).parent


def _names(node: ast.AST) -> list[str]:
    """The modules an import statement names (`from bot import client` names `bot.client`)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return []


def _imports_client(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [node.lineno for node in ast.walk(tree) if "bot.client" in _names(node)]


def test_only_the_entry_point_imports_the_client() -> None:
    importers = {
        path.relative_to(BOT.parent).as_posix(): lines
        for path in sorted(BOT.rglob("*.py"))
        if (lines := _imports_client(path))
    }
    # The commands catalog's template is read from the real command tree, which only the client builds: a tool on
    # top of the graph like the entry point (nothing in the bot imports it). The `boardroom` console script is the
    # other entry point: its offline commands open the database as the bot does.
    assert set(importers) == {"bot/__main__.py", "bot/cli.py", "bot/i18n/command_tree.py"}
