# Two entry points for a fresh machine: `make run` starts the bot, `make test` runs the checks.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format clean catalogs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The compiled catalogs (.mo) are built from the committed .po sources, never by hand (bot/i18n/catalogs.py).
catalogs: $(STAMP)
	$(BIN)/python -m bot.i18n.catalogs compile

run: $(STAMP) catalogs
	$(BIN)/python -m bot

test: $(STAMP) catalogs
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -n 4 --dist worksteal

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV)
