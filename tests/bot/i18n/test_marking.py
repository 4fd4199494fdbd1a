"""Every word marked where Babel can find it: a marking call (`_`, `n_`, `p_`, `N_`) written inside another's
arguments is never extracted (Babel's Python extractor skips nested calls), so its message would silently miss
every catalog and stay English at a Dutch or German table. Hoist it into a variable first."""

import ast
from pathlib import Path

import bot

MARKS = {"_", "n_", "p_", "N_"}


def _mark(call: ast.AST) -> str | None:
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in MARKS:
        return call.func.id
    return None


def test_no_literal_message_is_marked_inside_another_marking_call() -> None:
    nested: list[str] = []
    for path in Path(bot.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if _mark(node) is None:
                continue
            assert isinstance(node, ast.Call)
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                for inner in ast.walk(arg):
                    if _mark(inner) and any(isinstance(a, ast.Constant) for a in inner.args):  # type: ignore[attr-defined]
                        nested.append(f"{path.relative_to(path.parents[2])}:{inner.lineno}")
    assert not nested, f"marked inside another marking call (Babel never extracts these): {nested}"
