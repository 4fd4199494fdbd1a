"""The Discord adapter: slash commands, buttons, reactions, DMs, rendering and scheduling.

- `client`: `create_bot(settings, ...)` and the bot's start-up; `__main__`: `python -m bot`; `settings`: the settings;
  `host`: the running bot as the features see it.
- `service`: the one way into a game (lock, engine, commit); `timers`: deadlines, reminders, pauses;
  `outbox`: what a commit asks to deliver; `notifier`: delivers it (exactly once, across crashes);
  `scheduler`: fires due timers.
- `cogs/`: `/game`, `/mod` and the reaction listener; `components` and `clicks`: persistent buttons, routed by
  registration (each feature's beside it: `lobby_buttons`, `game_buttons`, `hand_answer`, …); `replies`: answering
  interactions in time; `resolve`: which game a command means, and who moderates.
- `presentation`: the hooks a game implements in `games/<game>/` (status, hand, narration, buttons, reactions,
  its own commands), with a generic fallback; `lobby`: the lobby message.
"""
