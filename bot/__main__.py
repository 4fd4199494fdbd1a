"""`python -m bot`: start Boardroom.

The Discord client is not built yet (it arrives with the bot-platform issue); until then this entry point checks the
one setting it will need and says plainly that there is nothing to run, instead of failing with a traceback.
"""

import os
import sys
from pathlib import Path


def _token_from_env_file(path: Path) -> str:
    if not path.is_file():
        return ""
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() == "DISCORD_TOKEN":
            return value.strip().strip("'\"")
    return ""


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN") or _token_from_env_file(Path(".env"))
    if not token:
        print("Boardroom: DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it.")
        return 2
    print("Boardroom: the Discord bot is not built yet in this version; the game engines are (see README).")
    return 2


if __name__ == "__main__":
    sys.exit(main())
