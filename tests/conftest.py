"""The whole suite's set-up: the message catalogs compiled from their sources before any test speaks Dutch or
German (`make test` compiles them too; this keeps a plain `pytest` honest after a `.po` changed)."""

import pytest

from bot.i18n import catalogs


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and catalogs.stale():  # the controller only: workers share the files
        catalogs.compile_all()
