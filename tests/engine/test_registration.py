"""One registration per game: `engine/<game>/__init__.py` exports `ENTRY`, the registry finds the packages and
refuses one without its entry in one line, and the policy comes from the entry."""

import subprocess
import sys
import types
from pathlib import Path

import pytest

from engine import registry
from engine.entry import Entry
from engine.errors import RegistrationError
from engine.policy import policy_for

ROOT = Path(__file__).resolve().parents[2]


def test_every_engine_package_registers_its_game_under_its_own_name() -> None:
    entries = registry.entries()
    assert list(entries) == ["kkk", "kesse_ruegen", "casablanca", "schwarzmarkt"]  # the order games are listed in
    for name, entry in entries.items():
        assert entry.game.name == name
        assert (ROOT / "engine" / name / "__init__.py").is_file()
        assert entry.policy is not None
        assert policy_for(registry.get(name), "hard") is not None


def test_the_policy_interface_imports_no_game() -> None:
    """The levels a game's policy needs come from a module that imports no game: no import circle."""
    code = "import sys, engine.levels; print(sorted(m for m in sys.modules if m.startswith('engine.')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['engine.levels']"


def test_a_package_without_an_entry_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_ENTRIES", None)
    real = registry.importlib.import_module

    def import_module(name: str) -> types.ModuleType:
        return types.ModuleType(name) if name == "engine.kkk" else real(name)

    monkeypatch.setattr(registry.importlib, "import_module", import_module)
    with pytest.raises(RegistrationError, match=r"^engine/kkk/ is a package without a game: .*ENTRY"):
        registry.entries()


def test_an_entry_named_otherwise_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_ENTRIES", None)
    real = registry.importlib.import_module

    def import_module(name: str) -> types.ModuleType:
        if name != "engine.kkk":
            return real(name)
        module = types.ModuleType(name)
        module.ENTRY = Entry(game=registry.get("casablanca").__class__)  # type: ignore[attr-defined]
        return module

    monkeypatch.setattr(registry.importlib, "import_module", import_module)
    with pytest.raises(RegistrationError, match=r"^engine/kkk/ registers a game named 'casablanca'"):
        registry.entries()
