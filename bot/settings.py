"""The bot's settings, read from the environment or a `.env` file (pydantic-settings).

Every field here is listed with a comment in `.env.example`. The token is a `SecretStr` so it never appears in a
log line or a traceback. `DISCORD_TOKEN` may be empty here: `python -m bot` checks it and exits with one clear line,
while tests build a bot without any token.
"""

from pathlib import Path
from typing import Literal

from pydantic import DirectoryPath, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = SecretStr("")
    """The bot user's token (developer portal → your application → Bot)."""
    database_path: Path = Path("data/boardroom.sqlite3")
    """The SQLite file holding every game; its folder is created when missing."""
    database_url: SecretStr | None = None
    """A PostgreSQL database instead of the SQLite file (`postgresql://user:password@host:5432/boardroom`; see
    docs/postgres.md). Not set: the SQLite file above. A secret: it may carry a password."""
    dev_guild_id: int | None = None
    """A development server: slash commands are synced there (instantly) instead of globally."""
    log_level: LogLevel = "INFO"
    log_format: Literal["text", "json"] = "text"
    """`text` for people reading a terminal, `json` (one object a line) for log collectors."""
    command_sync: Literal["auto", "always", "never"] = "auto"
    """`auto` syncs slash commands only when their definitions changed since the last sync."""
    reminders: bool = True
    """Remind awaited players halfway to a deadline and one hour before it."""
    interaction_defer_after: float = Field(default=1.5, gt=0, le=2.5)
    """Seconds an interaction may take before the bot defers it (Discord allows 3)."""
    game_data_dir: DirectoryPath | None = None
    """A folder of replacement game data files, one folder per game (`kkk/board.toml`, `kkk/tiles.toml`,
    `kesse_ruegen/board.toml`, `casablanca/map.toml`, `schwarzmarkt/market.toml`); a file missing there is the
    packaged default (see `engine.registry.build`)."""

    backup_dir: Path | None = None
    """Where automatic and `/mod backup` backups go; not set: a `backups` folder beside the database."""
    backup_every_hours: float = Field(default=24.0, ge=0)
    """Hours between automatic backups (0: none)."""
    backup_keep: int = Field(default=7, ge=1)
    """How many automatic backups to keep (and, separately, how many made with `/mod backup`)."""
    lobby_idle_days: float = Field(default=14.0, gt=0)
    """A lobby nobody opened, joined, left or started for this many days is closed by itself."""
    outbox_keep_days: float = Field(default=7.0, gt=0)
    """Delivered messages stay in the outbox this many days (for looking into a problem), then the hourly
    housekeeping deletes them: the outbox is a queue, not a record (the game's log is the record)."""
    autopilot_after: int = Field(default=3, ge=0, le=100)
    """A player who lets this many turn deadlines in a row pass gets the autopilot for their seat (0: never); a DM
    warns them one miss before. `/game back` takes the seat back."""
    computer_moves_per_hour: int = Field(default=120, ge=1, le=3600)
    """At most this many moves an hour by one computer player or autopiloted seat."""
    away_max_days: float = Field(default=7.0, gt=0, le=365)
    """On a table whose `away` option is `pause`, a player's turns' clocks stop while they are away for at most this
    many days in all per game; after that their clocks run again (nobody holds a table hostage)."""

    http_port: int | None = Field(default=None, ge=0, le=65535)
    """An HTTP port for `/healthz` and `/metrics` (`bot.http_port`); not set: none is opened. 0: any free port."""
    http_host: str = "127.0.0.1"
    """The address the HTTP port listens on (0.0.0.0: every interface)."""
    health_max_lag: float = Field(default=300.0, gt=0)
    """`/healthz` answers 503 when the most overdue timer is later than this many seconds."""
    health_max_backlog: int = Field(default=1000, ge=0)
    """`/healthz` answers 503 when more outbox rows than this wait for delivery."""
    shard_count: int | None = Field(default=None, ge=1)
    """The gateway's shards in all (Discord wants one per ≤ 2,500 servers). Set: the bot is an `AutoShardedBot`
    holding `SHARD_IDS` of them, and catches up with each shard's games as that shard connects. Not set: one
    connection, as Discord decides."""
    shard_ids: list[int] | None = None
    """The shards this process holds, e.g. `0,1` (not set: all of `SHARD_COUNT`). Several processes on one database
    (PostgreSQL) each hold some; DMs arrive on shard 0 only."""
    process_name: str | None = None
    """This process's name among several on one database: who holds its claims on timers and deliveries. Not set:
    this host and its shards, which differs between processes holding different shards."""
    claim_lease_seconds: float = Field(default=60.0, ge=5.0, le=3600.0)
    """How long a process's claim on a timer or a delivery holds: a process that dies stalls its work for at most
    this long before another takes it over."""

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            return [int(part) for part in value.replace(" ", "").split(",") if part] if value else None
        if isinstance(value, int):
            return [value]
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> "Settings":
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards in all)")
            if not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
                raise ValueError("SHARD_IDS must list each shard once")
            if any(not 0 <= s < self.shard_count for s in self.shard_ids):
                raise ValueError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({self.shard_count - 1})")
        return self

    @property
    def database(self) -> str | Path:
        """Where the store lives: the PostgreSQL URL when DATABASE_URL is set, else the SQLite file."""
        return self.database_url.get_secret_value().strip() if self.database_url else self.database_path

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, str) and not value.strip().startswith(("postgresql://", "postgres://")):
            raise ValueError("give a postgresql:// URL, or leave it empty to use the SQLite file")
        return value

    @property
    def backups(self) -> Path:
        return self.backup_dir or self.database_path.parent / "backups"

    rules_url: str | None = None
    """Where the players' rules pages are published, as a base URL: `/game rules` links `<RULES_URL>/<game>.md` (e.g.
    the repository's `docs/rules/` folder on the web). Not set: the rules are shown in Discord only."""

    @field_validator("rules_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("https://", "http://")) or " " in value:
            raise ValueError("give a web address starting with https://, or leave it empty")
        return value.rstrip("/")

    def rules_link(self, game_name: str) -> str | None:
        """The web address of a game's full rules, if RULES_URL is set."""
        return f"{self.rules_url}/{game_name}.md" if self.rules_url else None

    @field_validator(
        "dev_guild_id",
        "game_data_dir",
        "rules_url",
        "backup_dir",
        "http_port",
        "shard_count",
        "process_name",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @property
    def token(self) -> str:
        return self.discord_token.get_secret_value().strip()
