"""The Discord adapter: slash commands, buttons, reactions, DMs, rendering and scheduling."""
