"""Structured logging: every line about a game carries `game=<id>`, so one game's story can be followed.

Use `game_logger(game_id)` (a `LoggerAdapter`) for anything about a game; extra fields passed as
`extra={"fields": {...}}` are appended as `key=value` (text) or merged into the object (json).
"""

import json
import logging
import sys
from collections.abc import MutableMapping
from datetime import UTC, datetime
from typing import Any

log = logging.getLogger("boardroom")


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    game = getattr(record, "game", None)
    if game is not None:
        fields["game"] = game
    extra = getattr(record, "fields", None)
    if isinstance(extra, dict):
        fields.update(extra)
    return fields


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        fields = " ".join(f"{k}={v}" for k, v in _fields(record).items())
        line = f"{when} {record.levelname:<7} {record.name}: {record.getMessage()}"
        if fields:
            line += f" [{fields}]"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


def configure(level: str = "INFO", fmt: str = "text") -> None:
    """Log to stderr in the chosen format; discord.py's own loggers are quieter than ours."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.getLogger("discord.gateway").setLevel(logging.WARNING)


class GameLogger(logging.LoggerAdapter):  # type: ignore[type-arg]
    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        extra = dict(kwargs.get("extra") or {})
        extra.setdefault("game", (self.extra or {}).get("game"))
        kwargs["extra"] = extra
        return msg, kwargs


def game_logger(game_id: int | None, name: str = "boardroom") -> GameLogger:
    return GameLogger(logging.getLogger(name), {"game": game_id})
