"""The layers as drawn (ARCHITECTURE.md): `storage/` knows nothing of the engine, nor of the packages above it.

Read from the source (each module's syntax tree), not by importing it, so that an import hidden in a function, under
`TYPE_CHECKING` or behind `importlib` is found as well as one at the top of a file.
"""

import ast
from pathlib import Path

import storage

STORAGE = Path(storage.__file__).parent
FORBIDDEN = ("engine", "bot", "replay")
"""Top-level packages storage must not import: the engine (storage keeps logs it does not understand), and the
layers that use storage (`bot`, and `replay`, which joins storage to the engine)."""


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every import in the tree, including `importlib.import_module("…")`/`__import__("…")`
    with a literal name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def _forbidden(module: str) -> bool:
    return module.split(".")[0] in FORBIDDEN


def test_no_module_under_storage_imports_the_engine_or_the_layers_above() -> None:
    files = sorted(STORAGE.rglob("*.py"))
    assert STORAGE / "sqlite" / "games.py" in files and STORAGE / "store.py" in files  # the walk sees the packages
    leaks = [
        f"{path.relative_to(STORAGE.parent)}:{line}: imports {module}"
        for path in files
        for line, module in _imported(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if _forbidden(module)
    ]
    assert leaks == []


def test_the_check_finds_every_kind_of_import() -> None:
    source = (
        "import engine\n"
        "from engine.game import Game\n"
        "if TYPE_CHECKING:\n    from bot.client import create_bot\n"
        "def late():\n    import replay.log\n"
        "importlib.import_module('engine.kkk')\n"
        "from storage import models\n"
        "from . import errors\n"
    )
    assert [m for _, m in _imported(ast.parse(source)) if _forbidden(m)] == [
        "engine",
        "engine.game",
        "bot.client",
        "replay.log",
        "engine.kkk",
    ]


def _module_name(path: Path) -> str:
    parts = path.relative_to(STORAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_import_circle_inside_storage() -> None:
    """The interface (`storage.store` and its parts) imports no backend, and a backend imports the interface: the
    modules' imports form no circle. `from a import b` counts as importing `a.b` when that is a module (as Python
    loads it), and a package's `__init__` is not counted as imported by its own modules."""
    modules = {_module_name(path): path for path in STORAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
        graph[name] = {e for e in edges if e in modules and e != name and not name.startswith(e + ".")}

    def circle_from(start: str) -> list[str] | None:
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    return [*trail, start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
        return None

    circles = [c for c in map(circle_from, sorted(graph)) if c]
    assert circles == []
    assert "storage.sqlite.store" in graph["storage.backends"] or "storage.sqlite" in graph["storage.backends"]
    assert not any(e.startswith("storage.sqlite") for e in graph["storage.store"])  # the interface knows no backend
