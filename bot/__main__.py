"""`python -m bot`: start Boardroom.

Settings come from the environment or `.env` (see `.env.example`). The errors a server owner can fix end with one
clear line on stderr and no traceback: a missing or rejected token (exit code 2), a database file the store refuses —
corrupt, foreign, read-only, or written by a newer Boardroom — (exit code 2; a database that can't be reached: exit
code 1), a game data file that does not validate or is misplaced in `GAME_DATA_DIR` (exit code 2, naming the file
and the field), an unreadable setting such as a `GAME_DATA_DIR` that is not a folder (exit code 2), an `HTTP_PORT`
that can't be opened (exit code 2), a `DEV_GUILD_ID` of a server the bot is not in (Discord refuses the command sync
there: exit code 2), any other refusal or failure from Discord while starting, such as a 5xx at login (exit code 1).
Ctrl-C stops the bot cleanly (exit code 0).

Exit code 2 is a configuration error: starting again changes nothing until someone edits a setting or a file, so the
systemd units in `deploy/` don't restart on it (`RestartPreventExitStatus=2`). Exit code 1 may pass by itself (a
database or network that is not there yet): they restart on it. The `boardroom` console script (`bot.cli`) runs
this too (`boardroom run`), beside its offline commands.

`python -m bot copy-db --to postgresql://…` does not start the bot: it copies the SQLite file (DATABASE_PATH) into
an empty PostgreSQL database and replays every game there to check it (`bot.copydb`, docs/postgres.md).

`python -m bot rebuild-records` does not start the bot: it derives every player's record and rating again from the
games' logs (`bot.records`), prints how many, and exits. Stop the bot first (or use `/mod records rebuild`).
"""

import asyncio
import sys

import aiohttp
import discord
from pydantic import ValidationError

from bot import logs, runtime
from bot.http_port import HttpPortError
from bot.settings import Settings
from bot.sync import SyncRefused
from engine.errors import DataFileError, RegistrationError
from storage import StorageError, StoreFileError

EXIT_CONFIG = 2
EXIT_FAILURE = 1


def say(text: str) -> None:
    print(f"Boardroom: {text}", file=sys.stderr)


async def run(settings: Settings, **client_options: object) -> int:
    """Build the bot, log in and serve until closed; the exit code, with a one-line message for known failures."""
    from bot.client import create_bot, open_database

    try:
        store = await open_database(settings.database)
    except StorageError as exc:
        say(f"the database cannot be used: {exc}")
        return exit_code(exc)
    try:
        bot = create_bot(settings, store=store, **client_options)  # type: ignore[arg-type]
    except DataFileError as exc:
        await store.close()
        say(f"a game's data file is invalid: {exc}")
        return EXIT_CONFIG
    except RegistrationError as exc:  # a game's folders don't match (see docs/adding-a-game.md)
        await store.close()
        say(str(exc))
        return EXIT_CONFIG
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        say(
            "Discord rejected the token in DISCORD_TOKEN. Copy it again from the developer portal "
            "(Applications → your app → Bot → Reset Token) into .env."
        )
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        say("Discord refused the gateway intents the bot asked for; see the README's set-up section.")
        return EXIT_CONFIG
    except StorageError as exc:
        say(f"the database cannot be used: {exc}")
        return exit_code(exc)
    except (SyncRefused, HttpPortError) as exc:
        say(str(exc))
        return EXIT_CONFIG
    except discord.HTTPException as exc:  # e.g. Discord's 5xx at login, after discord.py's own retries
        say(f"Discord answered {exc.status} ({_reason(exc)}) while the bot was starting. Try again in a while.")
        return EXIT_FAILURE
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        say(f"cannot reach Discord ({type(exc).__name__}: {exc}). Check the network and try again.")
        return EXIT_FAILURE
    return 0


def exit_code(exc: StorageError) -> int:
    """A database file the store refuses (not a database, corrupt, read-only, from a newer Boardroom) is a
    configuration error: it stays so until someone acts. Any other storage failure (a database server not reachable
    yet) may pass by itself."""
    return EXIT_CONFIG if isinstance(exc, StoreFileError) else EXIT_FAILURE


def _reason(exc: discord.HTTPException) -> str:
    text = " ".join((exc.text or "").split())[:200]
    reason = getattr(exc.response, "reason", None) or "error"
    return f"{reason}: {text}" if text else str(reason)


async def rebuild_records(settings: Settings) -> int:
    """Forget every record and rating and derive them all again from the games' logs."""
    import time

    from bot.client import open_database
    from bot.records import Recorder
    from engine import registry

    try:
        store = await open_database(settings.database)
    except StorageError as exc:
        say(f"the database cannot be used: {exc}")
        return exit_code(exc)
    try:
        started = time.perf_counter()
        counts = await Recorder(store, registry.build(settings.game_data_dir)).rebuild()
    except DataFileError as exc:
        say(f"a game's data file is invalid: {exc}")
        return EXIT_CONFIG
    except RegistrationError as exc:
        say(str(exc))
        return EXIT_CONFIG
    finally:
        await store.close()
    print(
        f"Boardroom: records rebuilt from the logs in {time.perf_counter() - started:.1f} s: "
        f"{counts.recorded} games recorded, {counts.rated} rated, {counts.skipped} skipped (see the log)."
    )
    return 1 if counts.skipped else 0


def main(argv: list[str] | None = None) -> int:
    args = argv or []  # the command line's arguments (`python -m bot` passes them; tests call main() without)
    copy_to = args[2] if len(args) == 3 and args[:2] == ["copy-db", "--to"] else None
    if args and args != ["rebuild-records"] and copy_to is None:
        say(
            f"unknown command {' '.join(args)!r}: use no argument to start the bot, `rebuild-records`, or "
            "`copy-db --to postgresql://…`."
        )
        return EXIT_CONFIG
    try:
        settings = Settings()
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]).upper()
        say(f"the setting {field} is not valid ({err['msg']}); see .env.example.")
        return EXIT_CONFIG
    if args == ["rebuild-records"]:
        logs.configure(settings.log_level, settings.log_format)
        return asyncio.run(rebuild_records(settings))
    if copy_to is not None:
        from bot.copydb import run_copy

        logs.configure(settings.log_level, settings.log_format)
        return asyncio.run(run_copy(settings.database_path, copy_to, settings.game_data_dir))
    if not settings.token:
        say("DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it.")
        return EXIT_CONFIG
    logs.configure(settings.log_level, settings.log_format)
    runtime.tune()  # the process's own settings: `run` (which the tests call) leaves the interpreter alone
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
