"""The import graph as drawn (ARCHITECTURE.md): arrows run one way, bot → replay → storage → engine, and no module
imports itself back round a circle, except for type checking (`if TYPE_CHECKING:` imports, which never run).

Read from the source (each module's syntax tree), not by importing it; an import inside a function counts as much as
one at the top of a file, so a circle cannot hide behind a lazy import.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "replay", "storage", "engine")
"""Top to bottom: a package may import those after it, never those before it."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _module_of(name: str) -> str | None:
    """The module of ours that `name` (a module, or a name inside one) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(path: Path) -> set[str]:
    """The modules of ours that `path` imports when it runs (type-checking imports left out)."""
    found: set[str] = set()

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                for other in child.orelse:  # type: ignore[attr-defined]
                    walk(other)
                continue
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [f"{child.module}.{alias.name}" for alias in child.names]
            found.update(m for m in map(_module_of, names) if m is not None)
            walk(child)

    walk(ast.parse(path.read_text(encoding="utf-8")))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


GRAPH = {name: imports(path) - {name} for name, path in MODULES.items()}


def test_arrows_run_one_way_down_the_layers() -> None:
    assert {"bot.service.play", "storage.store", "engine.game", "replay.stored"} <= GRAPH.keys()
    upward = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if PACKAGES.index(target.split(".")[0]) < PACKAGES.index(name.split(".")[0])
    ]
    assert upward == []


def test_no_module_imports_itself_back_round_a_circle() -> None:
    assert circles(GRAPH) == []


def test_the_check_sees_a_circle_and_a_lazy_import(tmp_path: Path) -> None:
    """The checks above can fail: a circle through a lazy import is found, a type-checking one is not."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.host import Host\n"
        "def later():\n    from bot.service import play\n",
        encoding="utf-8",
    )
    assert imports(source) == {"bot.service.play"}
