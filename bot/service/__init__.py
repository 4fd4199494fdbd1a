"""The one way into a game: lock it, load it, let the engine decide, commit, and say what must be delivered.

`GameService` sits between Discord and the engine. Every change to a game goes through it under that game's
`asyncio.Lock`: load the record and snapshot, `game.apply` (a `RuleError` leaves everything untouched), then one
store transaction with the log entry, the new snapshot, the recomputed timers (`bot.timers`) and the outbox rows
(`bot.outbox`). Only after the commit does the caller hand the returned outbox ids to the notifier, so nothing is
ever announced that is not stored. The store's optimistic version check catches a writer outside this process
(`StaleVersion`): the service reloads and tries again.

The service knows nothing of Discord objects: players are user ids and display names, refusals are `Refusal`s
(already worded for the person) or the engine's `RuleError`s (worded with seat references, rendered by the caller).

Decisions where the issue is silent:
- The creator of a lobby joins it at once; seats are numbered in join order, shuffled at start when "random seat
  order" is on (the shuffle uses the set-up seed, so it is recorded). An option that names a player (a
  `PlayerOption`, e.g. who begins) is kept with the lobby's settings as a person (`PlayerPick`) and becomes that
  person's seat at the start, after the shuffle; the game's stored options then hold the seat, so it replays.
- While a game is paused, players' moves are refused; moderators may still substitute, kick, end, undo, export and
  verify. Timers of a paused game are frozen (see `bot.timers`).
- `/mod export` holds every secret (the seed, private events, the snapshot): while a game is active or paused it
  is refused to a moderator who holds a seat in it; after the game (or in a lobby) anyone with the rights gets it.
- An undo restarts the clocks of the waits it restores (a full turn / reaction time from the undo), so an old wait
  brought back is not overdue at once.
- A kick puts the seat on autopilot (`bot.service.autopilot`): the member is out, the seat keeps its name and the
  game goes on. With `remove` (or in a game without a policy) it applies the engine's `Leave` action (the game's rule
  for a leaving player) so it is logged and replays; when the game cannot go on it ends, abandoned, with the
  standings so far.
- Computer players and autopiloted seats play through `bot.service.autopilot` (timers planned by
  `bot.seat_players` with every commit, a move applied like a person's).
- `/game away` applies to all the player's seats in open games of that server; while away, each reaction window
  that waits on them gets the game's `away_action` (the generic one: a legal `pass`) at once.
- A commit writes a seat's `hand` row when the seat got private events or its `hand_fingerprint` (the game's
  `hand_digest` plus the hand's buttons) changed, so buttons that come and go (a secret choice opening after a
  challenge, or again after an undo) always reach the DM through the outbox. It writes a `tracked` row when the
  events have event posts or the presentation has live posts (refreshed even after an undo, which has no events).
- `/game dms` (`retry_dms`) queues the player's hand (or lobby welcome) in each of their open games of that server
  with `retry_dm`, so the notifier tries a DM even where it was found closed; server defaults (`set_defaults`) are
  stored per server and read by `/game new`.
- A wait is announced in the thread (mentioning who is awaited) only when it is news: someone is awaited for
  something they were not awaited for just before (`announcements`). A deadline that merely moved — the same people
  awaited for the same thing, e.g. a Boss whose time restarts with every move of a round — is shown by the status
  message, not pinged again; one more pass in a reaction window pings nobody. After an undo every wait is announced.
- The game's set-up events (`Game.setup_events`) are posted with the start: public ones in the opening narration
  (and as tracked posts if the game has any for them), private ones in their seat's first hand message.
- A reaction (`react`) is decided under the game's lock in one go: stray or not (`reaction_allowed`), what it means
  (`reaction_action`), and when the engine refuses that move, the game's answer (`reaction_refused`) is queued right
  there, from that one refused `apply`. A move by command or button that the engine refuses is answered to the
  player alone, unless the game says the table should hear it too (`action_refused`, e.g. KKK's shake over the
  deal's payout, posted the same way whether it came as a 🤝 or as `/kkk shake`): that post is queued the same way
  and its rows ride on the `Refusal` (`outbox_ids`) for `bot.replies.answer` to deliver.
"""

from bot.service.clock import ClockOps
from bot.service.core import COMMIT_RETRIES, LOBBY_REF, ServiceCore, announcements
from bot.service.lobby import LobbyOps
from bot.service.lobby_settings import LobbySettings
from bot.service.moderation import ModerationOps
from bot.service.play import FetchReactions, PlayOps, parse_reaction_note, reaction_note
from bot.service.results import Done, Person, Reacted, ReactionOutcome, Reconciled, Refusal, RuleRefusal


class GameService(LobbyOps, PlayOps, ClockOps, ModerationOps, ServiceCore):
    """Every way into a game, one concern per module: lobby, play, clock, moderation (see the modules)."""


__all__ = [
    "COMMIT_RETRIES",
    "LOBBY_REF",
    "Done",
    "FetchReactions",
    "GameService",
    "LobbySettings",
    "Person",
    "Reacted",
    "ReactionOutcome",
    "Reconciled",
    "Refusal",
    "RuleRefusal",
    "announcements",
    "parse_reaction_note",
    "reaction_note",
]
